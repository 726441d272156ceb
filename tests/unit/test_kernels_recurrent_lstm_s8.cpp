// int8 LSTM (TFLite Micro's integer 8x8->16 LSTM, docs/kernels.md) through
// the s8 dispatcher and, for state carried across runs, through the loader
// and executor. Goldens come from:
//  * hand computation (one unit, values worked out in the comments);
//  * an int64 re-implementation written here from the formulas: whole gate
//    vectors per step in TFLite's loop order (batch-major: batch outside
//    time), division-based rounding, the activations read off the table with
//    floor/ceil divisions instead of the kernel's shifts;
//  * a double-precision float LSTM on the dequantised model, which the int8
//    results must follow within quantisation tolerance.
#include <algorithm>
#include <cmath>
#include <functional>

#include "../../core/src/kernels/s8/act16.h"
#include "test_executor_harness.h"
#include "test_kernels_plan.h"

using kt::KPlan;

namespace {

// ---- integer reference pieces (int64, division-based) ----

int64_t floor_div(int64_t a, int64_t d) { return a >= 0 ? a / d : -((-a + d - 1) / d); }
int64_t ceil_div(int64_t a, int64_t d) { return -floor_div(-a, d); }
int64_t div_round_away(int64_t v, int64_t d) { return v >= 0 ? (v + d / 2) / d : -((-v + d / 2) / d); }
int32_t wrap32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }
int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return std::min(hi, std::max(lo, v)); }

// TFLite's MultiplyByQuantizedMultiplier: x·2^max(s,0) (wrapping), doubling
// high multiply with the nudge, rounding divide by 2^max(−s,0).
int32_t ref_mbqm(int32_t x, int32_t m, int s) {
    int32_t a = wrap32((int64_t)x * ((int64_t)1 << std::max(s, 0)));
    int64_t high;
    if (a == INT32_MIN && m == INT32_MIN) {
        high = INT32_MAX;
    } else {
        int64_t p = (int64_t)a * m;
        high = (p + (p >= 0 ? (1ll << 30) : 1 - (1ll << 30))) / (1ll << 31);  // C division truncates
    }
    return (int32_t)div_round_away(high, (int64_t)1 << std::max(-s, 0));
}

// Input in table units: x·3·2^(pow+12), or rounded x·3/2^−(pow+12).
int64_t table_units(int32_t x, int pow) {
    int k = pow + 12;
    if (k >= 0) return wrap32((int64_t)x * 3 * ((int64_t)1 << k));
    int64_t d = (int64_t)1 << -k;
    return floor_div((int64_t)x * 3 + d / 2, d);
}

// Table interpolation of |a| with fb fraction bits; sat past the end.
int64_t interp(int64_t a, int fb, int64_t sat) {
    int64_t step = (int64_t)1 << fb, i = a / step, f = a % step;
    if (i >= 255) return sat;
    return (int64_t)act16_sigmoid_table[i] * step + f * ((int64_t)act16_sigmoid_table[i + 1] - act16_sigmoid_table[i]);
}

// sigmoid: r/2^25; positive side rounds half up, negative side is
// 1 − sigmoid(|v|) with ties down.
int32_t ref_sigmoid(int32_t x, int pow) {
    int64_t v = table_units(x, pow);
    int64_t r = interp(std::llabs(v), 9, (int64_t)0x7FFF << 10);
    return (int32_t)(v >= 0 ? floor_div(r + 512, 1024) : 32768 - ceil_div(r - 511, 1024));
}

// tanh = 2·sigmoid(2x) − 1: (r − 2^23)/2^8 rounded half up, mirrored below 0.
int32_t ref_tanh(int32_t x, int pow) {
    int64_t v = table_units(x, pow);
    int64_t r = interp(std::llabs(v), 8, (int64_t)0xFFFF << 8);
    return (int32_t)(v >= 0 ? floor_div(r - (1 << 23) + 128, 256) : -ceil_div(r - (1 << 23) - 127, 256));
}

// ---- the model ----

struct Spec {
    int batch, steps, features, units, tm;
};

// Real-valued quantisation of the model; the payload is derived from it.
struct Quant {
    float sx;
    int zx;
    float sh;
    int zh;
    int cell_pow;  // cell scale 2^cell_pow
    float clip;    // float cell clip, 0 = none
    float sw_in[4], sw_rec[4];
};

struct Weights {
    std::vector<int8_t> wi[4], wr[4];
    std::vector<int32_t> b[4];  // empty = no bias
};

