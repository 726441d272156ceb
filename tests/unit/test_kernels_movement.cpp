// Movement kernels (Transpose, Split, Gather, EmbeddingLookup, GatherND,
// StridedSlice, MirrorPad, ReverseV2, DynamicUpdateSlice) through both
// dispatchers. Expected values come from hand-worked cases and from
// coordinate-by-coordinate re-statements of each operator's definition
// written here (multi-index vectors, no strides or remap tables); bands are
// run both by hand-made tile contexts and through the real executor.
#include <algorithm>
#include <functional>
#include <numeric>

#include "test_executor_harness.h"
#include "test_kernels_plan.h"

using kt::KPlan;

namespace {

using Shape = std::vector<int32_t>;
using Coord = std::vector<int64_t>;

size_t count(const Shape &s) {
    size_t n = 1;
    for (int32_t d : s) n *= (size_t)d;
    return n;
}

Coord unravel(size_t i, const Shape &s) {
    Coord c(s.size());
    for (size_t k = s.size(); k-- > 0;) {
        c[k] = (int64_t)(i % (size_t)s[k]);
        i /= (size_t)s[k];
    }
    return c;
}

size_t ravel(const Coord &c, const Shape &s) {
    size_t i = 0;
    for (size_t k = 0; k < s.size(); k++) i = i * (size_t)s[k] + (size_t)c[k];
    return i;
}

// Element values that are all distinct (f32) or spread over the byte range (s8).
template <typename T>
std::vector<T> vals(size_t n, int seed = 0);
template <>
std::vector<float> vals<float>(size_t n, int seed) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; i++) v[i] = (float)i + 0.25f * (float)(seed % 4) - 100.0f;
    return v;
}
template <>
std::vector<int8_t> vals<int8_t>(size_t n, int seed) {
    std::vector<int8_t> v(n);
    for (size_t i = 0; i < n; i++) v[i] = (int8_t)(uint8_t)((i * 37u + 11u + (unsigned)seed * 5u) & 0xFFu);
    return v;
}

template <typename T>
constexpr uint8_t dt() {
    return std::is_same<T, float>::value ? TIGRIS_DTYPE_FLOAT32 : TIGRIS_DTYPE_INT8;
}

// A data tensor of T (int8 ones share one encoding so movement is legal).
template <typename T>
uint16_t data_tensor(KPlan &p, const Shape &s) {
    if (std::is_same<T, float>::value) return p.tensor(TIGRIS_DTYPE_FLOAT32, s);
    if (p.quants.empty()) p.quant(0.5f, 3);
    return p.tensor(TIGRIS_DTYPE_INT8, s, 0);
}

template <typename T>
int run(KPlan &p, uint16_t op) {
    return std::is_same<T, float>::value ? p.run_f32(op) : p.run_s8(op);
}

void movement_attr(KPlan &p, uint16_t op, const std::vector<int32_t> &v) {
    p.attr(op, TIGRIS_ATTR_MOVEMENT, v.data(), v.size() * 4);
}

// Guard bytes after a tensor's data keep KPlan's fill.
bool guard_intact(KPlan &p, uint16_t t) {
    const auto &b = p.buffers[t];
    for (size_t i = p.tensors[t].size_bytes; i < b.size(); i++)
        if (b[i] != 0xA5) return false;
    return true;
}

// Deterministic small generator for shapes and parameters.
struct Rng {
    uint32_t s;
    explicit Rng(uint32_t seed) : s(seed * 2654435761u + 12345u) {}
    uint32_t next() {
        s = s * 1664525u + 1013904223u;
        return s >> 8;
    }
    int32_t in(int32_t lo, int32_t hi) { return lo + (int32_t)(next() % (uint32_t)(hi - lo + 1)); }
};

Shape random_shape(Rng &g, int rank, int max_dim = 4) {
    Shape s(rank);
    for (auto &d : s) d = g.in(1, max_dim);
    return s;
}

// ============================ Transpose ============================

template <typename T>
std::vector<T> ref_transpose(const std::vector<T> &x, const Shape &xs, const std::vector<uint8_t> &perm) {
    Shape ys(perm.size());
    for (size_t a = 0; a < perm.size(); a++) ys[a] = xs[perm[a]];
    std::vector<T> y(x.size());
    for (size_t i = 0; i < y.size(); i++) {
        Coord oc = unravel(i, ys), ic(xs.size());
        for (size_t a = 0; a < perm.size(); a++) ic[perm[a]] = oc[a];
        y[i] = x[ravel(ic, xs)];
    }
    return y;
}

template <typename T>
void check_transpose(const Shape &xs, const std::vector<uint8_t> &perm) {
    KPlan p;
    Shape ys(perm.size());
    for (size_t a = 0; a < perm.size(); a++) ys[a] = xs[perm[a]];
    uint16_t x = data_tensor<T>(p, xs), y = data_tensor<T>(p, ys);
    uint16_t op = p.op(TIGRIS_OP_TRANSPOSE, {x}, {y});
    p.attr(op, TIGRIS_ATTR_TRANSPOSE_PERM, perm.data(), perm.size());
    p.finish();
    auto xv = vals<T>(count(xs));
    p.set(x, xv);
    ASSERT_EQ(run<T>(p, op), 0);
    EXPECT_EQ(p.get<T>(y), ref_transpose(xv, xs, perm));
    EXPECT_TRUE(guard_intact(p, y));
}

TEST(MovementTranspose, HandWorkedMatrix) {
    KPlan p;
    uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 2});
    uint16_t op = p.op(TIGRIS_OP_TRANSPOSE, {x}, {y});
    uint8_t perm[2] = {1, 0};
    p.attr(op, TIGRIS_ATTR_TRANSPOSE_PERM, perm, 2);
    p.finish();
    p.set<float>(x, {1, 2, 3, 4, 5, 6});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(y), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(MovementTranspose, EveryRankOneToSixBothRoutes) {
    Rng g(1);
    for (int rank = 1; rank <= 6; rank++)
        for (int trial = 0; trial < 6; trial++) {
            Shape xs = random_shape(g, rank);
            // Filled by index: GCC 12 at -O3 vectorises std::iota over this
            // small vector and reports a false -Wstringop-overflow.
            std::vector<uint8_t> perm(rank);
            for (int k = 0; k < rank; k++) perm[k] = static_cast<uint8_t>(k);
            for (int k = rank - 1; k > 0; k--) std::swap(perm[k], perm[g.in(0, k)]);
            SCOPED_TRACE(testing::Message() << "rank " << rank << " trial " << trial);
            check_transpose<float>(xs, perm);
            check_transpose<int8_t>(xs, perm);
        }
    check_transpose<float>({1, 1, 1}, {2, 0, 1});  // all-unit shape
    check_transpose<int8_t>({7}, {0});             // identity, rank 1
}

TEST(MovementTranspose, BoolBytesMove) {
    KPlan p;
    uint16_t x = p.tensor(TIGRIS_DTYPE_BOOL, {2, 2}), y = p.tensor(TIGRIS_DTYPE_BOOL, {2, 2});
    uint16_t op = p.op(TIGRIS_OP_TRANSPOSE, {x}, {y});
    uint8_t perm[2] = {1, 0};
    p.attr(op, TIGRIS_ATTR_TRANSPOSE_PERM, perm, 2);
    p.finish();
    p.set<uint8_t>(x, {1, 1, 0, 0});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<uint8_t>(y), (std::vector<uint8_t>{1, 0, 1, 0}));
}

// int8 with two encodings: q_out = round((q - zp_in)·s_in/s_out) + zp_out.
TEST(MovementTranspose, Int8BetweenEncodingsReencodes) {
    KPlan p;
    uint16_t qi = p.quant(0.5f, 2), qo = p.quant(0.25f, -1);
    uint16_t x = p.tensor(TIGRIS_DTYPE_INT8, {2, 2}, qi), y = p.tensor(TIGRIS_DTYPE_INT8, {2, 2}, qo);
    uint16_t op = p.op(TIGRIS_OP_TRANSPOSE, {x}, {y});
    uint8_t perm[2] = {1, 0};
    p.attr(op, TIGRIS_ATTR_TRANSPOSE_PERM, perm, 2);
    p.finish();
    // (5-2)*2-1 = 5, (-3-2)*2-1 = -11, (100-2)*2-1 = 195 -> 127, (-128-2)*2-1 -> -128
    p.set<int8_t>(x, {5, -3, 100, -128});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<int8_t>(y), (std::vector<int8_t>{5, 127, -11, -128}));
}

TEST(MovementTranspose, Refusals) {
    struct Bad {
        const char *what;
        Shape xs, ys;
        std::vector<uint8_t> perm;
        bool attr;
        uint8_t ydt;
    };
    const Bad cases[] = {
        {"duplicate axis", {2, 3}, {2, 3}, {0, 0}, true, TIGRIS_DTYPE_FLOAT32},
        {"axis out of range", {2, 3}, {3, 2}, {1, 2}, true, TIGRIS_DTYPE_FLOAT32},
        {"short perm", {2, 3, 1}, {3, 2, 1}, {1, 0}, true, TIGRIS_DTYPE_FLOAT32},
        {"shape mismatch", {2, 3}, {2, 3}, {1, 0}, true, TIGRIS_DTYPE_FLOAT32},
        {"no attribute", {2, 3}, {3, 2}, {1, 0}, false, TIGRIS_DTYPE_FLOAT32},
        {"dtype change", {2, 3}, {3, 2}, {1, 0}, true, TIGRIS_DTYPE_INT32},
    };
    for (const Bad &c : cases) {
        KPlan p;
        uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, c.xs), y = p.tensor(c.ydt, c.ys);
        uint16_t op = p.op(TIGRIS_OP_TRANSPOSE, {x}, {y});
        if (c.attr) p.attr(op, TIGRIS_ATTR_TRANSPOSE_PERM, c.perm.data(), c.perm.size());
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1) << c.what;
    }
    // A row band is not a transpose band.
    KPlan p;
    uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 2});
    uint16_t op = p.op(TIGRIS_OP_TRANSPOSE, {x}, {y});
    uint8_t perm[2] = {1, 0};
    p.attr(op, TIGRIS_ATTR_TRANSPOSE_PERM, perm, 2);
    p.finish();
    p.mem.tile.active = 1;
    p.mem.tile.row_tiled = TIGRIS_ROW_MODE_ROWS;
    p.mem.tile.in_h = p.mem.tile.out_h = 1;
    EXPECT_EQ(p.run_f32(op), -1);
}

