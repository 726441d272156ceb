// Op cases for the reduce family: ReduceMean/Max/Min/Sum (26, 60-62),
// CumSum (63), ArgMax/ArgMin (64, 65) and ReduceAll (84), float32 and int8.
// Expected bytes are worked out by hand in the comments (scales are chosen
// so every int8 multiplier is an exact power of two or a plain third).
#include "op_cases.h"

using tigris_test::OpCase;
using tigris_test::PlanBuilder;

namespace {

// x[shape] -> op(AXES = axis) -> y[out_shape], one stage, revision 10.
PlanBuilder one_op(uint8_t opcode, uint8_t in_dtype, std::vector<int32_t> in_shape, uint8_t out_dtype,
                   std::vector<int32_t> out_shape, uint8_t axis, int qin = -2, int qout = -2, float si = 1.0f,
                   int32_t zi = 0, float so = 1.0f, int32_t zo = 0) {
    PlanBuilder b(10);
    b.model_name = "reduce_case";
    int qx = -1, qy = -1;
    if (qin != -2) qx = b.add_quant(si, zi);
    if (qout != -2) qy = b.add_quant(so, zo);
    uint16_t x = b.add_tensor("x", in_dtype, in_shape, TIGRIS_TENSOR_MODEL_INPUT, qx);
    uint16_t y = b.add_tensor("y", out_dtype, out_shape, TIGRIS_TENSOR_MODEL_OUTPUT, qy);
    uint16_t op = b.add_op(opcode, {x}, {y}, "reduce");
    b.add_attribute(op, TIGRIS_ATTR_AXES, {axis});
    b.add_stage({op}, {x}, {y});
    return b;
}

PlanBuilder one_op_q(uint8_t opcode, std::vector<int32_t> in_shape, uint8_t out_dtype, std::vector<int32_t> out_shape,
                     uint8_t axis, float si, int32_t zi, float so, int32_t zo) {
    return one_op(opcode, TIGRIS_DTYPE_INT8, in_shape, out_dtype, out_shape, axis, 0, out_dtype == TIGRIS_DTYPE_INT8 ? 0 : -2,
                  si, zi, so, zo);
}

std::vector<uint8_t> s8_bytes(const std::vector<int8_t> &v) { return tigris_test::bytes_of(v); }

}  // namespace

// x[2,3,2] = rows (a, k, c); mean over k: (1+3+8)/3 = 4, (2+4+-3)/3 = 1, ...
TIGRIS_OP_CASE(reduce_mean_f32) {
    PlanBuilder b = one_op(TIGRIS_OP_REDUCE_MEAN, TIGRIS_DTYPE_FLOAT32, {2, 3, 2}, TIGRIS_DTYPE_FLOAT32, {2, 1, 2}, 1);
    OpCase c{"reduce_mean_f32", TIGRIS_OP_REDUCE_MEAN, "f32", b.build(), {}, {}};
    c.input = tigris_test::bytes_of(std::vector<float>{1, 2, 3, 4, 8, -3, 0.5f, -6, 1.5f, 0, 1, 3});
    c.expected = tigris_test::bytes_of(std::vector<float>{4, 1, 1, -1});
    return c;
}

// s_in = s_out = 0.5, zp_in = 1, zp_out = -1; mean multiplier of 1 over 3 is
// SRDHM(., 715827882) ~ /3: q = round((sum - 3) / 3) - 1 (never a tie).
// Columns over axis 2 (dropped): (4,5,9)->sum-3=15->5-1=4; (-10,0,1)->-12->-4-1=-5;
// (100,100,100)->297->99-1=98; (-128,-128,-127)->-386->-128.67->-129-1=-130->-128.
TIGRIS_OP_CASE(reduce_mean_s8) {
    PlanBuilder b = one_op_q(TIGRIS_OP_REDUCE_MEAN, {2, 2, 3}, TIGRIS_DTYPE_INT8, {2, 2}, 2, 0.5f, 1, 0.5f, -1);
    OpCase c{"reduce_mean_s8", TIGRIS_OP_REDUCE_MEAN, "s8", b.build(), {}, {}};
    c.input = s8_bytes({4, 5, 9, -10, 0, 1, 100, 100, 100, -128, -128, -127});
    c.expected = s8_bytes({4, -5, 98, -128});
    return c;
}

TIGRIS_OP_CASE(reduce_max_f32) {
    PlanBuilder b = one_op(TIGRIS_OP_REDUCE_MAX, TIGRIS_DTYPE_FLOAT32, {2, 2, 3}, TIGRIS_DTYPE_FLOAT32, {1, 2, 3}, 0);
    OpCase c{"reduce_max_f32", TIGRIS_OP_REDUCE_MAX, "f32", b.build(), {}, {}};
    c.input = tigris_test::bytes_of(std::vector<float>{1, -2, 3, -4, 5, -6, -1, 2, -3, 4, -5, 6});
    c.expected = tigris_test::bytes_of(std::vector<float>{1, 2, 3, 4, 5, 6});
    return c;
}