// TFLite's QuantizeMultiplier in double.
void qm(double v, int32_t &m, int32_t &s) {
    m = s = 0;
    if (v == 0) return;
    int e;
    double f = std::frexp(v, &e);
    int64_t q = std::llround(f * 2147483648.0);
    if (q == (1ll << 31)) {
        q /= 2;
        e++;
    }
    if (e < -31) return;
    m = (int32_t)q;
    s = e;
}

// The docs/format.md P14.8 payload TFLite's Prepare would derive: gate FCs into 2^-12,
// gate outputs in 2^-15, cell in 2^cell_pow.
std::vector<int32_t> make_payload(const Quant &q, int tm) {
    std::vector<int32_t> a(28);
    a[0] = tm;
    std::memcpy(&a[1], &q.clip, 4);
    a[2] = q.zx;
    a[3] = q.zh;
    a[4] = q.cell_pow;
    const double cs = std::ldexp(1.0, q.cell_pow), g = std::ldexp(1.0, -12), o = std::ldexp(1.0, -15);
    a[5] = q.clip > 0 ? (int32_t)std::min(32767.0, (double)q.clip / cs) : 0;
    for (int k = 0; k < 4; k++) {
        qm((double)q.sx * q.sw_in[k] / g, a[6 + 4 * k], a[7 + 4 * k]);
        qm((double)q.sh * q.sw_rec[k] / g, a[8 + 4 * k], a[9 + 4 * k]);
    }
    qm(o * cs / cs, a[22], a[23]);
    qm(o * o / cs, a[24], a[25]);
    qm(o * o / (double)q.sh, a[26], a[27]);
    return a;
}

struct S8Lstm {
    KPlan p;
    uint16_t x, h, c, hs, nh, nc, op;
};

void build(S8Lstm &lp, const Spec &d, const Quant &q, const Weights &w, const std::vector<int32_t> &pl) {
    KPlan &p = lp.p;
    std::vector<int32_t> seq = d.tm ? std::vector<int32_t>{d.steps, d.batch, d.features}
                                    : std::vector<int32_t>{d.batch, d.steps, d.features};
    std::vector<int32_t> out = seq;
    out[2] = d.units;
    uint16_t qx = p.quant(q.sx, q.zx), qh = p.quant(q.sh, q.zh);
    lp.x = p.tensor(TIGRIS_DTYPE_INT8, seq, qx);
    lp.h = p.tensor(TIGRIS_DTYPE_INT8, {d.batch, d.units}, qh);
    lp.c = p.tensor(TIGRIS_DTYPE_INT16, {d.batch, d.units});
    lp.hs = p.tensor(TIGRIS_DTYPE_INT8, out, qh);
    lp.nh = p.tensor(TIGRIS_DTYPE_INT8, {d.batch, d.units}, qh);
    lp.nc = p.tensor(TIGRIS_DTYPE_INT16, {d.batch, d.units});
    std::vector<uint16_t> k;
    for (int g = 0; g < 4; g++) k.push_back(p.weight(w.wi[g]));
    for (int g = 0; g < 4; g++) k.push_back(p.weight(w.wr[g]));
    for (int g = 0; g < 4; g++) k.push_back(w.b[g].empty() ? TIGRIS_NONE16 : p.weight(w.b[g]));
    lp.op = p.op(TIGRIS_OP_LSTM, {lp.x, lp.h, lp.c}, {lp.hs, lp.nh, lp.nc});
    std::vector<uint8_t> kb;
    for (uint16_t v : k) {
        kb.push_back((uint8_t)v);
        kb.push_back((uint8_t)(v >> 8));
    }
    p.attr(lp.op, TIGRIS_ATTR_CONSTANTS, kb.data(), kb.size());
    p.attr(lp.op, TIGRIS_ATTR_LSTM, pl.data(), pl.size() * 4);
    p.finish();
}

Weights zero_weights(int f, int u) {
    Weights w;
    for (int g = 0; g < 4; g++) {
        w.wi[g].assign((size_t)u * f, 0);
        w.wr[g].assign((size_t)u * u, 0);
    }
    return w;
}

