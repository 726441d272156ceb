// int8 reference kernels against TFLite's arithmetic written independently
// here: the fixed-point steps are expressed with doubles and explicit
// rounding (exact for these magnitudes) rather than the kernels' integer
// tricks, multipliers come from std::frexp on double scales as TFLite's
// QuantizeMultiplier does, and transcendental ops are checked against
// double-precision math within the one step TFLite's approximations allow.
#include <algorithm>
#include <cmath>
#include <random>

#include "test_kernels_plan.h"

extern "C" {
#include "../../core/src/kernels/s8/fixedpoint.h"
}

using kt::KPlan;

namespace {

// ---- Reference arithmetic ----

int32_t ref_srdhm(int32_t a, int32_t b) {
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    int64_t p = (int64_t)a * b;
    // (p + nudge) / 2^31 truncated, with the nudge of TFLite
    if (p >= 0) return (int32_t)((p + (1ll << 30)) >> 31);
    return (int32_t)-((-p + (1ll << 30) - 1) >> 31);
}

// Rounding divide by 2^e: half away from zero, exact in double.
int32_t ref_rdbpot(int32_t x, int e) { return e <= 0 ? x : (int32_t)std::round(std::ldexp((double)x, -e)); }

int32_t ref_mbqm(int32_t x, int32_t m, int s) {
    int32_t shifted = (int32_t)(uint32_t)((int64_t)x * (1ll << std::max(s, 0)));
    return ref_rdbpot(ref_srdhm(shifted, m), std::max(-s, 0));
}

void ref_qm(double v, int32_t *m, int32_t *s) {
    if (v == 0) {
        *m = 0;
        *s = 0;
        return;
    }
    int e;
    double q = std::frexp(v, &e);
    int64_t f = (int64_t)std::round(q * 2147483648.0);
    if (f == (1ll << 31)) {
        f /= 2;
        e++;
    }
    if (e < -31) {
        f = 0;
        e = 0;
    }
    *m = (int32_t)f;
    *s = e;
}

uint32_t bits_of(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

// ---- The integer helpers the kernels derive parameters with ----

TEST(S8FixedPoint, QuantizeMultiplierOfScaleRatiosMatchesDoubleFrexp) {
    std::mt19937 rng(12345);
    std::uniform_real_distribution<float> mant(0.5f, 1.0f);
    std::uniform_int_distribution<int> ex(-20, 5);
    for (int i = 0; i < 20000; i++) {
        float a = std::ldexp(mant(rng), ex(rng)), b = std::ldexp(mant(rng), ex(rng)), c = std::ldexp(mant(rng), ex(rng));
        fx_real_t ra, rb, rc;
        ASSERT_EQ(fx_from_float_bits(bits_of(a), &ra), 0);
        ASSERT_EQ(fx_from_float_bits(bits_of(b), &rb), 0);
        ASSERT_EQ(fx_from_float_bits(bits_of(c), &rc), 0);
        int32_t m, s, wm, ws;
        ASSERT_EQ(fx_qm_ratio(ra, rb, &m, &s), 0);
        ref_qm((double)a / (double)b, &wm, &ws);
        ASSERT_EQ(m, wm) << a << "/" << b;
        ASSERT_EQ(s, ws) << a << "/" << b;
        // a·b/c: the product is exact in double, as in TFLite's Mul.
        ASSERT_EQ(fx_qm_ratio(fx_mul_real(ra, rb), rc, &m, &s), 0);
        ref_qm((double)a * (double)b / (double)c, &wm, &ws);
        ASSERT_EQ(m, wm);
        ASSERT_EQ(s, ws);
        // Passthrough requantisation rounding.
        int v = (int)(rng() % 511) - 255;
        double wd = std::round((double)v * a / b);
        int32_t want = (int32_t)std::max(-16777216.0, std::min(16777216.0, wd));
        ASSERT_EQ(fx_scale_round(v, ra, rb), want) << v << "*" << a << "/" << b;
    }
}

TEST(S8FixedPoint, PrimitivesMatchReferenceFormulation) {
    std::mt19937 rng(99);
    for (int i = 0; i < 200000; i++) {
        int32_t a = (int32_t)rng(), b = (int32_t)rng();
        ASSERT_EQ(fx_srdhm(a, b), ref_srdhm(a, b));
        int e = (int)(rng() % 32);
        ASSERT_EQ(fx_rdbpot(a, e), ref_rdbpot(a, e)) << a << " >> " << e;
        int32_t x = (int32_t)(rng() % 65536) - 32768;
        int s = (int)(rng() % 40) - 31;
        int32_t m = (int32_t)(rng() >> 1);
        ASSERT_EQ(fx_mbqm(x, m, s), ref_mbqm(x, m, s));
    }
    EXPECT_EQ(fx_srdhm(INT32_MIN, INT32_MIN), INT32_MAX);
    EXPECT_EQ(fx_rdbpot(-5, 1), -3);  // -2.5 rounds away from zero
    EXPECT_EQ(fx_rdbpot(5, 1), 3);
    EXPECT_EQ(fx_rdbpot(-6, 2), -2);  // -1.5
}

TEST(S8FixedPoint, ExpLogisticTanhTrackDoubleMath) {
    // Q4.27 inputs over the whole range the kernels feed in.
    for (int32_t raw = -(15 << 27); raw <= (15 << 27); raw += 1 << 19) {
        double x = std::ldexp((double)raw, -27);
        double lg = std::ldexp((double)fx_logistic(raw, 4), -31);
        double th = std::ldexp((double)fx_tanh(raw, 4), -31);
        ASSERT_NEAR(lg, 1.0 / (1.0 + std::exp(-x)), 2e-6) << x;
        ASSERT_NEAR(th, std::tanh(x), 4e-6) << x;
        if (raw <= 0) {
            double ex = std::ldexp((double)fx_exp_on_negative(raw, 4), -31);
            ASSERT_NEAR(ex, std::exp(x), 2e-6) << x;
        }
    }
    EXPECT_EQ(fx_logistic(0, 4), 1 << 30);
    EXPECT_EQ(fx_tanh(0, 4), 0);
    EXPECT_EQ(fx_exp_on_negative(0, 5), INT32_MAX);
}

TEST(S8FixedPoint, FloatRoundingOfProductsAndQuotients) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> mant(0.5f, 1.0f);
    std::uniform_int_distribution<int> ex(-12, 4);
    for (int i = 0; i < 20000; i++) {
        volatile float a = std::ldexp(mant(rng), ex(rng)), b = std::ldexp(mant(rng), ex(rng)), c = std::ldexp(mant(rng), ex(rng));
        volatile float prod = a * b;
        volatile float quo = prod / c;
        fx_real_t ra, rb, rc;
        fx_from_float_bits(bits_of(a), &ra);
        fx_from_float_bits(bits_of(b), &rb);
        fx_from_float_bits(bits_of(c), &rc);
        fx_real_t got = fx_div_round(fx_round_bits(fx_mul_real(ra, rb), 24), rc, 24);
        ASSERT_EQ(std::ldexp((double)got.m, got.e), (double)quo) << a << "*" << b << "/" << c;
    }
}

TEST(S8Activation, LeakyReluTwoMultipliersFromFloatRatios) {
    for (float alpha : {0.01f, 0.2f, -0.3f}) {
        KPlan p;
        float s_in = 0.047f, s_out = 0.031f;
        uint16_t qi = p.quant(s_in, -6), qo = p.quant(s_out, 11);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {256}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {256}, qo);
        uint16_t op = p.op(TIGRIS_OP_LEAKY_RELU, {in}, {out});
        if (alpha != 0.01f) p.attr(op, TIGRIS_ATTR_ALPHA, &alpha, 4);
        p.finish();
        std::vector<int8_t> x(256);
        for (int i = 0; i < 256; i++) x[i] = (int8_t)(i - 128);
        p.set(in, x);
        ASSERT_EQ(p.run_s8(op), 0);
        volatile float fa = s_in * alpha;
        volatile float ra = fa / s_out, ri = s_in / s_out;
        int32_t ma, sa, mi, si;
        ref_qm((double)ra, &ma, &sa);
        ref_qm((double)ri, &mi, &si);
        auto y = p.get<int8_t>(out);
        for (int i = 0; i < 256; i++) {
            int v = x[i] + 6;
            int32_t r = v >= 0 ? ref_mbqm(v, mi, si) : ref_mbqm(v, ma, sa);
            ASSERT_EQ(y[i], std::max(-128, std::min(127, r + 11))) << "alpha " << alpha << " x " << (int)x[i];
        }
    }
}

