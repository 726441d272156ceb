// Float32 spatial kernels (Conv, Depthwise, FullyConnected, MaxPool,
// AveragePool, GlobalAveragePool) against a double-precision reference
// written independently: it walks every kernel tap and skips the ones that
// land in padding, instead of computing tap ranges as the kernels do.
// Band tests run the same op on a row band through mem->tile and compare
// with the rows of the whole-tensor result.
#include <algorithm>
#include <array>
#include <cfloat>

#include "test_kernels_plan.h"

using kt::KPlan;

namespace {

struct Spatial {
    int kh, kw, sh, sw, pt, pb, pl, pr, dh, dw;
};

int out_extent(int in, int k, int s, int pa, int pb, int d) { return (in + pa + pb - ((k - 1) * d + 1)) / s + 1; }

// Reference Conv/Depthwise in double over NHWC, weights OHWI or [KH,KW,OC].
std::vector<double> ref_conv(const std::vector<float> &x, int n, int h, int w, int c, const std::vector<float> &wt,
                             const std::vector<float> *bias, int oc, const Spatial &s, bool depthwise, int act) {
    int oh = out_extent(h, s.kh, s.sh, s.pt, s.pb, s.dh), ow = out_extent(w, s.kw, s.sw, s.pl, s.pr, s.dw);
    std::vector<double> y((size_t)n * oh * ow * oc);
    int mult = depthwise ? oc / c : 1;
    for (int b = 0; b < n; b++)
        for (int r = 0; r < oh; r++)
            for (int q = 0; q < ow; q++)
                for (int o = 0; o < oc; o++) {
                    double acc = bias ? (*bias)[o] : 0.0;
                    for (int i = 0; i < s.kh; i++)
                        for (int j = 0; j < s.kw; j++) {
                            int yy = r * s.sh - s.pt + i * s.dh, xx = q * s.sw - s.pl + j * s.dw;
                            if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
                            if (depthwise) {
                                acc += (double)x[((size_t)(b * h + yy) * w + xx) * c + o / mult] *
                                       wt[((size_t)i * s.kw + j) * oc + o];
                            } else {
                                for (int k = 0; k < c; k++)
                                    acc += (double)x[((size_t)(b * h + yy) * w + xx) * c + k] *
                                           wt[(((size_t)o * s.kh + i) * s.kw + j) * c + k];
                            }
                        }
                    if (act >= 1) acc = std::max(acc, 0.0);
                    if (act == 2) acc = std::min(acc, 6.0);
                    y[((size_t)(b * oh + r) * ow + q) * oc + o] = acc;
                }
    return y;
}

std::vector<double> ref_pool(const std::vector<float> &x, int n, int h, int w, int c, const Spatial &s, bool is_max) {
    int oh = out_extent(h, s.kh, s.sh, s.pt, s.pb, 1), ow = out_extent(w, s.kw, s.sw, s.pl, s.pr, 1);
    std::vector<double> y((size_t)n * oh * ow * c);
    for (int b = 0; b < n; b++)
        for (int r = 0; r < oh; r++)
            for (int q = 0; q < ow; q++)
                for (int k = 0; k < c; k++) {
                    double acc = is_max ? -1e300 : 0.0;
                    int cnt = 0;
                    for (int i = 0; i < s.kh; i++)
                        for (int j = 0; j < s.kw; j++) {
                            int yy = r * s.sh - s.pt + i, xx = q * s.sw - s.pl + j;
                            if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
                            double v = x[((size_t)(b * h + yy) * w + xx) * c + k];
                            acc = is_max ? std::max(acc, v) : acc + v;
                            cnt++;
                        }
                    y[((size_t)(b * oh + r) * ow + q) * c + k] = is_max ? acc : acc / cnt;
                }
    return y;
}

void expect_close(const std::vector<float> &got, const std::vector<double> &want, double tol) {
    ASSERT_GE(got.size(), want.size());
    for (size_t i = 0; i < want.size(); i++)
        ASSERT_NEAR(got[i], want[i], tol * std::max(1.0, std::fabs(want[i]))) << "element " << i;
}

struct ConvCase {
    int n, h, w, c, oc;
    Spatial s;
    bool depthwise;
    bool bias;
    int act;
};

// Builds a one-op plan for the case, runs it whole, checks against the reference.
struct ConvRig {
    KPlan p;
    uint16_t in, out, op;
    int oh, ow;
    std::vector<float> x, wt, b;
    ConvCase cc;

