// Operator semantics: unary ops, shape/layout ops, reductions, movement,
// refused opcodes and the int32 producer rule (docs/format.md P5.1, P5.6,
// P10.1, P10.4, P14.4-P14.7).
#include "test_op_semantics_common.h"

#include <cstring>

using namespace opsem;
using tigris_test::le_f32;
using tigris_test::le_i32;
using tigris_test::PlanBuilder;

namespace {
constexpr tigris_error_t OP = TIGRIS_ERR_BAD_OPERATOR;

OneOp unary(uint8_t type, std::vector<int32_t> xs, std::vector<int32_t> ys) {
    return OneOp(type, {f32(xs)}, {f32(ys)});
}

OneOp s8_unary(uint8_t type, float out_scale = 0.5f, int32_t out_zp = 0) {
    auto pre = [=](PlanBuilder &b) {
        b.add_quant(0.5f, 0);
        b.add_quant(out_scale, out_zp);
    };
    return OneOp(type, {s8({2, 4}, 0)}, {s8({2, 4}, 1)}, 11, pre);
}
}  // namespace

TEST(OpSemanticsOpcode, RefusedOpcodes) {
    ASSERT_LOAD(unary(TIGRIS_OP_RELU, {4}, {4}).bytes(), TIGRIS_OK);
    for (uint8_t t : {0, 11, 22, 23, 27, 28, 90, 200, 255}) {
        SCOPED_TRACE(t);
        EXPECT_LOAD(unary(t, {4}, {4}).bytes(), OP);
    }
}

TEST(OpSemanticsUnary, ShapePreserved) {
    EXPECT_VALID_THEN(unary(TIGRIS_OP_SIGMOID, {2, 4}, {2, 4}).bytes(), unary(TIGRIS_OP_TANH, {2, 4}, {4, 2}).bytes(),
                      OP);
}

TEST(OpSemanticsUnary, NoConstants) {
    OneOp g = unary(TIGRIS_OP_SOFTMAX, {2, 4}, {2, 4}), bad = g;
    bad.o().bias = bad.b.add_float_weight("k", {1.0f});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsUnary, FloatOnlyMath) {
    EXPECT_VALID_THEN(s8_unary(TIGRIS_OP_ABS).bytes(), s8_unary(TIGRIS_OP_EXP).bytes(), OP);
}