// int64 LSTM over one sequence from the payload alone; returns the hidden
// sequence in the tensor's layout and leaves the final state in h, c.
std::vector<int8_t> ref_lstm(const Spec &d, const std::vector<int32_t> &pl, const Weights &w,
                             const std::vector<int8_t> &x, std::vector<int8_t> &h, std::vector<int16_t> &c) {
    const int U = d.units, F = d.features;
    std::vector<int8_t> out((size_t)d.batch * d.steps * U);
    auto step = [&](int b, int t) {
        int row = d.tm ? t * d.batch + b : b * d.steps + t;
        int64_t gate[4][64];
        for (int g = 0; g < 4; g++)
            for (int u = 0; u < U; u++) {
                int64_t ai = w.b[g].empty() ? 0 : w.b[g][u], ar = 0;
                for (int i = 0; i < F; i++) ai += (int64_t)w.wi[g][u * F + i] * (x[row * F + i] - pl[2]);
                for (int j = 0; j < U; j++) ar += (int64_t)w.wr[g][u * U + j] * (h[b * U + j] - pl[3]);
                int64_t fi = clamp64(ref_mbqm(wrap32(ai), pl[6 + 4 * g], pl[7 + 4 * g]), -32768, 32767);
                int64_t fr = clamp64(ref_mbqm(wrap32(ar), pl[8 + 4 * g], pl[9 + 4 * g]), -32768, 32767);
                int32_t pre = (int32_t)clamp64(fi + fr, -32768, 32767);
                gate[g][u] = g == 2 ? ref_tanh(pre, -12) : ref_sigmoid(pre, -12);
            }
        uint32_t clip_bits = (uint32_t)pl[1];
        for (int u = 0; u < U; u++) {
            int64_t kept = clamp64(ref_mbqm((int32_t)(gate[1][u] * c[b * U + u]), pl[22], pl[23]), -32768, 32767);
            int64_t add = clamp64(ref_mbqm((int32_t)(gate[0][u] * gate[2][u]), pl[24], pl[25]), -32768, 32767);
            int64_t cn = clamp64(kept + add, -32768, 32767);
            if (clip_bits & 0x7FFFFFFFu) cn = clamp64(cn, -pl[5], pl[5]);
            c[b * U + u] = (int16_t)cn;
        }
        for (int u = 0; u < U; u++) {
            int64_t prod = (int64_t)ref_tanh(c[b * U + u], pl[4]) * gate[3][u];
            int64_t hv = clamp64((int64_t)ref_mbqm((int32_t)prod, pl[26], pl[27]) + pl[3], -128, 127);
            h[b * U + u] = (int8_t)hv;
            out[row * U + u] = (int8_t)hv;
        }
    };
    if (d.tm) {
        for (int t = 0; t < d.steps; t++)
            for (int b = 0; b < d.batch; b++) step(b, t);
    } else {
        for (int b = 0; b < d.batch; b++)
            for (int t = 0; t < d.steps; t++) step(b, t);
    }
    return out;
}

double sigm(double v) { return 1.0 / (1.0 + std::exp(-v)); }

// Float LSTM (double) of the dequantised model; same layout contract.
std::vector<double> float_lstm(const Spec &d, const Quant &q, const Weights &w, const std::vector<int8_t> &x,
                               std::vector<double> &h, std::vector<double> &c) {
    const int U = d.units, F = d.features;
    std::vector<double> out((size_t)d.batch * d.steps * U);
    for (int t = 0; t < d.steps; t++)
        for (int b = 0; b < d.batch; b++) {
            int row = d.tm ? t * d.batch + b : b * d.steps + t;
            std::vector<double> hn(U);
            for (int u = 0; u < U; u++) {
                double g[4];
                for (int k = 0; k < 4; k++) {
                    double acc = w.b[k].empty() ? 0.0 : (double)w.b[k][u] * q.sx * q.sw_in[k];
                    for (int i = 0; i < F; i++)
                        acc += (double)w.wi[k][u * F + i] * q.sw_in[k] * (x[row * F + i] - q.zx) * q.sx;
                    for (int j = 0; j < U; j++) acc += (double)w.wr[k][u * U + j] * q.sw_rec[k] * h[b * U + j];
                    g[k] = acc;
                }
                double cn = sigm(g[1]) * c[b * U + u] + sigm(g[0]) * std::tanh(g[2]);
                if (q.clip > 0) cn = std::max(-(double)q.clip, std::min((double)q.clip, cn));
                c[b * U + u] = cn;
                hn[u] = sigm(g[3]) * std::tanh(cn);
            }
            for (int u = 0; u < U; u++) h[b * U + u] = out[row * U + u] = hn[u];
        }
    return out;
}

Quant default_quant() {
    Quant q{0.02f, 3, 1.0f / 128, -2, -11, 0.0f, {}, {}};
    for (int g = 0; g < 4; g++) {
        q.sw_in[g] = 0.004f + 0.0005f * g;
        q.sw_rec[g] = 0.003f + 0.0005f * g;
    }
    return q;
}

