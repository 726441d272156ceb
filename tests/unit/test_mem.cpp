// Memory manager: init, bump allocation, whole-tensor and band transfers,
// reset, compaction, peaks and stats (docs/runtime-semantics.md R1). Expected values
// are worked out by hand from the rules or recomputed from element
// coordinates, never read back from the code under test.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "test_mem_plan.h"

extern "C" {
#include "tigris_executor.h"
}

using namespace tigris_mem_test;

namespace {

// A buffer whose first byte sits `skew` bytes past a 64-byte boundary, so a
// test decides exactly how unaligned it is.
struct Buf {
    std::vector<uint8_t> store;
    uint8_t *p;
    Buf(uint32_t size, uint32_t skew = 0) : store(size + 128, 0xEE) {
        uintptr_t a = reinterpret_cast<uintptr_t>(store.data());
        uintptr_t up = (a + 63) & ~uintptr_t(63);
        p = reinterpret_cast<uint8_t *>(up + skew);
    }
};

struct Fixture {
    std::vector<void *> ptrs;
    Buf fast, slow;
    tigris_mem_t mem{};
    tigris_exec_stats_t stats{};
    Fixture(uint16_t n, uint32_t fast_size, uint32_t slow_size, uint32_t fskew = 0, uint32_t sskew = 0)
        : ptrs(n, nullptr), fast(fast_size, fskew), slow(slow_size, sskew) {
        EXPECT_EQ(tigris_mem_init(&mem, ptrs.data(), n, fast.p, fast_size, slow.p, slow_size), TIGRIS_MEM_OK);
        mem.stats = &stats;
    }
    uint32_t fast_off(uint16_t t) const { return (uint32_t)((uint8_t *)ptrs[t] - fast.p); }
    uint32_t slow_off(uint16_t t) const { return (uint32_t)((uint8_t *)ptrs[t] - slow.p); }
};

bool aligned(const void *p) { return reinterpret_cast<uintptr_t>(p) % kAlign == 0; }

TEST(Mem, InitAlignedBuffersStartAtZeroAndClearPointers) {
    std::vector<void *> ptrs(4, reinterpret_cast<void *>(0x1234));
    Buf fast(256), slow(512);
    tigris_mem_t mem;
    std::memset(&mem, 0x5A, sizeof mem);
    ASSERT_EQ(tigris_mem_init(&mem, ptrs.data(), 4, fast.p, 256, slow.p, 512), TIGRIS_MEM_OK);
    for (void *p : ptrs) EXPECT_EQ(p, nullptr);
    EXPECT_EQ(mem.fast_base, fast.p);
    EXPECT_EQ(mem.fast_size, 256u);
    EXPECT_EQ(mem.fast_used, 0u);
    EXPECT_EQ(mem.fast_reserved, 0u);
    EXPECT_EQ(mem.fast_peak, 0u);
    EXPECT_EQ(mem.slow_used, 0u);
    EXPECT_EQ(mem.slow_peak, 0u);
    EXPECT_EQ(mem.stats, nullptr);
    EXPECT_EQ(mem.tile.active, 0);
    EXPECT_EQ(mem.tile.reduce_acc, nullptr);
    EXPECT_EQ(mem.num_tensors, 4);
}

TEST(Mem, InitUnalignedBuffersSkipToFirstAlignedByte) {
    // 3 bytes past a boundary: the next aligned address is kAlign - 3 bytes on.
    Fixture f(2, 256, 256, 3, 1);
    EXPECT_EQ(f.mem.fast_used, kAlign - 3);
    EXPECT_EQ(f.mem.fast_reserved, kAlign - 3);
    EXPECT_EQ(f.mem.fast_peak, kAlign - 3);
    EXPECT_EQ(f.mem.slow_used, kAlign - 1);
    EXPECT_EQ(f.mem.slow_peak, kAlign - 1);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 5), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 1, 5), TIGRIS_MEM_OK);
    EXPECT_TRUE(aligned(f.ptrs[0]));
    EXPECT_TRUE(aligned(f.ptrs[1]));
    EXPECT_EQ(f.ptrs[0], f.fast.p + (kAlign - 3));
}

