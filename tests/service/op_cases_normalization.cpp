// Op cases for the normalisation family: Softmax (10), LayerNorm (33),
// LogSoftmax (57) and L2Normalization (58), float32 and int8.
//
// Float inputs are chosen so every float operation is exact (or is one
// correctly rounded division / a log of 2), and the expected floats are
// written from the real-valued result. int8 expectations are the real
// values quantised by hand (round to nearest), with inputs whose real
// results sit well away from a rounding boundary, so TFLite's fixed-point
// approximations land on the same integers.
#include <cmath>

#include "op_cases.h"

using tigris_test::OpCase;
using tigris_test::PlanBuilder;

namespace {

// One-op plan x -> op -> y (revision 10), both tensors of `shape`.
PlanBuilder one_op(uint8_t type, uint8_t dtype, const std::vector<int32_t> &shape, int qx = -1, int qy = -1) {
    PlanBuilder b(10);
    b.model_name = "norm";
    uint16_t x = b.add_tensor("x", dtype, shape, TIGRIS_TENSOR_MODEL_INPUT, qx);
    uint16_t y = b.add_tensor("y", dtype, shape, TIGRIS_TENSOR_MODEL_OUTPUT, qy);
    uint16_t op = b.add_op(type, {x}, {y}, "op");
    b.add_stage({op}, {x}, {y});
    return b;
}

template <typename T>
OpCase make_case(const std::string &name, uint8_t opcode, const std::string &route, PlanBuilder &b,
                 const std::vector<T> &in, const std::vector<T> &out) {
    return OpCase{name, opcode, route, b.build(), tigris_test::bytes_of(in), tigris_test::bytes_of(out)};
}

}  // namespace

// ---- Softmax (10) ----

// Rows [3,3] -> 1/2 each; [0,-200] -> exp(-200) is 0 in float: [1, 0].
TIGRIS_OP_CASE(softmax_f32) {
    PlanBuilder b = one_op(TIGRIS_OP_SOFTMAX, TIGRIS_DTYPE_FLOAT32, {2, 2});
    return make_case<float>("softmax_f32", TIGRIS_OP_SOFTMAX, "f32", b, {3, 3, 0, -200}, {0.5f, 0.5f, 1, 0});
}

// Input (0.5, 0): row [0,-1,-4,-4] is real [0,-0.5,-2,-2]: probabilities
// 0.53271, 0.32310, 0.07209 -> ·256 = 136.37, 82.71, 18.46 -> -128 gives
// 8, -45, -110; a uniform row of 4 gives 64 - 128 = -64.
TIGRIS_OP_CASE(softmax_s8) {
    PlanBuilder b = one_op(TIGRIS_OP_SOFTMAX, TIGRIS_DTYPE_INT8, {2, 4}, 0, 1);
    b.add_quant(0.5f, 0);
    b.add_quant(1.0f / 256, -128);
    return make_case<int8_t>("softmax_s8", TIGRIS_OP_SOFTMAX, "s8", b, {0, -1, -4, -4, 3, 3, 3, 3},
                             {8, -45, -110, -110, -64, -64, -64, -64});
}

// ---- LayerNorm (33) ----

// eps 0.75. Row [1,2,1,2]: mean 1.5, var 0.25 -> inv 1; row [0,2,3,5]: mean
// 2.5, var 3.25 -> inv 0.5. Normalised rows [-.5,.5,-.5,.5] and
// [-1.25,-.25,.25,1.25], times scale [1,2,3,4], plus bias [.25,0,-1,1].
TIGRIS_OP_CASE(layer_norm_f32) {
    PlanBuilder b = one_op(TIGRIS_OP_LAYER_NORM, TIGRIS_DTYPE_FLOAT32, {2, 4});
    b.ops[0].weight = b.add_float_weight("ln.scale", {1, 2, 3, 4});
    b.ops[0].bias = b.add_float_weight("ln.bias", {0.25f, 0, -1, 1});
    b.add_attribute(0, TIGRIS_ATTR_EPSILON, tigris_test::le_f32({0.75f}));
    return make_case<float>("layer_norm_f32", TIGRIS_OP_LAYER_NORM, "f32", b, {1, 2, 1, 2, 0, 2, 3, 5},
                            {-0.25f, 1, -2.5f, 3, -1, -0.5f, -0.25f, 6});
}