// ---- Convolution family ----

struct S8ConvCase {
    int h, w, c, oc;
    int kh, kw, sh, sw, pt, pb, pl, pr, dh, dw;
    bool depthwise, per_channel, bias;
    int zp_in, zp_out;
    int act_min, act_max;
};

class S8Conv : public ::testing::TestWithParam<S8ConvCase> {};

TEST_P(S8Conv, MatchesTfliteFormula) {
    const S8ConvCase c = GetParam();
    int oh = (c.h + c.pt + c.pb - ((c.kh - 1) * c.dh + 1)) / c.sh + 1;
    int ow = (c.w + c.pl + c.pr - ((c.kw - 1) * c.dw + 1)) / c.sw + 1;
    KPlan p;
    float s_in = 0.05f, s_out = 0.08f;
    std::vector<int32_t> mult, shift;
    int nch = c.per_channel ? c.oc : 1;
    for (int o = 0; o < nch; o++) {
        int32_t m, s;
        ref_qm((double)s_in * (0.01 + 0.003 * o) / s_out, &m, &s);  // per-channel weight scales
        mult.push_back(m);
        shift.push_back(s);
    }
    uint16_t qi = p.quant(s_in, c.zp_in), qo = p.quant(s_out, c.zp_out, mult, shift);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {1, c.h, c.w, c.c}, qi);
    uint16_t out = p.tensor(TIGRIS_DTYPE_INT8, {1, oh, ow, c.oc}, qo);
    uint16_t op = p.op(c.depthwise ? TIGRIS_OP_DEPTHWISE : TIGRIS_OP_CONV, {in}, {out});
    p.spatial(op, c.kh, c.kw, c.sh, c.sw, c.pt, c.pb, c.pl, c.pr, c.dh, c.dw);
    auto x = kt::ramp_s8((size_t)c.h * c.w * c.c, 11);
    auto w = kt::ramp_s8(c.depthwise ? (size_t)c.kh * c.kw * c.oc : (size_t)c.oc * c.kh * c.kw * c.c, 12);
    std::vector<int32_t> bias(c.oc);
    for (int o = 0; o < c.oc; o++) bias[o] = (o * 7919) % 4001 - 2000;
    p.ops[op].weight_idx = p.weight(w);
    if (c.bias) p.ops[op].bias_idx = p.weight(bias);
    p.ops[op].act_min = (int8_t)c.act_min;
    p.ops[op].act_max = (int8_t)c.act_max;
    p.finish();
    p.set(in, x);
    ASSERT_EQ(p.run_s8(op), 0);
    auto y = p.get<int8_t>(out);
    int mul = c.depthwise ? c.oc / c.c : 1;
    for (int r = 0; r < oh; r++)
        for (int q = 0; q < ow; q++)
            for (int o = 0; o < c.oc; o++) {
                int64_t acc = c.bias ? bias[o] : 0;
                for (int i = 0; i < c.kh; i++)
                    for (int j = 0; j < c.kw; j++) {
                        int yy = r * c.sh - c.pt + i * c.dh, xx = q * c.sw - c.pl + j * c.dw;
                        if (yy < 0 || yy >= c.h || xx < 0 || xx >= c.w) continue;
                        if (c.depthwise)
                            acc += (int64_t)(x[(yy * c.w + xx) * c.c + o / mul] - c.zp_in) * w[(i * c.kw + j) * c.oc + o];
                        else
                            for (int k = 0; k < c.c; k++)
                                acc += (int64_t)(x[(yy * c.w + xx) * c.c + k] - c.zp_in) *
                                       w[((o * c.kh + i) * c.kw + j) * c.c + k];
                    }
                int ch = c.per_channel ? o : 0;
                int32_t v = ref_mbqm((int32_t)acc, mult[ch], shift[ch]) + c.zp_out;
                v = std::max(c.act_min, std::min(c.act_max, v));
                ASSERT_EQ(y[(r * ow + q) * c.oc + o], v) << "at " << r << "," << q << "," << o;
            }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, S8Conv,
    ::testing::Values(S8ConvCase{9, 7, 3, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, false, false, false, 0, 0, -128, 127},
                      S8ConvCase{8, 9, 3, 5, 3, 3, 2, 2, 1, 0, 2, 1, 1, 1, false, true, true, -7, 5, -128, 127},
                      S8ConvCase{9, 10, 2, 3, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, false, true, true, 13, -20, -20, 60},
                      S8ConvCase{1, 1, 4, 3, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, false, true, true, 3, 0, -128, 127},
                      S8ConvCase{7, 6, 3, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, true, true, true, -1, 2, -128, 127},
                      S8ConvCase{9, 9, 4, 4, 3, 3, 2, 2, 1, 1, 1, 1, 2, 2, true, false, false, 10, -128, -128, 127}));

