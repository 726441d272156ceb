// SVDF (f32, int8), LSTM (f32; the int8 LSTM has its own file,
// test_kernels_recurrent_lstm_s8.cpp) and DETECTION_POSTPROCESS (float or
// int8 inputs) run directly through the dispatchers. Goldens are hand-computed
// small cases or plain re-implementations written here: doubles for the
// float ops, int64 arithmetic with division-based rounding for TFLite's
// integer SVDF.
#include <algorithm>
#include <cmath>

#include "test_executor_harness.h"
#include "test_kernels_plan.h"

using kt::KPlan;

namespace {

std::vector<uint8_t> u16s(std::vector<uint16_t> v) {
    std::vector<uint8_t> b;
    for (uint16_t x : v) {
        b.push_back((uint8_t)x);
        b.push_back((uint8_t)(x >> 8));
    }
    return b;
}

template <typename T>
std::vector<uint8_t> raw(const std::vector<T> &v) {
    const uint8_t *p = (const uint8_t *)v.data();
    return std::vector<uint8_t>(p, p + v.size() * sizeof(T));
}

// ---- int64 reference of TFLite's MultiplyByQuantizedMultiplier ----

int64_t div_round_away(int64_t v, int64_t d) {  // round half away from zero
    return v >= 0 ? (v + d / 2) / d : -((-v + d / 2) / d);
}

int32_t ref_mbqm(int32_t x, int32_t m, int s) {
    int64_t shifted = (int64_t)x * ((int64_t)1 << std::max(s, 0));
    int32_t a = (int32_t)(uint32_t)(uint64_t)shifted;
    int32_t high;
    if (a == INT32_MIN && m == INT32_MIN) {
        high = INT32_MAX;
    } else {
        int64_t p = (int64_t)a * m;
        int64_t nudge = p >= 0 ? (1ll << 30) : 1 - (1ll << 30);
        high = (int32_t)((p + nudge) / (1ll << 31));  // C division truncates
    }
    int r = std::max(-s, 0);
    return r == 0 ? high : (int32_t)div_round_away(high, (int64_t)1 << r);
}

// ---- SVDF ----

struct SvdfSpec {
    int batch, features, units, rank, memory;
};

struct SvdfPlan {
    KPlan p;
    uint16_t x, s, y, ns, op;
};

void build_svdf_f32(SvdfPlan &sp, const SvdfSpec &d, const std::vector<float> &fw, const std::vector<float> &tw,
                    const std::vector<float> &bias, uint8_t act = TIGRIS_ACT_NONE) {
    KPlan &p = sp.p;
    int filters = d.units * d.rank;
    sp.x = p.tensor(TIGRIS_DTYPE_FLOAT32, {d.batch, d.features});
    sp.s = p.tensor(TIGRIS_DTYPE_FLOAT32, {d.batch, filters * d.memory});
    sp.y = p.tensor(TIGRIS_DTYPE_FLOAT32, {d.batch, d.units});
    sp.ns = p.tensor(TIGRIS_DTYPE_FLOAT32, {d.batch, filters * d.memory});
    uint16_t w0 = p.weight(fw), w1 = p.weight(tw);
    uint16_t w2 = bias.empty() ? TIGRIS_NONE16 : p.weight(bias);
    sp.op = p.op(TIGRIS_OP_SVDF, {sp.x, sp.s}, {sp.y, sp.ns});
    p.ops[sp.op].fused_act = act;
    auto c = u16s({w0, w1, w2});
    p.attr(sp.op, TIGRIS_ATTR_CONSTANTS, c.data(), c.size());
    int32_t r = d.rank;
    p.attr(sp.op, TIGRIS_ATTR_SVDF, &r, 4);
    p.finish();
}

// Double-precision SVDF: returns y, updates state in place.
std::vector<double> ref_svdf_f32(const SvdfSpec &d, const std::vector<float> &fw, const std::vector<float> &tw,
                                 const std::vector<float> &bias, const std::vector<float> &x,
                                 std::vector<double> &state, int act) {
    int filters = d.units * d.rank;
    std::vector<double> next(state.size());
    for (size_t i = 0; i + 1 < state.size(); i++) next[i] = state[i + 1];
    next.back() = state.back();
    for (int b = 0; b < d.batch; b++)
        for (int f = 0; f < filters; f++) {
            double acc = 0;
            for (int i = 0; i < d.features; i++) acc += (double)fw[f * d.features + i] * x[b * d.features + i];
            next[(b * filters + f) * d.memory + d.memory - 1] = acc;
        }
    state = next;
    std::vector<double> y(d.batch * d.units);
    for (int b = 0; b < d.batch; b++)
        for (int u = 0; u < d.units; u++) {
            double acc = bias.empty() ? 0.0 : bias[u];
            for (int r = 0; r < d.rank; r++) {
                int f = u * d.rank + r;
                for (int m = 0; m < d.memory; m++) acc += (double)tw[f * d.memory + m] * state[(b * filters + f) * d.memory + m];
            }
            if (act != TIGRIS_ACT_NONE) acc = std::max(acc, 0.0);
            if (act == TIGRIS_ACT_RELU6) acc = std::min(acc, 6.0);
            y[b * d.units + u] = acc;
        }
    return y;
}

TEST(KernelsRecurrentSvdf, F32HandComputed) {
    SvdfPlan sp;
    SvdfSpec d{1, 2, 1, 1, 3};
    build_svdf_f32(sp, d, {1, 2}, {1, 10, 100}, {0.5f});
    sp.p.set<float>(sp.x, {2, 1});
    sp.p.set<float>(sp.s, {1, 2, 3});
    ASSERT_EQ(sp.p.run_f32(sp.op), 0);
    // state shifts to [2, 3, 3], newest = 1*2 + 2*1 = 4; y = 0.5 + 2 + 30 + 400
    EXPECT_EQ(sp.p.get<float>(sp.ns), (std::vector<float>{2, 3, 4}));
    EXPECT_EQ(sp.p.data<float>(sp.y)[0], 432.5f);
    // Through the int8 dispatcher a float SVDF takes the float route too.
    sp.p.set<float>(sp.s, {1, 2, 3});
    ASSERT_EQ(sp.p.run_s8(sp.op), 0);
    EXPECT_EQ(sp.p.data<float>(sp.y)[0], 432.5f);
}

TEST(KernelsRecurrentSvdf, F32StateAcrossRunsRankTwoBatchTwo) {
    for (int act : {TIGRIS_ACT_NONE, TIGRIS_ACT_RELU, TIGRIS_ACT_RELU6}) {
        SvdfSpec d{2, 3, 2, 2, 4};
        int filters = d.units * d.rank;
        auto fw = kt::ramp_f32(filters * d.features, 1), tw = kt::ramp_f32(filters * d.memory, 2);
        auto bias = kt::ramp_f32(d.units, 3);
        SvdfPlan sp;
        build_svdf_f32(sp, d, fw, tw, bias, (uint8_t)act);
        std::vector<float> s0 = kt::ramp_f32(d.batch * filters * d.memory, 4);
        std::vector<double> rs(s0.begin(), s0.end());
        sp.p.set<float>(sp.s, s0);
        for (int run = 0; run < 3; run++) {
            auto x = kt::ramp_f32(d.batch * d.features, 10 + run);
            sp.p.set<float>(sp.x, x);
            ASSERT_EQ(sp.p.run_f32(sp.op), 0);
            auto want = ref_svdf_f32(d, fw, tw, bias, x, rs, act);
            auto got = sp.p.get<float>(sp.y);
            for (size_t i = 0; i < want.size(); i++) EXPECT_NEAR(got[i], want[i], 1e-4) << run << " " << i;
            auto ns = sp.p.get<float>(sp.ns);
            for (size_t i = 0; i < rs.size(); i++) EXPECT_NEAR(ns[i], rs[i], 1e-5);
            sp.p.set<float>(sp.s, ns);  // carry the state as the executor does
        }
    }
}

TEST(KernelsRecurrentSvdf, F32NoBiasAndInPlaceState) {
    SvdfSpec d{1, 1, 2, 1, 2};
    SvdfPlan sp;
    build_svdf_f32(sp, d, {1, -1}, {2, 3, 4, 5}, {});
    sp.p.ptrs[sp.ns] = sp.p.ptrs[sp.s];  // next state over the state input
    sp.p.set<float>(sp.s, {1, 2, 3, 4});
    sp.p.set<float>(sp.x, {10});
    ASSERT_EQ(sp.p.run_f32(sp.op), 0);
    // shifted [2, 3, 4, 4]; newest slots: f0 -> 10, f1 -> -10: [2, 10, 4, -10]
    EXPECT_EQ(sp.p.get<float>(sp.s), (std::vector<float>{2, 10, 4, -10}));
    EXPECT_EQ(sp.p.data<float>(sp.y)[0], 2 * 2 + 3 * 10.0f);
    EXPECT_EQ(sp.p.data<float>(sp.y)[1], 4 * 4 + 5 * -10.0f);
}

TEST(KernelsRecurrentSvdf, F32Refusals) {
    SvdfSpec d{1, 2, 1, 1, 3};
    {
        SvdfPlan sp;  // rank 2 does not divide a 3-wide state into units*rank filters
        build_svdf_f32(sp, d, {1, 2}, {1, 10, 100}, {0.5f});
        int32_t r = 2;
        memcpy(&sp.p.attr_data[sp.p.attrs[1].data_offset], &r, 4);
        EXPECT_EQ(sp.p.run_f32(sp.op), -1);
    }
    {
        SvdfPlan sp;  // time weights too short
        build_svdf_f32(sp, d, {1, 2}, {1, 10}, {0.5f});
        EXPECT_EQ(sp.p.run_f32(sp.op), -1);
    }
    {
        SvdfPlan sp;  // a banded call
        build_svdf_f32(sp, d, {1, 2}, {1, 10, 100}, {0.5f});
        sp.p.mem.tile.active = 1;
        EXPECT_EQ(sp.p.run_f32(sp.op), -1);
    }
    {
        SvdfPlan sp;  // CONSTANTS with two entries
        build_svdf_f32(sp, d, {1, 2}, {1, 10, 100}, {0.5f});
        sp.p.attrs[0].data_len = 4;
        EXPECT_EQ(sp.p.run_f32(sp.op), -1);
    }
}

// ---- SVDF int8 ----

struct SvdfQ {
    int32_t zx, zy, szp, m1, s1, m2, s2;
};

void build_svdf_s8(SvdfPlan &sp, const SvdfSpec &d, const SvdfQ &q, const std::vector<int8_t> &fw,
                   const std::vector<int16_t> &tw, const std::vector<int32_t> &bias) {
    KPlan &p = sp.p;
    int filters = d.units * d.rank;
    uint16_t qx = p.quant(0.05f, q.zx), qy = p.quant(0.1f, q.zy);
    sp.x = p.tensor(TIGRIS_DTYPE_INT8, {d.batch, d.features}, qx);
    sp.s = p.tensor(TIGRIS_DTYPE_INT16, {d.batch, filters * d.memory});
    sp.y = p.tensor(TIGRIS_DTYPE_INT8, {d.batch, d.units}, qy);
    sp.ns = p.tensor(TIGRIS_DTYPE_INT16, {d.batch, filters * d.memory});
    uint16_t w0 = p.weight(fw), w1 = p.weight(tw);
    uint16_t w2 = bias.empty() ? TIGRIS_NONE16 : p.weight(bias);
    sp.op = p.op(TIGRIS_OP_SVDF, {sp.x, sp.s}, {sp.y, sp.ns});
    auto c = u16s({w0, w1, w2});
    p.attr(sp.op, TIGRIS_ATTR_CONSTANTS, c.data(), c.size());
    int32_t a[6] = {d.rank, q.szp, q.m1, q.s1, q.m2, q.s2};
    p.attr(sp.op, TIGRIS_ATTR_SVDF, a, 24);
    p.finish();
}

// Plain int64 formulation of docs/runtime-semantics.md R4.3.32; updates state.
std::vector<int8_t> ref_svdf_s8(const SvdfSpec &d, const SvdfQ &q, const std::vector<int8_t> &fw,
                                const std::vector<int16_t> &tw, const std::vector<int32_t> &bias,
                                const std::vector<int8_t> &x, std::vector<int16_t> &state) {
    int filters = d.units * d.rank;
    std::vector<int16_t> next(state.size());
    for (size_t i = 0; i + 1 < state.size(); i++) next[i] = state[i + 1];
    next.back() = state.back();
    for (int b = 0; b < d.batch; b++)
        for (int f = 0; f < filters; f++) {
            int64_t acc = 0;
            for (int i = 0; i < d.features; i++) acc += (int64_t)fw[f * d.features + i] * (x[b * d.features + i] - q.zx);
            int64_t v = ref_mbqm((int32_t)acc, q.m1, q.s1);
            v = std::min<int64_t>(32767, std::max<int64_t>(-32768, v));
            next[(b * filters + f) * d.memory + d.memory - 1] = (int16_t)(uint16_t)(uint64_t)(v + q.szp);
        }
    state = next;
    std::vector<int8_t> y(d.batch * d.units);
    for (int b = 0; b < d.batch; b++)
        for (int u = 0; u < d.units; u++) {
            int64_t acc = bias.empty() ? 0 : bias[u];
            for (int r = 0; r < d.rank; r++) {
                int f = u * d.rank + r;
                for (int m = 0; m < d.memory; m++)
                    acc += (int64_t)tw[f * d.memory + m] * (state[(b * filters + f) * d.memory + m] - q.szp);
            }
            int64_t v = (int64_t)ref_mbqm((int32_t)acc, q.m2, q.s2) + q.zy;
            y[b * d.units + u] = (int8_t)std::min<int64_t>(127, std::max<int64_t>(-128, v));
        }
    return y;
}

TEST(KernelsRecurrentSvdf, S8HandComputed) {
    // m = 2^30 (one half), shift 0: MBQM(v) = round-half-away(v / 2).
    SvdfSpec d{1, 2, 1, 1, 2};
    SvdfQ q{1, -3, 0, 1 << 30, 0, 1 << 30, -1};
    SvdfPlan sp;
    build_svdf_s8(sp, d, q, {3, -2}, {5, 7}, {100});
    sp.p.set<int8_t>(sp.x, {6, 2});
    sp.p.set<int16_t>(sp.s, {11, 20});
    ASSERT_EQ(sp.p.run_s8(sp.op), 0);
    // feature: 3*5 - 2*1 = 13 -> MBQM 6.5 -> 7; state [20, 7]
    EXPECT_EQ(sp.p.get<int16_t>(sp.ns), (std::vector<int16_t>{20, 7}));
    // y: 100 + 5*20 + 7*7 = 249 -> /2 -> 124.5 -> 125, then /2 (shift -1) -> 62.5 -> 63; + zy -3 = 60
    EXPECT_EQ(sp.p.data<int8_t>(sp.y)[0], 60);
}

TEST(KernelsRecurrentSvdf, S8MatchesInt64Reference) {
    SvdfSpec d{2, 5, 3, 2, 3};
    int filters = d.units * d.rank;
    for (const SvdfQ &q : {SvdfQ{-5, 4, 0, 1518500250, -3, 1246627471, -9}, SvdfQ{0, -128, 37, 2147483647, 0, 1073741824, -12},
                           SvdfQ{127, 0, -900, 1900000000, -1, 1600000000, -20}}) {
        auto fw = kt::ramp_s8(filters * d.features, 5);
        std::vector<int16_t> tw(filters * d.memory);
        for (size_t i = 0; i < tw.size(); i++) tw[i] = (int16_t)((int)(i * 7919 % 4001) - 2000);
        std::vector<int32_t> bias = {-5000, 123, 77777};
        SvdfPlan sp;
        build_svdf_s8(sp, d, q, fw, tw, bias);
        std::vector<int16_t> st(d.batch * filters * d.memory);
        for (size_t i = 0; i < st.size(); i++) st[i] = (int16_t)((int)(i * 331 % 3000) - 1500);
        sp.p.set<int16_t>(sp.s, st);
        for (int run = 0; run < 4; run++) {
            auto x = kt::ramp_s8(d.batch * d.features, 20 + run);
            sp.p.set<int8_t>(sp.x, x);
            ASSERT_EQ(sp.p.run_s8(sp.op), 0);
            auto want = ref_svdf_s8(d, q, fw, tw, bias, x, st);
            EXPECT_EQ(sp.p.get<int8_t>(sp.y), want) << run;
            EXPECT_EQ(sp.p.get<int16_t>(sp.ns), st) << run;
            sp.p.set<int16_t>(sp.s, st);
        }
    }
}

TEST(KernelsRecurrentSvdf, S8Refusals) {
    SvdfSpec d{1, 2, 1, 1, 2};
    SvdfQ q{1, -3, 0, 1 << 30, 0, 1 << 30, -1};
    {
        SvdfPlan sp;  // positive shift
        build_svdf_s8(sp, d, SvdfQ{1, -3, 0, 1 << 30, 1, 1 << 30, -1}, {3, -2}, {5, 7}, {100});
        EXPECT_EQ(sp.p.run_s8(sp.op), -1);
    }
    {
        SvdfPlan sp;  // float-length payload on an int8 op
        build_svdf_s8(sp, d, q, {3, -2}, {5, 7}, {100});
        sp.p.attrs[1].data_len = 4;
        EXPECT_EQ(sp.p.run_s8(sp.op), -1);
    }
    {
        SvdfPlan sp;  // bias shorter than units
        build_svdf_s8(sp, SvdfSpec{1, 2, 2, 1, 1}, q, {3, -2, 1, 1}, {5, 7}, {100});
        EXPECT_EQ(sp.p.run_s8(sp.op), -1);
    }
    {
        SvdfPlan sp;  // input without a quant record
        build_svdf_s8(sp, d, q, {3, -2}, {5, 7}, {100});
        sp.p.tensors[sp.x].quant_param_idx = TIGRIS_NONE16;
        EXPECT_EQ(sp.p.run_s8(sp.op), -1);
    }
}

// ---- LSTM f32 ----

struct LstmSpec {
    int batch, steps, features, units, time_major;
    float clip;
};

struct LstmPlan {
    KPlan p;
    uint16_t x, h, c, hs, nh, nc, op;
};

struct LstmW {
    std::vector<float> wi[4], wr[4], b[4];
};

void build_lstm(LstmPlan &lp, const LstmSpec &d, const LstmW &w) {
    KPlan &p = lp.p;
    std::vector<int32_t> seq = d.time_major ? std::vector<int32_t>{d.steps, d.batch, d.features}
                                            : std::vector<int32_t>{d.batch, d.steps, d.features};
    std::vector<int32_t> out = seq;
    out[2] = d.units;
    lp.x = p.tensor(TIGRIS_DTYPE_FLOAT32, seq);
    lp.h = p.tensor(TIGRIS_DTYPE_FLOAT32, {d.batch, d.units});
    lp.c = p.tensor(TIGRIS_DTYPE_FLOAT32, {d.batch, d.units});
    lp.hs = p.tensor(TIGRIS_DTYPE_FLOAT32, out);
    lp.nh = p.tensor(TIGRIS_DTYPE_FLOAT32, {d.batch, d.units});
    lp.nc = p.tensor(TIGRIS_DTYPE_FLOAT32, {d.batch, d.units});
    std::vector<uint16_t> k;
    for (int g = 0; g < 4; g++) k.push_back(p.weight(w.wi[g]));
    for (int g = 0; g < 4; g++) k.push_back(p.weight(w.wr[g]));
    for (int g = 0; g < 4; g++) k.push_back(w.b[g].empty() ? TIGRIS_NONE16 : p.weight(w.b[g]));
    lp.op = p.op(TIGRIS_OP_LSTM, {lp.x, lp.h, lp.c}, {lp.hs, lp.nh, lp.nc});
    auto kb = u16s(k);
    p.attr(lp.op, TIGRIS_ATTR_CONSTANTS, kb.data(), kb.size());
    uint8_t a[8];
    memcpy(a, &d.time_major, 4);
    memcpy(a + 4, &d.clip, 4);
    p.attr(lp.op, TIGRIS_ATTR_LSTM, a, 8);
    p.finish();
}

LstmW zero_lstm(int f, int u) {
    LstmW w;
    for (int g = 0; g < 4; g++) {
        w.wi[g].assign(u * f, 0.0f);
        w.wr[g].assign(u * u, 0.0f);
        w.b[g].assign(u, 0.0f);
    }
    return w;
}

TEST(KernelsRecurrentLstm, F32HandComputedOneUnit) {
    // All weights zero: i = f = o = 1/2, cell gate tanh(0) = 0, so the next
    // cell is c/2 and the hidden 0.5 * tanh(c/2).
    LstmSpec d{1, 1, 1, 1, 0, 0.0f};
    LstmPlan lp;
    build_lstm(lp, d, zero_lstm(1, 1));
    lp.p.set<float>(lp.x, {3});
    lp.p.set<float>(lp.h, {-7});
    lp.p.set<float>(lp.c, {2});
    ASSERT_EQ(lp.p.run_f32(lp.op), 0);
    EXPECT_FLOAT_EQ(lp.p.data<float>(lp.nc)[0], 1.0f);
    EXPECT_NEAR(lp.p.data<float>(lp.nh)[0], 0.5 * std::tanh(1.0), 1e-6);
    EXPECT_NEAR(lp.p.data<float>(lp.hs)[0], 0.5 * std::tanh(1.0), 1e-6);
}

TEST(KernelsRecurrentLstm, F32CellClip) {
    LstmSpec d{1, 1, 1, 1, 0, 3.0f};
    LstmPlan lp;
    LstmW w = zero_lstm(1, 1);
    w.wi[2] = {1.0f};  // cell gate tanh(x)
    build_lstm(lp, d, w);
    lp.p.set<float>(lp.x, {20});   // tanh(20) = 1 in float
    lp.p.set<float>(lp.h, {0});
    lp.p.set<float>(lp.c, {10});   // 5 + 0.5 -> clipped to 3
    ASSERT_EQ(lp.p.run_f32(lp.op), 0);
    EXPECT_FLOAT_EQ(lp.p.data<float>(lp.nc)[0], 3.0f);
    EXPECT_NEAR(lp.p.data<float>(lp.nh)[0], 0.5 * std::tanh(3.0), 1e-6);
    lp.p.set<float>(lp.c, {-10});  // -5 + 0.5 -> -3
    ASSERT_EQ(lp.p.run_f32(lp.op), 0);
    EXPECT_FLOAT_EQ(lp.p.data<float>(lp.nc)[0], -3.0f);
}

double sigm(double v) { return 1.0 / (1.0 + std::exp(-v)); }

// Double-precision LSTM over one sequence; returns the hidden sequence in
// the tensor's layout and leaves the final h/c in h, c.
std::vector<double> ref_lstm(const LstmSpec &d, const LstmW &w, const std::vector<float> &x, std::vector<double> &h,
                             std::vector<double> &c) {
    std::vector<double> out((size_t)d.batch * d.steps * d.units);
    for (int t = 0; t < d.steps; t++)
        for (int b = 0; b < d.batch; b++) {
            int row = d.time_major ? t * d.batch + b : b * d.steps + t;
            std::vector<double> hn(d.units);
            for (int u = 0; u < d.units; u++) {
                double g[4];
                for (int k = 0; k < 4; k++) {
                    double acc = w.b[k].empty() ? 0.0 : w.b[k][u];
                    for (int i = 0; i < d.features; i++) acc += (double)w.wi[k][u * d.features + i] * x[row * d.features + i];
                    for (int j = 0; j < d.units; j++) acc += (double)w.wr[k][u * d.units + j] * h[b * d.units + j];
                    g[k] = acc;
                }
                double cn = sigm(g[1]) * c[b * d.units + u] + sigm(g[0]) * std::tanh(g[2]);
                if (d.clip > 0) cn = std::max(-(double)d.clip, std::min((double)d.clip, cn));
                c[b * d.units + u] = cn;
                hn[u] = sigm(g[3]) * std::tanh(cn);
            }
            for (int u = 0; u < d.units; u++) {
                h[b * d.units + u] = hn[u];
                out[row * d.units + u] = hn[u];
            }
        }
    return out;
}

TEST(KernelsRecurrentLstm, F32MatchesDoubleReference) {
    for (int tm : {0, 1}) {
        for (float clip : {0.0f, 0.75f}) {
            LstmSpec d{2, 3, 3, 4, tm, clip};
            LstmW w;
            for (int g = 0; g < 4; g++) {
                w.wi[g] = kt::ramp_f32(d.units * d.features, 30 + g);
                w.wr[g] = kt::ramp_f32(d.units * d.units, 40 + g);
                if (g != 2) w.b[g] = kt::ramp_f32(d.units, 50 + g);  // cell gate without bias
                for (float &v : w.wr[g]) v *= 0.5f;
            }
            LstmPlan lp;
            build_lstm(lp, d, w);
            auto x = kt::ramp_f32((size_t)d.batch * d.steps * d.features, 60);
            auto h0 = kt::ramp_f32((size_t)d.batch * d.units, 61), c0 = kt::ramp_f32((size_t)d.batch * d.units, 62);
            lp.p.set<float>(lp.x, x);
            lp.p.set<float>(lp.h, h0);
            lp.p.set<float>(lp.c, c0);
            ASSERT_EQ(lp.p.run_f32(lp.op), 0);
            std::vector<double> h(h0.begin(), h0.end()), c(c0.begin(), c0.end());
            auto want = ref_lstm(d, w, x, h, c);
            auto got = lp.p.get<float>(lp.hs);
            for (size_t i = 0; i < want.size(); i++) EXPECT_NEAR(got[i], want[i], 2e-5) << tm << " " << i;
            auto nh = lp.p.get<float>(lp.nh), nc = lp.p.get<float>(lp.nc);
            for (size_t i = 0; i < h.size(); i++) {
                EXPECT_NEAR(nh[i], h[i], 2e-5);
                EXPECT_NEAR(nc[i], c[i], 2e-5);
            }
        }
    }
}

TEST(KernelsRecurrentLstm, F32Refusals) {
    LstmSpec d{1, 2, 2, 2, 0, 0.0f};
    {
        LstmPlan lp;  // time_major = 2
        build_lstm(lp, d, zero_lstm(2, 2));
        int32_t two = 2;
        memcpy(&lp.p.attr_data[lp.p.attrs[1].data_offset], &two, 4);
        EXPECT_EQ(lp.p.run_f32(lp.op), -1);
    }
    {
        LstmPlan lp;  // negative clip
        build_lstm(lp, LstmSpec{1, 2, 2, 2, 0, -1.0f}, zero_lstm(2, 2));
        EXPECT_EQ(lp.p.run_f32(lp.op), -1);
    }
    {
        LstmPlan lp;  // recurrent weights of the wrong size
        LstmW w = zero_lstm(2, 2);
        w.wr[3].resize(3);
        build_lstm(lp, d, w);
        EXPECT_EQ(lp.p.run_f32(lp.op), -1);
    }
    {
        LstmPlan lp;  // hidden sequence written over the sequence input
        build_lstm(lp, LstmSpec{1, 2, 2, 2, 0, 0.0f}, zero_lstm(2, 2));
        lp.p.ptrs[lp.hs] = lp.p.ptrs[lp.x];
        EXPECT_EQ(lp.p.run_f32(lp.op), -1);
    }
    {
        LstmPlan lp;  // int8 tensors with the float payload (the int8 kernel wants 112 bytes)
        build_lstm(lp, d, zero_lstm(2, 2));
        for (auto &t : lp.p.tensors) t.dtype = t.dtype == TIGRIS_DTYPE_FLOAT32 ? TIGRIS_DTYPE_INT8 : t.dtype;
        EXPECT_EQ(lp.p.run_s8(lp.op), -1);
    }
}

// ---- DETECTION_POSTPROCESS ----

struct DetOpts {
    uint16_t max_det = 3, per_class = 2, classes = 2;
    uint8_t regular = 0;
    float score_thr = 0.2f, iou = 0.5f, ys = 10, xs = 10, hs = 5, ws = 5;
};

std::vector<uint8_t> det_payload(const DetOpts &o) {
    std::vector<uint8_t> a(32, 0);
    memcpy(&a[0], &o.max_det, 2);
    memcpy(&a[2], &o.per_class, 2);
    memcpy(&a[4], &o.classes, 2);
    a[6] = o.regular;
    float f[6] = {o.score_thr, o.iou, o.ys, o.xs, o.hs, o.ws};
    memcpy(&a[8], f, 24);
    return a;
}

struct DetPlan {
    KPlan p;
    uint16_t bx, sc, ob, oc, os, on, wm, op;
};

uint32_t wm_bytes(const DetOpts &o, int boxes) {
    uint32_t K = o.max_det + (o.regular ? o.per_class : 0);
    uint32_t most = std::max<uint32_t>(boxes, K);
    return 4 * (9 * boxes + most + 2 * K + o.max_det) + boxes;
}

// dtype: float32 or int8 (box quant scale bq zp 0, score quant 1/256, -128).
void build_det(DetPlan &dp, const DetOpts &o, int boxes, int C, const std::vector<float> &anchors,
               uint8_t dtype = TIGRIS_DTYPE_FLOAT32, float bq = 0.1f, int wm_shrink = 0) {
    KPlan &p = dp.p;
    uint16_t qb = TIGRIS_NONE16, qs = TIGRIS_NONE16;
    if (dtype == TIGRIS_DTYPE_INT8) {
        qb = p.quant(bq, 0);
        qs = p.quant(1.0f / 256.0f, -128);
    }
    dp.bx = p.tensor(dtype, {1, boxes, 4}, qb);
    dp.sc = p.tensor(dtype, {1, boxes, C}, qs);
    dp.ob = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, o.max_det, 4});
    dp.oc = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, o.max_det});
    dp.os = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, o.max_det});
    dp.on = p.tensor(TIGRIS_DTYPE_FLOAT32, {1});
    // Float32 working memory rounded up to whole floats, wm_shrink floats fewer.
    int32_t wf = (int32_t)((wm_bytes(o, boxes) + 3) / 4) - wm_shrink;
    dp.wm = p.tensor(TIGRIS_DTYPE_FLOAT32, {wf});
    uint16_t wa = p.weight(anchors);
    dp.op = p.op(TIGRIS_OP_DETECTION_POSTPROCESS, {dp.bx, dp.sc}, {dp.ob, dp.oc, dp.os, dp.on, dp.wm});
    auto k = u16s({wa});
    p.attr(dp.op, TIGRIS_ATTR_CONSTANTS, k.data(), k.size());
    auto a = det_payload(o);
    p.attr(dp.op, TIGRIS_ATTR_DETECTION, a.data(), a.size());
    p.finish();
}

