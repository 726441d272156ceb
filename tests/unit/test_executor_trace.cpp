// test_executor_trace.cpp - the event sequence of a chained and of a striped
// stage (docs/runtime-semantics.md R3), with every row range worked out by hand from
// R2.6.2 in the comments, and the trace/statistics consistency rules of R1.11.
#include "test_executor_harness.h"

#include <tuple>

using namespace tigris_exec_test;
using tigris_test::PlanBuilder;

namespace {

struct Ev {
    int kind, stage, tensor, op, row0, row1;
    bool operator==(const Ev &o) const {
        return std::tie(kind, stage, tensor, op, row0, row1) ==
               std::tie(o.kind, o.stage, o.tensor, o.op, o.row0, o.row1);
    }
};

std::ostream &operator<<(std::ostream &os, const Ev &e) {
    return os << "{kind " << e.kind << ", stage " << e.stage << ", tensor " << e.tensor << ", op " << e.op
              << ", rows [" << e.row0 << "," << e.row1 << ")}";
}

struct Recorder {
    std::vector<tigris_trace_event_t> events;
    static void cb(const tigris_trace_event_t *e, void *ctx) { static_cast<Recorder *>(ctx)->events.push_back(*e); }
    std::vector<Ev> simple() const {
        std::vector<Ev> v;
        for (auto &e : events) v.push_back({e.kind, e.stage, e.tensor, e.op, e.row0, e.row1});
        return v;
    }
};

constexpr int N = 0xFFFF;
constexpr int SB = TIGRIS_TRACE_STAGE_BEGIN, SE = TIGRIS_TRACE_STAGE_END, TB = TIGRIS_TRACE_TILE_BEGIN,
              LD = TIGRIS_TRACE_LOAD, SP = TIGRIS_TRACE_SPILL, AL = TIGRIS_TRACE_ALLOC, RS = TIGRIS_TRACE_RESET,
              MV = TIGRIS_TRACE_MOVE, OP = TIGRIS_TRACE_OP;

void check_consistency(const Recorder &rec, const Harness &h) {
    uint64_t loads = 0, spills = 0, weights = 0, copies = 0;
    uint32_t tiles = 0, max_fast = 0, max_slow = 0;
    for (auto &e : rec.events) {
        if (e.kind == LD) loads += e.bytes;
        if (e.kind == SP) spills += e.bytes;
        if (e.kind == TIGRIS_TRACE_WEIGHTS) weights += e.bytes;
        if (e.kind == TIGRIS_TRACE_COPY) copies += e.bytes;
        if (e.kind == TB) tiles++;
        max_fast = std::max(max_fast, e.fast_used);
        max_slow = std::max(max_slow, e.slow_used);
    }
    EXPECT_EQ(loads, h.stats.loads_bytes);
    EXPECT_EQ(spills, h.stats.spills_bytes);
    EXPECT_EQ(weights, h.stats.weight_bytes);
    EXPECT_EQ(copies, h.stats.copy_bytes);
    EXPECT_EQ(tiles, h.stats.total_tiles);
    EXPECT_EQ(max_fast, h.mem.fast_peak);
    EXPECT_EQ(max_slow, h.stats.slow_peak);
}

#ifdef TIGRIS_TRACE
constexpr bool kTrace = true;
#else
constexpr bool kTrace = false;
#endif

// conv_chain: x[1,8,8,2] -conv 3x3 p1-> t -conv 3x3 p1-> y, chained, band 2.
// Last-stage output rows [2i, 2i+2) need t rows [2i-1, 2i+3) clamped to
// [0,8), which need x rows two further out on each side:
//   tile 0: y [0,2) <- t [0,3) <- x [0,4)
//   tile 1: y [2,4) <- t [1,5) <- x [0,6)
//   tile 2: y [4,6) <- t [3,7) <- x [2,8)
//   tile 3: y [6,8) <- t [5,8) <- x [4,8)
TEST(ExecutorTrace, ChainEventSequence) {
    if (!kTrace) GTEST_SKIP() << "built without TIGRIS_TRACE";
    Harness h;
    ASSERT_TRUE(h.load(PlanBuilder::conv_chain(9).build(), 4096, 8192));
    h.write_f32(0, pattern(128));
    Recorder rec;
    tigris_mem_set_trace(&h.mem, Recorder::cb, &rec);
    ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);