// The band contract of transpose.c by hand: [outer][in_h][in_w] items of
// `block` elements become [outer][in_w][in_h].
TEST(MovementTranspose, HandMadeTransposeBands) {
    // x[2,3,4,2] perm [0,2,1,3]: batch 2, rows 3, cols 4, block 2.
    const Shape xs = {2, 3, 4, 2};
    const std::vector<uint8_t> perm = {0, 2, 1, 3};
    auto xv = vals<float>(count(xs));
    auto want = ref_transpose(xv, xs, perm);  // [2,4,3,2]
    for (bool on_cols : {false, true}) {
        KPlan p;
        uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, xs), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 4, 3, 2});
        uint16_t op = p.op(TIGRIS_OP_TRANSPOSE, {x}, {y});
        p.attr(op, TIGRIS_ATTR_TRANSPOSE_PERM, perm.data(), 4);
        p.finish();
        int extent = on_cols ? 4 : 3, band = 2;
        std::vector<float> got(want.size(), 0.0f);
        for (int start = 0; start < extent; start += band) {
            int n = std::min(band, extent - start);
            int h = on_cols ? 3 : n, w = on_cols ? n : 4;
            std::vector<float> in((size_t)2 * h * w * 2), out(in.size(), -1.0f);
            for (int b = 0; b < 2; b++)
                for (int i = 0; i < h; i++)
                    for (int j = 0; j < w; j++)
                        for (int e = 0; e < 2; e++) {
                            int r = on_cols ? i : start + i, c = on_cols ? start + j : j;
                            in[(((size_t)b * h + i) * w + j) * 2 + e] = xv[(((size_t)b * 3 + r) * 4 + c) * 2 + e];
                        }
            p.ptrs[x] = in.data();
            p.ptrs[y] = out.data();
            tigris_tile_ctx_t &tc = p.mem.tile;
            tc = tigris_tile_ctx_t{};
            tc.active = 1;
            tc.transposed_tile = 1;
            tc.transpose_outer = 2;
            tc.transpose_block = 2;
            tc.in_h = h;
            tc.in_w = w;
            tc.out_h = w;
            tc.out_w = h;
            ASSERT_EQ(p.run_f32(op), 0);
            for (int b = 0; b < 2; b++)
                for (int j = 0; j < w; j++)
                    for (int i = 0; i < h; i++)
                        for (int e = 0; e < 2; e++) {
                            int r = on_cols ? i : start + i, c = on_cols ? start + j : j;
                            got[(((size_t)b * 4 + c) * 3 + r) * 2 + e] = out[(((size_t)b * w + j) * h + i) * 2 + e];
                        }
            // A band that disagrees with the permutation's geometry is refused.
            tc.transpose_outer = 1;
            EXPECT_EQ(p.run_f32(op), -1);
            tc.transpose_outer = 2;
            tc.transpose_block = 1;
            EXPECT_EQ(p.run_f32(op), -1);
            tc.transpose_block = 2;
            tc.out_h = h;
            EXPECT_EQ(p.run_f32(op), -1);
        }
        EXPECT_EQ(got, want) << on_cols;
    }
}

// x -> Transpose -> y as its own stage, run by the executor in bands.
tigris_test::PlanBuilder transpose_stage(uint8_t dtype, const Shape &xs, const std::vector<uint8_t> &perm,
                                         uint16_t flags) {
    tigris_test::PlanBuilder b(9);
    Shape ys(perm.size());
    for (size_t a = 0; a < perm.size(); a++) ys[a] = xs[perm[a]];
    int q = dtype == TIGRIS_DTYPE_INT8 ? b.add_quant(0.5f, 3) : -1;
    uint16_t x = b.add_tensor("x", dtype, xs, TIGRIS_TENSOR_MODEL_INPUT, q);
    uint16_t y = b.add_tensor("y", dtype, ys, TIGRIS_TENSOR_MODEL_OUTPUT, q);
    uint16_t op = b.add_op(TIGRIS_OP_TRANSPOSE, {x}, {y}, "transpose");
    b.add_attribute(op, TIGRIS_ATTR_TRANSPOSE_PERM, perm);
    uint16_t s = b.add_stage({op}, {x}, {y});
    tigris_test::TilePlan t = tigris_test::PlanBuilder::stripe_tile(1, (uint32_t)xs[1], 0, 1);
    t.choices.tiled_peak_bytes = 0;
    t.choices.flags = flags;
    b.stages[s].tile = b.add_tile(t);
    return b;
}

TEST(MovementTranspose, ExecutorTransposeBandsMatchWhole) {
    using namespace tigris_exec_test;
    struct Case {
        uint8_t dtype;
        Shape xs;
        std::vector<uint8_t> perm;
        uint32_t fast;
    };
    // [batch][A][B][suffix] groups of one and two axes, f32 and int8.
    const Case cases[] = {
        {TIGRIS_DTYPE_FLOAT32, {1, 3, 5, 2}, {0, 2, 1, 3}, 160},
        {TIGRIS_DTYPE_FLOAT32, {2, 3, 4, 2, 1}, {0, 3, 1, 2, 4}, 200},
        {TIGRIS_DTYPE_INT8, {3, 7, 5}, {0, 2, 1}, 64},
        {TIGRIS_DTYPE_INT8, {2, 1, 3, 2, 4, 1}, {0, 3, 4, 1, 2, 5}, 64},  // rank 6 (banded ranks are 3..6)
    };
    for (const Case &c : cases) {
        for (uint16_t flags : {(uint16_t)0, (uint16_t)TIGRIS_TILE_BAND_ON_COLUMNS}) {
            SCOPED_TRACE(testing::Message() << "rank " << c.xs.size() << " flags " << flags);
            tigris_test::PlanBuilder b = transpose_stage(c.dtype, c.xs, c.perm, flags);
            Harness h;
            ASSERT_TRUE(h.load(b.build(), c.fast, 8192));
            ASSERT_EQ(tigris_stage_band_kind(&h.plan, &h.plan.stages[0], nullptr), TIGRIS_BAND_KIND_TRANSPOSE);
            size_t n = count(c.xs), es = c.dtype == TIGRIS_DTYPE_INT8 ? 1 : 4;
            std::vector<uint8_t> in(n * es), out(n * es);
            if (es == 4) {
                auto v = vals<float>(n);
                std::memcpy(in.data(), v.data(), in.size());
                auto w = ref_transpose(v, c.xs, c.perm);
                std::memcpy(out.data(), w.data(), out.size());
            } else {
                auto v = vals<int8_t>(n);
                std::memcpy(in.data(), v.data(), in.size());
                auto w = ref_transpose(v, c.xs, c.perm);
                std::memcpy(out.data(), w.data(), out.size());
            }
            h.write_bytes(0, in);
            ASSERT_EQ(h.run(c.dtype == TIGRIS_DTYPE_INT8 ? tigris_dispatch_kernel_s8 : tigris_dispatch_kernel),
                      TIGRIS_EXEC_OK);
            std::vector<uint8_t> got(out.size());
            ASSERT_EQ(tigris_output_read(&h.plan, &h.mem, 1, got.data(), (uint32_t)got.size()), TIGRIS_OK);
            EXPECT_EQ(got, out);
            EXPECT_EQ(h.stats.stages_tiled, 1);
            EXPECT_GT(h.stats.total_tiles, 1u);
            // The same plan with room for everything runs whole.
            Harness w;
            ASSERT_TRUE(w.load(b.build(), 8192, 8192));
            w.write_bytes(0, in);
            ASSERT_EQ(w.run(c.dtype == TIGRIS_DTYPE_INT8 ? tigris_dispatch_kernel_s8 : tigris_dispatch_kernel),
                      TIGRIS_EXEC_OK);
            ASSERT_EQ(tigris_output_read(&w.plan, &w.mem, 1, got.data(), (uint32_t)got.size()), TIGRIS_OK);
            EXPECT_EQ(got, out);
            EXPECT_EQ(w.stats.total_tiles, 0u);
        }
    }
}

// ============================ Split ============================

template <typename T>
void check_split(const Shape &xs, int axis, const std::vector<int32_t> &parts) {
    KPlan p;
    uint16_t x = data_tensor<T>(p, xs);
    std::vector<uint16_t> ys;
    for (int32_t e : parts) {
        Shape s = xs;
        s[axis] = e;
        ys.push_back(data_tensor<T>(p, s));
    }
    uint16_t op = p.op(TIGRIS_OP_SPLIT, {x}, ys);
    p.ops[op].spatial.kernel_h = (uint8_t)axis;
    p.finish();
    auto xv = vals<T>(count(xs));
    p.set(x, xv);
    ASSERT_EQ(run<T>(p, op), 0);
    int32_t off = 0;
    for (size_t k = 0; k < parts.size(); k++) {
        Shape s = xs;
        s[axis] = parts[k];
        std::vector<T> want(count(s));
        for (size_t i = 0; i < want.size(); i++) {
            Coord c = unravel(i, s);
            c[axis] += off;
            want[i] = xv[ravel(c, xs)];
        }
        EXPECT_EQ(p.get<T>(ys[k]), want) << "part " << k;
        EXPECT_TRUE(guard_intact(p, ys[k]));
        off += parts[k];
    }
}

TEST(MovementSplit, HandWorked) {
    KPlan p;
    uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3});
    uint16_t a = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 1}), b = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 2});
    uint16_t op = p.op(TIGRIS_OP_SPLIT, {x}, {a, b});
    p.ops[op].spatial.kernel_h = 1;
    p.finish();
    p.set<float>(x, {1, 2, 3, 4, 5, 6});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(a), (std::vector<float>{1, 4}));
    EXPECT_EQ(p.get<float>(b), (std::vector<float>{2, 3, 5, 6}));
}

TEST(MovementSplit, EveryRankAndAxisBothRoutes) {
    Rng g(2);
    for (int rank = 1; rank <= 6; rank++)
        for (int axis = 0; axis < rank; axis++) {
            Shape xs = random_shape(g, rank, 3);
            xs[axis] = g.in(2, 6);
            std::vector<int32_t> parts;
            int32_t left = xs[axis];
            while (left > 0) {
                int32_t e = parts.size() == 2 ? left : std::min(left, g.in(1, 3));
                if (parts.empty() && e == left) e = left - 1;  // at least two parts
                parts.push_back(e);
                left -= e;
            }
            SCOPED_TRACE(testing::Message() << "rank " << rank << " axis " << axis);
            check_split<float>(xs, axis, parts);
            check_split<int8_t>(xs, axis, parts);
        }
}

