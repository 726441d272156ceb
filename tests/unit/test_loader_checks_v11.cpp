// Schema-10/11 decisions of docs/format.md: memory section (F1), tile record
// layouts and the TILE_V10 flag (F2), the facts block (F3, F4) and TILE_FACTS.
#include <gtest/gtest.h>

#include "plan_builder.h"

using namespace tigris_test;

// ---- F1 memory section ----

TEST(LoaderV11, MemorySectionMissing) {
    for (auto make : {PlanBuilder::minimal_float, PlanBuilder::tiled_stripe}) {
        PlanBuilder b = make(11);
        b.drop_sections.insert(TIGRIS_SEC_MEMORY);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_MISSING_SEC);
    }
}

TEST(LoaderV11, MemorySectionBelowV11) {
    for (uint32_t rev : {4u, 9u, 10u}) {
        PlanBuilder b = PlanBuilder::minimal_float(rev);
        b.force_memory_section = true;
        SCOPED_TRACE(rev);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderV11, MemorySectionShorterThan8Bytes) {
    PlanBuilder b = PlanBuilder::minimal_float(11);
    std::vector<uint8_t> bytes = b.build();
    ASSERT_EQ(b.layout().directory.back().type, (uint32_t)TIGRIS_SEC_MEMORY);
    bytes.resize(bytes.size() - 4);
    put_u32(bytes, 8, (uint32_t)bytes.size());
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderV11, MemorySectionReservedNotZero) {
    PlanBuilder b = PlanBuilder::minimal_float(11);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().memory + 4, 1);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderV11, ScheduledPeakZeroWithStages) {
    PlanBuilder b = PlanBuilder::minimal_float(11);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().memory, 0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderV11, ScheduledPeakSizesTheFastArena) {
    PlanBuilder b = PlanBuilder::tiled_stripe(11);
    b.scheduled_peak = 1500;
    b.budget = 9000;
    std::vector<uint8_t> bytes = b.build();
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    EXPECT_EQ(plan.scheduled_peak, 1500u);
    // No weight blocks: no decompression overhead on top (docs/format.md P8.3).
    EXPECT_EQ(tigris_fast_arena_required(&plan), 1500u);
}

TEST(LoaderV11, BudgetSizesTheFastArenaBeforeV11) {
    PlanBuilder b = PlanBuilder::tiled_stripe(10);
    b.budget = 9000;
    std::vector<uint8_t> bytes = b.build();
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    EXPECT_EQ(plan.scheduled_peak, 0u);
    EXPECT_EQ(tigris_fast_arena_required(&plan), 9000u);
}

// ---- F2 tile record layouts ----

TEST(LoaderV11, TileV10FlagOutsideRevision10) {
    for (uint32_t rev : {9u, 11u}) {
        PlanBuilder b = PlanBuilder::tiled_stripe(rev);
        b.flags |= TIGRIS_FLAG_TILE_V10;
        SCOPED_TRACE(rev);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderV11, TileV10ReservedNotZero) {
    PlanBuilder b = PlanBuilder::tiled_stripe(10);
    b.flags |= TIGRIS_FLAG_TILE_V10;
    b.tiles[0].choices._reserved = 1;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderV11, TileV10RecordsBeyondExtent) {
    PlanBuilder b = PlanBuilder::tiled_stripe(10);
    b.flags |= TIGRIS_FLAG_TILE_V10;
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, 22, 2);  // two 32-byte records in a 32-byte extent
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderV11, TileV10RecordsAreExposed) {
    PlanBuilder b = PlanBuilder::tiled_stripe(10);
    b.flags |= TIGRIS_FLAG_TILE_V10;
    std::vector<uint8_t> bytes = b.build();
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    ASSERT_NE(plan.tile_plans_v10, nullptr);
    EXPECT_EQ(plan.tile_plans_v11, nullptr);
    tigris_tile_plan_v10_t t = tigris_stage_tiles(&plan, &plan.stages[0]);
    EXPECT_EQ(t.tile_height, 2u);
    EXPECT_EQ(t.num_tiles, 4u);
    EXPECT_EQ(t.original_height, 8u);
}

TEST(LoaderV11, V11RecordsAreExposed) {
    std::vector<uint8_t> bytes = PlanBuilder::tiled_stripe(11).build();
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    ASSERT_NE(plan.tile_plans_v11, nullptr);
    EXPECT_EQ(plan.tile_plans_v10, nullptr);
    EXPECT_EQ(plan.tile_plans_v11[0].facts.num_tiles, 4u);
    EXPECT_EQ(tigris_stage_tiles(&plan, &plan.stages[0]).tile_height, 2u);
}

