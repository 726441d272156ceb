// test_tile_facts.cpp - docs/format.md F5: the band kind and facts the loader
// derives for each kind of standalone tiled stage. Expected facts are worked
// out by hand from each plan's shapes (comments show the arithmetic); the
// same plans at schema 9 exercise the executor-order derivation and at
// schema 11 the stated kind.
#include <gtest/gtest.h>

#include <cstring>

#include "plan_builder.h"
#include "tigris_loader.h"

using namespace tigris_test;

namespace {

struct Loaded {
    std::vector<uint8_t> bytes;
    tigris_plan_t plan{};
    tigris_error_t err = TIGRIS_OK;
};

// Builds and loads; the buffer stays owned by the returned value.
Loaded load(PlanBuilder &b) {
    Loaded l;
    l.bytes = b.build();
    l.err = tigris_plan_load(l.bytes.data(), (uint32_t)l.bytes.size(), &l.plan);
    return l;
}

tigris_tile_facts_t facts(uint32_t tile, uint32_t n, uint32_t extent, uint16_t halo, uint8_t axis,
                          tigris_band_kind_t kind, uint8_t mode = 0) {
    tigris_tile_facts_t f;
    memset(&f, 0, sizeof f);
    f.tile_extent = tile;
    f.num_tiles = n;
    f.original_extent = extent;
    f.halo = halo;
    f.band_axis = axis;
    f.band = TIGRIS_TILE_BAND(kind, mode);
    return f;
}

void expect_facts(const tigris_tile_facts_t &got, const tigris_tile_facts_t &want) {
    EXPECT_EQ(got.tile_extent, want.tile_extent);
    EXPECT_EQ(got.num_tiles, want.num_tiles);
    EXPECT_EQ(got.original_extent, want.original_extent);
    EXPECT_EQ(got.halo, want.halo);
    EXPECT_EQ(got.band_axis, want.band_axis);
    EXPECT_EQ(TIGRIS_TILE_BAND_KIND(got.band), TIGRIS_TILE_BAND_KIND(want.band));
    EXPECT_EQ(TIGRIS_TILE_BAND_MODE(got.band), TIGRIS_TILE_BAND_MODE(want.band));
}

// A tile record whose choices carry tile_height (and optionally width / flags),
// stating `f` as its facts.
TilePlan record(uint8_t axis, uint32_t th, uint32_t extent, const tigris_tile_facts_t &f, uint16_t tw = 0,
                uint16_t flags = 0) {
    TilePlan t;
    t.choices.tileable = 1;
    t.choices.axis = axis;
    t.choices.tile_height = th;
    t.choices.original_height = extent;
    t.choices.num_tiles = th ? (extent + th - 1) / th : 0;
    t.choices.receptive_field = 1;
    t.choices.tile_width = tw;
    t.choices.flags = flags;
    t.facts = f;
    return t;
}

// Checks the derivation at schema 9 (executor order) and schema 11 (stated,
// then re-derived by the loader), for the plan `make(rev)` builds.
template <class Make>
void check_kind(Make make, const tigris_tile_facts_t &want) {
    for (uint32_t rev : {9u, 11u}) {
        SCOPED_TRACE("schema " + std::to_string(rev));
        PlanBuilder b = make(rev);
        Loaded l = load(b);
        ASSERT_EQ(err_name(l.err), err_name(TIGRIS_OK));
        const tigris_stage_t *st = &l.plan.stages[0];
        tigris_stage_band_t band;
        EXPECT_EQ(tigris_stage_band_kind(&l.plan, st, &band), (tigris_band_kind_t)TIGRIS_TILE_BAND_KIND(want.band));
        EXPECT_EQ(band.extent, want.original_extent);
        EXPECT_EQ(band.axis, want.band_axis);
        EXPECT_EQ(band.mode, TIGRIS_TILE_BAND_MODE(want.band));
        tigris_tile_facts_t got;
        ASSERT_EQ(tigris_stage_tile_facts(&l.plan, st, &got), 1);
        expect_facts(got, want);
        if (rev == 11) {
            // The loader compared the record with the same derivation.
            expect_facts(l.plan.tile_plans_v11[st->tile_plan_idx].facts, want);
        }
    }
}

}  // namespace

