// Normalisation kernels (LayerNorm 33, LogSoftmax 57, L2Normalization 58),
// float32 and int8, run through the dispatchers.
//
// Float kernels are checked against double-precision formulas (and exact
// hand-computed rows whose float arithmetic has no rounding). The int8
// LogSoftmax and L2Normalization follow TFLite's integer reference
// algorithms; the test re-derives them here: prepare-time parameters from
// double scales with std::frexp (TFLite's QuantizeMultiplier), and the
// fixed-point steps with int64 products and floor-based rounding instead of
// the kernels' helpers. Every int8 result is also checked against the real
// value within one quantisation step.
#include <algorithm>
#include <cmath>
#include <limits>

#include "test_kernels_plan.h"

extern "C" {
#include "../../core/src/kernels/s8/fixedpoint.h"
}

using kt::KPlan;

namespace {

// ---- Reference fixed-point arithmetic (int64, floor-based rounding) ----

int32_t r_sat(int64_t v) {
    return (int32_t)std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, v));
}

// round(a·b / 2^31), half away from zero, saturating (SRDHM).
int32_t r_srdhm(int32_t a, int32_t b) {
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    int64_t p = (int64_t)a * b;
    int64_t q = p >= 0 ? (p + (1ll << 30)) / (1ll << 31) : -((-p + (1ll << 30) - 1) / (1ll << 31));
    return (int32_t)q;
}

// x / 2^e rounded half away from zero (RDBPOT).
int64_t r_rdbpot(int64_t x, int e) {
    if (e <= 0) return x;
    int64_t d = 1ll << e;
    int64_t q = x >= 0 ? x / d : -((-x + d - 1) / d);  // floor
    int64_t rem = x - q * d;                            // in [0, d)
    if (2 * rem > d || (2 * rem == d && x >= 0)) q++;
    return q;
}

// x·2^e saturated to int32, e >= 0.
int32_t r_sat_shl(int64_t x, int e) { return r_sat(x * (1ll << e)); }

// TFLite MultiplyByQuantizedMultiplier (double rounding).
int32_t r_mbqm(int32_t x, int32_t m, int s) {
    int32_t shifted = (int32_t)(uint32_t)(uint64_t)((int64_t)x * (1ll << std::max(s, 0)));
    return (int32_t)r_rdbpot(r_srdhm(shifted, m), std::max(-s, 0));
}