// Three anchors: [0,0,1,1], [0.05,0,1.05,1] (IoU 0.95/1.05 with the first)
// and [2,2,3,3]; scores (background, c0, c1).
const std::vector<float> kAnchors = {0.5f, 0.5f, 1, 1, 0.55f, 0.5f, 1, 1, 2.5f, 2.5f, 1, 1};
const std::vector<float> kScores = {0.9f, 0.8f, 0.1f, 0.1f, 0.7f, 0.75f, 0.0f, 0.3f, 0.6f};

void expect_box(const float *b, float y0, float x0, float y1, float x1) {
    EXPECT_NEAR(b[0], y0, 1e-6);
    EXPECT_NEAR(b[1], x0, 1e-6);
    EXPECT_NEAR(b[2], y1, 1e-6);
    EXPECT_NEAR(b[3], x1, 1e-6);
}

TEST(KernelsRecurrentDetection, FastNms) {
    DetOpts o;
    DetPlan dp;
    build_det(dp, o, 3, 3, kAnchors);
    dp.p.set<float>(dp.bx, std::vector<float>(12, 0.0f));
    dp.p.set<float>(dp.sc, kScores);
    ASSERT_EQ(dp.p.run_f32(dp.op), 0);
    // best classes: box0 c0 0.8, box1 c1 0.75 (suppressed by box0), box2 c1 0.6
    EXPECT_EQ(dp.p.data<float>(dp.on)[0], 2.0f);
    const float *b = dp.p.data<float>(dp.ob);
    expect_box(b, 0, 0, 1, 1);
    expect_box(b + 4, 2, 2, 3, 3);
    expect_box(b + 8, 0, 0, 0, 0);
    EXPECT_EQ(dp.p.get<float>(dp.oc), (std::vector<float>{0, 1, 0}));
    EXPECT_EQ(dp.p.get<float>(dp.os), (std::vector<float>{0.8f, 0.6f, 0}));
}