    explicit ConvRig(const ConvCase &c) : cc(c) {
        oh = out_extent(c.h, c.s.kh, c.s.sh, c.s.pt, c.s.pb, c.s.dh);
        ow = out_extent(c.w, c.s.kw, c.s.sw, c.s.pl, c.s.pr, c.s.dw);
        in = p.tensor(TIGRIS_DTYPE_FLOAT32, {c.n, c.h, c.w, c.c});
        out = p.tensor(TIGRIS_DTYPE_FLOAT32, {c.n, oh, ow, c.oc});
        op = p.op(c.depthwise ? TIGRIS_OP_DEPTHWISE : TIGRIS_OP_CONV, {in}, {out});
        p.spatial(op, c.s.kh, c.s.kw, c.s.sh, c.s.sw, c.s.pt, c.s.pb, c.s.pl, c.s.pr, c.s.dh, c.s.dw);
        x = kt::ramp_f32((size_t)c.n * c.h * c.w * c.c, 1);
        wt = kt::ramp_f32(c.depthwise ? (size_t)c.s.kh * c.s.kw * c.oc : (size_t)c.oc * c.s.kh * c.s.kw * c.c, 2);
        p.ops[op].weight_idx = p.weight(wt);
        if (c.bias) {
            b = kt::ramp_f32((size_t)c.oc, 3);
            p.ops[op].bias_idx = p.weight(b);
        }
        p.ops[op].fused_act = (uint8_t)c.act;
        p.finish();
        p.set(in, x);
    }
    std::vector<double> reference() const {
        return ref_conv(x, cc.n, cc.h, cc.w, cc.c, wt, cc.bias ? &b : nullptr, cc.oc, cc.s, cc.depthwise, cc.act);
    }
};

class F32Conv : public ::testing::TestWithParam<ConvCase> {};

TEST_P(F32Conv, MatchesDoubleReference) {
    ConvRig r(GetParam());
    ASSERT_EQ(r.p.run_f32(r.op), 0);
    expect_close(r.p.get<float>(r.out), r.reference(), 2e-6);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, F32Conv,
    ::testing::Values(
        // The corpus shape: 3x3, pad 1, no bias.
        ConvCase{1, 9, 7, 3, 4, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, false, false, 0},
        ConvCase{1, 1, 1, 2, 3, {1, 1, 1, 1, 0, 0, 0, 0, 1, 1}, false, true, 0},         // 1x1
        ConvCase{2, 8, 9, 3, 5, {3, 3, 2, 2, 1, 0, 2, 1, 1, 1}, false, true, 1},         // stride 2, uneven pads, batch 2
        ConvCase{1, 9, 10, 2, 3, {3, 3, 1, 1, 2, 2, 2, 2, 2, 2}, false, true, 2},        // dilation 2, relu6
        ConvCase{1, 7, 5, 3, 3, {3, 2, 1, 2, 0, 2, 1, 0, 1, 1}, false, false, 0},        // rectangular kernel
        ConvCase{1, 7, 6, 3, 6, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, true, true, 0},          // depthwise multiplier 2
        ConvCase{1, 9, 9, 4, 4, {3, 3, 2, 2, 1, 1, 1, 1, 2, 2}, true, false, 1},         // depthwise s2 d2
        ConvCase{1, 1, 1, 3, 3, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, true, true, 0}));        // 1x1 image, padded 3x3

TEST(F32Pool, AvgAndMaxPool3x3Stride2Pad1CountOnlyInImageTaps) {
    for (int is_max = 0; is_max < 2; is_max++) {
        for (auto dims : std::vector<std::array<int, 4>>{{1, 64, 64, 1}, {2, 7, 5, 3}, {1, 1, 1, 2}, {1, 6, 6, 2}}) {
            KPlan p;
            int n = dims[0], h = dims[1], w = dims[2], c = dims[3];
            Spatial s{3, 3, 2, 2, 1, 1, 1, 1, 1, 1};
            int oh = out_extent(h, 3, 2, 1, 1, 1), ow = out_extent(w, 3, 2, 1, 1, 1);
            uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {n, h, w, c});
            uint16_t out = p.tensor(TIGRIS_DTYPE_FLOAT32, {n, oh, ow, c});
            uint16_t op = p.op(is_max ? TIGRIS_OP_MAX_POOL : TIGRIS_OP_AVG_POOL, {in}, {out});
            p.spatial(op, 3, 3, 2, 2, 1, 1, 1, 1);
            p.finish();
            auto x = kt::ramp_f32((size_t)n * h * w * c, 7);
            p.set(in, x);
            ASSERT_EQ(p.run_f32(op), 0);
            expect_close(p.get<float>(out), ref_pool(x, n, h, w, c, s, is_max), 1e-6);
        }
    }
}