TEST(Mem, InitBufferTooSmallToReachAlignmentIsOomAndChangesNothing) {
    std::vector<void *> ptrs(2, reinterpret_cast<void *>(0x99));
    Buf fast(64, 3), slow(64, 0);
    tigris_mem_t mem;
    std::memset(&mem, 0x77, sizeof mem);
    MemBytes before = bytes_of(mem);
    EXPECT_EQ(tigris_mem_init(&mem, ptrs.data(), 2, fast.p, kAlign - 4, slow.p, 64), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(bytes_of(mem), before);
    EXPECT_EQ(ptrs[0], reinterpret_cast<void *>(0x99));
    Buf slow2(64, 2);
    EXPECT_EQ(tigris_mem_init(&mem, ptrs.data(), 2, fast.p, 64, slow2.p, kAlign - 3), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(bytes_of(mem), before);
    // Exactly enough to reach the aligned address: accepted, and full.
    ASSERT_EQ(tigris_mem_init(&mem, ptrs.data(), 2, fast.p, kAlign - 3, slow.p, 64), TIGRIS_MEM_OK);
    EXPECT_EQ(mem.fast_used, kAlign - 3);
    EXPECT_EQ(tigris__mem_alloc_fast(&mem, 0, 1), TIGRIS_MEM_ERR_OOM);
}

TEST(Mem, InitNullArguments) {
    std::vector<void *> ptrs(1);
    Buf fast(64), slow(64);
    tigris_mem_t mem{};
    EXPECT_EQ(tigris_mem_init(nullptr, ptrs.data(), 1, fast.p, 64, slow.p, 64), TIGRIS_MEM_ERR_NULL);
    EXPECT_EQ(tigris_mem_init(&mem, nullptr, 1, fast.p, 64, slow.p, 64), TIGRIS_MEM_ERR_NULL);
    EXPECT_EQ(tigris_mem_init(&mem, ptrs.data(), 1, nullptr, 64, slow.p, 64), TIGRIS_MEM_ERR_NULL);
    EXPECT_EQ(tigris_mem_init(&mem, ptrs.data(), 1, fast.p, 64, nullptr, 64), TIGRIS_MEM_ERR_NULL);
}

TEST(Mem, NullSlowBufferOfSizeZeroRefusesEverySlowAllocation) {
    std::vector<void *> ptrs(2);
    Buf fast(64);
    tigris_mem_t mem{};
    ASSERT_EQ(tigris_mem_init(&mem, ptrs.data(), 2, fast.p, 64, nullptr, 0), TIGRIS_MEM_OK);
    EXPECT_EQ(tigris_mem_alloc_slow(&mem, 0, 1), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(tigris_mem_alloc_slow(&mem, 0, 0), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(ptrs[0], nullptr);
    ASSERT_EQ(tigris__mem_alloc_fast(&mem, 1, 8), TIGRIS_MEM_OK);
    EXPECT_EQ(tigris__mem_spill(&mem, 1, 8), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(ptrs[1], fast.p);
}

TEST(Mem, AlignSizeRoundsUpAndDetectsOverflow) {
    uint32_t out = 7;
    ASSERT_EQ(tigris__align_size(0, &out), 0);
    EXPECT_EQ(out, 0u);
    ASSERT_EQ(tigris__align_size(1, &out), 0);
    EXPECT_EQ(out, kAlign);
    ASSERT_EQ(tigris__align_size(kAlign, &out), 0);
    EXPECT_EQ(out, kAlign);
    ASSERT_EQ(tigris__align_size(kAlign + 1, &out), 0);
    EXPECT_EQ(out, 2 * kAlign);
    // The largest aligned u32 is 2^32 - kAlign; anything above cannot round up.
    ASSERT_EQ(tigris__align_size(0xFFFFFFFFu - kAlign + 1, &out), 0);
    EXPECT_EQ(out, 0xFFFFFFFFu - kAlign + 1);
    EXPECT_EQ(tigris__align_size(0xFFFFFFFFu - kAlign + 2, &out), -1);
    EXPECT_EQ(tigris__align_size(0xFFFFFFFFu, &out), -1);
}

TEST(Mem, BumpAllocationPlacesTensorsBackToBackAtAlignedOffsets) {
    Fixture f(4, 16 * kAlign, 16 * kAlign);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 1), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 1, kAlign), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 2, kAlign + 1), TIGRIS_MEM_OK);
    EXPECT_EQ(f.fast_off(0), 0u);
    EXPECT_EQ(f.fast_off(1), kAlign);
    EXPECT_EQ(f.fast_off(2), 2 * kAlign);
    EXPECT_EQ(f.mem.fast_used, 4 * kAlign);
    EXPECT_EQ(f.mem.fast_peak, 4 * kAlign);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 3, 3 * kAlign - 1), TIGRIS_MEM_OK);
    EXPECT_EQ(f.slow_off(3), 0u);
    EXPECT_EQ(f.mem.slow_used, 3 * kAlign);
    EXPECT_EQ(f.mem.slow_peak, 3 * kAlign);
    EXPECT_EQ(f.mem.fast_used, 4 * kAlign);  // pools are independent
}