TEST(KernelsRecurrentDetection, RegularNmsMergesClasses) {
    DetOpts o;
    o.regular = 1;
    DetPlan dp;
    build_det(dp, o, 3, 3, kAnchors);
    dp.p.set<float>(dp.bx, std::vector<float>(12, 0.0f));
    dp.p.set<float>(dp.sc, kScores);
    ASSERT_EQ(dp.p.run_f32(dp.op), 0);
    // class 0: box0 (0.8), box1 suppressed, box2 (0.3); class 1: box0 below
    // threshold, box1 (0.75), box2 (0.6); top three of the four by score.
    EXPECT_EQ(dp.p.data<float>(dp.on)[0], 3.0f);
    const float *b = dp.p.data<float>(dp.ob);
    expect_box(b, 0, 0, 1, 1);
    expect_box(b + 4, 0.05f, 0, 1.05f, 1);
    expect_box(b + 8, 2, 2, 3, 3);
    EXPECT_EQ(dp.p.get<float>(dp.oc), (std::vector<float>{0, 1, 1}));
    EXPECT_EQ(dp.p.get<float>(dp.os), (std::vector<float>{0.8f, 0.75f, 0.6f}));
}

TEST(KernelsRecurrentDetection, DecodeScalesAndNoBackgroundColumn) {
    DetOpts o;
    o.max_det = 1;
    o.classes = 1;
    DetPlan dp;
    build_det(dp, o, 1, 1, {2.5f, 2.5f, 1, 2});
    // y: 10/10*1 + 2.5 = 3.5; x: -5/10*2 + 2.5 = 1.5; h: exp(ln 4 / 2) = 2 -> half 1;
    // w: exp(0) * 2 -> half 1.
    dp.p.set<float>(dp.bx, {10.0f, -5.0f, 5.0f * std::log(2.0f), 0.0f});
    dp.p.set<float>(dp.sc, {0.5f});
    ASSERT_EQ(dp.p.run_f32(dp.op), 0);
    // h encoding = 5*ln(4)/2 -> exp(ln(4)/2) = 2, times anchor h 1, half = 1
    EXPECT_EQ(dp.p.data<float>(dp.on)[0], 1.0f);
    const float *b = dp.p.data<float>(dp.ob);
    EXPECT_NEAR(b[0], 2.5f, 1e-5);
    EXPECT_NEAR(b[1], 0.5f, 1e-5);
    EXPECT_NEAR(b[2], 4.5f, 1e-5);
    EXPECT_NEAR(b[3], 2.5f, 1e-5);
    EXPECT_EQ(dp.p.data<float>(dp.oc)[0], 0.0f);
}

