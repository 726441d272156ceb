// Operator semantics: activation rules, conv family, pools, FC, MatMul
// (docs/format.md P5.5, P8.1, P9, P14.1, P14.2).
#include "test_op_semantics_common.h"

using namespace opsem;
using tigris_test::PlanBuilder;

namespace {
constexpr tigris_error_t OP = TIGRIS_ERR_BAD_OPERATOR;

// x[1,4,4,2] -> Conv 3x3 s1 p1 -> y[1,4,4,3]; weight 3*3*3*2 floats.
OneOp conv() {
    OneOp c(TIGRIS_OP_CONV, {f32({1, 4, 4, 2})}, {f32({1, 4, 4, 3})});
    c.o().spatial = PlanBuilder::conv_spatial(3, 1, 1);
    c.o().weight = c.b.add_float_weight("w", std::vector<float>(3 * 3 * 3 * 2, 0.5f));
    c.o().bias = c.b.add_float_weight("b", {1, 2, 3});
    return c;
}
}  // namespace

TEST(OpSemanticsAct, FusedReluOnConvLoadsButNotOnRelu) {
    OneOp g = conv();
    g.o().fused_act = TIGRIS_ACT_RELU6;
    OneOp r(TIGRIS_OP_RELU, {f32({1, 4})}, {f32({1, 4})});
    ASSERT_LOAD(r.bytes(), TIGRIS_OK);
    r.o().fused_act = TIGRIS_ACT_RELU;
    EXPECT_VALID_THEN(g.bytes(), r.bytes(), OP);
}

TEST(OpSemanticsAct, FusedActAboveRelu6) {
    OneOp g = conv(), bad = conv();
    bad.o().fused_act = 3;
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsAct, Int8ClampMinAboveMax) {
    PlanBuilder g = PlanBuilder::int8_conv(11), bad = g;
    bad.ops[0].act_min = 10;
    bad.ops[0].act_max = 9;
    EXPECT_VALID_THEN(g.build(), bad.build(), OP);
}

TEST(OpSemanticsAct, FloatPlanIgnoresClampBounds) {
    OneOp g = conv();
    g.o().act_min = 10;
    g.o().act_max = -10;
    EXPECT_LOAD(g.bytes(), TIGRIS_OK);
}

TEST(OpSemanticsAct, PadByteMustBeZero) {
    OneOp g = conv();
    auto good = g.bytes();
    auto bad = good;
    bad[g.b.layout().op(0) + 37] = 1;
    EXPECT_VALID_THEN(good, bad, OP);
}

