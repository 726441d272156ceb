// Unary family kernels (ref/unary.c, s8/unary.c) against references written
// independently here: float ops against double-precision math and hand
// values; int8 Abs/Rsqrt/HardSwish against TFLite's algorithms re-derived in
// the test with float/double parameter derivation (frexp, float division as
// TFLite's Prepare does) and plain int64 / double rounding formulas instead of
// the kernels' integer helpers; int8 Elu/Erf against their table formulas.
#include <algorithm>
#include <cmath>
#include <limits>

#include "test_kernels_plan.h"

extern "C" {
#include "../../core/src/kernels/s8/fixedpoint.h"
}

using kt::KPlan;

namespace {

// ---- Reference arithmetic (differently structured from fixedpoint.h) ----

// SRDHM rounds p / 2^31 half upward: floor((p + 2^30) / 2^31).
int32_t r_srdhm(int32_t a, int32_t b) {
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    int64_t p = (int64_t)a * b;
    return (int32_t)((p + (1ll << 30)) >> 31);  // arithmetic shift = floor
}

int32_t r_sat(int64_t v) {
    return (int32_t)std::min<int64_t>(std::max<int64_t>(v, INT32_MIN), INT32_MAX);
}

// Round half away from zero of x / 2^e, exact in double.
int32_t r_rdbpot(int32_t x, int e) { return e <= 0 ? x : (int32_t)std::round(std::ldexp((double)x, -e)); }

int32_t r_em(int32_t v, int32_t m, int s) {
    int32_t shifted = r_sat((int64_t)v * (1ll << std::min(std::max(s, 0), 31)));
    int32_t p = r_srdhm(shifted, m);
    return s < -31 ? 0 : r_rdbpot(p, std::max(-s, 0));
}

// TFLite QuantizeMultiplier of a double.
void r_qm(double v, int32_t *m, int *s) {
    if (v == 0) {
        *m = 0;
        *s = 0;
        return;
    }
    int e;
    double q = std::frexp(v, &e);
    int64_t qf = (int64_t)std::round(q * 2147483648.0);
    if (qf == (1ll << 31)) {
        qf /= 2;
        e++;
    }
    if (e < -31) {
        qf = 0;
        e = 0;
    }
    *m = (int32_t)qf;
    *s = e;
}

// GetInvSqrtQuantizedMultiplierExp, with the normalisation found by search
// instead of counting leading zeros.
void r_inv_sqrt(int32_t v, int rev, int32_t *inv, int *shift) {
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
    int p = 0;
    while ((int64_t)v << (2 * (p + 1)) < (1ll << 29)) p++;
    sh -= p;
    v <<= 2 * p;
    EXPECT_GE(v, 1 << 27);
    EXPECT_LT(v, 1 << 29);
    int32_t x_in = v >> 1;
    int32_t half = (x_in + 1) >> 1;  // positive: half away
    int32_t x = 1 << 28;
    for (int i = 0; i < 5; i++) {
        int32_t x3 = r_sat((int64_t)r_srdhm(r_srdhm(x, x), x) * 64);
        int64_t d = (int64_t)r_srdhm((1 << 28) + (1 << 27), x) - r_srdhm(half, x3);
        x = r_sat((int64_t)(int32_t)d * 8);
    }
    x = r_srdhm(x, 1518500250);
    if (sh < 0) {
        x = (int32_t)((uint32_t)x << -sh);
        sh = 0;
    }
    *inv = x;
    *shift = sh * rev;
}

uint32_t bits_of(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

// One unary op between tensors of the given shape (f32 or int8).
struct Un {
    KPlan p;
    uint16_t in, out, op;
    Un(uint8_t opcode, uint8_t dtype, std::vector<int32_t> shape, float si = 0, int zi = 0, float so = 0, int zo = 0,
       std::vector<int32_t> oshape = {}) {
        uint16_t qi = TIGRIS_NONE16, qo = TIGRIS_NONE16;
        if (si != 0) qi = p.quant(si, zi);
        if (so != 0) qo = p.quant(so, zo);
        in = p.tensor(dtype, shape, qi);
        out = p.tensor(dtype, oshape.empty() ? shape : oshape, qo);
        op = p.op(opcode, {in}, {out});
        p.finish();
    }
};

std::vector<int8_t> all_s8() {
    std::vector<int8_t> v;
    for (int x = -128; x <= 127; x++) v.push_back((int8_t)x);
    return v;
}

}  // namespace

// ---- fx_inv_sqrt ----

TEST(UnaryInvSqrt, SmallInputsGiveTheSaturatedMultiplier) {
    for (int32_t v : {-5, 0, 1}) {
        int32_t inv = 0, sh = 7;
        fx_inv_sqrt(v, -1, &inv, &sh);
        EXPECT_EQ(inv, INT32_MAX);
        EXPECT_EQ(sh, 0);
    }
}

// Hand-checked: both 4 and 16 normalise to 2^28 (Q3.28 0.5, whose inverse
// root times sqrt(1/2) is 1.0 in Q3.28 = 2^28), with internal shifts -2 and
// -1 applied as left shifts: 4 -> 2^30 (0.5), 16 -> 2^29 (0.25), shift 0.
// 2^30 reduces to 2^28 with shift 11 + 1 and no normalisation: 2^28 << 0,
// shift 12 - 0... i.e. 2^-15 = 2^28 / 2^31 * 2^-12.
TEST(UnaryInvSqrt, HandCheckedPowersOfFour) {
    int32_t inv, sh;
    fx_inv_sqrt(4, -1, &inv, &sh);
    EXPECT_EQ(sh, 0);
    EXPECT_NEAR(inv, 1 << 30, 8);
    fx_inv_sqrt(16, -1, &inv, &sh);
    EXPECT_EQ(sh, 0);
    EXPECT_NEAR(inv, 1 << 29, 4);
    int32_t inv2, sh2;
    fx_inv_sqrt(16, 1, &inv2, &sh2);  // reverse_shift only signs the exponent
    EXPECT_EQ(inv2, inv);
    EXPECT_EQ(sh2, 0);
    fx_inv_sqrt(1 << 30, -1, &inv, &sh);
    EXPECT_EQ(sh, -12);
    EXPECT_NEAR(inv, 1 << 28, 4);
    fx_inv_sqrt(1 << 30, 1, &inv, &sh);
    EXPECT_EQ(sh, 12);
}

TEST(UnaryInvSqrt, MatchesIndependentFormulationAndDouble) {
    std::vector<int32_t> vs;
    for (int32_t v = 2; v < 5000; v++) vs.push_back(v);
    for (int64_t v = 5000; v < INT32_MAX; v = v * 37 / 29 + 11) vs.push_back((int32_t)v);
    for (int k = 2; k < 31; k++) {
        vs.push_back((int32_t)((1ll << k) - 1));
        vs.push_back((int32_t)(1ll << k));
    }
    vs.push_back(INT32_MAX);
    for (int32_t v : vs) {
        int32_t inv, sh, rinv;
        int rsh;
        fx_inv_sqrt(v, -1, &inv, &sh);
        r_inv_sqrt(v, -1, &rinv, &rsh);
        ASSERT_EQ(inv, rinv) << v;
        ASSERT_EQ(sh, rsh) << v;
        double got = std::ldexp((double)inv, sh - 31);
        double want = 1.0 / std::sqrt((double)v);
        // Five Newton steps from 1 have not fully converged for normalised
        // inputs near 1/4 (relative error ~1.2e-6 there); elsewhere the
        // Q3.28 rounding and the truncations v/4, v>>1 dominate.
        ASSERT_NEAR(got / want, 1.0, 1.5e-6) << v;
    }
}

// ---- float32 kernels ----

TEST(F32UnaryMath, EveryOpAgainstDouble) {
    struct C {
        uint8_t op;
        double (*f)(double);
        float lo, hi;
    };
    const C cs[] = {
        {TIGRIS_OP_ABS, [](double x) { return std::fabs(x); }, -5, 5},
        {TIGRIS_OP_RSQRT, [](double x) { return 1.0 / std::sqrt(x); }, 0.01f, 50},
        {TIGRIS_OP_NEG, [](double x) { return -x; }, -5, 5},
        {TIGRIS_OP_EXP, [](double x) { return std::exp(x); }, -10, 10},
        {TIGRIS_OP_LOG, [](double x) { return std::log(x); }, 0.001f, 100},
        {TIGRIS_OP_SQRT, [](double x) { return std::sqrt(x); }, 0, 100},
        {TIGRIS_OP_SQUARE, [](double x) { return x * x; }, -7, 7},
        {TIGRIS_OP_SIN, [](double x) { return std::sin(x); }, -6, 6},
        {TIGRIS_OP_COS, [](double x) { return std::cos(x); }, -6, 6},
        {TIGRIS_OP_ERF, [](double x) { return std::erf(x); }, -3, 3},
        {TIGRIS_OP_HARDSWISH, [](double x) { return x * std::min(6.0, std::max(0.0, x + 3)) / 6; }, -5, 5},
        {TIGRIS_OP_ELU, [](double x) { return x < 0 ? std::expm1(x) : x; }, -6, 4},
    };
    for (const C &c : cs) {
        Un u(c.op, TIGRIS_DTYPE_FLOAT32, {3, 1, 7});
        std::vector<float> x(21);
        for (int i = 0; i < 21; i++) x[i] = c.lo + (c.hi - c.lo) * (float)i / 20.0f;
        u.p.set(u.in, x);
        ASSERT_EQ(u.p.run_f32(u.op), 0) << (int)c.op;
        auto y = u.p.get<float>(u.out);
        for (int i = 0; i < 21; i++) {
            double w = c.f((double)x[i]);
            EXPECT_NEAR(y[i], w, 2e-6 * std::max(1.0, std::fabs(w))) << (int)c.op << " x=" << x[i];
        }
    }
}

TEST(F32UnaryMath, HandValuesRoundingAndSpecials) {
    auto run = [](uint8_t op, std::vector<float> x) {
        Un u(op, TIGRIS_DTYPE_FLOAT32, {(int32_t)x.size()});
        u.p.set(u.in, x);
        EXPECT_EQ(u.p.run_f32(u.op), 0);
        return u.p.get<float>(u.out);
    };
    // Round: half to even (TFLite's RoundToNearest), not half away.
    EXPECT_EQ(run(TIGRIS_OP_ROUND, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.6f, -2.4f, 1e10f, 8388609.0f}),
              (std::vector<float>{0, 2, 2, -0.0f, -2, -2, 3, -2, 1e10f, 8388609.0f}));
    // TFLite's RoundToNearest returns floor + 1 = +0 for -0.5 and -0.4.
    EXPECT_FALSE(std::signbit(run(TIGRIS_OP_ROUND, {-0.5f})[0]));
    EXPECT_FALSE(std::signbit(run(TIGRIS_OP_ROUND, {-0.4f})[0]));
    EXPECT_EQ(run(TIGRIS_OP_FLOOR, {-1.5f, -1.0f, 0.25f, 2.999f}), (std::vector<float>{-2, -1, 0, 2}));
    EXPECT_EQ(run(TIGRIS_OP_CEIL, {-1.5f, -1.0f, 0.25f, 2.001f}), (std::vector<float>{-1, -1, 1, 3}));
    EXPECT_EQ(run(TIGRIS_OP_NEG, {1.0f, -2.0f, 0.0f}), (std::vector<float>{-1, 2, -0.0f}));
    EXPECT_EQ(run(TIGRIS_OP_SQUARE, {-3.0f, 0.5f}), (std::vector<float>{9, 0.25f}));
    EXPECT_EQ(run(TIGRIS_OP_ABS, {-3.0f, 0.5f}), (std::vector<float>{3, 0.5f}));
    EXPECT_EQ(run(TIGRIS_OP_RSQRT, {4.0f, 0.25f}), (std::vector<float>{0.5f, 2.0f}));
    EXPECT_EQ(run(TIGRIS_OP_SQRT, {9.0f, 0.0f}), (std::vector<float>{3, 0}));
    EXPECT_EQ(run(TIGRIS_OP_HARDSWISH, {-4.0f, -3.0f, 3.0f, 4.0f, 1.5f}), (std::vector<float>{0, 0, 3, 4, 1.125f}));
    EXPECT_EQ(run(TIGRIS_OP_ELU, {2.0f, 0.0f})[0], 2.0f);
    EXPECT_TRUE(std::isinf(run(TIGRIS_OP_RSQRT, {0.0f})[0]));
    EXPECT_TRUE(std::isnan(run(TIGRIS_OP_LOG, {-1.0f})[0]));
    EXPECT_EQ(run(TIGRIS_OP_LOG, {1.0f})[0], 0.0f);
    EXPECT_EQ(run(TIGRIS_OP_EXP, {0.0f})[0], 1.0f);
}