// The same rows quantised with (0.5, -3); results quantised with (1/16, 10):
// [-0.25,1,-2.5,3] -> [6,26,-30,58], [-1,-0.5,-0.25,6] -> [-6,2,6,106].
TIGRIS_OP_CASE(layer_norm_s8) {
    PlanBuilder b = one_op(TIGRIS_OP_LAYER_NORM, TIGRIS_DTYPE_INT8, {2, 4}, 0, 1);
    b.add_quant(0.5f, -3);
    b.add_quant(1.0f / 16, 10);
    b.ops[0].weight = b.add_float_weight("ln.scale", {1, 2, 3, 4});
    b.ops[0].bias = b.add_float_weight("ln.bias", {0.25f, 0, -1, 1});
    b.add_attribute(0, TIGRIS_ATTR_EPSILON, tigris_test::le_f32({0.75f}));
    return make_case<int8_t>("layer_norm_s8", TIGRIS_OP_LAYER_NORM, "s8", b, {-1, 1, -1, 1, -3, 1, 3, 7},
                             {6, 26, -30, 58, -6, 2, 6, 106});
}

// ---- LogSoftmax (57) ----

// [0,-200]: the sum is exactly 1 -> [0,-200]; [7,7]: -ln 2 each; a lone
// element [5] has log-probability 0.
TIGRIS_OP_CASE(log_softmax_f32) {
    PlanBuilder b = one_op(TIGRIS_OP_LOG_SOFTMAX, TIGRIS_DTYPE_FLOAT32, {2, 2});
    const float ln2 = (float)std::log(2.0);
    return make_case<float>("log_softmax_f32", TIGRIS_OP_LOG_SOFTMAX, "f32", b, {0, -200, 7, 7},
                            {0, -200, -ln2, -ln2});
}

// Input (0.25, -10). Row real [0,-0.5,-2,-4]: log-sum-exp 0.565417 ->
// ·16 + 127 = 117.95, 109.95, 85.95, 53.95. Row [100,30,-128,100]: the two
// maxima give -ln 2 ·16 + 127 = 115.9; 30 and -128 are 17.5 and 57 below
// the maximum, far under the output range -> -128. A uniform row of 4:
// -ln 4 ·16 + 127 = 104.8.
TIGRIS_OP_CASE(log_softmax_s8) {
    PlanBuilder b = one_op(TIGRIS_OP_LOG_SOFTMAX, TIGRIS_DTYPE_INT8, {3, 4}, 0, 1);
    b.add_quant(0.25f, -10);
    b.add_quant(1.0f / 16, 127);
    return make_case<int8_t>("log_softmax_s8", TIGRIS_OP_LOG_SOFTMAX, "s8", b,
                             {-10, -12, -18, -26, 100, 30, -128, 100, 7, 7, 7, 7},
                             {118, 110, 86, 54, 116, -128, -128, 116, 105, 105, 105, 105});
}

// ---- L2Normalization (58) ----

// eps 0.5: [3,4] -> [0.6,0.8]; [0.25,0] has norm 0.25, floored to 0.5.
TIGRIS_OP_CASE(l2_norm_f32) {
    PlanBuilder b = one_op(TIGRIS_OP_L2_NORMALIZATION, TIGRIS_DTYPE_FLOAT32, {2, 2});
    b.add_attribute(0, TIGRIS_ATTR_EPSILON, tigris_test::le_f32({0.5f}));
    return make_case<float>("l2_norm_f32", TIGRIS_OP_L2_NORMALIZATION, "f32", b, {3, 4, 0.25f, 0},
                            {0.6f, 0.8f, 0.5f, 0});
}

// Input zero point 5. Rows (x - 5): [3,4,0] -> 128·[0.6,0.8,0] = [77,102,0];
// [0,-9,0] -> -128 (clamped at the int8 range); [1,2,2] -> 128·[1,2,2]/3 =
// [43,85,85]; an all-zero row stays 0.
TIGRIS_OP_CASE(l2_norm_s8) {
    PlanBuilder b = one_op(TIGRIS_OP_L2_NORMALIZATION, TIGRIS_DTYPE_INT8, {4, 3}, 0, 1);
    b.add_quant(0.02f, 5);
    b.add_quant(1.0f / 128, 0);
    b.add_attribute(0, TIGRIS_ATTR_EPSILON, tigris_test::le_f32({1e-6f}));
    return make_case<int8_t>("l2_norm_s8", TIGRIS_OP_L2_NORMALIZATION, "s8", b, {8, 9, 5, 5, -4, 5, 6, 7, 7, 5, 5, 5},
                             {77, 102, 0, 0, -128, 0, 43, 85, 85, 0, 0, 0});
}