Weights ramp_weights(const Spec &d, uint32_t seed, bool biases) {
    Weights w;
    for (int g = 0; g < 4; g++) {
        w.wi[g] = kt::ramp_s8((size_t)d.units * d.features, seed + g);
        w.wr[g] = kt::ramp_s8((size_t)d.units * d.units, seed + 10 + g);
        if (biases && g != 2) {  // the cell gate without a bias
            for (int u = 0; u < d.units; u++) w.b[g].push_back((u * 7919 + g * 104729) % 12001 - 6000);
        }
    }
    return w;
}

// ---- the int16 activations ----

TEST(KernelsRecurrentLstmS8, SigmoidTableFollowsTheFormula) {
    // Every entry from the formula in act16.h: the logistic function at i/24
    // moved by half the linear-interpolation sag, the last entry pinned at
    // 65535. Exact equality: one unit off anywhere changes LSTM outputs.
    const double h = 1.0 / 24.0;
    for (int i = 0; i < 255; i++) {
        const double s = sigm(i * h);
        const double sag_half = h * h / 16.0 * s * (1.0 - s) * (1.0 - 2.0 * s);
        EXPECT_EQ(act16_sigmoid_table[i], std::llround(65536.0 * (s - sag_half))) << i;
        // and within a unit and a quarter of the plain values, increasing
        EXPECT_NEAR(act16_sigmoid_table[i], 65536.0 * s, 1.25) << i;
        if (i > 0) EXPECT_GE(act16_sigmoid_table[i], act16_sigmoid_table[i - 1]) << i;
    }
    EXPECT_EQ(act16_sigmoid_table[255], 65535);
}

TEST(KernelsRecurrentLstmS8, ActivationsOnEveryQ312Input) {
    // Gates are Q3.12 in, Q0.15 out: every int16 input against the table
    // re-read (ref_*) and against the real functions.
    double worst_s = 0, worst_t = 0;
    for (int32_t x = -32768; x <= 32767; x++) {
        int16_t s = act16_sigmoid((int16_t)x, 3, 0), t = act16_tanh((int16_t)x, 3, 0);
        ASSERT_EQ(s, ref_sigmoid(x, -12)) << x;
        ASSERT_EQ(t, ref_tanh(x, -12)) << x;
        worst_s = std::max(worst_s, std::fabs(s / 32768.0 - sigm(x / 4096.0)));
        worst_t = std::max(worst_t, std::fabs(t / 32768.0 - std::tanh(x / 4096.0)));
    }
    EXPECT_LT(worst_s, 1e-4);
    EXPECT_LT(worst_t, 2e-4);
    EXPECT_EQ(act16_sigmoid(0, 3, 0), 16384);
    EXPECT_EQ(act16_tanh(0, 3, 0), 0);
}

TEST(KernelsRecurrentLstmS8, CellTanhAtEveryScalePower) {
    // The cell tanh reads the cell at 2^pow: a power-of-two multiplier above
    // pow = -12, a rounded right shift below it.
    for (int pow : {-18, -15, -13, -12, -11, -9, -6}) {
        int32_t m, s;
        act16_pow2_params(pow, &m, &s);
        double worst = 0;
        for (int32_t x = -32768; x <= 32767; x += 7) {
            int16_t t = act16_tanh((int16_t)x, m, s);
            ASSERT_EQ(t, ref_tanh(x, pow)) << pow << " " << x;
            worst = std::max(worst, std::fabs(t / 32768.0 - std::tanh(std::ldexp((double)x, pow))));
        }
        // Below 2^-12 the input itself is rounded to table units first.
        EXPECT_LT(worst, pow < -12 ? 3e-3 : 2e-4) << pow;
    }
}

// ---- hand-computed cases ----