TEST(S8FullyConnected, PerChannelBiasAndClamp) {
    KPlan p;
    int32_t m0, s0, m1, s1;
    ref_qm(0.02 * 0.1 / 0.05, &m0, &s0);
    ref_qm(0.02 * 0.3 / 0.05, &m1, &s1);
    uint16_t qi = p.quant(0.1f, 4), qo = p.quant(0.05f, -3, {m0, m1}, {s0, s1});
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {2, 6}, qi);
    uint16_t out = p.tensor(TIGRIS_DTYPE_INT8, {2, 2}, qo);
    uint16_t op = p.op(TIGRIS_OP_FULLY_CONN, {in}, {out});
    auto x = kt::ramp_s8(12, 3), w = kt::ramp_s8(12, 4);
    std::vector<int32_t> b = {300, -900};
    p.ops[op].weight_idx = p.weight(w);
    p.ops[op].bias_idx = p.weight(b);
    p.ops[op].act_min = -100;
    p.ops[op].act_max = 100;
    p.finish();
    p.set(in, x);
    ASSERT_EQ(p.run_s8(op), 0);
    auto y = p.get<int8_t>(out);
    for (int n = 0; n < 2; n++)
        for (int o = 0; o < 2; o++) {
            int32_t acc = b[o];
            for (int k = 0; k < 6; k++) acc += (x[n * 6 + k] - 4) * w[o * 6 + k];
            int32_t v = ref_mbqm(acc, o ? m1 : m0, o ? s1 : s0) - 3;
            EXPECT_EQ(y[n * 2 + o], std::max(-100, std::min(100, v)));
        }
}

