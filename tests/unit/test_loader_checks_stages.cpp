// Loader checks of stages, chains and tile records
// (docs/format.md P6.2, P7.1-P7.3; limits P13.3).
#include <gtest/gtest.h>

#include "plan_builder.h"

using namespace tigris_test;

namespace {

// minimal_float plus `extra` unused tensors listed as additional stage inputs
// (or outputs).
PlanBuilder wide_stage(int extra, bool outputs) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    for (int i = 0; i < extra; ++i) {
        uint16_t t = b.add_tensor("extra" + std::to_string(i), TIGRIS_DTYPE_FLOAT32, {1, 4});
        (outputs ? b.stages[0].outputs : b.stages[0].inputs).push_back(t);
    }
    return b;
}

// x[1,8,8,2] -> n MaxPool 1x1 -> t; then Relu t -> y; stages 0..1 chained.
PlanBuilder pool_chain(int pools) {
    PlanBuilder b(9);
    uint16_t prev = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 8, 8, 2}, TIGRIS_TENSOR_MODEL_INPUT);
    std::vector<uint16_t> ops;
    for (int i = 0; i < pools; ++i) {
        uint16_t t = b.add_tensor("p" + std::to_string(i), TIGRIS_DTYPE_FLOAT32, {1, 8, 8, 2});
        uint16_t o = b.add_op(TIGRIS_OP_MAX_POOL, {prev}, {t});
        b.ops[o].spatial = PlanBuilder::spatial(1, 1, 1, 1, 0, 0, 0, 0);
        ops.push_back(o);
        prev = t;
    }
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 8, 8, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t r = b.add_op(TIGRIS_OP_RELU, {prev}, {y});
    uint16_t s0 = b.add_stage(ops, {0}, {prev});
    uint16_t s1 = b.add_stage({r}, {prev}, {y});
    b.stages[s0].chain_id = s0;
    b.stages[s0].chain_len = 2;
    b.stages[s0].chain_tile_h = 2;
    b.stages[s1].chain_id = s0;
    b.stages[s1].chain_len = 2;
    return b;
}

}  // namespace

// ---- lists and links ----

TEST(LoaderStages, OpListOutsideIndexPool) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().stage(0) + 4, 0xFFF0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, InputListOutsideIndexPool) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().stage(0) + 8, 0xFFF0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, OutputListOutsideIndexPool) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().stage(0) + 12, 0xFFF0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, OpCountRunsPastIndexPool) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().stage(0) + 6, 100);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, TilePlanIndexOutOfRange) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.stages[0].tile = 0;  // no tile records
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
    PlanBuilder c = PlanBuilder::tiled_stripe(9);
    c.stages[0].tile = 1;
    EXPECT_LOAD(c.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, ChainIdWithoutChainLen) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.stages[0].chain_id = 0;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, ChainLenWithoutChainId) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[1].chain_id = kNone16;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, StageInputTensorOutOfRange) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.stages[0].inputs = {9};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, StageOutputTensorOutOfRange) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.stages[0].outputs = {1, 0xFFFF};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// ---- limits (PLAN_LIMITS, reported through tigris_plan_load_ex) ----

TEST(LoaderStages, StageInputsAboveBuildLimit) {
    PlanBuilder b = wide_stage(TIGRIS_MAX_STAGE_INPUTS, false);  // 1 + MAX inputs
    tigris_plan_limits_t req{};
    EXPECT_EQ(err_name(load_plan(b.build(), &req)), err_name(TIGRIS_ERR_PLAN_LIMITS));
    EXPECT_EQ(req.stage_inputs, (uint32_t)TIGRIS_MAX_STAGE_INPUTS + 1);
    EXPECT_EQ(req.tensors, (uint32_t)TIGRIS_MAX_STAGE_INPUTS + 2);
}

TEST(LoaderStages, StageInputsAtBuildLimitLoad) {
    PlanBuilder b = wide_stage(TIGRIS_MAX_STAGE_INPUTS - 1, false);
    tigris_plan_limits_t req{};
    EXPECT_EQ(err_name(load_plan(b.build(), &req)), err_name(TIGRIS_OK));
    EXPECT_EQ(req.stage_inputs, (uint32_t)TIGRIS_MAX_STAGE_INPUTS);
}