TEST(KernelsRecurrentDetection, ThresholdsAreInclusiveAndStrict) {
    // Score equal to the threshold is kept; IoU equal to the threshold does
    // not suppress: [0,0,1,1] vs [0,0,0.5,1] has IoU exactly 0.5.
    DetOpts o;
    o.classes = 1;
    o.score_thr = 0.25f;
    DetPlan dp;
    build_det(dp, o, 3, 1, {0.5f, 0.5f, 1, 1, 0.25f, 0.5f, 0.5f, 1, 0.5f, 0.5f, 1, 1});
    dp.p.set<float>(dp.bx, std::vector<float>(12, 0.0f));
    dp.p.set<float>(dp.sc, {0.5f, 0.25f, 0.2f});
    ASSERT_EQ(dp.p.run_f32(dp.op), 0);
    EXPECT_EQ(dp.p.data<float>(dp.on)[0], 2.0f);
    EXPECT_EQ(dp.p.get<float>(dp.os), (std::vector<float>{0.5f, 0.25f, 0}));
    expect_box(dp.p.data<float>(dp.ob) + 4, 0, 0, 0.5f, 1);
    // A tighter IoU threshold suppresses the second box.
    DetOpts o2 = o;
    o2.iou = 0.4f;
    DetPlan dp2;
    build_det(dp2, o2, 3, 1, {0.5f, 0.5f, 1, 1, 0.25f, 0.5f, 0.5f, 1, 0.5f, 0.5f, 1, 1});
    dp2.p.set<float>(dp2.bx, std::vector<float>(12, 0.0f));
    dp2.p.set<float>(dp2.sc, {0.5f, 0.25f, 0.2f});
    ASSERT_EQ(dp2.p.run_f32(dp2.op), 0);
    EXPECT_EQ(dp2.p.data<float>(dp2.on)[0], 1.0f);
}

