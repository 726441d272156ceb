// test_executor_errors.cpp - every executor error code, each provoked by the
// one condition docs/runtime-semantics.md R2.1 / R2.13 names for it.
#include "test_executor_harness.h"

#include <set>
#include <string>

using namespace tigris_exec_test;
using tigris_test::PlanBuilder;

namespace {

int failing_kernel(const tigris_plan_t *, const tigris_op_t *, uint16_t, tigris_mem_t *, void *) { return -1; }

struct CountCtx {
    int calls = 0;
};
int counting_kernel(const tigris_plan_t *p, const tigris_op_t *op, uint16_t i, tigris_mem_t *m, void *ctx) {
    static_cast<CountCtx *>(ctx)->calls++;
    return tigris_dispatch_kernel(p, op, i, m, nullptr);
}

TEST(ExecutorErrors, NullArgumentsAndHeader) {
    Harness h;
    ASSERT_TRUE(h.load(PlanBuilder::minimal_float().build(), 4096, 4096));
    h.write_f32(0, pattern(32));
    EXPECT_EQ(tigris_run_with_workspace_buffer(nullptr, &h.mem, tigris_dispatch_kernel, nullptr, nullptr,
                                               h.ws.data(), h.ws.size()),
              TIGRIS_EXEC_ERR_NULL);
    EXPECT_EQ(tigris_run_with_workspace_buffer(&h.plan, nullptr, tigris_dispatch_kernel, nullptr, nullptr,
                                               h.ws.data(), h.ws.size()),
              TIGRIS_EXEC_ERR_NULL);
    EXPECT_EQ(tigris_run_with_workspace_buffer(&h.plan, &h.mem, nullptr, nullptr, nullptr, h.ws.data(), h.ws.size()),
              TIGRIS_EXEC_ERR_NULL);
    tigris_plan_t no_header = h.plan;
    no_header.header = nullptr;
    EXPECT_EQ(tigris_run_with_workspace_buffer(&no_header, &h.mem, tigris_dispatch_kernel, nullptr, nullptr,
                                               h.ws.data(), h.ws.size()),
              TIGRIS_EXEC_ERR_NULL);
    // NULL comes before a missing workspace in the check order.
    EXPECT_EQ(tigris_run_with_workspace_buffer(nullptr, &h.mem, tigris_dispatch_kernel, nullptr, nullptr, nullptr, 0),
              TIGRIS_EXEC_ERR_NULL);
    EXPECT_EQ(h.run(), TIGRIS_EXEC_OK);
}

TEST(ExecutorErrors, WorkspaceMissingOrTooSmall) {
    Harness h;
    ASSERT_TRUE(h.load(PlanBuilder::minimal_float().build(), 4096, 4096));
    h.write_f32(0, pattern(32));
    EXPECT_EQ(tigris_run_with_workspace_buffer(&h.plan, &h.mem, tigris_dispatch_kernel, nullptr, nullptr, nullptr,
                                               h.ws.size()),
              TIGRIS_EXEC_ERR_WORKSPACE);
    EXPECT_EQ(tigris_run_with_workspace_buffer(&h.plan, &h.mem, tigris_dispatch_kernel, nullptr, nullptr,
                                               h.ws.data(), h.ws.size() - 1),
              TIGRIS_EXEC_ERR_WORKSPACE);
    EXPECT_EQ(tigris_run_with_workspace(&h.plan, &h.mem, tigris_dispatch_kernel, nullptr, nullptr, nullptr),
              TIGRIS_EXEC_ERR_WORKSPACE);
    // Exactly the required size works from any start address.
    std::vector<uint8_t> odd(h.ws.size() + 7);
    for (size_t shift = 0; shift < 8; ++shift) {
        EXPECT_EQ(tigris_run_with_workspace_buffer(&h.plan, &h.mem, tigris_dispatch_kernel, nullptr, nullptr,
                                                   odd.data() + shift, h.ws.size()),
                  TIGRIS_EXEC_OK)
            << "shift " << shift;
    }
    EXPECT_EQ(tigris_executor_workspace_size(), sizeof(tigris_executor_workspace_t));
    static tigris_executor_workspace_t fixed;
    EXPECT_EQ(tigris_run_with_workspace(&h.plan, &h.mem, tigris_dispatch_kernel, nullptr, nullptr, &fixed),
              TIGRIS_EXEC_OK);
#if TIGRIS_ENABLE_DEFAULT_EXECUTOR_WORKSPACE
    EXPECT_EQ(tigris_run(&h.plan, &h.mem, tigris_dispatch_kernel, nullptr, nullptr), TIGRIS_EXEC_OK);
#else
    EXPECT_EQ(tigris_run(&h.plan, &h.mem, tigris_dispatch_kernel, nullptr, nullptr), TIGRIS_EXEC_ERR_WORKSPACE);
#endif
}

TEST(ExecutorErrors, NoStages) {
    Harness h;
    ASSERT_TRUE(h.load(PlanBuilder::minimal_float().build(), 4096, 4096));
    tigris_file_header_t hdr = *h.plan.header;
    hdr.num_stages = 0;
    tigris_plan_t p = h.plan;
    p.header = &hdr;
    EXPECT_EQ(tigris_run_with_workspace_buffer(&p, &h.mem, tigris_dispatch_kernel, nullptr, nullptr, h.ws.data(),
                                               h.ws.size()),
              TIGRIS_EXEC_ERR_NO_STAGES);
    tigris_plan_t q = h.plan;
    q.stages = nullptr;
    EXPECT_EQ(tigris_run_with_workspace_buffer(&q, &h.mem, tigris_dispatch_kernel, nullptr, nullptr, h.ws.data(),
                                               h.ws.size()),
              TIGRIS_EXEC_ERR_NO_STAGES);
}

TEST(ExecutorErrors, InconsistentCallerFastState) {
    Harness h;
    ASSERT_TRUE(h.load(PlanBuilder::minimal_float().build(), 4096, 4096));
    h.write_f32(0, pattern(32));
    tigris_mem_t saved = h.mem;
    h.mem.fast_used = h.mem.fast_size + 1;
    EXPECT_EQ(h.run(), TIGRIS_EXEC_ERR_MEM);
    h.mem = saved;
    h.mem.fast_reserved = h.mem.fast_used + 32;
    EXPECT_EQ(h.run(), TIGRIS_EXEC_ERR_MEM);
    h.mem = saved;
    EXPECT_EQ(h.run(), TIGRIS_EXEC_OK);
}

// Schema 11: the arena above the floor must hold fast_arena_required, and a
// refused run leaves mem exactly as it was.
TEST(ExecutorErrors, UpFrontArenaCheckLeavesMemUnchanged) {
    auto bytes = PlanBuilder::float_conv(11).build();
    tigris_plan_t p;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &p), TIGRIS_OK);
    uint32_t need = tigris_fast_arena_required(&p);
    ASSERT_GT(need, 0u);
    // The input is read in place (single stage, no tiling): it sits in fast,
    // so the floor is below it and the arena must still hold `need`.
    Harness small;
    ASSERT_TRUE(small.load(bytes, need - 32, 1 << 16));
    auto x = pattern(32);
    ASSERT_EQ(tigris_input_write(&small.plan, &small.mem, 0, x.data(), 128), TIGRIS_OK);
    tigris_mem_t before = small.mem;
    std::vector<void *> ptrs_before = small.ptrs;
    EXPECT_EQ(small.run(), TIGRIS_EXEC_ERR_MEM);
    EXPECT_EQ(std::memcmp(&before, &small.mem, sizeof before), 0);
    EXPECT_EQ(ptrs_before, small.ptrs);
    Harness enough;
    ASSERT_TRUE(enough.load(bytes, need, 1 << 16));
    enough.write_f32(0, x);
    EXPECT_EQ(enough.run(), TIGRIS_EXEC_OK);
    EXPECT_LE(enough.mem.fast_peak, need);
}