TEST(Mem, AllocationFillingThePoolExactlySucceedsAndOneMoreByteFails) {
    Fixture f(3, 4 * kAlign, 2 * kAlign);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 3 * kAlign), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 1, kAlign), TIGRIS_MEM_OK);
    EXPECT_EQ(f.mem.fast_used, 4 * kAlign);
    MemBytes before = bytes_of(f.mem);
    std::vector<void *> ptrs_before = f.ptrs;
    EXPECT_EQ(tigris__mem_alloc_fast(&f.mem, 2, 1), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(tigris__mem_alloc_fast(&f.mem, 2, 0xFFFFFFFFu), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(tigris_mem_alloc_slow(&f.mem, 2, 2 * kAlign + 1), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(tigris_mem_alloc_slow(&f.mem, 2, 0xFFFFFFFFu - 1), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(bytes_of(f.mem), before);
    EXPECT_EQ(f.ptrs, ptrs_before);
}

TEST(Mem, CapacityIsTheFastSizeAsItStands) {
    Fixture f(2, 8 * kAlign, kAlign);
    f.mem.fast_size = 2 * kAlign;  // the executor lowers it during normal stages
    EXPECT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 3 * kAlign), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 2 * kAlign), TIGRIS_MEM_OK);
    // used beyond a lowered capacity: nothing fits, not even an empty tensor
    f.mem.fast_size = kAlign;
    EXPECT_EQ(tigris__mem_alloc_fast(&f.mem, 1, 0), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(f.ptrs[1], nullptr);
}

TEST(Mem, BadIndexAndNullArguments) {
    Fixture f(2, 4 * kAlign, 4 * kAlign);
    MemBytes before = bytes_of(f.mem);
    EXPECT_EQ(tigris__mem_alloc_fast(&f.mem, 2, 4), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris_mem_alloc_slow(&f.mem, 7, 4), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_load(&f.mem, 2, 4), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_spill(&f.mem, 2, 4), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(bytes_of(f.mem), before);
    EXPECT_EQ(tigris_mem_alloc_slow(nullptr, 0, 4), TIGRIS_MEM_ERR_NULL);
    EXPECT_EQ(tigris__mem_alloc_fast(nullptr, 0, 4), TIGRIS_MEM_ERR_NULL);
    uint32_t off;
    EXPECT_EQ(tigris__mem_bump_fast(nullptr, 4, &off), TIGRIS_MEM_ERR_NULL);
    EXPECT_EQ(tigris__mem_bump_fast(&f.mem, 4, nullptr), TIGRIS_MEM_ERR_NULL);
    EXPECT_EQ(tigris_mem_tensor_ptr(&f.mem, 2), nullptr);
    EXPECT_EQ(tigris_mem_tensor_ptr(nullptr, 0), nullptr);
}

TEST(Mem, TensorlessBumpRaisesUsedAndPeakButSetsNoPointer) {
    Fixture f(2, 8 * kAlign, kAlign);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 1), TIGRIS_MEM_OK);
    uint32_t off = 99;
    ASSERT_EQ(tigris__mem_bump_fast(&f.mem, kAlign + 3, &off), TIGRIS_MEM_OK);
    EXPECT_EQ(off, kAlign);
    EXPECT_EQ(f.mem.fast_used, 3 * kAlign);
    EXPECT_EQ(f.mem.fast_peak, 3 * kAlign);
    EXPECT_EQ(f.ptrs[1], nullptr);
    EXPECT_EQ(tigris__mem_bump_fast(&f.mem, 5 * kAlign + 1, &off), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(f.mem.fast_used, 3 * kAlign);
}

TEST(Mem, PeakIsAHighWaterMarkThatResetDoesNotLower) {
    Fixture f(3, 8 * kAlign, kAlign);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 3 * kAlign), TIGRIS_MEM_OK);
    tigris__mem_reset_fast(&f.mem);
    EXPECT_EQ(f.mem.fast_used, 0u);
    EXPECT_EQ(f.mem.fast_peak, 3 * kAlign);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 1, kAlign), TIGRIS_MEM_OK);
    EXPECT_EQ(f.mem.fast_peak, 3 * kAlign);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 2, 4 * kAlign), TIGRIS_MEM_OK);
    EXPECT_EQ(f.mem.fast_peak, 5 * kAlign);
}

TEST(Mem, ResetReturnsToTheReservedFloorAndLeavesPointers) {
    Fixture f(2, 8 * kAlign, kAlign);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, kAlign), TIGRIS_MEM_OK);
    f.mem.fast_reserved = f.mem.fast_used;
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 1, 2 * kAlign), TIGRIS_MEM_OK);
    void *p1 = f.ptrs[1];
    tigris__mem_reset_fast(&f.mem);
    EXPECT_EQ(f.mem.fast_used, kAlign);
    EXPECT_EQ(f.ptrs[1], p1);
    tigris__mem_reset_fast(nullptr);  // tolerated
}

TEST(Mem, WholeTensorLoadCopiesIntoFastAndCountsUnalignedBytes) {
    Fixture f(2, 8 * kAlign, 8 * kAlign);
    const uint32_t n = kAlign + 5;
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 0, n), TIGRIS_MEM_OK);
    uint8_t *src = static_cast<uint8_t *>(f.ptrs[0]);
    for (uint32_t i = 0; i < n; i++) src[i] = (uint8_t)(i * 7 + 1);
    ASSERT_EQ(tigris__mem_load(&f.mem, 0, n), TIGRIS_MEM_OK);
    EXPECT_EQ(f.ptrs[0], f.fast.p);
    const uint8_t *dst = static_cast<uint8_t *>(f.ptrs[0]);
    for (uint32_t i = 0; i < n; i++) ASSERT_EQ(dst[i], (uint8_t)(i * 7 + 1)) << i;
    EXPECT_EQ(f.stats.loads_bytes, n);
    EXPECT_EQ(f.mem.fast_used, 2 * kAlign);
    // unplaced source
    EXPECT_EQ(tigris__mem_load(&f.mem, 1, 4), TIGRIS_MEM_ERR_NOT_SET);
    EXPECT_EQ(f.stats.loads_bytes, n);
}