    const int x = 0, t = 1, y = 2;
    const int in_rows[4][2] = {{0, 4}, {0, 6}, {2, 8}, {4, 8}};
    std::vector<Ev> want = {{SB, 0, N, N, -1, -1}, {AL, 0, y, N, -1, -1}};
    for (int i = 0; i < 4; ++i) {
        want.push_back({TB, 0, N, i, in_rows[i][0], in_rows[i][1]});
        want.push_back({AL, 0, x, N, -1, -1});  // the band load's own allocation
        want.push_back({LD, 0, x, N, in_rows[i][0], in_rows[i][1]});
        want.push_back({AL, 0, t, N, -1, -1});
        want.push_back({OP, 0, N, 0, -1, -1});
        want.push_back({AL, 1, y, N, -1, -1});
        want.push_back({OP, 1, N, 1, -1, -1});
        want.push_back({SP, 1, y, N, 2 * i, 2 * i + 2});
        want.push_back({RS, 1, N, N, -1, -1});
    }
    // x is dead after stage 0: slow is compacted, y moves down to x's place.
    want.push_back({MV, 1, y, N, -1, -1});
    want.push_back({RS, 1, N, N, -1, -1});
    want.push_back({SE, 0, N, N, -1, -1});
    want.push_back({RS, 0, N, N, -1, -1});  // epilogue
    EXPECT_EQ(rec.simple(), want);

    ASSERT_FALSE(rec.events.empty());
    EXPECT_EQ(rec.events.front().path, TIGRIS_TRACE_PATH_CHAIN);
    // Band buffers of t: 3, 4, 4, 3 rows of 64 bytes (ALIGN 32 leaves them as is).
    std::vector<uint32_t> t_allocs;
    for (auto &e : rec.events)
        if (e.kind == AL && e.tensor == t) t_allocs.push_back(e.bytes);
    EXPECT_EQ(t_allocs, (std::vector<uint32_t>{192, 256, 256, 192}));
    EXPECT_EQ(h.stats.stages_chain, 2);
    EXPECT_EQ(h.stats.total_tiles, 4);
    EXPECT_EQ(h.stats.loads_bytes, (4u + 6 + 6 + 4) * 64);
    EXPECT_EQ(h.stats.spills_bytes, 512u);
    check_consistency(rec, h);
}

// With the line-buffer flag, t and y get one buffer each for the whole
// chain, and each band after the first keeps the t rows it shares with the
// band before: tile 1 needs t [1,5) and holds [0,3) -> rows [1,3) move to the
// front; tile 2 needs [3,7), holds [1,5) -> [3,5) move. Tile 3 touches the
// bottom edge (clamped pad), so its member recomputes everything.
TEST(ExecutorTrace, LineBufferedChainRollsSharedRows) {
    if (!kTrace) GTEST_SKIP() << "built without TIGRIS_TRACE";
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[0].flags = TIGRIS_STAGE_LINE_BUFFERED;
    Harness h;
    ASSERT_TRUE(h.load(b.build(), 4096, 8192));
    h.write_f32(0, pattern(128));
    Recorder rec;
    tigris_mem_set_trace(&h.mem, Recorder::cb, &rec);
    ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);
    std::vector<Ev> moves;
    int fast_allocs_of_t = 0;
    for (auto &e : rec.events) {
        if (e.kind == MV && e.pool == TIGRIS_TRACE_POOL_FAST) moves.push_back({e.kind, e.stage, e.tensor, e.op, e.row0, e.row1});
        if (e.kind == AL && e.tensor == 1) fast_allocs_of_t++;
    }
    // Tile 0's member 0 is clamped at the top, tile 3's at the bottom; only
    // tiles 1 and 2 roll t, member 1 (y) never overlaps its previous band.
    EXPECT_EQ(moves, (std::vector<Ev>{{MV, 0, 1, N, 1, 3}, {MV, 0, 1, N, 3, 5}}));
    EXPECT_EQ(fast_allocs_of_t, 1);
    check_consistency(rec, h);
}

