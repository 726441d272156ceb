// test_executor_bands.cpp - the standalone banded paths of docs/runtime-semantics.md R2.7.2-R2.7.7
// compute what the same stage computes run whole, with expected values
// derived here from each op's definition, and count what docs/runtime-semantics.md R1.11 says.
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

// A record stating height bands of `th` rows over `extent` (facts left for
// the loader to derive at schema 9).
tigris_test::TilePlan height_record(uint32_t th, uint32_t extent) {
    tigris_test::TilePlan t = PlanBuilder::stripe_tile(th, extent, 0, 1);
    t.choices.tiled_peak_bytes = 0;
    return t;
}

// x[8,16] -> FullyConnected (w[8,16], bias[8]) -> y[8,8]: a matrix whose
// rows are independent, so a ROWS band of the stage.
PlanBuilder fc_plan() {
    PlanBuilder b(9);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {8, 16}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {8, 8}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_FULLY_CONN, {x}, {y}, "fc");
    std::vector<float> w(128), bias(8);
    for (int i = 0; i < 128; ++i) w[i] = (float)((i * 7) % 11 - 5) * 0.125f;
    for (int i = 0; i < 8; ++i) bias[i] = (float)i * 0.5f - 2.0f;
    b.ops[op].weight = b.add_float_weight("w", w);
    b.ops[op].bias = b.add_float_weight("b", bias);
    uint16_t s = b.add_stage({op}, {x}, {y});
    b.stages[s].tile = b.add_tile(height_record(4, 8));
    return b;
}

// y[r][o] = bias[o] + sum_k x[r][k] * w[o][k]
std::vector<float> ref_fc(const PlanBuilder &b, const std::vector<float> &x) {
    auto w = floats_of(b.weights[0]), bias = floats_of(b.weights[1]);
    std::vector<float> y(64);
    for (int r = 0; r < 8; ++r)
        for (int o = 0; o < 8; ++o) {
            double acc = bias[o];
            for (int k = 0; k < 16; ++k) acc += (double)x[r * 16 + k] * w[o * 16 + k];
            y[r * 8 + o] = (float)acc;
        }
    return y;
}

TEST(ExecutorBands, RowsMatchWholeFullyConnected) {
    PlanBuilder b = fc_plan();
    auto x = pattern(128);
    auto want = ref_fc(b, x);
    std::vector<float> whole;
    for (uint32_t fast : {4096u, 512u, 256u}) {
        Harness h;
        ASSERT_TRUE(h.load(b.build(), fast, 4096));
        h.write_f32(0, x);
        ASSERT_EQ(h.run(), TIGRIS_EXEC_OK) << fast;
        auto got = h.read_f32(1);
        EXPECT_LE(max_diff(got, want), 1e-4f) << fast;
        if (fast == 4096) {
            whole = got;
            EXPECT_EQ(h.stats.stages_normal, 1);
            EXPECT_EQ(h.stats.total_tiles, 0u);
        } else {
            EXPECT_EQ(got, whole) << fast;  // bit-identical to the whole stage
            EXPECT_EQ(h.stats.stages_tiled, 1);
            EXPECT_GT(h.stats.total_tiles, 1u);
            EXPECT_EQ(h.stats.loads_bytes, 512u);
            EXPECT_EQ(h.stats.spills_bytes, 256u);
        }
        EXPECT_LE(h.mem.fast_peak, fast);
        EXPECT_LE(h.mem.fast_peak, tigris_fast_arena_required(&h.plan));
        EXPECT_EQ(h.mem.fast_used, h.mem.fast_reserved);
        EXPECT_EQ(h.stats.slow_overflow_count, 0u);
    }
}

// Not even one row fits: the banded stage refuses instead of running whole.
// That is arena exhaustion (ERR_MEM), below the arena the plan declares; a
// plan is never refused this way at its declared arena.
TEST(ExecutorBands, RowsRefuseWhenNoBandFits) {
    PlanBuilder b = fc_plan();
    Harness h;
    ASSERT_TRUE(h.load(b.build(), 64, 4096));
    EXPECT_GT(tigris_fast_arena_required(&h.plan), 64u);
    h.write_f32(0, pattern(128));
    EXPECT_EQ(h.run(), TIGRIS_EXEC_ERR_MEM);
}