TEST(MovementSplit, Refusals) {
    auto make = [](KPlan &p, Shape a, Shape b, int axis, uint8_t bdt = TIGRIS_DTYPE_FLOAT32) {
        uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 4});
        uint16_t y0 = p.tensor(TIGRIS_DTYPE_FLOAT32, a), y1 = p.tensor(bdt, b);
        uint16_t op = p.op(TIGRIS_OP_SPLIT, {x}, {y0, y1});
        p.ops[op].spatial.kernel_h = (uint8_t)axis;
        p.finish();
        return op;
    };
    {
        KPlan p;
        EXPECT_EQ(p.run_f32(make(p, {2, 1}, {2, 2}, 1)), -1);  // parts short of the axis
    }
    {
        KPlan p;
        EXPECT_EQ(p.run_f32(make(p, {2, 3}, {2, 2}, 1)), -1);  // parts beyond it
    }
    {
        KPlan p;
        EXPECT_EQ(p.run_f32(make(p, {2, 2}, {2, 2}, 2)), -1);  // axis >= rank
    }
    {
        KPlan p;
        EXPECT_EQ(p.run_f32(make(p, {2, 2}, {1, 2}, 1)), -1);  // other axis differs
    }
    {
        KPlan p;
        EXPECT_EQ(p.run_f32(make(p, {2, 2}, {2, 2}, 1, TIGRIS_DTYPE_INT32)), -1);  // dtype
    }
    {
        KPlan p;
        uint16_t op = make(p, {2, 2}, {2, 2}, 1);
        ASSERT_EQ(p.run_f32(op), 0);
        p.mem.tile.active = 1;  // never banded
        p.mem.tile.in_h = p.mem.tile.out_h = 1;
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {
        KPlan p;  // int8 parts in another encoding
        uint16_t q0 = p.quant(0.5f, 0), q1 = p.quant(0.5f, 1);
        uint16_t x = p.tensor(TIGRIS_DTYPE_INT8, {4}, q0);
        uint16_t y0 = p.tensor(TIGRIS_DTYPE_INT8, {2}, q0), y1 = p.tensor(TIGRIS_DTYPE_INT8, {2}, q1);
        uint16_t op = p.op(TIGRIS_OP_SPLIT, {x}, {y0, y1});
        p.finish();
        EXPECT_EQ(p.run_s8(op), -1);
    }
}

// ============================ Gather / EmbeddingLookup ============================

template <typename T>
std::vector<T> ref_gather(const std::vector<T> &x, const Shape &xs, int axis, int batch,
                          const std::vector<int32_t> &idx, const Shape &is, Shape *ys_out) {
    Shape ys(xs.begin(), xs.begin() + axis);
    ys.insert(ys.end(), is.begin() + batch, is.end());
    ys.insert(ys.end(), xs.begin() + axis + 1, xs.end());
    std::vector<T> y(count(ys));
    int ni = (int)is.size() - batch;
    for (size_t i = 0; i < y.size(); i++) {
        Coord oc = unravel(i, ys);
        // index coordinate: batch dims (= output's first `batch`), then the index dims
        Coord icoord(is.size());
        for (int k = 0; k < batch; k++) icoord[k] = oc[k];
        for (int k = 0; k < ni; k++) icoord[batch + k] = oc[axis + k];
        Coord xc(xs.size());
        for (int k = 0; k < axis; k++) xc[k] = oc[k];
        xc[axis] = idx[ravel(icoord, is)];
        for (size_t k = axis + 1; k < xs.size(); k++) xc[k] = oc[axis + ni + (k - axis - 1)];
        y[i] = x[ravel(xc, xs)];
    }
    *ys_out = ys;
    return y;
}

// Gather with constant (weight) or runtime indices; returns the kernel's result.
template <typename T>
int run_gather(uint8_t opcode, const Shape &xs, int axis, int batch, const std::vector<int32_t> &idx,
               const Shape &is, bool runtime, const Shape &ys, const std::vector<T> &xv, std::vector<T> *got) {
    KPlan p;
    uint16_t x = data_tensor<T>(p, xs), y = data_tensor<T>(p, ys);
    uint16_t it = 0;
    if (runtime) it = p.tensor(TIGRIS_DTYPE_INT32, is);
    uint16_t op = p.op(opcode, runtime ? std::vector<uint16_t>{x, it} : std::vector<uint16_t>{x}, {y});
    if (!runtime) p.ops[op].weight_idx = p.weight(idx);
    std::vector<int32_t> m = {axis, batch, (int32_t)is.size()};
    m.insert(m.end(), is.begin(), is.end());
    movement_attr(p, op, m);
    p.finish();
    p.set(x, xv);
    if (runtime) p.set(it, idx);
    int rc = run<T>(p, op);
    if (got) *got = p.get<T>(y);
    if (rc == 0 && !guard_intact(p, y)) return -99;
    return rc;
}

TEST(MovementGather, HandWorked) {
    // x[3,2] rows {10,11},{20,21},{30,31}; axis 0 indices [2,0,2] -> [3,2]
    std::vector<float> got;
    ASSERT_EQ(run_gather<float>(TIGRIS_OP_GATHER, {3, 2}, 0, 0, {2, 0, 2}, {3}, false, {3, 2},
                                {10, 11, 20, 21, 30, 31}, &got),
              0);
    EXPECT_EQ(got, (std::vector<float>{30, 31, 10, 11, 30, 31}));
    // axis 1 with a 2x2 index matrix -> [3,2,2]
    ASSERT_EQ(run_gather<float>(TIGRIS_OP_GATHER, {3, 2}, 1, 0, {1, 0, 1, 1}, {2, 2}, true, {3, 2, 2},
                                {10, 11, 20, 21, 30, 31}, &got),
              0);
    EXPECT_EQ(got, (std::vector<float>{11, 10, 11, 11, 21, 20, 21, 21, 31, 30, 31, 31}));
    // batch_dims 1: row b picks its own indices: x[2,3], idx[2,2] = {{2,0},{1,1}}
    ASSERT_EQ(run_gather<float>(TIGRIS_OP_GATHER, {2, 3}, 1, 1, {2, 0, 1, 1}, {2, 2}, false, {2, 2},
                                {1, 2, 3, 4, 5, 6}, &got),
              0);
    EXPECT_EQ(got, (std::vector<float>{3, 1, 5, 5}));
    // a scalar index (index rank 0) drops the axis: x[3,2] axis 0 idx 1 -> [2]
    ASSERT_EQ(run_gather<float>(TIGRIS_OP_GATHER, {3, 2}, 0, 0, {1}, {}, false, {2}, {10, 11, 20, 21, 30, 31},
                                &got),
              0);
    EXPECT_EQ(got, (std::vector<float>{20, 21}));
}

template <typename T>
void gather_sweep(uint32_t seed) {
    Rng g(seed);
    for (int rank = 1; rank <= 6; rank++)
        for (int trial = 0; trial < 8; trial++) {
            Shape xs = random_shape(g, rank, 3);
            int axis = g.in(0, rank - 1), batch = g.in(0, axis);
            int extra = g.in(0, std::min(2, 6 - rank + 1));  // index dims beyond the batch dims
            Shape is(xs.begin(), xs.begin() + batch);
            for (int k = 0; k < extra; k++) is.push_back(g.in(1, 3));
            if ((int)is.size() - batch + rank - 1 > 6) continue;
            std::vector<int32_t> idx(count(is));
            for (auto &v : idx) v = g.in(0, xs[axis] - 1);
            bool runtime = trial % 2;
            auto xv = vals<T>(count(xs), trial);
            Shape ys;
            auto want = ref_gather(xv, xs, axis, batch, idx, is, &ys);
            std::vector<T> got;
            SCOPED_TRACE(testing::Message() << "rank " << rank << " axis " << axis << " batch " << batch
                                            << " index rank " << is.size() << (runtime ? " runtime" : " const"));
            ASSERT_EQ(run_gather<T>(TIGRIS_OP_GATHER, xs, axis, batch, idx, is, runtime, ys, xv, &got), 0);
            EXPECT_EQ(got, want);
        }
}

TEST(MovementGather, EveryRankAxisAndBatchDimsBothRoutes) {
    gather_sweep<float>(3);
    gather_sweep<int8_t>(4);
}

TEST(MovementGather, OutOfRangeIndexAndInconsistenciesAreRefused) {
    auto xv = vals<float>(6);
    for (int32_t bad : {-1, 3, 1000, INT32_MIN})
        for (bool runtime : {false, true})
            EXPECT_EQ(run_gather<float>(TIGRIS_OP_GATHER, {3, 2}, 0, 0, {0, bad}, {2}, runtime, {2, 2}, xv, nullptr),
                      -1)
                << bad;
    auto xq = vals<int8_t>(6);
    EXPECT_EQ(run_gather<int8_t>(TIGRIS_OP_GATHER, {3, 2}, 1, 0, {2}, {1}, true, {3, 1}, xq, nullptr), -1);
    // index batch dims must equal the input's
    EXPECT_EQ(run_gather<float>(TIGRIS_OP_GATHER, {2, 3}, 1, 1, {0, 0, 0}, {3, 1}, false, {2, 1}, xv, nullptr), -1);
    // output shape that is not x[:axis] ‖ idx[batch:] ‖ x[axis+1:]
    EXPECT_EQ(run_gather<float>(TIGRIS_OP_GATHER, {3, 2}, 0, 0, {0, 1}, {2}, false, {2, 3}, xv, nullptr), -1);
    // batch_dims > axis, axis >= rank
    EXPECT_EQ(run_gather<float>(TIGRIS_OP_GATHER, {3, 2}, 0, 1, {0, 0, 0}, {3}, false, {3, 2}, xv, nullptr), -1);
    EXPECT_EQ(run_gather<float>(TIGRIS_OP_GATHER, {3, 2}, 2, 0, {0}, {1}, false, {3, 2}, xv, nullptr), -1);
    {
        // runtime indices of the wrong dtype / wrong shape; a weight of the wrong size
        KPlan p;
        uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 2}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 2});
        uint16_t it = p.tensor(TIGRIS_DTYPE_FLOAT32, {2});
        uint16_t op = p.op(TIGRIS_OP_GATHER, {x, it}, {y});
        movement_attr(p, op, {0, 0, 1, 2});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {
        KPlan p;
        uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 2}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 2});
        uint16_t op = p.op(TIGRIS_OP_GATHER, {x}, {y});
        p.ops[op].weight_idx = p.weight(std::vector<int32_t>{0, 1, 2});
        movement_attr(p, op, {0, 0, 1, 2});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {
        KPlan p;  // missing and malformed payloads
        uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 2}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 2});
        uint16_t op = p.op(TIGRIS_OP_GATHER, {x}, {y});
        p.ops[op].weight_idx = p.weight(std::vector<int32_t>{0, 1});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
        KPlan q;
        x = q.tensor(TIGRIS_DTYPE_FLOAT32, {3, 2});
        y = q.tensor(TIGRIS_DTYPE_FLOAT32, {2, 2});
        op = q.op(TIGRIS_OP_GATHER, {x}, {y});
        q.ops[op].weight_idx = q.weight(std::vector<int32_t>{0, 1});
        movement_attr(q, op, {0, 0, 1});  // index shape missing
        q.finish();
        EXPECT_EQ(q.run_f32(op), -1);
    }
}

