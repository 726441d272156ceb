// lower_recurrent.cpp - SVDF with its state (docs/format.md P11, P14.8).
//
// TFLite's SVDF reads its activation state from a variable tensor and
// updates it in place. The plan has no in-place variables: the state is a
// STATE-flagged input, the updated state a second STATE-flagged output,
// and one state entry maps the one to the other, so the runtime carries it
// from run to run (docs/runtime-semantics.md R2.11); both start at zero, as
// TFLite Micro's variables do.
//
// float32 only: TFLite Micro's int8 SVDF keeps int16 time weights and an
// int16 state, which the import refuses as int16 tensors (support.cpp).
#include "lowering.hpp"
#include "tigris.h"

namespace tigris::import::detail {

void Lowering::lower_svdf(const tfl::Operator &op, size_t i) {
    const std::string w = who(i);
    if (sub != 0) refuse(RefusalKind::UnsupportedOperator, w + ": state inside an IF / WHILE subgraph is not lowered");
    if (opt.schema < 10) refuse(RefusalKind::BadOption, w + " needs a state section (schema 10 or later)");
    if (op.inputs.size() != 5 || op.outputs.size() != 1)
        refuse(RefusalKind::InvalidModel, w + ": needs input, feature weights, time weights, bias, state and one output");
    const int32_t x = op.inputs[0], wf = op.inputs[1], wt = op.inputs[2], bias = op.inputs[3], st = op.inputs[4];
    const int32_t y = op.outputs[0];
    if (x < 0 || wf < 0 || wt < 0 || st < 0 || y < 0) refuse(RefusalKind::InvalidModel, w + ": an omitted operand");
    if (t(x).type != tfl::TensorType::Float32)
        refuse(RefusalKind::UnsupportedDtype,
               w + ": " + tfl::tensor_type_name(t(x).type) +
                   " SVDF is not lowered (float32 is; TFLite Micro's int8 SVDF needs int16 time weights and state)");
    if (!is_const(wf) || !is_const(wt) || (bias >= 0 && !is_const(bias)))
        refuse(RefusalKind::UnsupportedOperator, w + ": weights and bias must be constant tensors");
    if (!t(st).is_variable) refuse(RefusalKind::InvalidModel, w + ": the state is not a variable tensor");
    if (bias >= 0 && t(bias).type != tfl::TensorType::Float32)
        refuse(RefusalKind::InvalidModel, w + ": float32 bias expected");
    for (int32_t k : {wf, wt, st})
        if (t(k).type != tfl::TensorType::Float32) refuse(RefusalKind::InvalidModel, w + ": float32 operands expected");
    const int32_t rank = op.options.rank;
    const auto &xs = t(x).shape, &fs = t(wf).shape, &ts = t(wt).shape, &ss = t(st).shape, &ys = t(y).shape;
    if (xs.size() != 2 || fs.size() != 2 || ts.size() != 2 || ss.size() != 2 || ys.size() != 2 || rank <= 0)
        refuse(RefusalKind::InvalidModel, w + ": rank-2 operands and a positive rank expected");
    const int32_t filters = fs[0], memory = ts[1];
    if (filters % rank != 0 || ts[0] != filters || fs[1] != xs[1] || ss[0] != xs[0] || ss[1] != filters * memory ||
        ys[0] != xs[0] || ys[1] != filters / rank)
        refuse(RefusalKind::InvalidModel, w + ": operand shapes do not agree");
    uint8_t act = TIGRIS_ACT_NONE;
    switch (op.options.fused_activation) {
    case 0: break;
    case 1: act = TIGRIS_ACT_RELU; break;
    case 3: act = TIGRIS_ACT_RELU6; break;
    default:
        refuse(RefusalKind::UnsupportedAttribute,
               w + ": fused activation " + std::to_string(op.options.fused_activation) + " (only NONE, RELU, RELU6)");
    }
    need_attributes(i, "SVDF");
    if (tensor_of.count(st))
        refuse(RefusalKind::UnsupportedOperator, w + ": its state tensor is shared with another operator");
    const uint16_t xin = tensor(x);
    const uint16_t s_in = b.add_tensor(t(st).name, TIGRIS_DTYPE_FLOAT32, ss, TIGRIS_TENSOR_STATE);
    tensor_of[st] = s_in;
    const uint16_t s_out = b.add_tensor(t(st).name + "/next", TIGRIS_DTYPE_FLOAT32, ss, TIGRIS_TENSOR_STATE);
    const uint16_t yout = tensor(y);
    b.add_state(s_in, s_out);
    const uint16_t at = push(TIGRIS_OP_SVDF, t(y).name, {xin, s_in}, {yout, s_out});
    b.ops[at].fused_act = act;
    std::vector<uint8_t> consts;
    put_u16(consts, weight(wf));
    put_u16(consts, weight(wt));
    put_u16(consts, bias >= 0 ? weight(bias) : pf::kNone16);
    b.add_attribute(at, TIGRIS_ATTR_CONSTANTS, consts);
    std::vector<uint8_t> payload;
    put_i32(payload, rank);
    b.add_attribute(at, TIGRIS_ATTR_SVDF, payload);
}

}  // namespace tigris::import::detail