// ReduceMax over axis 1 of x[4,3,5] -> y[4,1,5]: axis 0 is independent and
// the first non-unit axis, so the stage is a LEADING band (tile_facts test).
PlanBuilder leading_reduce_plan(uint32_t th) {
    PlanBuilder b(9);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {4, 3, 5}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {4, 1, 5}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_REDUCE_MAX, {x}, {y}, "rmax");
    b.add_attribute(op, TIGRIS_ATTR_AXES, {1});
    uint16_t s = b.add_stage({op}, {x}, {y});
    b.stages[s].tile = b.add_tile(height_record(th, 4));
    return b;
}

struct SeenBand {
    int calls = 0;
    std::vector<int32_t> origins, heights;
    uint8_t mode = 0;
};

// A test kernel for the one ReduceMax op, so the LEADING path is checked
// without depending on the library's reduce kernel: it reduces axis 1 of
// whatever band of axis 0 the executor hands over, and records the band.
int reduce_max_band(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t, tigris_mem_t *mem, void *ctx) {
    auto *seen = static_cast<SeenBand *>(ctx);
    const float *x = static_cast<const float *>(mem->tensor_ptrs[tigris_op_inputs(plan, op)[0]]);
    float *y = static_cast<float *>(mem->tensor_ptrs[tigris_op_outputs(plan, op)[0]]);
    int n = 4;
    if (mem->tile.active) {
        n = mem->tile.out_h;
        seen->mode = mem->tile.row_tiled;
        seen->origins.push_back(mem->tile.out_row_origin);
        seen->heights.push_back(n);
    }
    seen->calls++;
    for (int b = 0; b < n; ++b)
        for (int c = 0; c < 5; ++c) {
            float m = x[b * 15 + c];
            for (int r = 1; r < 3; ++r) m = std::max(m, x[b * 15 + r * 5 + c]);
            y[b * 5 + c] = m;
        }
    return 0;
}

TEST(ExecutorBands, LeadingMatchesWholeReduction) {
    PlanBuilder b = leading_reduce_plan(2);
    auto x = pattern(60);
    std::vector<float> want(20);
    for (int n = 0; n < 4; ++n)
        for (int c = 0; c < 5; ++c)
            want[n * 5 + c] = std::max({x[n * 15 + c], x[n * 15 + 5 + c], x[n * 15 + 10 + c]});
    for (uint32_t fast : {4096u, 192u}) {
        Harness h;
        ASSERT_TRUE(h.load(b.build(), fast, 4096));
        tigris_stage_band_t band{};
        ASSERT_EQ(tigris_stage_band_kind(&h.plan, &h.plan.stages[0], &band), TIGRIS_BAND_KIND_LEADING);
        h.write_f32(0, x);
        SeenBand seen;
        ASSERT_EQ(h.run(reduce_max_band, &seen), TIGRIS_EXEC_OK) << fast;
        EXPECT_EQ(h.read_f32(1), want) << fast;
        if (fast == 192) {
            // 60-byte input rows and 20-byte output rows, each band aligned
            // to 16 or 32: two rows cost at most 128 + 64, three at least 192 + 64.
            EXPECT_EQ(seen.mode, TIGRIS_ROW_MODE_LEADING);
            EXPECT_EQ(seen.origins, (std::vector<int32_t>{0, 2}));
            EXPECT_EQ(seen.heights, (std::vector<int32_t>{2, 2}));
            EXPECT_EQ(h.stats.stages_tiled, 1);
            EXPECT_EQ(h.stats.total_tiles, 2u);
            EXPECT_EQ(h.stats.loads_bytes, 240u);
            EXPECT_EQ(h.stats.spills_bytes, 80u);
        } else {
            // A leading band is banded whatever the arena (docs/runtime-semantics.md R2.3 rule 5): here one band of all rows.
            EXPECT_EQ(seen.origins, (std::vector<int32_t>{0}));
            EXPECT_EQ(seen.heights, (std::vector<int32_t>{4}));
            EXPECT_EQ(h.stats.total_tiles, 1u);
        }
        EXPECT_LE(h.mem.fast_peak, fast);
        EXPECT_LE(h.mem.fast_peak, tigris_fast_arena_required(&h.plan));
    }
}