TEST(MovementEmbeddingLookup, RowsByIdBothRoutes) {
    std::vector<float> got;
    ASSERT_EQ(run_gather<float>(TIGRIS_OP_EMBEDDING_LOOKUP, {3, 2}, 0, 0, {1, 1, 0, 2}, {4}, false, {4, 2},
                                {10, 11, 20, 21, 30, 31}, &got),
              0);
    EXPECT_EQ(got, (std::vector<float>{20, 21, 20, 21, 10, 11, 30, 31}));
    Rng g(5);
    for (int rank = 2; rank <= 6; rank++) {
        Shape xs = random_shape(g, rank, 3);
        xs[0] = 4;
        Shape is = {g.in(1, 5)};
        std::vector<int32_t> idx(is[0]);
        for (auto &v : idx) v = g.in(0, 3);
        auto xv = vals<int8_t>(count(xs), rank);
        Shape ys;
        auto want = ref_gather(xv, xs, 0, 0, idx, is, &ys);
        std::vector<int8_t> gq;
        ASSERT_EQ(run_gather<int8_t>(TIGRIS_OP_EMBEDDING_LOOKUP, xs, 0, 0, idx, is, rank % 2, ys, xv, &gq), 0) << rank;
        EXPECT_EQ(gq, want) << rank;
        auto xf = vals<float>(count(xs), rank);
        auto wf = ref_gather(xf, xs, 0, 0, idx, is, &ys);
        ASSERT_EQ(run_gather<float>(TIGRIS_OP_EMBEDDING_LOOKUP, xs, 0, 0, idx, is, rank % 2 == 0, ys, xf, &got), 0);
        EXPECT_EQ(got, wf) << rank;
    }
}

TEST(MovementEmbeddingLookup, Refusals) {
    auto xv = vals<float>(6);
    EXPECT_EQ(run_gather<float>(TIGRIS_OP_EMBEDDING_LOOKUP, {3, 2}, 0, 0, {3}, {1}, false, {1, 2}, xv, nullptr), -1);
    EXPECT_EQ(run_gather<float>(TIGRIS_OP_EMBEDDING_LOOKUP, {3, 2}, 0, 0, {-1}, {1}, true, {1, 2}, xv, nullptr), -1);
    // axis 1, index rank 2, rank 1 input: not an embedding lookup
    EXPECT_EQ(run_gather<float>(TIGRIS_OP_EMBEDDING_LOOKUP, {3, 2}, 1, 0, {0}, {1}, false, {3, 1}, xv, nullptr), -1);
    EXPECT_EQ(run_gather<float>(TIGRIS_OP_EMBEDDING_LOOKUP, {3, 2}, 0, 0, {0, 0}, {1, 2}, false, {1, 2, 2}, xv,
                                nullptr),
              -1);
    EXPECT_EQ(run_gather<float>(TIGRIS_OP_EMBEDDING_LOOKUP, {6}, 0, 0, {0}, {1}, false, {1}, xv, nullptr), -1);
}

// ============================ GatherND ============================

template <typename T>
std::vector<T> ref_gather_nd(const std::vector<T> &x, const Shape &xs, const std::vector<int32_t> &idx,
                             const Shape &is, Shape *ys_out) {
    int depth = is.back();
    Shape ys(is.begin(), is.end() - 1);
    ys.insert(ys.end(), xs.begin() + depth, xs.end());
    std::vector<T> y(count(ys));
    size_t nlead = is.size() - 1;
    for (size_t i = 0; i < y.size(); i++) {
        Coord oc = unravel(i, ys);
        Coord lead(oc.begin(), oc.begin() + nlead);
        Shape ls(is.begin(), is.end() - 1);
        size_t t = ravel(lead, ls);
        Coord xc(xs.size());
        for (int d = 0; d < depth; d++) xc[d] = idx[t * depth + d];
        for (size_t k = depth; k < xs.size(); k++) xc[k] = oc[nlead + k - depth];
        y[i] = x[ravel(xc, xs)];
    }
    *ys_out = ys;
    return y;
}

template <typename T>
int run_gather_nd(const Shape &xs, const std::vector<int32_t> &idx, const Shape &is, bool runtime, const Shape &ys,
                  const std::vector<T> &xv, std::vector<T> *got) {
    KPlan p;
    uint16_t x = data_tensor<T>(p, xs), y = data_tensor<T>(p, ys);
    uint16_t it = 0;
    if (runtime) it = p.tensor(TIGRIS_DTYPE_INT32, is);
    uint16_t op = p.op(TIGRIS_OP_GATHER_ND, runtime ? std::vector<uint16_t>{x, it} : std::vector<uint16_t>{x}, {y});
    if (!runtime) p.ops[op].weight_idx = p.weight(idx);
    std::vector<int32_t> m = {(int32_t)is.size()};
    m.insert(m.end(), is.begin(), is.end());
    movement_attr(p, op, m);
    p.finish();
    p.set(x, xv);
    if (runtime) p.set(it, idx);
    int rc = run<T>(p, op);
    if (got) *got = p.get<T>(y);
    if (rc == 0 && !guard_intact(p, y)) return -99;
    return rc;
}

TEST(MovementGatherNd, HandWorked) {
    // x[2,2,2] = 0..7; idx [[1,0],[0,1]] depth 2 -> rows x[1,0,:], x[0,1,:]
    std::vector<float> got;
    std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7};
    ASSERT_EQ(run_gather_nd<float>({2, 2, 2}, {1, 0, 0, 1}, {2, 2}, false, {2, 2}, x, &got), 0);
    EXPECT_EQ(got, (std::vector<float>{4, 5, 2, 3}));
    // depth 3 picks single elements: [[1,1,1],[0,1,0]] -> {7, 2}
    ASSERT_EQ(run_gather_nd<float>({2, 2, 2}, {1, 1, 1, 0, 1, 0}, {2, 3}, true, {2}, x, &got), 0);
    EXPECT_EQ(got, (std::vector<float>{7, 2}));
}

template <typename T>
void gather_nd_sweep(uint32_t seed) {
    Rng g(seed);
    for (int rank = 1; rank <= 6; rank++)
        for (int depth = 1; depth <= std::min(rank, 5); depth++) {
            Shape xs = random_shape(g, rank, 3);
            Shape is;
            int lead = g.in(0, 2);
            for (int k = 0; k < lead; k++) is.push_back(g.in(1, 3));
            while ((int)is.size() + rank - depth > 6) is.pop_back();
            is.push_back(depth);
            std::vector<int32_t> idx(count(is));
            for (size_t i = 0; i < idx.size(); i++) idx[i] = g.in(0, xs[i % depth] - 1);
            auto xv = vals<T>(count(xs), depth);
            Shape ys;
            auto want = ref_gather_nd(xv, xs, idx, is, &ys);
            std::vector<T> got;
            SCOPED_TRACE(testing::Message() << "rank " << rank << " depth " << depth);
            ASSERT_EQ(run_gather_nd<T>(xs, idx, is, depth % 2 == 1, ys, xv, &got), 0);
            EXPECT_EQ(got, want);
        }
}

TEST(MovementGatherNd, EveryRankAndDepthBothRoutes) {
    gather_nd_sweep<float>(6);
    gather_nd_sweep<int8_t>(7);
}

TEST(MovementGatherNd, Refusals) {
    auto xv = vals<float>(8);
    for (int32_t bad : {-1, 2})
        for (bool runtime : {false, true})
            EXPECT_EQ(run_gather_nd<float>({2, 2, 2}, {0, bad}, {1, 2}, runtime, {1, 2}, xv, nullptr), -1) << bad;
    // depth beyond the rank; output shape mismatch
    EXPECT_EQ(run_gather_nd<float>({2, 4}, {0, 0, 0}, {1, 3}, false, {1}, xv, nullptr), -1);
    EXPECT_EQ(run_gather_nd<float>({2, 2, 2}, {0, 1}, {1, 2}, false, {2, 2}, xv, nullptr), -1);
    // depth 6 (above the limit of 5) on a rank-6 input
    auto x6 = vals<float>(64);
    EXPECT_EQ(run_gather_nd<float>({2, 2, 2, 2, 2, 2}, {0, 0, 0, 0, 0, 0}, {1, 6}, false, {1}, x6, nullptr), -1);
}

// ============================ StridedSlice ============================

struct Slice {
    int32_t start, end, step;
};

int64_t slice_count(const Slice &s) {
    // elements start, start+step, ... strictly before end
    int64_t n = 0;
    for (int64_t i = s.start; s.step > 0 ? i < s.end : i > s.end; i += s.step) n++;
    return n;
}

template <typename T>
int run_slice(const Shape &xs, const std::vector<Slice> &sl, int32_t shrink, const std::vector<T> &xv,
              std::vector<T> *got, Shape *ys_out = nullptr, const Shape *ys_force = nullptr) {
    Shape ys;
    for (size_t a = 0; a < xs.size(); a++)
        if (!(shrink >= 0 && ((shrink >> a) & 1))) ys.push_back((int32_t)std::max<int64_t>(1, slice_count(sl[a])));
    if (ys_force) ys = *ys_force;
    if (ys_out) *ys_out = ys;
    KPlan p;
    uint16_t x = data_tensor<T>(p, xs), y = data_tensor<T>(p, ys);
    uint16_t op = p.op(TIGRIS_OP_STRIDED_SLICE, {x}, {y});
    std::vector<int32_t> m;
    for (const Slice &s : sl) m.insert(m.end(), {s.start, s.end, s.step});
    if (shrink >= 0) m.push_back(shrink);
    movement_attr(p, op, m);
    p.finish();
    p.set(x, xv);
    int rc = run<T>(p, op);
    if (got) *got = p.get<T>(y);
    if (rc == 0 && !guard_intact(p, y)) return -99;
    return rc;
}