// Conv 3x3 stride 1 pad 1 over 8 rows, 2-row bands: eff_k 3 - stride 1 = 2
// halo rows, ceil(8/2) = 4 bands of the conv output.
TEST(TileFacts, StripeConv3x3) {
    check_kind([](uint32_t rev) { return PlanBuilder::tiled_stripe(rev); },
               facts(2, 4, 8, 2, 1, TIGRIS_BAND_KIND_STRIPE));
}

// Stride 2, kernel 3, dilation 2 on 9 input rows: eff_k = (3-1)*2+1 = 5,
// output rows floor((9+2+2-5)/2)+1 = 5; halo 5-2 = 3; 2-row bands -> 3.
TEST(TileFacts, StripeDilatedStridedConvHalo) {
    auto make = [](uint32_t rev) {
        PlanBuilder b(rev);
        uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 9, 4, 1}, TIGRIS_TENSOR_MODEL_INPUT);
        uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 5, 2, 1}, TIGRIS_TENSOR_MODEL_OUTPUT);
        uint16_t op = b.add_op(TIGRIS_OP_CONV, {x}, {y});
        b.ops[op].spatial = PlanBuilder::spatial(3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 1);
        b.ops[op].weight = b.add_float_weight("w", std::vector<float>(9, 0.5f));
        uint16_t s = b.add_stage({op}, {x}, {y});
        b.stages[s].tile = b.add_tile(record(TIGRIS_TILE_AXIS_HEIGHT, 2, 5, facts(2, 3, 5, 3, 1, TIGRIS_BAND_KIND_STRIPE)));
        return b;
    };
    check_kind(make, facts(2, 3, 5, 3, 1, TIGRIS_BAND_KIND_STRIPE));
}

// A pointwise-only stripe has no spatial op: the first output's 6 rows in
// bands of 4 -> 2 bands, no halo. A band longer than the extent is clipped.
TEST(TileFacts, StripePointwiseOnly) {
    for (uint32_t th : {4u, 100u}) {
        SCOPED_TRACE(th);
        uint32_t tile = th < 6 ? th : 6, n = (6 + tile - 1) / tile;
        auto make = [&](uint32_t rev) {
            PlanBuilder b(rev);
            uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 6, 3, 2}, TIGRIS_TENSOR_MODEL_INPUT);
            uint16_t t = b.add_tensor("t", TIGRIS_DTYPE_FLOAT32, {1, 6, 3, 2});
            uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 6, 3, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
            uint16_t a = b.add_op(TIGRIS_OP_RELU, {x}, {t});
            uint16_t c = b.add_op(TIGRIS_OP_SIGMOID, {t}, {y});
            uint16_t s = b.add_stage({a, c}, {x}, {y});
            b.stages[s].tile = b.add_tile(record(TIGRIS_TILE_AXIS_HEIGHT, th, 6, facts(tile, n, 6, 0, 1, TIGRIS_BAND_KIND_STRIPE)));
            return b;
        };
        check_kind(make, facts(tile, n, 6, 0, 1, TIGRIS_BAND_KIND_STRIPE));
    }
}

// 2-D tiles of 3x3 over an 8x8 conv output: ceil(8/3) * ceil(8/3) = 9 tiles.
TEST(TileFacts, HwTiles) {
    auto make = [](uint32_t rev) {
        PlanBuilder b = PlanBuilder::tiled_stripe(rev);
        b.tiles[0] = record(TIGRIS_TILE_AXIS_HW, 3, 8, facts(3, 9, 8, 2, 1, TIGRIS_BAND_KIND_HW), 3);
        return b;
    };
    check_kind(make, facts(3, 9, 8, 2, 1, TIGRIS_BAND_KIND_HW));
}