TEST(KernelsRecurrentDetection, EqualScoresKeepAnchorOrder) {
    // Disjoint boxes with equal scores: the earlier anchor comes first.
    DetOpts o;
    o.classes = 1;
    o.max_det = 2;
    DetPlan dp;
    build_det(dp, o, 3, 1, {0.5f, 0.5f, 1, 1, 5.5f, 5.5f, 1, 1, 9.5f, 9.5f, 1, 1});
    dp.p.set<float>(dp.bx, std::vector<float>(12, 0.0f));
    dp.p.set<float>(dp.sc, {0.3f, 0.6f, 0.6f});
    ASSERT_EQ(dp.p.run_f32(dp.op), 0);
    EXPECT_EQ(dp.p.data<float>(dp.on)[0], 2.0f);
    expect_box(dp.p.data<float>(dp.ob), 5, 5, 6, 6);
    expect_box(dp.p.data<float>(dp.ob) + 4, 9, 9, 10, 10);
}

TEST(KernelsRecurrentDetection, Int8InputsThroughTheS8Dispatcher) {
    DetOpts o;
    DetPlan dp;
    build_det(dp, o, 3, 3, kAnchors, TIGRIS_DTYPE_INT8, 0.5f);
    // scores (q + 128) / 256
    std::vector<int8_t> sq = {100, 77, -100, -100, 51, 64, -128, -50, 26};
    std::vector<int8_t> bq(12, 0);
    bq[8] = 20;  // box2 y: 20 * 0.5 = 10 -> +1 in y
    dp.p.set<int8_t>(dp.bx, bq);
    dp.p.set<int8_t>(dp.sc, sq);
    ASSERT_EQ(dp.p.run_s8(dp.op), 0);
    // best: box0 c0 205/256, box1 c1 192/256 (suppressed), box2 c1 154/256
    EXPECT_EQ(dp.p.data<float>(dp.on)[0], 2.0f);
    expect_box(dp.p.data<float>(dp.ob), 0, 0, 1, 1);
    expect_box(dp.p.data<float>(dp.ob) + 4, 3, 2, 4, 3);
    EXPECT_EQ(dp.p.get<float>(dp.os), (std::vector<float>{205 / 256.0f, 154 / 256.0f, 0}));
    EXPECT_EQ(dp.p.get<float>(dp.oc), (std::vector<float>{0, 1, 0}));
}

