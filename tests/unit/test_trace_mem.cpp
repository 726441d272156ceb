// Trace events the memory manager emits (docs/runtime-semantics.md R3): ALLOC, LOAD,
// SPILL, MOVE and RESET, with every field checked against values worked out
// by hand from the allocation sequence of each test.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "test_mem_plan.h"

extern "C" {
#include "tigris_executor.h"
#include "../../core/src/trace_internal.h"
}

using namespace tigris_mem_test;

#ifdef TIGRIS_TRACE

namespace {

struct Rec {
    std::vector<tigris_trace_event_t> ev;
    static void cb(const tigris_trace_event_t *e, void *ctx) { static_cast<Rec *>(ctx)->ev.push_back(*e); }
};

struct TFix {
    std::vector<uint8_t> fast_store, slow_store;
    uint8_t *fast, *slow;
    std::vector<void *> ptrs;
    tigris_mem_t mem{};
    tigris_exec_stats_t stats{};
    Rec rec;
    TFix(uint16_t n, uint32_t fsz, uint32_t ssz) : fast_store(fsz + 64), slow_store(ssz + 64), ptrs(n) {
        fast = align(fast_store.data());
        slow = align(slow_store.data());
        EXPECT_EQ(tigris_mem_init(&mem, ptrs.data(), n, fast, fsz, slow, ssz), TIGRIS_MEM_OK);
        mem.stats = &stats;
        tigris_mem_set_trace(&mem, Rec::cb, &rec);
    }
    static uint8_t *align(uint8_t *p) {
        return reinterpret_cast<uint8_t *>((reinterpret_cast<uintptr_t>(p) + 63) & ~uintptr_t(63));
    }
};

void expect_event(const tigris_trace_event_t &e, uint8_t kind, uint8_t pool, uint16_t tensor, uint32_t offset,
                  uint32_t src, uint32_t bytes, int32_t r0, int32_t r1, int32_t c0, int32_t c1, uint32_t fast_used,
                  uint32_t slow_used) {
    EXPECT_EQ(e.kind, kind);
    EXPECT_EQ(e.pool, pool);
    EXPECT_EQ(e.tensor, tensor);
    EXPECT_EQ(e.op, 0xFFFF);
    EXPECT_EQ(e.offset, offset);
    EXPECT_EQ(e.src_offset, src);
    EXPECT_EQ(e.bytes, bytes);
    EXPECT_EQ(e.row0, r0);
    EXPECT_EQ(e.row1, r1);
    EXPECT_EQ(e.col0, c0);
    EXPECT_EQ(e.col1, c1);
    EXPECT_EQ(e.fast_used, fast_used);
    EXPECT_EQ(e.slow_used, slow_used);
    EXPECT_EQ(e._pad, 0);
    EXPECT_EQ(e._pad2, 0);
}

TEST(TraceMem, InitLeavesNoStageAndNormalPath) {
    TFix f(1, kAlign, kAlign);
    EXPECT_EQ(f.mem.trace_stage, 0xFFFF);
    EXPECT_EQ(f.mem.trace_path, TIGRIS_TRACE_PATH_NORMAL);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 1), TIGRIS_MEM_OK);
    ASSERT_EQ(f.rec.ev.size(), 1u);
    EXPECT_EQ(f.rec.ev[0].stage, 0xFFFF);
    EXPECT_EQ(f.rec.ev[0].path, 0);
}

TEST(TraceMem, AllocReportsStartOffsetAlignedBytesAndLevelsAfterGrowth) {
    TFix f(3, 8 * kAlign, 8 * kAlign);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 5), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 1, kAlign + 1), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 2, 3), TIGRIS_MEM_OK);
    uint32_t off = 0;
    ASSERT_EQ(tigris__mem_bump_fast(&f.mem, 2, &off), TIGRIS_MEM_OK);
    ASSERT_EQ(f.rec.ev.size(), 4u);
    expect_event(f.rec.ev[0], TIGRIS_TRACE_ALLOC, 0, 0, 0, 0, kAlign, -1, -1, -1, -1, kAlign, 0);
    expect_event(f.rec.ev[1], TIGRIS_TRACE_ALLOC, 0, 1, kAlign, 0, 2 * kAlign, -1, -1, -1, -1, 3 * kAlign, 0);
    expect_event(f.rec.ev[2], TIGRIS_TRACE_ALLOC, 1, 2, 0, 0, kAlign, -1, -1, -1, -1, 3 * kAlign, kAlign);
    expect_event(f.rec.ev[3], TIGRIS_TRACE_ALLOC, 0, 0xFFFF, 3 * kAlign, 0, kAlign, -1, -1, -1, -1, 4 * kAlign,
                 kAlign);
}

