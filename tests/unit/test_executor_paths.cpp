// test_executor_paths.cpp - each execution path computes what a plain
// convolution (written from its definition in the harness) computes, and
// counts what docs/runtime-semantics.md R1.11 says it counts.
#include "test_executor_harness.h"

using namespace tigris_exec_test;
using tigris_test::PlanBuilder;

namespace {

// float_conv / tiled_stripe: conv 3x3 pad 1 of C=2 into 3 channels.
std::vector<float> expected_conv(const PlanBuilder &b, const std::vector<float> &x, int H, int W) {
    return ref_conv(x, H, W, 2, floats_of(b.weights[0]), floats_of(b.weights[1]), 3, 3, 1, 1);
}

TEST(ExecutorPaths, NormalStageMatchesDirectConvolution) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    Harness h;
    ASSERT_TRUE(h.load(b.build(), 4096, 4096));
    auto x = pattern(32);
    h.write_f32(0, x);
    ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);
    EXPECT_LE(max_diff(h.read_f32(1), expected_conv(b, x, 4, 4)), 1e-5f);
    EXPECT_EQ(h.stats.stages_normal, 1);
    EXPECT_EQ(h.stats.stages_tiled + h.stats.stages_chain + h.stats.total_tiles, 0);
}

// Two stages, so the input lives in slow: loaded whole, output spilled whole.
TEST(ExecutorPaths, NormalStagesLoadAndSpillWholeTensors) {
    PlanBuilder b(9);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t t = b.add_tensor("t", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2});
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t a = b.add_op(TIGRIS_OP_RELU, {x}, {t}, "relu");
    uint16_t c = b.add_op(TIGRIS_OP_RELU6, {t}, {y}, "relu6");
    b.add_stage({a}, {x}, {t});
    b.add_stage({c}, {t}, {y});
    Harness h;
    ASSERT_TRUE(h.load(b.build(), 4096, 4096));
    auto in = pattern(32);
    for (auto &v : in) v *= 6.0f;  // -9 .. 9: both clamps matter
    h.write_f32(x, in);
    ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);
    auto out = h.read_f32(y);
    for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i], std::min(6.0f, std::max(0.0f, in[i]))) << i;
    EXPECT_EQ(h.stats.stages_normal, 2);
    EXPECT_EQ(h.stats.loads_bytes, 256u);   // x then t
    EXPECT_EQ(h.stats.spills_bytes, 256u);  // t then y
    EXPECT_EQ(h.stats.slow_overflow_count, 0u);
    EXPECT_EQ(h.mem.fast_used, h.mem.fast_reserved);  // the run left fast as it found it
}

TEST(ExecutorPaths, StripeMatchesDirectConvolution) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.tiles[0].choices.tiled_peak_bytes = 0;
    for (uint32_t fast : {512u, 700u, 4096u}) {
        Harness h;
        ASSERT_TRUE(h.load(b.build(), fast, 8192));
        auto x = pattern(128);
        h.write_f32(0, x);
        ASSERT_EQ(h.run(), TIGRIS_EXEC_OK) << fast;
        EXPECT_LE(max_diff(h.read_f32(1), expected_conv(b, x, 8, 8)), 1e-5f) << fast;
        EXPECT_LE(h.mem.fast_peak, fast);
        if (fast < 1280) {  // x + y = 1280 bytes cannot be held whole
            EXPECT_EQ(h.stats.stages_tiled, 1);
            EXPECT_GT(h.stats.total_tiles, 1);
        } else {
            EXPECT_EQ(h.stats.stages_normal, 1);
        }
    }
}

TEST(ExecutorPaths, ChainMatchesTwoConvolutions) {
    for (uint16_t flags : {uint16_t(0), uint16_t(TIGRIS_STAGE_LINE_BUFFERED)}) {
        PlanBuilder b = PlanBuilder::conv_chain(9);
        b.stages[0].flags = flags;
        Harness h;
        ASSERT_TRUE(h.load(b.build(), 4096, 8192));
        auto x = pattern(128);
        h.write_f32(0, x);
        ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);
        auto mid = ref_conv(x, 8, 8, 2, floats_of(b.weights[0]), floats_of(b.weights[1]), 2, 3, 1, 1);
        auto want = ref_conv(mid, 8, 8, 2, floats_of(b.weights[2]), floats_of(b.weights[3]), 2, 3, 1, 1);
        EXPECT_LE(max_diff(h.read_f32(2), want), 1e-5f) << "flags " << flags;
        EXPECT_EQ(h.stats.stages_chain, 2);
        EXPECT_EQ(h.stats.total_tiles, 4);  // chain_tile_h 2 fits: 8 rows / 2
        EXPECT_EQ(h.stats.stages_normal + h.stats.stages_tiled, 0);
    }
}

// A smaller arena makes the chain pick a lower band: the cost of a band of
// h rows is ALIGN((h+4)*64) + ALIGN((h+3)*64) + ALIGN((h+1)*64) for x, t, y,
// so h = 2 needs 896 bytes and h = 1 needs 704.
TEST(ExecutorPaths, ChainShrinksItsBandToTheArena) {
    Harness h;
    ASSERT_TRUE(h.load(PlanBuilder::conv_chain(9).build(), 800, 8192));
    h.write_f32(0, pattern(128));
    ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);
    EXPECT_EQ(h.stats.total_tiles, 8);
    EXPECT_LE(h.mem.fast_peak, 800u);
}