TEST(Mem, FailedLoadLeavesTensorWhereItWas) {
    Fixture f(1, 2 * kAlign, 8 * kAlign);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 0, 3 * kAlign), TIGRIS_MEM_OK);
    void *slow_ptr = f.ptrs[0];
    MemBytes before = bytes_of(f.mem);
    EXPECT_EQ(tigris__mem_load(&f.mem, 0, 3 * kAlign), TIGRIS_MEM_ERR_OOM);
    EXPECT_EQ(f.ptrs[0], slow_ptr);
    EXPECT_EQ(bytes_of(f.mem), before);
    EXPECT_EQ(f.stats.loads_bytes, 0u);
}

TEST(Mem, WholeTensorSpillCopiesIntoSlow) {
    Fixture f(1, 8 * kAlign, 8 * kAlign);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 0, 1), TIGRIS_MEM_OK);  // occupy slow offset 0
    f.ptrs[0] = nullptr;
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 10), TIGRIS_MEM_OK);
    std::memcpy(f.ptrs[0], "0123456789", 10);
    ASSERT_EQ(tigris__mem_spill(&f.mem, 0, 10), TIGRIS_MEM_OK);
    EXPECT_EQ(f.ptrs[0], f.slow.p + kAlign);
    EXPECT_EQ(std::memcmp(f.ptrs[0], "0123456789", 10), 0);
    EXPECT_EQ(f.stats.spills_bytes, 10u);
    EXPECT_EQ(f.mem.slow_used, 2 * kAlign);
    EXPECT_EQ(f.mem.slow_peak, 2 * kAlign);
}

TEST(Mem, TransfersWithoutStatsRecordStillWork) {
    Fixture f(1, 8 * kAlign, 8 * kAlign);
    f.mem.stats = nullptr;
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 4), TIGRIS_MEM_OK);
    EXPECT_EQ(tigris__mem_spill(&f.mem, 0, 4), TIGRIS_MEM_OK);
    EXPECT_EQ(tigris__mem_load(&f.mem, 0, 4), TIGRIS_MEM_OK);
}

// ---- band transfers ----

// Element value from its coordinates: an int32 tensor whose every element
// tells where it sits, so a packed band can be checked without offsets.
int32_t coord(uint32_t n, uint32_t h, uint32_t w, uint32_t c) {
    return (int32_t)(n * 1000000 + h * 10000 + w * 100 + c);
}

// Shape as the band view reads it, for filling a tensor by coordinates.
struct Dims {
    uint32_t n, h, w, c;
};

void fill_full(int32_t *p, Dims d) {
    for (uint32_t n = 0; n < d.n; n++)
        for (uint32_t h = 0; h < d.h; h++)
            for (uint32_t w = 0; w < d.w; w++)
                for (uint32_t c = 0; c < d.c; c++) *p++ = coord(n, h, w, c);
}

std::vector<int32_t> expected_band(Dims d, uint32_t h0, uint32_t h1, uint32_t w0, uint32_t w1) {
    std::vector<int32_t> v;
    for (uint32_t n = 0; n < d.n; n++)
        for (uint32_t h = h0; h < h1; h++)
            for (uint32_t w = w0; w < w1; w++)
                for (uint32_t c = 0; c < d.c; c++) v.push_back(coord(n, h, w, c));
    return v;
}

struct BandCase {
    std::vector<int32_t> shape;
    Dims view;  // how a height band sees it
};

class BandLoad : public ::testing::TestWithParam<BandCase> {};

TEST_P(BandLoad, PacksRowsOfEveryBatchBackToBack) {
    const BandCase &bc = GetParam();
    MiniPlan mp;
    uint16_t t = mp.tensor(TIGRIS_DTYPE_INT32, bc.shape);
    const tigris_plan_t *plan = mp.get();
    const uint32_t size = mp.tensors[t].size_bytes;
    Fixture f(1, size + 4 * kAlign, size + 4 * kAlign);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, t, size), TIGRIS_MEM_OK);
    uint8_t *full = static_cast<uint8_t *>(f.ptrs[t]);
    fill_full(reinterpret_cast<int32_t *>(full), bc.view);
    for (uint32_t h0 = 0; h0 < bc.view.h; h0++) {
        for (uint32_t h1 = h0 + 1; h1 <= bc.view.h; h1++) {
            f.ptrs[t] = full;
            tigris__mem_reset_fast(&f.mem);
            uint32_t loads0 = f.stats.loads_bytes;
            ASSERT_EQ(tigris__mem_load_tile(&f.mem, plan, t, (int32_t)h0, (int32_t)h1), TIGRIS_MEM_OK);
            std::vector<int32_t> want = expected_band(bc.view, h0, h1, 0, bc.view.w);
            ASSERT_EQ(f.ptrs[t], f.fast.p);
            ASSERT_EQ(std::memcmp(f.ptrs[t], want.data(), want.size() * 4), 0) << h0 << ".." << h1;
            EXPECT_EQ(f.stats.loads_bytes - loads0, want.size() * 4);
            uint32_t aligned_bytes = (uint32_t)((want.size() * 4 + kAlign - 1) / kAlign * kAlign);
            EXPECT_EQ(f.mem.fast_used, aligned_bytes);
        }
    }
}