TEST(OpSemanticsUnary, Int8NeedsBothEncodings) {
    OneOp bad(TIGRIS_OP_RSQRT, {s8({2, 4}, -1)}, {s8({2, 4}, -1)});
    EXPECT_VALID_THEN(s8_unary(TIGRIS_OP_RSQRT).bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsUnary, Int8LogSoftmaxOutputEncoding) {
    EXPECT_VALID_THEN(s8_unary(TIGRIS_OP_LOG_SOFTMAX, 1.0f / 16, 127).bytes(),
                      s8_unary(TIGRIS_OP_LOG_SOFTMAX, 1.0f / 16, 0).bytes(), OP);
}

TEST(OpSemanticsUnary, Int8L2NormOutputEncoding) {
    OneOp g = s8_unary(TIGRIS_OP_L2_NORMALIZATION, 1.0f / 128, 0);
    OneOp bad = s8_unary(TIGRIS_OP_L2_NORMALIZATION, 1.0f / 64, 0);
    g.attr(TIGRIS_ATTR_EPSILON, le_f32({0.0f}));
    bad.attr(TIGRIS_ATTR_EPSILON, le_f32({0.0f}));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsUnary, L2NormEpsilonNotNegative) {
    OneOp g = unary(TIGRIS_OP_L2_NORMALIZATION, {2, 4}, {2, 4}), bad = g;
    g.attr(TIGRIS_ATTR_EPSILON, le_f32({0.0f}));
    bad.attr(TIGRIS_ATTR_EPSILON, le_f32({-1e-6f}));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsUnary, LeakyAlphaFinite) {
    OneOp g = unary(TIGRIS_OP_LEAKY_RELU, {2, 4}, {2, 4}), bad = g;
    g.attr(TIGRIS_ATTR_ALPHA, le_f32({0.01f}));
    bad.attr(TIGRIS_ATTR_ALPHA, le_i32({0x7FC00000}));  // NaN
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsUnary, HardSwishSameRankAndBytes) {
    EXPECT_VALID_THEN(unary(TIGRIS_OP_HARDSWISH, {2, 4}, {4, 2}).bytes(),
                      unary(TIGRIS_OP_ERF, {2, 4}, {8}).bytes(), OP);
}

namespace {
OneOp layer_norm(size_t scale_n = 4, float eps = 1e-5f) {
    OneOp c = unary(TIGRIS_OP_LAYER_NORM, {2, 4}, {2, 4});
    c.o().weight = c.b.add_float_weight("scale", std::vector<float>(scale_n, 1.0f));
    c.o().bias = c.b.add_float_weight("bias", std::vector<float>(4, 0.0f));
    c.attr(TIGRIS_ATTR_EPSILON, le_f32({eps}));
    return c;
}
}  // namespace

TEST(OpSemanticsLayerNorm, ScaleOnePerLastAxis) {
    EXPECT_VALID_THEN(layer_norm().bytes(), layer_norm(8).bytes(), OP);
}

TEST(OpSemanticsLayerNorm, ScaleRequired) {
    OneOp bad = layer_norm();
    bad.o().weight = -1;
    EXPECT_VALID_THEN(layer_norm().bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsLayerNorm, SameLastAxis) {
    OneOp bad = unary(TIGRIS_OP_LAYER_NORM, {2, 4}, {4, 2});
    bad.o().weight = bad.b.add_float_weight("scale", std::vector<float>(4, 1.0f));
    bad.attr(TIGRIS_ATTR_EPSILON, le_f32({1e-5f}));
    EXPECT_VALID_THEN(layer_norm().bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsLayerNorm, Int8NeedsBothEncodings) {
    auto plan = [](bool out_quant) {
        OneOp c(TIGRIS_OP_LAYER_NORM, {opsem::s8({2, 4}, 0)}, {opsem::s8({2, 4}, out_quant ? 1 : -1)}, 11,
                [](PlanBuilder &b) {
                    b.add_quant(0.1f, 0);
                    b.add_quant(0.05f, 0);
                });
        c.o().weight = c.b.add_float_weight("scale", std::vector<float>(4, 1.0f));
        c.attr(TIGRIS_ATTR_EPSILON, le_f32({1e-5f}));
        return c.bytes();
    };
    EXPECT_VALID_THEN(plan(true), plan(false), OP);
}

TEST(OpSemanticsLayerNorm, EpsilonPositive) {
    EXPECT_VALID_THEN(layer_norm().bytes(), layer_norm(4, 0.0f).bytes(), OP);
}

TEST(OpSemanticsReshape, SameByteSize) {
    EXPECT_VALID_THEN(unary(TIGRIS_OP_RESHAPE, {2, 4}, {8}).bytes(), unary(TIGRIS_OP_FLATTEN, {2, 4}, {6}).bytes(),
                      OP);
}

TEST(OpSemanticsReshape, BoolReshapeLoads) {
    OneOp g(TIGRIS_OP_RESHAPE, {b8({2, 4})}, {b8({8})});
    OneOp bad(TIGRIS_OP_RESHAPE, {b8({2, 4})}, {f32({2})});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsTranspose, PermutationAndShape) {
    OneOp g = unary(TIGRIS_OP_TRANSPOSE, {2, 3, 4}, {4, 2, 3});
    OneOp not_perm = g, wrong_shape = unary(TIGRIS_OP_TRANSPOSE, {2, 3, 4}, {4, 3, 2});
    g.attr(TIGRIS_ATTR_TRANSPOSE_PERM, {2, 0, 1});
    not_perm.attr(TIGRIS_ATTR_TRANSPOSE_PERM, {2, 0, 0});
    wrong_shape.attr(TIGRIS_ATTR_TRANSPOSE_PERM, {2, 0, 1});
    ASSERT_LOAD(g.bytes(), TIGRIS_OK);
    EXPECT_LOAD(not_perm.bytes(), OP);
    EXPECT_LOAD(wrong_shape.bytes(), OP);
}

namespace {
OneOp pad(std::vector<int32_t> pads, std::vector<int32_t> ys = {4, 7}) {
    OneOp c = unary(TIGRIS_OP_PAD, {2, 4}, ys);
    c.attr(TIGRIS_ATTR_PADS, le_i32(pads));
    return c;
}
}  // namespace

TEST(OpSemanticsPad, ExtentsAddUp) {
    // 2+1+1 = 4 rows, 4+0+3 = 7 columns.
    EXPECT_VALID_THEN(pad({1, 1, 0, 3}).bytes(), pad({1, 1, 0, 2}).bytes(), OP);
}

TEST(OpSemanticsPad, PadsNotNegative) {
    EXPECT_VALID_THEN(pad({1, 1, 0, 3}).bytes(), pad({3, -1, 0, 3}).bytes(), OP);
}

TEST(OpSemanticsPad, PadsRequired) {
    OneOp bad = unary(TIGRIS_OP_PAD, {2, 4}, {4, 7});
    EXPECT_VALID_THEN(pad({1, 1, 0, 3}).bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsPad, PadsLengthIsEightPerAxis) {
    EXPECT_VALID_THEN(pad({1, 1, 0, 3}).bytes(), pad({1, 1, 0, 3, 0, 0}).bytes(), OP);
}

TEST(OpSemanticsPad, FillIsOneElement) {
    OneOp g = pad({1, 1, 0, 3}), bad = g;
    g.o().weight = g.b.add_float_weight("fill", {0.5f});
    bad.o().weight = bad.b.add_float_weight("fill", {0.5f, 0.5f});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

namespace {
OneOp concat(std::vector<std::vector<int32_t>> xs, std::vector<int32_t> ys, uint8_t axis) {
    std::vector<T> ins;
    for (auto &s : xs) ins.push_back(f32(s));
    OneOp c(TIGRIS_OP_CONCAT, ins, {f32(ys)});
    c.o().spatial.kernel_h = axis;
    return c;
}
}  // namespace

TEST(OpSemanticsConcat, ExtentsAddUp) {
    EXPECT_VALID_THEN(concat({{1, 2, 3}, {1, 2, 5}}, {1, 2, 8}, 2).bytes(),
                      concat({{1, 2, 3}, {1, 2, 5}}, {1, 2, 9}, 2).bytes(), OP);
}

TEST(OpSemanticsConcat, OtherAxesAgree) {
    EXPECT_VALID_THEN(concat({{1, 2, 3}, {1, 2, 5}}, {1, 2, 8}, 2).bytes(),
                      concat({{1, 2, 3}, {1, 3, 5}}, {1, 2, 8}, 2).bytes(), OP);
}

TEST(OpSemanticsConcat, AxisZeroMeansLastForRank4Only) {
    // Rank 4: 0 is the channel axis (its old meaning), so joining batches is refused.
    EXPECT_VALID_THEN(concat({{1, 2, 2, 3}, {1, 2, 2, 1}}, {1, 2, 2, 4}, 0).bytes(),
                      concat({{1, 2, 2, 3}, {1, 2, 2, 3}}, {2, 2, 2, 3}, 0).bytes(), OP);
    // Other ranks: 0 is the outermost axis.
    EXPECT_LOAD(concat({{1, 2, 3}, {1, 2, 3}}, {2, 2, 3}, 0).bytes(), TIGRIS_OK);
    EXPECT_LOAD(concat({{3}, {2}}, {5}, 0).bytes(), TIGRIS_OK);
    EXPECT_LOAD(concat({{2, 3}, {2, 1}}, {2, 4}, 1).bytes(), TIGRIS_OK);
    EXPECT_LOAD(concat({{1, 1, 2, 2, 3}, {1, 1, 2, 2, 3}}, {1, 2, 2, 2, 3}, 1).bytes(), TIGRIS_OK);
    EXPECT_LOAD(concat({{1, 2, 3}, {1, 2, 3}}, {2, 2, 3}, 3).bytes(), OP);  // axis beyond the rank
}

TEST(OpSemanticsConcat, ConstantLeadingPartFillsTheRest) {
    // Output [1,2,8] from [1,2,5] leaves 2*3 floats to the constant.
    OneOp g = concat({{1, 2, 5}}, {1, 2, 8}, 2), bad = g;
    g.o().weight = g.b.add_float_weight("lead", std::vector<float>(6, 1.0f));
    bad.o().weight = bad.b.add_float_weight("lead", std::vector<float>(5, 1.0f));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsSplit, ExtentsAddUp) {
    auto make = [](int32_t b) {
        OneOp c(TIGRIS_OP_SPLIT, {f32({2, 6})}, {f32({2, 2}), f32({2, b})});
        c.o().spatial.kernel_h = 1;
        return c;
    };
    EXPECT_VALID_THEN(make(4).bytes(), make(3).bytes(), OP);
}

TEST(OpSemanticsSplit, AtLeastTwoOutputs) {
    OneOp g(TIGRIS_OP_SPLIT, {f32({2, 6})}, {f32({1, 6}), f32({1, 6})});
    OneOp bad(TIGRIS_OP_SPLIT, {f32({2, 6})}, {f32({2, 6})});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

namespace {
OneOp resize(uint8_t type, std::vector<int32_t> ys, uint8_t mode = 0, uint8_t sh = 2, uint8_t sw = 2) {
    OneOp c(type, {f32({1, 3, 4, 2})}, {f32(ys)});
    c.o().spatial.kernel_h = mode;
    c.o().spatial.stride_h = sh;
    c.o().spatial.stride_w = sw;
    return c;
}
}  // namespace

TEST(OpSemanticsResize, StatedScaleFactorsMatch) {
    EXPECT_VALID_THEN(resize(TIGRIS_OP_RESIZE, {1, 6, 8, 2}).bytes(), resize(TIGRIS_OP_RESIZE, {1, 6, 7, 2}).bytes(),
                      OP);
}

TEST(OpSemanticsResize, UnstatedFactorsUnchecked) {
    EXPECT_LOAD(resize(TIGRIS_OP_RESIZE, {1, 5, 7, 2}, 0, 0, 0).bytes(), TIGRIS_OK);
}

TEST(OpSemanticsResize, ChannelsUnchanged) {
    EXPECT_VALID_THEN(resize(TIGRIS_OP_RESIZE, {1, 6, 8, 2}).bytes(), resize(TIGRIS_OP_RESIZE, {1, 6, 8, 3}).bytes(),
                      OP);
}

TEST(OpSemanticsResize, ModeLimits) {
    ASSERT_LOAD(resize(TIGRIS_OP_RESIZE, {1, 6, 8, 2}, 3).bytes(), TIGRIS_OK);
    EXPECT_LOAD(resize(TIGRIS_OP_RESIZE, {1, 6, 8, 2}, 4).bytes(), OP);
    EXPECT_VALID_THEN(resize(TIGRIS_OP_RESIZE_LINEAR, {1, 6, 8, 2}, 2).bytes(),
                      resize(TIGRIS_OP_RESIZE_LINEAR, {1, 6, 8, 2}, 3).bytes(), OP);
}

TEST(OpSemanticsResize, ExplicitScalesFloorToOutput) {
    // floor(3 * 1.5) = 4, floor(4 * 1.75) = 7.
    OneOp g = resize(TIGRIS_OP_RESIZE, {1, 4, 7, 2}, 0, 0, 0), bad = g, neg = g;
    g.attr(TIGRIS_ATTR_RESIZE_SCALES, le_f32({1.5f, 1.75f}));
    bad.attr(TIGRIS_ATTR_RESIZE_SCALES, le_f32({1.5f, 1.5f}));
    neg.attr(TIGRIS_ATTR_RESIZE_SCALES, le_f32({-1.5f, 1.75f}));
    ASSERT_LOAD(g.bytes(), TIGRIS_OK);
    EXPECT_LOAD(bad.bytes(), OP);
    EXPECT_LOAD(neg.bytes(), OP);
}

namespace {
OneOp reduce(uint8_t type, std::vector<uint8_t> axes, std::vector<int32_t> ys, std::vector<int32_t> xs = {2, 3, 4}) {
    OneOp c = unary(type, xs, ys);
    c.attr(TIGRIS_ATTR_AXES, std::move(axes));
    return c;
}
}  // namespace

TEST(OpSemanticsReduce, KeepdimsOrDropped) {
    ASSERT_LOAD(reduce(TIGRIS_OP_REDUCE_MEAN, {1}, {2, 1, 4}).bytes(), TIGRIS_OK);
    ASSERT_LOAD(reduce(TIGRIS_OP_REDUCE_SUM, {1}, {2, 4}).bytes(), TIGRIS_OK);
    EXPECT_LOAD(reduce(TIGRIS_OP_REDUCE_MAX, {1}, {2, 3}).bytes(), OP);
}

TEST(OpSemanticsReduce, ExactlyOneAxis) {
    EXPECT_VALID_THEN(reduce(TIGRIS_OP_REDUCE_MIN, {2}, {2, 3, 1}).bytes(),
                      reduce(TIGRIS_OP_REDUCE_MIN, {1, 2}, {2, 1, 1}).bytes(), OP);
}

TEST(OpSemanticsReduce, AxisInsideRank) {
    EXPECT_VALID_THEN(reduce(TIGRIS_OP_REDUCE_MEAN, {2}, {2, 3, 1}).bytes(),
                      reduce(TIGRIS_OP_REDUCE_MEAN, {3}, {2, 3, 1}).bytes(), OP);
}

TEST(OpSemanticsReduce, InputRankThree) {
    EXPECT_VALID_THEN(reduce(TIGRIS_OP_REDUCE_MEAN, {1}, {2, 4}).bytes(),
                      reduce(TIGRIS_OP_REDUCE_MEAN, {1}, {2, 4, 5}, {2, 3, 4, 5}).bytes(), OP);
}

TEST(OpSemanticsReduce, ReduceAllIsBool) {
    OneOp g(TIGRIS_OP_REDUCE_ALL, {b8({2, 3, 4})}, {b8({2, 3})});
    OneOp bad(TIGRIS_OP_REDUCE_ALL, {f32({2, 3, 4})}, {b8({2, 3})});
    g.attr(TIGRIS_ATTR_AXES, {2});
    bad.attr(TIGRIS_ATTR_AXES, {2});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsArgMax, Int32OutputWithKeepdimsRule) {
    auto make = [](T y) {
        OneOp c(TIGRIS_OP_ARG_MAX, {f32({2, 5})}, {y});
        c.attr(TIGRIS_ATTR_AXES, {1});
        return c;
    };
    ASSERT_LOAD(make(i32({2})).bytes(), TIGRIS_OK);
    EXPECT_LOAD(make(f32({2})).bytes(), OP);
    EXPECT_LOAD(make(i32({5})).bytes(), OP);
}

TEST(OpSemanticsCumSum, OptionsAreBits) {
    auto make = [](uint8_t rev) {
        OneOp c = reduce(TIGRIS_OP_CUMSUM, {1}, {2, 3, 4});
        c.attr(TIGRIS_ATTR_CUMSUM_OPTIONS, {0, rev});
        return c;
    };
    EXPECT_VALID_THEN(make(1).bytes(), make(2).bytes(), OP);
}

TEST(OpSemanticsCumSum, ShapePreserved) {
    OneOp g = reduce(TIGRIS_OP_CUMSUM, {1}, {2, 3, 4}), bad = reduce(TIGRIS_OP_CUMSUM, {1}, {2, 1, 4});
    g.attr(TIGRIS_ATTR_CUMSUM_OPTIONS, {0, 0});
    bad.attr(TIGRIS_ATTR_CUMSUM_OPTIONS, {0, 0});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

namespace {
// x[4,3] gathered along axis 0 by 2 int32 indices (constant) -> y[2,3].
OneOp gather(std::vector<int32_t> mv, std::vector<int32_t> ys = {2, 3}) {
    OneOp c(TIGRIS_OP_GATHER, {f32({4, 3})}, {f32(ys)});
    c.o().weight = c.b.add_i32_weight("idx", {3, 0});
    c.attr(TIGRIS_ATTR_MOVEMENT, le_i32(mv));
    return c;
}
}  // namespace

TEST(OpSemanticsGather, OutputShape) {
    EXPECT_VALID_THEN(gather({0, 0, 1, 2}).bytes(), gather({0, 0, 1, 2}, {3, 2}).bytes(), OP);
}

TEST(OpSemanticsGather, IndexShapeSizesConstant) {
    EXPECT_VALID_THEN(gather({0, 0, 1, 2}).bytes(), gather({0, 0, 1, 3}, {3, 3}).bytes(), OP);
}

TEST(OpSemanticsGather, BatchDimsAtMostAxis) {
    // axis 1 over [4,3] with index [2]: output [4,2].
    EXPECT_VALID_THEN(gather({1, 0, 1, 2}, {4, 2}).bytes(), gather({0, 1, 1, 2}).bytes(), OP);
}

TEST(OpSemanticsGather, BatchExtentsMatchTheInput) {
    // x[2,3], axis 1, batch_dims 1: index [2,1] gives y[2,1]; index [3,1] has
    // a batch extent (3) the input does not have (2).
    auto plan = [](std::vector<int32_t> idx_shape, std::vector<int32_t> idx) {
        OneOp c(TIGRIS_OP_GATHER, {f32({2, 3})}, {f32({2, 1})});
        c.o().weight = c.b.add_i32_weight("idx", idx);
        std::vector<int32_t> mv = {1, 1, 2};
        mv.insert(mv.end(), idx_shape.begin(), idx_shape.end());
        c.attr(TIGRIS_ATTR_MOVEMENT, le_i32(mv));
        return c.bytes();
    };
    EXPECT_VALID_THEN(plan({2, 1}, {0, 2}), plan({3, 1}, {0, 2, 1}), OP);
}

TEST(OpSemanticsGather, MovementRequired) {
    OneOp bad(TIGRIS_OP_GATHER, {f32({4, 3})}, {f32({2, 3})});
    bad.o().weight = bad.b.add_i32_weight("idx", {3, 0});
    EXPECT_VALID_THEN(gather({0, 0, 1, 2}).bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsInt32, ArgMaxFeedsGatherIndices) {
    PlanBuilder b(11);
    uint16_t s = b.add_tensor("s", TIGRIS_DTYPE_FLOAT32, {2, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {4, 3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t i = b.add_tensor("i", TIGRIS_DTYPE_INT32, {2});
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {2, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t a = b.add_op(TIGRIS_OP_ARG_MAX, {s}, {i}, "argmax");
    uint16_t g = b.add_op(TIGRIS_OP_GATHER, {x, i}, {y}, "gather");
    b.add_attribute(a, TIGRIS_ATTR_AXES, {1});
    b.add_attribute(g, TIGRIS_ATTR_MOVEMENT, le_i32({0, 0, 1, 2}));
    b.add_stage({a}, {s}, {i});
    b.add_stage({g}, {x, i}, {y});
    EXPECT_LOAD(b.build(), TIGRIS_OK);
}

TEST(OpSemanticsInt32, ModelInputIndicesLoad) {
    OneOp g(TIGRIS_OP_GATHER, {f32({4, 3}), i32({2})}, {f32({2, 3})});
    g.attr(TIGRIS_ATTR_MOVEMENT, le_i32({0, 0, 1, 2}));
    OneOp bad = g;
    bad.b.tensors[bad.in[1]].shape = {3};
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsInt32, ConstantInt32TensorIsBadTensor) {
    OneOp g(TIGRIS_OP_GATHER, {f32({4, 3}), i32({2})}, {f32({2, 3})});
    g.attr(TIGRIS_ATTR_MOVEMENT, le_i32({0, 0, 1, 2}));
    OneOp bad = g;
    bad.b.tensors[bad.in[1]].flags |= TIGRIS_TENSOR_CONSTANT;
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(OpSemanticsStridedSlice, CountsPerAxis) {
    // [6,4]: rows 1..5 step 2 -> 3 (1,3,5); cols 3 down to 0 step -1 -> 4.
    auto make = [](std::vector<int32_t> ys, std::vector<int32_t> mv) {
        OneOp c = unary(TIGRIS_OP_STRIDED_SLICE, {6, 4}, ys);
        c.attr(TIGRIS_ATTR_MOVEMENT, le_i32(mv));
        return c;
    };
    ASSERT_LOAD(make({3, 4}, {1, 6, 2, 3, -1, -1}).bytes(), TIGRIS_OK);
    EXPECT_LOAD(make({2, 4}, {1, 6, 2, 3, -1, -1}).bytes(), OP);
    EXPECT_LOAD(make({3, 4}, {1, 6, 2, 3, -1, 0}).bytes(), OP);   // step 0
    EXPECT_LOAD(make({3, 4}, {6, 6, 2, 3, -1, -1}).bytes(), OP);  // start outside
    // Shrink axis 0 (one row at 2): output [4].
    ASSERT_LOAD(make({4}, {2, 3, 1, 0, 4, 1, 1}).bytes(), TIGRIS_OK);
    EXPECT_LOAD(make({4}, {2, 4, 1, 0, 4, 1, 1}).bytes(), OP);  // shrunk axis selects 2
}

TEST(OpSemanticsMirrorPad, PadsWithinReflection) {
    // Reflect (0) on [3]: at most 2 per side; symmetric (1): at most 3.
    auto make = [](int32_t mode, int32_t p) {
        OneOp c = unary(TIGRIS_OP_MIRROR_PAD, {3}, {3 + 2 * p});
        c.attr(TIGRIS_ATTR_MOVEMENT, le_i32({mode, p, p}));
        return c;
    };
    ASSERT_LOAD(make(0, 2).bytes(), TIGRIS_OK);
    ASSERT_LOAD(make(1, 3).bytes(), TIGRIS_OK);
    EXPECT_LOAD(make(0, 3).bytes(), OP);
    EXPECT_LOAD(make(2, 1).bytes(), OP);
}

TEST(OpSemanticsReverse, ContiguousMask) {
    auto make = [](int32_t mask) {
        OneOp c = unary(TIGRIS_OP_REVERSE_V2, {2, 3, 4}, {2, 3, 4});
        c.attr(TIGRIS_ATTR_MOVEMENT, le_i32({mask}));
        return c;
    };
    ASSERT_LOAD(make(6).bytes(), TIGRIS_OK);
    EXPECT_LOAD(make(5).bytes(), OP);
    EXPECT_LOAD(make(0).bytes(), OP);
    EXPECT_LOAD(make(8).bytes(), OP);
}

TEST(OpSemanticsDynamicUpdateSlice, UpdateFitsInput) {
    auto make = [](std::vector<int32_t> us) {
        OneOp c(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {f32({4, 4}), f32(us)}, {f32({4, 4})});
        std::vector<int32_t> mv = {1, 1};
        mv.insert(mv.end(), us.begin(), us.end());
        c.attr(TIGRIS_ATTR_MOVEMENT, le_i32(mv));
        return c;
    };
    EXPECT_VALID_THEN(make({2, 4}).bytes(), make({2, 5}).bytes(), OP);
}

TEST(OpSemanticsDynamicUpdateSlice, RuntimeStartsAreInt32Vector) {
    auto make = [](T starts) {
        OneOp c(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {f32({4, 4}), f32({2, 2}), starts}, {f32({4, 4})});
        c.attr(TIGRIS_ATTR_MOVEMENT, le_i32({2, 2}));
        return c;
    };
    ASSERT_LOAD(make(i32({2})).bytes(), TIGRIS_OK);
    EXPECT_LOAD(make(i32({3})).bytes(), OP);
    EXPECT_LOAD(make(f32({2})).bytes(), OP);
}