// TFLite QuantizeMultiplier from a double.
void r_qm(double v, int32_t *m, int *s) {
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

int r_clz(uint32_t v) {
    int n = 0;
    for (uint32_t bit = 0x80000000u; bit && !(v & bit); bit >>= 1) n++;
    return n;
}

// exp(a) on [-1/4, 0) in Q0.31: Taylor series around -1/8.
int32_t r_exp_quarter(int32_t a) {
    const int32_t e_m8 = 1895147668;  // exp(-1/8)
    const int32_t third = 715827883;  // 1/3
    int32_t x = a + (1 << 28);
    int32_t x2 = r_srdhm(x, x), x3 = r_srdhm(x2, x), x4 = r_srdhm(x2, x2);
    int32_t t = (int32_t)r_rdbpot((int64_t)r_srdhm((int32_t)r_rdbpot(x4, 2) + x3, third) + x2, 1);
    return e_m8 + r_srdhm(e_m8, x + t);
}

// exp(-2^(j-2)) in Q0.31 for j = 0..6.
const int32_t kExpBarrel[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};

// exp(a) for a <= 0 in Q(k).(31-k), result Q0.31 (gemmlowp exp_on_negative_values).
int32_t r_exp_neg(int32_t a, int k) {
    if (a == 0) return INT32_MAX;
    const int fb = 31 - k;
    const int64_t quarter = 1ll << (fb - 2);
    const int64_t a_mod = ((int64_t)a & (quarter - 1)) - quarter;  // in [-1/4, 0)
    int32_t res = r_exp_quarter(r_sat_shl(a_mod, k));
    const int64_t rest = a_mod - a;  // whole quarters still to apply
    for (int j = 0; j < 7; j++) {
        int expo = j - 2;
        if (k > expo && ((rest >> (fb + expo)) & 1)) res = r_srdhm(res, kExpBarrel[j]);
    }
    if (k > 5 && a < -(1ll << (fb + 5))) res = 0;
    return res;
}

// 1/(1+x) for x in [0,1), Q0.31 in and out (Newton, 3 steps, Q2.29 iterate).
int32_t r_recip_one_plus(int32_t x) {
    int64_t s = (int64_t)x + INT32_MAX;
    int32_t half = (int32_t)(s >= 0 ? (s + 1) / 2 : (s - 1) / 2);
    int32_t it = 1515870810 + r_srdhm(half, -1010580540);
    for (int i = 0; i < 3; i++) {
        int32_t one_minus = (1 << 29) - r_srdhm(half, it);
        it = it + r_sat_shl(r_srdhm(it, one_minus), 2);
    }
    return r_sat_shl(it, 1);
}

// ln(x), x >= 1 in Q12.19, result Q5.26 (TFLite log_x_for_x_greater_than_or_equal_to_1).
int32_t r_log_q12_to_q5(int32_t raw) {
    const int in_bits = 12, acc_bits = 6;
    const int32_t root_half = 1518500250, fourth_root_half = 1805811301, ln2 = 1488522236;
    const int32_t quarter_acc = (int32_t)r_rdbpot(536870912, acc_bits);
    int hra = r_clz((uint32_t)raw);
    int32_t ra = r_sat_shl(r_srdhm(r_sat_shl(raw, hra - 1), root_half), 1);
    int32_t ea = r_sat((int64_t)r_sat_shl(in_bits - hra, 31 - acc_bits) + quarter_acc);
    int hrb = r_clz((uint32_t)r_srdhm(raw, root_half)) - 1;
    int32_t rb = r_sat_shl(raw, hrb);
    int32_t eb = r_sat((int64_t)r_sat_shl(in_bits - hrb, 31 - acc_bits) - quarter_acc);
    int32_t r = std::min(ra, rb), e = std::max(ea, eb);
    int64_t ps = (int64_t)r + fourth_root_half;
    int32_t p = (int32_t)((ps + 1) / 2);  // both positive
    int32_t q = 2 * (r - fourth_root_half);
    int32_t q2 = r_srdhm(q, q);
    int32_t num = r_srdhm(q, r) + r_srdhm(r_srdhm(q, q2), 117049297);
    int32_t den = r_srdhm(p, 1057819769 + q + r_srdhm(127690142, q2)) + r_srdhm(638450708, q);
    int32_t acc = r_srdhm(e, ln2) + r_srdhm((int32_t)r_rdbpot(num, acc_bits), r_recip_one_plus(den));
    return r_sat_shl(acc, 1);
}

// TFLite GetInvSqrtQuantizedMultiplierExp(v, reverse_shift = -1).
void r_inv_sqrt(int32_t v, int32_t *inv, int *shift) {
    if (v <= 1) {
        *inv = INT32_MAX;
        *shift = 0;
        return;
    }
    int sh = 11;
    while (v >= (1 << 29)) {
        v /= 4;
        sh++;
    }
    int pairs = (r_clz((uint32_t)v) - 1) / 2 - 1;
    sh -= pairs;
    v <<= 2 * pairs;
    const int32_t half_in = (int32_t)r_rdbpot(v >> 1, 1), three_halves = 3 << 27;
    int32_t x = 1 << 28;
    for (int i = 0; i < 5; i++) {
        int32_t x3 = r_sat_shl(r_srdhm(r_srdhm(x, x), x), 6);
        x = r_sat_shl((int64_t)r_srdhm(three_halves, x) - r_srdhm(half_in, x3), 3);
    }
    x = r_srdhm(x, 1518500250);
    if (sh < 0) {
        x = (int32_t)((uint32_t)x << -sh);
        sh = 0;
    }
    *inv = x;
    *shift = -sh;
}

int8_t clamp8(int64_t v) { return (int8_t)std::max<int64_t>(-128, std::min<int64_t>(127, v)); }

// ---- Reference kernels ----

std::vector<int8_t> ref_l2_s8(const std::vector<int8_t> &x, int depth, int zp) {
    std::vector<int8_t> y(x.size());
    for (size_t r = 0; r < x.size() / depth; r++) {
        int64_t acc = 0;
        for (int k = 0; k < depth; k++) acc += (int64_t)(x[r * depth + k] - zp) * (x[r * depth + k] - zp);
        int32_t inv;
        int sh;
        r_inv_sqrt((int32_t)acc, &inv, &sh);
        for (int k = 0; k < depth; k++) y[r * depth + k] = clamp8(r_mbqm(x[r * depth + k] - zp, inv, sh + 7));
    }
    return y;
}

struct LogSoftmaxParams {
    int32_t m, rm, diff_min;
    int l, rs;
};

LogSoftmaxParams ref_log_softmax_params(float s_in) {
    LogSoftmaxParams p;
    double real = std::min((double)s_in * (double)(1 << 26), 2147483647.0);
    r_qm(real, &p.m, &p.l);
    double rev = (double)(1ll << (31 - p.l)) / (double)p.m;
    r_qm(rev, &p.rm, &p.rs);
    p.diff_min = -(int32_t)std::floor(31.0 * (double)(1ll << 26) / (double)(1ll << p.l));
    return p;
}

std::vector<int8_t> ref_log_softmax_s8(const std::vector<int8_t> &x, int depth, float s_in) {
    LogSoftmaxParams p = ref_log_softmax_params(s_in);
    std::vector<int8_t> y(x.size());
    for (size_t r = 0; r < x.size() / depth; r++) {
        const int8_t *xr = &x[r * depth];
        int mx = *std::max_element(xr, xr + depth);
        int64_t sum = 0;
        for (int k = 0; k < depth; k++) {
            int d = xr[k] - mx;
            if (d >= p.diff_min) sum += r_rdbpot(r_exp_neg(r_mbqm(d, p.m, p.l), 5), 12);
        }
        int32_t lg = r_log_q12_to_q5((int32_t)sum);
        int32_t thr = std::max(p.diff_min - 1, r_mbqm((int32_t)((int64_t)lg + INT32_MIN), p.rm, p.rs));
        for (int k = 0; k < depth; k++) {
            int d = xr[k] - mx;
            y[r * depth + k] =
                d > thr ? clamp8(r_rdbpot((int64_t)r_mbqm(d, p.m, p.l) - lg, 22) + 127) : (int8_t)-128;
        }
    }
    return y;
}

// Real-valued log-softmax of dequantised rows, quantised to (1/16, 127).
int ideal_log_softmax_q(const int8_t *xr, int depth, int k, float s_in) {
    double mx = *std::max_element(xr, xr + depth), sum = 0;
    for (int j = 0; j < depth; j++) sum += std::exp(s_in * (xr[j] - mx));
    double v = s_in * (xr[k] - mx) - std::log(sum);
    return std::max(-128, std::min(127, (int)std::lround(v * 16) + 127));
}

void set_eps(KPlan &p, uint16_t op, float eps) { p.attr(op, TIGRIS_ATTR_EPSILON, &eps, 4); }

// Band of `rows` rows of a rank-2 [R, C] tensor (ROWS mode) with a roll offset.
void row_band(KPlan &p, int rows, int start) {
    auto &t = p.mem.tile;
    t.active = 1;
    t.row_tiled = TIGRIS_ROW_MODE_ROWS;
    t.out_h = rows;
    t.in_h = rows;
    t.in_row_start = start;
    t.out_row_start = start;
}

// ---- The fixed-point building blocks against real math ----

TEST(NormFixedPoint, ReferenceBuildingBlocksApproximateRealFunctions) {
    for (int j = 0; j < 7; j++) EXPECT_NEAR(kExpBarrel[j], std::exp(-std::ldexp(1.0, j - 2)) * 2147483648.0, 1.0);
    for (int32_t a = -(31 << 26); a <= 0; a += 999983)
        EXPECT_NEAR(r_exp_neg(a, 5) / 2147483648.0, std::exp(a / 67108864.0), 2e-7) << a;
    for (int64_t v = 1 << 19; v < (1ll << 31); v = v * 7 / 5 + 11)
        EXPECT_NEAR(r_log_q12_to_q5((int32_t)v) / 67108864.0, std::log(v / 524288.0), 3e-8) << v;
    EXPECT_EQ(r_log_q12_to_q5(1 << 19), 0);
}

// fx_inv_sqrt (fixedpoint.h, reverse shift -1 as the L2 kernel calls it)
// equals the reference above, and inv · 2^shift / 2^31 is 1/sqrt(v) to
// within the Newton iteration's precision, for every normalisation branch
// (v small, near 2^27 and 2^29, above 2^29).
TEST(NormFixedPoint, InverseSqrtMatchesReferenceAndIsAccurate) {
    std::vector<int64_t> vs = {0, 1, 2, 3, 4, 5, 25, 1000, 65025, (1ll << 27) - 1, 1ll << 27, (1ll << 29) - 1,
                               1ll << 29, (1ll << 29) + 12345, 1ll << 30, 2147483647ll};
    for (int64_t v = 6; v < (1ll << 31); v = v * 9 / 7 + 3) vs.push_back(v);
    for (int64_t v : vs) {
        int32_t inv, want_inv, sh;
        int want_sh;
        fx_inv_sqrt((int32_t)v, -1, &inv, &sh);
        r_inv_sqrt((int32_t)v, &want_inv, &want_sh);
        EXPECT_EQ(inv, want_inv) << v;
        EXPECT_EQ(sh, want_sh) << v;
        if (v < 2) continue;
        double got = inv / 2147483648.0 * std::ldexp(1.0, sh);
        EXPECT_NEAR(got * std::sqrt((double)v), 1.0, 2e-6) << v;
    }
}

// ---- LayerNorm f32 ----

TEST(NormF32LayerNorm, HandComputedRowsWithScaleAndBias) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 4}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 4});
    uint16_t op = p.op(TIGRIS_OP_LAYER_NORM, {in}, {out});
    p.ops[op].weight_idx = p.weight(std::vector<float>{1, 2, 3, 4});
    p.ops[op].bias_idx = p.weight(std::vector<float>{0.25f, 0, -1, 1});
    set_eps(p, op, 0.75f);
    p.finish();
    // Row 0: mean 1.5, var 0.25, var + eps = 1 -> inv 1. Row 1: mean 2.5,
    // var 3.25, var + eps = 4 -> inv 0.5.
    p.set<float>(in, {1, 2, 1, 2, 0, 2, 3, 5});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(out), (std::vector<float>{-0.25f, 1.0f, -2.5f, 3.0f, -1.0f, -0.5f, -0.25f, 6.0f}));
}

