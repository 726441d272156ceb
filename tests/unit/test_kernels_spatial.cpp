// Spatial family kernels (ConvTranspose, MatMul, Conv1D, GlobalMax, L2Pool,
// Resize, ResizeLinear, plus edge shapes of Conv/Depthwise/pools) against
// references written independently here: ConvTranspose in TFLite's scatter
// form (loop over inputs), convolutions as plain nested loops over the
// whole padded window, fixed point with int64 and half-away division
// instead of the kernels' helpers, resize coordinates with C++ float
// arithmetic (the int8 kernels derive them without floating point) and the
// 10-bit bilinear path with int64 sums.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "test_kernels_plan.h"

using kt::KPlan;

namespace {

constexpr uint8_t F32 = TIGRIS_DTYPE_FLOAT32;
constexpr uint8_t S8 = TIGRIS_DTYPE_INT8;

// ---- Plain fixed point ----

int64_t div_half_away(int64_t n, int64_t d) { return n >= 0 ? (n + d / 2) / d : -((-n + d / 2) / d); }

int32_t ref_mbqm(int32_t x, int32_t m, int32_t s) {
    int64_t a = (int64_t)x * ((int64_t)1 << (s > 0 ? s : 0));
    int64_t p = a * m;
    int64_t hi;
    if (a == INT32_MIN && m == INT32_MIN) hi = INT32_MAX;
    else hi = (p + (p >= 0 ? (1ll << 30) : 1 - (1ll << 30))) / (1ll << 31);
    return s >= 0 ? (int32_t)hi : (int32_t)div_half_away(hi, (int64_t)1 << -s);
}

int clamp(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

// ---- Conv reference (NHWC, OHWI), whole padded window ----

struct ConvCfg {
    int n, ih, iw, ic, oc, kh, kw, sh, sw, pt, pb, pl, pr, dh, dw;
    int oh() const { return (ih + pt + pb - ((kh - 1) * dh + 1)) / sh + 1; }
    int ow() const { return (iw + pl + pr - ((kw - 1) * dw + 1)) / sw + 1; }
};

std::vector<double> ref_conv(const ConvCfg &c, const std::vector<float> &x, const std::vector<float> &w,
                             const std::vector<float> &b) {
    std::vector<double> y((size_t)c.n * c.oh() * c.ow() * c.oc);
    for (int n = 0; n < c.n; n++)
        for (int oy = 0; oy < c.oh(); oy++)
            for (int ox = 0; ox < c.ow(); ox++)
                for (int o = 0; o < c.oc; o++) {
                    double s = b.empty() ? 0 : b[o];
                    for (int ky = 0; ky < c.kh; ky++)
                        for (int kx = 0; kx < c.kw; kx++) {
                            int iy = oy * c.sh - c.pt + ky * c.dh, ix = ox * c.sw - c.pl + kx * c.dw;
                            if (iy < 0 || iy >= c.ih || ix < 0 || ix >= c.iw) continue;
                            for (int i = 0; i < c.ic; i++)
                                s += (double)x[((n * c.ih + iy) * c.iw + ix) * c.ic + i] *
                                     w[((o * c.kh + ky) * c.kw + kx) * c.ic + i];
                        }
                    y[((n * c.oh() + oy) * c.ow() + ox) * c.oc + o] = s;
                }
    return y;
}

// ---- Conv2D edge shapes (existing kernel): 1x1, odd sizes, pads on every side, stride/dilation 2 ----

TEST(SpatialConvEdges, F32ConvMatchesWindowReferenceOnEdgeShapes) {
    const ConvCfg cfgs[] = {
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1},  // 1x1
        {1, 5, 7, 3, 2, 3, 3, 1, 1, 1, 2, 2, 1, 1, 1},  // odd, uneven pads on every side
        {2, 7, 5, 2, 3, 3, 2, 2, 3, 1, 1, 0, 2, 2, 1},  // batch 2, strides, dilation h
        {1, 9, 9, 1, 1, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2},  // dilation 2 both, pads 2
    };
    for (const ConvCfg &c : cfgs) {
        KPlan p;
        uint16_t x = p.tensor(F32, {c.n, c.ih, c.iw, c.ic}), y = p.tensor(F32, {c.n, c.oh(), c.ow(), c.oc});
        auto xv = kt::ramp_f32((size_t)c.n * c.ih * c.iw * c.ic, 1), wv = kt::ramp_f32((size_t)c.oc * c.kh * c.kw * c.ic, 2);
        auto bv = kt::ramp_f32((size_t)c.oc, 3);
        uint16_t op = p.op(TIGRIS_OP_CONV, {x}, {y});
        p.spatial(op, c.kh, c.kw, c.sh, c.sw, c.pt, c.pb, c.pl, c.pr, c.dh, c.dw);
        p.ops[op].weight_idx = p.weight(wv);
        p.ops[op].bias_idx = p.weight(bv);
        p.finish();
        p.set(x, xv);
        ASSERT_EQ(p.run_f32(op), 0);
        auto got = p.get<float>(y);
        auto want = ref_conv(c, xv, wv, bv);
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); i++) EXPECT_NEAR(got[i], want[i], 1e-4) << i;
    }
}

// The float Conv computes output channels four at a time over chunks of 64
// taps (ref/conv.c); each output must still be the float sum in the
// documented order: bias, then taps in kh, kw, ic order, one rounding per add.
// Shapes: partial lane blocks (oc 1, 6), tap counts past one and two chunks
// (3x3x20 = 180, 5x5x3 = 75), pads, strides, dilation, and ReLU6.
TEST(SpatialConvEdges, F32ConvBitExactInDocumentedOrderAcrossLaneBlocksAndTapChunks) {
    const ConvCfg cfgs[] = {
        {1, 6, 5, 20, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},  // 180 taps: three chunks, oc 6 = 4 + 2 lanes
        {2, 9, 8, 3, 1, 5, 5, 2, 1, 2, 1, 0, 3, 1, 2},   // 75 taps, oc 1, batch 2, stride, dilation w
        {1, 7, 7, 64, 5, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1},  // 1x1 with exactly one full chunk
        {1, 4, 4, 65, 4, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1},  // one tap past the chunk
    };
    for (const ConvCfg &c : cfgs) {
        for (uint8_t act : {(uint8_t)TIGRIS_ACT_NONE, (uint8_t)TIGRIS_ACT_RELU6}) {
            KPlan p;
            uint16_t x = p.tensor(F32, {c.n, c.ih, c.iw, c.ic}), y = p.tensor(F32, {c.n, c.oh(), c.ow(), c.oc});
            auto xv = kt::ramp_f32((size_t)c.n * c.ih * c.iw * c.ic, 7);
            auto wv = kt::ramp_f32((size_t)c.oc * c.kh * c.kw * c.ic, 8);
            auto bv = kt::ramp_f32((size_t)c.oc, 9);
            uint16_t op = p.op(TIGRIS_OP_CONV, {x}, {y});
            p.spatial(op, c.kh, c.kw, c.sh, c.sw, c.pt, c.pb, c.pl, c.pr, c.dh, c.dw);
            p.ops[op].weight_idx = p.weight(wv);
            p.ops[op].bias_idx = p.weight(bv);
            p.ops[op].fused_act = act;
            p.finish();
            p.set(x, xv);
            ASSERT_EQ(p.run_f32(op), 0);
            auto got = p.get<float>(y);
            ASSERT_EQ(got.size(), (size_t)c.n * c.oh() * c.ow() * c.oc);
            for (int n = 0; n < c.n; n++)
                for (int oy = 0; oy < c.oh(); oy++)
                    for (int ox = 0; ox < c.ow(); ox++)
                        for (int o = 0; o < c.oc; o++) {
                            volatile float s = bv[o];  // volatile: one float rounding per add, no contraction
                            for (int ky = 0; ky < c.kh; ky++)
                                for (int kx = 0; kx < c.kw; kx++) {
                                    int iy = oy * c.sh - c.pt + ky * c.dh, ix = ox * c.sw - c.pl + kx * c.dw;
                                    if (iy < 0 || iy >= c.ih || ix < 0 || ix >= c.iw) continue;
                                    for (int i = 0; i < c.ic; i++) {
                                        float prod = xv[((n * c.ih + iy) * c.iw + ix) * c.ic + i] *
                                                     wv[((o * c.kh + ky) * c.kw + kx) * c.ic + i];
                                        s = s + prod;
                                    }
                                }
                            float want = s;
                            if (act == TIGRIS_ACT_RELU6) want = std::min(std::max(want, 0.0f), 6.0f);
                            size_t at = ((size_t)(n * c.oh() + oy) * c.ow() + ox) * c.oc + o;
                            uint32_t gb, wb;
                            std::memcpy(&gb, &got[at], 4);
                            std::memcpy(&wb, &want, 4);
                            ASSERT_EQ(gb, wb) << "ic " << c.ic << " oc " << c.oc << " at " << at;
                        }
        }
    }
}