TEST(F32Pool, AvgPoolCornerDividesByFour) {
    // Hand check: the top-left output of a 3x3 s2 p1 window sees a 2x2 block.
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 3, 3, 1});
    uint16_t out = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 2, 2, 1});
    uint16_t op = p.op(TIGRIS_OP_AVG_POOL, {in}, {out});
    p.spatial(op, 3, 3, 2, 2, 1, 1, 1, 1);
    p.finish();
    p.set<float>(in, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    ASSERT_EQ(p.run_f32(op), 0);
    auto y = p.get<float>(out);
    EXPECT_FLOAT_EQ(y[0], (1 + 2 + 4 + 5) / 4.0f);
    EXPECT_FLOAT_EQ(y[1], (2 + 3 + 5 + 6) / 4.0f);
    EXPECT_FLOAT_EQ(y[3], (5 + 6 + 8 + 9) / 4.0f);
}

TEST(F32FullyConnected, BatchesBiasAndRelu) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 2, 5});  // 3 batches of 10 inputs
    uint16_t out = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 4});
    uint16_t op = p.op(TIGRIS_OP_FULLY_CONN, {in}, {out});
    auto x = kt::ramp_f32(30, 4), w = kt::ramp_f32(40, 5), b = kt::ramp_f32(4, 6);
    p.ops[op].weight_idx = p.weight(w);
    p.ops[op].bias_idx = p.weight(b);
    p.ops[op].fused_act = TIGRIS_ACT_RELU;
    p.finish();
    p.set(in, x);
    ASSERT_EQ(p.run_f32(op), 0);
    std::vector<double> want(12);
    for (int i = 0; i < 3; i++)
        for (int o = 0; o < 4; o++) {
            double acc = b[o];
            for (int k = 0; k < 10; k++) acc += (double)x[i * 10 + k] * w[o * 10 + k];
            want[i * 4 + o] = std::max(acc, 0.0);
        }
    expect_close(p.get<float>(out), want, 1e-6);
    // A row band of two batches reads and writes only those rows.
    std::vector<float> xb(x.begin() + 10, x.end()), yb(8, -1.0f);
    p.ptrs[in] = xb.data();
    p.ptrs[out] = yb.data();
    p.mem.tile.active = 1;
    p.mem.tile.row_tiled = TIGRIS_ROW_MODE_ROWS;
    p.mem.tile.out_h = 2;
    ASSERT_EQ(p.run_f32(op), 0);
    for (int i = 0; i < 8; i++) EXPECT_NEAR(yb[i], want[4 + i], 1e-6);
}

TEST(F32GlobalAvg, WholeAndByInputBandsAgree) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 5, 3, 4});
    uint16_t out = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 1, 1, 4});
    uint16_t op = p.op(TIGRIS_OP_GLOBAL_AVG, {in}, {out});
    p.finish();
    // Multiples of 1/4: every partial sum is exact, so band order cannot matter.
    std::vector<float> x(2 * 5 * 3 * 4);
    for (size_t i = 0; i < x.size(); i++) x[i] = (float)((int)(i * 7 % 23) - 11) * 0.25f;
    p.set(in, x);
    ASSERT_EQ(p.run_f32(op), 0);
    auto whole = p.get<float>(out);
    for (int b = 0; b < 2; b++)
        for (int c = 0; c < 4; c++) {
            double s = 0;
            for (int i = 0; i < 15; i++) s += x[(b * 15 + i) * 4 + c];
            EXPECT_FLOAT_EQ(whole[b * 4 + c], (float)(s / 15));
        }
    // BY_INPUT: bands of 2, 2 and 1 rows, each packed [N, rows, W, C].
    std::vector<float> acc(8, 123.0f), y(8, 0.0f);
    p.ptrs[out] = y.data();
    p.mem.tile.active = 1;
    p.mem.tile.reduce_acc = acc.data();
    for (int start = 0; start < 5; start += 2) {
        int rows = std::min(2, 5 - start);
        std::vector<float> band;
        for (int b = 0; b < 2; b++)
            for (int r = start; r < start + rows; r++)
                for (int i = 0; i < 12; i++) band.push_back(x[((size_t)(b * 5 + r) * 3) * 4 + i]);
        p.ptrs[in] = band.data();
        p.mem.tile.in_h = rows;
        p.mem.tile.out_h = 1;
        p.mem.tile.reduce_first = start == 0;
        p.mem.tile.reduce_last = start + rows == 5;
        ASSERT_EQ(p.run_f32(op), 0);
    }
    for (int i = 0; i < 8; i++) EXPECT_FLOAT_EQ(y[i], whole[i]);
}