TEST(NormF32LayerNorm, MatchesDoubleOnOddShapesWithoutBias) {
    for (std::vector<int32_t> shape : {std::vector<int32_t>{1}, {7}, {3, 1}, {2, 3, 5}, {1, 2, 2, 9}}) {
        KPlan p;
        uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, shape), out = p.tensor(TIGRIS_DTYPE_FLOAT32, shape);
        uint16_t op = p.op(TIGRIS_OP_LAYER_NORM, {in}, {out});
        int depth = shape.back();
        auto g = kt::ramp_f32(depth, 3);
        p.ops[op].weight_idx = p.weight(g);
        set_eps(p, op, 1e-5f);
        p.finish();
        size_t n = p.tensors[in].size_bytes / 4;
        auto x = kt::ramp_f32(n, 17);
        p.set(in, x);
        ASSERT_EQ(p.run_f32(op), 0);
        auto y = p.get<float>(out);
        for (size_t r = 0; r < n / depth; r++) {
            double mean = 0, var = 0;
            for (int k = 0; k < depth; k++) mean += x[r * depth + k];
            mean /= depth;
            for (int k = 0; k < depth; k++) var += (x[r * depth + k] - mean) * (x[r * depth + k] - mean);
            var /= depth;
            for (int k = 0; k < depth; k++) {
                double want = (x[r * depth + k] - mean) / std::sqrt(var + 1e-5) * g[k];
                EXPECT_NEAR(y[r * depth + k], want, 1e-4 * (1 + std::fabs(want))) << r << "," << k;
            }
        }
        if (depth == 1)
            for (float v : y) EXPECT_EQ(v, 0.0f);  // a one-element row is its own mean
    }
}