TEST(SpatialConvEdges, S8ConvAndDepthwiseOnPaddedStridedDilatedShapes) {
    ConvCfg c{1, 5, 6, 2, 4, 3, 3, 2, 1, 2, 1, 1, 2, 1, 2};
    for (int depthwise = 0; depthwise < 2; depthwise++) {
        KPlan p;
        int32_t m = 1395864371, s = -6;  // ~0.0203
        uint16_t qx = p.quant(0.5f, -3), qy = p.quant(0.25f, 5, {m}, {s});
        uint16_t x = p.tensor(S8, {1, c.ih, c.iw, c.ic}, qx), y = p.tensor(S8, {1, c.oh(), c.ow(), c.oc}, qy);
        size_t wn = depthwise ? (size_t)c.kh * c.kw * c.oc : (size_t)c.oc * c.kh * c.kw * c.ic;
        auto xv = kt::ramp_s8((size_t)c.ih * c.iw * c.ic, 4), wv = kt::ramp_s8(wn, 5);
        std::vector<int32_t> bv = {100, -2000, 7, 0};
        uint16_t op = p.op(depthwise ? TIGRIS_OP_DEPTHWISE : TIGRIS_OP_CONV, {x}, {y});
        p.spatial(op, c.kh, c.kw, c.sh, c.sw, c.pt, c.pb, c.pl, c.pr, c.dh, c.dw);
        p.ops[op].weight_idx = p.weight(wv);
        p.ops[op].bias_idx = p.weight(bv);
        p.ops[op].act_min = -100;
        p.ops[op].act_max = 120;
        p.finish();
        p.set(x, xv);
        ASSERT_EQ(p.run_s8(op), 0);
        auto got = p.get<int8_t>(y);
        int mult = c.oc / c.ic;
        for (int oy = 0; oy < c.oh(); oy++)
            for (int ox = 0; ox < c.ow(); ox++)
                for (int o = 0; o < c.oc; o++) {
                    int64_t acc = bv[o];
                    for (int ky = 0; ky < c.kh; ky++)
                        for (int kx = 0; kx < c.kw; kx++) {
                            int iy = oy * c.sh - c.pt + ky * c.dh, ix = ox * c.sw - c.pl + kx * c.dw;
                            if (iy < 0 || iy >= c.ih || ix < 0 || ix >= c.iw) continue;
                            if (depthwise) {
                                acc += (int64_t)(xv[(iy * c.iw + ix) * c.ic + o / mult] + 3) * wv[(ky * c.kw + kx) * c.oc + o];
                            } else {
                                for (int i = 0; i < c.ic; i++)
                                    acc += (int64_t)(xv[(iy * c.iw + ix) * c.ic + i] + 3) *
                                           wv[((o * c.kh + ky) * c.kw + kx) * c.ic + i];
                            }
                        }
                    int want = clamp(ref_mbqm((int32_t)acc, m, s) + 5, -100, 120);
                    EXPECT_EQ(got[(oy * c.ow() + ox) * c.oc + o], want) << depthwise << " " << oy << "," << ox << "," << o;
                }
    }
}

// The int8 Conv takes two paths (s8/conv.c): up to 64 taps, output channels
// four at a time over transposed weights; beyond, one channel at a time. Both
// against the same reference, with per-channel requantisation and a partial
// last block of channels.
TEST(SpatialConvEdges, S8ConvBothPathsPerChannelAndPartialLaneBlock) {
    const ConvCfg cfgs[] = {
        {1, 6, 5, 3, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},  // 27 taps: blocked, oc 6 = 4 + 2 lanes
        {2, 5, 7, 9, 5, 3, 3, 2, 1, 1, 0, 2, 1, 1, 2},  // 81 taps: channel loop, batch 2
        {1, 4, 4, 64, 3, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1}, // exactly 64 taps: blocked
    };
    for (const ConvCfg &c : cfgs) {
        KPlan p;
        std::vector<int32_t> ms, ss, bv;
        for (int o = 0; o < c.oc; o++) {
            ms.push_back(1073741824 + 97531 * o * 1000);
            ss.push_back(-7 - (o % 3));
            bv.push_back(-3000 + 1111 * o);
        }
        uint16_t qx = p.quant(0.5f, 4), qy = p.quant(0.25f, -7, ms, ss);
        uint16_t x = p.tensor(S8, {c.n, c.ih, c.iw, c.ic}, qx), y = p.tensor(S8, {c.n, c.oh(), c.ow(), c.oc}, qy);
        auto xv = kt::ramp_s8((size_t)c.n * c.ih * c.iw * c.ic, 11);
        auto wv = kt::ramp_s8((size_t)c.oc * c.kh * c.kw * c.ic, 12);
        uint16_t op = p.op(TIGRIS_OP_CONV, {x}, {y});
        p.spatial(op, c.kh, c.kw, c.sh, c.sw, c.pt, c.pb, c.pl, c.pr, c.dh, c.dw);
        p.ops[op].weight_idx = p.weight(wv);
        p.ops[op].bias_idx = p.weight(bv);
        p.ops[op].act_min = -120;
        p.ops[op].act_max = 110;
        p.finish();
        p.set(x, xv);
        ASSERT_EQ(p.run_s8(op), 0);
        auto got = p.get<int8_t>(y);
        ASSERT_EQ(got.size(), (size_t)c.n * c.oh() * c.ow() * c.oc);
        for (int n = 0; n < c.n; n++)
            for (int oy = 0; oy < c.oh(); oy++)
                for (int ox = 0; ox < c.ow(); ox++)
                    for (int o = 0; o < c.oc; o++) {
                        int64_t acc = bv[o];
                        for (int ky = 0; ky < c.kh; ky++)
                            for (int kx = 0; kx < c.kw; kx++) {
                                int iy = oy * c.sh - c.pt + ky * c.dh, ix = ox * c.sw - c.pl + kx * c.dw;
                                if (iy < 0 || iy >= c.ih || ix < 0 || ix >= c.iw) continue;
                                for (int i = 0; i < c.ic; i++)
                                    acc += (int64_t)(xv[((n * c.ih + iy) * c.iw + ix) * c.ic + i] - 4) *
                                           wv[((o * c.kh + ky) * c.kw + kx) * c.ic + i];
                            }
                        int want = clamp(ref_mbqm((int32_t)acc, ms[o], ss[o]) - 7, -120, 110);
                        size_t at = ((size_t)(n * c.oh() + oy) * c.ow() + ox) * c.oc + o;
                        ASSERT_EQ(got[at], want) << "ic " << c.ic << " oc " << o << " at " << at;
                    }
    }
}