template <typename T>
std::vector<T> ref_slice(const std::vector<T> &x, const Shape &xs, const std::vector<Slice> &sl, int32_t shrink) {
    // walk every input coordinate combination the slice selects, in order
    std::vector<std::vector<int64_t>> pick(xs.size());
    for (size_t a = 0; a < xs.size(); a++)
        for (int64_t i = sl[a].start; sl[a].step > 0 ? i < sl[a].end : i > sl[a].end; i += sl[a].step)
            pick[a].push_back(i);
    (void)shrink;  // a shrunk axis picks one element either way
    std::vector<T> y;
    Shape ps;
    for (auto &v : pick) ps.push_back((int32_t)v.size());
    for (size_t i = 0; i < count(ps); i++) {
        Coord c = unravel(i, ps), xc(xs.size());
        for (size_t a = 0; a < xs.size(); a++) xc[a] = pick[a][c[a]];
        y.push_back(x[ravel(xc, xs)]);
    }
    return y;
}

TEST(MovementStridedSlice, HandWorked) {
    std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    std::vector<float> got;
    ASSERT_EQ(run_slice<float>({10}, {{1, 8, 3}}, -1, x, &got), 0);
    EXPECT_EQ(got, (std::vector<float>{1, 4, 7}));
    ASSERT_EQ(run_slice<float>({10}, {{9, -1, -4}}, -1, x, &got), 0);  // negative step down to index 0
    EXPECT_EQ(got, (std::vector<float>{9, 5, 1}));
    // x[2,5]: row 1 shrunk away, columns 4..0 backwards -> [5]
    ASSERT_EQ(run_slice<float>({2, 5}, {{1, 2, 1}, {4, -1, -1}}, 1, x, &got), 0);
    EXPECT_EQ(got, (std::vector<float>{9, 8, 7, 6, 5}));
    // everything shrunk: a rank-0 output of one element
    Shape none;
    ASSERT_EQ(run_slice<float>({2, 5}, {{1, 2, 1}, {3, 4, 1}}, 3, x, &got, nullptr, &none), 0);
    EXPECT_EQ(got, (std::vector<float>{8}));
}

template <typename T>
void slice_sweep(uint32_t seed, int max_rank) {
    Rng g(seed);
    for (int rank = 1; rank <= max_rank; rank++)
        for (int trial = 0; trial < 10; trial++) {
            Shape xs = random_shape(g, rank, 5);
            std::vector<Slice> sl(rank);
            int32_t shrink = trial % 3 == 0 ? 0 : -1;
            for (int a = 0; a < rank; a++) {
                Slice &s = sl[a];
                s.start = g.in(0, xs[a] - 1);
                if (shrink >= 0 && g.in(0, 2) == 0) {
                    s.end = s.start + 1;
                    s.step = g.in(1, 3);
                    shrink |= 1 << a;
                    continue;
                }
                if (g.in(0, 1)) {
                    s.step = g.in(1, 3);
                    s.end = g.in(s.start + 1, xs[a]);
                } else {
                    s.step = -g.in(1, 3);
                    s.end = g.in(-1, s.start - 1);
                }
            }
            auto xv = vals<T>(count(xs), trial);
            auto want = ref_slice(xv, xs, sl, shrink);
            std::vector<T> got;
            SCOPED_TRACE(testing::Message() << "rank " << rank << " trial " << trial << " shrink " << shrink);
            ASSERT_EQ(run_slice<T>(xs, sl, shrink, xv, &got), 0);
            EXPECT_EQ(got, want);
        }
}

// The loader caps StridedSlice at rank 4; the kernel is general (5 and 6 too).
TEST(MovementStridedSlice, EveryRankStepsAndShrinkBothRoutes) {
    slice_sweep<float>(8, 6);
    slice_sweep<int8_t>(9, 6);
}

TEST(MovementStridedSlice, Refusals) {
    auto xv = vals<float>(10);
    Shape three = {3}, two = {2}, four = {4};
    EXPECT_EQ(run_slice<float>({10}, {{1, 8, 0}}, -1, xv, nullptr, nullptr, &three), -1);    // step 0
    EXPECT_EQ(run_slice<float>({10}, {{1, 8, 3}}, -1, xv, nullptr, nullptr, &two), -1);      // count mismatch
    EXPECT_EQ(run_slice<float>({10}, {{10, 11, 1}}, -1, xv, nullptr, nullptr, &three), -1);  // start outside
    EXPECT_EQ(run_slice<float>({10}, {{-1, 2, 1}}, -1, xv, nullptr, nullptr, &three), -1);   // negative start
    EXPECT_EQ(run_slice<float>({10}, {{8, 12, 1}}, -1, xv, nullptr, nullptr, &four), -1);   // end past the axis
    Shape none;
    EXPECT_EQ(run_slice<float>({10}, {{1, 3, 1}}, 1, xv, nullptr, nullptr, &none), -1);  // shrink of two elements
    EXPECT_EQ(run_slice<float>({10}, {{3, 2, -1}}, 1, xv, nullptr, nullptr, &none), -1);  // shrink, negative step
    EXPECT_EQ(run_slice<float>({2, 5}, {{0, 2, 1}, {0, 5, 1}}, 4, xv, nullptr), -1);     // mask bit beyond rank
}

// ============================ MirrorPad ============================

int64_t mirror(int64_t c, int64_t n, int mode) {
    // reflect (mode 0) leaves the edge out, symmetric (mode 1) repeats it
    while (c < 0 || c >= n) {
        if (c < 0) c = mode ? -c - 1 : -c;
        else c = mode ? 2 * n - 1 - c : 2 * n - 2 - c;
    }
    return c;
}

template <typename T>
int run_mirror(const Shape &xs, int mode, const std::vector<std::pair<int, int>> &pads, const std::vector<T> &xv,
               std::vector<T> *got, std::vector<T> *want) {
    Shape ys(xs.size());
    for (size_t a = 0; a < xs.size(); a++) ys[a] = xs[a] + pads[a].first + pads[a].second;
    KPlan p;
    uint16_t x = data_tensor<T>(p, xs), y = data_tensor<T>(p, ys);
    uint16_t op = p.op(TIGRIS_OP_MIRROR_PAD, {x}, {y});
    std::vector<int32_t> m = {mode};
    for (auto &pp : pads) m.insert(m.end(), {pp.first, pp.second});
    movement_attr(p, op, m);
    p.finish();
    p.set(x, xv);
    if (want) {
        want->assign(count(ys), T{});
        for (size_t i = 0; i < want->size(); i++) {
            Coord c = unravel(i, ys);
            for (size_t a = 0; a < xs.size(); a++) c[a] = mirror(c[a] - pads[a].first, xs[a], mode);
            (*want)[i] = xv[ravel(c, xs)];
        }
    }
    int rc = run<T>(p, op);
    if (got) *got = p.get<T>(y);
    if (rc == 0 && !guard_intact(p, y)) return -99;
    return rc;
}

TEST(MovementMirrorPad, HandWorkedReflectAndSymmetric) {
    std::vector<float> got;
    ASSERT_EQ(run_mirror<float>({3}, 0, {{2, 2}}, {1, 2, 3}, &got, nullptr), 0);
    EXPECT_EQ(got, (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
    ASSERT_EQ(run_mirror<float>({3}, 1, {{3, 2}}, {1, 2, 3}, &got, nullptr), 0);
    EXPECT_EQ(got, (std::vector<float>{3, 2, 1, 1, 2, 3, 3, 2}));
    // 2-D: [[1,2],[3,4]] symmetric (1,0),(0,1)
    ASSERT_EQ(run_mirror<float>({2, 2}, 1, {{1, 0}, {0, 1}}, {1, 2, 3, 4}, &got, nullptr), 0);
    EXPECT_EQ(got, (std::vector<float>{1, 2, 2, 1, 2, 2, 3, 4, 4}));
}

template <typename T>
void mirror_sweep(uint32_t seed) {
    Rng g(seed);
    for (int rank = 1; rank <= 6; rank++)
        for (int mode = 0; mode <= 1; mode++) {
            Shape xs = random_shape(g, rank, rank > 4 ? 2 : 4);
            std::vector<std::pair<int, int>> pads(rank);
            for (int a = 0; a < rank; a++) {
                int most = xs[a] - 1 + mode;  // the largest pad the definition allows
                pads[a] = {g.in(0, std::min(most, 3)), g.in(0, std::min(most, 3))};
            }
            auto xv = vals<T>(count(xs), mode);
            std::vector<T> got, want;
            SCOPED_TRACE(testing::Message() << "rank " << rank << " mode " << mode);
            ASSERT_EQ(run_mirror<T>(xs, mode, pads, xv, &got, &want), 0);
            EXPECT_EQ(got, want);
        }
}

TEST(MovementMirrorPad, EveryRankBothModesBothRoutes) {
    mirror_sweep<float>(10);
    mirror_sweep<int8_t>(11);
    // the widest pads: n - 1 (reflect) and n (symmetric)
    std::vector<float> got, want;
    ASSERT_EQ(run_mirror<float>({4, 3}, 0, {{3, 3}, {2, 2}}, vals<float>(12), &got, &want), 0);
    EXPECT_EQ(got, want);
    ASSERT_EQ(run_mirror<float>({4, 3}, 1, {{4, 4}, {3, 3}}, vals<float>(12), &got, &want), 0);
    EXPECT_EQ(got, want);
}

TEST(MovementMirrorPad, Refusals) {
    auto xv = vals<float>(3);
    EXPECT_EQ(run_mirror<float>({3}, 0, {{3, 0}}, xv, nullptr, nullptr), -1);  // reflect pad = n
    EXPECT_EQ(run_mirror<float>({3}, 1, {{0, 4}}, xv, nullptr, nullptr), -1);  // symmetric pad = n + 1
    EXPECT_EQ(run_mirror<float>({1}, 0, {{1, 0}}, xv, nullptr, nullptr), -1);  // nothing to reflect
    EXPECT_EQ(run_mirror<float>({3}, 2, {{1, 1}}, xv, nullptr, nullptr), -1);  // unknown mode
    KPlan p;  // output extent that is not in + before + after
    uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {3}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {6});
    uint16_t op = p.op(TIGRIS_OP_MIRROR_PAD, {x}, {y});
    movement_attr(p, op, {0, 1, 1});
    p.finish();
    EXPECT_EQ(p.run_f32(op), -1);
}

// ============================ ReverseV2 ============================

template <typename T>
int run_reverse(const Shape &xs, int32_t mask, const std::vector<T> &xv, std::vector<T> *got, std::vector<T> *want) {
    KPlan p;
    uint16_t x = data_tensor<T>(p, xs), y = data_tensor<T>(p, xs);
    uint16_t op = p.op(TIGRIS_OP_REVERSE_V2, {x}, {y});
    movement_attr(p, op, {mask});
    p.finish();
    p.set(x, xv);
    if (want) {
        want->assign(xv.size(), T{});
        for (size_t i = 0; i < xv.size(); i++) {
            Coord c = unravel(i, xs);
            for (size_t a = 0; a < xs.size(); a++)
                if ((mask >> a) & 1) c[a] = xs[a] - 1 - c[a];
            (*want)[i] = xv[ravel(c, xs)];
        }
    }
    int rc = run<T>(p, op);
    if (got) *got = p.get<T>(y);
    if (rc == 0 && !guard_intact(p, y)) return -99;
    return rc;
}

TEST(MovementReverse, HandWorked) {
    std::vector<float> got;
    ASSERT_EQ(run_reverse<float>({2, 3}, 2, {1, 2, 3, 4, 5, 6}, &got, nullptr), 0);  // bit 1 = last axis
    EXPECT_EQ(got, (std::vector<float>{3, 2, 1, 6, 5, 4}));
    ASSERT_EQ(run_reverse<float>({2, 3}, 1, {1, 2, 3, 4, 5, 6}, &got, nullptr), 0);  // bit 0 = outermost
    EXPECT_EQ(got, (std::vector<float>{4, 5, 6, 1, 2, 3}));
    ASSERT_EQ(run_reverse<float>({2, 3}, 3, {1, 2, 3, 4, 5, 6}, &got, nullptr), 0);
    EXPECT_EQ(got, (std::vector<float>{6, 5, 4, 3, 2, 1}));
}

TEST(MovementReverse, EveryRankAndContiguousMaskBothRoutes) {
    Rng g(12);
    for (int rank = 1; rank <= 6; rank++)
        for (int lo = 0; lo < rank; lo++)
            for (int hi = lo; hi < rank; hi++) {
                int32_t mask = 0;
                for (int a = lo; a <= hi; a++) mask |= 1 << a;
                Shape xs = random_shape(g, rank, 3);
                std::vector<float> gf, wf;
                std::vector<int8_t> gq, wq;
                ASSERT_EQ(run_reverse<float>(xs, mask, vals<float>(count(xs)), &gf, &wf), 0) << rank << " " << mask;
                EXPECT_EQ(gf, wf) << rank << " " << mask;
                ASSERT_EQ(run_reverse<int8_t>(xs, mask, vals<int8_t>(count(xs)), &gq, &wq), 0);
                EXPECT_EQ(gq, wq) << rank << " " << mask;
            }
}

TEST(MovementReverse, Refusals) {
    auto xv = vals<float>(6);
    EXPECT_EQ(run_reverse<float>({2, 3}, 4, xv, nullptr, nullptr), -1);   // axis 2 of a rank-2 tensor
    EXPECT_EQ(run_reverse<float>({2, 3}, -1, xv, nullptr, nullptr), -1);  // sign bit
    KPlan p;
    uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 2});
    uint16_t op = p.op(TIGRIS_OP_REVERSE_V2, {x}, {y});
    movement_attr(p, op, {1});
    p.finish();
    EXPECT_EQ(p.run_f32(op), -1);  // shape changes
}

