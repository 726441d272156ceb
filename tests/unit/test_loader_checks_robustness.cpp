// Hostile-plan robustness of the loader: every truncation and every single-bit
// flip of small valid plans is either refused with a loader error code or
// loads; it never crashes or reads outside the buffer (run under the ASan
// build: load_plan copies each plan into an allocation of exactly its size).
#include <gtest/gtest.h>

#include <functional>

#include "plan_builder.h"

using namespace tigris_test;

namespace {

struct Sample {
    const char *name;
    std::function<PlanBuilder()> make;
};

const Sample kSamples[] = {
    {"minimal_float v9", [] { return PlanBuilder::minimal_float(9); }},
    {"int8_conv v11", [] { return PlanBuilder::int8_conv(11); }},
    {"tiled_stripe v11", [] { return PlanBuilder::tiled_stripe(11); }},
    {"lz4 chain v11",
     [] {
         PlanBuilder b = PlanBuilder::conv_chain(11);
         b.compression = Compression::Lz4Blocks;
         return b;
     }},
    {"state_add v10", [] { return PlanBuilder::state_add(10); }},
    {"if_subgraphs v10", [] { return PlanBuilder::if_subgraphs(10); }},
    {"tile v10 flag",
     [] {
         PlanBuilder b = PlanBuilder::tiled_stripe(10);
         b.flags |= TIGRIS_FLAG_TILE_V10;
         return b;
     }},
};

bool is_loader_error(tigris_error_t e) { return e <= TIGRIS_ERR_NULL && e >= TIGRIS_ERR_TILE_BAND; }

}  // namespace

// Every prefix: the buffer no longer matches its stated size.
TEST(LoaderRobustness, TruncatedPrefixesAreRefused) {
    for (const Sample &s : kSamples) {
        std::vector<uint8_t> bytes = s.make().build();
        SCOPED_TRACE(s.name);
        for (size_t n = 0; n < bytes.size(); ++n) {
            std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
            const tigris_error_t want = n < TIGRIS_HEADER_SIZE ? TIGRIS_ERR_TOO_SMALL : TIGRIS_ERR_BAD_SIZE;
            ASSERT_EQ(err_name(load_plan(cut)), err_name(want)) << "prefix " << n;
        }
    }
}

// Every prefix with file_size rewritten to match: the cut reaches the section
// checks. The last section of each sample is fully used, so a cut always
// removes something the plan needs.
TEST(LoaderRobustness, TruncatedPlansWithMatchingSizeAreRefused) {
    for (const Sample &s : kSamples) {
        std::vector<uint8_t> bytes = s.make().build();
        SCOPED_TRACE(s.name);
        for (size_t n = TIGRIS_HEADER_SIZE; n < bytes.size(); ++n) {
            std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
            put_u32(cut, 8, (uint32_t)n);
            const tigris_error_t e = load_plan(cut);
            ASSERT_NE(e, TIGRIS_OK) << "prefix " << n << " loaded";
            ASSERT_TRUE(is_loader_error(e)) << "prefix " << n << ": " << err_name(e);
        }
    }
}

TEST(LoaderRobustness, SingleBitFlipsNeverCrash) {
    for (const Sample &s : kSamples) {
        const std::vector<uint8_t> bytes = s.make().build();
        SCOPED_TRACE(s.name);
        size_t refused = 0;
        std::vector<uint8_t> m = bytes;
        for (size_t i = 0; i < bytes.size(); ++i) {
            for (int bit = 0; bit < 8; ++bit) {
                m[i] = (uint8_t)(bytes[i] ^ (1u << bit));
                const tigris_error_t e = load_plan(m);
                ASSERT_TRUE(e == TIGRIS_OK || is_loader_error(e)) << "byte " << i << " bit " << bit;
                refused += e != TIGRIS_OK;
            }
            m[i] = bytes[i];
        }
        // The header, directory and tables are dense: most flips must be caught.
        EXPECT_GT(refused, bytes.size() * 8 / 4);
    }
}

// A few targeted multi-byte corruptions of counts and offsets at their extremes.
TEST(LoaderRobustness, ExtremeFieldValuesNeverCrash) {
    for (const Sample &s : kSamples) {
        PlanBuilder b = s.make();
        const std::vector<uint8_t> bytes = b.build();
        const Layout &L = b.layout();
        SCOPED_TRACE(s.name);
        std::vector<size_t> u16_fields = {16, 18, 20, 22, 36, 40, 42};
        std::vector<size_t> u32_fields = {12, 32};
        for (size_t i = 0; i < 2; ++i) {
            u16_fields.push_back(L.op(0) + 8 + 2 * i);
            u16_fields.push_back(L.stage(0) + 4 + 4 * i);
            u32_fields.push_back(L.tensor(i));
        }
        for (size_t k = 0; k < L.directory.size(); ++k) u32_fields.push_back(L.dir_off + 8 * k + 4);
        for (size_t f : u16_fields)
            for (uint16_t v : {(uint16_t)0, (uint16_t)1, (uint16_t)0x7FFF, (uint16_t)0xFFFE, (uint16_t)0xFFFF}) {
                std::vector<uint8_t> m = bytes;
                put_u16(m, f, v);
                const tigris_error_t e = load_plan(m);
                ASSERT_TRUE(e == TIGRIS_OK || is_loader_error(e)) << "u16 at " << f << " = " << v;
            }
        for (size_t f : u32_fields)
            for (uint32_t v : {0u, 1u, 0x7FFFFFFFu, 0xFFFFFFF0u, 0xFFFFFFFFu}) {
                std::vector<uint8_t> m = bytes;
                put_u32(m, f, v);
                const tigris_error_t e = load_plan(m);
                ASSERT_TRUE(e == TIGRIS_OK || is_loader_error(e)) << "u32 at " << f << " = " << v;
            }
    }
}