TEST(NormF32LayerNorm, RefusesInconsistentPlans) {
    auto make = [](KPlan &p, int w_len, int b_len, bool eps, float eps_v) {
        uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3});
        uint16_t op = p.op(TIGRIS_OP_LAYER_NORM, {in}, {out});
        if (w_len) p.ops[op].weight_idx = p.weight(std::vector<float>(w_len, 1.0f));
        if (b_len) p.ops[op].bias_idx = p.weight(std::vector<float>(b_len, 0.0f));
        if (eps) set_eps(p, op, eps_v);
        p.finish();
        return op;
    };
    {
        KPlan p;
        uint16_t op = make(p, 3, 3, true, 1e-5f);
        EXPECT_EQ(p.run_f32(op), 0);  // the valid form
    }
    struct Bad {
        int w, b;
        bool eps;
        float e;
    };
    for (Bad b : {Bad{0, 0, true, 1e-5f}, Bad{2, 0, true, 1e-5f}, Bad{3, 2, true, 1e-5f}, Bad{3, 0, false, 0},
                  Bad{3, 0, true, 0.0f}, Bad{3, 0, true, -1.0f}, Bad{3, 0, true, NAN}}) {
        KPlan p;
        uint16_t op = make(p, b.w, b.b, b.eps, b.e);
        EXPECT_EQ(p.run_f32(op), -1) << b.w << " " << b.b << " " << b.eps << " " << b.e;
    }
    {  // bias index past the weight table
        KPlan p;
        uint16_t op = make(p, 3, 0, true, 1e-5f);
        p.ops[op].bias_idx = 7;
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {  // output of another element count
        KPlan p;
        uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 3});
        uint16_t op = p.op(TIGRIS_OP_LAYER_NORM, {in}, {out});
        p.ops[op].weight_idx = p.weight(std::vector<float>(3, 1.0f));
        set_eps(p, op, 1e-5f);
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
}

// ---- LogSoftmax f32 ----

TEST(NormF32LogSoftmax, HandComputedAndDoubleRows) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 2}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 2});
    uint16_t op = p.op(TIGRIS_OP_LOG_SOFTMAX, {in}, {out});
    p.finish();
    // exp(-200) is 0 in float: the sum is exactly 1 and its log 0.
    p.set<float>(in, {0, -200, 7, 7, -1, 3});
    ASSERT_EQ(p.run_f32(op), 0);
    auto y = p.get<float>(out);
    EXPECT_EQ(y[0], 0.0f);
    EXPECT_EQ(y[1], -200.0f);
    EXPECT_NEAR(y[2], -std::log(2.0), 1e-7);
    EXPECT_EQ(y[2], y[3]);
    EXPECT_NEAR(y[4], -4 - std::log(1 + std::exp(-4.0)), 1e-6);
    EXPECT_NEAR(y[5], -std::log(1 + std::exp(-4.0)), 1e-6);

    KPlan q;
    uint16_t qi = q.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3, 7}), qo = q.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3, 7});
    uint16_t qop = q.op(TIGRIS_OP_LOG_SOFTMAX, {qi}, {qo});
    q.finish();
    auto x = kt::ramp_f32(42, 5);
    q.set(qi, x);
    ASSERT_EQ(q.run_f32(qop), 0);
    auto z = q.get<float>(qo);
    for (int r = 0; r < 6; r++) {
        double s = 0;
        for (int k = 0; k < 7; k++) s += std::exp((double)x[r * 7 + k]);
        for (int k = 0; k < 7; k++) EXPECT_NEAR(z[r * 7 + k], x[r * 7 + k] - std::log(s), 2e-6);
    }
}

// ---- L2Normalization f32 ----

TEST(NormF32L2Norm, HandComputedEpsilonFloorAndZeroRow) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 2}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 2});
    uint16_t op = p.op(TIGRIS_OP_L2_NORMALIZATION, {in}, {out});
    set_eps(p, op, 0.5f);
    p.finish();
    // [3,4] -> norm 5; [0.1, 0] -> norm 0.1 floored at 0.5; zeros stay zero.
    p.set<float>(in, {3, 4, 0.25f, 0, 0, 0});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(out), (std::vector<float>{0.6f, 0.8f, 0.5f, 0, 0, 0}));

    KPlan z;  // eps 0: a zero row gives zeros, not NaN
    uint16_t zi = z.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3}), zo = z.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3});
    uint16_t zop = z.op(TIGRIS_OP_L2_NORMALIZATION, {zi}, {zo});
    set_eps(z, zop, 0.0f);
    z.finish();
    z.set<float>(zi, {0, 0, 0, 2, -1, 2});
    ASSERT_EQ(z.run_f32(zop), 0);
    auto y = z.get<float>(zo);
    EXPECT_EQ(y, (std::vector<float>{0, 0, 0, 2.0f / 3, -1.0f / 3, 2.0f / 3}));
}

TEST(NormF32L2Norm, MatchesDoubleAndRefusesWithoutEpsilon) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 3, 3, 5}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 3, 3, 5});
    uint16_t op = p.op(TIGRIS_OP_L2_NORMALIZATION, {in}, {out});
    set_eps(p, op, 1e-6f);
    p.finish();
    auto x = kt::ramp_f32(45, 8);
    p.set(in, x);
    ASSERT_EQ(p.run_f32(op), 0);
    auto y = p.get<float>(out);
    for (int r = 0; r < 9; r++) {
        double s = 0;
        for (int k = 0; k < 5; k++) s += (double)x[r * 5 + k] * x[r * 5 + k];
        for (int k = 0; k < 5; k++) EXPECT_NEAR(y[r * 5 + k], x[r * 5 + k] / std::sqrt(s), 1e-6);
    }
    KPlan q;
    uint16_t qi = q.tensor(TIGRIS_DTYPE_FLOAT32, {4}), qo = q.tensor(TIGRIS_DTYPE_FLOAT32, {4});
    uint16_t qop = q.op(TIGRIS_OP_L2_NORMALIZATION, {qi}, {qo});
    q.finish();
    EXPECT_EQ(q.run_f32(qop), -1);
}