// ---- ConvTranspose ----

struct TCfg {
    int n, ih, iw, ic, oc, kh, kw, sh, sw, pt, pl, oh, ow;
};

// TFLite's scatter order: inputs (iy, ix) ascending, ic, then the taps.
std::vector<float> scatter_convt(const TCfg &c, const std::vector<float> &x, const std::vector<float> &w,
                                 const std::vector<float> &b) {
    std::vector<float> y((size_t)c.n * c.oh * c.ow * c.oc, 0.0f);
    for (int n = 0; n < c.n; n++)
        for (int iy = 0; iy < c.ih; iy++)
            for (int ix = 0; ix < c.iw; ix++)
                for (int i = 0; i < c.ic; i++)
                    for (int ky = 0; ky < c.kh; ky++)
                        for (int kx = 0; kx < c.kw; kx++)
                            for (int o = 0; o < c.oc; o++) {
                                int oy = iy * c.sh - c.pt + ky, ox = ix * c.sw - c.pl + kx;
                                if (oy < 0 || oy >= c.oh || ox < 0 || ox >= c.ow) continue;
                                y[((n * c.oh + oy) * c.ow + ox) * c.oc + o] +=
                                    x[((n * c.ih + iy) * c.iw + ix) * c.ic + i] * w[((o * c.kh + ky) * c.kw + kx) * c.ic + i];
                            }
    if (!b.empty())
        for (size_t k = 0; k < y.size(); k++) y[k] += b[k % c.oc];
    return y;
}

TEST(SpatialConvTranspose, F32MatchesScatterOrderBitExactly) {
    const TCfg cfgs[] = {
        {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1},   // 1x1
        {1, 3, 3, 2, 3, 3, 3, 2, 2, 1, 1, 5, 5},   // stride 2, pad 1 on every side
        {2, 2, 3, 3, 2, 2, 3, 2, 1, 0, 1, 4, 4},   // batch 2, odd kernel, mixed strides
        {1, 3, 2, 1, 1, 4, 4, 3, 3, 2, 1, 8, 5},   // kernel larger than stride, uneven pads
    };
    for (const TCfg &c : cfgs) {
        KPlan p;
        uint16_t x = p.tensor(F32, {c.n, c.ih, c.iw, c.ic}), y = p.tensor(F32, {c.n, c.oh, c.ow, c.oc});
        auto xv = kt::ramp_f32((size_t)c.n * c.ih * c.iw * c.ic, 7);
        auto wv = kt::ramp_f32((size_t)c.oc * c.kh * c.kw * c.ic, 8), bv = kt::ramp_f32((size_t)c.oc, 9);
        uint16_t op = p.op(TIGRIS_OP_CONV_TRANSPOSE, {x}, {y});
        p.spatial(op, c.kh, c.kw, c.sh, c.sw, c.pt, 0, c.pl, 0);
        p.ops[op].weight_idx = p.weight(wv);
        p.ops[op].bias_idx = p.weight(bv);
        p.finish();
        p.set(x, xv);
        ASSERT_EQ(p.run_f32(op), 0);
        auto got = p.get<float>(y);
        auto want = scatter_convt(c, xv, wv, bv);
        for (size_t i = 0; i < got.size(); i++) EXPECT_EQ(got[i], want[i]) << i;
    }
}

TEST(SpatialConvTranspose, F32HandValuesAndRelu) {
    // 1x2 input, 1x3 kernel, stride 2: outputs 0..4 = x0*w0, x0*w1, x0*w2 + x1*w0, x1*w1, x1*w2.
    KPlan p;
    uint16_t x = p.tensor(F32, {1, 1, 2, 1}), y = p.tensor(F32, {1, 1, 5, 1});
    uint16_t op = p.op(TIGRIS_OP_CONV_TRANSPOSE, {x}, {y});
    p.spatial(op, 1, 3, 1, 2, 0, 0, 0, 0);
    p.ops[op].weight_idx = p.weight(std::vector<float>{1, -2, 3});
    p.ops[op].fused_act = TIGRIS_ACT_RELU;
    p.finish();
    p.set(x, std::vector<float>{2, 5});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(y), (std::vector<float>{2, 0, 11, 0, 15}));
}

TEST(SpatialConvTranspose, S8MatchesIntegerScatterPerChannel) {
    TCfg c{1, 3, 2, 2, 3, 3, 2, 2, 2, 1, 0, 5, 4};
    KPlan p;
    std::vector<int32_t> m = {1518500250, 1073741824, 1789569707}, s = {-7, -6, -8};
    uint16_t qx = p.quant(0.5f, 4), qy = p.quant(0.1f, -10, m, s);
    uint16_t x = p.tensor(S8, {1, c.ih, c.iw, c.ic}, qx), y = p.tensor(S8, {1, c.oh, c.ow, c.oc}, qy);
    auto xv = kt::ramp_s8((size_t)c.ih * c.iw * c.ic, 11), wv = kt::ramp_s8((size_t)c.oc * c.kh * c.kw * c.ic, 12);
    std::vector<int32_t> bv = {-300, 5000, 17};
    uint16_t op = p.op(TIGRIS_OP_CONV_TRANSPOSE, {x}, {y});
    p.spatial(op, c.kh, c.kw, c.sh, c.sw, c.pt, 0, c.pl, 0);
    p.ops[op].weight_idx = p.weight(wv);
    p.ops[op].bias_idx = p.weight(bv);
    p.finish();
    p.set(x, xv);
    ASSERT_EQ(p.run_s8(op), 0);
    std::vector<int64_t> acc((size_t)c.oh * c.ow * c.oc, 0);
    for (int iy = 0; iy < c.ih; iy++)
        for (int ix = 0; ix < c.iw; ix++)
            for (int ky = 0; ky < c.kh; ky++)
                for (int kx = 0; kx < c.kw; kx++)
                    for (int o = 0; o < c.oc; o++)
                        for (int i = 0; i < c.ic; i++) {
                            int oy = iy * c.sh - c.pt + ky, ox = ix * c.sw - c.pl + kx;
                            if (oy < 0 || oy >= c.oh || ox < 0 || ox >= c.ow) continue;
                            acc[(oy * c.ow + ox) * c.oc + o] +=
                                (int64_t)(xv[(iy * c.iw + ix) * c.ic + i] - 4) * wv[((o * c.kh + ky) * c.kw + kx) * c.ic + i];
                        }
    auto got = p.get<int8_t>(y);
    for (size_t k = 0; k < acc.size(); k++) {
        int o = (int)(k % c.oc);
        EXPECT_EQ(got[k], clamp(ref_mbqm((int32_t)(acc[k] + bv[o]), m[o], s[o]) - 10, -128, 127)) << k;
    }
}

