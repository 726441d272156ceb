// Operator semantics: binary ops, constant operands, comparisons, logic,
// select, cast, AddN (docs/format.md P14.3, P14.3.1, P14.10, P10.1 kinds 7, 9, 13).
#include "test_op_semantics_common.h"

using namespace opsem;
using tigris_test::le_i32;
using tigris_test::PlanBuilder;

namespace {
constexpr tigris_error_t OP = TIGRIS_ERR_BAD_OPERATOR;

OneOp add(std::vector<int32_t> bs, uint8_t type = TIGRIS_OP_ADD) {
    return OneOp(type, {f32({1, 4, 4, 2}), f32(bs)}, {f32({1, 4, 4, 2})});
}

// Float op with one runtime input and a constant of n floats at weight_idx.
OneOp with_const(uint8_t type, size_t n) {
    OneOp c(type, {f32({1, 4, 4, 2})}, {f32({1, 4, 4, 2})});
    c.o().weight = c.b.add_float_weight("k", std::vector<float>(n, 2.0f));
    return c;
}

// int8 binary op: input quant 0, output quant 1.
OneOp s8_binary(uint8_t type, float sa = 0.5f, float sb = 0.5f, float sy = 0.5f) {
    auto pre = [=](PlanBuilder &b) {
        b.add_quant(sa, 0);
        b.add_quant(sb, 0);
        b.add_quant(sy, 0);
    };
    return OneOp(type, {s8({1, 4}, 0), s8({1, 4}, 1)}, {s8({1, 4}, 2)}, 11, pre);
}
}  // namespace

TEST(OpSemanticsBinary, OperandMustBroadcast) {
    EXPECT_VALID_THEN(add({1, 1, 1, 2}).bytes(), add({1, 1, 1, 3}).bytes(), OP);
}

TEST(OpSemanticsBinary, RightAlignedLowerRankBroadcasts) { EXPECT_LOAD(add({4, 2}).bytes(), TIGRIS_OK); }

TEST(OpSemanticsBinary, OperandRankAboveOutputRefused) {
    EXPECT_VALID_THEN(add({4, 1, 2}).bytes(), add({1, 1, 4, 4, 2}).bytes(), OP);
}

TEST(OpSemanticsBinary, TwoRuntimeInputsTakeNoWeight) {
    OneOp g = add({1, 4, 4, 2}), bad = add({1, 4, 4, 2});
    bad.o().weight = bad.b.add_float_weight("k", {1.0f});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsBinary, GeneralBroadcastOnlyUpToRank6) {
    // Ranks up to 6 (TFLite's limit) take any broadcast; above that only a
    // periodic read: rank 7 [1,1,1,1,1,2,2] of the output [2,2,2,2,2,2,2] is
    // one, [2,1,2,1,2,1,2] needs a strided read.
    auto make = [](std::vector<int32_t> ys, std::vector<int32_t> bs) {
        return OneOp(TIGRIS_OP_MUL, {f32(ys), f32(bs)}, {f32(ys)});
    };
    EXPECT_LOAD(make({2, 2, 2, 2, 2}, {2, 1, 2, 1, 2}).bytes(), TIGRIS_OK);
    EXPECT_LOAD(make({2, 2, 2, 2, 2, 2}, {2, 1, 2, 1, 2, 1}).bytes(), TIGRIS_OK);
    EXPECT_VALID_THEN(make({2, 2, 2, 2, 2, 2, 2}, {1, 1, 1, 1, 1, 2, 2}).bytes(),
                      make({2, 2, 2, 2, 2, 2, 2}, {2, 1, 2, 1, 2, 1, 2}).bytes(), OP);
}

TEST(OpSemanticsBinary, AttributelessConstantShortForms) {
    // one element, one per channel (last axis 2), one per element (32).
    EXPECT_LOAD(with_const(TIGRIS_OP_ADD, 1).bytes(), TIGRIS_OK);
    EXPECT_LOAD(with_const(TIGRIS_OP_MUL, 2).bytes(), TIGRIS_OK);
    EXPECT_LOAD(with_const(TIGRIS_OP_ADD, 32).bytes(), TIGRIS_OK);
    EXPECT_LOAD(with_const(TIGRIS_OP_ADD, 3).bytes(), OP);
}

TEST(OpSemanticsBinary, AttributelessConstantOnlyForFloatAddMul) {
    EXPECT_VALID_THEN(with_const(TIGRIS_OP_MUL, 2).bytes(), with_const(TIGRIS_OP_SUB, 2).bytes(), OP);
}