TEST_P(BandLoad, SpillScattersRowsIntoEveryBatchAndLeavesTheRest) {
    const BandCase &bc = GetParam();
    MiniPlan mp;
    uint16_t t = mp.tensor(TIGRIS_DTYPE_INT32, bc.shape);
    const tigris_plan_t *plan = mp.get();
    const uint32_t size = mp.tensors[t].size_bytes;
    Fixture f(1, size + 4 * kAlign, size + 4 * kAlign);
    uint32_t h0 = bc.view.h > 2 ? 1 : 0, h1 = bc.view.h > 2 ? bc.view.h - 1 : bc.view.h;
    std::vector<int32_t> band = expected_band(bc.view, h0, h1, 0, bc.view.w);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, t, (uint32_t)band.size() * 4), TIGRIS_MEM_OK);
    std::memcpy(f.ptrs[t], band.data(), band.size() * 4);
    uint8_t *dst = f.slow.p + kAlign;  // the full tensor, somewhere in slow
    std::vector<int32_t> full(size / 4, -7);
    std::memcpy(dst, full.data(), size);
    ASSERT_EQ(tigris__mem_spill_tile(&f.mem, plan, t, dst, (int32_t)h0, (int32_t)h1), TIGRIS_MEM_OK);
    EXPECT_EQ(f.ptrs[t], dst);
    EXPECT_EQ(f.stats.spills_bytes, band.size() * 4);
    EXPECT_EQ(f.mem.slow_used, 0u);  // a band spill allocates nothing
    const int32_t *got = reinterpret_cast<const int32_t *>(dst);
    size_t i = 0;
    for (uint32_t n = 0; n < bc.view.n; n++)
        for (uint32_t h = 0; h < bc.view.h; h++)
            for (uint32_t w = 0; w < bc.view.w; w++)
                for (uint32_t c = 0; c < bc.view.c; c++, i++) {
                    int32_t want = (h >= h0 && h < h1) ? coord(n, h, w, c) : -7;
                    ASSERT_EQ(got[i], want) << n << "," << h << "," << w << "," << c;
                }
}

INSTANTIATE_TEST_SUITE_P(Ranks, BandLoad,
                         ::testing::Values(BandCase{{5, 3}, {1, 5, 1, 3}},          // rank 2: rows are shape[0]
                                           BandCase{{2, 6, 3}, {2, 6, 1, 3}},       // rank 3: N, L, C
                                           BandCase{{3, 4, 5, 2}, {3, 4, 5, 2}},    // rank 4, 3 batches
                                           BandCase{{1, 7, 2, 1}, {1, 7, 2, 1}}));  // rank 4, one batch

TEST(MemBand, RectLoadAndSpillRank4) {
    MiniPlan mp;
    uint16_t t = mp.tensor(TIGRIS_DTYPE_INT32, {2, 5, 6, 3});
    const tigris_plan_t *plan = mp.get();
    Dims d{2, 5, 6, 3};
    const uint32_t size = mp.tensors[t].size_bytes;
    Fixture f(1, 2 * size, 3 * size);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, t, size), TIGRIS_MEM_OK);
    uint8_t *full = static_cast<uint8_t *>(f.ptrs[t]);
    fill_full(reinterpret_cast<int32_t *>(full), d);
    ASSERT_EQ(tigris__mem_load_rect(&f.mem, plan, t, 1, 4, 2, 5), TIGRIS_MEM_OK);
    std::vector<int32_t> want = expected_band(d, 1, 4, 2, 5);
    ASSERT_EQ(want.size(), 2u * 3 * 3 * 3);
    EXPECT_EQ(std::memcmp(f.ptrs[t], want.data(), want.size() * 4), 0);
    EXPECT_EQ(f.stats.loads_bytes, want.size() * 4);

    // Spill the packed rectangle (with changed values) into a blank tensor.
    int32_t *packed = static_cast<int32_t *>(f.ptrs[t]);
    for (size_t i = 0; i < want.size(); i++) packed[i] = -packed[i] - 1;
    uint8_t *dst = f.slow.p + ((size + kAlign - 1) / kAlign) * kAlign;  // after the source
    std::vector<int32_t> blank(size / 4, 42);
    std::memcpy(dst, blank.data(), size);
    ASSERT_EQ(tigris__mem_spill_rect(&f.mem, plan, t, dst, 1, 4, 2, 5), TIGRIS_MEM_OK);
    EXPECT_EQ(f.ptrs[t], dst);
    EXPECT_EQ(f.stats.spills_bytes, want.size() * 4);
    const int32_t *got = reinterpret_cast<const int32_t *>(dst);
    size_t i = 0;
    for (uint32_t n = 0; n < d.n; n++)
        for (uint32_t h = 0; h < d.h; h++)
            for (uint32_t w = 0; w < d.w; w++)
                for (uint32_t c = 0; c < d.c; c++, i++) {
                    bool inside = h >= 1 && h < 4 && w >= 2 && w < 5;
                    ASSERT_EQ(got[i], inside ? -coord(n, h, w, c) - 1 : 42) << n << h << w << c;
                }
}