TEST(KernelsRecurrentLstmS8, HandComputedForgetBias) {
    // One unit, one feature, all weights zero; the forget gate has bias 8192
    // and input multiplier (2^30, 0): pre = 8192/2 = 4096 = 1.0 in Q3.12.
    // sigmoid16(4096): 3·4096 = 12288 = step 24 exactly, table 47911 ->
    // (47911·512 + 512) >> 10 = 23956. The other sigmoids see 0 -> 16384;
    // the cell gate tanh(0) = 0, so nothing is added to the cell.
    // Forget product (2^30, -14) = x/2^15: 23956·1000/2^15 = 731.08 -> 731.
    // tanh16(731) at cell scale 2^-11: 6·731 = 4386 = step 17 + 34/256,
    // 43912·256 + 34·599 = 11261838; (11261838 − 2^23 + 128) >> 8 = 11224.
    // Hidden (2^30, -22) = x/2^23: 11224·16384/2^23 = 21.92 -> 22, + zp -2.
    Spec d{1, 1, 1, 1, 0};
    Quant q = default_quant();
    std::vector<int32_t> pl = make_payload(q, 0);
    for (int k = 6; k < 22; k += 2) pl[k] = 1 << 30, pl[k + 1] = 0;
    ASSERT_EQ(pl[22], 1 << 30);
    ASSERT_EQ(pl[23], -14);
    ASSERT_EQ(pl[26], 1 << 30);
    ASSERT_EQ(pl[27], -22);
    Weights w = zero_weights(1, 1);
    w.b[1] = {8192};
    S8Lstm lp;
    build(lp, d, q, w, pl);
    lp.p.set<int8_t>(lp.x, {77});
    lp.p.set<int8_t>(lp.h, {-100});
    lp.p.set<int16_t>(lp.c, {1000});
    ASSERT_EQ(lp.p.run_s8(lp.op), 0);
    EXPECT_EQ(lp.p.get<int16_t>(lp.nc), std::vector<int16_t>{731});
    EXPECT_EQ(lp.p.get<int8_t>(lp.hs), std::vector<int8_t>{20});
    EXPECT_EQ(lp.p.get<int8_t>(lp.nh), std::vector<int8_t>{20});
}

TEST(KernelsRecurrentLstmS8, HandComputedCellClip) {
    // Cell gate saturated: input multiplier (2^30, 0) on 127·127 + bias
    // 49000 -> 32669 -> tanh16 saturates at 32767; input gate 16384; the
    // input product 2^-30/2^-11 = (2^30, -18): 16384·32767/2^19 = 1023.97 ->
    // 1024. Forget keeps c/2. c = 10000 -> 5000 + 1024 = 6024, clipped to the
    // quantised bound 3000 when the float clip is > 0 (and only then).
    Spec d{1, 1, 1, 1, 0};
    Quant q = default_quant();
    q.clip = 3000.0f / 2048.0f;
    std::vector<int32_t> pl = make_payload(q, 0);
    ASSERT_EQ(pl[5], 3000);
    for (int k = 6; k < 22; k += 2) pl[k] = 1 << 30, pl[k + 1] = 0;
    pl[2] = 0;
    ASSERT_EQ(pl[24], 1 << 30);
    ASSERT_EQ(pl[25], -18);
    Weights w = zero_weights(1, 1);
    w.wi[2] = {127};
    w.b[2] = {49000};
    for (float clip : {q.clip, 0.0f}) {
        std::memcpy(&pl[1], &clip, 4);
        for (int16_t c0 : {10000, -10000}) {
            S8Lstm lp;
            build(lp, d, q, w, pl);
            lp.p.set<int8_t>(lp.x, {127});
            lp.p.set<int8_t>(lp.h, {0});
            lp.p.set<int16_t>(lp.c, {c0});
            ASSERT_EQ(lp.p.run_s8(lp.op), 0);
            int want = c0 / 2 + 1024;
            if (clip > 0) want = std::max(-3000, std::min(3000, want));
            EXPECT_EQ(lp.p.get<int16_t>(lp.nc), std::vector<int16_t>{(int16_t)want}) << clip << " " << c0;
        }
    }
    // The float clip decides, the quantised bound clamps: a positive clip
    // whose bound rounded to 0 zeroes the cell (as TFLite's Clipping does).
    std::memcpy(&pl[1], &q.clip, 4);
    pl[5] = 0;
    S8Lstm lp;
    build(lp, d, q, w, pl);
    lp.p.set<int8_t>(lp.x, {127});
    lp.p.set<int8_t>(lp.h, {0});
    lp.p.set<int16_t>(lp.c, {10000});
    ASSERT_EQ(lp.p.run_s8(lp.op), 0);
    EXPECT_EQ(lp.p.get<int16_t>(lp.nc), std::vector<int16_t>{0});
}

// ---- against the int64 reference and the float LSTM ----

struct Case {
    Spec d;
    Quant q;
    bool biases;
};

std::vector<Case> cases() {
    std::vector<Case> v;
    Quant q = default_quant();
    v.push_back({{1, 1, 1, 1, 0}, q, true});   // 1x1
    v.push_back({{1, 4, 5, 3, 0}, q, true});   // batch 1, odd sizes
    v.push_back({{3, 3, 5, 3, 0}, q, false});  // batch > 1, no biases
    v.push_back({{3, 3, 5, 3, 1}, q, true});   // time-major
    v.push_back({{2, 5, 2, 1, 1}, q, true});   // units 1
    Quant c = q;
    c.clip = 0.4f;  // clipping active
    c.zx = -17;
    c.zh = 5;
    v.push_back({{2, 4, 3, 4, 0}, c, true});
    Quant fine = q;
    fine.cell_pow = -14;  // cell tanh with a rounded right shift
    v.push_back({{2, 3, 4, 2, 1}, fine, true});
    Quant coarse = q;
    coarse.cell_pow = -9;
    coarse.sh = 1.0f / 64;
    v.push_back({{1, 6, 3, 5, 0}, coarse, true});
    return v;
}