// Reshape x -> y with a record of `th` rows over `rows` (the loader checks
// the record states exactly the banding docs/runtime-semantics.md R2.7.7 derives).
PlanBuilder reshape_plan(std::vector<int32_t> xs, std::vector<int32_t> ys, uint32_t th, uint32_t rows) {
    PlanBuilder b(9);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, xs, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, ys, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_RESHAPE, {x}, {y}, "reshape");
    uint16_t s = b.add_stage({op}, {x}, {y});
    b.stages[s].tile = b.add_tile(height_record(th, rows));
    return b;
}

// A reshape keeps every element in its row-major position, so the output
// read back equals the input, band or no band.
TEST(ExecutorBands, ReshapeBandsCopyEveryElementOnce) {
    struct Case {
        std::vector<int32_t> xs, ys;
        uint32_t th, rows, tiles;
    };
    // [6,4] -> [12,2]: mode 0, 6 rows of 4 in bands of 3 (output rows 6 at a time).
    // [2,3,2,4] -> [2,6,4]: not own order, mode 1: 2 blocks of 3 rows of 8, bands of 1.
    for (const Case &c : {Case{{6, 4}, {12, 2}, 3, 6, 2}, Case{{2, 3, 2, 4}, {2, 6, 4}, 1, 3, 3}}) {
        PlanBuilder b = reshape_plan(c.xs, c.ys, c.th, c.rows);
        Harness h;
        ASSERT_TRUE(h.load(b.build(), 4096, 4096));
        ASSERT_EQ(tigris_stage_band_kind(&h.plan, &h.plan.stages[0], nullptr), TIGRIS_BAND_KIND_RESHAPE);
        size_t n = 1;
        for (int32_t d : c.xs) n *= (size_t)d;
        auto x = pattern(n);
        for (size_t i = 0; i < x.size(); ++i) x[i] += (float)i;  // every element distinct
        h.write_f32(0, x);
        ASSERT_EQ(h.run([](const tigris_plan_t *, const tigris_op_t *, uint16_t, tigris_mem_t *, void *) {
                      return 1;  // no kernel may be called
                  }),
                  TIGRIS_EXEC_OK);
        EXPECT_EQ(h.read_f32(1), x);
        EXPECT_EQ(h.stats.stages_tiled, 1);
        EXPECT_EQ(h.stats.total_tiles, c.tiles);
        EXPECT_EQ(h.stats.loads_bytes, 4 * n);
        EXPECT_EQ(h.stats.spills_bytes, 4 * n);
        EXPECT_EQ(h.mem.fast_used, h.mem.fast_reserved);
        EXPECT_LE(h.mem.fast_peak, tigris_fast_arena_required(&h.plan));
    }
}

// tiled_stripe's conv (x[1,8,8,2] -> 3x3 pad 1 -> y[1,8,8,3]) with a 2-D
// record: 3x3 output tiles, a 3x3 grid with 2-row/2-column edge tiles.
PlanBuilder hw_conv_plan() {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.tiles[0].choices.axis = TIGRIS_TILE_AXIS_HW;
    b.tiles[0].choices.tile_height = 3;
    b.tiles[0].choices.tile_width = 3;
    b.tiles[0].choices.num_tiles = 9;
    b.tiles[0].choices.tiled_peak_bytes = 0;
    return b;
}

TEST(ExecutorBands, HwTilesMatchWholeConvolution) {
    PlanBuilder b = hw_conv_plan();
    auto x = pattern(128);
    auto want = ref_conv(x, 8, 8, 2, floats_of(b.weights[0]), floats_of(b.weights[1]), 3, 3, 1, 1);
    std::vector<float> whole;
    for (uint32_t fast : {4096u, 768u}) {
        Harness h;
        ASSERT_TRUE(h.load(b.build(), fast, 8192));
        h.write_f32(0, x);
        ASSERT_EQ(h.run(), TIGRIS_EXEC_OK) << fast;
        auto got = h.read_f32(1);
        EXPECT_LE(max_diff(got, want), 1e-5f) << fast;
        if (fast == 4096) {
            whole = got;
            EXPECT_EQ(h.stats.stages_normal, 1);
        } else {
            EXPECT_EQ(got, whole);
            EXPECT_EQ(h.stats.stages_tiled, 1);
            EXPECT_EQ(h.stats.total_tiles, 9u);
            // Input windows per axis: [0,4) [2,7) [5,8) -> 4 + 5 + 3 = 12 per axis, 12*12 pixels of 8 bytes.
            EXPECT_EQ(h.stats.loads_bytes, 12u * 12u * 8u);
            EXPECT_EQ(h.stats.spills_bytes, 768u);
        }
        EXPECT_LE(h.mem.fast_peak, fast);
        EXPECT_LE(h.mem.fast_peak, tigris_fast_arena_required(&h.plan));
        EXPECT_EQ(h.mem.fast_used, h.mem.fast_reserved);
    }
}