TEST(SpatialConvTranspose, RefusesTilesAndShortWeights) {
    for (uint8_t dt : {F32, S8}) {
        KPlan p;
        uint16_t q = dt == S8 ? p.quant(1.0f, 0) : TIGRIS_NONE16;
        uint16_t x = p.tensor(dt, {1, 2, 2, 1}, q), y = p.tensor(dt, {1, 4, 4, 1}, q);
        uint16_t op = p.op(TIGRIS_OP_CONV_TRANSPOSE, {x}, {y});
        p.spatial(op, 2, 2, 2, 2, 0, 0, 0, 0);
        p.ops[op].weight_idx = p.weight(std::vector<float>{1, 2, 3, 4});
        p.finish();
        auto run = [&] { return dt == S8 ? p.run_s8(op) : p.run_f32(op); };
        EXPECT_EQ(run(), 0);
        p.mem.tile.active = 1;
        p.mem.tile.in_h = 2;
        p.mem.tile.out_h = 4;
        EXPECT_EQ(run(), -1);
        p.mem.tile = tigris_tile_ctx_t{};
        p.wentries[0].size_bytes = dt == S8 ? 3 : 12;
        EXPECT_EQ(run(), -1);
    }
}

// ---- MatMul ----

TEST(SpatialMatMul, F32BatchedAndRowBand) {
    KPlan p;
    uint16_t a = p.tensor(F32, {2, 3, 4}), b = p.tensor(F32, {2, 4, 5}), y = p.tensor(F32, {2, 3, 5});
    uint16_t op = p.op(TIGRIS_OP_MATMUL, {a, b}, {y});
    p.finish();
    auto av = kt::ramp_f32(24, 21), bv = kt::ramp_f32(40, 22);
    p.set(a, av);
    p.set(b, bv);
    ASSERT_EQ(p.run_f32(op), 0);
    auto got = p.get<float>(y);
    std::vector<float> want(30);
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 5; j++) {
                float s = 0.0f;  // k ascending from 0: the documented float order
                for (int k = 0; k < 4; k++) s += av[t * 12 + i * 4 + k] * bv[t * 20 + k * 5 + j];
                want[t * 15 + i * 5 + j] = s;
                EXPECT_EQ(got[t * 15 + i * 5 + j], s);
            }
    // A ROWS band of rows [1, 3) of every batch: A band packed [2, 2, 4], B whole.
    std::vector<float> aband, yband(2 * 2 * 5, -7.0f);
    for (int t = 0; t < 2; t++) aband.insert(aband.end(), av.begin() + t * 12 + 4, av.begin() + t * 12 + 12);
    p.ptrs[a] = aband.data();
    p.ptrs[y] = yband.data();
    p.mem.tile.active = 1;
    p.mem.tile.row_tiled = TIGRIS_ROW_MODE_ROWS;
    p.mem.tile.in_h = p.mem.tile.out_h = 2;
    p.mem.tile.out_row_origin = 1;
    ASSERT_EQ(p.run_f32(op), 0);
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 5; j++) EXPECT_EQ(yband[t * 10 + i * 5 + j], want[t * 15 + (i + 1) * 5 + j]);
    p.mem.tile.out_h = 4;  // more rows than M
    EXPECT_EQ(p.run_f32(op), -1);
    p.mem.tile = tigris_tile_ctx_t{};
    p.mem.tile.active = 1;
    p.mem.tile.row_tiled = TIGRIS_ROW_MODE_LEADING;
    p.mem.tile.out_h = 1;
    EXPECT_EQ(p.run_f32(op), -1);  // only ROWS bands
}

TEST(SpatialMatMul, S8ZeroPointsRequantAndClamp) {
    KPlan p;
    int32_t m = 1288490189, s = -5;  // ~0.01875
    uint16_t qa = p.quant(0.5f, -7), qb = p.quant(0.25f, 3), qy = p.quant(0.3f, 2, {m}, {s});
    uint16_t a = p.tensor(S8, {3, 5}, qa), b = p.tensor(S8, {5, 2}, qb), y = p.tensor(S8, {3, 2}, qy);
    uint16_t op = p.op(TIGRIS_OP_MATMUL, {a, b}, {y});
    p.ops[op].act_min = -50;
    p.ops[op].act_max = 60;
    p.finish();
    auto av = kt::ramp_s8(15, 31), bv = kt::ramp_s8(10, 32);
    p.set(a, av);
    p.set(b, bv);
    ASSERT_EQ(p.run_s8(op), 0);
    auto got = p.get<int8_t>(y);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++) {
            int64_t acc = 0;
            for (int k = 0; k < 5; k++) acc += (int64_t)(av[i * 5 + k] + 7) * (bv[k * 2 + j] - 3);
            EXPECT_EQ(got[i * 2 + j], clamp(ref_mbqm((int32_t)acc, m, s) + 2, -50, 60)) << i << "," << j;
        }
}

TEST(SpatialMatMul, RefusesMismatchedShapes) {
    for (uint8_t dt : {F32, S8}) {
        KPlan p;
        uint16_t q = dt == S8 ? p.quant(1.0f, 0) : TIGRIS_NONE16;
        uint16_t a = p.tensor(dt, {2, 3}, q), b = p.tensor(dt, {4, 2}, q), y = p.tensor(dt, {2, 2}, q);
        uint16_t a3 = p.tensor(dt, {2, 2, 3}, q), b3 = p.tensor(dt, {3, 3, 2}, q), y3 = p.tensor(dt, {2, 2, 2}, q);
        uint16_t op = p.op(TIGRIS_OP_MATMUL, {a, b}, {y});
        uint16_t op2 = p.op(TIGRIS_OP_MATMUL, {a3, b3}, {y3});
        uint16_t op3 = p.op(TIGRIS_OP_MATMUL, {a}, {y});
        p.finish();
        for (uint16_t o : {op, op2, op3}) EXPECT_EQ(dt == S8 ? p.run_s8(o) : p.run_f32(o), -1) << o;
    }
}

// ---- Conv1D ----

TEST(SpatialConv1D, F32MatchesConvReferenceAndStripeBands) {
    // [N=1, L=9, C=2] -> k3, stride 2, dilation 2, pads (2, 1): OL = (9+3-5)/2+1 = 4.
    ConvCfg c{1, 9, 1, 2, 3, 3, 1, 2, 1, 2, 1, 0, 0, 2, 1};
    KPlan p;
    uint16_t x = p.tensor(F32, {1, 9, 2}), y = p.tensor(F32, {1, c.oh(), 3});
    auto xv = kt::ramp_f32(18, 41), wv = kt::ramp_f32(18, 42), bv = kt::ramp_f32(3, 43);
    uint16_t op = p.op(TIGRIS_OP_CONV1D, {x}, {y});
    p.spatial(op, 3, 1, 2, 1, 2, 1, 0, 0, 2, 1);
    p.ops[op].weight_idx = p.weight(wv);
    p.ops[op].bias_idx = p.weight(bv);
    p.ops[op].fused_act = TIGRIS_ACT_RELU6;
    p.finish();
    p.set(x, xv);
    ASSERT_EQ(p.run_f32(op), 0);
    auto got = p.get<float>(y);
    auto want = ref_conv(c, xv, wv, bv);
    for (size_t i = 0; i < got.size(); i++) EXPECT_NEAR(got[i], std::min(6.0, std::max(0.0, want[i])), 1e-5) << i;
    // Stripe band of output rows [2, 4): input rows [2, 9), no effective top pad.
    std::vector<float> xb(xv.begin() + 4, xv.end()), yb(6, -1.0f);
    p.ptrs[x] = xb.data();
    p.ptrs[y] = yb.data();
    p.mem.tile.active = 1;
    p.mem.tile.in_h = 7;
    p.mem.tile.out_h = 2;
    p.mem.tile.pad_top = 0;
    ASSERT_EQ(p.run_f32(op), 0);
    for (int i = 0; i < 6; i++) EXPECT_EQ(yb[i], got[6 + i]) << i;
    // Band of output rows [0, 2): input rows [0, 5), effective top pad 2.
    std::vector<float> xa(xv.begin(), xv.begin() + 10), ya(6, -1.0f);
    p.ptrs[x] = xa.data();
    p.ptrs[y] = ya.data();
    p.mem.tile.in_h = 5;
    p.mem.tile.pad_top = 2;
    ASSERT_EQ(p.run_f32(op), 0);
    for (int i = 0; i < 6; i++) EXPECT_EQ(ya[i], got[i]) << i;
    p.mem.tile.width_tiled = 1;
    EXPECT_EQ(p.run_f32(op), -1);
}