TEST(TraceMem, FailedAllocationEmitsNothing) {
    TFix f(1, kAlign, 0);
    EXPECT_EQ(tigris__mem_alloc_fast(&f.mem, 0, kAlign + 1), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(tigris_mem_alloc_slow(&f.mem, 0, 1), TIGRIS_MEM_ERR_OOM);
    EXPECT_TRUE(f.rec.ev.empty());
}

TEST(TraceMem, EventsCarryTheCurrentStageAndPath) {
    TFix f(1, 4 * kAlign, kAlign);
    TIGRIS_TRACE_SET_STAGE(&f.mem, 7);
    TIGRIS_TRACE_SET_PATH(&f.mem, TIGRIS_TRACE_PATH_CHAIN);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 1), TIGRIS_MEM_OK);
    tigris__mem_reset_fast(&f.mem);
    ASSERT_EQ(f.rec.ev.size(), 2u);
    for (const auto &e : f.rec.ev) {
        EXPECT_EQ(e.stage, 7);
        EXPECT_EQ(e.path, TIGRIS_TRACE_PATH_CHAIN);
    }
}

TEST(TraceMem, WholeLoadAndSpillFollowTheirAlloc) {
    TFix f(2, 8 * kAlign, 8 * kAlign);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 1, 1), TIGRIS_MEM_OK);       // slow [0, A)
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 0, 40), TIGRIS_MEM_OK);      // slow [A, ...)
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 1, 1), TIGRIS_MEM_OK);      // fast [0, A)
    f.rec.ev.clear();
    ASSERT_EQ(tigris__mem_load(&f.mem, 0, 40), TIGRIS_MEM_OK);
    const uint32_t a40 = (40 + kAlign - 1) / kAlign * kAlign;
    ASSERT_EQ(f.rec.ev.size(), 2u);
    const uint32_t slow_used = kAlign + a40;
    expect_event(f.rec.ev[0], TIGRIS_TRACE_ALLOC, 0, 0, kAlign, 0, a40, -1, -1, -1, -1, kAlign + a40, slow_used);
    expect_event(f.rec.ev[1], TIGRIS_TRACE_LOAD, 0, 0, kAlign, kAlign, 40, -1, -1, -1, -1, kAlign + a40, slow_used);
    f.rec.ev.clear();
    ASSERT_EQ(tigris__mem_spill(&f.mem, 0, 40), TIGRIS_MEM_OK);
    ASSERT_EQ(f.rec.ev.size(), 2u);
    expect_event(f.rec.ev[0], TIGRIS_TRACE_ALLOC, 1, 0, slow_used, 0, a40, -1, -1, -1, -1, kAlign + a40,
                 slow_used + a40);
    expect_event(f.rec.ev[1], TIGRIS_TRACE_SPILL, 1, 0, slow_used, kAlign, 40, -1, -1, -1, -1, kAlign + a40,
                 slow_used + a40);
}