TEST(KernelsRecurrentDetection, Refusals) {
    DetOpts o;
    {
        DetPlan dp;  // working memory one float short
        build_det(dp, o, 3, 3, kAnchors, TIGRIS_DTYPE_FLOAT32, 0.1f, 1);
        EXPECT_EQ(dp.p.run_f32(dp.op), -1);
    }
    {
        DetPlan dp;  // score columns neither classes nor classes + 1
        build_det(dp, o, 3, 4, kAnchors);
        EXPECT_EQ(dp.p.run_f32(dp.op), -1);
    }
    {
        DetOpts z = o;  // IoU threshold 0
        z.iou = 0.0f;
        DetPlan dp;
        build_det(dp, z, 3, 3, kAnchors);
        EXPECT_EQ(dp.p.run_f32(dp.op), -1);
    }
    {
        DetPlan dp;  // anchors for two boxes only
        build_det(dp, o, 3, 3, std::vector<float>(kAnchors.begin(), kAnchors.begin() + 8));
        EXPECT_EQ(dp.p.run_f32(dp.op), -1);
    }
    {
        DetPlan dp;  // int8 scores without a quant record
        build_det(dp, o, 3, 3, kAnchors, TIGRIS_DTYPE_INT8);
        dp.p.tensors[dp.sc].quant_param_idx = TIGRIS_NONE16;
        EXPECT_EQ(dp.p.run_s8(dp.op), -1);
    }
}

