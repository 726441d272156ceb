// lower.cpp - TFLite subgraph 0 -> PlanBuilder records -> `.tgrs` bytes.
// (Operator families with more to say live in lower_data.cpp and
// lower_binary.cpp; lowering.hpp holds the shared state.)
//
// TFLite already stores activations channels-last (NHWC), which is the
// format's stored order, and its Conv (OHWI), DepthwiseConv ([1,KH,KW,OC])
// and FullyConnected ([OC,IC]) weights have the byte layout the format
// defines, so weights are copied as they are. What changes: constants leave
// the operator input lists (weight_idx / bias_idx / attributes), SAME
// padding becomes explicit pads, int8 outputs of weight-bearing operators
// carry TFLite's per-channel multipliers, and boundary QUANTIZE/DEQUANTIZE
// become the interface dtype of the int8 tensor behind them.
#include "tigris_import/lower.hpp"

#include "lowering.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

#include "tigris.h"
#include "tigris_import/quant.hpp"
#include "tigris_import/schedule.hpp"
#include "tigris_loader.h"
#include "tigris_planfile/plan_builder.hpp"

namespace tigris::import {
namespace detail {

void refuse(RefusalKind k, const std::string &msg) { throw ImportError(Refusal{k, msg}); }

void put_i32(std::vector<uint8_t> &v, int32_t x) {
    for (int s = 0; s < 32; s += 8) v.push_back((uint8_t)((uint32_t)x >> s));
}
void put_u16(std::vector<uint8_t> &v, uint16_t x) {
    v.push_back((uint8_t)x);
    v.push_back((uint8_t)(x >> 8));
}

std::span<const uint8_t> Lowering::data(int32_t i) const {
    const tfl::Tensor &x = t(i);
    if (x.buffer == 0 || x.buffer >= m.buffers.size()) return {};
    return m.buffers[x.buffer].data;
}

std::string Lowering::who(size_t op_index) const {
    const tfl::OperatorCode &c = m.operator_codes[sg.operators[op_index].opcode_index];
    return (sub ? "subgraph " + std::to_string(sub) + " " : std::string()) + "operator " + std::to_string(op_index) +
           " " + tfl::builtin_name(c.builtin);
}

int32_t Lowering::resolve(int32_t i) const {
    auto it = alias.find(i);
    return it == alias.end() ? i : it->second;
}

std::vector<int64_t> Lowering::const_ints(int32_t i, const std::string &what, size_t op_index) const {
    if (i < 0 || !is_const(i))
        refuse(RefusalKind::UnsupportedOperator, who(op_index) + ": " + what + " must be a constant tensor");
    const tfl::Tensor &x = t(i);
    const auto d = data(i);
    size_t es = x.type == tfl::TensorType::Int32 ? 4 : x.type == tfl::TensorType::Int64 ? 8 : 0;
    if (!es)
        refuse(RefusalKind::InvalidModel, who(op_index) + ": " + what + " has type " + tfl::tensor_type_name(x.type) +
                                              " (int32 or int64 expected)");
    // The element count, capped so hostile shapes cannot overflow it: a
    // buffer never holds 2^40 elements.
    uint64_t n = 1;
    for (int32_t dim : x.shape) n = std::min<uint64_t>(n * (uint64_t)(dim < 0 ? 0 : dim), uint64_t{1} << 40);
    if (n * es != d.size())
        refuse(RefusalKind::InvalidModel, who(op_index) + ": " + what + " holds " + std::to_string(d.size()) +
                                              " bytes for " + std::to_string(n) + " elements");
    std::vector<int64_t> out;
    for (size_t k = 0; k < d.size(); k += es) {
        uint64_t u = 0;
        for (size_t j = 0; j < es; ++j) u |= (uint64_t)d[k + j] << (8 * j);
        out.push_back(es == 4 ? (int64_t)(int32_t)(uint32_t)u : (int64_t)u);
    }
    return out;
}

bool Lowering::same_encoding(int32_t a, int32_t b_) const {
    const tfl::Tensor &x = t(a), &y = t(b_);
    if (x.type != tfl::TensorType::Int8 && y.type != tfl::TensorType::Int8) return true;
    if (x.type != y.type || !x.quant.present() || !y.quant.present()) return false;
    return x.quant.scale[0] == y.quant.scale[0] && x.quant.zero_point[0] == y.quant.zero_point[0];
}

void Lowering::require_same_encoding(int32_t in, int32_t out, size_t i) const {
    if (!same_encoding(in, out))
        refuse(RefusalKind::UnsupportedAttribute,
               who(i) + ": input \"" + t(in).name + "\" and output \"" + t(out).name +
                   "\" have different int8 encodings; TFLite copies the bytes unchanged here, which the plan's "
                   "kernels would requantize");
}

void Lowering::need_attributes(size_t op_index, const char *what) const {
    if (opt.schema < 8)
        refuse(RefusalKind::BadOption, who(op_index) + " needs the " + what + " attribute (schema 8 or later)");
}

// ---- boundary conversions ----
void Lowering::fold_boundaries() {
    for (size_t i = 0; i < sg.operators.size(); ++i) {
        if (!is_boundary_conversion(m, i, sub)) continue;
        const tfl::Operator &op = sg.operators[i];
        const int32_t from = op.inputs[0], to = op.outputs[0];
        const bool quantize = m.operator_codes[op.opcode_index].builtin == tfl::kQuantize;
        const int32_t outer = quantize ? from : to, inner = quantize ? to : from;
        if (t(outer).type != tfl::TensorType::Float32 || t(inner).type != tfl::TensorType::Int8 ||
            !t(inner).quant.present())
            refuse(RefusalKind::UnsupportedOperator,
                   who(i) + " converts " + tfl::tensor_type_name(t(from).type) + " to " +
                       tfl::tensor_type_name(t(to).type) +
                       "; only float32 <-> quantized int8 at the model boundary is lowered");
        if (opt.schema < 6)
            refuse(RefusalKind::BadOption, "the model has float32 inputs or outputs around an int8 body, which "
                                           "needs declared interface dtypes (schema 6 or later)");
        // The float tensor must be used by nothing else.
        for (size_t j = 0; j < sg.operators.size(); ++j) {
            if (j == i) continue;
            for (int32_t x : sg.operators[j].inputs)
                if (x == outer) refuse(RefusalKind::UnsupportedOperator, who(i) + ": its float tensor has other users");
            for (int32_t x : sg.operators[j].outputs)
                if (x == outer) refuse(RefusalKind::UnsupportedOperator, who(i) + ": its float tensor has other writers");
        }
        alias[outer] = inner;
        iface[inner] = TIGRIS_DTYPE_FLOAT32;
        report.folded.push_back(who(i) + " -> float32 interface of \"" + t(inner).name + "\"");
    }
}

// A model output that is also a model input: what is left of a model that
// is only a boundary conversion (a lone QUANTIZE or DEQUANTIZE, folded into
// the interface). One plan tensor cannot declare two interface dtypes, and a
// plan needs a stage, so the output becomes a copy of the input made by an
// identity RESHAPE (a pure reinterpretation the executor runs in place), each
// side with its own declared dtype: the runtime's interface conversions then
// do what the TFLite operator did. Other outputs are returned as they are.
uint16_t Lowering::separate_from_input(int32_t out) {
    const uint16_t id = tensor_of.at(resolve(out));
    if (!(b.tensors[id].flags & TIGRIS_TENSOR_MODEL_INPUT)) return id;
    int32_t model_in = -1;
    for (int32_t in : sg.inputs)
        if (resolve(in) == resolve(out)) model_in = in;
    pf::Tensor copy = b.tensors[id];
    copy.name = t(out).name == b.tensors[id].name ? copy.name + "/output" : t(out).name;
    copy.flags = TIGRIS_TENSOR_MODEL_OUTPUT;
    copy.iface_dtype = t(out).type == tfl::TensorType::Float32 && copy.dtype != TIGRIS_DTYPE_FLOAT32 ? TIGRIS_DTYPE_FLOAT32 : 0;
    b.tensors[id].flags &= (uint8_t)~TIGRIS_TENSOR_MODEL_OUTPUT;
    b.tensors[id].iface_dtype =
        model_in >= 0 && t(model_in).type == tfl::TensorType::Float32 && b.tensors[id].dtype != TIGRIS_DTYPE_FLOAT32
            ? TIGRIS_DTYPE_FLOAT32
            : 0;
    b.tensors.push_back(copy);
    const uint16_t cid = (uint16_t)(b.tensors.size() - 1);
    pf::Op o;
    o.name = copy.name;
    o.type = TIGRIS_OP_RESHAPE;
    o.inputs = {id};
    o.outputs = {cid};
    b.ops.push_back(o);
    return cid;
}

// ---- quantization ----
int Lowering::quant_for(int32_t i, const std::vector<Multiplier> &mult) {
    const tfl::Quantization &q = t(i).quant;
    if (!q.present()) return -1;
    if (q.scale.size() != 1 || q.zero_point.size() != 1)
        refuse(RefusalKind::InvalidModel, "activation tensor \"" + t(i).name + "\" is quantized per channel");
    if (!(q.scale[0] > 0.0f) || !std::isfinite(q.scale[0]))
        refuse(RefusalKind::InvalidModel, "tensor \"" + t(i).name + "\" has a non-positive scale");
    std::vector<int32_t> ms, ss;
    for (const Multiplier &x : mult) {
        ms.push_back(x.multiplier);
        ss.push_back(x.shift);
    }
    if (mult.empty()) {
        Multiplier own = quantize_multiplier((double)q.scale[0]);
        ms = {own.multiplier};
        ss = {own.shift};
    }
    return b.add_quant(q.scale[0], (int32_t)q.zero_point[0], ms, ss);
}

// ---- tensors ----
static uint8_t dtype_of(tfl::TensorType ty) {
    switch (ty) {
    case tfl::TensorType::Float32: return TIGRIS_DTYPE_FLOAT32;
    case tfl::TensorType::Int8: return TIGRIS_DTYPE_INT8;
    case tfl::TensorType::Int32: return TIGRIS_DTYPE_INT32;
    case tfl::TensorType::Bool: return TIGRIS_DTYPE_BOOL;
    default: return 0;
    }
}

uint16_t Lowering::tensor(int32_t i, const std::vector<Multiplier> &mult) {
    i = resolve(i);
    auto it = tensor_of.find(i);
    if (it != tensor_of.end()) return it->second;
    const tfl::Tensor &x = t(i);
    const uint8_t dt = dtype_of(x.type);
    if (!dt)
        refuse(RefusalKind::UnsupportedDtype,
               "tensor \"" + x.name + "\" has type " + tfl::tensor_type_name(x.type) + " inside the graph");
    if (x.is_variable) refuse(RefusalKind::UnsupportedOperator, "variable tensor \"" + x.name + "\" (state) is not lowered yet");
    std::vector<int32_t> shape = x.shape.empty() ? std::vector<int32_t>{1} : x.shape;
    for (int32_t d : shape)
        if (d <= 0) refuse(RefusalKind::InvalidModel, "tensor \"" + x.name + "\" has a dynamic or empty dimension");
    uint8_t flags = 0;
    if (sub == 0) {  // a subgraph's inputs and outputs are the control operator's, not the model's
        for (int32_t in : sg.inputs)
            if (resolve(in) == i) flags |= TIGRIS_TENSOR_MODEL_INPUT;
        for (int32_t out : sg.outputs)
            if (resolve(out) == i) flags |= TIGRIS_TENSOR_MODEL_OUTPUT;
    }
    int q = -1;
    if (dt == TIGRIS_DTYPE_INT8) {
        q = quant_for(i, mult);
        if (q < 0) refuse(RefusalKind::InvalidModel, "int8 tensor \"" + x.name + "\" has no quantization");
    }
    const uint16_t id = b.add_tensor(x.name, dt, shape, flags, q);
    auto f = iface.find(i);
    if (f != iface.end()) b.tensors[id].iface_dtype = f->second;
    tensor_of[i] = id;
    return id;
}

uint16_t Lowering::weight(int32_t i) {
    auto d = data(i);
    return b.add_weight(t(i).name, std::vector<uint8_t>(d.begin(), d.end()));
}

namespace {

uint8_t fused(int8_t a, const std::string &w) {
    switch (a) {
    case 0: return TIGRIS_ACT_NONE;
    case 1: return TIGRIS_ACT_RELU;
    case 3: return TIGRIS_ACT_RELU6;
    default: refuse(RefusalKind::UnsupportedAttribute, w + ": fused activation " + std::to_string(a) + " (only NONE, RELU, RELU6)");
    }
}

// TFLite SAME padding: the total the window overhangs, the smaller half first.
// In 64 bits: shapes and options come from the file. nullopt when a pad
// does not fit the format's 16-bit fields.
std::optional<std::pair<uint16_t, uint16_t>> same_pads(int64_t in, int64_t out, int64_t k, int64_t s, int64_t d) {
    const int64_t eff = (k - 1) * d + 1;
    const int64_t total = std::max<int64_t>((out - 1) * s + eff - in, 0);
    if (total - total / 2 > 0xFFFF) return std::nullopt;
    return std::pair<uint16_t, uint16_t>{(uint16_t)(total / 2), (uint16_t)(total - total / 2)};
}

}  // namespace

// ---- activations ----
// int8 clamp bounds of a fused activation, as TFLite computes them from
// the output quantization (zero point, and 6/scale rounded half away).
void Lowering::act_bounds(pf::Op &o, int32_t out) {
    if (t(out).type != tfl::TensorType::Int8) return;
    const float s = t(out).quant.scale[0];
    const int32_t z = (int32_t)t(out).quant.zero_point[0];
    int32_t lo = -128, hi = 127;
    if (o.fused_act == TIGRIS_ACT_RELU || o.fused_act == TIGRIS_ACT_RELU6) lo = std::max(lo, z);
    if (o.fused_act == TIGRIS_ACT_RELU6) {
        const float six = std::round(6.0f / s);  // finite and positive: scales were checked
        hi = (int32_t)std::min<int64_t>(hi, (int64_t)z + (six < 1e6f ? (int64_t)six : 1000000));
    }
    o.act_min = (int8_t)lo;
    o.act_max = (int8_t)hi;
}

// ---- padding ----
void Lowering::windowed(pf::Op &o, const tfl::Operator &op, int32_t kh, int32_t kw, int32_t in, int32_t out, size_t i) {
    const tfl::Options &p = op.options;
    const auto &is = t(in).shape, &os = t(out).shape;
    if (is.size() != 4 || os.size() != 4) refuse(RefusalKind::InvalidModel, who(i) + ": input and output must be rank 4");
    if (kh <= 0 || kw <= 0 || kh > 255 || kw > 255 || p.stride_h > 255 || p.stride_w > 255 || p.stride_h <= 0 ||
        p.stride_w <= 0)
        refuse(RefusalKind::UnsupportedAttribute, who(i) + ": kernel or stride not in 1..255");
    o.spatial = tigris_spatial_t{};
    o.spatial.kernel_h = (uint8_t)kh;
    o.spatial.kernel_w = (uint8_t)kw;
    o.spatial.stride_h = (uint8_t)p.stride_h;
    o.spatial.stride_w = (uint8_t)p.stride_w;
    if (p.dilation_h > 0xFFFF || p.dilation_w > 0xFFFF)
        refuse(RefusalKind::UnsupportedAttribute, who(i) + ": dilation above 65535");
    o.spatial.dilation_h = (uint16_t)std::max(1, p.dilation_h);
    o.spatial.dilation_w = (uint16_t)std::max(1, p.dilation_w);
    o.spatial.group = 1;
    if (p.padding == 0) {
        const auto hp = same_pads(is[1], os[1], kh, p.stride_h, o.spatial.dilation_h);
        const auto wp = same_pads(is[2], os[2], kw, p.stride_w, o.spatial.dilation_w);
        if (!hp || !wp) refuse(RefusalKind::InvalidModel, who(i) + ": padding does not fit 16 bits");
        const auto [top, bottom] = *hp;
        const auto [left, right] = *wp;
        o.spatial.pad_top = top;
        o.spatial.pad_bottom = bottom;
        o.spatial.pad_left = left;
        o.spatial.pad_right = right;
    }
}

// ---- operators ----
void Lowering::lower_op(size_t i) {
    const tfl::Operator &op = sg.operators[i];
    const auto code = lowered_opcode(m, i, sub);
    if (!code) return;  // boundary conversion, folded
    const int32_t builtin = m.operator_codes[op.opcode_index].builtin;
    if (lower_self_pushing(op, i, builtin)) return;
    if (builtin == tfl::kIf || builtin == tfl::kWhile) {
        lower_control(op, i, builtin);
        return;
    }
    if (builtin == tfl::kSvdf) {
        lower_svdf(op, i);
        return;
    }
    std::vector<int32_t> rt, cs;  // runtime and constant inputs, in order
    for (int32_t x : op.inputs) {
        if (x < 0) continue;
        (is_const(x) ? cs : rt).push_back(x);
    }
    if (op.outputs.size() != 1) refuse(RefusalKind::UnsupportedOperator, who(i) + " with several outputs is not lowered yet");
    if (rt.empty() || op.outputs[0] < 0) refuse(RefusalKind::InvalidModel, who(i) + " has no runtime input or output");
    const int32_t out = op.outputs[0];
    const std::string w = who(i);
    const uint16_t at = (uint16_t)b.ops.size();  // this operator's plan index (for attributes)
    pf::Op o;
    o.name = t(out).name;
    o.type = *code;
    std::vector<Multiplier> out_mult;  // effective multipliers for weight-bearing outputs
    bool consts_taken = false;         // the case consumed the constant inputs itself
    if (builtin == tfl::kMean || builtin == tfl::kSum || builtin == tfl::kReduceMax || builtin == tfl::kReduceMin) {
        lower_reduce(op, i, *code);
        return;
    }
    if (builtin == tfl::kQuantize) {   // an int8 -> int8 requantization (support.cpp)
        out_mult = lower_requantize(o, rt, out, i);
        consts_taken = true;
    } else {
        switch (*code) {
        case TIGRIS_OP_CONV:
        case TIGRIS_OP_DEPTHWISE:
        case TIGRIS_OP_FULLY_CONN: {
            if (rt.size() != 1 || cs.empty() || cs.size() > 2)
                refuse(RefusalKind::UnsupportedOperator, w + ": needs one runtime input and constant weights (and bias)");
            const int32_t filt = cs[0];
            const auto &fs = t(filt).shape;
            if (*code == TIGRIS_OP_FULLY_CONN) {
                if (op.options.weights_format != 0) refuse(RefusalKind::UnsupportedAttribute, w + ": shuffled weights");
            } else {
                if (fs.size() != 4) refuse(RefusalKind::InvalidModel, w + ": filter must be rank 4");
                windowed(o, op, fs[1], fs[2], rt[0], out, i);
                if (*code == TIGRIS_OP_DEPTHWISE) o.spatial.group = (uint16_t)t(rt[0]).shape[3];
            }
            o.fused_act = fused(op.options.fused_activation, w);
            o.weight = weight(filt);
            if (cs.size() == 2) o.bias = weight(cs[1]);
            if (t(out).type == tfl::TensorType::Int8) {
                const auto &fq = t(filt).quant;
                if (!t(rt[0]).quant.present() || !fq.present() || !t(out).quant.present())
                    refuse(RefusalKind::InvalidModel, w + ": int8 operands without quantization");
                out_mult = channel_multipliers(t(rt[0]).quant.scale[0], fq.scale, t(out).quant.scale[0]);
            }
            consts_taken = true;
            break;
        }
        case TIGRIS_OP_AVG_POOL:
        case TIGRIS_OP_MAX_POOL:
            if (op.options.fused_activation != 0)
                refuse(RefusalKind::UnsupportedAttribute, w + ": a fused activation on a pool is not lowered yet");
            windowed(o, op, op.options.filter_h, op.options.filter_w, rt.at(0), out, i);
            require_same_encoding(rt.at(0), out, i);
            break;
        case TIGRIS_OP_RESHAPE:  // also SQUEEZE and EXPAND_DIMS: the output shape says it all
            rt.resize(1);  // the shape operand is either constant or not read
            require_same_encoding(rt[0], out, i);
            consts_taken = true;
            break;
        case TIGRIS_OP_SOFTMAX:
            if (op.options.beta != 1.0f) refuse(RefusalKind::UnsupportedAttribute, w + ": beta other than 1");
            break;
        case TIGRIS_OP_DIV:
            // The int8 kernel's quotient rescaling is not TFLite Micro's when
            // the total shift is a left shift (the oracle finds other bytes).
            if (t(out).type == tfl::TensorType::Int8)
                refuse(RefusalKind::UnsupportedAttribute, w + ": int8 DIV is not lowered yet (float32 is)");
            lower_binary(o, op, rt, i, at);
            consts_taken = true;
            break;
        case TIGRIS_OP_ADD:
        case TIGRIS_OP_SUB:
        case TIGRIS_OP_MUL:
        case TIGRIS_OP_MAXIMUM:
        case TIGRIS_OP_MINIMUM:
        case TIGRIS_OP_FLOOR_DIV:
        case TIGRIS_OP_FLOOR_MOD:
        case TIGRIS_OP_SQUARED_DIFFERENCE:
        case TIGRIS_OP_PRELU:
            lower_binary(o, op, rt, i, at);
            consts_taken = true;
            break;
        case TIGRIS_OP_STRIDED_SLICE:
            lower_slice(o, op, rt, i, at);
            consts_taken = true;
            break;
        case TIGRIS_OP_PAD:
            lower_pad(o, op, rt, i, at);
            consts_taken = true;
            break;
        case TIGRIS_OP_EQUAL:
        case TIGRIS_OP_LESS:
        case TIGRIS_OP_LESS_EQUAL:
        case TIGRIS_OP_GREATER:
        case TIGRIS_OP_GREATER_EQUAL:
            lower_comparison(o, op, rt, i, at);
            consts_taken = true;
            break;
        case TIGRIS_OP_CONCAT:
            lower_concat(o, op, rt, i);
            break;
        case TIGRIS_OP_LEAKY_RELU:
            lower_leaky_relu(op, i, at);
            break;
        case TIGRIS_OP_RELU6:
            // TFLite clamps the raw bytes to [zp, 6/s + zp] of the input and
            // keeps them (no requantization), unlike RELU.
            require_same_encoding(rt.at(0), out, i);
            break;
        case TIGRIS_OP_RELU:
        case TIGRIS_OP_SIGMOID:
        case TIGRIS_OP_TANH:
        case TIGRIS_OP_HARDSWISH:
        case TIGRIS_OP_ABS:
        case TIGRIS_OP_FLOOR:
        case TIGRIS_OP_CEIL:
        case TIGRIS_OP_ROUND:
        case TIGRIS_OP_EXP:
        case TIGRIS_OP_LOG:
        case TIGRIS_OP_SQRT:
        case TIGRIS_OP_RSQRT:
        case TIGRIS_OP_SQUARE:
        case TIGRIS_OP_NEG:
        case TIGRIS_OP_SIN:
        case TIGRIS_OP_COS:
        case TIGRIS_OP_ELU:
        case TIGRIS_OP_LOG_SOFTMAX:
            // Pointwise (or per-row) with no attribute; what the runtime has
            // no kernel for in the plan's dtype the loader refuses.
            break;
        case TIGRIS_OP_L2_NORMALIZATION: {
            if (op.options.fused_activation != 0)
                refuse(RefusalKind::UnsupportedAttribute, w + ": a fused activation on L2_NORMALIZATION is not lowered");
            // TFLite Micro's float kernel uses a fixed 1e-6 (its int8 kernel none).
            need_attributes(i, "EPSILON");
            const float eps = 1e-6f;
            std::vector<uint8_t> payload(4);
            std::memcpy(payload.data(), &eps, 4);
            b.add_attribute(at, TIGRIS_ATTR_EPSILON, payload);
            break;
        }
        default:
            refuse(RefusalKind::UnsupportedOperator, w + " is not lowered yet");
        }
    }
    if (!cs.empty() && !consts_taken)
        refuse(RefusalKind::UnsupportedOperator, w + ": constant operands are not lowered for it yet");
    for (int32_t x : rt) o.inputs.push_back(tensor(x));
    o.outputs.push_back(tensor(out, out_mult));
    act_bounds(o, out);
    b.ops.push_back(o);
}

}  // namespace detail

Lowered lower_model(const tflite::Model &model, const Options &opt) {
    using detail::refuse;
    if (opt.schema < 4 || opt.schema > 11) refuse(RefusalKind::BadOption, "--schema must be 4..11");
    if (opt.lz4 && opt.xip) refuse(RefusalKind::BadOption, "--compress lz4 and --xip exclude each other");
    if (auto r = check_importable(model)) throw ImportError(*r);
    if (model.subgraphs.size() > 1 && opt.schema < 10)
        refuse(RefusalKind::BadOption, "IF / WHILE subgraphs need schema 10 or later");
    planfile::PlanBuilder builder(opt.schema);
    Report report;
    detail::Lowering L(model, opt, 0, builder, report);
    L.b.model_name = !opt.model_name.empty()             ? opt.model_name
                     : !model.subgraphs[0].name.empty() ? model.subgraphs[0].name
                                                         : "model";
    L.fold_boundaries();
    // Model inputs first, in the model's order, so the plan's input order is the model's.
    for (int32_t in : L.sg.inputs) L.tensor(in);
    for (size_t i = 0; i < L.sg.operators.size(); ++i) L.lower_op(i);
    for (int32_t out : L.sg.outputs)
        if (!L.tensor_of.count(L.resolve(out)))
            refuse(RefusalKind::InvalidModel, "model output \"" + L.t(out).name + "\" is written by no operator");
    L.b.auto_model_io = false;
    for (int32_t in : L.sg.inputs) L.b.model_inputs.push_back(L.tensor_of.at(L.resolve(in)));
    for (int32_t out : L.sg.outputs) L.b.model_outputs.push_back(L.separate_from_input(out));
    // The control-flow graphs, each after the last: its tensors and operators
    // form one range of their own (docs/format.md P12). Until the stages are
    // scheduled a graph record holds its first operator and operator count.
    std::vector<uint16_t> graph_first_op;
    if (model.subgraphs.size() > 1) {
        L.b.subgraphs.push_back({0, (uint16_t)L.b.ops.size(), L.b.model_inputs, L.b.model_outputs});
        for (size_t g = 1; g < model.subgraphs.size(); ++g) {
            detail::Lowering G(model, opt, g, builder, report);
            const uint16_t first = (uint16_t)G.b.ops.size();
            std::vector<uint16_t> ins, outs;
            for (int32_t in : G.sg.inputs) ins.push_back(G.tensor(in));
            for (size_t i = 0; i < G.sg.operators.size(); ++i) G.lower_op(i);
            for (int32_t out : G.sg.outputs) {
                if (out < 0 || !G.tensor_of.count(out))
                    refuse(RefusalKind::UnsupportedOperator,
                           "subgraph " + std::to_string(g) + " output " + std::to_string(out) +
                               " is written by no operator (a constant or missing result is not lowered)");
                outs.push_back(G.tensor_of.at(out));
            }
            if (G.b.ops.size() == first)
                refuse(RefusalKind::UnsupportedOperator,
                       "subgraph " + std::to_string(g) + " has no operator (an empty graph is not lowered)");
            L.b.subgraphs.push_back({first, (uint16_t)(G.b.ops.size() - first), ins, outs});
        }
    }
    if (opt.xip) L.b.flags |= TIGRIS_FLAG_XIP;
    if (opt.lz4) L.b.compression = planfile::Compression::Lz4Blocks;

    Report &r = L.report;
    r.model_name = L.b.model_name;
    r.schema = opt.schema;
    r.tensors = L.b.tensors.size();
    r.ops = L.b.ops.size();
    r.weights = L.b.weights.size();
    r.quant_params = L.b.quant.size();
    r.fast_budget = opt.fast_budget;
    return Lowered{std::move(builder), std::move(report)};
}

std::vector<uint8_t> build_checked(planfile::PlanBuilder &b) {
    std::vector<uint8_t> bytes = b.build();
    // The runtime's own loader is the judge: a plan it refuses is never handed out.
    std::vector<uint8_t> copy(bytes);
    tigris_plan_t plan;
    const tigris_error_t e = tigris_plan_load(copy.data(), (uint32_t)copy.size(), &plan);
    if (e != TIGRIS_OK)
        detail::refuse(RefusalKind::InvalidModel,
                       std::string("the lowered plan is refused by the loader: ") + tigris_error_str(e));
    return bytes;
}

Result import_model(const tflite::Model &model, const Options &opt) {
    Lowered low = lower_model(model, opt);
    Report &r = low.report;
    r.stages = schedule_stages(low.builder, opt.fast_budget);
    r.scheduled_peak = 0;
    for (const StageReport &s : r.stages) {
        r.scheduled_peak = std::max(r.scheduled_peak, s.peak);
        if (opt.fast_budget && s.peak > opt.fast_budget) r.budget_met = false;
    }
    low.builder.budget = r.scheduled_peak;
    low.builder.peak = r.scheduled_peak;
    low.builder.scheduled_peak = r.scheduled_peak;
    r.not_done = {"row-band tiling (every stage runs whole tensors; `tigris compile` tiles)", "chains"};

    Result res;
    res.plan = build_checked(low.builder);
    res.report = r;
    return res;
}

}  // namespace tigris::import