TIGRIS_OP_CASE(reduce_max_s8) {
    PlanBuilder b = one_op_q(TIGRIS_OP_REDUCE_MAX, {1, 3, 2}, TIGRIS_DTYPE_INT8, {1, 2}, 1, 0.1f, -5, 0.1f, -5);
    OpCase c{"reduce_max_s8", TIGRIS_OP_REDUCE_MAX, "s8", b.build(), {}, {}};
    c.input = s8_bytes({-128, 7, -128, -9, -128, 127});
    c.expected = s8_bytes({-128, 127});
    return c;
}

TIGRIS_OP_CASE(reduce_min_f32) {
    PlanBuilder b = one_op(TIGRIS_OP_REDUCE_MIN, TIGRIS_DTYPE_FLOAT32, {2, 3, 1}, TIGRIS_DTYPE_FLOAT32, {2, 1, 1}, 1);
    OpCase c{"reduce_min_f32", TIGRIS_OP_REDUCE_MIN, "f32", b.build(), {}, {}};
    c.input = tigris_test::bytes_of(std::vector<float>{3, -0.5f, 2, 7, 8, 9});
    c.expected = tigris_test::bytes_of(std::vector<float>{-0.5f, 7});
    return c;
}

TIGRIS_OP_CASE(reduce_min_s8) {
    PlanBuilder b = one_op_q(TIGRIS_OP_REDUCE_MIN, {2, 1, 3}, TIGRIS_DTYPE_INT8, {2, 1, 1}, 2, 0.25f, 3, 0.25f, 3);
    OpCase c{"reduce_min_s8", TIGRIS_OP_REDUCE_MIN, "s8", b.build(), {}, {}};
    c.input = s8_bytes({127, 127, 127, 5, -7, 0});
    c.expected = s8_bytes({127, -7});
    return c;
}

TIGRIS_OP_CASE(reduce_sum_f32) {
    PlanBuilder b = one_op(TIGRIS_OP_REDUCE_SUM, TIGRIS_DTYPE_FLOAT32, {1, 2, 3}, TIGRIS_DTYPE_FLOAT32, {1, 2}, 2);
    OpCase c{"reduce_sum_f32", TIGRIS_OP_REDUCE_SUM, "f32", b.build(), {}, {}};
    c.input = tigris_test::bytes_of(std::vector<float>{1, 2, 3.5f, -1, -2, 0.25f});
    c.expected = tigris_test::bytes_of(std::vector<float>{6.5f, -2.75f});
    return c;
}

// s_in 0.5 / s_out 0.25 = 2: multiplier 2^30, shift 2 -> EM(v) = 2v exactly.
// zp_in 1, zp_out -2: q = 2·(sum - 3) - 2, clamped. Sums over axis 1:
// (1,2,3)=6 -> 4; (10,20,30)=60 -> 112; (100,0,0)=100 -> 192 -> 127;
// (-128,-128,-128)=-384 -> -776 -> -128.
TIGRIS_OP_CASE(reduce_sum_s8) {
    PlanBuilder b = one_op_q(TIGRIS_OP_REDUCE_SUM, {1, 3, 4}, TIGRIS_DTYPE_INT8, {1, 1, 4}, 1, 0.5f, 1, 0.25f, -2);
    OpCase c{"reduce_sum_s8", TIGRIS_OP_REDUCE_SUM, "s8", b.build(), {}, {}};
    c.input = s8_bytes({1, 10, 100, -128, 2, 20, 0, -128, 3, 30, 0, -128});
    c.expected = s8_bytes({4, 112, 127, -128});
    return c;
}

// Reverse, inclusive CumSum along axis 2 of [1,2,3].
TIGRIS_OP_CASE(cumsum_f32) {
    PlanBuilder b = one_op(TIGRIS_OP_CUMSUM, TIGRIS_DTYPE_FLOAT32, {1, 2, 3}, TIGRIS_DTYPE_FLOAT32, {1, 2, 3}, 2);
    b.add_attribute(0, TIGRIS_ATTR_CUMSUM_OPTIONS, {0, 1});
    OpCase c{"cumsum_f32", TIGRIS_OP_CUMSUM, "f32", b.build(), {}, {}};
    c.input = tigris_test::bytes_of(std::vector<float>{1, 2, 4, -1, 0.5f, 8});
    c.expected = tigris_test::bytes_of(std::vector<float>{7, 6, 4, 7.5f, 8.5f, 8});
    return c;
}