TEST(OpSemanticsBinary, OneRuntimeInputNeedsAConstant) {
    OneOp g = with_const(TIGRIS_OP_ADD, 1), bad = g;
    bad.o().weight = -1;
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConstantOperand, PositionZeroOnSub) {
    OneOp g = with_const(TIGRIS_OP_SUB, 1);
    g.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(0));
    EXPECT_LOAD(g.bytes(), TIGRIS_OK);
}

TEST(OpSemanticsConstantOperand, PositionAboveOneRefused) {
    OneOp g = with_const(TIGRIS_OP_SUB, 1), bad = g;
    g.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1));
    bad.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(2));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConstantOperand, SecondByteMustBeZero) {
    OneOp g = with_const(TIGRIS_OP_SUB, 1), bad = g;
    g.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1));
    bad.attr(TIGRIS_ATTR_CONSTANT_OPERAND, {1, 1, 0xFF, 0xFF});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConstantOperand, PayloadLengthFourPlusWholeI32) {
    OneOp g = with_const(TIGRIS_OP_SUB, 1), bad = g;
    g.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1));
    bad.attr(TIGRIS_ATTR_CONSTANT_OPERAND, {1, 0, 0xFF, 0xFF, 0, 0});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConstantOperand, FloatConstantTakesNoQuantRecord) {
    OneOp g = with_const(TIGRIS_OP_SUB, 1), bad = g;
    bad.b.add_quant(0.5f, 0);
    g.b.add_quant(0.5f, 0);
    g.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1));
    bad.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1, 0));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConstantOperand, LongFormShapeBroadcastsAndSizes) {
    // Output [1,4,4,2]; a constant of stored shape [1,1,4,1] = 4 floats.
    OneOp g = with_const(TIGRIS_OP_DIV, 4), bad_shape = g, bad_size = with_const(TIGRIS_OP_DIV, 3);
    g.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1, TIGRIS_NONE16, {1, 1, 4, 1}));
    bad_shape.b.weights[bad_shape.o().weight].bytes.resize(12);
    bad_shape.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1, TIGRIS_NONE16, {1, 1, 3, 1}));
    bad_size.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1, TIGRIS_NONE16, {1, 1, 4, 1}));
    ASSERT_LOAD(g.bytes(), TIGRIS_OK);
    EXPECT_LOAD(bad_shape.bytes(), OP);
    EXPECT_LOAD(bad_size.bytes(), OP);
}

TEST(OpSemanticsConstantOperand, LongFormRankIsOutputRank) {
    OneOp g = with_const(TIGRIS_OP_DIV, 4), bad = g;
    g.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1, TIGRIS_NONE16, {1, 1, 4, 1}));
    bad.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1, TIGRIS_NONE16, {1, 4, 1}));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConstantOperand, Int8ConstantNeedsPerTensorQuant) {
    auto make = [](bool per_channel) {
        auto pre = [=](PlanBuilder &b) {
            b.add_quant(0.5f, 0);
            if (per_channel)
                b.add_quant(0.5f, 0, {1 << 30, 1 << 30}, {0, 0});
            else
                b.add_quant(0.5f, 0);
        };
        OneOp c(TIGRIS_OP_MUL, {s8({1, 4}, 0)}, {s8({1, 4}, 0)}, 11, pre);
        c.o().weight = c.b.add_weight("k", {3});
        c.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1, 1));
        return c;
    };
    EXPECT_VALID_THEN(make(false).bytes(), make(true).bytes(), OP);
}

TEST(OpSemanticsConstantOperand, Int8ConstantWithoutQuantRefused) {
    auto make = [](uint16_t q) {
        auto pre = [](PlanBuilder &b) { b.add_quant(0.5f, 0); };
        OneOp c(TIGRIS_OP_MUL, {s8({1, 4}, 0)}, {s8({1, 4}, 0)}, 11, pre);
        c.o().weight = c.b.add_weight("k", {3});
        c.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1, q));
        return c;
    };
    EXPECT_VALID_THEN(make(0).bytes(), make(TIGRIS_NONE16).bytes(), OP);
}

