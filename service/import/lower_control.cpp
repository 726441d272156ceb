// lower_control.cpp - IF and WHILE with their subgraphs, and the comparisons
// a WHILE condition is usually made of.
//
// Plan graph k is TFLite subgraph k (lower_model lowers each subgraph after
// the main one, so each owns one tensor range). The runtime copies the
// operands into the graph's inputs and the graph's results out, byte for
// byte, as TFLite Micro does (docs/runtime-semantics.md R2.10); the loader
// wants every copied pair in the same form (dtype, size, shape), which is
// checked here so a model that differs is refused by name.
#include "lowering.hpp"
#include "tigris.h"

namespace tigris::import::detail {

namespace {

std::string shape_text(const std::vector<int32_t> &s) {
    std::string r = "[";
    for (size_t k = 0; k < s.size(); ++k) r += (k ? "," : "") + std::to_string(s[k]);
    return r + "]";
}

// The shape the plan gives a tensor (a scalar is [1]).
std::vector<int32_t> plan_shape(const tfl::Tensor &x) { return x.shape.empty() ? std::vector<int32_t>{1} : x.shape; }

}  // namespace

void Lowering::lower_control(const tfl::Operator &op, size_t i, int32_t builtin) {
    const std::string w = who(i);
    const bool is_if = builtin == tfl::kIf;
    const int32_t ga = op.options.subgraph_a, gb = op.options.subgraph_b;
    const int32_t n = (int32_t)m.subgraphs.size();
    if (ga <= 0 || gb <= 0 || ga >= n || gb >= n)
        refuse(RefusalKind::InvalidModel, w + ": subgraph indices " + std::to_string(ga) + ", " + std::to_string(gb) +
                                              " (1.." + std::to_string(n - 1) + " expected)");
    if ((size_t)ga == sub || (size_t)gb == sub)
        refuse(RefusalKind::InvalidModel, w + " runs the graph that holds it");
    if (!is_if && ga == gb) refuse(RefusalKind::InvalidModel, w + ": the condition and the body are one graph");
    if (opt.schema < 10) refuse(RefusalKind::BadOption, w + " needs subgraphs (schema 10 or later)");
    for (int32_t x : op.inputs) {
        if (x < 0) refuse(RefusalKind::InvalidModel, w + ": an omitted operand");
        if (is_const(x))
            refuse(RefusalKind::UnsupportedOperator,
                   w + ": constant operand \"" + t(x).name + "\" (only runtime operands are lowered)");
    }
    for (int32_t x : op.outputs)
        if (x < 0) refuse(RefusalKind::InvalidModel, w + ": an omitted result");
    if (op.inputs.empty()) refuse(RefusalKind::InvalidModel, w + " has no operand");

    // One TFLite tensor of another subgraph against one of this graph.
    auto same_form = [&](int32_t here, size_t g, int32_t there, const std::string &what) {
        const tfl::SubGraph &o = m.subgraphs[g];
        if (there < 0 || (size_t)there >= o.tensors.size())
            refuse(RefusalKind::InvalidModel, w + ": subgraph " + std::to_string(g) + " lists a missing tensor");
        const tfl::Tensor &a = t(here), &c = o.tensors[(size_t)there];
        if (a.type != c.type || plan_shape(a) != plan_shape(c))
            refuse(RefusalKind::UnsupportedAttribute,
                   w + ": " + what + " \"" + a.name + "\" is " + tfl::tensor_type_name(a.type) + shape_text(a.shape) +
                       " but subgraph " + std::to_string(g) + " has \"" + c.name + "\" " +
                       tfl::tensor_type_name(c.type) + shape_text(c.shape) +
                       " (the plan copies between tensors of one form only)");
    };
    std::vector<uint16_t> ins, outs;
    if (is_if) {
        const tfl::Tensor &c = t(op.inputs[0]);
        if (c.type != tfl::TensorType::Bool || (c.shape.size() > 0 && plan_shape(c) != std::vector<int32_t>(c.shape.size(), 1)))
            refuse(RefusalKind::InvalidModel, w + ": the condition must be a single bool");
        for (int32_t g : {ga, gb}) {
            const tfl::SubGraph &br = m.subgraphs[(size_t)g];
            if (br.inputs.size() != op.inputs.size() - 1 || br.outputs.size() != op.outputs.size())
                refuse(RefusalKind::InvalidModel, w + ": subgraph " + std::to_string(g) + " has " +
                                                      std::to_string(br.inputs.size()) + " inputs and " +
                                                      std::to_string(br.outputs.size()) + " outputs for " +
                                                      std::to_string(op.inputs.size() - 1) + " operands and " +
                                                      std::to_string(op.outputs.size()) + " results");
            for (size_t k = 1; k < op.inputs.size(); ++k) same_form(op.inputs[k], (size_t)g, br.inputs[k - 1], "operand");
            for (size_t k = 0; k < op.outputs.size(); ++k) same_form(op.outputs[k], (size_t)g, br.outputs[k], "result");
        }
    } else {
        const tfl::SubGraph &cg = m.subgraphs[(size_t)ga], &bg = m.subgraphs[(size_t)gb];
        const size_t k_n = op.inputs.size();
        if (op.outputs.size() != k_n || cg.inputs.size() != k_n || bg.inputs.size() != k_n ||
            bg.outputs.size() != k_n || cg.outputs.size() != 1)
            refuse(RefusalKind::InvalidModel,
                   w + ": the loop variables, the condition's inputs and the body's inputs and outputs must agree in "
                       "number, and the condition must give one result");
        for (size_t k = 0; k < k_n; ++k) {
            same_form(op.inputs[k], (size_t)ga, cg.inputs[k], "loop variable");
            same_form(op.inputs[k], (size_t)gb, bg.inputs[k], "loop variable");
            same_form(op.inputs[k], (size_t)gb, bg.outputs[k], "loop variable");
            const tfl::Tensor &a = t(op.inputs[k]), &r = t(op.outputs[k]);
            if (a.type != r.type || plan_shape(a) != plan_shape(r))
                refuse(RefusalKind::UnsupportedAttribute,
                       w + ": loop variable \"" + a.name + "\" and result \"" + r.name + "\" differ in form");
        }
        const int32_t cv = cg.outputs[0];
        if (cv < 0 || (size_t)cv >= cg.tensors.size() || cg.tensors[(size_t)cv].type != tfl::TensorType::Bool)
            refuse(RefusalKind::InvalidModel, w + ": the condition's result must be a bool");
        const auto cs = plan_shape(cg.tensors[(size_t)cv]);
        for (int32_t d : cs)
            if (d != 1) refuse(RefusalKind::InvalidModel, w + ": the condition's result must be a single bool");
    }
    for (int32_t x : op.inputs) ins.push_back(tensor(x));
    for (int32_t x : op.outputs) outs.push_back(tensor(x));
    const uint16_t at = push(is_if ? TIGRIS_OP_IF : TIGRIS_OP_WHILE, t(op.outputs[0]).name, ins, outs);
    std::vector<uint8_t> payload;
    put_u16(payload, (uint16_t)ga);
    put_u16(payload, (uint16_t)gb);
    b.add_attribute(at, TIGRIS_ATTR_SUBGRAPHS, payload);
}

// Float comparisons need nothing more; int8 ones TFLite Micro compares
// after shifting each operand left by 8 and rescaling it by its own scale
// (a multiplier below one): COMPARISON_REQUANT states those multipliers.
void Lowering::lower_comparison(pf::Op &o, const tfl::Operator &op, std::vector<int32_t> &rt, size_t i, uint16_t at) {
    const std::string w = who(i);
    if (op.inputs.size() != 2 || op.inputs[0] < 0 || op.inputs[1] < 0)
        refuse(RefusalKind::InvalidModel, w + ": needs two operands");
    const tfl::Tensor &a = t(op.inputs[0]), &c = t(op.inputs[1]);
    if (a.type != c.type) refuse(RefusalKind::InvalidModel, w + ": operands of two types");
    if (a.type != tfl::TensorType::Float32 && a.type != tfl::TensorType::Int8)
        refuse(RefusalKind::UnsupportedDtype,
               w + ": " + tfl::tensor_type_name(a.type) + " operands (float32 and int8 are lowered)");
    if (t(op.outputs[0]).type != tfl::TensorType::Bool) refuse(RefusalKind::InvalidModel, w + ": the result must be bool");
    lower_binary(o, op, rt, i, at);
    if (a.type != tfl::TensorType::Int8) return;
    need_attributes(i, "COMPARISON_REQUANT");
    std::vector<uint8_t> payload;
    put_i32(payload, 8);
    for (int32_t x : op.inputs) {
        const tfl::Quantization &q = t(x).quant;
        if (!q.present() || q.scale.size() != 1)
            refuse(RefusalKind::InvalidModel, w + ": int8 operand \"" + t(x).name + "\" needs per-tensor quantization");
        if (!(q.scale[0] > 0.0f) || !(q.scale[0] < 1.0f))
            refuse(RefusalKind::UnsupportedAttribute,
                   w + ": operand scale " + std::to_string(q.scale[0]) + " (TFLite Micro's comparison needs one in (0, 1))");
        const Multiplier mq = quantize_multiplier((double)q.scale[0]);
        if (mq.shift > 0 || mq.shift < -31)
            refuse(RefusalKind::UnsupportedAttribute, w + ": operand scale out of the comparison's range");
        put_i32(payload, mq.multiplier);
        put_i32(payload, mq.shift);
    }
    b.add_attribute(at, TIGRIS_ATTR_COMPARISON_REQUANT, payload);
}

}  // namespace tigris::import::detail