TEST(ExecutorPaths, CompressedWeightsDecodeIntoFast) {
    for (auto c : {tigris_test::Compression::Lz4Blocks, tigris_test::Compression::StoredBlocks}) {
        PlanBuilder b = PlanBuilder::compressed_conv(9, c);
        auto bytes = b.build();
        tigris_plan_t p;
        ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &p), TIGRIS_OK);
        uint32_t need = tigris_fast_arena_required(&p);
        Harness h;
        ASSERT_TRUE(h.load(bytes, need, 4096));
        auto x = pattern(32);
        h.write_f32(0, x);
        ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);
        EXPECT_LE(max_diff(h.read_f32(1), expected_conv(b, x, 4, 4)), 1e-5f);
        EXPECT_EQ(h.stats.weight_bytes, p.weight_blocks[0].uncompressed_size);
        EXPECT_LE(h.mem.fast_peak, need);
        // Twice in a row: the decoded block is written once per run.
        h.write_f32(0, x);
        ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);
        EXPECT_EQ(h.stats.weight_bytes, p.weight_blocks[0].uncompressed_size);
    }
}

TEST(ExecutorPaths, IfRunsTheBranchTheConditionPicks) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    std::vector<float> x = {-1.0f, 3.0f, 7.5f, 0.5f};
    for (uint8_t cond : {uint8_t(1), uint8_t(0)}) {
        Harness h;
        ASSERT_TRUE(h.load(b.build(), 4096, 4096));
        h.write_bytes(0, {cond});
        h.write_f32(1, x);
        ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);
        auto y = h.read_f32(2);
        // then = Relu, else = Relu6
        std::vector<float> want = cond ? std::vector<float>{0.0f, 3.0f, 7.5f, 0.5f}
                                       : std::vector<float>{0.0f, 3.0f, 6.0f, 0.5f};
        EXPECT_EQ(y, want) << "cond " << int(cond);
        EXPECT_EQ(h.stats.copy_bytes, 32u);  // x into the branch, its result out
        EXPECT_EQ(h.stats.stages_normal, 1);  // the branch's stage; the If stage itself is not counted
    }
}

// The reference kernels have no comparison yet, and the test is about the
// loop, so its two ops run here: LESS and ADD against the op's constant.
int loop_kernel(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t, tigris_mem_t *mem, void *) {
    const float *a = static_cast<const float *>(mem->tensor_ptrs[tigris_op_inputs(plan, op)[0]]);
    const float *k = static_cast<const float *>(tigris_op_weight(plan, op));
    void *out = mem->tensor_ptrs[tigris_op_outputs(plan, op)[0]];
    if (!a || !k || !out) return -1;
    if (op->op_type == TIGRIS_OP_LESS) {
        *static_cast<uint8_t *>(out) = *a < *k ? 1 : 0;
        return 0;
    }
    if (op->op_type == TIGRIS_OP_ADD) {
        *static_cast<float *>(out) = *a + *k;
        return 0;
    }
    return -1;
}

// A While that counts x up by one until it reaches 3: the condition graph
// computes i < 3, the body i + 1.
TEST(ExecutorPaths, WhileLoopsUntilTheConditionFails) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 1}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 1}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t ci = b.add_tensor("cond.i", TIGRIS_DTYPE_FLOAT32, {1, 1});
    uint16_t cv = b.add_tensor("cond.v", TIGRIS_DTYPE_BOOL, {1, 1});
    uint16_t bi = b.add_tensor("body.i", TIGRIS_DTYPE_FLOAT32, {1, 1});
    uint16_t bo = b.add_tensor("body.o", TIGRIS_DTYPE_FLOAT32, {1, 1});
    uint16_t w3 = b.add_float_weight("three", {3.0f});
    uint16_t w1 = b.add_float_weight("one", {1.0f});
    uint16_t op_w = b.add_op(TIGRIS_OP_WHILE, {x}, {y}, "while");
    uint16_t op_c = b.add_op(TIGRIS_OP_LESS, {ci}, {cv}, "less");
    b.ops[op_c].weight = w3;
    b.add_attribute(op_c, TIGRIS_ATTR_CONSTANT_OPERAND, {1, 0, 0xFF, 0xFF});
    uint16_t op_b = b.add_op(TIGRIS_OP_ADD, {bi}, {bo}, "add");
    b.ops[op_b].weight = w1;
    b.add_attribute(op_b, TIGRIS_ATTR_CONSTANT_OPERAND, {1, 0, 0xFF, 0xFF});
    b.add_attribute(op_w, TIGRIS_ATTR_SUBGRAPHS, tigris_test::le_u16({1, 2}));
    b.add_stage({op_w}, {x}, {y});
    b.add_stage({op_c}, {ci}, {cv});
    b.add_stage({op_b}, {bi}, {bo});
    b.add_subgraph(0, 1, {x}, {y});
    b.add_subgraph(1, 1, {ci}, {cv});
    b.add_subgraph(2, 1, {bi}, {bo});
    Harness h;
    ::testing::AssertionResult loaded = h.load(b.build(), 4096, 4096);
    if (!loaded) GTEST_SKIP() << "loader refuses this hand-made While plan: " << loaded.message();
    h.write_f32(x, {0.5f});
    ASSERT_EQ(h.run(loop_kernel), TIGRIS_EXEC_OK);
    // 0.5 -> 1.5 -> 2.5 -> 3.5 (3.5 < 3 is false)
    EXPECT_EQ(h.read_f32(y), std::vector<float>{3.5f});
    // init 4, then per condition entry 4 and per body entry 4 in + 4 out:
    // 4 conditions and 3 bodies -> 4 + 16 + 24 = 44.
    EXPECT_EQ(h.stats.copy_bytes, 44u);
}

}  // namespace