// ============================ DynamicUpdateSlice ============================

enum class Starts { Static, Runtime };

template <typename T>
int run_dus(const Shape &xs, const Shape &us, const std::vector<int32_t> &starts, Starts form, bool weight_update,
            const std::vector<T> &xv, const std::vector<T> &uv, std::vector<T> *got, std::vector<T> *want) {
    KPlan p;
    uint16_t x = data_tensor<T>(p, xs), y = data_tensor<T>(p, xs);
    std::vector<uint16_t> ins = {x};
    uint16_t ut = 0, st = 0;
    if (!weight_update) ins.push_back(ut = data_tensor<T>(p, us));
    if (form == Starts::Runtime) ins.push_back(st = p.tensor(TIGRIS_DTYPE_INT32, {(int32_t)xs.size()}));
    uint16_t op = p.op(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, ins, {y});
    if (weight_update) p.ops[op].weight_idx = p.weight(uv);
    std::vector<int32_t> m;
    if (form == Starts::Static) m = starts;
    m.insert(m.end(), us.begin(), us.end());
    movement_attr(p, op, m);
    p.finish();
    p.set(x, xv);
    if (!weight_update) p.set(ut, uv);
    if (form == Starts::Runtime) p.set(st, starts);
    if (want) {
        *want = xv;
        std::vector<int64_t> s(xs.size());
        for (size_t a = 0; a < xs.size(); a++) s[a] = std::min<int64_t>(std::max<int64_t>(starts[a], 0), xs[a] - us[a]);
        for (size_t i = 0; i < uv.size(); i++) {
            Coord c = unravel(i, us);
            for (size_t a = 0; a < xs.size(); a++) c[a] += s[a];
            (*want)[ravel(c, xs)] = uv[i];
        }
    }
    int rc = run<T>(p, op);
    if (got) *got = p.get<T>(y);
    if (rc == 0 && !guard_intact(p, y)) return -99;
    return rc;
}

TEST(MovementDynamicUpdateSlice, HandWorked) {
    std::vector<float> got;
    // x[3,4] zeros, u[2,2] = 1..4 at (1,1)
    std::vector<float> x(12, 0.0f), u = {1, 2, 3, 4};
    ASSERT_EQ(run_dus<float>({3, 4}, {2, 2}, {1, 1}, Starts::Static, false, x, u, &got, nullptr), 0);
    EXPECT_EQ(got, (std::vector<float>{0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0}));
    // starts (5, -3) clamp to (1, 0)
    ASSERT_EQ(run_dus<float>({3, 4}, {2, 2}, {5, -3}, Starts::Runtime, false, x, u, &got, nullptr), 0);
    EXPECT_EQ(got, (std::vector<float>{0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0}));
    // the update from the weight table, static starts clamped too
    ASSERT_EQ(run_dus<float>({3, 4}, {2, 2}, {7, 9}, Starts::Static, true, x, u, &got, nullptr), 0);
    EXPECT_EQ(got, (std::vector<float>{0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4}));
}

template <typename T>
void dus_sweep(uint32_t seed) {
    Rng g(seed);
    for (int rank = 1; rank <= 6; rank++)
        for (int trial = 0; trial < 6; trial++) {
            Shape xs = random_shape(g, rank, 4), us(rank);
            std::vector<int32_t> starts(rank);
            for (int a = 0; a < rank; a++) {
                us[a] = g.in(1, xs[a]);
                starts[a] = g.in(-2, xs[a] + 2);  // beyond both ends: clamped
            }
            auto xv = vals<T>(count(xs), 0), uv = vals<T>(count(us), 3);
            for (auto &v : uv) v = (T)(-v);
            Starts form = trial % 2 ? Starts::Runtime : Starts::Static;
            bool wu = trial % 3 == 2;
            std::vector<T> got, want;
            SCOPED_TRACE(testing::Message() << "rank " << rank << " trial " << trial);
            ASSERT_EQ(run_dus<T>(xs, us, starts, form, wu, xv, uv, &got, &want), 0);
            EXPECT_EQ(got, want);
        }
}

TEST(MovementDynamicUpdateSlice, EveryRankAllFormsBothRoutes) {
    dus_sweep<float>(13);
    dus_sweep<int8_t>(14);
}

// The output may be the input's own buffer: only the update is written.
TEST(MovementDynamicUpdateSlice, InPlaceOverTheInput) {
    KPlan p;
    uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {5}), u = p.tensor(TIGRIS_DTYPE_FLOAT32, {2});
    uint16_t y = p.tensor(TIGRIS_DTYPE_FLOAT32, {5});
    uint16_t op = p.op(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {x, u}, {y});
    movement_attr(p, op, {3, 2});
    p.finish();
    p.set<float>(x, {1, 2, 3, 4, 5});
    p.set<float>(u, {-1, -2});
    p.ptrs[y] = p.ptrs[x];
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(x), (std::vector<float>{1, 2, 3, -1, -2}));
    // an output that only partly overlaps the input is refused
    p.ptrs[y] = (uint8_t *)p.ptrs[x] + 4;
    EXPECT_EQ(p.run_f32(op), -1);
    // and so is an update overlapping the output
    p.ptrs[y] = p.ptrs[u];
    EXPECT_EQ(p.run_f32(op), -1);
}

TEST(MovementDynamicUpdateSlice, Refusals) {
    std::vector<float> x(12), u(4);
    // update larger than the input; update shape not matching the payload
    EXPECT_EQ(run_dus<float>({3, 4}, {4, 1}, {0, 0}, Starts::Static, false, x, std::vector<float>(4), nullptr,
                             nullptr),
              -1);
    {
        KPlan p;
        uint16_t xt = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 4}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 4});
        uint16_t ut = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 2});
        uint16_t op = p.op(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {xt, ut}, {y});
        movement_attr(p, op, {0, 0, 1, 4});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {
        KPlan p;  // runtime starts of the wrong length
        uint16_t xt = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 4}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 4});
        uint16_t ut = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 2}), st = p.tensor(TIGRIS_DTYPE_INT32, {3});
        uint16_t op = p.op(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {xt, ut, st}, {y});
        movement_attr(p, op, {2, 2});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {
        KPlan p;  // a weight update of the wrong size
        uint16_t xt = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 4}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 4});
        uint16_t op = p.op(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {xt}, {y});
        p.ops[op].weight_idx = p.weight(std::vector<float>(3));
        movement_attr(p, op, {0, 0, 2, 2});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {
        KPlan p;  // int8 update in another encoding
        uint16_t q0 = p.quant(0.5f, 0), q1 = p.quant(0.25f, 0);
        uint16_t xt = p.tensor(TIGRIS_DTYPE_INT8, {4}, q0), y = p.tensor(TIGRIS_DTYPE_INT8, {4}, q0);
        uint16_t ut = p.tensor(TIGRIS_DTYPE_INT8, {2}, q1);
        uint16_t op = p.op(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {xt, ut}, {y});
        movement_attr(p, op, {0, 2});
        p.finish();
        EXPECT_EQ(p.run_s8(op), -1);
    }
}

// ============================ Bands of the MOVEMENT ops ============================

// Run op on band buffers by hand: every tensor listed in `cut` is sliced to
// rows [r0, r1) along `axis`; the output's slices are stitched back.
struct BandRun {
    uint8_t mode;  // TIGRIS_ROW_MODE_*
    int axis;
    int band;
};

std::vector<uint8_t> slice_rows(const std::vector<uint8_t> &full, const Shape &s, size_t es, int axis, int r0,
                                int r1) {
    size_t outer = 1, inner = es;
    for (int k = 0; k < axis; k++) outer *= (size_t)s[k];
    for (size_t k = axis + 1; k < s.size(); k++) inner *= (size_t)s[k];
    std::vector<uint8_t> b;
    for (size_t o = 0; o < outer; o++)
        for (int r = r0; r < r1; r++) {
            auto p = full.begin() + (std::ptrdiff_t)((o * (size_t)s[axis] + (size_t)r) * inner);
            b.insert(b.end(), p, p + (std::ptrdiff_t)inner);
        }
    return b;
}