TEST(OpSemanticsConv, WeightSizeIsKhKwIcOc) {
    OneOp g = conv(), bad = conv();
    bad.b.weights[bad.o().weight].bytes.resize(3 * 3 * 3 * 2 * 4 - 4);
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConv, WeightRequired) {
    OneOp g = conv(), bad = conv();
    bad.o().weight = -1;
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConv, BiasOnePerOutputChannel) {
    OneOp g = conv(), bad = conv();
    bad.b.weights[bad.o().bias] = {"b", std::vector<uint8_t>(8, 0)};
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConv, GroupMustBeOne) {
    OneOp g = conv(), bad = conv();
    bad.o().spatial.group = 2;
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConv, OutputHeightFollowsWindowRule) {
    // (4 + 1 + 1 - 3) / 1 + 1 = 4 rows; 5 is wrong.
    OneOp g = conv();
    OneOp bad(TIGRIS_OP_CONV, {f32({1, 4, 4, 2})}, {f32({1, 5, 4, 3})});
    bad.o() = g.o();
    bad.o().inputs = bad.in;
    bad.o().outputs = bad.out;
    bad.b.weights = g.b.weights;
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConv, StrideAndDilationInWindowRule) {
    // in 7, k3, s2, d2, no pad: span (3-1)*2+1 = 5, out = (7-5)/2+1 = 2.
    auto make = [](int32_t oh) {
        OneOp c(TIGRIS_OP_CONV, {f32({1, 7, 7, 1})}, {f32({1, oh, 2, 1})});
        c.o().spatial = PlanBuilder::spatial(3, 3, 2, 2, 0, 0, 0, 0, 2, 2, 1);
        c.o().weight = c.b.add_float_weight("w", std::vector<float>(9, 1.0f));
        return c;
    };
    OneOp g = make(2), bad = make(3);
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConv, KernelLargerThanPaddedInput) {
    // in 2 + pads 0 < kernel span 3.
    auto make = [](uint16_t pad) {
        OneOp c(TIGRIS_OP_CONV, {f32({1, 2, 2, 1})}, {f32({1, 2, 2, 1})});
        c.o().spatial = PlanBuilder::conv_spatial(3, 1, pad);
        c.o().weight = c.b.add_float_weight("w", std::vector<float>(9, 1.0f));
        return c;
    };
    OneOp g = make(1), bad = make(0);
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConv, BatchMustMatch) {
    OneOp g = conv();
    OneOp bad(TIGRIS_OP_CONV, {f32({1, 4, 4, 2})}, {f32({2, 4, 4, 3})});
    bad.o().spatial = g.o().spatial;
    bad.o().weight = bad.b.add_float_weight("w", std::vector<float>(3 * 3 * 3 * 2, 0.5f));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsConv, Int8OutputChannelsOneOrOc) {
    PlanBuilder g = PlanBuilder::int8_conv(11), bad = g;
    // Output record with 2 channels for OC = 3.
    int q = bad.tensors[bad.ops[0].outputs[0]].quant;
    bad.quant[q].multipliers.resize(2);
    bad.quant[q].shifts.resize(2);
    EXPECT_VALID_THEN(g.build(), bad.build(), OP);
}

TEST(OpSemanticsConv, Int8OutputPerTensorLoads) {
    PlanBuilder g = PlanBuilder::int8_conv(11);
    int q = g.tensors[g.ops[0].outputs[0]].quant;
    g.quant[q].multipliers.resize(1);
    g.quant[q].shifts.resize(1);
    EXPECT_LOAD(g.build(), TIGRIS_OK);
}

TEST(OpSemanticsConv, Int8WeightIsOneBytePerElement) {
    PlanBuilder g = PlanBuilder::int8_conv(11), bad = g;
    bad.weights[bad.ops[0].weight].bytes.resize(3 * 3 * 3 * 2 * 4);
    EXPECT_VALID_THEN(g.build(), bad.build(), OP);
}

namespace {
// x[1,4,4,2] -> depthwise 3x3 p1, multiplier 2 -> y[1,4,4,4]; weight [3,3,4].
OneOp depthwise(int32_t oc = 4, uint16_t group = 2) {
    OneOp c(TIGRIS_OP_DEPTHWISE, {f32({1, 4, 4, 2})}, {f32({1, 4, 4, oc})});
    c.o().spatial = PlanBuilder::conv_spatial(3, 1, 1, group);
    c.o().weight = c.b.add_float_weight("w", std::vector<float>(3 * 3 * (size_t)oc, 0.5f));
    return c;
}
}  // namespace

TEST(OpSemanticsDepthwise, GroupEqualsInputChannels) {
    EXPECT_VALID_THEN(depthwise().bytes(), depthwise(4, 1).bytes(), OP);
}

TEST(OpSemanticsDepthwise, OutputChannelsMultipleOfInput) {
    EXPECT_VALID_THEN(depthwise().bytes(), depthwise(3).bytes(), OP);
}