TEST(TraceMem, BandLoadAndSpillReportRowsAndBatchZeroBandStart) {
    MiniPlan mp;
    uint16_t t = mp.tensor(TIGRIS_DTYPE_INT8, {2, 6, 3, 2});  // row = 3*2 = 6 bytes, batch = 36
    const tigris_plan_t *plan = mp.get();
    TFix f(1, 8 * kAlign, 8 * kAlign);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, t, 72), TIGRIS_MEM_OK);
    uint8_t *full = static_cast<uint8_t *>(f.ptrs[t]);
    f.rec.ev.clear();
    ASSERT_EQ(tigris__mem_load_tile(&f.mem, plan, t, 2, 5), TIGRIS_MEM_OK);
    // 2 batches x 3 rows x 6 bytes = 36 bytes; source = full + 2 rows = 12.
    const uint32_t slow_used = (72 + kAlign - 1) / kAlign * kAlign;
    ASSERT_EQ(f.rec.ev.size(), 2u);
    expect_event(f.rec.ev[0], TIGRIS_TRACE_ALLOC, 0, t, 0, 0, (36 + kAlign - 1) / kAlign * kAlign, -1, -1, -1, -1,
                 (36 + kAlign - 1) / kAlign * kAlign, slow_used);
    expect_event(f.rec.ev[1], TIGRIS_TRACE_LOAD, 0, t, 0, 12, 36, 2, 5, -1, -1, (36 + kAlign - 1) / kAlign * kAlign,
                 slow_used);
    f.rec.ev.clear();
    ASSERT_EQ(tigris__mem_spill_tile(&f.mem, plan, t, full, 2, 5), TIGRIS_MEM_OK);
    ASSERT_EQ(f.rec.ev.size(), 1u);  // no allocation for a band spill
    expect_event(f.rec.ev[0], TIGRIS_TRACE_SPILL, 1, t, 12, 0, 36, 2, 5, -1, -1,
                 (36 + kAlign - 1) / kAlign * kAlign, slow_used);

    // Rectangle: rows 1..3, columns 1..3 -> 2 batches x 2 rows x 2 cols x 2 ch = 16
    // bytes; start = 1 row (6) + 1 pixel (2) = 8.
    f.rec.ev.clear();
    tigris__mem_reset_fast(&f.mem);
    ASSERT_EQ(tigris__mem_load_rect(&f.mem, plan, t, 1, 3, 1, 3), TIGRIS_MEM_OK);
    ASSERT_EQ(f.rec.ev.size(), 3u);
    expect_event(f.rec.ev[0], TIGRIS_TRACE_RESET, 0, 0xFFFF, 0, 0, 0, -1, -1, -1, -1, 0, slow_used);
    expect_event(f.rec.ev[2], TIGRIS_TRACE_LOAD, 0, t, 0, 8, 16, 1, 3, 1, 3, kAlign, slow_used);
    f.rec.ev.clear();
    ASSERT_EQ(tigris__mem_spill_rect(&f.mem, plan, t, full, 1, 3, 1, 3), TIGRIS_MEM_OK);
    ASSERT_EQ(f.rec.ev.size(), 1u);
    expect_event(f.rec.ev[0], TIGRIS_TRACE_SPILL, 1, t, 8, 0, 16, 1, 3, 1, 3, kAlign, slow_used);
}

TEST(TraceMem, ResetReportsTheNewFillLevel) {
    TFix f(2, 8 * kAlign, kAlign);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, kAlign), TIGRIS_MEM_OK);
    f.mem.fast_reserved = f.mem.fast_used;
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 1, 3 * kAlign), TIGRIS_MEM_OK);
    f.rec.ev.clear();
    tigris__mem_reset_fast(&f.mem);
    ASSERT_EQ(f.rec.ev.size(), 1u);
    expect_event(f.rec.ev[0], TIGRIS_TRACE_RESET, 0, 0xFFFF, kAlign, 0, 0, -1, -1, -1, -1, kAlign, 0);
}

TEST(TraceMem, CompactionMovesReportOldAndNewOffsetsWithPreCompactionLevels) {
    MiniPlan mp;
    mp.tensor(TIGRIS_DTYPE_INT8, {(int32_t)kAlign});
    mp.tensor(TIGRIS_DTYPE_INT8, {2 * (int32_t)kAlign});
    mp.tensor(TIGRIS_DTYPE_INT8, {(int32_t)kAlign + 3});
    mp.tensor(TIGRIS_DTYPE_INT8, {5});
    mp.tensor(TIGRIS_DTYPE_INT8, {(int32_t)kAlign + 3});  // alias of t2 (a reshape)
    const tigris_plan_t *plan = mp.get();
    TFix f(5, 16 * kAlign, kAlign);
    for (uint16_t t = 0; t < 4; t++) ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, t, mp.tensors[t].size_bytes), 0);
    // t0 [0,A) t1 [A,3A) t2 [3A,5A) t3 [5A,6A)
    f.ptrs[4] = f.ptrs[2];
    f.ptrs[1] = nullptr;
    f.rec.ev.clear();
    tigris__mem_compact_fast(&f.mem, plan);
    ASSERT_EQ(f.rec.ev.size(), 2u);
    // Owner reported is the lowest-indexed tensor at the address (t2, not t4).
    expect_event(f.rec.ev[0], TIGRIS_TRACE_MOVE, 0, 2, kAlign, 3 * kAlign, 2 * kAlign, -1, -1, -1, -1, 6 * kAlign, 0);
    expect_event(f.rec.ev[1], TIGRIS_TRACE_MOVE, 0, 3, 3 * kAlign, 5 * kAlign, kAlign, -1, -1, -1, -1, 6 * kAlign, 0);
    EXPECT_EQ(f.mem.fast_used, 4 * kAlign);
    EXPECT_EQ(f.stats.compactions, 1u);
}

