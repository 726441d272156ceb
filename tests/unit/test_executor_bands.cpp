// test_executor_bands.cpp - the standalone banded paths of §2.7.2-§2.7.7
// compute what the same stage computes run whole, with expected values
// derived here from each op's definition, and count what §1.11 says.
#include "test_executor_harness.h"

using namespace tigris_exec_test;
using tigris_test::PlanBuilder;

namespace {

// x[1,6,4,3] -> GlobalAveragePool -> y[1,1,1,3], one stage with a height record.
PlanBuilder global_avg_plan() {
    PlanBuilder b(9);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 6, 4, 3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 1, 1, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_GLOBAL_AVG, {x}, {y}, "gap");
    uint16_t s = b.add_stage({op}, {x}, {y});
    b.stages[s].tile = b.add_tile(PlanBuilder::stripe_tile(2, 6, 0, 1));
    return b;
}

std::vector<float> channel_means(const std::vector<float> &x, int hw, int c) {
    std::vector<float> m(c);
    for (int ch = 0; ch < c; ++ch) {
        double s = 0;
        for (int i = 0; i < hw; ++i) s += x[(size_t)i * c + ch];
        m[ch] = (float)(s / hw);
    }
    return m;
}

TEST(ExecutorBands, ByInputMatchesWholeGlobalAverage) {
    PlanBuilder b = global_avg_plan();
    auto x = pattern(72);
    auto want = channel_means(x, 24, 3);
    // 4096: run whole; 160 and 224: the 288-byte input cannot be held, so rows are walked.
    for (uint32_t fast : {4096u, 224u, 160u}) {
        Harness h;
        ASSERT_TRUE(h.load(b.build(), fast, 4096));
        h.write_f32(0, x);
        ASSERT_EQ(h.run(), TIGRIS_EXEC_OK) << fast;
        EXPECT_LE(max_diff(h.read_f32(1), want), 1e-6f) << fast;
        EXPECT_LE(h.mem.fast_peak, fast);
        EXPECT_LE(h.mem.fast_peak, tigris_fast_arena_required(&h.plan));
        EXPECT_EQ(h.mem.fast_used, h.mem.fast_reserved);
        if (fast == 4096) {
            EXPECT_EQ(h.stats.stages_normal, 1);
            EXPECT_EQ(h.stats.total_tiles, 0u);
        } else {
            EXPECT_EQ(h.stats.stages_tiled, 1);
            EXPECT_EQ(h.stats.stages_normal, 0);
            EXPECT_GT(h.stats.total_tiles, 1u);
            EXPECT_EQ(h.stats.loads_bytes, 288u);  // every input row read exactly once
            EXPECT_EQ(h.stats.spills_bytes, 12u);  // the output once, after the last band
        }
    }
}

}  // namespace