// Through the loader and executor: the next state written by one run is the
// state the next run reads (units 1, rank 1, memory 2, features 1, fw = 1,
// tw = (1, 10), no bias; the state starts at 0).
TEST(KernelsRecurrentSvdf, F32StateCarriedByTheExecutor) {
    using tigris_test::PlanBuilder;
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 1}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t s = b.add_tensor("s", TIGRIS_DTYPE_FLOAT32, {1, 2}, TIGRIS_TENSOR_STATE);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 1}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t ns = b.add_tensor("s.next", TIGRIS_DTYPE_FLOAT32, {1, 2}, TIGRIS_TENSOR_STATE);
    uint16_t fw = b.add_float_weight("fw", {1}), tw = b.add_float_weight("tw", {1, 10});
    uint16_t op = b.add_op(TIGRIS_OP_SVDF, {x, s}, {y, ns}, "svdf");
    b.add_attribute(op, TIGRIS_ATTR_CONSTANTS, tigris_test::le_u16({fw, tw, TIGRIS_NONE16}));
    b.add_attribute(op, TIGRIS_ATTR_SVDF, tigris_test::le_i32({1}));
    b.add_stage({op}, {x, s}, {y, ns});
    b.add_state(s, ns, tigris_test::le_f32({0, 0}));
    tigris_exec_test::Harness h;
    ASSERT_TRUE(h.load(b.build(), 4096, 4096));
    std::vector<uint8_t> state(tigris_state_required(&h.plan));
    ASSERT_EQ(tigris_state_init(&h.plan, state.data(), state.size()), TIGRIS_EXEC_OK);
    // x = 3: state (0, 3), y = 30; x = 5: (3, 5), y = 53; x = -1: (5, -1), y = -5.
    const float xs[3] = {3, 5, -1}, ys[3] = {30, 53, -5};
    for (int run = 0; run < 3; run++) {
        h.write_f32(x, {xs[run]});
        ASSERT_EQ(tigris_run_with_state(&h.plan, &h.mem, tigris_dispatch_kernel, nullptr, &h.stats, h.ws.data(),
                                        h.ws.size(), state.data(), state.size()),
                  TIGRIS_EXEC_OK);
        EXPECT_EQ(h.read_f32(y), std::vector<float>{ys[run]}) << run;
    }
}