// x[4,8] -> Relu -> t -> Relu -> y, one stage each: rank 2, so no stage
// bands, two stages, so the input is not read in place, and only the normal
// path's overflow ladder (docs/runtime-semantics.md R1.9) can place what does not fit.
PlanBuilder relu_matrix_pair() {
    PlanBuilder b(9);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {4, 8}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t t = b.add_tensor("t", TIGRIS_DTYPE_FLOAT32, {4, 8});
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {4, 8}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op0 = b.add_op(TIGRIS_OP_RELU, {x}, {t}, "relu0");
    uint16_t op1 = b.add_op(TIGRIS_OP_RELU, {t}, {y}, "relu1");
    b.add_stage({op0}, {x}, {t});
    b.add_stage({op1}, {t}, {y});
    return b;
}

TEST(ExecutorErrors, NormalStageOverflowsThenFailsWithMem) {
    auto bytes = relu_matrix_pair().build();
    auto x = pattern(32);
    Harness h;
    // Each stage loads its 128-byte input; its 128-byte output does not fit
    // beside it in 200 bytes, so both outputs overflow to slow.
    ASSERT_TRUE(h.load(bytes, 200, 1024));
    h.write_f32(0, x);
    EXPECT_EQ(h.run(), TIGRIS_EXEC_OK);
    EXPECT_EQ(h.stats.stages_normal, 2);
    EXPECT_EQ(h.stats.slow_overflow_count, 2u);
    EXPECT_EQ(h.stats.slow_overflow_bytes, 256u);
    // Per stage: the fast retry, then the slow sweep after its input dies.
    EXPECT_EQ(h.stats.compactions, 4u);
    EXPECT_EQ(h.stats.loads_bytes, 256u);
    EXPECT_EQ(h.stats.spills_bytes, 0u);  // outputs already live in slow
    auto y = h.read_f32(2);
    for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(y[i], x[i] > 0 ? x[i] : 0.0f) << i;

    Harness tight;
    ASSERT_TRUE(tight.load(bytes, 200, 128 + 32));  // slow holds x only
    tight.write_f32(0, x);
    EXPECT_EQ(tight.run(), TIGRIS_EXEC_ERR_MEM);

    Harness no_fast;  // the input itself cannot be loaded
    ASSERT_TRUE(no_fast.load(bytes, 64, 4096));
    no_fast.write_f32(0, x);
    EXPECT_EQ(no_fast.run(), TIGRIS_EXEC_ERR_MEM);
}