// Every float kernel under a rolled row band: only the band's rows, in
// place at the roll offset, each row normalised on its own.
TEST(NormF32Bands, RowBandsProcessWholeRowsAtTheRollOffset) {
    for (uint8_t type : {TIGRIS_OP_LAYER_NORM, TIGRIS_OP_LOG_SOFTMAX, TIGRIS_OP_L2_NORMALIZATION}) {
        // Reference: the same kernel on a whole 2-row tensor.
        auto build = [type](KPlan &p, std::vector<int32_t> shape) {
            uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, shape), out = p.tensor(TIGRIS_DTYPE_FLOAT32, shape);
            uint16_t op = p.op(type, {in}, {out});
            if (type == TIGRIS_OP_LAYER_NORM) p.ops[op].weight_idx = p.weight(std::vector<float>{1, -2, 0.5f});
            if (type != TIGRIS_OP_LOG_SOFTMAX) set_eps(p, op, 1e-3f);
            p.finish();
            return op;
        };
        KPlan whole;
        uint16_t wop = build(whole, {2, 3});
        auto x = kt::ramp_f32(12, 4);
        whole.set(0, std::vector<float>(x.begin() + 6, x.end()));
        ASSERT_EQ(whole.run_f32(wop), 0);
        auto want = whole.get<float>(1);

        KPlan band;
        uint16_t bop = build(band, {6, 3});
        std::vector<float> xb(x.begin(), x.end()), yb(12, 99.0f);  // band buffers of 4 rows
        band.ptrs[0] = xb.data();
        band.ptrs[1] = yb.data();
        row_band(band, 2, 2);
        ASSERT_EQ(band.run_f32(bop), 0) << (int)type;
        for (int i = 0; i < 6; i++) EXPECT_EQ(yb[i], 99.0f) << (int)type;
        for (int i = 0; i < 6; i++) EXPECT_EQ(yb[6 + i], want[i]) << (int)type << " " << i;
        // A band that would run past the tensor is refused.
        row_band(band, 2, 5);
        EXPECT_EQ(band.run_f32(bop), -1);

        // Leading-axis band of a [1, 6, 3] tensor: rows of the axis after the unit one.
        KPlan lead;
        uint16_t lop = build(lead, {1, 6, 3});
        std::vector<float> yl(12, 99.0f);
        lead.ptrs[0] = xb.data();
        lead.ptrs[1] = yl.data();
        row_band(lead, 2, 2);
        lead.mem.tile.row_tiled = TIGRIS_ROW_MODE_LEADING;
        ASSERT_EQ(lead.run_f32(lop), 0);
        for (int i = 0; i < 6; i++) EXPECT_EQ(yl[i], 99.0f);
        for (int i = 0; i < 6; i++) EXPECT_EQ(yl[6 + i], want[i]) << (int)type << " " << i;

        // Rows band of a [2, 4, 3] tensor without a roll: two rows of each batch.
        KPlan batch;
        uint16_t bbop = build(batch, {2, 4, 3});
        std::vector<float> xs(x.begin(), x.end()), ys(12, 99.0f);
        batch.ptrs[0] = xs.data();
        batch.ptrs[1] = ys.data();
        row_band(batch, 2, 0);
        ASSERT_EQ(batch.run_f32(bbop), 0);
        KPlan flat;
        uint16_t fop = build(flat, {4, 3});
        flat.set(0, x);
        ASSERT_EQ(flat.run_f32(fop), 0);
        EXPECT_EQ(ys, flat.get<float>(1)) << (int)type;
        // A rolled band is refused when there is more than one batch.
        row_band(batch, 2, 1);
        EXPECT_EQ(batch.run_f32(bbop), -1);
    }
}

// A ROWS band over a rank-1 tensor would split its only row: refused.
TEST(NormF32Bands, PartialRowsAreRefused) {
    for (uint8_t type : {TIGRIS_OP_LAYER_NORM, TIGRIS_OP_LOG_SOFTMAX, TIGRIS_OP_L2_NORMALIZATION}) {
        KPlan p;
        uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {6}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {6});
        uint16_t op = p.op(type, {in}, {out});
        p.ops[op].weight_idx = p.weight(std::vector<float>(6, 1.0f));
        if (type != TIGRIS_OP_LOG_SOFTMAX) set_eps(p, op, 1e-3f);
        p.finish();
        if (type != TIGRIS_OP_LAYER_NORM) p.ops[op].weight_idx = TIGRIS_NONE16;
        ASSERT_EQ(p.run_f32(op), 0) << (int)type;
        row_band(p, 2, 0);
        EXPECT_EQ(p.run_f32(op), -1) << (int)type;
    }
}

// ---- L2Normalization int8 ----

TEST(NormS8L2Norm, HandComputedRows) {
    KPlan p;
    uint16_t qi = p.quant(0.02f, 0), qo = p.quant(1.0f / 128, 0);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {3, 2}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {3, 2}, qo);
    uint16_t op = p.op(TIGRIS_OP_L2_NORMALIZATION, {in}, {out});
    set_eps(p, op, 1e-6f);
    p.finish();
    // [3,4]: 0.6·128 = 76.8, 0.8·128 = 102.4; [0,-9]: -1 -> -128; zeros: 0.
    p.set<int8_t>(in, {3, 4, 0, -9, 0, 0});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<int8_t>(out), (std::vector<int8_t>{77, 102, 0, -128, 0, 0}));
}