TEST(KernelsRecurrentLstmS8, MatchesInt64ReferenceAndFloatLstm) {
    int n = 0;
    for (const Case &k : cases()) {
        SCOPED_TRACE(n++);
        const Spec &d = k.d;
        const Quant &q = k.q;
        Weights w = ramp_weights(d, 100 + n, k.biases);
        std::vector<int32_t> pl = make_payload(q, d.tm);
        S8Lstm lp;
        build(lp, d, q, w, pl);
        const size_t bu = (size_t)d.batch * d.units;
        std::vector<int8_t> h(bu);
        std::vector<int16_t> c(bu);
        for (size_t i = 0; i < bu; i++) {
            h[i] = (int8_t)((int)(i * 37 % 200) - 100);
            c[i] = (int16_t)((int)(i * 911 % 1600) - 800);
        }
        std::vector<double> hf(bu), cf(bu);
        for (size_t i = 0; i < bu; i++) {
            hf[i] = (h[i] - q.zh) * (double)q.sh;
            cf[i] = std::ldexp((double)c[i], q.cell_pow);
        }
        // Three runs, the state of each fed to the next.
        for (int run = 0; run < 3; run++) {
            auto x = kt::ramp_s8((size_t)d.batch * d.steps * d.features, 7 * run + n);
            lp.p.set<int8_t>(lp.x, x);
            lp.p.set<int8_t>(lp.h, h);
            lp.p.set<int16_t>(lp.c, c);
            ASSERT_EQ(lp.p.run_s8(lp.op), 0);
            auto want = ref_lstm(d, pl, w, x, h, c);
            ASSERT_EQ(lp.p.get<int8_t>(lp.hs), want) << run;
            ASSERT_EQ(lp.p.get<int8_t>(lp.nh), h) << run;
            ASSERT_EQ(lp.p.get<int16_t>(lp.nc), c) << run;
            auto fl = float_lstm(d, q, w, x, hf, cf);
            double worst_h = 0, worst_c = 0;
            for (size_t i = 0; i < want.size(); i++)
                worst_h = std::max(worst_h, std::fabs((want[i] - q.zh) * (double)q.sh - fl[i]));
            for (size_t i = 0; i < bu; i++)
                worst_c = std::max(worst_c, std::fabs(std::ldexp((double)c[i], q.cell_pow) - cf[i]));
            // Half a hidden step from the output rounding plus what the
            // recurrence carries from earlier steps and runs (measured up to
            // 0.6 steps); the cell within a few cell steps.
            EXPECT_LT(worst_h, 0.8 * q.sh) << run;
            EXPECT_LT(worst_c, 0.005) << run;
        }
    }
}

TEST(KernelsRecurrentLstmS8, InPlaceCellState) {
    // The next cell may be the cell input itself.
    Spec d{2, 3, 3, 2, 0};
    Quant q = default_quant();
    Weights w = ramp_weights(d, 5, true);
    std::vector<int32_t> pl = make_payload(q, 0);
    S8Lstm lp;
    build(lp, d, q, w, pl);
    lp.p.ptrs[lp.nc] = lp.p.ptrs[lp.c];
    auto x = kt::ramp_s8(18, 3);
    std::vector<int8_t> h = {1, -2, 3, -4};
    std::vector<int16_t> c = {100, -200, 300, -400};
    lp.p.set<int8_t>(lp.x, x);
    lp.p.set<int8_t>(lp.h, h);
    lp.p.set<int16_t>(lp.c, c);
    ASSERT_EQ(lp.p.run_s8(lp.op), 0);
    auto want = ref_lstm(d, pl, w, x, h, c);
    EXPECT_EQ(lp.p.get<int8_t>(lp.hs), want);
    EXPECT_EQ(lp.p.get<int16_t>(lp.c), c);
}