TEST(F32UnaryMath, OneElementAndOddShapes) {
    for (std::vector<int32_t> shape : {std::vector<int32_t>{1}, {1, 1}, {1, 1, 1, 1}, {5, 3}, {1, 3, 5, 7}}) {
        Un u(TIGRIS_OP_NEG, TIGRIS_DTYPE_FLOAT32, shape);
        size_t n = u.p.tensors[u.in].size_bytes / 4;
        auto x = kt::ramp_f32(n, 3);
        u.p.set(u.in, x);
        ASSERT_EQ(u.p.run_f32(u.op), 0);
        auto y = u.p.get<float>(u.out);
        for (size_t i = 0; i < n; i++) EXPECT_EQ(y[i], -x[i]);
        EXPECT_EQ(u.p.buffers[u.out][n * 4], 0xA5);  // nothing past the tensor
    }
}

// HardSwish/Erf may change the shape but not the element count.
TEST(F32UnaryMath, HardSwishAndErfAcceptAReshapedOutputOfEqualSize) {
    Un u(TIGRIS_OP_HARDSWISH, TIGRIS_DTYPE_FLOAT32, {2, 3}, 0, 0, 0, 0, {3, 2});
    u.p.set<float>(u.in, {-4, -1, 0, 1, 2, 5});
    ASSERT_EQ(u.p.run_f32(u.op), 0);
    auto y = u.p.get<float>(u.out);
    EXPECT_FLOAT_EQ(y[1], -1.0f * 2.0f / 6.0f);
    EXPECT_FLOAT_EQ(y[4], 2.0f * 5.0f / 6.0f);
    EXPECT_EQ(y[5], 5.0f);
}