// The interior tile (5x5 input window, 3x3 output) cannot fit: refused, not
// run whole. The arena is below the plan's declared one: arena exhaustion.
TEST(ExecutorBands, HwRefusesWhenTheInteriorTileDoesNotFit) {
    PlanBuilder b = hw_conv_plan();
    Harness h;
    ASSERT_TRUE(h.load(b.build(), 256, 8192));
    EXPECT_GT(tigris_fast_arena_required(&h.plan), 256u);
    h.write_f32(0, pattern(128));
    EXPECT_EQ(h.run(), TIGRIS_EXEC_ERR_MEM);
}

// x[1,3,5,2] -> Transpose perm [0,2,1,3] -> y[1,5,3,2]: batch 1, a 3x5 matrix
// of 2-float items.
PlanBuilder transpose_plan(uint16_t flags) {
    PlanBuilder b(9);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 3, 5, 2}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 5, 3, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_TRANSPOSE, {x}, {y}, "transpose");
    b.add_attribute(op, TIGRIS_ATTR_TRANSPOSE_PERM, {0, 2, 1, 3});
    uint16_t s = b.add_stage({op}, {x}, {y});
    tigris_test::TilePlan t = height_record(1, 3);
    t.choices.flags = flags;
    b.stages[s].tile = b.add_tile(t);
    return b;
}

struct SeenTranspose {
    std::vector<std::pair<int32_t, int32_t>> shapes;  // (in_h, in_w) per band
};

// Test kernel for the Transpose op: swaps the two middle axes of whatever
// [outer][in_h][in_w][block] band the executor hands over.
int transpose_band(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t, tigris_mem_t *mem, void *ctx) {
    const float *x = static_cast<const float *>(mem->tensor_ptrs[tigris_op_inputs(plan, op)[0]]);
    float *y = static_cast<float *>(mem->tensor_ptrs[tigris_op_outputs(plan, op)[0]]);
    int outer = 1, h = 3, w = 5, blk = 2;
    if (mem->tile.active) {
        if (!mem->tile.transposed_tile || mem->tile.out_h != mem->tile.in_w || mem->tile.out_w != mem->tile.in_h)
            return 1;
        outer = mem->tile.transpose_outer;
        h = mem->tile.in_h;
        w = mem->tile.in_w;
        blk = mem->tile.transpose_block;
        static_cast<SeenTranspose *>(ctx)->shapes.push_back({h, w});
    }
    for (int o = 0; o < outer; ++o)
        for (int i = 0; i < h; ++i)
            for (int j = 0; j < w; ++j)
                for (int e = 0; e < blk; ++e)
                    y[((o * w + j) * h + i) * blk + e] = x[((o * h + i) * w + j) * blk + e];
    return 0;
}

TEST(ExecutorBands, TransposeBandsOnRowsOrColumnsAsTheRecordSays) {
    auto x = pattern(30);
    for (size_t i = 0; i < x.size(); ++i) x[i] += (float)i;
    std::vector<float> want(30);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 5; ++c)
            for (int e = 0; e < 2; ++e) want[(c * 3 + r) * 2 + e] = x[(r * 5 + c) * 2 + e];
    // 160 bytes of fast: two copies of a band must fit. Rows of 5 items (40
    // bytes) go one at a time (2 x 64); columns of 3 items (24 bytes) two at
    // a time (2 x 64), three would need 2 x 96.
    using Shapes = std::vector<std::pair<int32_t, int32_t>>;
    struct Case {
        uint16_t flags;
        Shapes bands;
    };
    for (const Case &c : {Case{0, Shapes{{1, 5}, {1, 5}, {1, 5}}},
                          Case{TIGRIS_TILE_BAND_ON_COLUMNS, Shapes{{3, 2}, {3, 2}, {3, 1}}}}) {
        PlanBuilder b = transpose_plan(c.flags);
        Harness h;
        ASSERT_TRUE(h.load(b.build(), 160, 4096));
        ASSERT_EQ(tigris_stage_band_kind(&h.plan, &h.plan.stages[0], nullptr), TIGRIS_BAND_KIND_TRANSPOSE);
        h.write_f32(0, x);
        SeenTranspose seen;
        ASSERT_EQ(h.run(transpose_band, &seen), TIGRIS_EXEC_OK) << c.flags;
        EXPECT_EQ(h.read_f32(1), want) << c.flags;
        EXPECT_EQ(seen.shapes, c.bands) << c.flags;
        EXPECT_EQ(h.stats.stages_tiled, 1);
        EXPECT_EQ(h.stats.total_tiles, 3u);
        EXPECT_EQ(h.stats.loads_bytes, 120u);
        EXPECT_EQ(h.stats.spills_bytes, 120u);
        EXPECT_LE(h.mem.fast_peak, 160u);
        EXPECT_LE(h.mem.fast_peak, tigris_fast_arena_required(&h.plan));
    }
}