TEST(ExecutorErrors, KernelFailure) {
    Harness h;
    ASSERT_TRUE(h.load(PlanBuilder::minimal_float().build(), 4096, 4096));
    h.write_f32(0, pattern(32));
    EXPECT_EQ(h.run(failing_kernel), TIGRIS_EXEC_ERR_KERNEL);
    CountCtx c;
    EXPECT_EQ(h.run(counting_kernel, &c), TIGRIS_EXEC_OK);
    EXPECT_EQ(c.calls, 1);
}

// A stage that needs tiling and has a tile record the executor cannot use
// fails closed instead of running whole. The loader refuses such records,
// so the record is swapped in the loaded plan, as memory corruption or a
// hand-built plan struct would.
TEST(ExecutorErrors, UnusableTileRecordFailsClosed) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.tiles[0].choices.tiled_peak_bytes = 0;
    Harness h;
    ASSERT_TRUE(h.load(b.build(), 512, 8192));  // x 512 B + y 768 B cannot be whole in 512
    h.write_f32(0, pattern(128));
    ASSERT_NE(h.plan.tile_plans, nullptr);
    tigris_tile_plan_t bad[1];
    for (uint8_t axis : {uint8_t(TIGRIS_TILE_AXIS_WIDTH), uint8_t(TIGRIS_TILE_AXIS_NONE)}) {
        std::memcpy(bad, h.plan.tile_plans, sizeof bad);
        bad[0].axis = axis;
        tigris_plan_t p = h.plan;
        p.tile_plans = bad;
        EXPECT_EQ(tigris_run_with_workspace_buffer(&p, &h.mem, tigris_dispatch_kernel, nullptr, &h.stats,
                                                   h.ws.data(), h.ws.size()),
                  TIGRIS_EXEC_ERR_TILE)
            << "axis " << int(axis);
        EXPECT_EQ(h.stats.stages_normal + h.stats.stages_tiled, 0);
    }
    // A record saying "untileable" is usable: the stage must run whole, and
    // whole it does not fit, which is arena exhaustion (ERR_MEM), not a
    // tiling fault. Nothing runs either way.
    std::memcpy(bad, h.plan.tile_plans, sizeof bad);
    bad[0].tileable = 0;
    tigris_plan_t p = h.plan;
    p.tile_plans = bad;
    EXPECT_EQ(tigris_run_with_workspace_buffer(&p, &h.mem, tigris_dispatch_kernel, nullptr, &h.stats, h.ws.data(),
                                               h.ws.size()),
              TIGRIS_EXEC_ERR_MEM);
    EXPECT_EQ(h.stats.stages_normal + h.stats.stages_tiled, 0);
    // The record as built is usable: the stage runs in stripes.
    EXPECT_EQ(h.run(), TIGRIS_EXEC_OK);
    EXPECT_EQ(h.stats.stages_tiled, 1);
}