TEST(NormS8L2Norm, MatchesTfliteIntegerAlgorithm) {
    for (int zp : {0, -128, 37, 127}) {
        for (std::vector<int32_t> shape :
             {std::vector<int32_t>{1}, {5, 1}, {4, 3}, {2, 2, 7}, {1, 3, 2, 33}, {2, 300}}) {
            KPlan p;
            uint16_t qi = p.quant(0.05f, zp), qo = p.quant(1.0f / 128, 0);
            uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, shape, qi), out = p.tensor(TIGRIS_DTYPE_INT8, shape, qo);
            uint16_t op = p.op(TIGRIS_OP_L2_NORMALIZATION, {in}, {out});
            set_eps(p, op, 1e-6f);
            p.finish();
            size_t n = p.tensors[in].size_bytes;
            auto x = kt::ramp_s8(n, (uint32_t)(n + zp));
            if (n > 3) x[1] = (int8_t)zp;  // a zero difference
            p.set(in, x);
            ASSERT_EQ(p.run_s8(op), 0);
            auto y = p.get<int8_t>(out);
            int depth = shape.back();
            EXPECT_EQ(y, ref_l2_s8(x, depth, zp)) << "zp " << zp << " depth " << depth;
            for (size_t r = 0; r < n / depth; r++) {
                double s = 0;
                for (int k = 0; k < depth; k++) s += (double)(x[r * depth + k] - zp) * (x[r * depth + k] - zp);
                for (int k = 0; k < depth; k++) {
                    double ideal = s > 1 ? 128.0 * (x[r * depth + k] - zp) / std::sqrt(s) : 0.0;
                    EXPECT_NEAR(y[r * depth + k], std::max(-128.0, std::min(127.0, ideal)), 1.0);
                }
            }
        }
    }
}

TEST(NormS8L2Norm, RefusesOtherOutputEncodingsAndOverflowingSums) {
    for (auto [scale, zp] : {std::pair<float, int>{1.0f / 64, 0}, {1.0f / 128, 1}, {1.0f / 128, -128}}) {
        KPlan p;
        uint16_t qi = p.quant(0.05f, 0), qo = p.quant(scale, zp);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {4}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {4}, qo);
        uint16_t op = p.op(TIGRIS_OP_L2_NORMALIZATION, {in}, {out});
        set_eps(p, op, 1e-6f);
        p.finish();
        EXPECT_EQ(p.run_s8(op), -1) << scale << " " << zp;
    }
    {  // no quant record on the input
        KPlan p;
        uint16_t qo = p.quant(1.0f / 128, 0);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {4}), out = p.tensor(TIGRIS_DTYPE_INT8, {4}, qo);
        uint16_t op = p.op(TIGRIS_OP_L2_NORMALIZATION, {in}, {out});
        p.finish();
        EXPECT_EQ(p.run_s8(op), -1);
    }
    // 33026 differences of 255: the sum of squares exceeds INT32_MAX.
    for (int depth : {33025, 33026}) {
        KPlan p;
        uint16_t qi = p.quant(0.05f, 127), qo = p.quant(1.0f / 128, 0);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {depth}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {depth}, qo);
        uint16_t op = p.op(TIGRIS_OP_L2_NORMALIZATION, {in}, {out});
        p.finish();
        p.set(in, std::vector<int8_t>(depth, -128));
        EXPECT_EQ(p.run_s8(op), depth == 33025 ? 0 : -1) << depth;
    }
}

// ---- LogSoftmax int8 ----

TEST(NormS8LogSoftmax, PrepareParametersFollowTflite) {
    // Independent spot values: s_in = 1/16 -> s·2^26 = 2^22 exactly:
    // multiplier 2^30, left shift 23, reverse 2^8/2^30 = 2^-22.
    LogSoftmaxParams p = ref_log_softmax_params(1.0f / 16);
    EXPECT_EQ(p.m, 1 << 30);
    EXPECT_EQ(p.l, 23);
    EXPECT_EQ(p.rm, 1 << 30);
    EXPECT_EQ(p.rs, -21);
    EXPECT_EQ(p.diff_min, -248);  // 31·2^26 / 2^23
}

TEST(NormS8LogSoftmax, UniformAndSingleElementRows) {
    KPlan p;
    uint16_t qi = p.quant(0.1f, 5), qo = p.quant(1.0f / 16, 127);
    uint16_t a = p.tensor(TIGRIS_DTYPE_INT8, {2, 4}, qi), ya = p.tensor(TIGRIS_DTYPE_INT8, {2, 4}, qo);
    uint16_t b = p.tensor(TIGRIS_DTYPE_INT8, {3, 1}, qi), yb = p.tensor(TIGRIS_DTYPE_INT8, {3, 1}, qo);
    uint16_t oa = p.op(TIGRIS_OP_LOG_SOFTMAX, {a}, {ya}), ob = p.op(TIGRIS_OP_LOG_SOFTMAX, {b}, {yb});
    p.finish();
    p.set<int8_t>(a, {9, 9, 9, 9, -128, -128, -128, -128});
    p.set<int8_t>(b, {-128, 0, 127});
    ASSERT_EQ(p.run_s8(oa), 0);
    ASSERT_EQ(p.run_s8(ob), 0);
    // -ln 4 · 16 = -22.18 -> -22 + 127 = 105; a lone element has log-probability 0 -> 127.
    EXPECT_EQ(p.get<int8_t>(ya), std::vector<int8_t>(8, 105));
    EXPECT_EQ(p.get<int8_t>(yb), std::vector<int8_t>(3, 127));
}