#ifdef TIGRIS_TRACE
constexpr bool kTrace = true;
#else
constexpr bool kTrace = false;
#endif

struct Recorder {
    std::vector<tigris_trace_event_t> events;
    static void cb(const tigris_trace_event_t *e, void *ctx) { static_cast<Recorder *>(ctx)->events.push_back(*e); }
};

// kind, tensor, op, rows, cols: the fields every band event sets.
struct Ev {
    int kind, tensor, op, row0, row1, col0, col1;
    bool operator==(const Ev &) const = default;
};

std::ostream &operator<<(std::ostream &os, const Ev &e) {
    return os << "{kind " << e.kind << ", tensor " << e.tensor << ", op " << e.op << ", rows [" << e.row0 << ","
              << e.row1 << "), cols [" << e.col0 << "," << e.col1 << ")}";
}

std::vector<Ev> simple(const Recorder &r) {
    std::vector<Ev> v;
    for (auto &e : r.events) v.push_back({e.kind, e.tensor, e.op, e.row0, e.row1, e.col0, e.col1});
    return v;
}

constexpr int N = 0xFFFF;
constexpr int SB = TIGRIS_TRACE_STAGE_BEGIN, SE = TIGRIS_TRACE_STAGE_END, TB = TIGRIS_TRACE_TILE_BEGIN,
              LD = TIGRIS_TRACE_LOAD, SP = TIGRIS_TRACE_SPILL, AL = TIGRIS_TRACE_ALLOC, RS = TIGRIS_TRACE_RESET,
              MV = TIGRIS_TRACE_MOVE, OP = TIGRIS_TRACE_OP;

// Sums of the trace agree with the statistics (docs/runtime-semantics.md R1.11).
void check_consistency(const Recorder &rec, const Harness &h) {
    uint64_t loads = 0, spills = 0;
    uint32_t tiles = 0, max_fast = 0;
    for (auto &e : rec.events) {
        if (e.kind == LD) loads += e.bytes;
        if (e.kind == SP) spills += e.bytes;
        if (e.kind == TB) tiles++;
        max_fast = std::max(max_fast, e.fast_used);
        EXPECT_EQ(e.stage, 0);
    }
    EXPECT_EQ(loads, h.stats.loads_bytes);
    EXPECT_EQ(spills, h.stats.spills_bytes);
    EXPECT_EQ(tiles, h.stats.total_tiles);
    EXPECT_EQ(max_fast, h.mem.fast_peak);
}