void put_rows(std::vector<uint8_t> &full, const Shape &s, size_t es, int axis, int r0, int r1,
              const std::vector<uint8_t> &b) {
    size_t outer = 1, inner = es, q = 0;
    for (int k = 0; k < axis; k++) outer *= (size_t)s[k];
    for (size_t k = axis + 1; k < s.size(); k++) inner *= (size_t)s[k];
    for (size_t o = 0; o < outer; o++)
        for (int r = r0; r < r1; r++, q += inner)
            std::memcpy(full.data() + (o * (size_t)s[axis] + (size_t)r) * inner, b.data() + q, inner);
}

// Runs the op of p (one output, tensor `out`) whole, then in bands of the
// given mode, and compares; `cut` lists the runtime inputs sliced too.
void whole_vs_bands(KPlan &p, uint16_t op, uint16_t out, const std::vector<uint16_t> &cut, const BandRun &br,
                    bool s8) {
    auto shape_of = [&](uint16_t t) {
        const tigris_tensor_t &tt = p.tensors[t];
        return Shape(p.shapes.begin() + tt.shape_off, p.shapes.begin() + tt.shape_off + tt.ndim);
    };
    auto es_of = [&](uint16_t t) { return (size_t)tigris_dtype_size(p.tensors[t].dtype); };
    ASSERT_EQ(s8 ? p.run_s8(op) : p.run_f32(op), 0) << "whole, op " << (int)p.ops[op].op_type;
    std::vector<uint8_t> whole = p.get<uint8_t>(out), banded(whole.size(), 0xEE);
    std::vector<void *> saved = p.ptrs;
    Shape os = shape_of(out);
    int rows = os[br.axis];
    for (int r0 = 0; r0 < rows; r0 += br.band) {
        int r1 = std::min(rows, r0 + br.band);
        std::vector<std::vector<uint8_t>> bufs;
        bufs.reserve(cut.size() + 1);
        for (uint16_t t : cut) {
            std::vector<uint8_t> full((uint8_t *)saved[t], (uint8_t *)saved[t] + p.tensors[t].size_bytes);
            bufs.push_back(slice_rows(full, shape_of(t), es_of(t), br.axis, r0, r1));
            p.ptrs[t] = bufs.back().data();
        }
        bufs.emplace_back((size_t)(p.tensors[out].size_bytes / rows * (r1 - r0)), 0xCD);
        p.ptrs[out] = bufs.back().data();
        p.mem.tile = tigris_tile_ctx_t{};
        p.mem.tile.active = 1;
        p.mem.tile.row_tiled = br.mode;
        p.mem.tile.in_h = p.mem.tile.out_h = r1 - r0;
        p.mem.tile.in_w = p.mem.tile.out_w = 1;
        p.mem.tile.in_row_origin = p.mem.tile.out_row_origin = r0;
        ASSERT_EQ(s8 ? p.run_s8(op) : p.run_f32(op), 0) << "band " << r0;
        put_rows(banded, os, es_of(out), br.axis, r0, r1, bufs.back());
    }
    p.mem.tile = tigris_tile_ctx_t{};
    p.ptrs = saved;
    p.mem.tensor_ptrs = p.ptrs.data();
    EXPECT_EQ(banded, whole);
}

TEST(MovementBands, HandMadeRowLeadingAndHeightBandsMatchWhole) {
    const BandRun rows{TIGRIS_ROW_MODE_ROWS, 1, 2};     // rank 3: axis rank-2
    const BandRun lead{TIGRIS_ROW_MODE_LEADING, 1, 2};  // first non-unit axis of [1,5,..]
    const BandRun height{TIGRIS_ROW_MODE_NONE, 1, 2};   // STRIPE: axis 1 of rank 3/4
    for (const BandRun &br : {rows, lead, height})
        for (bool s8 : {false, true}) {
            SCOPED_TRACE(testing::Message() << "mode " << (int)br.mode << (s8 ? " s8" : " f32"));
            auto mk = [&](KPlan &p, const Shape &s) {
                return s8 ? data_tensor<int8_t>(p, s) : data_tensor<float>(p, s);
            };
            auto fill = [&](KPlan &p, uint16_t t) {
                if (s8) p.set(t, vals<int8_t>(p.tensors[t].size_bytes, t));
                else p.set(t, vals<float>(p.tensors[t].size_bytes / 4, t));
            };
            // Two outer positions except in LEADING mode (axes before the band are 1 there).
            const int32_t d0 = br.mode == TIGRIS_ROW_MODE_LEADING ? 1 : 2;
            {  // Gather on the last axis with constant indices
                KPlan p;
                uint16_t x = mk(p, {d0, 5, 4}), y = mk(p, {d0, 5, 3});
                uint16_t op = p.op(TIGRIS_OP_GATHER, {x}, {y});
                p.ops[op].weight_idx = p.weight(std::vector<int32_t>{3, 0, 3});
                movement_attr(p, op, {2, 0, 1, 3});
                p.finish();
                fill(p, x);
                whole_vs_bands(p, op, y, {x}, br, s8);
            }
            {  // GatherND depth 1 over axis 0
                KPlan p;
                uint16_t x = mk(p, {d0, 5, 2}), y = mk(p, {d0, 5, 2});
                uint16_t op = p.op(TIGRIS_OP_GATHER_ND, {x}, {y});
                // index rows [[1],[0]] (or [[0]] for one outer position): depth 1
                p.ops[op].weight_idx =
                    p.weight(d0 == 2 ? std::vector<int32_t>{1, 0} : std::vector<int32_t>{0});
                movement_attr(p, op, {2, d0, 1});
                p.finish();
                fill(p, x);
                whole_vs_bands(p, op, y, {x}, br, s8);
            }
            {  // StridedSlice: axis 1 whole, the last axis backwards by 2
                KPlan p;
                uint16_t x = mk(p, {d0, 5, 5}), y = mk(p, {d0, 5, 3});
                uint16_t op = p.op(TIGRIS_OP_STRIDED_SLICE, {x}, {y});
                movement_attr(p, op, {0, d0, 1, 0, 5, 1, 4, -1, -2});
                p.finish();
                fill(p, x);
                whole_vs_bands(p, op, y, {x}, br, s8);
            }
            {  // MirrorPad on the last axis only
                KPlan p;
                uint16_t x = mk(p, {d0, 5, 3}), y = mk(p, {d0, 5, 6});
                uint16_t op = p.op(TIGRIS_OP_MIRROR_PAD, {x}, {y});
                movement_attr(p, op, {1, 0, 0, 0, 0, 2, 1});
                p.finish();
                fill(p, x);
                whole_vs_bands(p, op, y, {x}, br, s8);
            }
            {  // ReverseV2 on the last axis
                KPlan p;
                uint16_t x = mk(p, {d0, 5, 3}), y = mk(p, {d0, 5, 3});
                uint16_t op = p.op(TIGRIS_OP_REVERSE_V2, {x}, {y});
                movement_attr(p, op, {4});
                p.finish();
                fill(p, x);
                whole_vs_bands(p, op, y, {x}, br, s8);
            }
            {  // DynamicUpdateSlice: runtime update, whole on the band axis
                KPlan p;
                uint16_t x = mk(p, {d0, 5, 4}), u = mk(p, {d0, 5, 2}), y = mk(p, {d0, 5, 4});
                uint16_t op = p.op(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {x, u}, {y});
                movement_attr(p, op, {0, 0, 3, d0, 5, 2});  // last start 3 clamps to 2
                p.finish();
                fill(p, x);
                fill(p, u);
                whole_vs_bands(p, op, y, {x, u}, br, s8);
            }
        }
}

TEST(MovementBands, BandsThatTouchTheBandAxisAreRefused) {
    auto banded = [](KPlan &p, uint16_t op) {
        p.mem.tile = tigris_tile_ctx_t{};
        p.mem.tile.active = 1;
        p.mem.tile.row_tiled = TIGRIS_ROW_MODE_ROWS;
        p.mem.tile.in_h = p.mem.tile.out_h = 2;
        return p.run_f32(op);
    };
    {  // Gather along the band axis
        KPlan p;
        uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3});
        uint16_t op = p.op(TIGRIS_OP_GATHER, {x}, {y});
        p.ops[op].weight_idx = p.weight(std::vector<int32_t>{3, 2, 1, 0});
        movement_attr(p, op, {0, 0, 1, 4});
        p.finish();
        EXPECT_EQ(p.run_f32(op), 0);
        EXPECT_EQ(banded(p, op), -1);
    }
    {  // StridedSlice stepping on the band axis
        KPlan p;
        uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3});
        uint16_t op = p.op(TIGRIS_OP_STRIDED_SLICE, {x}, {y});
        movement_attr(p, op, {3, -1, -1, 0, 3, 1});
        p.finish();
        EXPECT_EQ(p.run_f32(op), 0);
        EXPECT_EQ(banded(p, op), -1);
    }
    {  // MirrorPad padding the band axis
        KPlan p;
        uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {5, 3});
        uint16_t op = p.op(TIGRIS_OP_MIRROR_PAD, {x}, {y});
        movement_attr(p, op, {0, 1, 0, 0, 0});
        p.finish();
        EXPECT_EQ(p.run_f32(op), 0);
        EXPECT_EQ(banded(p, op), -1);
    }
    {  // ReverseV2 of the band axis
        KPlan p;
        uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3});
        uint16_t op = p.op(TIGRIS_OP_REVERSE_V2, {x}, {y});
        movement_attr(p, op, {1});
        p.finish();
        EXPECT_EQ(p.run_f32(op), 0);
        EXPECT_EQ(banded(p, op), -1);
    }
    {  // DynamicUpdateSlice with a weight update / a partial band axis
        KPlan p;
        uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3});
        uint16_t op = p.op(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {x}, {y});
        p.ops[op].weight_idx = p.weight(std::vector<float>(12, 1.0f));
        movement_attr(p, op, {0, 0, 4, 3});
        p.finish();
        EXPECT_EQ(p.run_f32(op), 0);
        EXPECT_EQ(banded(p, op), -1);
        KPlan q;
        x = q.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3});
        uint16_t u = q.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3});
        y = q.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3});
        op = q.op(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {x, u}, {y});
        movement_attr(q, op, {1, 0, 2, 3});
        q.finish();
        EXPECT_EQ(q.run_f32(op), 0);
        EXPECT_EQ(banded(q, op), -1);
    }
    {  // a rolled band or a 2-D tile never reaches these ops
        KPlan p;
        uint16_t x = p.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {4, 3});
        uint16_t op = p.op(TIGRIS_OP_REVERSE_V2, {x}, {y});
        movement_attr(p, op, {2});
        p.finish();
        EXPECT_EQ(banded(p, op), 0);
        p.mem.tile.out_row_start = 1;
        EXPECT_EQ(p.run_f32(op), -1);
        p.mem.tile.out_row_start = 0;
        p.mem.tile.width_tiled = 1;
        EXPECT_EQ(p.run_f32(op), -1);
        p.mem.tile.width_tiled = 0;
        p.mem.tile.out_h = 5;  // more rows than the tensor
        p.mem.tile.in_h = 5;
        EXPECT_EQ(p.run_f32(op), -1);
    }
}