// tiled_stripe: x[1,8,8,2] -conv 3x3 p1-> y[1,8,8,3] in a 512-byte arena.
// A band of e output rows needs ALIGN((e+2)*64) + ALIGN(e*96) bytes:
// e = 2 -> 256 + 192 = 448 fits, e = 3 -> 320 + 288 = 608 does not, so
// 4 bands of 2 rows reading x [0,3), [1,5), [3,7), [5,8).
TEST(ExecutorTrace, StripeEventSequence) {
    if (!kTrace) GTEST_SKIP() << "built without TIGRIS_TRACE";
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.tiles[0].choices.tiled_peak_bytes = 0;
    Harness h;
    ASSERT_TRUE(h.load(b.build(), 512, 8192));
    h.write_f32(0, pattern(128));
    Recorder rec;
    tigris_mem_set_trace(&h.mem, Recorder::cb, &rec);
    ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);

    const int x = 0, y = 1;
    const int in_rows[4][2] = {{0, 3}, {1, 5}, {3, 7}, {5, 8}};
    std::vector<Ev> want = {{SB, 0, N, N, -1, -1}, {AL, 0, y, N, -1, -1}};
    for (int i = 0; i < 4; ++i) {
        want.push_back({TB, 0, N, i, in_rows[i][0], in_rows[i][1]});
        want.push_back({AL, 0, x, N, -1, -1});  // the band load's own allocation
        want.push_back({LD, 0, x, N, in_rows[i][0], in_rows[i][1]});
        want.push_back({AL, 0, y, N, -1, -1});
        want.push_back({OP, 0, N, 0, -1, -1});
        want.push_back({SP, 0, y, N, 2 * i, 2 * i + 2});
        want.push_back({RS, 0, N, N, -1, -1});
    }
    want.push_back({MV, 0, y, N, -1, -1});
    want.push_back({RS, 0, N, N, -1, -1});
    want.push_back({SE, 0, N, N, -1, -1});
    want.push_back({RS, 0, N, N, -1, -1});
    EXPECT_EQ(rec.simple(), want);
    ASSERT_FALSE(rec.events.empty());
    EXPECT_EQ(rec.events.front().path, TIGRIS_TRACE_PATH_TILED);
    EXPECT_EQ(h.stats.stages_tiled, 1);
    EXPECT_EQ(h.stats.total_tiles, 4);
    EXPECT_EQ(h.stats.loads_bytes, (3u + 4 + 4 + 3) * 64);
    EXPECT_EQ(h.stats.spills_bytes, 768u);
    check_consistency(rec, h);
}

// Compressed weights: ALLOC (tensor none) then WEIGHTS with the compressed
// size in src_offset, once per run.
TEST(ExecutorTrace, CompressedBlockEvents) {
    if (!kTrace) GTEST_SKIP() << "built without TIGRIS_TRACE";
    auto bytes = PlanBuilder::compressed_conv(9).build();
    tigris_plan_t p;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &p), TIGRIS_OK);
    ASSERT_EQ(p.num_weight_blocks, 1);
    Harness h;
    ASSERT_TRUE(h.load(bytes, tigris_fast_arena_required(&p), 8192));
    h.write_f32(0, pattern(32));
    Recorder rec;
    tigris_mem_set_trace(&h.mem, Recorder::cb, &rec);
    ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);
    int w = -1;
    for (size_t i = 0; i < rec.events.size(); ++i)
        if (rec.events[i].kind == TIGRIS_TRACE_WEIGHTS) w = (int)i;
    ASSERT_GT(w, 0);
    EXPECT_EQ(rec.events[w - 1].kind, AL);
    EXPECT_EQ(rec.events[w - 1].tensor, N);
    EXPECT_EQ(rec.events[w].src_offset, h.plan.weight_blocks[0].compressed_size);
    EXPECT_EQ(rec.events[w].bytes, h.plan.weight_blocks[0].uncompressed_size);
    EXPECT_GE(rec.events[w].bytes, 228u);  // at least 3*3*3*2 + 3 floats
    EXPECT_EQ(h.stats.weight_bytes, h.plan.weight_blocks[0].uncompressed_size);
    check_consistency(rec, h);
}

}  // namespace