TEST(SpatialConv1D, S8MatchesIntegerReferenceAndRefusesRank4) {
    KPlan p;
    std::vector<int32_t> m = {1073741824, 1500000000}, s = {-4, -5};
    uint16_t qx = p.quant(0.5f, 6), qy = p.quant(0.5f, -4, m, s);
    uint16_t x = p.tensor(S8, {2, 6, 3}, qx), y = p.tensor(S8, {2, 6, 2}, qy);  // k2, pads (1, 0)
    auto xv = kt::ramp_s8(36, 51), wv = kt::ramp_s8(12, 52);
    std::vector<int32_t> bv = {40, -40};
    uint16_t op = p.op(TIGRIS_OP_CONV1D, {x}, {y});
    p.spatial(op, 2, 1, 1, 1, 1, 0, 0, 0);
    p.ops[op].weight_idx = p.weight(wv);
    p.ops[op].bias_idx = p.weight(bv);
    uint16_t x4 = p.tensor(S8, {1, 2, 6, 3}, qx), y4 = p.tensor(S8, {1, 2, 6, 2}, qy);
    uint16_t op4 = p.op(TIGRIS_OP_CONV1D, {x4}, {y4});
    p.spatial(op4, 2, 1, 1, 1, 1, 0, 0, 0);
    p.ops[op4].weight_idx = p.ops[op].weight_idx;
    p.finish();
    p.set(x, xv);
    ASSERT_EQ(p.run_s8(op), 0);
    auto got = p.get<int8_t>(y);
    for (int n = 0; n < 2; n++)
        for (int t = 0; t < 6; t++)
            for (int o = 0; o < 2; o++) {
                int64_t acc = bv[o];
                for (int k = 0; k < 2; k++) {
                    int l = t - 1 + k;
                    if (l < 0 || l >= 6) continue;
                    for (int i = 0; i < 3; i++) acc += (int64_t)(xv[(n * 6 + l) * 3 + i] - 6) * wv[(o * 2 + k) * 3 + i];
                }
                EXPECT_EQ(got[(n * 6 + t) * 2 + o], clamp(ref_mbqm((int32_t)acc, m[o], s[o]) - 4, -128, 127));
            }
    EXPECT_EQ(p.run_s8(op4), -1);
}

// ---- GlobalMax ----

TEST(SpatialGlobalMax, F32StartsFromFirstElement) {
    KPlan p;
    uint16_t x = p.tensor(F32, {2, 3, 1, 2}), y = p.tensor(F32, {2, 1, 1, 2});
    uint16_t op = p.op(TIGRIS_OP_GLOBAL_MAX, {x}, {y});
    p.finish();
    const float ninf = -INFINITY;
    p.set(x, std::vector<float>{ninf, -5, ninf, -6, ninf, -1, 3, 0, 2, -0.5f, 7, -0.25f});
    ASSERT_EQ(p.run_f32(op), 0);
    auto got = p.get<float>(y);
    EXPECT_EQ(got, (std::vector<float>{ninf, -1, 7, 0}));
    p.mem.tile.active = 1;
    EXPECT_EQ(p.run_f32(op), -1);
}

TEST(SpatialGlobalMax, S8SameAndPassthroughRequant) {
    KPlan p;
    uint16_t qa = p.quant(0.5f, 3), qb = p.quant(0.3f, -20);
    uint16_t x = p.tensor(S8, {1, 2, 2, 3}, qa), y = p.tensor(S8, {1, 1, 1, 3}, qa), z = p.tensor(S8, {1, 1, 1, 3}, qb);
    uint16_t op = p.op(TIGRIS_OP_GLOBAL_MAX, {x}, {y});
    uint16_t op2 = p.op(TIGRIS_OP_GLOBAL_MAX, {x}, {z});
    p.ops[op].act_min = -120;
    p.finish();
    std::vector<int8_t> xv = {-128, 10, 100, -128, 11, -3, -127, -90, 127, -128, 0, 5};
    p.set(x, xv);
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<int8_t>(y), (std::vector<int8_t>{-120, 11, 127}));
    ASSERT_EQ(p.run_s8(op2), 0);
    std::vector<int8_t> want;
    for (int mx : {-127, 11, 127}) want.push_back((int8_t)clamp((int)std::lround((mx - 3) * (double)0.5f / (double)0.3f) - 20, -128, 127));
    EXPECT_EQ(p.get<int8_t>(z), want);
}

// ---- L2Pool ----

TEST(SpatialL2Pool, F32PadsCountOnlyInImageTapsAndAct) {
    // 3x3 input, 2x2 kernel stride 2, pad right/bottom 1: windows of 4, 2, 2 and 1 taps.
    KPlan p;
    uint16_t x = p.tensor(F32, {1, 3, 3, 1}), y = p.tensor(F32, {1, 2, 2, 1});
    uint16_t op = p.op(TIGRIS_OP_L2_POOL, {x}, {y});
    p.spatial(op, 2, 2, 2, 2, 0, 1, 0, 1);
    p.ops[op].fused_act = TIGRIS_ACT_RELU6;
    p.finish();
    p.set(x, std::vector<float>{1, 1, 3, 1, 1, 4, 0.5f, -0.5f, 12});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(y), (std::vector<float>{1.0f, std::sqrt(12.5f), 0.5f, 6.0f}));
    // Band: output row 1 only, input row 2 (effective bottom pad).
    std::vector<float> xb = {0.5f, -0.5f, 12}, yb(2, -1.0f);
    p.ptrs[x] = xb.data();
    p.ptrs[y] = yb.data();
    p.mem.tile.active = 1;
    p.mem.tile.in_h = 1;
    p.mem.tile.out_h = 1;
    p.mem.tile.pad_top = 0;
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(yb, (std::vector<float>{0.5f, 6.0f}));
}

// ---- Resize ----