// ---- Bands through mem->tile ----

struct Band {
    int i0, i1, pt, pb;
};

// docs/runtime-semantics.md R2.6.2: the input rows and effective pads of output rows [o0, o1).
Band band_rows(int o0, int o1, int stride, int pad_top, int eff_k, int h) {
    int i0 = o0 * stride - pad_top, i1 = (o1 - 1) * stride - pad_top + eff_k;
    Band b{};
    b.pt = std::max(0, -i0);
    b.pb = std::max(0, i1 - h);
    b.i0 = std::max(0, i0);
    b.i1 = std::min(h, i1);
    return b;
}

std::vector<float> rows_of(const std::vector<float> &t, int n, int h, int row_elems, int r0, int r1) {
    std::vector<float> out;
    for (int b = 0; b < n; b++)
        out.insert(out.end(), t.begin() + ((size_t)b * h + r0) * row_elems, t.begin() + ((size_t)b * h + r1) * row_elems);
    return out;
}

TEST(F32Bands, ConvAndPoolBandsMatchWholeRows) {
    std::vector<std::pair<uint8_t, ConvCase>> cases = {
        {TIGRIS_OP_CONV, {1, 11, 6, 3, 4, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, false, false, 0}},
        {TIGRIS_OP_CONV, {1, 12, 7, 2, 3, {3, 3, 2, 2, 1, 1, 1, 1, 2, 2}, false, true, 0}},
        {TIGRIS_OP_DEPTHWISE, {1, 10, 5, 2, 4, {3, 3, 2, 1, 1, 1, 1, 1, 1, 1}, true, true, 1}},
        {TIGRIS_OP_MAX_POOL, {1, 13, 6, 2, 2, {3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, false, false, 0}},
        {TIGRIS_OP_AVG_POOL, {1, 13, 6, 2, 2, {3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, false, false, 0}},
    };
    for (auto &[type, cc] : cases) {
        ConvRig r(cc);
        r.p.ops[r.op].op_type = type;
        if (type == TIGRIS_OP_MAX_POOL || type == TIGRIS_OP_AVG_POOL) r.p.ops[r.op].weight_idx = TIGRIS_NONE16;
        ASSERT_EQ(r.p.run_f32(r.op), 0);
        auto whole = r.p.get<float>(r.out);
        int effk = (cc.s.kh - 1) * cc.s.dh + 1;
        for (int th : {1, 2, 3}) {
            for (int o0 = 0; o0 < r.oh; o0 += th) {
                int o1 = std::min(r.oh, o0 + th);
                Band b = band_rows(o0, o1, cc.s.sh, cc.s.pt, effk, cc.h);
                auto xin = rows_of(r.x, cc.n, cc.h, cc.w * cc.c, b.i0, b.i1);
                std::vector<float> y((size_t)(o1 - o0) * r.ow * cc.oc, NAN);
                r.p.ptrs[r.in] = xin.data();
                r.p.ptrs[r.out] = y.data();
                r.p.mem.tile = tigris_tile_ctx_t{};
                r.p.mem.tile.active = 1;
                r.p.mem.tile.in_h = b.i1 - b.i0;
                r.p.mem.tile.out_h = o1 - o0;
                r.p.mem.tile.in_w = cc.w;
                r.p.mem.tile.out_w = r.ow;
                r.p.mem.tile.pad_top = b.pt;
                r.p.mem.tile.pad_bottom = b.pb;
                ASSERT_EQ(r.p.run_f32(r.op), 0) << "type " << (int)type << " rows " << o0;
                auto want = rows_of(whole, cc.n, r.oh, r.ow * cc.oc, o0, o1);
                for (size_t i = 0; i < want.size(); i++)
                    ASSERT_EQ(y[i], want[i]) << "type " << (int)type << " band " << o0 << " el " << i;
            }
        }
    }
}

TEST(F32Bands, RolledBandComputesOnlyNewRows) {
    ConvRig r({1, 10, 5, 2, 3, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, false, true, 0});
    ASSERT_EQ(r.p.run_f32(r.op), 0);
    auto whole = r.p.get<float>(r.out);
    // Band of output rows [3, 7); the first 2 are kept from the previous tile.
    int o0 = 3, o1 = 7, keep = 2;
    Band b = band_rows(o0, o1, 1, 1, 3, 10);
    auto xin = rows_of(r.x, 1, 10, 10, b.i0, b.i1);
    std::vector<float> y((size_t)(o1 - o0) * 5 * 3, -777.0f);
    r.p.ptrs[r.in] = xin.data();
    r.p.ptrs[r.out] = y.data();
    r.p.mem.tile.active = 1;
    r.p.mem.tile.in_h = b.i1 - b.i0;
    r.p.mem.tile.out_h = (o1 - o0) - keep;
    r.p.mem.tile.out_row_start = keep;
    r.p.mem.tile.in_w = 5;
    r.p.mem.tile.out_w = 5;
    r.p.mem.tile.pad_top = b.pt;
    ASSERT_EQ(r.p.run_f32(r.op), 0);
    for (int i = 0; i < keep * 15; i++) EXPECT_EQ(y[i], -777.0f) << "kept row overwritten";
    for (int i = keep * 15; i < (o1 - o0) * 15; i++) EXPECT_EQ(y[i], whole[(size_t)o0 * 15 + i]);
}

TEST(F32Bands, TwoDimensionalTileUsesLeftPadAndWidths) {
    ConvRig r({1, 8, 9, 2, 3, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, false, true, 0});
    ASSERT_EQ(r.p.run_f32(r.op), 0);
    auto whole = r.p.get<float>(r.out);
    // Output rectangle rows [2,5) x cols [0,4): input rows [1,6), cols [0,5), left pad 1.
    Band rb = band_rows(2, 5, 1, 1, 3, 8), cb = band_rows(0, 4, 1, 1, 3, 9);
    std::vector<float> xin;
    for (int yy = rb.i0; yy < rb.i1; yy++)
        for (int xx = cb.i0; xx < cb.i1; xx++)
            for (int c = 0; c < 2; c++) xin.push_back(r.x[((size_t)yy * 9 + xx) * 2 + c]);
    std::vector<float> y(3 * 4 * 3, NAN);
    r.p.ptrs[r.in] = xin.data();
    r.p.ptrs[r.out] = y.data();
    auto &t = r.p.mem.tile;
    t.active = 1;
    t.width_tiled = 1;
    t.in_h = rb.i1 - rb.i0;
    t.out_h = 3;
    t.in_w = cb.i1 - cb.i0;
    t.out_w = 4;
    t.pad_top = rb.pt;
    t.pad_bottom = rb.pb;
    t.pad_left = cb.pt;
    t.pad_right = cb.pb;
    ASSERT_EQ(r.p.run_f32(r.op), 0);
    for (int yy = 0; yy < 3; yy++)
        for (int xx = 0; xx < 4; xx++)
            for (int c = 0; c < 3; c++)
                EXPECT_EQ(y[((size_t)yy * 4 + xx) * 3 + c], whole[((size_t)(yy + 2) * 9 + xx) * 3 + c]);
}

TEST(F32Spatial, RefusesMissingWeightsAndBadBuffers) {
    ConvRig r({1, 4, 4, 2, 2, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, false, false, 0});
    r.p.ops[r.op].weight_idx = TIGRIS_NONE16;
    EXPECT_EQ(r.p.run_f32(r.op), -1);
    ConvRig r2({1, 4, 4, 2, 2, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, false, false, 0});
    r2.p.wentries[0].size_bytes -= 4;  // weight shorter than OC*KH*KW*IC
    EXPECT_EQ(r2.p.run_f32(r2.op), -1);
    ConvRig r3({1, 4, 4, 2, 2, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, false, false, 0});
    r3.p.ptrs[r3.out] = nullptr;
    EXPECT_EQ(r3.p.run_f32(r3.op), -1);
    ConvRig r4({1, 4, 4, 2, 2, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, false, false, 0});
    r4.p.mem.tile.active = 1;
    r4.p.mem.tile.in_h = 9;  // taller than the tensor
    r4.p.mem.tile.out_h = 2;
    EXPECT_EQ(r4.p.run_f32(r4.op), -1);
    ConvRig r5({1, 4, 4, 2, 2, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, false, false, 0});
    r5.p.tensors[r5.in].size_bytes = 8;  // record smaller than its shape
    EXPECT_EQ(r5.p.run_f32(r5.op), -1);
}

TEST(F32Dispatch, UnknownAndUnimplementedOpcodesReturnMinusOne) {
    KPlan p;
    uint16_t a = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
    uint16_t b = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
    uint16_t op = p.op(TIGRIS_OP_CLIP, {a}, {b});
    p.finish();
    EXPECT_EQ(p.run_f32(op), -1);
    p.ops[op].op_type = 200;
    EXPECT_EQ(p.run_f32(op), -1);
    p.ops[op].op_type = TIGRIS_OP_UNKNOWN;
    EXPECT_EQ(p.run_f32(op), -1);
    EXPECT_EQ(tigris_dispatch_kernel(nullptr, &p.ops[op], op, &p.mem, nullptr), -1);
}

}  // namespace