TEST(MemBand, RectOnRank3TreatsTheLastAxisAsWidthWithOneChannel) {
    MiniPlan mp;
    uint16_t t = mp.tensor(TIGRIS_DTYPE_INT32, {2, 4, 5});
    const tigris_plan_t *plan = mp.get();
    Dims d{2, 4, 5, 1};
    Fixture f(1, 1024, 1024);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, t, mp.tensors[t].size_bytes), TIGRIS_MEM_OK);
    fill_full(static_cast<int32_t *>(f.ptrs[t]), d);
    ASSERT_EQ(tigris__mem_load_rect(&f.mem, plan, t, 0, 2, 3, 5), TIGRIS_MEM_OK);
    std::vector<int32_t> want = expected_band(d, 0, 2, 3, 5);
    ASSERT_EQ(want.size(), 8u);
    EXPECT_EQ(std::memcmp(f.ptrs[t], want.data(), want.size() * 4), 0);
}

TEST(MemBand, OutOfRangeBandsAndRanksAreRefusedWithoutChange) {
    MiniPlan mp;
    uint16_t t4 = mp.tensor(TIGRIS_DTYPE_INT8, {1, 4, 4, 2});
    uint16_t t1 = mp.tensor(TIGRIS_DTYPE_INT8, {8});
    uint16_t t5 = mp.tensor(TIGRIS_DTYPE_INT8, {1, 1, 2, 2, 2});
    uint16_t t2 = mp.tensor(TIGRIS_DTYPE_INT8, {4, 4});
    const tigris_plan_t *plan = mp.get();
    Fixture f(4, 1024, 1024);
    for (uint16_t t : {t4, t1, t5, t2}) ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, t, 32), TIGRIS_MEM_OK);
    MemBytes before = bytes_of(f.mem);
    std::vector<void *> ptrs = f.ptrs;
    uint8_t *dst = static_cast<uint8_t *>(f.ptrs[t4]);
    EXPECT_EQ(tigris__mem_load_tile(&f.mem, plan, t4, -1, 2), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_load_tile(&f.mem, plan, t4, 2, 2), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_load_tile(&f.mem, plan, t4, 3, 2), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_load_tile(&f.mem, plan, t4, 0, 5), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_load_tile(&f.mem, plan, t1, 0, 1), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_load_tile(&f.mem, plan, t5, 0, 1), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_load_rect(&f.mem, plan, t2, 0, 1, 0, 1), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_load_rect(&f.mem, plan, t4, 0, 1, 0, 5), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_load_rect(&f.mem, plan, t4, 0, 1, 2, 2), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_load_rect(&f.mem, plan, t4, 0, 1, -1, 2), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_load_tile(&f.mem, plan, 9, 0, 1), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_spill_tile(&f.mem, plan, t4, dst, 0, 5), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_spill_rect(&f.mem, plan, t4, dst, 0, 4, 3, 5), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_spill_tile(&f.mem, plan, t4, nullptr, 0, 1), TIGRIS_MEM_ERR_NULL);
    EXPECT_EQ(tigris__mem_load_tile(&f.mem, nullptr, t4, 0, 1), TIGRIS_MEM_ERR_NULL);
    // The full tensor at the destination would run past the slow pool's end.
    EXPECT_EQ(tigris__mem_spill_tile(&f.mem, plan, t4, f.slow.p + 1024 - 16, 0, 1), TIGRIS_MEM_ERR_BAD_INDEX);
    // A destination in neither pool.
    uint8_t outside[64];
    EXPECT_EQ(tigris__mem_spill_tile(&f.mem, plan, t4, outside, 0, 1), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(bytes_of(f.mem), before);
    EXPECT_EQ(f.ptrs, ptrs);
    EXPECT_EQ(f.stats.loads_bytes, 0u);
    EXPECT_EQ(f.stats.spills_bytes, 0u);
}

TEST(MemBand, ShapeThatDoesNotDivideTheByteSizeIsRefused) {
    MiniPlan mp;
    uint16_t t = mp.tensor(TIGRIS_DTYPE_INT8, {1, 3, 3, 1});
    mp.tensors[t].size_bytes = 10;  // 9 elements cannot make 10 bytes
    uint16_t z = mp.tensor(TIGRIS_DTYPE_INT8, {1, 3, 3, 1});
    mp.shapes[mp.tensors[z].shape_off + 2] = 0;  // an empty axis
    const tigris_plan_t *plan = mp.get();
    Fixture f(2, 256, 256);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, t, 10), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, z, 9), TIGRIS_MEM_OK);
    EXPECT_EQ(tigris__mem_load_tile(&f.mem, plan, t, 0, 1), TIGRIS_MEM_ERR_BAD_INDEX);
    EXPECT_EQ(tigris__mem_load_tile(&f.mem, plan, z, 0, 1), TIGRIS_MEM_ERR_BAD_INDEX);
}