TEST(S8Conv, ShortPerChannelRecordIsRefused) {
    KPlan p;
    uint16_t qi = p.quant(0.1f, 0), qo = p.quant(0.1f, 0, {1 << 30, 1 << 30}, {0, 0});
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {1, 3, 3, 1}, qi);
    uint16_t out = p.tensor(TIGRIS_DTYPE_INT8, {1, 3, 3, 3}, qo);  // 3 channels, 2 multipliers
    uint16_t op = p.op(TIGRIS_OP_CONV, {in}, {out});
    p.spatial(op, 1, 1, 1, 1, 0, 0, 0, 0);
    p.ops[op].weight_idx = p.weight(std::vector<int8_t>{1, 2, 3});
    p.finish();
    EXPECT_EQ(p.run_s8(op), -1);
}

// ---- Pools ----

TEST(S8Pool, AvgRoundsHalfAwayAndMaxTakesInImageTaps) {
    KPlan p;
    uint16_t q = p.quant(0.1f, 0);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {1, 3, 3, 1}, q);
    uint16_t avg = p.tensor(TIGRIS_DTYPE_INT8, {1, 2, 2, 1}, q);
    uint16_t mx = p.tensor(TIGRIS_DTYPE_INT8, {1, 2, 2, 1}, q);
    uint16_t oa = p.op(TIGRIS_OP_AVG_POOL, {in}, {avg});
    uint16_t om = p.op(TIGRIS_OP_MAX_POOL, {in}, {mx});
    p.spatial(oa, 3, 3, 2, 2, 1, 1, 1, 1);
    p.spatial(om, 3, 3, 2, 2, 1, 1, 1, 1);
    p.finish();
    p.set<int8_t>(in, {-1, -2, 7, -3, -4, 8, 9, 10, -128});
    ASSERT_EQ(p.run_s8(oa), 0);
    ASSERT_EQ(p.run_s8(om), 0);
    auto a = p.get<int8_t>(avg), m = p.get<int8_t>(mx);
    // (-1-2-3-4)/4 = -2.5 -> -3; (-2+7-4+8)/4 = 2.25 -> 2; (-3-4+9+10)/4 = 3; (-4+8+10-128)/4 = -28.5 -> -29
    EXPECT_EQ(a[0], -3);
    EXPECT_EQ(a[1], 2);
    EXPECT_EQ(a[2], 3);
    EXPECT_EQ(a[3], -29);
    EXPECT_EQ(m[0], -1);
    EXPECT_EQ(m[1], 8);
    EXPECT_EQ(m[2], 10);
    EXPECT_EQ(m[3], 10);
}