TEST(KernelsRecurrentLstmS8, Refusals) {
    Spec d{1, 2, 2, 2, 0};
    Quant q = default_quant();
    Weights w = zero_weights(2, 2);
    auto run_with = [&](const std::function<void(std::vector<int32_t> &)> &edit_payload,
                        const std::function<void(S8Lstm &)> &edit_plan) {
        std::vector<int32_t> pl = make_payload(q, 0);
        edit_payload(pl);
        S8Lstm lp;
        build(lp, d, q, w, pl);
        edit_plan(lp);  // the tables point into the edited vectors
        return lp.p.run_s8(lp.op);
    };
    auto none_p = [](std::vector<int32_t> &) {};
    auto none_l = [](S8Lstm &) {};
    EXPECT_EQ(run_with(none_p, none_l), 0);
    EXPECT_EQ(run_with([](std::vector<int32_t> &p) { p[7] = 31; }, none_l), -1);      // shift above 30
    EXPECT_EQ(run_with([](std::vector<int32_t> &p) { p[26] = -1; }, none_l), -1);     // negative multiplier
    EXPECT_EQ(run_with([](std::vector<int32_t> &p) { p[4] = 16; }, none_l), -1);      // cell scale power
    EXPECT_EQ(run_with([](std::vector<int32_t> &p) { p[3] = 128; }, none_l), -1);     // hidden zero point
    EXPECT_EQ(run_with([](std::vector<int32_t> &p) { p[5] = 40000; }, none_l), -1);   // clip bound
    EXPECT_EQ(run_with([](std::vector<int32_t> &p) { p[0] = 2; }, none_l), -1);       // time_major
    EXPECT_EQ(run_with([](std::vector<int32_t> &p) { p[1] = (int32_t)0xBF800000u; }, none_l), -1);  // clip -1.0
    EXPECT_EQ(run_with([](std::vector<int32_t> &p) { p[1] = 0x7FC00000; }, none_l), -1);           // clip NaN
    EXPECT_EQ(run_with(none_p, [](S8Lstm &l) { l.p.attrs[1].data_len = 8; }), -1);  // float payload
    EXPECT_EQ(run_with(none_p, [](S8Lstm &l) { l.p.tensors[l.c].dtype = TIGRIS_DTYPE_INT8; }), -1);
    EXPECT_EQ(run_with(none_p, [](S8Lstm &l) { l.p.wentries[5].size_bytes = 2; }), -1);  // recurrent weights too short
    EXPECT_EQ(run_with(none_p, [](S8Lstm &l) { l.p.ptrs[l.hs] = l.p.ptrs[l.x]; }), -1);
    EXPECT_EQ(run_with(none_p, [](S8Lstm &l) { l.p.ptrs[l.nc] = (uint8_t *)l.p.ptrs[l.c] + 2; }), -1);
    EXPECT_EQ(run_with(none_p, [](S8Lstm &l) { l.p.mem.tile.active = 1; }), -1);
    {
        Weights wb = zero_weights(2, 2);
        wb.b[3] = {1};  // bias shorter than units
        std::vector<int32_t> pl = make_payload(q, 0);
        S8Lstm lp;
        build(lp, d, q, wb, pl);
        EXPECT_EQ(lp.p.run_s8(lp.op), -1);
    }
}

// ---- through the loader and the executor ----

using tigris_test::PlanBuilder;

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T> &v) {
    const uint8_t *p = (const uint8_t *)v.data();
    return std::vector<uint8_t>(p, p + v.size() * sizeof(T));
}

struct BuiltLstm {
    PlanBuilder b{10};
    uint16_t x, h, c, hs, nh, nc, op;
};

