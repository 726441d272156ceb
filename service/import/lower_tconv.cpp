// lower_tconv.cpp - TRANSPOSE_CONV(output_shape, weights, input[, bias]) ->
// CONV_TRANSPOSE. TFLite's weights are [OC, KH, KW, IC], the plan's OHWI
// layout, so they are copied as they are. TFLite scatters input pixel i to
// output rows i·stride − pad + k, with pad the top (left) half of the SAME
// or VALID total computed on the output extent; the plan's kernel gathers
// output row o from input row (o + pad_top − k) / stride, the same sums. The
// output size is the stated output_shape, so pad_bottom only records the
// rest of the total.
#include <algorithm>
#include <utility>

#include "lowering.hpp"
#include "tigris.h"

namespace tigris::import::detail {

namespace {

// TFLite's padding of one axis of a transposed convolution: the forward
// convolution's total over the output extent, split smaller half first.
std::pair<int64_t, int64_t> tconv_pads(int64_t out, int64_t k, int64_t s, bool same) {
    const int64_t fwd = same ? (out + s - 1) / s : (out - k + s) / s;
    const int64_t total = std::max<int64_t>((fwd - 1) * s + k - out, 0);
    return {total / 2, total - total / 2};
}

}  // namespace

void Lowering::lower_transpose_conv(const tfl::Operator &op, size_t i) {
    const std::string w = who(i);
    if (op.inputs.size() < 3 || op.inputs.size() > 4 || op.outputs.size() != 1)
        refuse(RefusalKind::InvalidModel, w + ": needs output_shape, weights, input (bias) and one output");
    const int32_t shape_t = op.inputs[0], filt = op.inputs[1], x = op.inputs[2], out = op.outputs[0];
    const int32_t bias = op.inputs.size() == 4 ? op.inputs[3] : -1;
    if (x < 0 || is_const(x)) refuse(RefusalKind::UnsupportedOperator, w + ": a constant input is not lowered");
    if (!is_const(filt)) refuse(RefusalKind::UnsupportedOperator, w + ": runtime weights are not lowered");
    if (bias >= 0 && !is_const(bias)) refuse(RefusalKind::UnsupportedOperator, w + ": a runtime bias is not lowered");
    const auto &xs = t(x).shape, &ys = t(out).shape, &fs = t(filt).shape;
    if (xs.size() != 4 || ys.size() != 4 || fs.size() != 4)
        refuse(RefusalKind::InvalidModel, w + ": input, weights and output must be rank 4");
    const auto os = const_ints(shape_t, "output_shape", i);
    if (os.size() != 4 || os[0] != ys[0] || os[1] != ys[1] || os[2] != ys[2] || os[3] != ys[3])
        refuse(RefusalKind::InvalidModel, w + ": output_shape differs from the output tensor's");
    if (fs[0] != ys[3] || fs[3] != xs[3] || xs[0] != ys[0])
        refuse(RefusalKind::InvalidModel, w + ": weights are not [output channels, KH, KW, input channels]");
    const int64_t padding = option(op, 0), sw = option(op, 1), sh = option(op, 2), act = option(op, 3);
    // The plan's CONV_TRANSPOSE takes no fused activation: RELU and RELU6
    // become a RELU / RELU6 operator on the result, in the output's own
    // encoding, which clamps to the bounds TFLite's fused clamp uses.
    if (act != 0 && act != 1 && act != 3)
        refuse(RefusalKind::UnsupportedAttribute,
               w + ": fused activation " + std::to_string(act) + " on TRANSPOSE_CONV (only NONE, RELU, RELU6)");
    if (sh < 1 || sw < 1 || sh > 255 || sw > 255 || fs[1] < 1 || fs[2] < 1 || fs[1] > 255 || fs[2] > 255)
        refuse(RefusalKind::UnsupportedAttribute, w + ": kernel or stride not in 1..255");
    const bool same = padding == 0;
    const auto [top, bottom] = tconv_pads(ys[1], fs[1], sh, same);
    const auto [left, right] = tconv_pads(ys[2], fs[2], sw, same);
    if (bottom > 0xFFFF || right > 0xFFFF) refuse(RefusalKind::InvalidModel, w + ": padding does not fit 16 bits");
    pf::Op o;
    o.name = t(out).name;
    o.type = TIGRIS_OP_CONV_TRANSPOSE;
    o.spatial = pf::PlanBuilder::spatial((uint8_t)fs[1], (uint8_t)fs[2], (uint8_t)sh, (uint8_t)sw, (uint16_t)top,
                                         (uint16_t)bottom, (uint16_t)left, (uint16_t)right);
    o.weight = weight(filt);
    if (bias >= 0) o.bias = weight(bias);
    std::vector<Multiplier> mult;
    if (t(out).type == tfl::TensorType::Int8) {
        const auto &fq = t(filt).quant;
        if (!t(x).quant.present() || !fq.present() || !t(out).quant.present())
            refuse(RefusalKind::InvalidModel, w + ": int8 operands without quantization");
        if (bias >= 0 && t(bias).type != tfl::TensorType::Int32)
            refuse(RefusalKind::UnsupportedDtype, w + ": an int8 transposed convolution needs an int32 bias");
        mult = channel_multipliers(t(x).quant.scale[0], fq.scale, t(out).quant.scale[0]);
    }
    o.inputs = {tensor(x)};
    if (act == 0) {
        o.outputs = {tensor(out, mult)};
        act_bounds(o, out);
        b.ops.push_back(o);
        return;
    }
    // The convolution writes a tensor of the output's shape and encoding
    // (with the convolution's multipliers); the activation reads it and
    // writes the model's tensor.
    const int q = t(out).type == tfl::TensorType::Int8 ? quant_for(out, mult) : -1;
    const uint16_t py = tensor(out);
    const pf::Tensor like = b.tensors[py];
    const uint16_t pre = b.add_tensor(t(out).name + "/preact", like.dtype, like.shape, 0, q);
    o.outputs = {pre};
    b.ops.push_back(o);
    push(act == 1 ? TIGRIS_OP_RELU : TIGRIS_OP_RELU6, t(out).name, {pre}, {py});
}

}  // namespace tigris::import::detail