// TFLite's integer Mean: multiplier for s_in/s_out with the count folded in.
int32_t ref_mean(int32_t sum, int count, float s_in, float s_out, int zi, int zo) {
    int32_t m, s;
    ref_qm((double)s_in / (double)s_out, &m, &s);
    int sh = 0;
    while ((2ll << sh) <= count && sh < 32) sh++;
    sh = std::min(sh, std::max(31 + s, 0));
    m = (int32_t)(((int64_t)m << sh) / count);
    s -= sh;
    return std::max(-128, std::min(127, ref_mbqm(sum - zi * count, m, s) + zo));
}

TEST(S8GlobalAvg, MeanArithmeticWholeAndBanded) {
    KPlan p;
    uint16_t qi = p.quant(0.07f, -5), qo = p.quant(0.03f, 9);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {1, 5, 3, 4}, qi);
    uint16_t out = p.tensor(TIGRIS_DTYPE_INT8, {1, 1, 1, 4}, qo);
    uint16_t op = p.op(TIGRIS_OP_GLOBAL_AVG, {in}, {out});
    p.finish();
    auto x = kt::ramp_s8(60, 21);
    p.set(in, x);
    ASSERT_EQ(p.run_s8(op), 0);
    auto y = p.get<int8_t>(out);
    for (int c = 0; c < 4; c++) {
        int32_t sum = 0;
        for (int i = 0; i < 15; i++) sum += x[i * 4 + c];
        EXPECT_EQ(y[c], ref_mean(sum, 15, 0.07f, 0.03f, -5, 9)) << c;
    }
    std::vector<int32_t> acc(4, 77);
    std::vector<int8_t> yb(4, 0);
    p.ptrs[out] = yb.data();
    p.mem.tile.active = 1;
    p.mem.tile.reduce_acc = acc.data();
    for (int start = 0; start < 5; start += 3) {
        int rows = std::min(3, 5 - start);
        std::vector<int8_t> band(x.begin() + start * 12, x.begin() + (start + rows) * 12);
        p.ptrs[in] = band.data();
        p.mem.tile.in_h = rows;
        p.mem.tile.out_h = 1;
        p.mem.tile.reduce_first = start == 0;
        p.mem.tile.reduce_last = start + rows == 5;
        ASSERT_EQ(p.run_s8(op), 0);
    }
    EXPECT_EQ(yb, y);
}