TEST(OpSemanticsConstantOperand, RuntimeInputCountIsArityMinusOne) {
    OneOp g = with_const(TIGRIS_OP_SUB, 1);
    g.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1));
    OneOp bad = add({1, 4, 4, 2}, TIGRIS_OP_SUB);
    bad.o().weight = bad.b.add_float_weight("k", {1.0f});
    bad.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsBinaryRequant, ShiftsWithin31) {
    OneOp g = s8_binary(TIGRIS_OP_ADD), bad = g;
    g.attr(TIGRIS_ATTR_BINARY_REQUANT, le_i32({1 << 30, 0, 1 << 30, 0, 1 << 30, -31}));
    bad.attr(TIGRIS_ATTR_BINARY_REQUANT, le_i32({1 << 30, 0, 1 << 30, 0, 1 << 30, 32}));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsBinaryRequant, MultipliersNonNegative) {
    OneOp g = s8_binary(TIGRIS_OP_SUB), bad = g;
    g.attr(TIGRIS_ATTR_BINARY_REQUANT, le_i32({0, 0, 1, 0, 1, 0}));
    bad.attr(TIGRIS_ATTR_BINARY_REQUANT, le_i32({1, 0, -1, 0, 1, 0}));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsBinary, Int8MaximumNeedsOneEncoding) {
    EXPECT_VALID_THEN(s8_binary(TIGRIS_OP_MAXIMUM).bytes(), s8_binary(TIGRIS_OP_MINIMUM, 0.5f, 0.25f).bytes(), OP);
}

TEST(OpSemanticsBinary, FloorDivFloatOnly) {
    OneOp g(TIGRIS_OP_FLOOR_DIV, {f32({1, 4}), f32({1, 4})}, {f32({1, 4})});
    EXPECT_VALID_THEN(g.bytes(), s8_binary(TIGRIS_OP_FLOOR_MOD).bytes(), OP);
}

TEST(OpSemanticsBinary, Int8ArithmeticNeedsQuant) {
    OneOp bad(TIGRIS_OP_DIV, {s8({1, 4}, -1), s8({1, 4}, -1)}, {s8({1, 4}, -1)});
    EXPECT_VALID_THEN(s8_binary(TIGRIS_OP_DIV).bytes(), bad.bytes(), OP);
}

namespace {
OneOp prelu(bool attr, uint8_t pos = 1, std::vector<int32_t> ys = {1, 4, 4, 2}) {
    OneOp c(TIGRIS_OP_PRELU, {f32({1, 4, 4, 2})}, {f32(ys)});
    c.o().weight = c.b.add_float_weight("slope", {0.1f, 0.2f});
    if (attr) c.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(pos));
    return c;
}
}  // namespace

TEST(OpSemanticsPRelu, NeedsConstantOperand) { EXPECT_VALID_THEN(prelu(true).bytes(), prelu(false).bytes(), OP); }
TEST(OpSemanticsPRelu, SlopeIsSecondOperand) { EXPECT_VALID_THEN(prelu(true).bytes(), prelu(true, 0).bytes(), OP); }
TEST(OpSemanticsPRelu, RankAtMostFour) {
    OneOp bad(TIGRIS_OP_PRELU, {f32({1, 1, 4, 4, 2})}, {f32({1, 1, 4, 4, 2})});
    bad.o().weight = bad.b.add_float_weight("slope", {0.1f, 0.2f});
    bad.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(1));
    EXPECT_VALID_THEN(prelu(true).bytes(), bad.bytes(), OP);
}

namespace {
std::vector<uint8_t> cmp_requant(int32_t left = 8, int32_t s1 = -1, int32_t m2 = 1 << 30) {
    return le_i32({left, 1 << 30, s1, m2, -1});
}

OneOp s8_less(float scale = 0.5f) {
    auto pre = [=](PlanBuilder &b) { b.add_quant(scale, 0); };
    return OneOp(TIGRIS_OP_LESS, {s8({1, 4}, 0), s8({1, 4}, 0)}, {b8({1, 4})}, 11, pre);
}
}  // namespace

TEST(OpSemanticsCompare, FloatComparisonLoads) {
    OneOp g(TIGRIS_OP_GREATER, {f32({2, 3}), f32({3})}, {b8({2, 3})});
    EXPECT_LOAD(g.bytes(), TIGRIS_OK);
}

