// lower_binary.cpp - elementwise binary operators (ADD, SUB, MUL, MAXIMUM,
// MINIMUM) with two runtime operands or one constant operand, and the
// LEAKY_RELU alpha attribute.
#include <cstring>

#include "lowering.hpp"
#include "tigris.h"

namespace tigris::import::detail {

// A constant operand becomes the operator's weight plus a CONSTANT_OPERAND
// attribute (docs/format.md P14.3.1) in its long form: position, 0, the
// constant's own quant record, then its shape right-aligned to the output's
// rank (leading 1s), so any TFLite broadcast is stated exactly.
void Lowering::lower_binary(pf::Op &o, const tfl::Operator &op, std::vector<int32_t> &rt, size_t i, uint16_t at) {
    const std::string w = who(i);
    const int32_t out = op.outputs[0];
    if (op.inputs.size() != 2 || op.inputs[0] < 0 || op.inputs[1] < 0)
        refuse(RefusalKind::InvalidModel, w + ": needs two operands");
    const int32_t builtin = m.operator_codes[op.opcode_index].builtin;
    // ADD, SUB and MUL carry a fused activation; the kernels clamp to the
    // bounds act_bounds() derives from the output encoding, as TFLite does.
    switch (op.options.fused_activation) {
    case 0: o.fused_act = TIGRIS_ACT_NONE; break;
    case 1: o.fused_act = TIGRIS_ACT_RELU; break;
    case 3: o.fused_act = TIGRIS_ACT_RELU6; break;
    default:
        refuse(RefusalKind::UnsupportedAttribute,
               w + ": fused activation " + std::to_string(op.options.fused_activation) + " (only NONE, RELU, RELU6)");
    }
    const bool minmax = builtin == tfl::kMaximum || builtin == tfl::kMinimum;
    // TFLite compares the raw int8 values: only one shared encoding means the same thing in the plan.
    if (minmax)
        for (int32_t x : op.inputs)
            if (!same_encoding(x, out))
                refuse(RefusalKind::UnsupportedAttribute,
                       w + ": operands and output must share one int8 encoding (TFLite compares raw values)");
    if (t(out).type == tfl::TensorType::Int8)
        for (int32_t x : op.inputs)
            if (!t(x).quant.present() || t(x).quant.scale.size() != 1)
                refuse(RefusalKind::InvalidModel, w + ": int8 operand \"" + t(x).name + "\" needs per-tensor quantization");
    if (rt.size() == 2) return;
    if (rt.size() != 1) refuse(RefusalKind::UnsupportedOperator, w + ": both operands are constant");

    const uint8_t position = op.inputs[0] == rt[0] ? 1 : 0;
    const int32_t c = op.inputs[position];
    const auto &cs = t(c).shape, &ys = t(out).shape;
    if (cs.size() > ys.size()) refuse(RefusalKind::InvalidModel, w + ": the constant has a higher rank than the output");
    need_attributes(i, "CONSTANT_OPERAND");
    std::vector<uint8_t> payload{position, 0};
    uint16_t qidx = pf::kNone16;
    if (t(c).type == tfl::TensorType::Int8) {
        const tfl::Quantization &q = t(c).quant;
        if (!(q.scale[0] > 0.0f)) refuse(RefusalKind::InvalidModel, w + ": the constant has a non-positive scale");
        const Multiplier own = quantize_multiplier((double)q.scale[0]);
        qidx = b.add_quant(q.scale[0], (int32_t)q.zero_point[0], {own.multiplier}, {own.shift});
    }
    put_u16(payload, qidx);
    for (size_t k = 0; k < ys.size(); ++k) {
        const size_t lead = ys.size() - cs.size();
        put_i32(payload, k < lead ? 1 : cs[k - lead]);
    }
    if (payload.size() > 255) refuse(RefusalKind::UnsupportedAttribute, w + ": output rank too high for the attribute");
    o.weight = weight(c);
    b.add_attribute(at, TIGRIS_ATTR_CONSTANT_OPERAND, payload);
}

// LEAKY_RELU's negative slope, always written: the plan's default (0.01)
// is not TFLite's (the option's value, 0 when the table is absent).
void Lowering::lower_leaky_relu(const tfl::Operator &op, size_t i, uint16_t at) {
    need_attributes(i, "ALPHA");
    std::vector<uint8_t> payload(4);
    std::memcpy(payload.data(), &op.options.alpha, 4);
    b.add_attribute(at, TIGRIS_ATTR_ALPHA, payload);
}

}  // namespace tigris::import::detail