// Global average pool walked along 8 input rows in bands of 3 -> 3 bands.
TEST(TileFacts, ByInputGlobalAveragePool) {
    auto make = [](uint32_t rev) {
        PlanBuilder b(rev);
        uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 8, 5, 4}, TIGRIS_TENSOR_MODEL_INPUT);
        uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 1, 1, 4}, TIGRIS_TENSOR_MODEL_OUTPUT);
        uint16_t op = b.add_op(TIGRIS_OP_GLOBAL_AVG, {x}, {y});
        uint16_t s = b.add_stage({op}, {x}, {y});
        b.stages[s].tile = b.add_tile(record(TIGRIS_TILE_AXIS_HEIGHT, 3, 8, facts(3, 3, 8, 0, 1, TIGRIS_BAND_KIND_BY_INPUT)));
        return b;
    };
    check_kind(make, facts(3, 3, 8, 0, 1, TIGRIS_BAND_KIND_BY_INPUT));
}

// Transpose [1,4,6,2] with perm (0,2,1,3): rows = 4 (axis 1), cols = 6
// (axis 2). The record's flag picks columns (schema 9+); a band of 10 is
// clipped to the extent.
PlanBuilder transpose_plan(uint32_t rev, uint16_t flags, uint32_t th, const tigris_tile_facts_t &f) {
    PlanBuilder b(rev);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 4, 6, 2}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 6, 4, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_TRANSPOSE, {x}, {y});
    b.add_attribute(op, TIGRIS_ATTR_TRANSPOSE_PERM, {0, 2, 1, 3});
    uint16_t s = b.add_stage({op}, {x}, {y});
    b.stages[s].tile = b.add_tile(record(TIGRIS_TILE_AXIS_HEIGHT, th, 6, f, 0, flags));
    return b;
}

TEST(TileFacts, TransposeOnColumns) {
    auto f = facts(6, 1, 6, 0, 2, TIGRIS_BAND_KIND_TRANSPOSE);
    check_kind([&](uint32_t rev) { return transpose_plan(rev, TIGRIS_TILE_BAND_ON_COLUMNS, 10, f); }, f);
}

TEST(TileFacts, TransposeOnRows) {
    auto f = facts(3, 2, 4, 0, 1, TIGRIS_BAND_KIND_TRANSPOSE);
    check_kind([&](uint32_t rev) { return transpose_plan(rev, 0, 3, f); }, f);
}

// Fully connected on a [6,4] matrix: 6 rows along axis 0, bands of 4 -> 2.
TEST(TileFacts, RowsFullyConnected) {
    auto make = [](uint32_t rev) {
        PlanBuilder b(rev);
        uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {6, 4}, TIGRIS_TENSOR_MODEL_INPUT);
        uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {6, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
        uint16_t op = b.add_op(TIGRIS_OP_FULLY_CONN, {x}, {y});
        b.ops[op].weight = b.add_float_weight("w", std::vector<float>(12, 0.25f));
        uint16_t s = b.add_stage({op}, {x}, {y});
        b.stages[s].tile = b.add_tile(record(TIGRIS_TILE_AXIS_HEIGHT, 4, 6, facts(4, 2, 6, 0, 0, TIGRIS_BAND_KIND_ROWS)));
        return b;
    };
    check_kind(make, facts(4, 2, 6, 0, 0, TIGRIS_BAND_KIND_ROWS));
}

