// Op cases for the logic family: comparisons (73-77), LogicalAnd/Or/Not
// (78-80), SelectV2 (81), Cast (82) and AddN (83), each on the f32 and the
// s8 route. Expected bytes are worked out by hand in the comments.
#include "op_cases.h"

using tigris_test::OpCase;
using tigris_test::PlanBuilder;

namespace {

std::vector<uint8_t> cat(std::vector<uint8_t> a, const std::vector<uint8_t> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// Real values a = {0, 1, 2, -1, 4, 63}, b = {0, 0.5, 3, -1, 5, -31.5}:
// a == b, a > b, a < b, a == b, a < b, a > b.
const std::vector<float> kA = {0.0f, 1.0f, 2.0f, -1.0f, 4.0f, 63.0f};
const std::vector<float> kB = {0.0f, 0.5f, 3.0f, -1.0f, 5.0f, -31.5f};

std::vector<uint8_t> cmp_expected(uint8_t opc) {
    switch (opc) {
    case TIGRIS_OP_EQUAL: return {1, 0, 0, 1, 0, 0};
    case TIGRIS_OP_LESS: return {0, 0, 1, 0, 1, 0};
    case TIGRIS_OP_LESS_EQUAL: return {1, 0, 1, 1, 1, 0};
    case TIGRIS_OP_GREATER: return {0, 1, 0, 0, 0, 1};
    default: return {1, 1, 0, 1, 0, 1};
    }
}

OpCase cmp_f32(uint8_t opc, const char *name) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("a", TIGRIS_DTYPE_FLOAT32, {2, 3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t w = b.add_tensor("b", TIGRIS_DTYPE_FLOAT32, {2, 3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_BOOL, {2, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(opc, {x, w}, {y}, name);
    b.add_stage({op}, {x, w}, {y});
    OpCase c{name, opc, "f32", b.build(), {}, {}};
    c.input = cat(tigris_test::bytes_of(kA), tigris_test::bytes_of(kB));
    c.expected = cmp_expected(opc);
    return c;
}

// int8: a at scale 0.5 zp 1 (codes 2·a + 1), b at scale 0.25 zp -2 (codes
// 4·b - 2). COMPARISON_REQUANT: 0.5 = (2^30, 0), 0.25 = (2^30, -1), so the
// compared values are (a - 1)·128 and (b + 2)·64, both exactly 256 × real.
OpCase cmp_s8(uint8_t opc, const char *name) {
    PlanBuilder b(10);
    int qa = b.add_quant(0.5f, 1), qb = b.add_quant(0.25f, -2);
    uint16_t x = b.add_tensor("a", TIGRIS_DTYPE_INT8, {2, 3}, TIGRIS_TENSOR_MODEL_INPUT, qa);
    uint16_t w = b.add_tensor("b", TIGRIS_DTYPE_INT8, {2, 3}, TIGRIS_TENSOR_MODEL_INPUT, qb);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_BOOL, {2, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(opc, {x, w}, {y}, name);
    b.add_attribute(op, TIGRIS_ATTR_COMPARISON_REQUANT, tigris_test::le_i32({8, 1 << 30, 0, 1 << 30, -1}));
    b.add_stage({op}, {x, w}, {y});
    OpCase c{name, opc, "s8", b.build(), {}, {}};
    const std::vector<int8_t> a = {1, 3, 5, -1, 9, 127}, bb = {-2, 0, 10, -6, 18, -128};
    c.input = cat(tigris_test::bytes_of(a), tigris_test::bytes_of(bb));
    c.expected = cmp_expected(opc);
    return c;
}

// Logic on bool inputs a [2,3] and b [3] (broadcast along the rows).
const std::vector<uint8_t> kLa = {1, 0, 1, 0, 0, 1}, kLb = {1, 1, 0};
const std::vector<uint8_t> kAnd = {1, 0, 0, 0, 0, 0}, kOr = {1, 1, 1, 1, 1, 1};

OpCase logic_f32(uint8_t opc, const char *name) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("a", TIGRIS_DTYPE_BOOL, {2, 3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t w = b.add_tensor("b", TIGRIS_DTYPE_BOOL, {3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_BOOL, {2, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(opc, {x, w}, {y}, name);
    b.add_stage({op}, {x, w}, {y});
    OpCase c{name, opc, "f32", b.build(), {}, {}};
    c.input = cat(kLa, kLb);
    c.expected = opc == TIGRIS_OP_LOGICAL_AND ? kAnd : kOr;
    return c;
}

// The int8 route needs an int8 plan: the bool result is cast to int8 at
// scale 0.5, zp -1 (false -> -1, true -> roundf(2) - 1 = 1).
std::vector<uint8_t> as_s8(const std::vector<uint8_t> &v) {
    std::vector<uint8_t> r;
    for (uint8_t x : v) r.push_back(x ? 1u : (uint8_t)(int8_t)-1);
    return r;
}

OpCase logic_s8(uint8_t opc, const char *name) {
    PlanBuilder b(10);
    int q = b.add_quant(0.5f, -1);
    uint16_t x = b.add_tensor("a", TIGRIS_DTYPE_BOOL, {2, 3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t w = b.add_tensor("b", TIGRIS_DTYPE_BOOL, {3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t t = b.add_tensor("t", TIGRIS_DTYPE_BOOL, {2, 3});
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_INT8, {2, 3}, TIGRIS_TENSOR_MODEL_OUTPUT, q);
    uint16_t op = b.add_op(opc, {x, w}, {t}, name);
    uint16_t cast = b.add_op(TIGRIS_OP_CAST, {t}, {y}, "cast");
    b.add_stage({op}, {x, w}, {t});
    b.add_stage({cast}, {t}, {y});
    OpCase c{name, opc, "s8", b.build(), {}, {}};
    c.input = cat(kLa, kLb);
    c.expected = as_s8(opc == TIGRIS_OP_LOGICAL_AND ? kAnd : kOr);
    return c;
}

}  // namespace

TIGRIS_OP_CASE(equal_f32) { return cmp_f32(TIGRIS_OP_EQUAL, "equal_f32"); }
TIGRIS_OP_CASE(less_f32) { return cmp_f32(TIGRIS_OP_LESS, "less_f32"); }
TIGRIS_OP_CASE(less_equal_f32) { return cmp_f32(TIGRIS_OP_LESS_EQUAL, "less_equal_f32"); }
TIGRIS_OP_CASE(greater_f32) { return cmp_f32(TIGRIS_OP_GREATER, "greater_f32"); }
TIGRIS_OP_CASE(greater_equal_f32) { return cmp_f32(TIGRIS_OP_GREATER_EQUAL, "greater_equal_f32"); }
TIGRIS_OP_CASE(equal_s8) { return cmp_s8(TIGRIS_OP_EQUAL, "equal_s8"); }
TIGRIS_OP_CASE(less_s8) { return cmp_s8(TIGRIS_OP_LESS, "less_s8"); }
TIGRIS_OP_CASE(less_equal_s8) { return cmp_s8(TIGRIS_OP_LESS_EQUAL, "less_equal_s8"); }
TIGRIS_OP_CASE(greater_s8) { return cmp_s8(TIGRIS_OP_GREATER, "greater_s8"); }
TIGRIS_OP_CASE(greater_equal_s8) { return cmp_s8(TIGRIS_OP_GREATER_EQUAL, "greater_equal_s8"); }

// A float comparison against a constant: x < 1.5 per element.
TIGRIS_OP_CASE(less_const_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {4}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_BOOL, {4}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_LESS, {x}, {y}, "less");
    b.ops[op].weight = b.add_float_weight("c", {1.5f});
    b.add_attribute(op, TIGRIS_ATTR_CONSTANT_OPERAND, {1, 0, 0xFF, 0xFF});
    b.add_stage({op}, {x}, {y});
    OpCase c{"less_const_f32", TIGRIS_OP_LESS, "f32", b.build(), {}, {}};
    c.input = tigris_test::bytes_of(std::vector<float>{1.0f, 1.5f, 2.0f, -7.0f});
    c.expected = {1, 0, 0, 1};
    return c;
}

TIGRIS_OP_CASE(logical_and_f32) { return logic_f32(TIGRIS_OP_LOGICAL_AND, "logical_and_f32"); }
TIGRIS_OP_CASE(logical_or_f32) { return logic_f32(TIGRIS_OP_LOGICAL_OR, "logical_or_f32"); }
TIGRIS_OP_CASE(logical_and_s8) { return logic_s8(TIGRIS_OP_LOGICAL_AND, "logical_and_s8"); }
TIGRIS_OP_CASE(logical_or_s8) { return logic_s8(TIGRIS_OP_LOGICAL_OR, "logical_or_s8"); }

TIGRIS_OP_CASE(logical_not_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_BOOL, {5}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_BOOL, {5}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_LOGICAL_NOT, {x}, {y}, "not");
    b.add_stage({op}, {x}, {y});
    OpCase c{"logical_not_f32", TIGRIS_OP_LOGICAL_NOT, "f32", b.build(), {}, {}};
    c.input = {1, 0, 0, 1, 1};
    c.expected = {0, 1, 1, 0, 0};
    return c;
}

TIGRIS_OP_CASE(logical_not_s8) {
    PlanBuilder b(10);
    int q = b.add_quant(0.5f, -1);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_BOOL, {5}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t t = b.add_tensor("t", TIGRIS_DTYPE_BOOL, {5});
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_INT8, {5}, TIGRIS_TENSOR_MODEL_OUTPUT, q);
    uint16_t op = b.add_op(TIGRIS_OP_LOGICAL_NOT, {x}, {t}, "not");
    uint16_t cast = b.add_op(TIGRIS_OP_CAST, {t}, {y}, "cast");
    b.add_stage({op}, {x}, {t});
    b.add_stage({cast}, {t}, {y});
    OpCase c{"logical_not_s8", TIGRIS_OP_LOGICAL_NOT, "s8", b.build(), {}, {}};
    c.input = {1, 0, 0, 1, 1};
    c.expected = as_s8({0, 1, 1, 0, 0});
    return c;
}

// SelectV2: cond [2,1] picks a row of a [2,3] or the broadcast b [3].
// cond = {1, 0}: row 0 from a, row 1 from b.
TIGRIS_OP_CASE(select_v2_f32) {
    PlanBuilder b(10);
    uint16_t cd = b.add_tensor("cond", TIGRIS_DTYPE_BOOL, {2, 1}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t x = b.add_tensor("a", TIGRIS_DTYPE_FLOAT32, {2, 3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t w = b.add_tensor("b", TIGRIS_DTYPE_FLOAT32, {3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {2, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_SELECT_V2, {cd, x, w}, {y}, "select");
    b.add_stage({op}, {cd, x, w}, {y});
    OpCase c{"select_v2_f32", TIGRIS_OP_SELECT_V2, "f32", b.build(), {}, {}};
    c.input = cat(cat({1, 0}, tigris_test::bytes_of(std::vector<float>{1, 2, 3, 4, 5, 6})),
                  tigris_test::bytes_of(std::vector<float>{-1, -2, -3}));
    c.expected = tigris_test::bytes_of(std::vector<float>{1, 2, 3, -1, -2, -3});
    return c;
}

// The same in int8 (values share the output encoding: bytes are copied),
// with b the constant operand at position 2.
TIGRIS_OP_CASE(select_v2_s8) {
    PlanBuilder b(10);
    int q = b.add_quant(0.1f, 3);
    uint16_t cd = b.add_tensor("cond", TIGRIS_DTYPE_BOOL, {2, 1}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t x = b.add_tensor("a", TIGRIS_DTYPE_INT8, {2, 3}, TIGRIS_TENSOR_MODEL_INPUT, q);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_INT8, {2, 3}, TIGRIS_TENSOR_MODEL_OUTPUT, q);
    uint16_t op = b.add_op(TIGRIS_OP_SELECT_V2, {cd, x}, {y}, "select");
    b.ops[op].weight = b.add_weight("b", {(uint8_t)(int8_t)-1, (uint8_t)(int8_t)-2, (uint8_t)(int8_t)-128});
    b.add_attribute(op, TIGRIS_ATTR_CONSTANT_OPERAND, {2, 0, (uint8_t)q, 0});
    b.add_stage({op}, {cd, x}, {y});
    OpCase c{"select_v2_s8", TIGRIS_OP_SELECT_V2, "s8", b.build(), {}, {}};
    c.input = {0, 1, 10, 20, 30, 40, 50, 127};
    c.expected = {(uint8_t)(int8_t)-1, (uint8_t)(int8_t)-2, (uint8_t)(int8_t)-128, 40, 50, 127};
    return c;
}

TIGRIS_OP_CASE(cast_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_BOOL, {1, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_CAST, {x}, {y}, "cast");
    b.add_stage({op}, {x}, {y});
    OpCase c{"cast_f32", TIGRIS_OP_CAST, "f32", b.build(), {}, {}};
    c.input = {0, 1, 1, 0};
    c.expected = tigris_test::bytes_of(std::vector<float>{0.0f, 1.0f, 1.0f, 0.0f});
    return c;
}

// Scale 0.4f, zp -128: false -> -128; true -> roundf(1.0f / 0.4f) - 128.
// 1/0.4f in float is exactly 2.5 (the real quotient is 2.49999996...), and
// roundf(2.5) = 3, so true -> -125.
TIGRIS_OP_CASE(cast_s8) {
    PlanBuilder b(10);
    int q = b.add_quant(0.4f, -128);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_BOOL, {1, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_INT8, {1, 4}, TIGRIS_TENSOR_MODEL_OUTPUT, q);
    uint16_t op = b.add_op(TIGRIS_OP_CAST, {x}, {y}, "cast");
    b.add_stage({op}, {x}, {y});
    OpCase c{"cast_s8", TIGRIS_OP_CAST, "s8", b.build(), {}, {}};
    c.input = {0, 1, 1, 0};
    c.expected = {0x80, (uint8_t)(int8_t)-125, (uint8_t)(int8_t)-125, 0x80};
    return c;
}

// 0.0 + a + b + c in order: 1e8 + 1 stays 1e8 in float, - 1e8 gives 0.
TIGRIS_OP_CASE(add_n_f32) {
    PlanBuilder b(10);
    uint16_t a = b.add_tensor("a", TIGRIS_DTYPE_FLOAT32, {3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t bb = b.add_tensor("b", TIGRIS_DTYPE_FLOAT32, {3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t cc = b.add_tensor("c", TIGRIS_DTYPE_FLOAT32, {3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_ADD_N, {a, bb, cc}, {y}, "addn");
    b.add_stage({op}, {a, bb, cc}, {y});
    OpCase c{"add_n_f32", TIGRIS_OP_ADD_N, "f32", b.build(), {}, {}};
    c.input = cat(cat(tigris_test::bytes_of(std::vector<float>{1e8f, 1.5f, -2.0f}),
                      tigris_test::bytes_of(std::vector<float>{1.0f, 2.0f, 0.5f})),
                  tigris_test::bytes_of(std::vector<float>{-1e8f, -0.25f, 0.25f}));
    c.expected = tigris_test::bytes_of(std::vector<float>{0.0f, 3.25f, -1.25f});
    return c;
}

// int8, inputs at scale 0.5 zp 2, output at scale 1.0 zp -3 (docs/runtime-semantics.md R4.3 item 31,
// TFLite's AddN): the accumulator starts at -zp (in input codes) and adds
// (x - zp) per input, so S = -2 + (a - 2) + (b - 2) codes; the rescale
// 2·0.5/(2^20·1.0) = 2^-20 is (2^30, -19), i.e. S·0.5 rounded half away,
// then + (-3), saturated. Codes {4, 12, 127, -128} + {3, -1, 127, -128}:
// S = 1, 5, 248, -262 -> 1, 3, 124, -131 -> -2, 0, 121, -128.
TIGRIS_OP_CASE(add_n_s8) {
    PlanBuilder b(10);
    int qx = b.add_quant(0.5f, 2), qy = b.add_quant(1.0f, -3);
    uint16_t a = b.add_tensor("a", TIGRIS_DTYPE_INT8, {4}, TIGRIS_TENSOR_MODEL_INPUT, qx);
    uint16_t bb = b.add_tensor("b", TIGRIS_DTYPE_INT8, {4}, TIGRIS_TENSOR_MODEL_INPUT, qx);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_INT8, {4}, TIGRIS_TENSOR_MODEL_OUTPUT, qy);
    uint16_t op = b.add_op(TIGRIS_OP_ADD_N, {a, bb}, {y}, "addn");
    b.add_stage({op}, {a, bb}, {y});
    OpCase c{"add_n_s8", TIGRIS_OP_ADD_N, "s8", b.build(), {}, {}};
    c.input = {4, 12, 127, 0x80, 3, (uint8_t)(int8_t)-1, 127, 0x80};
    c.expected = {(uint8_t)(int8_t)-2, 0, 121, 0x80};
    return c;
}