// Resize op from [1, ih, iw, c] to [1, oh, ow, c] with mode and optional scales.
struct ResizeRig {
    KPlan p;
    uint16_t x, y, op;
    ResizeRig(uint8_t type, uint8_t dt, int ih, int iw, int oh, int ow, int c, int mode, const float *scales = nullptr,
              float s_in = 0.5f, int zp_in = 0, float s_out = 0.5f, int zp_out = 0) {
        uint16_t qi = dt == S8 ? p.quant(s_in, zp_in) : TIGRIS_NONE16;
        uint16_t qo = dt == S8 ? p.quant(s_out, zp_out) : TIGRIS_NONE16;
        x = p.tensor(dt, {1, ih, iw, c}, qi);
        y = p.tensor(dt, {1, oh, ow, c}, qo);
        op = p.op(type, {x}, {y});
        p.ops[op].spatial.kernel_h = (uint8_t)mode;
        if (scales) p.attr(op, TIGRIS_ATTR_RESIZE_SCALES, scales, 8);
        p.finish();
    }
};

int nearest_src(int i, int in, int out, int mode, const float *scale) {
    float ratio;
    if (mode == 2) ratio = out > 1 ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
    else if (scale) ratio = 1.0f / *scale;
    else ratio = (float)in / (float)out;
    float pos = ((float)i + (mode == 3 ? 0.5f : 0.0f)) * ratio;
    int idx = (int)(mode == 2 ? std::round(pos) : std::floor(pos));
    return std::min(idx, in - 1);
}

TEST(SpatialResize, NearestEveryModeF32AndS8AgreeWithFloatCoordinates) {
    const int sizes[][4] = {{1, 1, 1, 1}, {2, 3, 4, 7}, {5, 7, 3, 2}, {3, 6, 9, 13}, {7, 1, 21, 3}, {13, 17, 40, 39}};
    for (auto &sz : sizes)
        for (int mode = 0; mode <= 3; mode++)
            for (int dt = 0; dt < 2; dt++) {
                SCOPED_TRACE(testing::Message() << sz[0] << "x" << sz[1] << "->" << sz[2] << "x" << sz[3] << " mode " << mode);
                ResizeRig r(TIGRIS_OP_RESIZE, dt ? S8 : F32, sz[0], sz[1], sz[2], sz[3], 2, mode);
                // channel 0 = source row, channel 1 = source column
                std::vector<int8_t> xs;
                std::vector<float> xf;
                for (int h = 0; h < sz[0]; h++)
                    for (int w = 0; w < sz[1]; w++) {
                        xs.push_back((int8_t)h);
                        xs.push_back((int8_t)w);
                        xf.push_back((float)h);
                        xf.push_back((float)w);
                    }
                if (dt) r.p.set(r.x, xs);
                else r.p.set(r.x, xf);
                ASSERT_EQ(dt ? r.p.run_s8(r.op) : r.p.run_f32(r.op), 0);
                for (int oh = 0; oh < sz[2]; oh++)
                    for (int ow = 0; ow < sz[3]; ow++) {
                        int k = (oh * sz[3] + ow) * 2;
                        int gh = dt ? r.p.data<int8_t>(r.y)[k] : (int)r.p.data<float>(r.y)[k];
                        int gw = dt ? r.p.data<int8_t>(r.y)[k + 1] : (int)r.p.data<float>(r.y)[k + 1];
                        EXPECT_EQ(gh, nearest_src(oh, sz[0], sz[2], mode, nullptr)) << oh;
                        EXPECT_EQ(gw, nearest_src(ow, sz[1], sz[3], mode, nullptr)) << ow;
                    }
            }
}

TEST(SpatialResize, NearestHandValuesAndExplicitScales) {
    // 3 -> 5, mode 0/1 floor(i*0.6) = 0 0 1 1 2; mode 2 round(i*0.5) = 0 1 1 2 2 (half away);
    // mode 3 floor((i+.5)*0.6) = 0 0 1 2 2.
    const int want[4][5] = {{0, 0, 1, 1, 2}, {0, 0, 1, 1, 2}, {0, 1, 1, 2, 2}, {0, 0, 1, 2, 2}};
    for (int mode = 0; mode <= 3; mode++) {
        ResizeRig r(TIGRIS_OP_RESIZE, F32, 1, 3, 1, 5, 1, mode);
        r.p.set(r.x, std::vector<float>{10, 20, 30});
        ASSERT_EQ(r.p.run_f32(r.op), 0);
        for (int i = 0; i < 5; i++) EXPECT_EQ(r.p.data<float>(r.y)[i], 10.0f * (want[mode][i] + 1)) << mode << " " << i;
    }
    // Explicit scale 2.5 over 2 -> 5: ratio 0.4, floor(i*0.4) = 0 0 0 1 1 (the size ratio 0.4 too);
    // explicit 1.7 over 3 -> 5: ratio 1/1.7, floor = 0 0 1 1 2.
    const float sc[2] = {1.0f, 1.7f};
    for (int dt = 0; dt < 2; dt++) {
        ResizeRig r(TIGRIS_OP_RESIZE, dt ? S8 : F32, 1, 3, 1, 5, 1, 1, sc);
        if (dt) r.p.set(r.x, std::vector<int8_t>{10, 20, 30});
        else r.p.set(r.x, std::vector<float>{10, 20, 30});
        ASSERT_EQ(dt ? r.p.run_s8(r.op) : r.p.run_f32(r.op), 0);
        const int e[5] = {0, 0, 1, 1, 2};
        for (int i = 0; i < 5; i++) {
            int got = dt ? r.p.data<int8_t>(r.y)[i] : (int)r.p.data<float>(r.y)[i];
            EXPECT_EQ(got, 10 * (e[i] + 1)) << dt << " " << i;
            EXPECT_EQ(e[i], nearest_src(i, 3, 5, 1, &sc[1]));
        }
    }
}

TEST(SpatialResize, ExplicitScalesNearestS8AndF32MatchFloatCoordinates) {
    const float scales[] = {1.3f, 1.7f, 2.25f, 2.6f, 3.1f, 0.55f, 0.7f, 1.0f, 4.0f / 3.0f};
    for (int in = 1; in <= 9; in++)
        for (float sh : scales)
            for (int mode = 0; mode <= 3; mode++)
                for (int dt = 0; dt < 2; dt++) {
                    int out = (int)std::floor((float)in * sh);
                    if (out < 1) continue;
                    SCOPED_TRACE(testing::Message() << in << "->" << out << " scale " << sh << " mode " << mode);
                    const float sc[2] = {sh, 1.0f};
                    ResizeRig r(TIGRIS_OP_RESIZE, dt ? S8 : F32, in, 1, out, 1, 1, mode, sc);
                    std::vector<int8_t> xs;
                    std::vector<float> xf;
                    for (int h = 0; h < in; h++) {
                        xs.push_back((int8_t)h);
                        xf.push_back((float)h);
                    }
                    if (dt) r.p.set(r.x, xs);
                    else r.p.set(r.x, xf);
                    ASSERT_EQ(dt ? r.p.run_s8(r.op) : r.p.run_f32(r.op), 0);
                    for (int i = 0; i < out; i++) {
                        int got = dt ? r.p.data<int8_t>(r.y)[i] : (int)r.p.data<float>(r.y)[i];
                        EXPECT_EQ(got, nearest_src(i, in, out, mode, mode == 2 ? nullptr : &sh)) << i;
                    }
                }
}