// No band of even one output row fits the stage capacity: arena exhaustion
// (ERR_MEM) below the arena the plan declares.
TEST(ExecutorErrors, StripeWithoutAFittingBand) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.tiles[0].choices.tiled_peak_bytes = 0;
    Harness h;
    // One output row needs ALIGN(3 input rows of 64 B) + ALIGN(96 B) = 192 + 96 -> 288 with 32-byte rounding.
    ASSERT_TRUE(h.load(b.build(), 160, 8192));
    EXPECT_GT(tigris_fast_arena_required(&h.plan), 160u);
    h.write_f32(0, pattern(128));
    EXPECT_EQ(h.run(), TIGRIS_EXEC_ERR_MEM);
}

// A chain whose smallest band does not fit the arena.
TEST(ExecutorErrors, ChainWithoutAFittingBandIsMem) {
    Harness h;
    ASSERT_TRUE(h.load(PlanBuilder::conv_chain(9).build(), 256, 8192));
    h.write_f32(0, pattern(128));
    EXPECT_EQ(h.run(), TIGRIS_EXEC_ERR_MEM);
}

TEST(ExecutorErrors, StateBufferMissingOrSmall) {
    auto bytes = PlanBuilder::state_add(10).build();
    Harness h;
    ASSERT_TRUE(h.load(bytes, 4096, 4096));
    h.write_f32(0, {10, 20, 30, 40});
    EXPECT_EQ(h.run(), TIGRIS_EXEC_ERR_STATE);
    EXPECT_EQ(tigris_run(&h.plan, &h.mem, tigris_dispatch_kernel, nullptr, nullptr), TIGRIS_EXEC_ERR_STATE);
    size_t need = tigris_state_required(&h.plan);
    ASSERT_EQ(need, 16u);
    std::vector<uint8_t> state(need);
    EXPECT_EQ(tigris_state_init(nullptr, state.data(), need), TIGRIS_EXEC_ERR_NULL);
    EXPECT_EQ(tigris_state_init(&h.plan, nullptr, need), TIGRIS_EXEC_ERR_STATE);
    EXPECT_EQ(tigris_state_init(&h.plan, state.data(), need - 1), TIGRIS_EXEC_ERR_STATE);
    ASSERT_EQ(tigris_state_init(&h.plan, state.data(), need), TIGRIS_EXEC_OK);
    EXPECT_EQ(tigris_run_with_state(&h.plan, &h.mem, tigris_dispatch_kernel, nullptr, &h.stats, h.ws.data(),
                                    h.ws.size(), state.data(), need - 1),
              TIGRIS_EXEC_ERR_STATE);
    ASSERT_EQ(tigris_run_with_state(&h.plan, &h.mem, tigris_dispatch_kernel, nullptr, &h.stats, h.ws.data(),
                                    h.ws.size(), state.data(), need),
              TIGRIS_EXEC_OK);
    std::vector<float> want = {11, 22, 33, 44};  // x + initial {1,2,3,4}
    EXPECT_EQ(h.read_f32(2), want);
    EXPECT_EQ(h.stats.copy_bytes, 16u);  // state in; no output entry to write back

    // A plan without state runs with no buffer.
    Harness plain;
    ASSERT_TRUE(plain.load(PlanBuilder::minimal_float().build(), 4096, 4096));
    plain.write_f32(0, pattern(32));
    EXPECT_EQ(tigris_state_required(&plain.plan), 0u);
    EXPECT_EQ(tigris_run_with_state(&plain.plan, &plain.mem, tigris_dispatch_kernel, nullptr, nullptr,
                                    plain.ws.data(), plain.ws.size(), nullptr, 0),
              TIGRIS_EXEC_OK);
}

TEST(ExecutorErrors, EveryCodeHasItsOwnString) {
    std::set<std::string> seen;
    for (int e = 0; e >= -7; --e) {
        const char *s = tigris_exec_error_str(static_cast<tigris_exec_error_t>(e));
        ASSERT_NE(s, nullptr);
        EXPECT_GT(std::strlen(s), 0u);
        seen.insert(s);
    }
    EXPECT_EQ(seen.size(), 8u);
    EXPECT_STRNE(tigris_exec_error_str(static_cast<tigris_exec_error_t>(-99)), tigris_exec_error_str(TIGRIS_EXEC_OK));
}

}  // namespace