TEST(OpSemanticsCompare, OutputIsBool) {
    OneOp g(TIGRIS_OP_EQUAL, {f32({2, 3}), f32({2, 3})}, {b8({2, 3})});
    OneOp bad(TIGRIS_OP_EQUAL, {f32({2, 3}), f32({2, 3})}, {f32({2, 3})});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsCompare, FloatMustNotCarryRequant) {
    OneOp g(TIGRIS_OP_LESS, {f32({2, 3}), f32({2, 3})}, {b8({2, 3})}), bad = g;
    bad.attr(TIGRIS_ATTR_COMPARISON_REQUANT, cmp_requant());
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsCompare, Int8NeedsRequant) {
    OneOp g = s8_less(), bad = s8_less();
    g.attr(TIGRIS_ATTR_COMPARISON_REQUANT, cmp_requant());
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsCompare, LeftShiftIsEight) {
    OneOp g = s8_less(), bad = s8_less();
    g.attr(TIGRIS_ATTR_COMPARISON_REQUANT, cmp_requant());
    bad.attr(TIGRIS_ATTR_COMPARISON_REQUANT, cmp_requant(7));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsCompare, ShiftsNotPositive) {
    OneOp g = s8_less(), bad = s8_less();
    g.attr(TIGRIS_ATTR_COMPARISON_REQUANT, cmp_requant(8, -31));
    bad.attr(TIGRIS_ATTR_COMPARISON_REQUANT, cmp_requant(8, 1));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsCompare, MultipliersNonNegative) {
    OneOp g = s8_less(), bad = s8_less();
    g.attr(TIGRIS_ATTR_COMPARISON_REQUANT, cmp_requant(8, -1, 0));
    bad.attr(TIGRIS_ATTR_COMPARISON_REQUANT, cmp_requant(8, -1, -5));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsCompare, Int8ScaleBelowOne) {
    OneOp g = s8_less(0.99f), bad = s8_less(1.0f);
    g.attr(TIGRIS_ATTR_COMPARISON_REQUANT, cmp_requant());
    bad.attr(TIGRIS_ATTR_COMPARISON_REQUANT, cmp_requant());
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsCompare, OutputRankAtMostEight) {
    std::vector<int32_t> r8(8, 1), r9(9, 1);
    OneOp g(TIGRIS_OP_EQUAL, {f32(r8), f32(r8)}, {b8(r8)});
    OneOp bad(TIGRIS_OP_EQUAL, {f32(r9), f32(r9)}, {b8(r9)});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsLogic, AndTakesBools) {
    OneOp g(TIGRIS_OP_LOGICAL_AND, {b8({4}), b8({2, 4})}, {b8({2, 4})});
    OneOp bad(TIGRIS_OP_LOGICAL_OR, {b8({4}), f32({2, 4})}, {b8({2, 4})});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsLogic, NotKeepsShape) {
    OneOp g(TIGRIS_OP_LOGICAL_NOT, {b8({2, 4})}, {b8({2, 4})});
    OneOp bad(TIGRIS_OP_LOGICAL_NOT, {b8({2, 4})}, {b8({4, 2})});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsSelect, ConditionIsBool) {
    OneOp g(TIGRIS_OP_SELECT_V2, {b8({2, 4}), f32({2, 4}), f32({4})}, {f32({2, 4})});
    OneOp bad(TIGRIS_OP_SELECT_V2, {f32({2, 4}), f32({2, 4}), f32({4})}, {f32({2, 4})});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsSelect, ConstantAtPositionTwo) {
    OneOp g(TIGRIS_OP_SELECT_V2, {b8({2, 4}), f32({2, 4})}, {f32({2, 4})});
    g.o().weight = g.b.add_float_weight("k", {0.0f});
    OneOp bad = g;
    g.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(2));
    bad.attr(TIGRIS_ATTR_CONSTANT_OPERAND, const_operand(3));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsSelect, Int8ValuesShareOutputEncoding) {
    auto make = [](float s) {
        auto pre = [=](PlanBuilder &b) {
            b.add_quant(0.5f, 1);
            b.add_quant(s, 1);
        };
        return OneOp(TIGRIS_OP_SELECT_V2, {b8({4}), s8({4}, 0), s8({4}, 1)}, {s8({4}, 0)}, 11, pre);
    };
    EXPECT_VALID_THEN(make(0.5f).bytes(), make(0.25f).bytes(), OP);
}