TEST(OpSemanticsDepthwise, WeightSizeIsKhKwOc) {
    OneOp g = depthwise(), bad = depthwise();
    bad.b.weights[bad.o().weight].bytes.resize(3 * 3 * 2 * 4);
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

namespace {
// x[1,8,2] -> Conv1D k3 -> y[1,6,3]; weight O,K,I = 3*3*2.
OneOp conv1d(int32_t ol = 6, size_t wn = 18) {
    OneOp c(TIGRIS_OP_CONV1D, {f32({1, 8, 2})}, {f32({1, ol, 3})});
    c.o().spatial = PlanBuilder::spatial(3, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1);
    c.o().weight = c.b.add_float_weight("w", std::vector<float>(wn, 0.5f));
    return c;
}
}  // namespace

TEST(OpSemanticsConv1D, OutputLength) { EXPECT_VALID_THEN(conv1d().bytes(), conv1d(7).bytes(), OP); }
TEST(OpSemanticsConv1D, WeightSize) { EXPECT_VALID_THEN(conv1d().bytes(), conv1d(6, 12).bytes(), OP); }

namespace {
// x[1,4,4,2] -> ConvTranspose k2 s2 -> y[1,8,8,3]; weight 3*2*2*2.
OneOp convt(uint16_t dil = 1) {
    OneOp c(TIGRIS_OP_CONV_TRANSPOSE, {f32({1, 4, 4, 2})}, {f32({1, 8, 8, 3})});
    c.o().spatial = PlanBuilder::spatial(2, 2, 2, 2, 0, 0, 0, 0, dil, dil, 1);
    c.o().weight = c.b.add_float_weight("w", std::vector<float>(24, 0.5f));
    return c;
}
}  // namespace

TEST(OpSemanticsConvTranspose, DilationAboveOneRefused) {
    EXPECT_VALID_THEN(convt().bytes(), convt(2).bytes(), OP);
}

TEST(OpSemanticsConvTranspose, DilationZeroReadAsOne) { EXPECT_LOAD(convt(0).bytes(), TIGRIS_OK); }

namespace {
// x[2,3,4] (24 elements) -> FC -> y[2,5]: 12 inputs per batch row, weight 5*12.
OneOp fc(std::vector<int32_t> xs = {2, 3, 4}, size_t wn = 60) {
    OneOp c(TIGRIS_OP_FULLY_CONN, {f32(xs)}, {f32({2, 5})});
    c.o().weight = c.b.add_float_weight("w", std::vector<float>(wn, 0.5f));
    c.o().bias = c.b.add_float_weight("b", std::vector<float>(5, 0.0f));
    return c;
}
}  // namespace

TEST(OpSemanticsFullyConn, WeightIsOcTimesInputsPerBatch) {
    EXPECT_VALID_THEN(fc().bytes(), fc({2, 3, 4}, 120).bytes(), OP);
}

TEST(OpSemanticsFullyConn, InputCountDivisibleByBatch) {
    // 15 elements cannot split into 2 rows.
    EXPECT_VALID_THEN(fc().bytes(), fc({3, 5}, 40).bytes(), OP);
}

TEST(OpSemanticsFullyConn, OutputRankAtMostTwo) {
    OneOp g = fc();
    OneOp bad(TIGRIS_OP_FULLY_CONN, {f32({2, 3, 4})}, {f32({2, 1, 5})});
    bad.o().weight = bad.b.add_float_weight("w", std::vector<float>(60, 0.5f));
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

namespace {
OneOp pool(uint8_t type, std::vector<int32_t> ys, tigris_spatial_t sp, uint8_t dt = TIGRIS_DTYPE_FLOAT32) {
    std::function<void(PlanBuilder &)> pre;
    T x = f32({1, 4, 4, 2}), y = f32(ys);
    if (dt == TIGRIS_DTYPE_INT8) {
        pre = [](PlanBuilder &b) { b.add_quant(0.5f, 0); };
        x = s8({1, 4, 4, 2}, 0);
        y = s8(ys, 0);
    }
    OneOp c(type, {x}, {y}, 11, pre);
    c.o().spatial = sp;
    return c;
}
}  // namespace

TEST(OpSemanticsPool, MaxPoolWindowRule) {
    auto sp = PlanBuilder::spatial(2, 2, 2, 2, 0, 0, 0, 0);
    EXPECT_VALID_THEN(pool(TIGRIS_OP_MAX_POOL, {1, 2, 2, 2}, sp).bytes(),
                      pool(TIGRIS_OP_MAX_POOL, {1, 3, 2, 2}, sp).bytes(), OP);
}

TEST(OpSemanticsPool, ChannelsUnchanged) {
    auto sp = PlanBuilder::spatial(2, 2, 2, 2, 0, 0, 0, 0);
    EXPECT_VALID_THEN(pool(TIGRIS_OP_AVG_POOL, {1, 2, 2, 2}, sp).bytes(),
                      pool(TIGRIS_OP_AVG_POOL, {1, 2, 2, 3}, sp).bytes(), OP);
}

TEST(OpSemanticsPool, PadMustBeBelowKernel) {
    // k2 s2 with pad_top 2: (4+2-2)/2+1 = 3 rows fits the window rule, but a
    // window of only padding is refused.
    auto good = PlanBuilder::spatial(2, 2, 2, 2, 1, 1, 0, 0);  // (4+2-2)/2+1 = 3
    auto bad = PlanBuilder::spatial(2, 2, 2, 2, 2, 0, 0, 0);
    EXPECT_VALID_THEN(pool(TIGRIS_OP_MAX_POOL, {1, 3, 2, 2}, good).bytes(),
                      pool(TIGRIS_OP_MAX_POOL, {1, 3, 2, 2}, bad).bytes(), OP);
}

TEST(OpSemanticsPool, DilationAboveOneRefused) {
    auto good = PlanBuilder::spatial(2, 2, 2, 2, 0, 0, 0, 0, 1, 1);
    auto bad = PlanBuilder::spatial(2, 2, 2, 2, 0, 0, 0, 0, 2, 1);
    EXPECT_VALID_THEN(pool(TIGRIS_OP_MAX_POOL, {1, 2, 2, 2}, good).bytes(),
                      pool(TIGRIS_OP_MAX_POOL, {1, 2, 2, 2}, bad).bytes(), OP);
}

TEST(OpSemanticsPool, L2PoolFloatOnly) {
    auto sp = PlanBuilder::spatial(2, 2, 2, 2, 0, 0, 0, 0);
    EXPECT_VALID_THEN(pool(TIGRIS_OP_L2_POOL, {1, 2, 2, 2}, sp).bytes(),
                      pool(TIGRIS_OP_L2_POOL, {1, 2, 2, 2}, sp, TIGRIS_DTYPE_INT8).bytes(), OP);
}

TEST(OpSemanticsPool, PoolHasNoConstants) {
    auto sp = PlanBuilder::spatial(2, 2, 2, 2, 0, 0, 0, 0);
    OneOp bad = pool(TIGRIS_OP_MAX_POOL, {1, 2, 2, 2}, sp);
    bad.o().weight = bad.b.add_float_weight("w", {1.0f});
    EXPECT_VALID_THEN(pool(TIGRIS_OP_MAX_POOL, {1, 2, 2, 2}, sp).bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsGlobalPool, OutputIsN11C) {
    OneOp g(TIGRIS_OP_GLOBAL_AVG, {f32({1, 4, 4, 2})}, {f32({1, 1, 1, 2})});
    OneOp bad(TIGRIS_OP_GLOBAL_MAX, {f32({1, 4, 4, 2})}, {f32({1, 1, 2, 2})});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsGlobalPool, PoolRoundingOnlyValueOne) {
    OneOp g(TIGRIS_OP_GLOBAL_AVG, {f32({1, 4, 4, 2})}, {f32({1, 1, 1, 2})});
    OneOp bad = g;
    g.attr(TIGRIS_ATTR_POOL_ROUNDING, {1});
    bad.attr(TIGRIS_ATTR_POOL_ROUNDING, {2});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsMatMul, ShapesMultiply) {
    OneOp g(TIGRIS_OP_MATMUL, {f32({2, 3, 4}), f32({2, 4, 5})}, {f32({2, 3, 5})});
    OneOp bad(TIGRIS_OP_MATMUL, {f32({2, 3, 4}), f32({2, 3, 5})}, {f32({2, 3, 5})});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}

TEST(OpSemanticsMatMul, NoBatchBroadcast) {
    OneOp g(TIGRIS_OP_MATMUL, {f32({2, 3, 4}), f32({2, 4, 5})}, {f32({2, 3, 5})});
    OneOp bad(TIGRIS_OP_MATMUL, {f32({2, 3, 4}), f32({1, 4, 5})}, {f32({2, 3, 5})});
    EXPECT_VALID_THEN(g.bytes(), bad.bytes(), OP);
}
