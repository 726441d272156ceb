// tflite_eval.cpp - see tflite_eval.h.
#include "tflite_eval.h"

#include <algorithm>
#include <cstring>
#include <random>

#include "tigris_host/run.hpp"
#include "tigris_import/lower.hpp"

namespace tigris_test {

namespace tfl = tigris::tflite;

namespace {

size_t type_size(tfl::TensorType t) {
    switch (t) {
    case tfl::TensorType::Int8:
    case tfl::TensorType::UInt8:
    case tfl::TensorType::Bool: return 1;
    case tfl::TensorType::Int16: return 2;
    case tfl::TensorType::Float32:
    case tfl::TensorType::Int32: return 4;
    case tfl::TensorType::Int64: return 8;
    default: return 0;
    }
}

uint64_t elements(const tfl::Tensor &t) {
    uint64_t n = 1;
    for (int32_t d : t.shape) n *= d > 0 ? (uint64_t)d : 0;
    return n;
}

// The QUANTIZE that reads model input `in`, if any: its output's encoding is
// the range a float input is meant to cover.
const tfl::Tensor *quantized_behind(const tfl::Model &m, int32_t in) {
    const tfl::SubGraph &sg = m.subgraphs.at(0);
    for (const tfl::Operator &op : sg.operators)
        if (m.operator_codes.at(op.opcode_index).builtin == tfl::kQuantize && op.inputs.size() == 1 &&
            op.inputs[0] == in && op.outputs.size() == 1 && op.outputs[0] >= 0)
            return &sg.tensors.at((size_t)op.outputs[0]);
    return nullptr;
}

}  // namespace

std::vector<size_t> tflite_input_sizes(const tfl::Model &m) {
    if (m.subgraphs.empty()) throw TfliteEvalError("the model has no subgraph");
    const tfl::SubGraph &sg = m.subgraphs[0];
    std::vector<size_t> out;
    for (int32_t in : sg.inputs) {
        const tfl::Tensor &t = sg.tensors.at((size_t)in);
        if (!type_size(t.type))
            throw TfliteEvalError("model input \"" + t.name + "\" has type " + tfl::tensor_type_name(t.type) +
                                  ", which the evaluator does not feed");
        out.push_back((size_t)(elements(t) * type_size(t.type)));
    }
    return out;
}

TfliteEvalResult tflite_evaluate(const tfl::Model &m, std::span<const uint8_t> inputs) {
    const std::vector<size_t> sizes = tflite_input_sizes(m);
    size_t need = 0;
    for (size_t s : sizes) need += s;
    if (inputs.size() != need) {
        std::string each;
        for (size_t i = 0; i < sizes.size(); ++i)
            each += (i ? ", " : "") + ("\"" + m.subgraphs[0].tensors[(size_t)m.subgraphs[0].inputs[i]].name + "\" " +
                                      std::to_string(sizes[i]));
        throw TfliteEvalError("the inputs have " + std::to_string(inputs.size()) + " bytes; the model takes " +
                              std::to_string(need) + " (" + each + ")");
    }

    tigris::import::Options opt;  // schema 11, one operator per stage
    std::vector<uint8_t> plan;
    try {
        plan = tigris::import::import_model(m, opt).plan;
    } catch (const tigris::import::ImportError &e) {
        throw TfliteEvalError(std::string("import refused the model (") +
                              tigris::import::refusal_name(e.refusal.kind) + "): " + e.what());
    }

    // Ample arenas: every non-constant tensor twice over in the fast arena,
    // so placement never depends on the plan's budget figures.
    uint64_t fast = 64 * 1024;
    for (const tfl::Tensor &t : m.subgraphs[0].tensors) fast += 2 * (elements(t) * std::max<size_t>(type_size(t.type), 4) + 64);
    if (fast > 0x7FFFFFFFu) throw TfliteEvalError("the model's tensors need more than 2 GiB");

    tigris::host::RunOptions ro;
    ro.backend = tigris::host::Backend::S8;
    ro.fast_bytes = (uint32_t)fast;
    // Asked before each kernel call: counts them, so a failure names its operator.
    size_t calls = 0;
    ro.should_stop = [&calls] {
        ++calls;
        return false;
    };
    const std::vector<uint8_t> in(inputs.begin(), inputs.end());
    const tigris::host::RunResult r = tigris::host::run_plan(plan, in, ro);
    if (!r.ok()) {
        std::string where;
        if (r.step == tigris::host::RunStep::Execution && calls > 0 && calls <= r.op_names.size())
            where = " at plan operator " + std::to_string(calls - 1) + " (" + r.op_names[calls - 1] + ")";
        throw TfliteEvalError("the int8 reference run failed (" + r.error_name + ")" + where + ": " + r.error);
    }
    TfliteEvalResult res;
    res.outputs = r.outputs;
    res.output_sizes = r.output_sizes;
    res.operators = r.op_names.size();
    return res;
}

TfliteEvalResult tflite_evaluate(std::span<const uint8_t> model_file, std::span<const uint8_t> inputs) {
    tfl::Model m;
    try {
        m = tfl::read_model(model_file);
    } catch (const tfl::ReadError &e) {
        throw TfliteEvalError(std::string("not a readable TFLite model: ") + e.what());
    }
    return tflite_evaluate(m, inputs);
}

std::vector<uint8_t> tflite_seeded_inputs(const tfl::Model &m, uint32_t seed) {
    std::mt19937 rng(seed);  // its sequence is fixed by the standard
    const tfl::SubGraph &sg = m.subgraphs.at(0);
    const std::vector<size_t> sizes = tflite_input_sizes(m);
    std::vector<uint8_t> out;
    for (size_t i = 0; i < sizes.size(); ++i) {
        const int32_t in = sg.inputs[i];
        const tfl::Tensor &t = sg.tensors.at((size_t)in);
        if (t.type != tfl::TensorType::Float32) {
            for (size_t k = 0; k < sizes[i]; ++k) out.push_back((uint8_t)(rng() >> 24));
            continue;
        }
        float lo = -1.0f, hi = 1.0f;
        if (const tfl::Tensor *q = quantized_behind(m, in); q && q->quant.present()) {
            lo = (float)(-128 - q->quant.zero_point[0]) * q->quant.scale[0];
            hi = (float)(127 - q->quant.zero_point[0]) * q->quant.scale[0];
        }
        for (size_t k = 0; k < sizes[i] / 4; ++k) {
            const float u = (float)(rng() >> 8) / 16777216.0f;  // [0, 1) in 24 bits
            const float v = lo + u * (hi - lo);
            uint8_t b[4];
            std::memcpy(b, &v, 4);
            out.insert(out.end(), b, b + 4);
        }
    }
    return out;
}

}  // namespace tigris_test