// fc_plan at 256 bytes of fast: a band of b rows costs ALIGN(64b) + ALIGN(32b),
// 192 for two rows and 288 for three, so four bands of two rows.
TEST(ExecutorBands, RowsEventSequence) {
    if (!kTrace) GTEST_SKIP() << "built without TIGRIS_TRACE";
    PlanBuilder b = fc_plan();
    Harness h;
    ASSERT_TRUE(h.load(b.build(), 256, 4096));
    h.write_f32(0, pattern(128));
    uint32_t x_off = (uint32_t)((uint8_t *)h.mem.tensor_ptrs[0] - h.slow->p);
    Recorder rec;
    tigris_mem_set_trace(&h.mem, Recorder::cb, &rec);
    ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);

    const int x = 0, y = 1;
    std::vector<Ev> want = {{SB, N, N, -1, -1, -1, -1}, {AL, y, N, -1, -1, -1, -1}};
    for (int i = 0; i < 4; ++i) {
        want.push_back({TB, N, i, 2 * i, 2 * i + 2, -1, -1});
        want.push_back({AL, x, N, -1, -1, -1, -1});
        want.push_back({LD, x, N, 2 * i, 2 * i + 2, -1, -1});
        want.push_back({AL, y, N, -1, -1, -1, -1});
        want.push_back({OP, N, 0, -1, -1, -1, -1});
        want.push_back({SP, y, N, 2 * i, 2 * i + 2, -1, -1});
        want.push_back({RS, N, N, -1, -1, -1, -1});
    }
    // x dies here: slow is compacted, which moves y down to where x was.
    want.push_back({MV, y, N, -1, -1, -1, -1});
    want.push_back({RS, N, N, -1, -1, -1, -1});
    want.push_back({SE, N, N, -1, -1, -1, -1});
    want.push_back({RS, N, N, -1, -1, -1, -1});
    EXPECT_EQ(simple(rec), want);
    ASSERT_EQ(rec.events.size(), want.size());
    EXPECT_EQ(rec.events.front().path, TIGRIS_TRACE_PATH_ROWS);
    uint32_t y_off = rec.events[1].offset;
    EXPECT_EQ(rec.events[1].pool, TIGRIS_TRACE_POOL_SLOW);
    for (int i = 0; i < 4; ++i) {
        const auto &al = rec.events[2 + 7 * i + 1], &ld = rec.events[2 + 7 * i + 2];
        const auto &ay = rec.events[2 + 7 * i + 3], &sp = rec.events[2 + 7 * i + 5];
        EXPECT_EQ(ld.pool, TIGRIS_TRACE_POOL_FAST);
        EXPECT_EQ(ld.offset, al.offset);  // the band lands in its own allocation
        EXPECT_EQ(ld.src_offset, x_off + 128u * i);
        EXPECT_EQ(ld.bytes, 128u);
        EXPECT_EQ(sp.pool, TIGRIS_TRACE_POOL_SLOW);
        EXPECT_EQ(sp.offset, y_off + 64u * i);
        EXPECT_EQ(sp.src_offset, ay.offset);
        EXPECT_EQ(sp.bytes, 64u);
    }
    EXPECT_EQ(h.stats.total_tiles, 4u);
    check_consistency(rec, h);
}

// hw_conv_plan at 768 bytes: output tiles [0,3) [3,6) [6,8) per axis read input
// windows [0,4) [2,7) [5,8) (3x3 pad 1: rows o0-1 .. o1, clamped).
TEST(ExecutorBands, HwEventSequence) {
    if (!kTrace) GTEST_SKIP() << "built without TIGRIS_TRACE";
    PlanBuilder b = hw_conv_plan();
    Harness h;
    ASSERT_TRUE(h.load(b.build(), 768, 8192));
    h.write_f32(0, pattern(128));
    Recorder rec;
    tigris_mem_set_trace(&h.mem, Recorder::cb, &rec);
    ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);

    const int x = 0, y = 1;
    const int in_span[3][2] = {{0, 4}, {2, 7}, {5, 8}}, out_span[3][2] = {{0, 3}, {3, 6}, {6, 8}};
    std::vector<Ev> want = {{SB, N, N, -1, -1, -1, -1}, {AL, y, N, -1, -1, -1, -1}};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            const int *ir = in_span[r], *ic = in_span[c], *orow = out_span[r], *oc = out_span[c];
            want.push_back({TB, N, r * 3 + c, ir[0], ir[1], ic[0], ic[1]});
            want.push_back({AL, x, N, -1, -1, -1, -1});
            want.push_back({LD, x, N, ir[0], ir[1], ic[0], ic[1]});
            want.push_back({AL, y, N, -1, -1, -1, -1});
            want.push_back({OP, N, 0, -1, -1, -1, -1});
            want.push_back({SP, y, N, orow[0], orow[1], oc[0], oc[1]});
            want.push_back({RS, N, N, -1, -1, -1, -1});
        }
    want.push_back({MV, y, N, -1, -1, -1, -1});
    want.push_back({RS, N, N, -1, -1, -1, -1});
    want.push_back({SE, N, N, -1, -1, -1, -1});
    want.push_back({RS, N, N, -1, -1, -1, -1});
    EXPECT_EQ(simple(rec), want);
    ASSERT_FALSE(rec.events.empty());
    EXPECT_EQ(rec.events.front().path, TIGRIS_TRACE_PATH_TILED_2D);
    for (auto &e : rec.events) {
        if (e.kind == LD) EXPECT_EQ(e.bytes, (uint32_t)((e.row1 - e.row0) * (e.col1 - e.col0) * 8));
        if (e.kind == SP) EXPECT_EQ(e.bytes, (uint32_t)((e.row1 - e.row0) * (e.col1 - e.col0) * 12));
    }
    check_consistency(rec, h);
}