TEST(S8ReduceMean, OneAxisOfRank3) {
    KPlan p;
    uint16_t qi = p.quant(0.02f, 3), qo = p.quant(0.02f, 3);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {2, 5, 3}, qi);
    uint16_t out = p.tensor(TIGRIS_DTYPE_INT8, {2, 1, 3}, qo);
    uint16_t op = p.op(TIGRIS_OP_REDUCE_MEAN, {in}, {out});
    uint8_t axis = 1;
    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    auto x = kt::ramp_s8(30, 8);
    p.set(in, x);
    ASSERT_EQ(p.run_s8(op), 0);
    auto y = p.get<int8_t>(out);
    for (int a = 0; a < 2; a++)
        for (int c = 0; c < 3; c++) {
            int32_t sum = 0;
            for (int k = 0; k < 5; k++) sum += x[(a * 5 + k) * 3 + c];
            EXPECT_EQ(y[a * 3 + c], ref_mean(sum, 5, 0.02f, 0.02f, 3, 3));
        }
}

// ---- Elementwise ----

TEST(S8Add, DerivedMultipliersFollowTfliteLeftShift20) {
    KPlan p;
    float sa = 0.05f, sb = 0.11f, sy = 0.13f;
    uint16_t qa = p.quant(sa, -3), qb = p.quant(sb, 7), qy = p.quant(sy, 2);
    uint16_t a = p.tensor(TIGRIS_DTYPE_INT8, {1, 2, 3, 4}, qa);
    uint16_t b = p.tensor(TIGRIS_DTYPE_INT8, {4}, qb);  // per channel, broadcast
    uint16_t y = p.tensor(TIGRIS_DTYPE_INT8, {1, 2, 3, 4}, qy);
    uint16_t add = p.op(TIGRIS_OP_ADD, {a, b}, {y});
    uint16_t y2 = p.tensor(TIGRIS_DTYPE_INT8, {1, 2, 3, 4}, qy);
    uint16_t sub = p.op(TIGRIS_OP_SUB, {a, b}, {y2});
    p.finish();
    auto xa = kt::ramp_s8(24, 1), xb = kt::ramp_s8(4, 2);
    p.set(a, xa);
    p.set(b, xb);
    ASSERT_EQ(p.run_s8(add), 0);
    ASSERT_EQ(p.run_s8(sub), 0);
    double twice = 2.0 * std::max(sa, sb);
    int32_t ma, sha, mb, shb, my, shy;
    ref_qm(sa / twice, &ma, &sha);
    ref_qm(sb / twice, &mb, &shb);
    ref_qm(twice / ((1 << 20) * (double)sy), &my, &shy);
    auto ya = p.get<int8_t>(y), ys = p.get<int8_t>(y2);
    for (int i = 0; i < 24; i++) {
        int32_t A = ref_mbqm((xa[i] + 3) * (1 << 20), ma, sha), B = ref_mbqm((xb[i % 4] - 7) * (1 << 20), mb, shb);
        EXPECT_EQ(ya[i], std::max(-128, std::min(127, ref_mbqm(A + B, my, shy) + 2))) << i;
        EXPECT_EQ(ys[i], std::max(-128, std::min(127, ref_mbqm(A - B, my, shy) + 2))) << i;
        // and close to the real-valued sum
        double real = sa * (xa[i] + 3) + sb * (xb[i % 4] - 7);
        EXPECT_NEAR(ya[i], std::max(-128.0, std::min(127.0, std::round(real / sy) + 2)), 1.0);
    }
}

TEST(S8Add, BinaryRequantAttributeIsUsedAsStored) {
    KPlan p;
    uint16_t q = p.quant(0.1f, 0);
    uint16_t a = p.tensor(TIGRIS_DTYPE_INT8, {4}, q), b = p.tensor(TIGRIS_DTYPE_INT8, {4}, q);
    uint16_t y = p.tensor(TIGRIS_DTYPE_INT8, {4}, q);
    uint16_t op = p.op(TIGRIS_OP_ADD, {a, b}, {y});
    // A scaled by 1/2, B by 1/4, result by 2^-20 (m = 2^30, shift 1 is 1.0).
    int32_t rq[6] = {1 << 30, 0, 1 << 30, -1, 1 << 30, -19};
    p.attr(op, TIGRIS_ATTR_BINARY_REQUANT, rq, sizeof rq);
    p.ops[op].fused_act = TIGRIS_ACT_RELU;
    p.ops[op].act_min = 0;
    p.ops[op].act_max = 127;
    p.finish();
    p.set<int8_t>(a, {10, -40, 100, 3});
    p.set<int8_t>(b, {4, 8, 100, 2});
    ASSERT_EQ(p.run_s8(op), 0);
    // y = a/2 + b/4, rounded; relu clamp at 0; 100/2 + 100/4 = 75
    EXPECT_EQ(p.get<int8_t>(y), (std::vector<int8_t>{6, 0, 75, 2}));
}