TEST(TraceMem, SlowCompactionMovesAreInTheSlowPool) {
    MiniPlan mp;
    mp.tensor(TIGRIS_DTYPE_INT8, {3});
    mp.tensor(TIGRIS_DTYPE_INT8, {3});
    const tigris_plan_t *plan = mp.get();
    TFix f(2, kAlign, 4 * kAlign);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 0, 3), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 1, 3), TIGRIS_MEM_OK);
    f.ptrs[0] = nullptr;
    f.rec.ev.clear();
    tigris__mem_compact_slow(&f.mem, plan);
    ASSERT_EQ(f.rec.ev.size(), 1u);
    expect_event(f.rec.ev[0], TIGRIS_TRACE_MOVE, 1, 1, 0, kAlign, kAlign, -1, -1, -1, -1, 0, 2 * kAlign);
    EXPECT_EQ(f.mem.slow_used, kAlign);
}

TEST(TraceMem, SumsOfTransferEventsMatchTheStats) {
    MiniPlan mp;
    uint16_t a = mp.tensor(TIGRIS_DTYPE_INT8, {1, 8, 4, 3});
    uint16_t b = mp.tensor(TIGRIS_DTYPE_FLOAT32, {10});
    const tigris_plan_t *plan = mp.get();
    TFix f(2, 64 * kAlign, 64 * kAlign);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, a, 96), 0);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, b, 40), 0);
    uint8_t *full = static_cast<uint8_t *>(f.ptrs[a]);
    ASSERT_EQ(tigris__mem_load(&f.mem, b, 40), 0);
    ASSERT_EQ(tigris__mem_spill(&f.mem, b, 40), 0);
    for (int32_t h = 0; h < 8; h += 3) {
        int32_t h1 = h + 3 > 8 ? 8 : h + 3;
        f.ptrs[a] = full;
        ASSERT_EQ(tigris__mem_load_tile(&f.mem, plan, a, h, h1), 0);
        ASSERT_EQ(tigris__mem_spill_tile(&f.mem, plan, a, full, h, h1), 0);
    }
    ASSERT_EQ(tigris__mem_load_rect(&f.mem, plan, a, 0, 2, 1, 4), 0);
    uint32_t loads = 0, spills = 0, max_fast = 0, max_slow = 0;
    for (const auto &e : f.rec.ev) {
        if (e.kind == TIGRIS_TRACE_LOAD) loads += e.bytes;
        if (e.kind == TIGRIS_TRACE_SPILL) spills += e.bytes;
        max_fast = std::max(max_fast, e.fast_used);
        max_slow = std::max(max_slow, e.slow_used);
    }
    // By hand: 40 + (36+36+24) + rect 2 rows x 3 cols x 3 ch = 18 -> 154 loaded;
    // 40 + 96 spilled.
    EXPECT_EQ(f.stats.loads_bytes, 154u);
    EXPECT_EQ(f.stats.spills_bytes, 136u);
    EXPECT_EQ(loads, f.stats.loads_bytes);
    EXPECT_EQ(spills, f.stats.spills_bytes);
    EXPECT_EQ(max_fast, f.mem.fast_peak);
    EXPECT_EQ(max_slow, f.mem.slow_peak);
}

TEST(TraceMem, RemovingTheCallbackStopsReporting) {
    TFix f(1, 4 * kAlign, kAlign);
    tigris_mem_set_trace(&f.mem, nullptr, &f.rec);
    EXPECT_EQ(f.mem.trace_fn, nullptr);
    EXPECT_EQ(f.mem.trace_ctx, nullptr);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 1), TIGRIS_MEM_OK);
    tigris__mem_reset_fast(&f.mem);
    EXPECT_TRUE(f.rec.ev.empty());
    tigris_mem_set_trace(nullptr, Rec::cb, &f.rec);  // tolerated
}

TEST(TraceMem, InitClearsAnInstalledCallback) {
    TFix f(1, 4 * kAlign, kAlign);
    ASSERT_EQ(tigris_mem_init(&f.mem, f.ptrs.data(), 1, f.fast, 4 * kAlign, f.slow, kAlign), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 1), TIGRIS_MEM_OK);
    EXPECT_TRUE(f.rec.ev.empty());
}

}  // namespace

#else
TEST(TraceMem, SetTraceIsInertWithoutTrace) {
    tigris_mem_set_trace(nullptr, nullptr, nullptr);
    SUCCEED() << "built without TIGRIS_TRACE";
}
#endif