TEST(F32UnaryMath, RefusesInconsistentTensors) {
    {
        Un u(TIGRIS_OP_EXP, TIGRIS_DTYPE_FLOAT32, {2, 3}, 0, 0, 0, 0, {7});
        EXPECT_EQ(u.p.run_f32(u.op), -1);
    }
    {
        KPlan p;
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {4}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
        uint16_t op = p.op(TIGRIS_OP_SIN, {in}, {out});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {
        KPlan p;
        uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {4}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
        uint16_t op = p.op(TIGRIS_OP_COS, {in, in}, {out});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
        p.ops[op].num_inputs = 1;
        p.tensors[out].size_bytes = 12;  // smaller than 4 elements
        EXPECT_EQ(p.run_f32(op), -1);
        p.tensors[out].size_bytes = 16;
        p.pool[p.ops[op].outputs_off] = 99;  // no such tensor
        EXPECT_EQ(p.run_f32(op), -1);
    }
}

TEST(F32UnaryMath, RolledBandComputesOnlyItsRows) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 6, 2, 2}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 6, 2, 2});
    uint16_t op = p.op(TIGRIS_OP_SQUARE, {in}, {out});
    p.finish();
    std::vector<float> x(16), y(16, 99.0f);
    for (int i = 0; i < 16; i++) x[i] = (float)i - 4.0f;
    p.ptrs[in] = x.data();
    p.ptrs[out] = y.data();
    auto &t = p.mem.tile;
    t.active = 1;
    t.out_h = 2;
    t.in_h = 2;
    t.out_w = 2;
    t.in_w = 2;
    t.in_row_start = 2;
    t.out_row_start = 2;
    ASSERT_EQ(p.run_f32(op), 0);
    for (int i = 0; i < 8; i++) EXPECT_EQ(y[i], 99.0f);
    for (int i = 8; i < 16; i++) EXPECT_EQ(y[i], x[i] * x[i]);
    t.out_row_start = 5;  // band past the tensor
    EXPECT_EQ(p.run_f32(op), -1);
}