// batch 1, 3 steps, 2 features, 2 units; hidden starts at its zero point.
void build_planfile(BuiltLstm &m, const Quant &q, const Weights &w, const std::vector<int32_t> &pl,
                    int constants = 12) {
    PlanBuilder &b = m.b;
    int qx = b.add_quant(q.sx, q.zx), qh = b.add_quant(q.sh, q.zh);
    m.x = b.add_tensor("seq", TIGRIS_DTYPE_INT8, {1, 3, 2}, TIGRIS_TENSOR_MODEL_INPUT, qx);
    m.h = b.add_tensor("h", TIGRIS_DTYPE_INT8, {1, 2}, TIGRIS_TENSOR_STATE, qh);
    m.c = b.add_tensor("c", TIGRIS_DTYPE_INT16, {1, 2}, TIGRIS_TENSOR_STATE);
    m.hs = b.add_tensor("hseq", TIGRIS_DTYPE_INT8, {1, 3, 2}, TIGRIS_TENSOR_MODEL_OUTPUT, qh);
    m.nh = b.add_tensor("h.next", TIGRIS_DTYPE_INT8, {1, 2}, TIGRIS_TENSOR_STATE, qh);
    m.nc = b.add_tensor("c.next", TIGRIS_DTYPE_INT16, {1, 2}, TIGRIS_TENSOR_STATE);
    std::vector<uint16_t> k;
    for (int g = 0; g < 4; g++) k.push_back(b.add_weight("wi" + std::to_string(g), bytes_of(w.wi[g])));
    for (int g = 0; g < 4; g++) k.push_back(b.add_weight("wr" + std::to_string(g), bytes_of(w.wr[g])));
    for (int g = 0; g < 4; g++)
        k.push_back(w.b[g].empty() ? tigris_test::kNone16 : b.add_i32_weight("b" + std::to_string(g), w.b[g]));
    // A TFLite LSTM with peepholes, projection or layer norm would need more
    // constants than the twelve of docs/format.md P14.8: the loader refuses such a list.
    while ((int)k.size() < constants) k.push_back(k[0]);
    m.op = b.add_op(TIGRIS_OP_LSTM, {m.x, m.h, m.c}, {m.hs, m.nh, m.nc}, "lstm");
    b.add_attribute(m.op, TIGRIS_ATTR_CONSTANTS, tigris_test::le_u16(k));
    b.add_attribute(m.op, TIGRIS_ATTR_LSTM, bytes_of(pl));
    b.add_stage({m.op}, {m.x, m.h, m.c}, {m.hs, m.nh, m.nc});
    b.add_state(m.h, m.nh, bytes_of(std::vector<int8_t>{(int8_t)q.zh, (int8_t)q.zh}));
    b.add_state(m.c, m.nc, bytes_of(std::vector<int16_t>{0, 0}));
}

TEST(KernelsRecurrentLstmS8, StateCarriedByTheExecutor) {
    Spec d{1, 3, 2, 2, 0};
    Quant q = default_quant();
    Weights w = ramp_weights(d, 40, true);
    std::vector<int32_t> pl = make_payload(q, 0);
    BuiltLstm m;
    build_planfile(m, q, w, pl);
    tigris_exec_test::Harness hn;
    ASSERT_TRUE(hn.load(m.b.build(), 4096, 4096));
    std::vector<uint8_t> state(tigris_state_required(&hn.plan));
    ASSERT_EQ(tigris_state_init(&hn.plan, state.data(), state.size()), TIGRIS_EXEC_OK);
    std::vector<int8_t> h = {(int8_t)q.zh, (int8_t)q.zh};
    std::vector<int16_t> c = {0, 0};
    for (int run = 0; run < 4; run++) {
        auto x = kt::ramp_s8(6, 50 + run);
        hn.write_bytes(m.x, bytes_of(x));
        ASSERT_EQ(tigris_run_with_state(&hn.plan, &hn.mem, tigris_dispatch_kernel_s8, nullptr, &hn.stats, hn.ws.data(),
                                        hn.ws.size(), state.data(), state.size()),
                  TIGRIS_EXEC_OK);
        std::vector<int8_t> got(6);
        ASSERT_EQ(tigris_output_read(&hn.plan, &hn.mem, m.hs, got.data(), 6), TIGRIS_OK);
        EXPECT_EQ(got, ref_lstm(d, pl, w, x, h, c)) << run;
    }
}

TEST(KernelsRecurrentLstmS8, LoaderRefusals) {
    Spec d{1, 3, 2, 2, 0};
    Quant q = default_quant();
    Weights w = ramp_weights(d, 40, true);
    auto load = [&](const std::vector<int32_t> &pl, int constants) {
        BuiltLstm m;
        build_planfile(m, q, w, pl, constants);
        return tigris_test::load_plan(m.b.build());
    };
    const std::vector<int32_t> pl = make_payload(q, 0);
    EXPECT_EQ(load(pl, 12), TIGRIS_OK);
    // Peephole (+3), projection (+2) or layer-norm (+4) constants: no slot in
    // the docs/format.md P14.8 list, refused rather than ignored.
    for (int n : {15, 14, 16, 24}) EXPECT_EQ(load(pl, n), TIGRIS_ERR_BAD_OPERATOR) << n;
    std::vector<int32_t> bad = pl;
    bad[9] = 31;  // recurrent shift of the input gate
    EXPECT_EQ(load(bad, 12), TIGRIS_ERR_BAD_OPERATOR);
    bad = pl;
    bad[4] = -31;  // cell scale power
    EXPECT_EQ(load(bad, 12), TIGRIS_ERR_BAD_OPERATOR);
    bad = pl;
    bad.pop_back();  // 108 bytes
    EXPECT_EQ(load(bad, 12), TIGRIS_ERR_BAD_OPERATOR);
}

}  // namespace