TEST(MemBand, BandLoadThatDoesNotFitFailsWithoutChange) {
    MiniPlan mp;
    uint16_t t = mp.tensor(TIGRIS_DTYPE_INT8, {1, 8, 4, 4});
    const tigris_plan_t *plan = mp.get();
    Fixture f(1, 2 * kAlign, 512);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, t, 128), TIGRIS_MEM_OK);
    MemBytes before = bytes_of(f.mem);
    void *p = f.ptrs[t];
    // 16 bytes per row: a band of 2*kAlign/16 + 1 rows needs more than the arena.
    int32_t rows = (int32_t)(2 * kAlign / 16 + 1);
    if (rows <= 8) {
        EXPECT_EQ(tigris__mem_load_tile(&f.mem, plan, t, 0, rows), TIGRIS_MEM_ERR_OOM);
        EXPECT_EQ(bytes_of(f.mem), before);
        EXPECT_EQ(f.ptrs[t], p);
    }
    EXPECT_EQ(tigris__mem_load_tile(&f.mem, nullptr, t, 0, 1), TIGRIS_MEM_ERR_NULL);
}

// ---- compaction ----

TEST(MemCompact, MovesLiveTensorsDownRewritesAliasesAndKeepsData) {
    MiniPlan mp;
    for (int i = 0; i < 5; i++) mp.tensor(TIGRIS_DTYPE_INT8, {1, 1, 1, (int32_t)kAlign + 1});  // 2 slots each
    const tigris_plan_t *plan = mp.get();
    Fixture f(5, 16 * kAlign, kAlign);
    for (uint16_t t = 0; t < 4; t++) {
        ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, t, kAlign + 1), TIGRIS_MEM_OK);
        std::memset(f.ptrs[t], 'a' + t, kAlign + 1);
    }
    // t0 [0,2A) t1 [2A,4A) t2 [4A,6A) t3 [6A,8A); t1 dies, t4 aliases t3.
    f.ptrs[1] = nullptr;
    f.ptrs[4] = f.ptrs[3];
    uint32_t peak = f.mem.fast_peak;
    tigris__mem_compact_fast(&f.mem, plan);
    EXPECT_EQ(f.fast_off(0), 0u);
    EXPECT_EQ(f.fast_off(2), 2 * kAlign);
    EXPECT_EQ(f.fast_off(3), 4 * kAlign);
    EXPECT_EQ(f.ptrs[4], f.ptrs[3]);
    EXPECT_EQ(f.mem.fast_used, 6 * kAlign);
    EXPECT_EQ(f.mem.fast_peak, peak);
    EXPECT_EQ(f.stats.compactions, 1u);
    for (uint16_t t : {0, 2, 3}) {
        const uint8_t *p = static_cast<uint8_t *>(f.ptrs[t]);
        for (uint32_t i = 0; i < kAlign + 1; i++) ASSERT_EQ(p[i], 'a' + t) << t;
    }
    // A second pass has nothing to move but is still counted.
    tigris__mem_compact_fast(&f.mem, plan);
    EXPECT_EQ(f.stats.compactions, 2u);
    EXPECT_EQ(f.mem.fast_used, 6 * kAlign);
}

TEST(MemCompact, FastRangeStartsAtTheReservedFloor) {
    MiniPlan mp;
    for (int i = 0; i < 4; i++) mp.tensor(TIGRIS_DTYPE_INT8, {(int32_t)kAlign});
    const tigris_plan_t *plan = mp.get();
    Fixture f(4, 16 * kAlign, kAlign);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, kAlign), TIGRIS_MEM_OK);
    uint32_t weights_off = 0;
    ASSERT_EQ(tigris__mem_bump_fast(&f.mem, kAlign, &weights_off), TIGRIS_MEM_OK);  // e.g. decoded weights
    f.mem.fast_reserved = f.mem.fast_used;                                          // floor at 2A
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 1, kAlign), TIGRIS_MEM_OK);           // 2A
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 2, kAlign), TIGRIS_MEM_OK);           // 3A
    f.ptrs[1] = nullptr;
    tigris__mem_compact_fast(&f.mem, plan);
    EXPECT_EQ(f.fast_off(0), 0u);       // below the floor: not touched
    EXPECT_EQ(f.fast_off(2), 2 * kAlign);
    EXPECT_EQ(f.mem.fast_used, 3 * kAlign);
}