// ---- int8 Abs ----

std::vector<int8_t> ref_abs(float si, int zi, float so, int zo) {
    std::vector<int8_t> r;
    int32_t m = 0;
    int s = 0;
    r_qm((double)(si / so), &m, &s);
    for (int x = -128; x <= 127; x++) {
        int32_t v = std::abs(x - zi);
        int32_t q = si == so ? v + zo : r_em(v, m, s) + zo;
        r.push_back((int8_t)std::min(127, std::max(-128, q)));
    }
    return r;
}

TEST(S8Unary, AbsEqualAndDifferentScales) {
    struct Q {
        float si;
        int zi;
        float so;
        int zo;
    };
    for (Q q : {Q{0.05f, 3, 0.05f, -128}, Q{0.05f, -7, 0.025f, -128}, Q{0.1f, 0, 0.3f, 5}, Q{0.013f, 100, 0.0071f, -20}}) {
        Un u(TIGRIS_OP_ABS, TIGRIS_DTYPE_INT8, {1, 16, 16, 1}, q.si, q.zi, q.so, q.zo);
        u.p.set(u.in, all_s8());
        ASSERT_EQ(u.p.run_s8(u.op), 0);
        auto y = u.p.get<int8_t>(u.out);
        auto w = ref_abs(q.si, q.zi, q.so, q.zo);
        for (int i = 0; i < 256; i++) {
            ASSERT_EQ(y[i], w[i]) << "si=" << q.si << " x=" << (i - 128);
            // and the real value within one step
            double real = std::fabs(q.si * (i - 128 - q.zi)) / q.so + q.zo;
            if (real < 126.5) EXPECT_LE(std::fabs(y[i] - real), 1.0);  // MBQM rounds twice
        }
    }
    // Hand-computed: equal scale, zp_in 3, zp_out -128: x = -5 -> |-8| - 128.
    Un u(TIGRIS_OP_ABS, TIGRIS_DTYPE_INT8, {3}, 0.5f, 3, 0.5f, -128);
    u.p.set<int8_t>(u.in, {-5, 3, 127});
    ASSERT_EQ(u.p.run_s8(u.op), 0);
    EXPECT_EQ(u.p.get<int8_t>(u.out), (std::vector<int8_t>{-120, -128, -4}));
}