TEST(OpSemanticsCast, BoolToDataDtypeSameShape) {
    OneOp g(TIGRIS_OP_CAST, {b8({2, 3})}, {f32({2, 3})});
    OneOp bad(TIGRIS_OP_CAST, {b8({2, 3})}, {f32({3, 2})});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsCast, FloatPlanCastsOnlyFromBool) {
    OneOp g(TIGRIS_OP_CAST, {b8({2, 3})}, {f32({2, 3})});
    OneOp bad(TIGRIS_OP_CAST, {f32({2, 3})}, {f32({2, 3})});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsCast, Int8OutputNeedsQuant) {
    auto pre = [](PlanBuilder &b) { b.add_quant(0.5f, 0); };
    OneOp g(TIGRIS_OP_CAST, {b8({4})}, {s8({4}, 0)}, 11, pre);
    OneOp bad(TIGRIS_OP_CAST, {b8({4})}, {s8({4}, -1)}, 11, pre);
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

namespace {
// int8 plan: x int8 -> Cast (dequantize) -> f -> Relu -> y float32.
PlanBuilder dequant_section(bool via_cast) {
    PlanBuilder b(11);
    uint16_t q = b.add_quant(0.5f, 0);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_INT8, {4}, TIGRIS_TENSOR_MODEL_INPUT, q);
    uint16_t f = b.add_tensor("f", TIGRIS_DTYPE_FLOAT32, {4}, via_cast ? 0 : TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {4}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t x2 = b.add_tensor("x2", TIGRIS_DTYPE_INT8, {4}, TIGRIS_TENSOR_MODEL_OUTPUT, q);
    if (via_cast) {
        uint16_t c = b.add_op(TIGRIS_OP_CAST, {x}, {f}, "dequantize");
        b.add_stage({c}, {x}, {f});
    } else {
        uint16_t r0 = b.add_op(TIGRIS_OP_RELU, {x}, {x2}, "relu_int8");
        b.add_stage({r0}, {x}, {x2});
    }
    uint16_t r = b.add_op(TIGRIS_OP_RELU, {f}, {y}, "relu_float");
    b.add_stage({r}, {f}, {y});
    return b;
}
}  // namespace

TEST(OpSemanticsFloatSection, AfterDequantizingCastLoads) { EXPECT_LOAD(dequant_section(true).build(), TIGRIS_OK); }

TEST(OpSemanticsFloatSection, FloatModelInputInInt8PlanRefused) {
    EXPECT_VALID_THEN(dequant_section(true).build(), dequant_section(false).build(), OP);
}

TEST(OpSemanticsFloatSection, MixedDtypesInOneOpRefused) {
    auto pre = [](PlanBuilder &b) { b.add_quant(0.5f, 0); };
    OneOp g(TIGRIS_OP_ADD, {s8({4}, 0), s8({4}, 0)}, {s8({4}, 0)}, 11, pre);
    OneOp bad(TIGRIS_OP_ADD, {s8({4}, 0), f32({4})}, {s8({4}, 0)}, 11, pre);
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsAddN, SameShapeInputs) {
    OneOp g(TIGRIS_OP_ADD_N, {f32({2, 3}), f32({2, 3}), f32({2, 3})}, {f32({2, 3})});
    OneOp bad(TIGRIS_OP_ADD_N, {f32({2, 3}), f32({1, 3}), f32({2, 3})}, {f32({2, 3})});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsAddN, Int8InputsShareEncoding) {
    auto make = [](int second) {
        auto pre = [](PlanBuilder &b) {
            b.add_quant(0.5f, 0);
            b.add_quant(0.5f, 3);
        };
        return OneOp(TIGRIS_OP_ADD_N, {s8({4}, 0), s8({4}, second)}, {s8({4}, 0)}, 11, pre);
    };
    EXPECT_VALID_THEN(make(0).bytes(), make(1).bytes(), OP);
}

TEST(OpSemanticsAddN, Int8RescaleBelowOne) {
    // 2*s_x / (2^20 * s_y) < 1  <=>  s_x < 2^19 * s_y.
    auto make = [](float sx) {
        auto pre = [=](PlanBuilder &b) {
            b.add_quant(sx, 0);
            b.add_quant(1.0f / 1024, 0);
        };
        return OneOp(TIGRIS_OP_ADD_N, {s8({4}, 0), s8({4}, 0)}, {s8({4}, 1)}, 11, pre);
    };
    // 2^19 / 1024 = 512: 511 is below, 512 is not.
    EXPECT_VALID_THEN(make(511.0f).bytes(), make(512.0f).bytes(), OP);
}

TEST(OpSemanticsAddN, Int8AccumulatorMustFit) {
    // (|zp| + n*255) * 2^19 <= 2^31 - 1  <=>  |zp| + 255 n <= 4095 (rounded down).
    // n = 16: 4080 + zp; zp 15 fits, zp 16 does not.
    auto make = [](int32_t zp) {
        auto pre = [=](PlanBuilder &b) { b.add_quant(0.5f, zp); };
        std::vector<T> ins(16, s8({2}, 0));
        return OneOp(TIGRIS_OP_ADD_N, ins, {s8({2}, 0)}, 11, pre);
    };
    EXPECT_VALID_THEN(make(15).bytes(), make(16).bytes(), OP);
}