TEST(S8Mul, RescalesProductByScaleRatio) {
    KPlan p;
    float sa = 0.02f, sb = 0.5f, sy = 0.07f;
    uint16_t qa = p.quant(sa, 5), qb = p.quant(sb, -2), qy = p.quant(sy, -10);
    uint16_t a = p.tensor(TIGRIS_DTYPE_INT8, {3, 4}, qa), y = p.tensor(TIGRIS_DTYPE_INT8, {3, 4}, qy);
    uint16_t op = p.op(TIGRIS_OP_MUL, {a}, {y});
    int8_t k = 9;
    p.ops[op].weight_idx = p.weight(&k, 1);
    uint8_t co[4] = {1, 0, (uint8_t)(qb & 0xFF), (uint8_t)(qb >> 8)};
    p.attr(op, TIGRIS_ATTR_CONSTANT_OPERAND, co, 4);
    p.finish();
    auto xa = kt::ramp_s8(12, 5);
    p.set(a, xa);
    ASSERT_EQ(p.run_s8(op), 0);
    int32_t m, s;
    ref_qm((double)sa * sb / sy, &m, &s);
    auto yy = p.get<int8_t>(y);
    for (int i = 0; i < 12; i++)
        EXPECT_EQ(yy[i], std::max(-128, std::min(127, ref_mbqm((xa[i] - 5) * (9 + 2), m, s) - 10)));
}

// ---- Activations ----

TEST(S8Activation, SigmoidAndTanhIntegerAlgorithms) {
    for (float s_in : {0.08f, 0.05f, 0.0123f, 0.25f}) {
        for (int zp : {0, -30, 17}) {
            KPlan p;
            uint16_t qi = p.quant(s_in, zp), qs = p.quant(1.0f / 256, -128), qt = p.quant(1.0f / 128, 0);
            uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {256}, qi);
            uint16_t sg = p.tensor(TIGRIS_DTYPE_INT8, {256}, qs), th = p.tensor(TIGRIS_DTYPE_INT8, {256}, qt);
            uint16_t os = p.op(TIGRIS_OP_SIGMOID, {in}, {sg}), ot = p.op(TIGRIS_OP_TANH, {in}, {th});
            p.finish();
            std::vector<int8_t> x(256);
            for (int i = 0; i < 256; i++) x[i] = (int8_t)(i - 128);
            p.set(in, x);
            ASSERT_EQ(p.run_s8(os), 0);
            ASSERT_EQ(p.run_s8(ot), 0);
            auto ys = p.get<int8_t>(sg), yt = p.get<int8_t>(th);
            for (int i = 0; i < 256; i++) {
                double r = s_in * (x[i] - zp);
                double ws = std::min(127.0, std::round(256.0 / (1.0 + std::exp(-r))) - 128);
                double wt = std::max(-128.0, std::min(127.0, std::round(128.0 * std::tanh(r))));
                EXPECT_NEAR(ys[i], ws, 1.0) << "s=" << s_in << " x=" << (int)x[i];
                EXPECT_NEAR(yt[i], wt, 1.0) << "s=" << s_in << " x=" << (int)x[i];
                if (i) {
                    EXPECT_GE(ys[i], ys[i - 1]);
                    EXPECT_GE(yt[i], yt[i - 1]);
                }
                if (x[i] == zp) {
                    EXPECT_EQ(ys[i], 0);  // 0.5 exactly
                    EXPECT_EQ(yt[i], 0);
                }
            }
        }
    }
}

TEST(S8Activation, SigmoidRefusesOutputEncodingTfliteDoesNotSupport) {
    KPlan p;
    uint16_t qi = p.quant(0.1f, 0), qo = p.quant(0.01f, 0);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {4}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {4}, qo);
    uint16_t op = p.op(TIGRIS_OP_SIGMOID, {in}, {out});
    p.finish();
    EXPECT_EQ(p.run_s8(op), -1);
}