TEST(S8Unary, AbsRefusesMissingQuantisation) {
    KPlan p;
    uint16_t q = p.quant(0.1f, 0);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {4}, q), out = p.tensor(TIGRIS_DTYPE_INT8, {4});
    uint16_t op = p.op(TIGRIS_OP_ABS, {in}, {out});
    p.finish();
    EXPECT_EQ(p.run_s8(op), -1);
    p.tensors[out].quant_param_idx = q;
    EXPECT_EQ(p.run_s8(op), 0);
    p.tensors[out].size_bytes = 3;
    EXPECT_EQ(p.run_s8(op), -1);
}

// ---- int8 Rsqrt ----

TEST(S8Unary, RsqrtMatchesTfliteFormulation) {
    struct Q {
        float si;
        int zi;
        float so;
        int zo;
    };
    for (Q q : {Q{0.05f, -128, 0.02f, -128}, Q{0.01f, -100, 0.1f, -128}, Q{1.7f, -128, 0.0039f, -128},
                Q{0.0003f, -120, 0.5f, 0}}) {
        Un u(TIGRIS_OP_RSQRT, TIGRIS_DTYPE_INT8, {2, 128}, q.si, q.zi, q.so, q.zo);
        std::vector<int8_t> x;
        for (int v = q.zi; v <= 127; v++) x.push_back((int8_t)v);
        x.resize(256, 127);
        u.p.set(u.in, x);
        ASSERT_EQ(u.p.run_s8(u.op), 0);
        auto y = u.p.get<int8_t>(u.out);
        float sc = 1.0f / (std::sqrt(q.si) * q.so);
        int32_t m;
        int s;
        r_qm((double)sc, &m, &s);
        for (int i = 0; i < 256; i++) {
            int32_t v = x[i] - q.zi, want;
            if (v == 0) {
                want = 127;
            } else {
                int32_t inv;
                int ish;
                r_inv_sqrt(v, -1, &inv, &ish);
                int32_t w = r_em(1, inv, ish + 20);
                want = std::min(127, std::max(-128, r_em(w, m, s - 20) + q.zo));
                double real = 1.0 / std::sqrt(q.si * v) / q.so + q.zo;
                if (real < 126 && real > -127) EXPECT_LE(std::fabs(want - real), 1.0) << v;
            }
            ASSERT_EQ(y[i], want) << "si=" << q.si << " v=" << v;
        }
    }
}

