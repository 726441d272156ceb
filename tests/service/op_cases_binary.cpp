// Op cases for the elementwise binary family: Add (7), Mul (8), Sub (18),
// Div (19), SquaredDifference (40), Maximum (41), Minimum (42), FloorDiv
// (53), FloorMod (54), PRelu (55), float32 and int8 where the route exists.
// Every expectation is worked out by hand in the comment next to it; the
// int8 cases use scales whose multipliers are exact powers of two so the
// TFLite integer algorithm gives the real-valued result exactly.
#include "op_cases.h"

using tigris_test::OpCase;
using tigris_test::PlanBuilder;
using tigris_test::bytes_of;

namespace {

constexpr uint8_t kIn = TIGRIS_TENSOR_MODEL_INPUT;
constexpr uint8_t kOut = TIGRIS_TENSOR_MODEL_OUTPUT;

// CONSTANT_OPERAND payload: position, 0, quant index, optional stored shape.
std::vector<uint8_t> const_operand(uint8_t pos, uint16_t quant, const std::vector<int32_t> &shape = {}) {
    std::vector<uint8_t> a = {pos, 0, (uint8_t)(quant & 0xFF), (uint8_t)(quant >> 8)};
    auto s = tigris_test::le_i32(shape);
    a.insert(a.end(), s.begin(), s.end());
    return a;
}

// a (model input) op b (model input) -> y.
PlanBuilder two_inputs(uint8_t type, uint8_t dtype, std::vector<int32_t> sa, std::vector<int32_t> sb,
                       std::vector<int32_t> sy, int qa = -1, int qb = -1, int qy = -1, PlanBuilder b = PlanBuilder(10)) {
    uint16_t a = b.add_tensor("a", dtype, sa, kIn, qa);
    uint16_t x = b.add_tensor("b", dtype, sb, kIn, qb);
    uint16_t y = b.add_tensor("y", dtype, sy, kOut, qy);
    uint16_t op = b.add_op(type, {a, x}, {y}, "op");
    b.add_stage({op}, {a, x}, {y});
    return b;
}

// One model input and a constant operand (weight 0) -> y.
PlanBuilder one_input(uint8_t type, uint8_t dtype, std::vector<int32_t> sx, std::vector<int32_t> sy,
                      std::vector<uint8_t> constant, std::vector<uint8_t> attr, int qx = -1, int qy = -1,
                      PlanBuilder b = PlanBuilder(10)) {
    uint16_t x = b.add_tensor("x", dtype, sx, kIn, qx);
    uint16_t y = b.add_tensor("y", dtype, sy, kOut, qy);
    uint16_t op = b.add_op(type, {x}, {y}, "op");
    b.ops[op].weight = b.add_weight("k", constant);
    if (!attr.empty()) b.add_attribute(op, TIGRIS_ATTR_CONSTANT_OPERAND, attr);
    b.add_stage({op}, {x}, {y});
    // Room for the constant next to the activations: the stage runs whole.
    b.budget = 1024;
    return b;
}

std::vector<uint8_t> cat(std::vector<uint8_t> a, const std::vector<uint8_t> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

std::vector<uint8_t> s8(const std::vector<int8_t> &v) { return bytes_of(v); }
std::vector<uint8_t> f32(const std::vector<float> &v) { return bytes_of(v); }

}  // namespace

// ---- float32 ----

// a[2,3] + per-channel constant {0.5, 1, -1} (attribute-less short form), fused Relu:
// 1.5, -1 -> 0, 2, -3.5 -> 0, 6, -7 -> 0.
TIGRIS_OP_CASE(add_f32) {
    PlanBuilder b = one_input(TIGRIS_OP_ADD, TIGRIS_DTYPE_FLOAT32, {2, 3}, {2, 3}, f32({0.5f, 1, -1}), {});
    b.ops[0].fused_act = TIGRIS_ACT_RELU;
    OpCase c{"add_f32", TIGRIS_OP_ADD, "f32", b.build(), {}, {}};
    c.input = f32({1, -2, 3, -4, 5, -6});
    c.expected = f32({1.5f, 0, 2, 0, 6, 0});
    return c;
}

// a[2,2] - b[2] (periodic): {5-1, 6-2, 7-1, 8-2}.
TIGRIS_OP_CASE(sub_f32) {
    PlanBuilder b = two_inputs(TIGRIS_OP_SUB, TIGRIS_DTYPE_FLOAT32, {2, 2}, {2}, {2, 2});
    OpCase c{"sub_f32", TIGRIS_OP_SUB, "f32", b.build(), {}, {}};
    c.input = cat(f32({5, 6, 7, 8}), f32({1, 2}));
    c.expected = f32({4, 4, 6, 6});
    return c;
}

// a[4] · scalar constant 2.5 (attribute-less).
TIGRIS_OP_CASE(mul_f32) {
    PlanBuilder b = one_input(TIGRIS_OP_MUL, TIGRIS_DTYPE_FLOAT32, {4}, {4}, f32({2.5f}), {});
    OpCase c{"mul_f32", TIGRIS_OP_MUL, "f32", b.build(), {}, {}};
    c.input = f32({1, -2, 0.5f, 4});
    c.expected = f32({2.5f, -5, 1.25f, 10});
    return c;
}

// a[2,2] / b[2,1] (general broadcast along columns): {1/2, 2/2, 3/-4, 4/-4}.
TIGRIS_OP_CASE(div_f32) {
    PlanBuilder b = two_inputs(TIGRIS_OP_DIV, TIGRIS_DTYPE_FLOAT32, {2, 2}, {2, 1}, {2, 2});
    OpCase c{"div_f32", TIGRIS_OP_DIV, "f32", b.build(), {}, {}};
    c.input = cat(f32({1, 2, 3, 4}), f32({2, -4}));
    c.expected = f32({0.5f, 1, -0.75f, -1});
    return c;
}

// (1 - x)² with the constant 1 as operand 0: x = {3, -1, 1} -> {4, 4, 0}.
TIGRIS_OP_CASE(squared_difference_f32) {
    PlanBuilder b = one_input(TIGRIS_OP_SQUARED_DIFFERENCE, TIGRIS_DTYPE_FLOAT32, {3}, {3}, f32({1}),
                              const_operand(0, TIGRIS_NONE16));
    OpCase c{"squared_difference_f32", TIGRIS_OP_SQUARED_DIFFERENCE, "f32", b.build(), {}, {}};
    c.input = f32({3, -1, 1});
    c.expected = f32({4, 4, 0});
    return c;
}

// max(a[2,3], b[3]): rows {1,5,-2} and {0,-7,9} against {2,2,2}.
TIGRIS_OP_CASE(maximum_f32) {
    PlanBuilder b = two_inputs(TIGRIS_OP_MAXIMUM, TIGRIS_DTYPE_FLOAT32, {2, 3}, {3}, {2, 3});
    OpCase c{"maximum_f32", TIGRIS_OP_MAXIMUM, "f32", b.build(), {}, {}};
    c.input = cat(f32({1, 5, -2, 0, -7, 9}), f32({2, 2, 2}));
    c.expected = f32({2, 5, 2, 2, 2, 9});
    return c;
}

// min(a[2,2], constant of stored shape [2,1] = {0, 10}): row 0 against 0, row 1 against 10.
TIGRIS_OP_CASE(minimum_f32) {
    PlanBuilder b = one_input(TIGRIS_OP_MINIMUM, TIGRIS_DTYPE_FLOAT32, {2, 2}, {2, 2}, f32({0, 10}),
                              const_operand(1, TIGRIS_NONE16, {2, 1}));
    OpCase c{"minimum_f32", TIGRIS_OP_MINIMUM, "f32", b.build(), {}, {}};
    c.input = f32({-1, 3, 12, 8});
    c.expected = f32({-1, 0, 10, 8});
    return c;
}

// floor(a / b): 7/2 = 3.5 -> 3, -7/2 -> -4, 7.5/-2 = -3.75 -> -4, -1/3 -> -1.
TIGRIS_OP_CASE(floor_div_f32) {
    PlanBuilder b = two_inputs(TIGRIS_OP_FLOOR_DIV, TIGRIS_DTYPE_FLOAT32, {4}, {4}, {4});
    OpCase c{"floor_div_f32", TIGRIS_OP_FLOOR_DIV, "f32", b.build(), {}, {}};
    c.input = cat(f32({7, -7, 7.5f, -1}), f32({2, 2, -2, 3}));
    c.expected = f32({3, -4, -4, -1});
    return c;
}

// a mod b with the divisor's sign: 7 mod 2 = 1, -7 mod 2 = 1, 5.5 mod -2 = -0.5, 6 mod 3 = 0.
TIGRIS_OP_CASE(floor_mod_f32) {
    PlanBuilder b = two_inputs(TIGRIS_OP_FLOOR_MOD, TIGRIS_DTYPE_FLOAT32, {4}, {4}, {4});
    OpCase c{"floor_mod_f32", TIGRIS_OP_FLOOR_MOD, "f32", b.build(), {}, {}};
    c.input = cat(f32({7, -7, 5.5f, 6}), f32({2, 2, -2, 3}));
    c.expected = f32({1, 1, -0.5f, 0});
    return c;
}

// PRelu on x[1,2,2,2] with per-channel slopes {0.25, -0.5}: channel 0 holds
// 1, -2, 0, -8 -> 1, -0.5, 0, -2; channel 1 holds -4, 2, -1, 3 -> 2, 2, 0.5, 3.
TIGRIS_OP_CASE(prelu_f32) {
    PlanBuilder b = one_input(TIGRIS_OP_PRELU, TIGRIS_DTYPE_FLOAT32, {1, 2, 2, 2}, {1, 2, 2, 2}, f32({0.25f, -0.5f}),
                              const_operand(1, TIGRIS_NONE16));
    OpCase c{"prelu_f32", TIGRIS_OP_PRELU, "f32", b.build(), {}, {}};
    c.input = f32({1, -4, -2, 2, 0, -1, -8, 3});
    c.expected = f32({1, 2, -0.5f, 2, 0, 0.5f, -2, 3});
    return c;
}

// ---- int8 ----

// All scales 0.5, zero points 0: twice = 1, operand multipliers 1/2 and the
// output multiplier 2^-19 are exact, so y = a + b saturated.
TIGRIS_OP_CASE(add_s8) {
    PlanBuilder b(10);
    int q = b.add_quant(0.5f, 0);
    b = two_inputs(TIGRIS_OP_ADD, TIGRIS_DTYPE_INT8, {4}, {4}, {4}, q, q, q, b);
    OpCase c{"add_s8", TIGRIS_OP_ADD, "s8", b.build(), {}, {}};
    c.input = cat(s8({10, -20, 100, -100}), s8({5, 5, 100, -100}));
    c.expected = s8({15, -15, 127, -128});
    return c;
}

// As add_s8 with output zero point 3: y = a - b + 3 saturated.
TIGRIS_OP_CASE(sub_s8) {
    PlanBuilder b(10);
    int q = b.add_quant(0.5f, 0), qy = b.add_quant(0.5f, 3);
    b = two_inputs(TIGRIS_OP_SUB, TIGRIS_DTYPE_INT8, {4}, {4}, {4}, q, q, qy, b);
    OpCase c{"sub_s8", TIGRIS_OP_SUB, "s8", b.build(), {}, {}};
    c.input = cat(s8({10, -20, 100, -100}), s8({5, 5, -100, 100}));
    c.expected = s8({8, -22, 127, -128});
    return c;
}

// sa·sb/sy = 0.5·0.25/0.125 = 1: y = a·b - 10 with b[1] = 5 broadcast.
TIGRIS_OP_CASE(mul_s8) {
    PlanBuilder b(10);
    int qa = b.add_quant(0.5f, 0), qb = b.add_quant(0.25f, 0), qy = b.add_quant(0.125f, -10);
    b = two_inputs(TIGRIS_OP_MUL, TIGRIS_DTYPE_INT8, {4}, {1}, {4}, qa, qb, qy, b);
    OpCase c{"mul_s8", TIGRIS_OP_MUL, "s8", b.build(), {}, {}};
    c.input = cat(s8({3, -4, 10, 20}), s8({5}));
    c.expected = s8({5, -30, 40, 90});
    return c;
}

// sa/(sb·sy) = 0.5/(0.25·0.125) = 16: y = round(16·a/b):
// 16·3/8 = 6, 16·-5/4 = -20, 16·7/-2 = -56, 0, 16·1/3 = 5.33 -> 5.
TIGRIS_OP_CASE(div_s8) {
    PlanBuilder b(10);
    int qa = b.add_quant(0.5f, 0), qb = b.add_quant(0.25f, 0), qy = b.add_quant(0.125f, 0);
    b = two_inputs(TIGRIS_OP_DIV, TIGRIS_DTYPE_INT8, {5}, {5}, {5}, qa, qb, qy, b);
    OpCase c{"div_s8", TIGRIS_OP_DIV, "s8", b.build(), {}, {}};
    c.input = cat(s8({3, -5, 7, 0, 1}), s8({8, 4, -2, 9, 3}));
    c.expected = s8({6, -20, -56, 0, 5});
    return c;
}

// Inputs at scale 0.5, output 0.25 with zero point -100: (0.5(a-b))²/0.25 = (a-b)²,
// so {2², (-4)², 0, (-20)²} - 100 = {-96, -84, -100, 300 -> 127}.
TIGRIS_OP_CASE(squared_difference_s8) {
    PlanBuilder b(10);
    int q = b.add_quant(0.5f, 0), qy = b.add_quant(0.25f, -100);
    b = two_inputs(TIGRIS_OP_SQUARED_DIFFERENCE, TIGRIS_DTYPE_INT8, {4}, {4}, {4}, q, q, qy, b);
    OpCase c{"squared_difference_s8", TIGRIS_OP_SQUARED_DIFFERENCE, "s8", b.build(), {}, {}};
    c.input = cat(s8({3, -2, 10, 0}), s8({1, 2, 10, 20}));
    c.expected = s8({-96, -84, -100, 127});
    return c;
}

// One encoding (0.2, -5) everywhere; max against the constant -5.
TIGRIS_OP_CASE(maximum_s8) {
    PlanBuilder b(10);
    int q = b.add_quant(0.2f, -5);
    b = one_input(TIGRIS_OP_MAXIMUM, TIGRIS_DTYPE_INT8, {2, 2}, {2, 2}, s8({-5}), const_operand(1, (uint16_t)q), q, q,
                  b);
    OpCase c{"maximum_s8", TIGRIS_OP_MAXIMUM, "s8", b.build(), {}, {}};
    c.input = s8({-128, -5, 0, 127});
    c.expected = s8({-5, -5, 0, 127});
    return c;
}

// min(a[2,2], b[2]) on raw values: {min(-128,0), min(4,5), min(9,0), min(-7,5)}.
TIGRIS_OP_CASE(minimum_s8) {
    PlanBuilder b(10);
    int q = b.add_quant(0.2f, -5);
    b = two_inputs(TIGRIS_OP_MINIMUM, TIGRIS_DTYPE_INT8, {2, 2}, {2}, {2, 2}, q, q, q, b);
    OpCase c{"minimum_s8", TIGRIS_OP_MINIMUM, "s8", b.build(), {}, {}};
    c.input = cat(s8({-128, 4, 9, -7}), s8({0, 5}));
    c.expected = s8({-128, 4, 0, -7});
    return c;
}

// x at 0.1, slopes at 0.125 with values {2, 8} (0.25 and 1.0), output 0.1:
// {40, -40, -8, 5} over channels {0, 1, 0, 1} -> {40, -40, -2, 5}.
TIGRIS_OP_CASE(prelu_s8) {
    PlanBuilder b(10);
    int qx = b.add_quant(0.1f, 0), qa = b.add_quant(0.125f, 0);
    b = one_input(TIGRIS_OP_PRELU, TIGRIS_DTYPE_INT8, {1, 2, 2}, {1, 2, 2}, s8({2, 8}), const_operand(1, (uint16_t)qa),
                  qx, qx, b);
    OpCase c{"prelu_s8", TIGRIS_OP_PRELU, "s8", b.build(), {}, {}};
    c.input = s8({40, -40, -8, 5});
    c.expected = s8({40, -40, -2, 5});
    return c;
}