TEST(SpatialResize, NearestS8PassthroughRequantAndBands) {
    ResizeRig r(TIGRIS_OP_RESIZE, S8, 2, 2, 4, 4, 1, 1, nullptr, 0.5f, 10, 0.2f, -5);
    std::vector<int8_t> xv = {-128, 0, 60, 127};
    r.p.set(r.x, xv);
    ASSERT_EQ(r.p.run_s8(r.op), 0);
    for (int i = 0; i < 16; i++) {
        int src = xv[(i / 4 / 2) * 2 + (i % 4) / 2];
        int want = clamp((int)std::lround((src - 10) * (double)0.5f / (double)0.2f) - 5, -128, 127);
        EXPECT_EQ(r.p.data<int8_t>(r.y)[i], want) << i;
    }
    // Band: output rows [2, 4) from input row 1 (in_row_origin 1).
    std::vector<int8_t> xb(xv.begin() + 2, xv.end()), yb(8, 0);
    std::vector<int8_t> whole = r.p.get<int8_t>(r.y);
    r.p.ptrs[r.x] = xb.data();
    r.p.ptrs[r.y] = yb.data();
    r.p.mem.tile.active = 1;
    r.p.mem.tile.in_h = 1;
    r.p.mem.tile.out_h = 2;
    r.p.mem.tile.in_row_origin = 1;
    r.p.mem.tile.out_row_origin = 2;
    ASSERT_EQ(r.p.run_s8(r.op), 0);
    for (int i = 0; i < 8; i++) EXPECT_EQ(yb[i], whole[8 + i]);
    r.p.mem.tile.out_row_origin = 0;  // rows 0..1 need input row 0, not in the band
    EXPECT_EQ(r.p.run_s8(r.op), -1);
    r.p.mem.tile.out_row_origin = 3;  // past the end
    EXPECT_EQ(r.p.run_s8(r.op), -1);
}

TEST(SpatialResize, RefusesBadModesAndScales) {
    ResizeRig a(TIGRIS_OP_RESIZE, F32, 2, 2, 4, 4, 1, 4);
    EXPECT_EQ(a.p.run_f32(a.op), -1);
    ResizeRig b(TIGRIS_OP_RESIZE_LINEAR, S8, 2, 2, 4, 4, 1, 3);
    EXPECT_EQ(b.p.run_s8(b.op), -1);
    const float bad[2] = {2.0f, -2.0f};
    ResizeRig c(TIGRIS_OP_RESIZE, S8, 2, 2, 4, 4, 1, 1, bad);
    EXPECT_EQ(c.p.run_s8(c.op), -1);
    ResizeRig d(TIGRIS_OP_RESIZE_LINEAR, F32, 2, 2, 4, 4, 1, 1, bad);
    EXPECT_EQ(d.p.run_f32(d.op), -1);
    ResizeRig e(TIGRIS_OP_RESIZE, F32, 2, 2, 4, 4, 2, 1);
    e.p.tensors[e.y].size_bytes = 16;  // record smaller than the shape
    EXPECT_EQ(e.p.run_f32(e.op), -1);
}

// ---- ResizeLinear ----

TEST(SpatialResizeLinear, F32HandValuesEveryMode) {
    // [1,2,2,1] {0, 4; 8, 12} -> [1,3,3,1].
    // mode 1 (asymmetric, ratio 2/3): positions 0, 2/3, 4/3 (clamped to hi = 1).
    // mode 2 (align corners, ratio 1/2): positions 0, .5, 1 -> bilinear exact.
    ResizeRig r2(TIGRIS_OP_RESIZE_LINEAR, F32, 2, 2, 3, 3, 1, 2);
    r2.p.set(r2.x, std::vector<float>{0, 4, 8, 12});
    ASSERT_EQ(r2.p.run_f32(r2.op), 0);
    EXPECT_EQ(r2.p.get<float>(r2.y), (std::vector<float>{0, 2, 4, 4, 6, 8, 8, 10, 12}));
    // mode 0, 1 -> 4 of {0, 4} along w: -0.25 0.25 0.75 1.25 -> 0 1 3 4 (weights clamp implicitly).
    ResizeRig r0(TIGRIS_OP_RESIZE_LINEAR, F32, 1, 2, 1, 4, 1, 0);
    r0.p.set(r0.x, std::vector<float>{0, 4});
    ASSERT_EQ(r0.p.run_f32(r0.op), 0);
    EXPECT_EQ(r0.p.get<float>(r0.y), (std::vector<float>{0, 1, 3, 4}));
    // mode 1, 2 -> 4 of {0, 4}: positions 0 .5 1 1.5 -> 0 2 4 4.
    ResizeRig r1(TIGRIS_OP_RESIZE_LINEAR, F32, 1, 2, 1, 4, 1, 1);
    r1.p.set(r1.x, std::vector<float>{0, 4});
    ASSERT_EQ(r1.p.run_f32(r1.op), 0);
    EXPECT_EQ(r1.p.get<float>(r1.y), (std::vector<float>{0, 2, 4, 4}));
}

// The 10-bit integer path written with int64 and the TFLite formulas.
struct Lin10 {
    int lo, hi, d;
};
Lin10 lin10(int i, int in, int out, int mode) {
    int ie = in, oe = out;
    if (mode == 2 && out > 1) {
        ie = in - 1;
        oe = out - 1;
    }
    int64_t sc = ((int64_t)1024 * ie + oe / 2) / oe;
    int64_t pos = (int64_t)i * sc + (mode == 0 ? sc / 2 - 512 : 0);
    int64_t lo = std::max<int64_t>(0, pos / 1024), hi = std::min<int64_t>(in - 1, (pos + 1023) / 1024);
    return {(int)lo, (int)hi, (int)(pos - 1024 * lo)};
}

TEST(SpatialResizeLinear, S8TenBitPathMatchesInt64Reference) {
    const int sizes[][4] = {{1, 1, 1, 1}, {2, 2, 3, 3}, {3, 5, 7, 4}, {4, 4, 4, 9}, {5, 3, 2, 11}};
    for (auto &sz : sizes)
        for (int mode = 0; mode <= 2; mode++) {
            SCOPED_TRACE(testing::Message() << sz[0] << "x" << sz[1] << "->" << sz[2] << "x" << sz[3] << " mode " << mode);
            ResizeRig r(TIGRIS_OP_RESIZE_LINEAR, S8, sz[0], sz[1], sz[2], sz[3], 3, mode, nullptr, 0.5f, -3, 0.5f, -3);
            auto xv = kt::ramp_s8((size_t)sz[0] * sz[1] * 3, 61 + mode);
            r.p.set(r.x, xv);
            ASSERT_EQ(r.p.run_s8(r.op), 0);
            for (int oh = 0; oh < sz[2]; oh++)
                for (int ow = 0; ow < sz[3]; ow++) {
                    Lin10 a = lin10(oh, sz[0], sz[2], mode), b = lin10(ow, sz[1], sz[3], mode);
                    for (int c = 0; c < 3; c++) {
                        auto X = [&](int h, int w) { return (int64_t)xv[(h * sz[1] + w) * 3 + c]; };
                        int64_t s = X(a.lo, b.lo) * (1024 - a.d) * (1024 - b.d) + X(a.hi, b.lo) * a.d * (1024 - b.d) +
                                    X(a.lo, b.hi) * (1024 - a.d) * b.d + X(a.hi, b.hi) * a.d * b.d;
                        int64_t q = (s + (s > 0 ? (1 << 19) : -(1 << 19))) / (1 << 20);
                        EXPECT_EQ(r.p.data<int8_t>(r.y)[(oh * sz[3] + ow) * 3 + c], clamp((int)q, -128, 127))
                            << oh << "," << ow << "," << c;
                    }
                }
        }
}

