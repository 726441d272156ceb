// Loader checks of the file header (docs/format.md P2, P13.2 step 1) and
// the baseline every other check file relies on: each builder factory loads.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "plan_builder.h"

using namespace tigris_test;

namespace {

struct Named {
    const char *name;
    std::function<PlanBuilder(uint32_t)> make;
    uint32_t min_rev;
};

const Named kFactories[] = {
    {"minimal_float", [](uint32_t r) { return PlanBuilder::minimal_float(r); }, 4},
    {"float_conv", [](uint32_t r) { return PlanBuilder::float_conv(r); }, 4},
    {"int8_conv", [](uint32_t r) { return PlanBuilder::int8_conv(r); }, 4},
    {"conv_chain", [](uint32_t r) { return PlanBuilder::conv_chain(r); }, 4},
    {"tiled_stripe", [](uint32_t r) { return PlanBuilder::tiled_stripe(r); }, 4},
    {"lz4", [](uint32_t r) { return PlanBuilder::compressed_conv(r, Compression::Lz4Blocks); }, 4},
    {"stored", [](uint32_t r) { return PlanBuilder::compressed_conv(r, Compression::StoredBlocks); }, 4},
    {"state_add", [](uint32_t r) { return PlanBuilder::state_add(r); }, 10},
    {"if_subgraphs", [](uint32_t r) { return PlanBuilder::if_subgraphs(r); }, 10},
};

}  // namespace

TEST(LoaderBaseline, EveryFactoryLoadsAtEveryRevision) {
    for (const Named &f : kFactories)
        for (uint32_t rev = f.min_rev; rev <= 11; ++rev) {
            SCOPED_TRACE(std::string(f.name) + " v" + std::to_string(rev));
            PlanBuilder b = f.make(rev);
            EXPECT_LOAD(b.build(), TIGRIS_OK);
        }
}

TEST(LoaderBaseline, TileV10FlagWith32ByteRecordsLoads) {
    PlanBuilder b = PlanBuilder::tiled_stripe(10);
    b.flags |= TIGRIS_FLAG_TILE_V10;
    EXPECT_LOAD(b.build(), TIGRIS_OK);
}

TEST(LoaderHeader, NullBufferOrHandle) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    tigris_plan_t plan;
    EXPECT_EQ(tigris_plan_load(nullptr, (uint32_t)bytes.size(), &plan), TIGRIS_ERR_NULL);
    EXPECT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), nullptr), TIGRIS_ERR_NULL);
    EXPECT_EQ(tigris_plan_load_ex(nullptr, (uint32_t)bytes.size(), &plan, nullptr), TIGRIS_ERR_NULL);
    EXPECT_EQ(tigris_plan_load_ex(bytes.data(), (uint32_t)bytes.size(), nullptr, nullptr), TIGRIS_ERR_NULL);
}

TEST(LoaderHeader, NullBufferZeroesHandle) {
    tigris_plan_t plan;
    std::memset(&plan, 0x5A, sizeof plan);
    EXPECT_EQ(tigris_plan_load(nullptr, 100, &plan), TIGRIS_ERR_NULL);
    EXPECT_TRUE(plan_is_zeroed(plan));
}

TEST(LoaderHeader, TooSmallBelow48Bytes) {
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    for (size_t n : {0u, 1u, 4u, 47u}) {
        SCOPED_TRACE(n);
        EXPECT_LOAD(std::vector<uint8_t>(bytes.begin(), bytes.begin() + n), TIGRIS_ERR_TOO_SMALL);
    }
}

TEST(LoaderHeader, TooSmallIsCheckedBeforeMagic) {
    EXPECT_LOAD(std::vector<uint8_t>(20, 0xEE), TIGRIS_ERR_TOO_SMALL);
}

TEST(LoaderHeader, BadMagic) {
    for (int i = 0; i < 4; ++i) {
        std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
        bytes[i] ^= 0x20;  // "tGRS", "TgRS", ...: case matters
        SCOPED_TRACE(i);
        EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_MAGIC);
    }
}

TEST(LoaderHeader, BadMagicIsCheckedBeforeVersion) {
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    bytes[0] = 'X';
    put_u32(bytes, 4, 99);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_MAGIC);
}

TEST(LoaderHeader, BadVersionOutsideFourToEleven) {
    for (uint32_t v : {0u, 1u, 2u, 3u, 12u, 13u, 0x7FFFFFFFu, 0xFFFFFFFFu}) {
        std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
        put_u32(bytes, 4, v);
        SCOPED_TRACE(v);
        EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_VERSION);
    }
}

TEST(LoaderHeader, BadVersionIsCheckedBeforeSize) {
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    put_u32(bytes, 4, 3);
    put_u32(bytes, 8, (uint32_t)bytes.size() + 1);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_VERSION);
}

TEST(LoaderHeader, BadSizeWhenFileSizeFieldDiffers) {
    for (int delta : {-1, 1, 16}) {
        std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
        put_u32(bytes, 8, (uint32_t)((int)bytes.size() + delta));
        SCOPED_TRACE(delta);
        EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SIZE);
    }
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    put_u32(bytes, 8, 0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SIZE);
}

TEST(LoaderHeader, BadSizeWhenBufferHasTrailingBytes) {
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    bytes.push_back(0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SIZE);
}

TEST(LoaderHeader, BadSizeWhenBufferIsShorterThanStated) {
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    bytes.pop_back();
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SIZE);
}

TEST(LoaderHeader, HeaderFlagsOtherThanKnownBitsAreNotInspected) {
    // docs/format.md P2: the loader does not inspect flags; XIP (bit 0) is informational.
    PlanBuilder b = PlanBuilder::float_conv(9);
    b.flags = TIGRIS_FLAG_XIP;
    EXPECT_LOAD(b.build(), TIGRIS_OK);
}

TEST(LoaderHeader, LoadedPlanPointsIntoTheBuffer) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    std::vector<uint8_t> bytes = b.build();
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    const Layout &L = b.layout();
    EXPECT_EQ((const void *)plan.header, (const void *)bytes.data());
    EXPECT_EQ((const void *)plan.tensors, (const void *)(bytes.data() + L.tensors));
    EXPECT_EQ((const void *)plan.ops, (const void *)(bytes.data() + L.ops));
    EXPECT_EQ((const void *)plan.index_pool, (const void *)(bytes.data() + L.index_pool));
    EXPECT_EQ((const void *)plan.strings, (const void *)(bytes.data() + L.string_pool));
    EXPECT_EQ((const void *)plan.weight_blob, (const void *)(bytes.data() + L.weight_blob));
    EXPECT_EQ(plan.model_inputs[0], 0);
    EXPECT_EQ(plan.model_outputs[0], 1);
    EXPECT_STREQ(tigris_model_name(&plan), "float_conv");
    EXPECT_EQ(plan.scheduled_peak, 0u);
    EXPECT_EQ(plan.tile_plans_v11, nullptr);
}