TEST(NormS8LogSoftmax, MatchesTfliteIntegerAlgorithm) {
    for (float s_in : {0.1f, 0.0390625f, 0.6f, 0.01f, 0.003f, 1.7f, 40.0f}) {
        for (int zp : {0, -77}) {
            for (std::vector<int32_t> shape : {std::vector<int32_t>{9}, {5, 10}, {2, 3, 1}, {1, 2, 2, 31}}) {
                KPlan p;
                uint16_t qi = p.quant(s_in, zp), qo = p.quant(1.0f / 16, 127);
                uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, shape, qi), out = p.tensor(TIGRIS_DTYPE_INT8, shape, qo);
                uint16_t op = p.op(TIGRIS_OP_LOG_SOFTMAX, {in}, {out});
                p.finish();
                size_t n = p.tensors[in].size_bytes;
                auto x = kt::ramp_s8(n, (uint32_t)(n * 31 + (uint32_t)zp));
                p.set(in, x);
                ASSERT_EQ(p.run_s8(op), 0);
                auto y = p.get<int8_t>(out);
                int depth = shape.back();
                ASSERT_EQ(y, ref_log_softmax_s8(x, depth, s_in)) << "s " << s_in << " depth " << depth;
                for (size_t i = 0; i < n; i++)
                    EXPECT_NEAR(y[i], ideal_log_softmax_q(&x[i / depth * depth], depth, (int)(i % depth), s_in), 1.0)
                        << "s " << s_in << " i " << i;
            }
        }
    }
}

TEST(NormS8LogSoftmax, InPlaceRowBand) {
    // Output sharing the input's buffer, under a rolled band of 2 rows.
    KPlan p;
    uint16_t qi = p.quant(0.2f, 0), qo = p.quant(1.0f / 16, 127);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {6, 5}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {6, 5}, qo);
    uint16_t op = p.op(TIGRIS_OP_LOG_SOFTMAX, {in}, {out});
    p.finish();
    auto x = kt::ramp_s8(20, 3);
    std::vector<int8_t> buf = x;
    p.ptrs[in] = buf.data();
    p.ptrs[out] = buf.data();
    row_band(p, 2, 2);
    ASSERT_EQ(p.run_s8(op), 0);
    auto want = ref_log_softmax_s8(std::vector<int8_t>(x.begin() + 10, x.end()), 5, 0.2f);
    for (int i = 0; i < 10; i++) EXPECT_EQ(buf[i], x[i]);
    for (int i = 0; i < 10; i++) EXPECT_EQ(buf[10 + i], want[i]) << i;
}

TEST(NormS8LogSoftmax, RefusesOtherEncodingsAndTinyInputScales) {
    struct Enc {
        float s_in, s_out;
        int zp;
    };
    // The real multiplier s_in·2^26 must exceed 1 (TFLite's
    // QuantizeMultiplierGreaterThanOne): 2^-26 and below are refused.
    for (Enc e : {Enc{0.1f, 1.0f / 16, 126}, Enc{0.1f, 1.0f / 8, 127}, Enc{0.1f, 1.0f / 256, -128},
                  Enc{std::ldexp(1.0f, -26), 1.0f / 16, 127}, Enc{1e-9f, 1.0f / 16, 127}}) {
        KPlan p;
        uint16_t qi = p.quant(e.s_in, 0), qo = p.quant(e.s_out, e.zp);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {4}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {4}, qo);
        uint16_t op = p.op(TIGRIS_OP_LOG_SOFTMAX, {in}, {out});
        p.finish();
        EXPECT_EQ(p.run_s8(op), -1) << e.s_in << " " << e.s_out << " " << e.zp;
    }
    {  // just above the limit works
        KPlan p;
        uint16_t qi = p.quant(std::nextafter(std::ldexp(1.0f, -26), 1.0f), 0), qo = p.quant(1.0f / 16, 127);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {4}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {4}, qo);
        uint16_t op = p.op(TIGRIS_OP_LOG_SOFTMAX, {in}, {out});
        p.finish();
        EXPECT_EQ(p.run_s8(op), 0);
    }
    {  // shape mismatch
        KPlan p;
        uint16_t qi = p.quant(0.1f, 0), qo = p.quant(1.0f / 16, 127);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {2, 4}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {4, 2}, qo);
        uint16_t op = p.op(TIGRIS_OP_LOG_SOFTMAX, {in}, {out});
        p.finish();
        EXPECT_EQ(p.run_s8(op), -1);
    }
}

// ---- LayerNorm int8 (float statistics) ----

TEST(NormS8LayerNorm, HandComputedRows) {
    KPlan p;
    uint16_t qi = p.quant(0.5f, -3), qo = p.quant(1.0f / 16, 10);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {2, 4}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {2, 4}, qo);
    uint16_t op = p.op(TIGRIS_OP_LAYER_NORM, {in}, {out});
    p.ops[op].weight_idx = p.weight(std::vector<float>{1, 2, 3, 4});
    p.ops[op].bias_idx = p.weight(std::vector<float>{0.25f, 0, -1, 1});
    set_eps(p, op, 0.75f);
    p.finish();
    // Real rows [1,2,1,2] and [0,2,3,5] (as in the float test): normalised
    // [-0.25, 1, -2.5, 3] and [-1, -0.5, -0.25, 6]; ·16 + 10, clamped.
    p.set<int8_t>(in, {-1, 1, -1, 1, -3, 1, 3, 7});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<int8_t>(out), (std::vector<int8_t>{6, 26, -30, 58, -6, 2, 6, 106}));
}