TEST(SpatialResizeLinear, ExplicitScalesS8TenBitUsesFloatScale10) {
    const float scales[] = {1.3f, 1.7f, 2.25f, 2.6f, 3.1f, 0.55f, 0.7f, 4.0f / 3.0f};
    for (int in = 2; in <= 7; in++)
        for (float sw : scales)
            for (int mode = 0; mode <= 2; mode++) {
                int out = (int)std::floor((float)in * sw);
                if (out < 1) continue;
                SCOPED_TRACE(testing::Message() << in << "->" << out << " scale " << sw << " mode " << mode);
                const float sc[2] = {1.0f, sw};
                ResizeRig r(TIGRIS_OP_RESIZE_LINEAR, S8, 1, in, 1, out, 1, mode, sc);
                auto xv = kt::ramp_s8((size_t)in, 90 + in);
                r.p.set(r.x, xv);
                ASSERT_EQ(r.p.run_s8(r.op), 0);
                int64_t s10;
                if (mode == 2) s10 = out > 1 ? ((int64_t)1024 * (in - 1) + (out - 1) / 2) / (out - 1) : ((int64_t)1024 * in + out / 2) / out;
                else s10 = (int64_t)std::floor(1024.0f / sw + 0.5f);
                for (int i = 0; i < out; i++) {
                    int64_t pos = (int64_t)i * s10 + (mode == 0 ? s10 / 2 - 512 : 0);
                    int64_t lo = std::max<int64_t>(0, pos / 1024), hi = std::min<int64_t>(in - 1, (pos + 1023) / 1024);
                    if (lo > in - 1) continue;  // beyond the input: the kernel refuses such plans
                    int64_t d = pos - 1024 * lo;
                    int64_t v = (int64_t)xv[lo] * 1024 * (1024 - d) + (int64_t)xv[hi] * 1024 * d;
                    int64_t q = (v + (v > 0 ? (1 << 19) : -(1 << 19))) / (1 << 20);
                    EXPECT_EQ(r.p.data<int8_t>(r.y)[i], clamp((int)q, -128, 127)) << i;
                }
            }
}

TEST(SpatialResizeLinear, S8HandValuesExplicitScaleAndBand) {
    // Half-pixel 2 -> 4 of {0, 40}: scale10 512, positions -256 256 768 1280 -> 0 10 30 40.
    ResizeRig r(TIGRIS_OP_RESIZE_LINEAR, S8, 1, 2, 1, 4, 1, 0);
    r.p.set(r.x, std::vector<int8_t>{0, 40});
    ASSERT_EQ(r.p.run_s8(r.op), 0);
    EXPECT_EQ(r.p.get<int8_t>(r.y), (std::vector<int8_t>{0, 10, 30, 40}));
    // Explicit scale 2.6 along w (asymmetric, 2 -> 5 = floor(2 * 2.6)): scale10 =
    // floor(1024/2.6 + 0.5) = floor(394.35) = 394, not the size-derived (2048 + 2)/5 = 410.
    const float sc[2] = {1.0f, 2.6f};
    ResizeRig e(TIGRIS_OP_RESIZE_LINEAR, S8, 1, 2, 1, 5, 1, 1, sc);
    e.p.set(e.x, std::vector<int8_t>{0, 100});
    ASSERT_EQ(e.p.run_s8(e.op), 0);
    // positions 0 394 788 1182 1576: hi clamps to 1; d = pos - 1024*lo.
    std::vector<int8_t> want;
    for (int pos : {0, 394, 788, 1182, 1576}) {
        int lo = pos / 1024, hi = std::min(1, (pos + 1023) / 1024), d = pos - 1024 * lo;
        int64_t s = (int64_t)(lo ? 100 : 0) * 1024 * (1024 - d) + (int64_t)(hi ? 100 : 0) * 1024 * d;
        want.push_back((int8_t)((s + (s > 0 ? (1 << 19) : -(1 << 19))) / (1 << 20)));
    }
    EXPECT_EQ(want, (std::vector<int8_t>{0, 38, 77, 100, 100}));
    EXPECT_EQ(e.p.get<int8_t>(e.y), want);
    // Band: rows of a 4 -> 8 asymmetric resize, output rows [4, 8) read input rows [2, 4).
    ResizeRig b(TIGRIS_OP_RESIZE_LINEAR, S8, 4, 2, 8, 2, 1, 1);
    auto xv = kt::ramp_s8(8, 71);
    b.p.set(b.x, xv);
    ASSERT_EQ(b.p.run_s8(b.op), 0);
    auto whole = b.p.get<int8_t>(b.y);
    std::vector<int8_t> xb(xv.begin() + 4, xv.end()), yb(8, 0);
    b.p.ptrs[b.x] = xb.data();
    b.p.ptrs[b.y] = yb.data();
    b.p.mem.tile.active = 1;
    b.p.mem.tile.in_h = 2;
    b.p.mem.tile.out_h = 4;
    b.p.mem.tile.in_row_origin = 2;
    b.p.mem.tile.out_row_origin = 4;
    ASSERT_EQ(b.p.run_s8(b.op), 0);
    for (int i = 0; i < 8; i++) EXPECT_EQ(yb[i], whole[8 + i]) << i;
    b.p.mem.tile.out_row_origin = 3;  // row 3 reads input row 1
    EXPECT_EQ(b.p.run_s8(b.op), -1);
}

TEST(SpatialResizeLinear, F32BandMatchesWholeRows) {
    ResizeRig b(TIGRIS_OP_RESIZE_LINEAR, F32, 5, 3, 9, 4, 2, 0);
    auto xv = kt::ramp_f32(30, 81);
    b.p.set(b.x, xv);
    ASSERT_EQ(b.p.run_f32(b.op), 0);
    auto whole = b.p.get<float>(b.y);
    // Output rows [3, 6): half-pixel positions (i + .5)·5/9 - .5 = 1.44 .. 2.56 -> input rows [1, 4).
    std::vector<float> xb(xv.begin() + 6, xv.begin() + 24), yb(24, 0.0f);
    b.p.ptrs[b.x] = xb.data();
    b.p.ptrs[b.y] = yb.data();
    b.p.mem.tile.active = 1;
    b.p.mem.tile.in_h = 3;
    b.p.mem.tile.out_h = 3;
    b.p.mem.tile.in_row_origin = 1;
    b.p.mem.tile.out_row_origin = 3;
    ASSERT_EQ(b.p.run_f32(b.op), 0);
    for (int i = 0; i < 24; i++) EXPECT_EQ(yb[i], whole[24 + i]) << i;
}

#if TIGRIS_ENABLE_F32
TEST(SpatialResizeLinear, S8DifferentQuantisationUsesFloatBilinear) {
    // Align corners 2 -> 3 of {-10, 30} with zp_in -10, s_in 0.5: dequantised 0, 20 -> 0, 10, 20;
    // re-encoded with s_out 0.25, zp_out 7: 7, 47, 87.
    ResizeRig r(TIGRIS_OP_RESIZE_LINEAR, S8, 1, 2, 1, 3, 1, 2, nullptr, 0.5f, -10, 0.25f, 7);
    r.p.set(r.x, std::vector<int8_t>{-10, 30});
    ASSERT_EQ(r.p.run_s8(r.op), 0);
    EXPECT_EQ(r.p.get<int8_t>(r.y), (std::vector<int8_t>{7, 47, 87}));
}
#endif

}  // namespace