// Reshape [6,4] -> [12,2]: both own order, mode 0 bands axis 0 of the input,
// 6 rows in bands of 3 (3*4 = 12 bytes-per-band elements, divisible by 2).
PlanBuilder reshape_plan(uint32_t rev, const TilePlan &t) {
    PlanBuilder b(rev);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {6, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {12, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_RESHAPE, {x}, {y});
    uint16_t s = b.add_stage({op}, {x}, {y});
    b.stages[s].tile = b.add_tile(t);
    return b;
}

TEST(TileFacts, ReshapeRowBands) {
    auto f = facts(3, 2, 6, 0, 0, TIGRIS_BAND_KIND_RESHAPE);
    check_kind([&](uint32_t rev) { return reshape_plan(rev, record(TIGRIS_TILE_AXIS_HEIGHT, 3, 6, f)); }, f);
}

// The reshape band runs the record's length as stated, so a record that
// does not describe it exactly is refused (docs/format.md P7.3).
TEST(TileFacts, ReshapeRecordMustBeExact) {
    auto f = facts(3, 2, 6, 0, 0, TIGRIS_BAND_KIND_RESHAPE);
    TilePlan bad_orig = record(TIGRIS_TILE_AXIS_HEIGHT, 3, 6, f);
    bad_orig.choices.original_height = 7;
    TilePlan bad_halo = record(TIGRIS_TILE_AXIS_HEIGHT, 3, 6, f);
    bad_halo.choices.halo = 1;
    TilePlan bad_count = record(TIGRIS_TILE_AXIS_HEIGHT, 3, 6, f);
    bad_count.choices.num_tiles = 3;
    for (const TilePlan &t : {bad_orig, bad_halo, bad_count}) {
        PlanBuilder b = reshape_plan(9, t);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
    }
}

// ReduceMax over axis 1 of [4,3,5] -> [4,1,5]: the first non-unit axis (0,
// extent 4) is independent; axis 1 is the reduced one. Bands of 2 -> 2,
// leading mode 2 in the high nibble.
TEST(TileFacts, LeadingBandReduction) {
    auto f = facts(2, 2, 4, 0, 0, TIGRIS_BAND_KIND_LEADING, 2);
    auto make = [&](uint32_t rev) {
        PlanBuilder b(rev);
        uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {4, 3, 5}, TIGRIS_TENSOR_MODEL_INPUT);
        uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {4, 1, 5}, TIGRIS_TENSOR_MODEL_OUTPUT);
        uint16_t op = b.add_op(TIGRIS_OP_REDUCE_MAX, {x}, {y});
        b.add_attribute(op, TIGRIS_ATTR_AXES, {1});
        uint16_t s = b.add_stage({op}, {x}, {y});
        b.stages[s].tile = b.add_tile(record(TIGRIS_TILE_AXIS_HEIGHT, 2, 4, f));
        return b;
    };
    check_kind(make, f);
}

// No record, or an untileable one: nothing to describe / all zero.
TEST(TileFacts, UntiledAndUntileable) {
    PlanBuilder b = PlanBuilder::float_conv(11);
    Loaded l = load(b);
    ASSERT_EQ(l.err, TIGRIS_OK);
    tigris_tile_facts_t f;
    memset(&f, 0x5A, sizeof f);
    EXPECT_EQ(tigris_stage_tile_facts(&l.plan, &l.plan.stages[0], &f), 0);
    EXPECT_EQ(f.tile_extent, 0u);
    EXPECT_EQ(tigris_stage_band_kind(&l.plan, &l.plan.stages[0], nullptr), TIGRIS_BAND_KIND_NONE);

    PlanBuilder u = PlanBuilder::tiled_stripe(11);
    u.tiles[0] = TilePlan{};  // tileable 0, axis 0, facts zero
    Loaded lu = load(u);
    ASSERT_EQ(lu.err, TIGRIS_OK);
    memset(&f, 0x5A, sizeof f);
    EXPECT_EQ(tigris_stage_tile_facts(&lu.plan, &lu.plan.stages[0], &f), 1);
    expect_facts(f, facts(0, 0, 0, 0, 0, TIGRIS_BAND_KIND_NONE));
    EXPECT_EQ(tigris_stage_band_kind(&lu.plan, &lu.plan.stages[0], nullptr), TIGRIS_BAND_KIND_NONE);
}

// Chain members are not classified as standalone stages.
TEST(TileFacts, ChainMembersAreNotClassified) {
    PlanBuilder b = PlanBuilder::conv_chain(11);
    Loaded l = load(b);
    ASSERT_EQ(l.err, TIGRIS_OK);
    tigris_tile_facts_t f;
    for (int s = 0; s < 2; s++) {
        EXPECT_EQ(tigris_stage_band_kind(&l.plan, &l.plan.stages[s], nullptr), TIGRIS_BAND_KIND_NONE);
        EXPECT_EQ(tigris_stage_tile_facts(&l.plan, &l.plan.stages[s], &f), 0);
    }
}
