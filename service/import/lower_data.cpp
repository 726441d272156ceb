// lower_data.cpp - operators that move bytes (SLICE, PAD/PADV2,
// CONCATENATION) and the in-graph int8 -> int8 QUANTIZE. TFLite runs the
// first three on raw int8 bytes, so the plan gets them only when input and
// output share one encoding; QUANTIZE is TFLite's Requantize, which the plan
// expresses as a 1x1 depthwise convolution with unit weights.
#include <algorithm>

#include "lowering.hpp"
#include "tigris.h"

namespace tigris::import::detail {

// SLICE(x, begin, size) -> STRIDED_SLICE with a MOVEMENT payload of
// (start, end, step = 1) per axis (docs/format.md P14.7). A size of -1 means
// "to the end of the axis", as in TFLite.
void Lowering::lower_slice(pf::Op &o, const tfl::Operator &op, std::vector<int32_t> &rt, size_t i, uint16_t at) {
    const std::string w = who(i);
    if (op.inputs.size() != 3 || op.inputs[0] < 0 || rt.size() != 1 || rt[0] != op.inputs[0])
        refuse(RefusalKind::UnsupportedOperator, w + ": begin and size must be constant tensors");
    const int32_t x = op.inputs[0], out = op.outputs[0];
    const auto &xs = t(x).shape, &ys = t(out).shape;
    const size_t r = xs.size();
    if (r < 1 || r > 4) refuse(RefusalKind::UnsupportedAttribute, w + ": rank " + std::to_string(r) + " (1..4 are lowered)");
    const auto begin = const_ints(op.inputs[1], "begin", i), size = const_ints(op.inputs[2], "size", i);
    if (begin.size() != r || size.size() != r || ys.size() != r)
        refuse(RefusalKind::InvalidModel, w + ": begin, size and output must each have one entry per input axis");
    need_attributes(i, "MOVEMENT");
    std::vector<uint8_t> payload;
    for (size_t a = 0; a < r; ++a) {
        const int64_t dim = xs[a], start = begin[a], n = size[a] == -1 ? dim - start : size[a];
        if (start < 0 || start >= dim || n < 1 || n > dim - start)
            refuse(RefusalKind::InvalidModel, w + ": axis " + std::to_string(a) + " slices [" + std::to_string(start) +
                                                  ", +" + std::to_string(n) + ") of " + std::to_string(dim));
        if (n != ys[a])
            refuse(RefusalKind::InvalidModel, w + ": output axis " + std::to_string(a) + " is " +
                                                  std::to_string(ys[a]) + ", the slice gives " + std::to_string(n));
        put_i32(payload, (int32_t)start);
        put_i32(payload, (int32_t)(start + n));
        put_i32(payload, 1);
    }
    require_same_encoding(x, out, i);
    b.add_attribute(at, TIGRIS_ATTR_MOVEMENT, payload);
    o.spatial = tigris_spatial_t{};
}

// PAD(x, paddings) and PADV2(x, paddings, constant_values) -> PAD with a
// PADS attribute; PADV2's one-element constant becomes the fill weight
// (TFLite fills with its raw byte, and requires it in the output's
// encoding), PAD fills with the output zero point, the plan's default.
void Lowering::lower_pad(pf::Op &o, const tfl::Operator &op, std::vector<int32_t> &rt, size_t i, uint16_t at) {
    const std::string w = who(i);
    const bool v2 = m.operator_codes[op.opcode_index].builtin == tfl::kPadV2;
    if (op.inputs.size() < 2 || op.inputs.size() > 3 || op.inputs[0] < 0 || rt.size() != 1 || rt[0] != op.inputs[0])
        refuse(RefusalKind::UnsupportedOperator, w + ": paddings (and the fill value) must be constant tensors");
    const int32_t x = op.inputs[0], out = op.outputs[0];
    const auto &xs = t(x).shape, &ys = t(out).shape;
    const size_t r = xs.size();
    const auto pads = const_ints(op.inputs[1], "paddings", i);
    if (r < 1 || pads.size() != 2 * r || ys.size() != r)
        refuse(RefusalKind::InvalidModel, w + ": paddings must hold (before, after) for each of the input's axes");
    need_attributes(i, "PADS");
    std::vector<uint8_t> payload;
    for (size_t a = 0; a < r; ++a) {
        const int64_t lead = pads[2 * a], trail = pads[2 * a + 1];
        if (lead < 0 || trail < 0 || lead > INT32_MAX || trail > INT32_MAX || xs[a] + lead + trail != ys[a])
            refuse(RefusalKind::InvalidModel, w + ": axis " + std::to_string(a) + " pads (" + std::to_string(lead) +
                                                  ", " + std::to_string(trail) + ") do not give the output's extent");
        put_i32(payload, (int32_t)lead);
        put_i32(payload, (int32_t)trail);
    }
    require_same_encoding(x, out, i);
    if (op.inputs.size() == 3 && op.inputs[2] >= 0) {
        if (!v2) refuse(RefusalKind::InvalidModel, w + ": PAD with a third input");
        const int32_t fill = op.inputs[2];
        if (!is_const(fill)) refuse(RefusalKind::UnsupportedOperator, w + ": the fill value must be a constant tensor");
        if (t(fill).type != t(x).type)
            refuse(RefusalKind::InvalidModel, w + ": the fill value's type differs from the input's");
        // TFLite (and TFLite Micro) refuse an int8 fill that is not in the
        // output's encoding in Prepare; a model they would not run is not
        // evaluated either.
        if (t(x).type == tfl::TensorType::Int8 && !same_encoding(fill, out))
            refuse(RefusalKind::InvalidModel,
                   w + ": the fill value \"" + t(fill).name + "\" is not in the output's encoding (TFLite's Prepare refuses it)");
        const size_t es = t(x).type == tfl::TensorType::Int8 ? 1 : 4;
        if (data(fill).size() != es) refuse(RefusalKind::InvalidModel, w + ": the fill value must be one element");
        o.weight = weight(fill);
    }
    b.add_attribute(at, TIGRIS_ATTR_PADS, payload);
    o.spatial = tigris_spatial_t{};
}

// CONCATENATION -> CONCAT with the stored axis in spatial.kernel_h
// (docs/format.md P14.5): ranks 3 and 4, any axis but the outermost.
void Lowering::lower_concat(pf::Op &o, const tfl::Operator &op, std::vector<int32_t> &rt, size_t i) {
    const std::string w = who(i);
    const int32_t out = op.outputs[0];
    for (int32_t x : op.inputs)
        if (x < 0 || is_const(x)) refuse(RefusalKind::UnsupportedOperator, w + ": constant inputs are not lowered");
    if (op.options.fused_activation != 0)
        refuse(RefusalKind::UnsupportedAttribute, w + ": a fused activation on a concatenation is not lowered");
    const int64_t r = (int64_t)t(out).shape.size();
    int64_t axis = op.options.axis < 0 ? op.options.axis + r : op.options.axis;
    if (r < 1 || r > 6) refuse(RefusalKind::UnsupportedAttribute, w + ": rank " + std::to_string(r) + " (1 to 6 are lowered)");
    if (axis < 0 || axis >= r) refuse(RefusalKind::InvalidModel, w + ": axis " + std::to_string(op.options.axis) + " out of range");
    // The plan's CONCAT reads axis 0 of a rank-4 output as the channel axis
    // (docs/format.md P14.5), so TFLite's batch axis cannot be said there.
    if (r == 4 && axis == 0)
        refuse(RefusalKind::UnsupportedAttribute, w + ": axis 0 of a rank-4 tensor (the batch axis) is not lowered");
    if (rt.size() > 255) refuse(RefusalKind::UnsupportedAttribute, w + ": more than 255 inputs");
    for (int32_t x : rt) require_same_encoding(x, out, i);
    o.spatial = tigris_spatial_t{};
    o.spatial.kernel_h = (uint8_t)axis;
}

// QUANTIZE int8 -> int8 is TFLite's Requantize: out = clamp(MBQM(x - zp_in,
// QuantizeMultiplier(s_in / s_out in double)) + zp_out). A depthwise 1x1 with
// weight 1 and no bias accumulates exactly x - zp_in for each channel, and
// requantizes with the multiplier the output's quant record holds - the same
// arithmetic, so the bytes match. Only rank-4 tensors (the depthwise form).
std::vector<Multiplier> Lowering::lower_requantize(pf::Op &o, std::vector<int32_t> &rt, int32_t out, size_t i) {
    const std::string w = who(i);
    if (rt.size() != 1) refuse(RefusalKind::InvalidModel, w + ": needs one runtime input");
    const int32_t x = rt[0];
    if (!t(x).quant.present() || !t(out).quant.present())
        refuse(RefusalKind::InvalidModel, w + ": int8 operands without quantization");
    const auto &xs = t(x).shape;
    if (xs.size() != 4 || t(out).shape != xs)
        refuse(RefusalKind::UnsupportedAttribute,
               w + ": an int8 requantization is lowered for rank-4 tensors of one shape only");
    if (xs[3] <= 0 || xs[3] > 0xFFFF) refuse(RefusalKind::InvalidModel, w + ": channel count out of range");
    o.type = TIGRIS_OP_DEPTHWISE;
    o.spatial = tigris_spatial_t{};
    o.spatial.kernel_h = o.spatial.kernel_w = 1;
    o.spatial.stride_h = o.spatial.stride_w = 1;
    o.spatial.dilation_h = o.spatial.dilation_w = 1;
    o.spatial.group = (uint16_t)xs[3];
    o.weight = b.add_weight(t(out).name + "/requantize_ones", std::vector<uint8_t>((size_t)xs[3], 1));
    o.fused_act = TIGRIS_ACT_NONE;
    // input_scale * 1.0 / output_scale in double: the same double TFLite's
    // Prepare forms as input_scale / output_scale.
    const float one = 1.0f;
    return channel_multipliers(t(x).quant.scale[0], std::span<const float>(&one, 1), t(out).quant.scale[0]);
}

}  // namespace tigris::import::detail