TEST(S8Unary, RsqrtRefusesNegativeInputs) {
    Un u(TIGRIS_OP_RSQRT, TIGRIS_DTYPE_INT8, {3}, 0.1f, 0, 0.1f, 0);
    u.p.set<int8_t>(u.in, {4, 0, -1});
    EXPECT_EQ(u.p.run_s8(u.op), -1);
    u.p.set<int8_t>(u.in, {4, 0, 1});
    ASSERT_EQ(u.p.run_s8(u.op), 0);
    // v = 4: 1/sqrt(0.4)/0.1 = 15.81 -> 16; v = 0 -> 127; v = 1: 31.6 -> 32.
    auto y = u.p.get<int8_t>(u.out);
    EXPECT_NEAR(y[0], 16, 1);
    EXPECT_EQ(y[1], 127);
    EXPECT_NEAR(y[2], 32, 1);
}

// ---- int8 HardSwish ----

struct RefHs {
    int16_t om = 0, rm = 0;
    int oe = 0, re = 0;
    bool ok = false;
};

int16_t r_down16(int32_t m) { return m >= INT32_MAX - 32768 ? INT16_MAX : (int16_t)((m + 32768) >> 16); }

// TFLite's Prepare in float, as TFLite writes it.
RefHs r_hs_prepare(float si, float so) {
    RefHs p;
    float hires = (1.0f / 128.0f) * si;
    float om = hires / so;
    float rmul = hires / (3.0f / 32768.0f);
    int32_t m;
    r_qm((double)om, &m, &p.oe);
    p.om = r_down16(m);
    r_qm((double)rmul, &m, &p.re);
    p.rm = r_down16(m);
    p.ok = p.oe <= 0;
    return p;
}

int16_t r_srdhm16(int16_t a, int16_t b) {
    if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
    return (int16_t)std::floor((double)a * b / 32768.0 + 0.5);
}

int16_t r_sat16(int64_t v) { return (int16_t)std::min<int64_t>(std::max<int64_t>(v, INT16_MIN), INT16_MAX); }