// The executor's own ROWS and LEADING bands with the real kernels. (A STRIPE
// band of a single MOVEMENT op is classified by the loader but refused by the
// executor's stripe path, which only admits height-tiling ops; the height
// band contract is covered by the hand-made test above.)
TEST(MovementBands, ExecutorBandsMatchDefinition) {
    using namespace tigris_exec_test;
    struct Case {
        const char *what;
        Shape xs, ys;
        uint8_t op;
        std::vector<int32_t> movement;
        uint8_t flags;  // tensor flags of x and y (LINEAR for a rank-3 row view)
        uint32_t fast;
        tigris_band_kind_t kind;
    };
    const Case cases[] = {
        {"reverse rows", {8, 6}, {8, 6}, TIGRIS_OP_REVERSE_V2, {2}, 0, 96, TIGRIS_BAND_KIND_ROWS},
        {"mirror leading", {4, 3, 2}, {4, 5, 2}, TIGRIS_OP_MIRROR_PAD, {0, 0, 0, 1, 1, 0, 0}, 0, 96,
         TIGRIS_BAND_KIND_LEADING},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.what);
        tigris_test::PlanBuilder b(10);
        uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, c.xs, TIGRIS_TENSOR_MODEL_INPUT | c.flags);
        uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, c.ys, TIGRIS_TENSOR_MODEL_OUTPUT | c.flags);
        uint16_t op = b.add_op(c.op, {x}, {y}, "mv");
        b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, tigris_test::le_i32(c.movement));
        uint16_t s = b.add_stage({op}, {x}, {y});
        int axis = c.kind == TIGRIS_BAND_KIND_ROWS ? (int)c.xs.size() - 2 : (c.kind == TIGRIS_BAND_KIND_LEADING ? 0 : 1);
        tigris_test::TilePlan t = tigris_test::PlanBuilder::stripe_tile(2, (uint32_t)c.xs[axis], 0, 1);
        t.choices.tiled_peak_bytes = 0;
        b.stages[s].tile = b.add_tile(t);
        auto xv = vals<float>(count(c.xs));
        std::vector<float> want;
        // the definition, coordinate by coordinate (the reference helpers above)
        if (c.op == TIGRIS_OP_REVERSE_V2) {
            run_reverse<float>(c.xs, c.movement[0], xv, nullptr, &want);
        } else if (c.op == TIGRIS_OP_MIRROR_PAD) {
            std::vector<std::pair<int, int>> pads;
            for (size_t a = 0; a < c.xs.size(); a++) pads.push_back({c.movement[1 + 2 * a], c.movement[2 + 2 * a]});
            run_mirror<float>(c.xs, c.movement[0], pads, xv, nullptr, &want);
        } else {
            std::vector<Slice> sl;
            for (size_t a = 0; a < c.xs.size(); a++)
                sl.push_back({c.movement[3 * a], c.movement[3 * a + 1], c.movement[3 * a + 2]});
            want = ref_slice(xv, c.xs, sl, -1);
        }
        Harness h;
        ASSERT_TRUE(h.load(b.build(), c.fast, 8192));
        ASSERT_EQ(tigris_stage_band_kind(&h.plan, &h.plan.stages[0], nullptr), c.kind);
        h.write_f32(0, xv);
        ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);
        EXPECT_EQ(h.read_f32(1), want);
        EXPECT_EQ(h.stats.stages_tiled, 1);
        EXPECT_GT(h.stats.total_tiles, 1u);
    }
}

}  // namespace

// ============================ Whole plans ============================

namespace {

// Edge parameters the loader accepts, as whole plans through the loader and
// the executor (both dispatchers), against the definitions above.
TEST(MovementPlans, EdgeParametersTheLoaderAcceptsRunThroughTheExecutor) {
    using namespace tigris_exec_test;
    struct Case {
        const char *what;
        uint8_t op;
        Shape xs, ys;
        std::vector<int32_t> movement;
        std::vector<int32_t> idx;  // constant indices (Gather family) or empty
        std::function<std::vector<float>(const std::vector<float> &)> want;
    };
    const Shape g_is = {2, 3};
    const std::vector<int32_t> g_idx = {4, 0, 4, 1, 1, 3};
    const Shape nd_is = {3, 5};
    const std::vector<int32_t> nd_idx = {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1};
    const std::vector<Case> cases = {
        {"gather rank 6 axis 4 batch 1", TIGRIS_OP_GATHER, {2, 1, 2, 1, 5, 2}, {2, 1, 2, 1, 3, 2},
         {4, 1, 2, 2, 3}, g_idx,
         [&](const std::vector<float> &x) {
             Shape ys;
             return ref_gather(x, {2, 1, 2, 1, 5, 2}, 4, 1, g_idx, g_is, &ys);
         }},
        {"gather_nd rank 6 depth 5", TIGRIS_OP_GATHER_ND, {2, 2, 2, 2, 2, 3}, {3, 3}, {2, 3, 5}, nd_idx,
         [&](const std::vector<float> &x) {
             Shape ys;
             return ref_gather_nd(x, {2, 2, 2, 2, 2, 3}, nd_idx, nd_is, &ys);
         }},
        {"strided_slice rank 4 negative steps and shrink", TIGRIS_OP_STRIDED_SLICE, {2, 3, 4, 5}, {3, 2, 2},
         {1, 2, 1, 2, -1, -1, 3, 0, -2, 0, 5, 3, 1}, {},
         [](const std::vector<float> &x) {
             return ref_slice(x, {2, 3, 4, 5}, {{1, 2, 1}, {2, -1, -1}, {3, 0, -2}, {0, 5, 3}}, 1);
         }},
        {"mirror_pad rank 5 widest pads", TIGRIS_OP_MIRROR_PAD, {2, 1, 3, 2, 2}, {4, 3, 5, 5, 3},
         {1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 0}, {},
         [](const std::vector<float> &x) {
             std::vector<float> w;
             run_mirror<float>({2, 1, 3, 2, 2}, 1, {{1, 1}, {1, 1}, {1, 1}, {2, 1}, {1, 0}}, x, nullptr, &w);
             return w;
         }},
        {"reverse rank 6 middle axes", TIGRIS_OP_REVERSE_V2, {2, 3, 2, 2, 1, 3}, {2, 3, 2, 2, 1, 3}, {0x0E}, {},
         [](const std::vector<float> &x) {
             std::vector<float> w;
             run_reverse<float>({2, 3, 2, 2, 1, 3}, 0x0E, x, nullptr, &w);
             return w;
         }},
        {"dus static starts far outside", TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {3, 4, 2}, {3, 4, 2},
         {-7, 99, 1, 2, 2, 2}, {},
         [](const std::vector<float> &x) {
             std::vector<float> w, u(8);
             for (int i = 0; i < 8; i++) u[i] = 1000.0f + (float)i;
             run_dus<float>({3, 4, 2}, {2, 2, 2}, {-7, 99, 1}, Starts::Static, true, x, u, nullptr, &w);
             return w;
         }},
    };
    for (const Case &c : cases)
        for (bool int8 : {false, true}) {
            SCOPED_TRACE(testing::Message() << c.what << (int8 ? " int8" : " f32"));
            tigris_test::PlanBuilder b(10);
            uint8_t dt = int8 ? TIGRIS_DTYPE_INT8 : TIGRIS_DTYPE_FLOAT32;
            int q = int8 ? b.add_quant(0.25f, 1) : -1;
            uint16_t x = b.add_tensor("x", dt, c.xs, TIGRIS_TENSOR_MODEL_INPUT, q);
            uint16_t y = b.add_tensor("y", dt, c.ys, TIGRIS_TENSOR_MODEL_OUTPUT, q);
            uint16_t op = b.add_op(c.op, {x}, {y}, "mv");
            if (!c.idx.empty()) b.ops[op].weight = b.add_i32_weight("idx", c.idx);
            if (c.op == TIGRIS_OP_DYNAMIC_UPDATE_SLICE) {
                std::vector<float> u(8);
                for (int i = 0; i < 8; i++) u[i] = 1000.0f + (float)i;
                if (int8) {
                    std::vector<uint8_t> ub(8);
                    for (int i = 0; i < 8; i++) ub[i] = (uint8_t)(int8_t)(100 + i);
                    b.ops[op].weight = b.add_weight("u", ub);
                } else {
                    b.ops[op].weight = b.add_float_weight("u", u);
                }
            }
            b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, tigris_test::le_i32(c.movement));
            b.add_stage({op}, {x}, {y});
            b.budget = 1 << 16;
            Harness h;
            ASSERT_TRUE(h.load(b.build(), 1 << 16, 1 << 16));
            // int8: the same definition on small integers that survive as bytes
            std::vector<float> xv(count(c.xs));
            for (size_t i = 0; i < xv.size(); i++) xv[i] = int8 ? (float)((int)(i % 200) - 100) : (float)i + 0.5f;
            std::vector<float> want = c.want(xv);
            if (int8 && c.op == TIGRIS_OP_DYNAMIC_UPDATE_SLICE)
                for (auto &v : want)
                    if (v >= 1000.0f) v = v - 900.0f;  // the int8 update holds 100 + i
            if (int8) {
                std::vector<uint8_t> in(xv.size());
                for (size_t i = 0; i < xv.size(); i++) in[i] = (uint8_t)(int8_t)(int)xv[i];
                h.write_bytes(0, in);
                ASSERT_EQ(h.run(tigris_dispatch_kernel_s8), TIGRIS_EXEC_OK);
                std::vector<int8_t> got(count(c.ys));
                ASSERT_EQ(tigris_output_read(&h.plan, &h.mem, 1, got.data(), (uint32_t)got.size()), TIGRIS_OK);
                std::vector<float> gf(got.begin(), got.end());
                EXPECT_EQ(gf, want);
            } else {
                h.write_f32(0, xv);
                ASSERT_EQ(h.run(), TIGRIS_EXEC_OK);
                EXPECT_EQ(h.read_f32(1), want);
            }
        }
}

}  // namespace