TEST(S8Activation, SoftmaxFixedPoint) {
    for (float s_in : {0.1f, 0.0390625f, 0.6f}) {
        KPlan p;
        uint16_t qi = p.quant(s_in, 12), qo = p.quant(1.0f / 256, -128);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {5, 10}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {5, 10}, qo);
        uint16_t op = p.op(TIGRIS_OP_SOFTMAX, {in}, {out});
        p.finish();
        auto x = kt::ramp_s8(50, 31);
        for (int k = 0; k < 10; k++) x[40 + k] = 7;  // a uniform row
        p.set(in, x);
        ASSERT_EQ(p.run_s8(op), 0);
        auto y = p.get<int8_t>(out);
        for (int r = 0; r < 5; r++) {
            double mx = -1e9, sum = 0;
            for (int k = 0; k < 10; k++) mx = std::max(mx, (double)x[r * 10 + k]);
            for (int k = 0; k < 10; k++) sum += std::exp(s_in * (x[r * 10 + k] - mx));
            for (int k = 0; k < 10; k++) {
                double pr = std::exp(s_in * (x[r * 10 + k] - mx)) / sum;
                EXPECT_NEAR(y[r * 10 + k], std::min(127.0, std::round(pr * 256) - 128), 1.0) << r << "," << k;
            }
        }
        for (int k = 1; k < 10; k++) EXPECT_EQ(y[40 + k], y[40]);
        EXPECT_EQ(y[40], -102);  // 256/10 = 25.6 -> 26 - 128
    }
}

TEST(S8Activation, ReluAndRelu6ClampAtQuantisedZeroAndSix) {
    KPlan p;
    uint16_t q = p.quant(0.05f, -20), q2 = p.quant(0.1f, 4);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {256}, q);
    uint16_t r = p.tensor(TIGRIS_DTYPE_INT8, {256}, q), r6 = p.tensor(TIGRIS_DTYPE_INT8, {256}, q);
    uint16_t rq = p.tensor(TIGRIS_DTYPE_INT8, {256}, q2);
    uint16_t o1 = p.op(TIGRIS_OP_RELU, {in}, {r}), o2 = p.op(TIGRIS_OP_RELU6, {in}, {r6});
    uint16_t o3 = p.op(TIGRIS_OP_RELU6, {in}, {rq});
    p.finish();
    std::vector<int8_t> x(256);
    for (int i = 0; i < 256; i++) x[i] = (int8_t)(i - 128);
    p.set(in, x);
    ASSERT_EQ(p.run_s8(o1), 0);
    ASSERT_EQ(p.run_s8(o2), 0);
    ASSERT_EQ(p.run_s8(o3), 0);
    auto yr = p.get<int8_t>(r), y6 = p.get<int8_t>(r6), yq = p.get<int8_t>(rq);
    int32_t m, s;
    ref_qm(0.05 / 0.1, &m, &s);
    for (int i = 0; i < 256; i++) {
        EXPECT_EQ(yr[i], std::max<int>(x[i], -20));
        EXPECT_EQ(y6[i], std::min(std::max<int>(x[i], -20), 100));  // 6/0.05 = 120, -20 + 120
        int32_t v = 4 + ref_mbqm(x[i] + 20, m, s);
        EXPECT_EQ(yq[i], std::min(std::max(v, 4), 64));  // 6/0.1 = 60, + 4
    }
}

TEST(S8Dispatch, FloatTensorsGoToTheFloatKernels) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {3}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {3});
    uint16_t op = p.op(TIGRIS_OP_RELU, {in}, {out});
    p.finish();
    p.set<float>(in, {-1.5f, 0.0f, 2.5f});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<float>(out), (std::vector<float>{0.0f, 0.0f, 2.5f}));
    p.ops[op].op_type = TIGRIS_OP_CLIP;
    EXPECT_EQ(p.run_s8(op), -1);
    p.ops[op].op_type = 250;
    EXPECT_EQ(p.run_s8(op), -1);
}

}  // namespace