int8_t r_hs(const RefHs &p, int x, int zi, int zo) {
    int32_t hires = (x - zi) * 128;
    int32_t pre = r_srdhm16((int16_t)hires, p.om);
    int32_t rv = hires;
    if (p.re > 0) rv = r_sat16((int64_t)rv << (p.re - 1));
    rv = r_srdhm16((int16_t)rv, p.rm);
    if (p.re > 0) rv = r_sat16((int64_t)rv * 2);
    if (p.re < 0) rv = r_rdbpot(rv, -p.re);
    rv = (rv + 32768) / 2;  // non-negative: floor
    int32_t prod = (p.rm == INT16_MIN && pre == INT16_MIN) ? INT16_MAX : (int32_t)std::trunc(rv * (double)pre / 32768.0);
    int32_t o = r_rdbpot(prod, -p.oe) + zo;
    return (int8_t)std::min(127, std::max(-128, o));
}

TEST(S8Unary, HardSwishTfliteIntegerAlgorithm) {
    struct Q {
        float si;
        int zi;
        float so;
        int zo;
    };
    // Covers reluish exponents > 0 (si = 0.2: 0.2/128 / (3/32768) ~ 17),
    // < 0 (si = 0.003) and = 0-ish, with several output shifts.
    for (Q q : {Q{0.05f, -10, 0.03f, -100}, Q{0.2f, 5, 0.15f, -110}, Q{0.003f, 0, 0.002f, -120},
                Q{0.0235f, -128, 0.0235f, -128}, Q{0.1f, 20, 0.9f, 3}, Q{0.011f, 7, 0.0117f, -1}}) {
        RefHs rp = r_hs_prepare(q.si, q.so);
        ASSERT_TRUE(rp.ok);
        Un u(TIGRIS_OP_HARDSWISH, TIGRIS_DTYPE_INT8, {1, 2, 8, 16}, q.si, q.zi, q.so, q.zo);
        u.p.set(u.in, all_s8());
        ASSERT_EQ(u.p.run_s8(u.op), 0);
        auto y = u.p.get<int8_t>(u.out);
        for (int i = 0; i < 256; i++) {
            int x = i - 128;
            ASSERT_EQ(y[i], r_hs(rp, x, q.zi, q.zo)) << "si=" << q.si << " x=" << x;
            double r = q.si * (x - q.zi);
            double real = r * std::min(6.0, std::max(0.0, r + 3)) / 6 / q.so + q.zo;
            if (real < 126 && real > -127) EXPECT_LE(std::fabs(y[i] - real), 1.5) << "si=" << q.si << " x=" << x;
        }
    }
}

TEST(S8Unary, HardSwishRefusesPositiveOutputExponent) {
    // s_in/128/s_out = 2: exponent 2 > 0, which TFLite's Prepare rejects.
    Un u(TIGRIS_OP_HARDSWISH, TIGRIS_DTYPE_INT8, {4}, 1.0f, 0, 1.0f / 256.0f, 0);
    EXPECT_EQ(u.p.run_s8(u.op), -1);
    Un ok(TIGRIS_OP_HARDSWISH, TIGRIS_DTYPE_INT8, {4}, 1.0f, 0, 1.0f / 64.0f, 0);
    EXPECT_EQ(ok.p.run_s8(ok.op), 0);
}

// ---- int8 Elu and Erf (float tables) ----

#if TIGRIS_ENABLE_F32
TEST(S8Unary, EluTfliteTable) {
    Un u(TIGRIS_OP_ELU, TIGRIS_DTYPE_INT8, {16, 16}, 0.1f, 0, 0.05f, 0);
    u.p.set(u.in, all_s8());
    ASSERT_EQ(u.p.run_s8(u.op), 0);
    auto y = u.p.get<int8_t>(u.out);
    // Hand: x = -10 -> real -1 -> expm1 = -0.632 -> /0.05 = -12.6 -> -13;
    // x = 10 -> 20; x = 127 -> 254 -> 127; x = -128 -> -0.99999 / 0.05 -> -20.
    EXPECT_EQ(y[128 - 10], -13);
    EXPECT_EQ(y[128 + 10], 20);
    EXPECT_EQ(y[255], 127);
    EXPECT_EQ(y[0], -20);
    Un v(TIGRIS_OP_ELU, TIGRIS_DTYPE_INT8, {256}, 0.037f, -17, 0.021f, 40);
    v.p.set(v.in, all_s8());
    ASSERT_EQ(v.p.run_s8(v.op), 0);
    auto z = v.p.get<int8_t>(v.out);
    for (int i = 0; i < 256; i++) {
        double r = 0.037 * (i - 128 + 17);
        double f = r < 0 ? std::expm1(r) : r;
        double q = std::round(f / 0.021) + 40;
        EXPECT_LE(std::fabs(z[i] - std::min(127.0, std::max(-128.0, q))), 1.0) << i;
    }
}