TEST(LoaderStages, StageOutputsAboveBuildLimit) {
    PlanBuilder b = wide_stage(TIGRIS_MAX_STAGE_OUTPUTS, true);
    tigris_plan_limits_t req{};
    EXPECT_EQ(err_name(load_plan(b.build(), &req)), err_name(TIGRIS_ERR_PLAN_LIMITS));
    EXPECT_EQ(req.stage_outputs, (uint32_t)TIGRIS_MAX_STAGE_OUTPUTS + 1);
}

TEST(LoaderStages, ChainLengthAboveBuildLimit) {
    // Limits are checked before the chain's shape (docs/format.md P13.2 step 16).
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[0].chain_len = b.stages[1].chain_len = TIGRIS_MAX_CHAIN_STAGES + 1;
    tigris_plan_limits_t req{};
    EXPECT_EQ(err_name(load_plan(b.build(), &req)), err_name(TIGRIS_ERR_PLAN_LIMITS));
    EXPECT_EQ(req.chain_stages, (uint32_t)TIGRIS_MAX_CHAIN_STAGES + 1);
}

TEST(LoaderStages, SpatialOpsPerChainedStageAboveBuildLimit) {
    PlanBuilder b = pool_chain(TIGRIS_MAX_SPATIAL_OPS_PER_STAGE + 1);
    tigris_plan_limits_t req{};
    EXPECT_EQ(err_name(load_plan(b.build(), &req)), err_name(TIGRIS_ERR_PLAN_LIMITS));
    EXPECT_EQ(req.spatial_ops_per_stage, (uint32_t)TIGRIS_MAX_SPATIAL_OPS_PER_STAGE + 1);
}

TEST(LoaderStages, SpatialOpsPerChainedStageAtBuildLimitLoad) {
    PlanBuilder b = pool_chain(TIGRIS_MAX_SPATIAL_OPS_PER_STAGE);
    tigris_plan_limits_t req{};
    EXPECT_EQ(err_name(load_plan(b.build(), &req)), err_name(TIGRIS_OK));
    EXPECT_EQ(req.spatial_ops_per_stage, (uint32_t)TIGRIS_MAX_SPATIAL_OPS_PER_STAGE);
    EXPECT_EQ(req.chain_stages, 2u);
}

// A chain member runs on bands of rows; a Concatenation there must join the
// last axis, the one join a band keeps in order (a fuzz finding: a chain
// with a one-input CONCAT along rows loaded and then failed in the kernel).
TEST(LoaderStages, ChainedConcatMustJoinTheLastAxis) {
    for (uint16_t axis : {0, 1, 2, 3}) {
        PlanBuilder b = pool_chain(1);
        b.ops[1].type = TIGRIS_OP_CONCAT;  // the member's Relu becomes a one-input concat
        b.ops[1].spatial = PlanBuilder::spatial(axis, 0, 0, 0, 0, 0, 0, 0);
        // 0 is the channel axis at rank 4 (the old meaning), as 3 is.
        EXPECT_LOAD(b.build(), axis == 0 || axis == 3 ? TIGRIS_OK : TIGRIS_ERR_CHAIN_BAND) << "axis " << axis;
    }
}

TEST(LoaderStages, RequiredLimitsOfAValidPlan) {
    tigris_plan_limits_t req{};
    ASSERT_EQ(err_name(load_plan(PlanBuilder::conv_chain(9).build(), &req)), err_name(TIGRIS_OK));
    EXPECT_EQ(req.tensors, 3u);
    EXPECT_EQ(req.stage_inputs, 1u);
    EXPECT_EQ(req.stage_outputs, 1u);
    EXPECT_EQ(req.chain_stages, 2u);
    EXPECT_EQ(req.spatial_ops_per_stage, 1u);
}

TEST(LoaderStages, BuildLimitsReportTheConfiguredMaxima) {
    tigris_plan_limits_t lim{};
    tigris_build_limits(&lim);
    EXPECT_EQ(lim.tensors, (uint32_t)TIGRIS_MAX_TENSORS);
    EXPECT_EQ(lim.stage_inputs, (uint32_t)TIGRIS_MAX_STAGE_INPUTS);
    EXPECT_EQ(lim.stage_outputs, (uint32_t)TIGRIS_MAX_STAGE_OUTPUTS);
    EXPECT_EQ(lim.chain_stages, (uint32_t)TIGRIS_MAX_CHAIN_STAGES);
    EXPECT_EQ(lim.spatial_ops_per_stage, (uint32_t)TIGRIS_MAX_SPATIAL_OPS_PER_STAGE);
    EXPECT_EQ(lim.subgraphs, (uint32_t)TIGRIS_MAX_SUBGRAPHS);
    EXPECT_EQ(lim.subgraph_depth, (uint32_t)TIGRIS_MAX_SUBGRAPH_DEPTH);
}