TEST(KernelsRecurrentDetection, RegularTruncatesToMaxDetectionsAndPerClass) {
    // One class, no background, per_class 1: only the best box of the class
    // survives even though the others do not overlap it.
    DetOpts o;
    o.regular = 1;
    o.classes = 1;
    o.per_class = 1;
    o.max_det = 2;
    DetPlan dp;
    build_det(dp, o, 3, 1, {0.5f, 0.5f, 1, 1, 5.5f, 5.5f, 1, 1, 9.5f, 9.5f, 1, 1});
    dp.p.set<float>(dp.bx, std::vector<float>(12, 0.0f));
    dp.p.set<float>(dp.sc, {0.3f, 0.9f, 0.6f});
    ASSERT_EQ(dp.p.run_f32(dp.op), 0);
    EXPECT_EQ(dp.p.data<float>(dp.on)[0], 1.0f);
    expect_box(dp.p.data<float>(dp.ob), 5, 5, 6, 6);
    EXPECT_EQ(dp.p.get<float>(dp.os), (std::vector<float>{0.9f, 0}));
    // Two classes, per_class 2, max_det 2: four survivors, the top two kept.
    DetOpts o2 = o;
    o2.classes = 2;
    o2.per_class = 2;
    DetPlan dp2;
    build_det(dp2, o2, 3, 2, {0.5f, 0.5f, 1, 1, 5.5f, 5.5f, 1, 1, 9.5f, 9.5f, 1, 1});
    dp2.p.set<float>(dp2.bx, std::vector<float>(12, 0.0f));
    dp2.p.set<float>(dp2.sc, {0.3f, 0.5f, 0.9f, 0.25f, 0.6f, 0.95f});
    ASSERT_EQ(dp2.p.run_f32(dp2.op), 0);
    EXPECT_EQ(dp2.p.data<float>(dp2.on)[0], 2.0f);
    EXPECT_EQ(dp2.p.get<float>(dp2.os), (std::vector<float>{0.95f, 0.9f}));
    EXPECT_EQ(dp2.p.get<float>(dp2.oc), (std::vector<float>{1, 0}));
    expect_box(dp2.p.data<float>(dp2.ob), 9, 9, 10, 10);
    expect_box(dp2.p.data<float>(dp2.ob) + 4, 5, 5, 6, 6);
}

}  // namespace