TEST(S8Unary, ErfSpecTable) {
    Un u(TIGRIS_OP_ERF, TIGRIS_DTYPE_INT8, {256}, 0.02f, 0, 1.0f / 128.0f, 0);
    u.p.set(u.in, all_s8());
    ASSERT_EQ(u.p.run_s8(u.op), 0);
    auto y = u.p.get<int8_t>(u.out);
    // Hand: erf(1) = 0.8427 -> 107.9 -> 108; erf(2.54)*128 = 127.96 -> 127.
    EXPECT_EQ(y[128 + 50], 108);
    EXPECT_EQ(y[128 - 50], -108);
    EXPECT_EQ(y[128], 0);
    EXPECT_EQ(y[255], 127);
    EXPECT_EQ(y[0], -128);
    for (int i = 0; i < 256; i++) {
        double q = std::round(std::erf(0.02 * (i - 128)) * 128);
        EXPECT_LE(std::fabs(y[i] - std::min(127.0, std::max(-128.0, q))), 1.0);
    }
}
#endif

TEST(S8Unary, RolledBandAndRefusals) {
    for (uint8_t opc : {TIGRIS_OP_ABS, TIGRIS_OP_HARDSWISH, TIGRIS_OP_RSQRT}) {
        KPlan p;
        uint16_t q = p.quant(0.1f, -128);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {1, 6, 2, 2}, q), out = p.tensor(TIGRIS_DTYPE_INT8, {1, 6, 2, 2}, q);
        uint16_t op = p.op(opc, {in}, {out});
        p.finish();
        std::vector<int8_t> x(16), y(16, 99);
        for (int i = 0; i < 16; i++) x[i] = (int8_t)(i * 7 - 100);
        p.ptrs[in] = x.data();
        p.ptrs[out] = y.data();
        // Whole-tensor reference first, on buffers of the whole tensor (6 rows
        // of 4): the band buffers below hold only 4 rows.
        std::vector<int8_t> xw(24, 5), whole(24);
        std::copy(x.begin(), x.end(), xw.begin());
        p.ptrs[in] = xw.data();
        p.ptrs[out] = whole.data();
        ASSERT_EQ(p.run_s8(op), 0);
        p.ptrs[in] = x.data();
        p.ptrs[out] = y.data();
        auto &t = p.mem.tile;
        t.active = 1;
        t.out_h = 2;
        t.in_h = 2;
        t.out_w = 2;
        t.in_w = 2;
        t.in_row_start = 2;
        t.out_row_start = 2;
        ASSERT_EQ(p.run_s8(op), 0);
        for (int i = 0; i < 8; i++) EXPECT_EQ(y[i], 99);
        for (int i = 8; i < 16; i++) EXPECT_EQ(y[i], whole[i]);
        t.active = 0;
        p.tensors[in].dtype = TIGRIS_DTYPE_FLOAT32;  // float input, int8 output
        p.tensors[in].size_bytes = 64;
        EXPECT_EQ(p.run_s8(op), -1);
    }
    // Zero or negative scales are refused.
    Un z(TIGRIS_OP_ABS, TIGRIS_DTYPE_INT8, {2}, 0.1f, 0, -0.1f, 0);
    EXPECT_EQ(z.p.run_s8(z.op), -1);
}