TEST(MemCompact, SlowCompactionPacksFromTheStartOfThePool) {
    MiniPlan mp;
    mp.tensor(TIGRIS_DTYPE_INT8, {10});
    mp.tensor(TIGRIS_DTYPE_INT8, {3 * (int32_t)kAlign});
    mp.tensor(TIGRIS_DTYPE_INT8, {7});
    const tigris_plan_t *plan = mp.get();
    Fixture f(3, kAlign, 16 * kAlign);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 0, 10), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 1, 3 * kAlign), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 2, 7), TIGRIS_MEM_OK);
    std::memcpy(f.ptrs[2], "abcdefg", 7);
    f.ptrs[0] = nullptr;
    f.ptrs[1] = nullptr;
    uint32_t peak = f.mem.slow_peak;
    tigris__mem_compact_slow(&f.mem, plan);
    EXPECT_EQ(f.slow_off(2), 0u);
    EXPECT_EQ(std::memcmp(f.ptrs[2], "abcdefg", 7), 0);
    EXPECT_EQ(f.mem.slow_used, kAlign);
    EXPECT_EQ(f.mem.slow_peak, peak);
    EXPECT_EQ(f.stats.compactions, 1u);
}

TEST(MemCompact, UnalignedSlowBufferKeepsMovedTensorsAligned) {
    MiniPlan mp;
    mp.tensor(TIGRIS_DTYPE_INT8, {10});
    mp.tensor(TIGRIS_DTYPE_INT8, {10});
    const tigris_plan_t *plan = mp.get();
    Fixture f(2, kAlign, 16 * kAlign, 0, 5);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 0, 10), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 1, 10), TIGRIS_MEM_OK);
    f.ptrs[0] = nullptr;
    tigris__mem_compact_slow(&f.mem, plan);
    EXPECT_TRUE(aligned(f.ptrs[1]));
    EXPECT_EQ(f.slow_off(1), kAlign - 5);
    EXPECT_EQ(f.mem.slow_used, 2 * kAlign - 5);
}

TEST(MemCompact, BandWhoseFullSizePassesThePoolEndStaysInsideIt) {
    // A band occupies less than its tensor's full size; compaction sizes
    // entries by the full size but must not copy past the pool.
    MiniPlan mp;
    mp.tensor(TIGRIS_DTYPE_INT8, {4});
    mp.tensor(TIGRIS_DTYPE_INT8, {1, 64, 4, 4});  // 1 KiB in full
    const tigris_plan_t *plan = mp.get();
    Fixture f(2, 4 * kAlign, 2048);
    ASSERT_EQ(tigris__mem_alloc_fast(&f.mem, 0, 4), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris_mem_alloc_slow(&f.mem, 1, 1024), TIGRIS_MEM_OK);
    ASSERT_EQ(tigris__mem_load_tile(&f.mem, plan, 1, 0, 1), TIGRIS_MEM_OK);  // 16 bytes at kAlign
    f.ptrs[0] = nullptr;
    tigris__mem_compact_fast(&f.mem, plan);  // ASan build catches any overrun
    EXPECT_EQ(f.fast_off(1), 0u);
    EXPECT_LE(f.mem.fast_used, f.mem.fast_size);
}

TEST(MemCompact, NullArgumentsAreIgnored) {
    Fixture f(1, kAlign, kAlign);
    tigris__mem_compact_fast(nullptr, nullptr);
    tigris__mem_compact_fast(&f.mem, nullptr);
    tigris__mem_compact_slow(&f.mem, nullptr);
    EXPECT_EQ(f.stats.compactions, 0u);
}

TEST(MemPools, MembershipByAddress) {
    Fixture f(1, 4 * kAlign, 4 * kAlign);
    EXPECT_TRUE(tigris__mem_in_fast(&f.mem, f.fast.p));
    EXPECT_TRUE(tigris__mem_in_fast(&f.mem, f.fast.p + 4 * kAlign - 1));
    EXPECT_FALSE(tigris__mem_in_fast(&f.mem, f.fast.p + 4 * kAlign));
    EXPECT_FALSE(tigris__mem_in_fast(&f.mem, f.slow.p));
    EXPECT_TRUE(tigris__mem_in_slow(&f.mem, f.slow.p + 1));
    EXPECT_FALSE(tigris__mem_in_slow(&f.mem, f.fast.p));
    EXPECT_FALSE(tigris__mem_in_slow(&f.mem, nullptr));
    EXPECT_FALSE(tigris__mem_in_fast(nullptr, f.fast.p));
}

TEST(MemStrings, EveryErrorHasItsOwnText) {
    const tigris_mem_error_t all[] = {TIGRIS_MEM_OK, TIGRIS_MEM_ERR_NULL, TIGRIS_MEM_ERR_OOM,
                                      TIGRIS_MEM_ERR_BAD_INDEX, TIGRIS_MEM_ERR_NOT_SET};
    for (size_t i = 0; i < 5; i++) {
        ASSERT_NE(tigris_mem_error_str(all[i]), nullptr);
        for (size_t j = 0; j < i; j++) EXPECT_STRNE(tigris_mem_error_str(all[i]), tigris_mem_error_str(all[j]));
    }
    EXPECT_NE(tigris_mem_error_str((tigris_mem_error_t)-99), nullptr);
}

}  // namespace