// Two ROWS stages over [8,16]: the second's input t dies there and has the
// output's row view, so y is written over t's slow bytes band by band.
TEST(ExecutorBands, RowsOutputTakesOverADyingInput) {
    PlanBuilder b(9);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {8, 16}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t t = b.add_tensor("t", TIGRIS_DTYPE_FLOAT32, {8, 16});
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {8, 16}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t a = b.add_op(TIGRIS_OP_RELU, {x}, {t}, "relu");
    uint16_t c = b.add_op(TIGRIS_OP_RELU6, {t}, {y}, "relu6");
    uint16_t s0 = b.add_stage({a}, {x}, {t}), s1 = b.add_stage({c}, {t}, {y});
    b.stages[s0].tile = b.add_tile(height_record(4, 8));
    b.stages[s1].tile = b.add_tile(height_record(4, 8));
    Harness h;
    ASSERT_TRUE(h.load(b.build(), 256, 2048));
    auto in = pattern(128);
    for (auto &v : in) v *= 6.0f;
    h.write_f32(x, in);
    Recorder rec;
    tigris_mem_set_trace(&h.mem, Recorder::cb, &rec);
    ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);
    if (kTrace) {
        int y_slow_allocs = 0, y_spills_over_t = 0;
        uint32_t t_off = UINT32_MAX;
        for (auto &e : rec.events) {
            // t's slow home, followed through compaction moves
            if ((e.kind == AL || e.kind == MV) && e.pool == TIGRIS_TRACE_POOL_SLOW && e.tensor == t) t_off = e.offset;
            if (e.kind == AL && e.pool == TIGRIS_TRACE_POOL_SLOW && e.tensor == y) y_slow_allocs++;
            if (e.kind == SP && e.tensor == y && e.offset == t_off + (uint32_t)e.row0 * 64u) y_spills_over_t++;
        }
        EXPECT_EQ(y_slow_allocs, 0);
        EXPECT_EQ(y_spills_over_t, 4);
    }
    auto out = h.read_f32(y);
    for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i], std::min(6.0f, std::max(0.0f, in[i]))) << i;
    EXPECT_EQ(h.stats.stages_tiled, 2);
    // A band of b rows costs 2 x ALIGN(64b): two rows per band, four bands a stage.
    EXPECT_EQ(h.stats.total_tiles, 8u);
    EXPECT_EQ(h.stats.loads_bytes, 1024u);
    EXPECT_EQ(h.stats.spills_bytes, 1024u);
}

// The accumulator (ALIGN(3 x 4) bytes) does not fit the stage: ERR_MEM.
TEST(ExecutorBands, ByInputRefusesWithoutRoomForTheAccumulator) {
    PlanBuilder b = global_avg_plan();
    Harness h;
    ASSERT_TRUE(h.load(b.build(), 8, 4096));
    h.write_f32(0, pattern(72));
    EXPECT_EQ(h.run(), TIGRIS_EXEC_ERR_MEM);
}

// Two copies of even a one-column band (2 x ALIGN(3 x 8)) exceed 32 bytes:
// arena exhaustion below the declared arena, ERR_MEM.
TEST(ExecutorBands, TransposeRefusesWhenNoBandFits) {
    PlanBuilder b = transpose_plan(TIGRIS_TILE_BAND_ON_COLUMNS);
    Harness h;
    ASSERT_TRUE(h.load(b.build(), 32, 4096));
    EXPECT_GT(tigris_fast_arena_required(&h.plan), 32u);
    h.write_f32(0, pattern(30));
    EXPECT_EQ(h.run(transpose_band, nullptr), TIGRIS_EXEC_ERR_MEM);
}

}  // namespace