// ---- forward partitioned schedule ----

TEST(LoaderStages, Schedule_OpNotScheduled) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    uint16_t z = b.add_tensor("z", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    b.add_op(TIGRIS_OP_RELU, {1}, {z});
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Schedule_OpRepeated) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.stages[0].ops = {0, 0};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Schedule_OpsReordered) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[0].ops = {1};
    b.stages[1].ops = {0};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Schedule_OpsButNoStages) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.stages.clear();
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Schedule_OpIndexBeyondOps) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.stages[0].ops = {0, 1};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// ---- op stage byte ----

TEST(LoaderStages, OpStageByteWrongFromV5) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.ops[1].stage_byte = 0;  // op 1 lives in stage 1
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderStages, OpStageByteWrongAtV4) {
    PlanBuilder b = PlanBuilder::conv_chain(4);
    b.ops[1].stage_byte = 0;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

// ---- chains ----

TEST(LoaderStages, Chain_LengthOne) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[0].chain_len = 1;
    b.stages[1].chain_id = 1;
    b.stages[1].chain_len = 1;
    b.stages[1].chain_tile_h = 2;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Chain_HeadAfterMember) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[0].chain_id = 1;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Chain_RunsPastStageTable) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[0].chain_len = b.stages[1].chain_len = 3;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Chain_HeadWithoutTileHeight) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[0].chain_tile_h = 0;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Chain_MemberWithTileHeight) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[1].chain_tile_h = 2;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Chain_MemberWithTilePlan) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[1].tile = b.add_tile(PlanBuilder::stripe_tile(2, 8, 2, 3));
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Chain_HeadWithTilePlan) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[0].tile = b.add_tile(PlanBuilder::stripe_tile(2, 8, 2, 3));
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Chain_MemberPointsElsewhere) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[1].chain_id = 1;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Chain_MemberWithDifferentLength) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages.push_back(b.stages[1]);  // a third stage, not part of the 2-chain
    b.stages[2].ops = {};
    b.stages[1].chain_len = 3;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Chain_TileHeightOnUnchainedStage) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.stages[0].chain_tile_h = 2;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderStages, Chain_LineBufferedHeadLoads) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[0].flags = TIGRIS_STAGE_LINE_BUFFERED;
    EXPECT_LOAD(b.build(), TIGRIS_OK);
}

TEST(LoaderStages, Chain_OperatorNotStripeTileable) {
    for (uint8_t t : {TIGRIS_OP_GLOBAL_AVG, TIGRIS_OP_FULLY_CONN, TIGRIS_OP_RESHAPE, TIGRIS_OP_MATMUL,
                      TIGRIS_OP_CONV_TRANSPOSE, TIGRIS_OP_RESIZE}) {
        PlanBuilder b = PlanBuilder::conv_chain(9);
        b.ops[1].type = t;
        SCOPED_TRACE((int)t);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
    }
}

// ---- tile records (docs/format.md P7.1, P7.2) ----

TEST(LoaderTiles, TileableAboveOne) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.tiles[0].choices.tileable = 2;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderTiles, WidthAxisReserved) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.tiles[0].choices.axis = TIGRIS_TILE_AXIS_WIDTH;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderTiles, UnknownAxis) {
    for (uint8_t a : {4, 5, 255}) {
        PlanBuilder b = PlanBuilder::tiled_stripe(9);
        b.tiles[0].choices.axis = a;
        SCOPED_TRACE((int)a);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderTiles, TileableWithAxisNone) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.tiles[0].choices.axis = TIGRIS_TILE_AXIS_NONE;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderTiles, UntileableWithAxis) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.tiles[0].choices.tileable = 0;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderTiles, UntileableRecordLoads) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.tiles[0].choices = tigris_tile_plan_v10_t{};
    EXPECT_LOAD(b.build(), TIGRIS_OK);
}