// s_in = s_out = 1/16: output multiplier 2·s_in/(2^20·s_out) = 2^-19 (m 2^30,
// shift -18). zp_in 2, zp_out 0. The accumulator starts at the halved
// -zp·2^20 (as TFLite does), so q = Σ_{j<=k}(x_j - 2) - 2 (inclusive) or the
// sum before k (exclusive). Exclusive, forward along axis 1 of [1,3,2]:
// column (5, 7, 2): -2, 1, 6; column (-100, -100, -100): -2, -104, -206 -> -128.
TIGRIS_OP_CASE(cumsum_s8) {
    PlanBuilder b = one_op_q(TIGRIS_OP_CUMSUM, {1, 3, 2}, TIGRIS_DTYPE_INT8, {1, 3, 2}, 1, 0.0625f, 2, 0.0625f, 0);
    b.add_attribute(0, TIGRIS_ATTR_CUMSUM_OPTIONS, {1, 0});
    OpCase c{"cumsum_s8", TIGRIS_OP_CUMSUM, "s8", b.build(), {}, {}};
    c.input = s8_bytes({5, -100, 7, -100, 2, -100});
    c.expected = s8_bytes({-2, -2, 1, -104, 6, -128});
    return c;
}

// ArgMax over axis 1 of [2,4] (axis dropped), first index wins ties.
TIGRIS_OP_CASE(arg_max_f32) {
    PlanBuilder b = one_op(TIGRIS_OP_ARG_MAX, TIGRIS_DTYPE_FLOAT32, {2, 4}, TIGRIS_DTYPE_INT32, {2}, 1);
    OpCase c{"arg_max_f32", TIGRIS_OP_ARG_MAX, "f32", b.build(), {}, {}};
    c.input = tigris_test::bytes_of(std::vector<float>{1, 5, 5, 2, -3, -2, -1, -1});
    c.expected = tigris_test::bytes_of(std::vector<int32_t>{1, 2});
    return c;
}

TIGRIS_OP_CASE(arg_max_s8) {
    PlanBuilder b = one_op_q(TIGRIS_OP_ARG_MAX, {3, 2}, TIGRIS_DTYPE_INT32, {1, 2}, 0, 0.3f, 4, 1.0f, 0);
    OpCase c{"arg_max_s8", TIGRIS_OP_ARG_MAX, "s8", b.build(), {}, {}};
    c.input = s8_bytes({-128, 9, 127, 9, 127, 10});
    c.expected = tigris_test::bytes_of(std::vector<int32_t>{1, 2});
    return c;
}

TIGRIS_OP_CASE(arg_min_f32) {
    PlanBuilder b = one_op(TIGRIS_OP_ARG_MIN, TIGRIS_DTYPE_FLOAT32, {5}, TIGRIS_DTYPE_INT32, {1}, 0);
    OpCase c{"arg_min_f32", TIGRIS_OP_ARG_MIN, "f32", b.build(), {}, {}};
    c.input = tigris_test::bytes_of(std::vector<float>{3, -1, 4, -1, 5});
    c.expected = tigris_test::bytes_of(std::vector<int32_t>{1});
    return c;
}

TIGRIS_OP_CASE(arg_min_s8) {
    PlanBuilder b = one_op_q(TIGRIS_OP_ARG_MIN, {1, 2, 3}, TIGRIS_DTYPE_INT32, {1, 2}, 2, 0.05f, -7, 1.0f, 0);
    OpCase c{"arg_min_s8", TIGRIS_OP_ARG_MIN, "s8", b.build(), {}, {}};
    c.input = s8_bytes({0, -128, -128, 127, 126, 127});
    c.expected = tigris_test::bytes_of(std::vector<int32_t>{1, 1});
    return c;
}

// ReduceAll over axis 2 of bool [2,2,3]: only rows of three non-zero bytes
// give 1 (any non-zero byte counts as true).
static OpCase reduce_all_case(const char *name, const char *route) {
    PlanBuilder b = one_op(TIGRIS_OP_REDUCE_ALL, TIGRIS_DTYPE_BOOL, {2, 2, 3}, TIGRIS_DTYPE_BOOL, {2, 2}, 2);
    OpCase c{name, TIGRIS_OP_REDUCE_ALL, route, b.build(), {}, {}};
    c.input = {1, 1, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1};
    c.expected = {1, 0, 0, 1};
    return c;
}

TIGRIS_OP_CASE(reduce_all_f32) { return reduce_all_case("reduce_all_f32", "f32"); }
TIGRIS_OP_CASE(reduce_all_s8) { return reduce_all_case("reduce_all_s8", "s8"); }