TEST(NormS8LayerNorm, MatchesDoubleWithinOneStep) {
    for (std::vector<int32_t> shape : {std::vector<int32_t>{6}, {3, 1}, {2, 3, 11}}) {
        KPlan p;
        float s_in = 0.037f, s_out = 0.021f;
        uint16_t qi = p.quant(s_in, 12), qo = p.quant(s_out, -5);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, shape, qi), out = p.tensor(TIGRIS_DTYPE_INT8, shape, qo);
        uint16_t op = p.op(TIGRIS_OP_LAYER_NORM, {in}, {out});
        int depth = shape.back();
        auto g = kt::ramp_f32(depth, 1), bvec = kt::ramp_f32(depth, 2);
        p.ops[op].weight_idx = p.weight(g);
        p.ops[op].bias_idx = p.weight(bvec);
        set_eps(p, op, 1e-5f);
        p.finish();
        size_t n = p.tensors[in].size_bytes;
        auto x = kt::ramp_s8(n, 77);
        p.set(in, x);
        ASSERT_EQ(p.run_s8(op), 0);
        auto y = p.get<int8_t>(out);
        for (size_t r = 0; r < n / depth; r++) {
            double mean = 0, var = 0;
            for (int k = 0; k < depth; k++) mean += s_in * (x[r * depth + k] - 12);
            mean /= depth;
            for (int k = 0; k < depth; k++) var += std::pow(s_in * (x[r * depth + k] - 12) - mean, 2);
            var /= depth;
            for (int k = 0; k < depth; k++) {
                double v = (s_in * (x[r * depth + k] - 12) - mean) / std::sqrt(var + 1e-5) * g[k] + bvec[k];
                double want = std::max(-128.0, std::min(127.0, std::round(v / s_out) - 5));
                EXPECT_NEAR(y[r * depth + k], want, 1.0) << r << "," << k;
            }
        }
    }
}

TEST(NormS8LayerNorm, RefusesMissingQuantOrAttributes) {
    auto run = [](bool qin, bool eps, bool weight) {
        KPlan p;
        uint16_t qi = p.quant(0.5f, 0), qo = p.quant(0.1f, 0);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {2, 3}, qin ? qi : TIGRIS_NONE16);
        uint16_t out = p.tensor(TIGRIS_DTYPE_INT8, {2, 3}, qo);
        uint16_t op = p.op(TIGRIS_OP_LAYER_NORM, {in}, {out});
        if (weight) p.ops[op].weight_idx = p.weight(std::vector<float>(3, 1.0f));
        if (eps) set_eps(p, op, 1e-5f);
        p.finish();
        return p.run_s8(op);
    };
    EXPECT_EQ(run(true, true, true), 0);
    EXPECT_EQ(run(false, true, true), -1);
    EXPECT_EQ(run(true, false, true), -1);
    EXPECT_EQ(run(true, true, false), -1);
}

// int8 kernels under a rolled row band: only the band's rows are written.
TEST(NormS8Bands, RowBandsProcessWholeRows) {
    for (uint8_t type : {TIGRIS_OP_LAYER_NORM, TIGRIS_OP_L2_NORMALIZATION, TIGRIS_OP_LOG_SOFTMAX}) {
        auto build = [type](KPlan &p, std::vector<int32_t> shape) {
            uint16_t qi = p.quant(0.1f, 3);
            uint16_t qo = type == TIGRIS_OP_L2_NORMALIZATION ? p.quant(1.0f / 128, 0)
                          : type == TIGRIS_OP_LOG_SOFTMAX    ? p.quant(1.0f / 16, 127)
                                                             : p.quant(0.05f, -2);
            uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, shape, qi), out = p.tensor(TIGRIS_DTYPE_INT8, shape, qo);
            uint16_t op = p.op(type, {in}, {out});
            if (type == TIGRIS_OP_LAYER_NORM) p.ops[op].weight_idx = p.weight(std::vector<float>{1, 0.5f, 2, -1});
            if (type != TIGRIS_OP_LOG_SOFTMAX) set_eps(p, op, 1e-5f);
            p.finish();
            return op;
        };
        auto x = kt::ramp_s8(16, 9);
        KPlan whole;
        uint16_t wop = build(whole, {2, 4});
        whole.set(0, std::vector<int8_t>(x.begin() + 8, x.end()));
        ASSERT_EQ(whole.run_s8(wop), 0);
        auto want = whole.get<int8_t>(1);

        KPlan band;  // [1, 5, 1, 4] striped: rows of W·C = 4, buffers of 4 rows
        uint16_t bop = build(band, {1, 5, 1, 4});
        std::vector<int8_t> xb = x, yb(16, 99);
        band.ptrs[0] = xb.data();
        band.ptrs[1] = yb.data();
        auto &t = band.mem.tile;
        t.active = 1;
        t.out_h = 2;
        t.in_h = 2;
        t.out_w = 1;
        t.in_w = 1;
        t.in_row_start = 2;
        t.out_row_start = 2;
        ASSERT_EQ(band.run_s8(bop), 0) << (int)type;
        for (int i = 0; i < 8; i++) EXPECT_EQ(yb[i], 99) << (int)type;
        for (int i = 0; i < 8; i++) EXPECT_EQ(yb[8 + i], want[i]) << (int)type << " " << i;
    }
}

}  // namespace