TEST(LoaderTiles, V4TileByteOneIsPadding) {
    // Before v5 byte 1 carries no axis: a tileable v4 record with 0 there loads.
    EXPECT_LOAD(PlanBuilder::tiled_stripe(4).build(), TIGRIS_OK);
}

TEST(LoaderTiles, HwAxisAcceptedFromV5) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.tiles[0].choices.axis = TIGRIS_TILE_AXIS_HW;
    b.tiles[0].choices.tile_width = 4;
    b.tiles[0].choices.num_tiles = 8;
    EXPECT_LOAD(b.build(), TIGRIS_OK);
}

// ---- tiled-stage contracts (docs/format.md P7.3) ----

TEST(LoaderTiles, StripeWithTwoSpatialOps) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    // Both convs in one tiled stage instead of a chain.
    b.stages.pop_back();
    b.stages[0].ops = {0, 1};
    b.stages[0].outputs = {2};
    b.stages[0].chain_id = kNone16;
    b.stages[0].chain_len = 0;
    b.stages[0].chain_tile_h = 0;
    b.stages[0].tile = b.add_tile(PlanBuilder::stripe_tile(2, 8, 4, 5));
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderTiles, StripeWithoutStageInputs) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.stages[0].inputs = {};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderTiles, StripeWithoutStageOutputs) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.stages[0].outputs = {};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P7.3 rank-4 height stripe: ops other than the one spatial op come from the
// stripe-tileable set.
TEST(LoaderTiles, StripeWithOperatorOutsideStripeSet) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    uint16_t z = b.add_tensor("z", TIGRIS_DTYPE_FLOAT32, {1, 8, 8, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    b.tensors[1].flags = 0;
    uint16_t o = b.add_op(TIGRIS_OP_GLOBAL_MAX, {1}, {z});
    b.stages[0].ops.push_back(o);
    b.stages[0].outputs = {z};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderTiles, StripeWithConvAndPointwiseLoads) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    uint16_t z = b.add_tensor("z", TIGRIS_DTYPE_FLOAT32, {1, 8, 8, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    b.tensors[1].flags = 0;
    uint16_t o = b.add_op(TIGRIS_OP_RELU, {1}, {z});
    b.stages[0].ops.push_back(o);
    b.stages[0].outputs = {z};
    EXPECT_LOAD(b.build(), TIGRIS_OK);
}

namespace {
// x[1,8,4,2] (NHWC) -> Reshape -> y[1,32,2] (NLC): batch and channels kept,
// each of the 8 input rows regroups onto 4 whole output rows; banded 2 input
// rows at a time.
PlanBuilder reshape_band() {
    PlanBuilder b(9);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 8, 4, 2}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 32, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t o = b.add_op(TIGRIS_OP_RESHAPE, {x}, {y});
    uint16_t s = b.add_stage({o}, {x}, {y});
    b.stages[s].tile = b.add_tile(PlanBuilder::stripe_tile(2, 8, 0, 1));
    return b;
}
}  // namespace

TEST(LoaderTiles, ReshapeBandLoads) { EXPECT_LOAD(reshape_band().build(), TIGRIS_OK); }

TEST(LoaderTiles, ReshapeBandRecordConditions) {
    struct Case {
        const char *what;
        std::function<void(tigris_tile_plan_v10_t &)> edit;
    };
    const Case cases[] = {
        {"halo", [](tigris_tile_plan_v10_t &t) { t.halo = 1; }},
        {"receptive_field", [](tigris_tile_plan_v10_t &t) { t.receptive_field = 2; }},
        {"original_height", [](tigris_tile_plan_v10_t &t) { t.original_height = 7; }},
        {"num_tiles", [](tigris_tile_plan_v10_t &t) { t.num_tiles = 3; }},
        {"tile_height 0", [](tigris_tile_plan_v10_t &t) { t.tile_height = 0; }},
        {"tile_height > rows", [](tigris_tile_plan_v10_t &t) { t.tile_height = 9; t.num_tiles = 1; }},
        {"tile_width", [](tigris_tile_plan_v10_t &t) { t.tile_width = 2; }},
        {"flags", [](tigris_tile_plan_v10_t &t) { t.flags = 1; }},
    };
    for (const Case &c : cases) {
        PlanBuilder b = reshape_band();
        c.edit(b.tiles[0].choices);
        SCOPED_TRACE(c.what);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
    }
}