TEST(LoaderV11, V11RecordsBeyondExtent) {
    std::vector<uint8_t> bytes = PlanBuilder::tiled_stripe(11).build();
    put_u16(bytes, 22, 2);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// ---- F3/F4 facts and TILE_FACTS ----

TEST(LoaderV11, DerivedFactsOfAStripe) {
    // 3x3 stride-1 conv over 8 rows in bands of 2: 4 bands, halo 3 - 1 = 2,
    // along stored axis 1 (H of NHWC).
    std::vector<uint8_t> bytes = PlanBuilder::tiled_stripe(11).build();
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    tigris_tile_facts_t f{};
    ASSERT_EQ(tigris_stage_tile_facts(&plan, &plan.stages[0], &f), 1);
    EXPECT_EQ(f.tile_extent, 2u);
    EXPECT_EQ(f.num_tiles, 4u);
    EXPECT_EQ(f.original_extent, 8u);
    EXPECT_EQ(f.halo, 2u);
    EXPECT_EQ(f.band_axis, 1u);
    EXPECT_EQ(TIGRIS_TILE_BAND_KIND(f.band), (uint8_t)TIGRIS_BAND_KIND_STRIPE);
    EXPECT_EQ(TIGRIS_TILE_BAND_MODE(f.band), 0u);
}

TEST(LoaderV11, StatedFactDiffers) {
    struct Case {
        const char *what;
        std::function<void(tigris_tile_facts_t &)> edit;
    };
    const Case cases[] = {
        {"tile_extent", [](tigris_tile_facts_t &f) { f.tile_extent = 3; }},
        {"num_tiles", [](tigris_tile_facts_t &f) { f.num_tiles = 5; }},
        {"original_extent", [](tigris_tile_facts_t &f) { f.original_extent = 7; }},
        {"halo", [](tigris_tile_facts_t &f) { f.halo = 1; }},
        {"band_axis", [](tigris_tile_facts_t &f) { f.band_axis = 2; }},
        {"band mode", [](tigris_tile_facts_t &f) { f.band = TIGRIS_TILE_BAND(TIGRIS_BAND_KIND_STRIPE, 2); }},
    };
    for (const Case &c : cases) {
        PlanBuilder b = PlanBuilder::tiled_stripe(11);
        c.edit(b.tiles[0].facts);
        SCOPED_TRACE(c.what);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_TILE_FACTS);
    }
}

TEST(LoaderV11, UntileableRecordWithFacts) {
    PlanBuilder b = PlanBuilder::tiled_stripe(11);
    b.tiles[0].choices = tigris_tile_plan_v10_t{};  // facts still those of a stripe
    EXPECT_LOAD(b.build(), TIGRIS_ERR_TILE_FACTS);
}

TEST(LoaderV11, UntileableRecordWithZeroFactsLoads) {
    PlanBuilder b = PlanBuilder::tiled_stripe(11);
    b.tiles[0] = TilePlan{};
    EXPECT_LOAD(b.build(), TIGRIS_OK);
}

TEST(LoaderV11, BandKindAboveSevenRefused) {
    // F4: kinds 8-15 are refused. The exact code is not fixed by F4; any
    // refusal other than a crash or OK is accepted here.
    for (uint8_t kind = 8; kind < 16; ++kind) {
        PlanBuilder b = PlanBuilder::tiled_stripe(11);
        b.tiles[0].facts.band = TIGRIS_TILE_BAND(kind, 0);
        SCOPED_TRACE((int)kind);
        EXPECT_NE(load_plan(b.build()), TIGRIS_OK);
    }
}

// ---- docs/format.md P8.3 fast-arena requirement with compressed weights ----

namespace {
uint32_t align_to(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
}  // namespace

TEST(LoaderArena, OverheadOfOneStandaloneBlock) {
    // compressed_conv: one block = 216-byte weight, pad to 224, 12-byte bias = 236.
    PlanBuilder b = PlanBuilder::compressed_conv(9, Compression::Lz4Blocks);
    b.budget = 5000;
    std::vector<uint8_t> bytes = b.build();
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    EXPECT_EQ(tigris_weight_decompression_overhead(&plan), align_to(236, TIGRIS_TENSOR_ALIGN));
    EXPECT_EQ(tigris_fast_arena_required(&plan), 5000u + align_to(236, TIGRIS_TENSOR_ALIGN));
}

TEST(LoaderArena, ChainKeepsAllItsBlocksResident) {
    // conv_chain: each stage's block = 144-byte weight + 8-byte bias at 144 = 152.
    PlanBuilder b = PlanBuilder::conv_chain(11);
    b.compression = Compression::Lz4Blocks;
    b.scheduled_peak = 3000;
    std::vector<uint8_t> bytes = b.build();
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    const uint32_t want = 2 * align_to(152, TIGRIS_TENSOR_ALIGN);
    EXPECT_EQ(tigris_weight_decompression_overhead(&plan), want);
    EXPECT_EQ(tigris_fast_arena_required(&plan), 3000u + want);
}

TEST(LoaderArena, UncompressedPlanHasNoOverhead) {
    std::vector<uint8_t> bytes = PlanBuilder::conv_chain(9).build();
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    EXPECT_EQ(tigris_weight_decompression_overhead(&plan), 0u);
}
