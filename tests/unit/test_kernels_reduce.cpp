// Reduce family kernels through the dispatchers: ReduceMax/Min/Sum (and the
// existing Mean), CumSum, ArgMax/ArgMin, ReduceAll; float32 and int8.
// Golden values come from plain loops in double / int64 written here, with
// TFLite's int8 multiplier derived in double via frexp (not the kernels'
// integer derivation from scale bits).
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "test_kernels_plan.h"

using kt::KPlan;

namespace {

void ref_qm(double real, int32_t *m, int32_t *s) {
    if (real <= 0) {
        *m = 0;
        *s = 0;
        return;
    }
    int e = 0;
    double q = std::frexp(real, &e);
    int64_t qi = (int64_t)std::llround(q * 2147483648.0);
    if (qi == (1ll << 31)) {
        qi /= 2;
        e++;
    }
    if (e < -31) {
        qi = 0;
        e = 0;
    }
    *m = (int32_t)qi;
    *s = e;
}

int32_t ref_srdhm(int32_t a, int32_t b) {
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    int64_t p = (int64_t)a * b;
    int64_t nudge = p >= 0 ? (1ll << 30) : 1 - (1ll << 30);
    return (int32_t)((p + nudge) / (1ll << 31));
}

// Elementwise requantize (docs/runtime-semantics.md R4.1) in plain int64 steps.
bool ref_requant(int64_t v, int32_t m, int32_t s, int32_t zp, int8_t *out) {
    if (s < -31 || s > 30) return false;
    int l = std::max(s, 0), r = std::max(-s, 0);
    int64_t sh = v * (int64_t(1) << l);
    if (sh > INT32_MAX || sh < INT32_MIN) return false;
    int64_t p = ref_srdhm((int32_t)sh, m);
    int64_t res;
    if (r > 31) {
        res = 0;
    } else {
        // round half away from zero of p / 2^r (gemmlowp's rounding divide)
        double q = (double)p / std::ldexp(1.0, r);
        res = (int64_t)std::floor(q);
        double frac = q - std::floor(q);
        if (frac > 0.5 || (frac == 0.5 && p > 0)) res++;
    }
    *out = (int8_t)std::min<int64_t>(127, std::max<int64_t>(-128, res + zp));
    return true;
}

// Element (outer o, reduced k, inner i) of a [outer, r, inner] view.
struct Lay {
    uint32_t outer = 1, r = 1, inner = 1;
};
Lay lay_of(const std::vector<int32_t> &s, int axis) {
    Lay l;
    for (int k = 0; k < (int)s.size(); k++) {
        if (k < axis) l.outer *= s[k];
        else if (k > axis) l.inner *= s[k];
        else l.r = s[k];
    }
    return l;
}

std::vector<int32_t> reduced(std::vector<int32_t> s, int axis, bool keep) {
    if (keep) s[axis] = 1;
    else s.erase(s.begin() + axis);
    return s;
}

}  // namespace

// ---- float32 ----

TEST(ReduceF32, MaxMinSumEachAxisKeptOrDropped) {
    const std::vector<int32_t> s = {3, 4, 5};
    auto x = kt::ramp_f32(60, 11);
    for (uint8_t axis = 0; axis < 3; axis++)
        for (int keep = 0; keep < 2; keep++) {
            KPlan p;
            uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, s);
            uint16_t o[3], op[3];
            const uint8_t types[3] = {TIGRIS_OP_REDUCE_MAX, TIGRIS_OP_REDUCE_MIN, TIGRIS_OP_REDUCE_SUM};
            for (int t = 0; t < 3; t++) {
                o[t] = p.tensor(TIGRIS_DTYPE_FLOAT32, reduced(s, axis, keep));
                op[t] = p.op(types[t], {in}, {o[t]});
                p.attr(op[t], TIGRIS_ATTR_AXES, &axis, 1);
            }
            p.finish();
            p.set(in, x);
            for (int t = 0; t < 3; t++) ASSERT_EQ(p.run_f32(op[t]), 0) << (int)axis << keep << t;
            Lay l = lay_of(s, axis);
            auto mx = p.get<float>(o[0]), mn = p.get<float>(o[1]), sm = p.get<float>(o[2]);
            for (uint32_t a = 0; a < l.outer; a++)
                for (uint32_t i = 0; i < l.inner; i++) {
                    double hi = -1e30, lo = 1e30, sum = 0;
                    for (uint32_t k = 0; k < l.r; k++) {
                        double v = x[(a * l.r + k) * l.inner + i];
                        hi = std::max(hi, v);
                        lo = std::min(lo, v);
                        sum += v;
                    }
                    size_t at = a * l.inner + i;
                    EXPECT_EQ(mx[at], (float)hi);
                    EXPECT_EQ(mn[at], (float)lo);
                    EXPECT_NEAR(sm[at], sum, 1e-5);
                }
        }
}

TEST(ReduceF32, MaxOfNegativesAndMinOfHugeStartFromTheFloatLimits) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 1, 2});
    uint16_t a = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 1, 1}), b = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 1});
    uint16_t op0 = p.op(TIGRIS_OP_REDUCE_MAX, {in}, {a});
    uint16_t op1 = p.op(TIGRIS_OP_REDUCE_MIN, {in}, {b});
    uint8_t axis = 2;
    p.attr(op0, TIGRIS_ATTR_AXES, &axis, 1);
    p.attr(op1, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    p.set<float>(in, {-3e38f, -1e38f});
    ASSERT_EQ(p.run_f32(op0), 0);
    EXPECT_EQ(p.get<float>(a)[0], -1e38f);
    p.set<float>(in, {3e38f, 2e38f});
    ASSERT_EQ(p.run_f32(op1), 0);
    EXPECT_EQ(p.get<float>(b)[0], 2e38f);
}

TEST(ReduceF32, OneByOneByOneIsTheValue) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 1, 1}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 1});
    uint16_t op = p.op(TIGRIS_OP_REDUCE_SUM, {in}, {out});
    uint8_t axis = 0;
    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    p.set<float>(in, {-2.5f});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(out)[0], -2.5f);
}

TEST(ReduceF32, Refusals) {
    auto try_plan = [](std::vector<int32_t> is, std::vector<int32_t> os, std::vector<uint8_t> axes, uint8_t op_t,
                       uint8_t din = TIGRIS_DTYPE_FLOAT32) {
        KPlan p;
        uint16_t in = p.tensor(din, is), out = p.tensor(TIGRIS_DTYPE_FLOAT32, os);
        uint16_t op = p.op(op_t, {in}, {out});
        if (!axes.empty()) p.attr(op, TIGRIS_ATTR_AXES, axes.data(), axes.size());
        p.finish();
        return p.run_f32(op);
    };
    EXPECT_EQ(try_plan({2, 3, 4}, {2, 1, 4}, {1}, TIGRIS_OP_REDUCE_SUM), 0);  // control
    EXPECT_EQ(try_plan({2, 3, 4}, {2, 1, 4}, {}, TIGRIS_OP_REDUCE_SUM), -1);   // no AXES
    EXPECT_EQ(try_plan({2, 3, 4}, {2, 1, 1}, {1, 2}, TIGRIS_OP_REDUCE_SUM), -1);  // two axes
    EXPECT_EQ(try_plan({2, 3, 4}, {2, 1, 4}, {3}, TIGRIS_OP_REDUCE_MAX), -1);  // axis out of range
    EXPECT_EQ(try_plan({2, 3, 4}, {2, 4, 1}, {1}, TIGRIS_OP_REDUCE_MIN), -1);  // wrong kept shape
    EXPECT_EQ(try_plan({2, 3, 4}, {4, 2}, {1}, TIGRIS_OP_REDUCE_MEAN), -1);    // wrong dropped shape
    EXPECT_EQ(try_plan({6, 4}, {1, 4}, {0}, TIGRIS_OP_REDUCE_SUM), -1);        // rank 2
    EXPECT_EQ(try_plan({2, 3, 4}, {2, 1, 4}, {1}, TIGRIS_OP_REDUCE_SUM, TIGRIS_DTYPE_INT8), -1);
}

TEST(ReduceF32, RowBandReducesOnlyItsRowsAtTheRollOffset) {
    // [1, 4, 3] summed over axis 2 (kept): a ROWS band of 2 rows (axis 1)
    // whose input buffer holds the band and whose output rows start at 1.
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 4, 3}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 4, 1});
    uint16_t op = p.op(TIGRIS_OP_REDUCE_SUM, {in}, {out});
    uint8_t axis = 2;
    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    std::vector<float> band = {1, 2, 3, 10, 20, 30};
    std::vector<float> y(4, -7.0f);
    p.ptrs[in] = band.data();
    p.ptrs[out] = y.data();
    p.mem.tile.active = 1;
    p.mem.tile.row_tiled = TIGRIS_ROW_MODE_ROWS;
    p.mem.tile.in_h = 2;
    p.mem.tile.out_h = 2;
    p.mem.tile.out_row_start = 1;
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(y, (std::vector<float>{-7, 6, 60, -7}));
    // A band along the reduced axis is refused.
    uint8_t axis1 = 1;
    KPlan q;
    uint16_t i2 = q.tensor(TIGRIS_DTYPE_FLOAT32, {1, 4, 3}), o2 = q.tensor(TIGRIS_DTYPE_FLOAT32, {1, 1, 3});
    uint16_t op2 = q.op(TIGRIS_OP_REDUCE_SUM, {i2}, {o2});
    q.attr(op2, TIGRIS_ATTR_AXES, &axis1, 1);
    q.finish();
    q.mem.tile.active = 1;
    q.mem.tile.row_tiled = TIGRIS_ROW_MODE_ROWS;
    q.mem.tile.in_h = q.mem.tile.out_h = 2;
    EXPECT_EQ(q.run_f32(op2), -1);
    // A band that runs past the tensor is refused.
    p.mem.tile.out_row_start = 3;
    EXPECT_EQ(p.run_f32(op), -1);
}

TEST(ReduceF32, LeadingBandOfAMeanOverTheLastAxis) {
    // [1, 3, 2] mean over axis 2 dropped is not bandable (ranks differ): refused.
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 3, 2}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 3});
    uint16_t op = p.op(TIGRIS_OP_REDUCE_MEAN, {in}, {out});
    uint8_t axis = 2;
    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    p.mem.tile.active = 1;
    p.mem.tile.row_tiled = TIGRIS_ROW_MODE_LEADING;
    p.mem.tile.in_h = p.mem.tile.out_h = 1;
    EXPECT_EQ(p.run_f32(op), -1);
    // Kept dims: the leading band (axis 1, first non-1) of 2 rows from row 1.
    KPlan q;
    uint16_t i2 = q.tensor(TIGRIS_DTYPE_FLOAT32, {1, 3, 2}), o2 = q.tensor(TIGRIS_DTYPE_FLOAT32, {1, 3, 1});
    uint16_t op2 = q.op(TIGRIS_OP_REDUCE_MEAN, {i2}, {o2});
    q.attr(op2, TIGRIS_ATTR_AXES, &axis, 1);
    q.finish();
    q.set<float>(i2, {100, 100, 1, 2, 5, 8});
    q.mem.tile.active = 1;
    q.mem.tile.row_tiled = TIGRIS_ROW_MODE_LEADING;
    q.mem.tile.in_h = q.mem.tile.out_h = 2;
    q.mem.tile.in_row_start = 1;
    q.mem.tile.out_row_start = 1;
    q.set<float>(o2, {-1, -1, -1});
    ASSERT_EQ(q.run_f32(op2), 0);
    EXPECT_EQ(q.get<float>(o2), (std::vector<float>{-1, 1.5f, 6.5f}));
}

TEST(CumSumF32, EveryOptionAndAxis) {
    const std::vector<int32_t> s = {2, 3, 4};
    auto x = kt::ramp_f32(24, 5);
    for (uint8_t axis = 0; axis < 3; axis++)
        for (int ex = 0; ex < 2; ex++)
            for (int rev = 0; rev < 2; rev++) {
                KPlan p;
                uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, s), out = p.tensor(TIGRIS_DTYPE_FLOAT32, s);
                uint16_t op = p.op(TIGRIS_OP_CUMSUM, {in}, {out});
                p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
                uint8_t opt[2] = {(uint8_t)ex, (uint8_t)rev};
                p.attr(op, TIGRIS_ATTR_CUMSUM_OPTIONS, opt, 2);
                p.finish();
                p.set(in, x);
                ASSERT_EQ(p.run_f32(op), 0);
                auto y = p.get<float>(out);
                Lay l = lay_of(s, axis);
                for (uint32_t a = 0; a < l.outer; a++)
                    for (uint32_t i = 0; i < l.inner; i++)
                        for (uint32_t k = 0; k < l.r; k++) {
                            double want = 0;
                            for (uint32_t j = 0; j < l.r; j++) {
                                bool in_sum = rev ? (ex ? j > k : j >= k) : (ex ? j < k : j <= k);
                                if (in_sum) want += x[(a * l.r + j) * l.inner + i];
                            }
                            EXPECT_NEAR(y[(a * l.r + k) * l.inner + i], want, 1e-5)
                                << (int)axis << ex << rev << " " << a << k << i;
                        }
            }
}

TEST(CumSumF32, NeedsOptionsAndTheSameShape) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 2, 3}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 2, 3});
    uint16_t bad = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 3, 2});
    uint16_t op = p.op(TIGRIS_OP_CUMSUM, {in}, {out});
    uint16_t op2 = p.op(TIGRIS_OP_CUMSUM, {in}, {bad});
    uint8_t axis = 1, opt[2] = {0, 0};
    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
    p.attr(op2, TIGRIS_ATTR_AXES, &axis, 1);
    p.attr(op2, TIGRIS_ATTR_CUMSUM_OPTIONS, opt, 2);
    p.finish();
    EXPECT_EQ(p.run_f32(op), -1);   // no CUMSUM_OPTIONS
    EXPECT_EQ(p.run_f32(op2), -1);  // shape not preserved
}

namespace {
// Arg over `axis` of a tensor of shape s with plain multi-index walking.
template <typename T>
std::vector<int32_t> ref_arg(const std::vector<T> &x, const std::vector<int32_t> &s, int axis, bool is_max) {
    Lay l = lay_of(s, axis);
    std::vector<int32_t> r(l.outer * l.inner);
    for (uint32_t a = 0; a < l.outer; a++)
        for (uint32_t i = 0; i < l.inner; i++) {
            int32_t best = 0;
            for (uint32_t k = 1; k < l.r; k++) {
                T v = x[(a * l.r + k) * l.inner + i], b = x[(a * l.r + best) * l.inner + i];
                if (is_max ? v > b : v < b) best = (int32_t)k;
            }
            r[a * l.inner + i] = best;
        }
    return r;
}
}  // namespace

TEST(ArgF32, RanksOneToSixFirstIndexWinsTies) {
    struct C {
        std::vector<int32_t> s;
        uint8_t axis;
        bool keep;
    };
    const C cases[] = {{{7}, 0, false}, {{7}, 0, true}, {{3, 5}, 1, false}, {{2, 3, 4}, 0, true},
                       {{2, 1, 3, 4}, 2, false}, {{1, 2, 2, 1, 3}, 4, true}, {{2, 1, 2, 3, 1, 2}, 3, false}};
    for (const C &c : cases) {
        uint32_t n = 1;
        for (int32_t d : c.s) n *= (uint32_t)d;
        // Coarse values so ties happen.
        std::vector<float> x(n);
        auto r = kt::ramp_f32(n, 3);
        for (uint32_t i = 0; i < n; i++) x[i] = std::round(r[i]);
        for (int is_max = 0; is_max < 2; is_max++) {
            KPlan p;
            std::vector<int32_t> os = c.s.size() == 1 && !c.keep ? std::vector<int32_t>{} : reduced(c.s, c.axis, c.keep);
            if (os.empty()) os = {1};  // rank-1 input, axis dropped: a rank-1 output of 1 is the kept form
            uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, c.s), out = p.tensor(TIGRIS_DTYPE_INT32, os);
            uint16_t op = p.op(is_max ? TIGRIS_OP_ARG_MAX : TIGRIS_OP_ARG_MIN, {in}, {out});
            p.attr(op, TIGRIS_ATTR_AXES, &c.axis, 1);
            p.finish();
            p.set(in, x);
            ASSERT_EQ(p.run_f32(op), 0) << c.s.size();
            EXPECT_EQ(p.get<int32_t>(out), ref_arg(x, c.s, c.axis, is_max)) << c.s.size() << is_max;
        }
    }
}

TEST(ArgF32, HandWorkedTiesAndRefusals) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3}), out = p.tensor(TIGRIS_DTYPE_INT32, {2});
    uint16_t outf = p.tensor(TIGRIS_DTYPE_FLOAT32, {2});
    uint16_t op = p.op(TIGRIS_OP_ARG_MAX, {in}, {out});
    uint16_t op2 = p.op(TIGRIS_OP_ARG_MIN, {in}, {out});
    uint16_t op3 = p.op(TIGRIS_OP_ARG_MAX, {in}, {outf});
    uint8_t axis = 1;
    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
    p.attr(op2, TIGRIS_ATTR_AXES, &axis, 1);
    p.attr(op3, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    p.set<float>(in, {2, 9, 9, -1, -4, -4});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<int32_t>(out), (std::vector<int32_t>{1, 0}));
    ASSERT_EQ(p.run_f32(op2), 0);
    EXPECT_EQ(p.get<int32_t>(out), (std::vector<int32_t>{0, 1}));
    EXPECT_EQ(p.run_f32(op3), -1);  // output must be int32
    KPlan q;
    uint16_t i7 = q.tensor(TIGRIS_DTYPE_FLOAT32, {1, 1, 1, 1, 1, 1, 2}), o7 = q.tensor(TIGRIS_DTYPE_INT32, {1, 1, 1, 1, 1, 1});
    uint16_t op7 = q.op(TIGRIS_OP_ARG_MAX, {i7}, {o7});
    uint8_t ax6 = 6;
    q.attr(op7, TIGRIS_ATTR_AXES, &ax6, 1);
    q.finish();
    EXPECT_EQ(q.run_f32(op7), -1);  // rank 7
}

// ---- ReduceAll (both dispatchers) ----

TEST(ReduceAll, AndOverOneAxisFromBothDispatchers) {
    for (int route = 0; route < 2; route++)
        for (uint8_t axis = 0; axis < 3; axis++) {
            const std::vector<int32_t> s = {2, 3, 2};
            KPlan p;
            uint16_t in = p.tensor(TIGRIS_DTYPE_BOOL, s), out = p.tensor(TIGRIS_DTYPE_BOOL, reduced(s, axis, true));
            uint16_t op = p.op(TIGRIS_OP_REDUCE_ALL, {in}, {out});
            p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
            p.finish();
            // Mostly true (non-zero bytes other than 1 count as true), two zeros.
            std::vector<uint8_t> x = {1, 7, 1, 1, 255, 1, 1, 0, 1, 1, 0, 1};
            p.set(in, x);
            ASSERT_EQ(route ? p.run_s8(op) : p.run_f32(op), 0);
            Lay l = lay_of(s, axis);
            auto y = p.get<uint8_t>(out);
            for (uint32_t a = 0; a < l.outer; a++)
                for (uint32_t i = 0; i < l.inner; i++) {
                    uint8_t want = 1;
                    for (uint32_t k = 0; k < l.r; k++)
                        if (!x[(a * l.r + k) * l.inner + i]) want = 0;
                    EXPECT_EQ(y[a * l.inner + i], want) << route << (int)axis;
                }
        }
}

TEST(ReduceAll, HandWorkedAndRefusesNonBool) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_BOOL, {1, 2, 3}), out = p.tensor(TIGRIS_DTYPE_BOOL, {1, 2});
    uint16_t in8 = p.tensor(TIGRIS_DTYPE_INT8, {1, 2, 3}), out8 = p.tensor(TIGRIS_DTYPE_INT8, {1, 2});
    uint16_t op = p.op(TIGRIS_OP_REDUCE_ALL, {in}, {out});
    uint16_t op2 = p.op(TIGRIS_OP_REDUCE_ALL, {in8}, {out8});
    uint8_t axis = 2;
    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
    p.attr(op2, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    p.set<uint8_t>(in, {1, 1, 1, 1, 0, 1});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<uint8_t>(out), (std::vector<uint8_t>{1, 0}));
    EXPECT_EQ(p.run_s8(op2), -1);
    EXPECT_EQ(p.run_f32(op2), -1);
}

// ---- int8 ----

TEST(ReduceS8, MaxMinRawCompareEachAxis) {
    const std::vector<int32_t> s = {3, 4, 5};
    auto x = kt::ramp_s8(60, 4);
    for (uint8_t axis = 0; axis < 3; axis++) {
        KPlan p;
        uint16_t q = p.quant(0.04f, -3);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, s, q);
        uint16_t mx = p.tensor(TIGRIS_DTYPE_INT8, reduced(s, axis, axis == 1), q);
        uint16_t mn = p.tensor(TIGRIS_DTYPE_INT8, reduced(s, axis, axis != 1), q);
        uint16_t op0 = p.op(TIGRIS_OP_REDUCE_MAX, {in}, {mx});
        uint16_t op1 = p.op(TIGRIS_OP_REDUCE_MIN, {in}, {mn});
        p.attr(op0, TIGRIS_ATTR_AXES, &axis, 1);
        p.attr(op1, TIGRIS_ATTR_AXES, &axis, 1);
        p.finish();
        p.set(in, x);
        ASSERT_EQ(p.run_s8(op0), 0);
        ASSERT_EQ(p.run_s8(op1), 0);
        Lay l = lay_of(s, axis);
        auto a = p.get<int8_t>(mx), b = p.get<int8_t>(mn);
        for (uint32_t o = 0; o < l.outer; o++)
            for (uint32_t i = 0; i < l.inner; i++) {
                int hi = -1000, lo = 1000;
                for (uint32_t k = 0; k < l.r; k++) {
                    int v = x[(o * l.r + k) * l.inner + i];
                    hi = std::max(hi, v);
                    lo = std::min(lo, v);
                }
                EXPECT_EQ(a[o * l.inner + i], hi);
                EXPECT_EQ(b[o * l.inner + i], lo);
            }
    }
}

TEST(ReduceS8, MaxMinRefuseDifferentEncodings) {
    KPlan p;
    uint16_t qi = p.quant(0.04f, -3), qz = p.quant(0.04f, -2), qs = p.quant(0.05f, -3);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {1, 2, 2}, qi);
    uint16_t o1 = p.tensor(TIGRIS_DTYPE_INT8, {1, 2}, qz), o2 = p.tensor(TIGRIS_DTYPE_INT8, {1, 2}, qs);
    uint16_t o3 = p.tensor(TIGRIS_DTYPE_INT8, {1, 2}, qi);
    uint16_t op1 = p.op(TIGRIS_OP_REDUCE_MAX, {in}, {o1});
    uint16_t op2 = p.op(TIGRIS_OP_REDUCE_MIN, {in}, {o2});
    uint16_t op3 = p.op(TIGRIS_OP_REDUCE_MIN, {in}, {o3});
    uint8_t axis = 2;
    p.attr(op1, TIGRIS_ATTR_AXES, &axis, 1);
    p.attr(op2, TIGRIS_ATTR_AXES, &axis, 1);
    p.attr(op3, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    p.set<int8_t>(in, {5, -5, 127, -128});
    EXPECT_EQ(p.run_s8(op1), -1);
    EXPECT_EQ(p.run_s8(op2), -1);
    ASSERT_EQ(p.run_s8(op3), 0);
    EXPECT_EQ(p.get<int8_t>(o3), (std::vector<int8_t>{-5, -128}));
}

TEST(ReduceS8, SumRequantisesWithTheElementwiseMultiplier) {
    struct Q {
        float si;
        int zi;
        float so;
        int zo;
    };
    const Q qs[] = {{0.037f, -3, 0.11f, 5}, {0.5f, 0, 0.001f, -1}, {0.02f, 7, 0.02f, 7}, {1.3f, 100, 0.0071f, -90},
                    {0.0123f, -128, 0.9f, 127}};
    const std::vector<int32_t> s = {2, 7, 3};
    auto x = kt::ramp_s8(42, 9);
    for (const Q &q : qs)
        for (uint8_t axis = 0; axis < 3; axis++) {
            KPlan p;
            uint16_t qi = p.quant(q.si, q.zi), qo = p.quant(q.so, q.zo);
            uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, s, qi), out = p.tensor(TIGRIS_DTYPE_INT8, reduced(s, axis, false), qo);
            uint16_t op = p.op(TIGRIS_OP_REDUCE_SUM, {in}, {out});
            p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
            p.finish();
            p.set(in, x);
            ASSERT_EQ(p.run_s8(op), 0) << q.si << " " << (int)axis;
            int32_t m, sh;
            ref_qm((double)q.si / (double)q.so, &m, &sh);
            Lay l = lay_of(s, axis);
            auto y = p.get<int8_t>(out);
            for (uint32_t o = 0; o < l.outer; o++)
                for (uint32_t i = 0; i < l.inner; i++) {
                    int64_t sum = 0;
                    for (uint32_t k = 0; k < l.r; k++) sum += x[(o * l.r + k) * l.inner + i];
                    int8_t want;
                    ASSERT_TRUE(ref_requant(sum - (int64_t)q.zi * l.r, m, sh, q.zo, &want));
                    EXPECT_EQ(y[o * l.inner + i], want) << q.si << " axis " << (int)axis << " " << o << "," << i;
                }
        }
}

TEST(ReduceS8, SumHandWorked) {
    // s_in/s_out = 3 (0.75/0.25): multiplier 3/4·2^31 = 1610612736, shift 2,
    // so EM(v) = 3v exactly. zp_in 2, zp_out -10: q = 3·(sum - 2·2) - 10.
    KPlan p;
    uint16_t qi = p.quant(0.75f, 2), qo = p.quant(0.25f, -10);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {1, 2, 3}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {1, 1, 3}, qo);
    uint16_t op = p.op(TIGRIS_OP_REDUCE_SUM, {in}, {out});
    uint8_t axis = 1;
    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    p.set<int8_t>(in, {3, 2, 50, 5, 2, -60});
    ASSERT_EQ(p.run_s8(op), 0);
    // (3+5-4)·3-10 = 2; (2+2-4)·3-10 = -10; (50-60-4)·3-10 = -52
    EXPECT_EQ(p.get<int8_t>(out), (std::vector<int8_t>{2, -10, -52}));
}

TEST(ReduceS8, SumRefusals) {
    auto run = [](float si, float so, bool quant_out, std::vector<int8_t> x) {
        KPlan p;
        uint16_t qi = p.quant(si, 0), qo = p.quant(so, 0);
        uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {1, 1, 3}, qi);
        uint16_t out = p.tensor(TIGRIS_DTYPE_INT8, {1, 1}, quant_out ? qo : TIGRIS_NONE16);
        uint16_t op = p.op(TIGRIS_OP_REDUCE_SUM, {in}, {out});
        uint8_t axis = 2;
        p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
        p.finish();
        p.set(in, x);
        int rc = p.run_s8(op);
        return rc ? 1000 : (int)p.get<int8_t>(out)[0];
    };
    EXPECT_EQ(run(0.5f, 0.25f, true, {1, 2, 3}), 12);
    EXPECT_EQ(run(0.5f, 0.25f, false, {1, 2, 3}), 1000);         // no output quantisation
    EXPECT_EQ(run(1.0f, 1e-10f, true, {0, 0, 0}), 1000);         // ratio ~2^33: shift > 30
    EXPECT_EQ(run(1.0f, std::ldexp(1.0f, -29), true, {0, 1, 0}), 127);   // 1·2^30 fits, saturates
    EXPECT_EQ(run(1.0f, std::ldexp(1.0f, -29), true, {0, 2, 0}), 1000);  // 2·2^30 overflows int32
    EXPECT_EQ(run(1.0f, 0.0f, true, {0, 0, 0}), 1000);           // zero output scale
}

TEST(ReduceS8, BandedSumMatchesTheWholeTensor) {
    // [1, 6, 4] summed over axis 2 (kept), bands of 4 then 2 rows (ROWS mode).
    KPlan p;
    uint16_t qi = p.quant(0.1f, 3), qo = p.quant(0.3f, -4);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {1, 6, 4}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {1, 6, 1}, qo);
    uint16_t op = p.op(TIGRIS_OP_REDUCE_SUM, {in}, {out});
    uint8_t axis = 2;
    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    auto x = kt::ramp_s8(24, 30);
    p.set(in, x);
    std::vector<int8_t> banded(6, 99);
    int32_t m, sh;
    ref_qm((double)0.1f / (double)0.3f, &m, &sh);
    for (int start = 0; start < 6; start += 4) {
        int rows = std::min(4, 6 - start);
        std::vector<int8_t> band(x.begin() + start * 4, x.begin() + (start + rows) * 4);
        p.ptrs[in] = band.data();
        p.ptrs[out] = banded.data() + start;
        p.mem.tile = tigris_tile_ctx_t{};
        p.mem.tile.active = 1;
        p.mem.tile.row_tiled = TIGRIS_ROW_MODE_ROWS;
        p.mem.tile.in_h = p.mem.tile.out_h = rows;
        ASSERT_EQ(p.run_s8(op), 0);
    }
    for (int r = 0; r < 6; r++) {
        int64_t sum = 0;
        for (int c = 0; c < 4; c++) sum += x[r * 4 + c];
        int8_t want;
        ASSERT_TRUE(ref_requant(sum - 3 * 4, m, sh, -4, &want));
        EXPECT_EQ(banded[r], want) << r;
    }
}

TEST(ReduceS8, MeanStillUsesTheMeanMultiplier) {
    // 0.5 -> 0.5 over 3: m = (2^30 << 1) / 3 = 715827882, shift 0 (~ /3).
    KPlan p;
    uint16_t q = p.quant(0.5f, 0);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {1, 1, 3}, q), out = p.tensor(TIGRIS_DTYPE_INT8, {1, 1, 1}, q);
    uint16_t op = p.op(TIGRIS_OP_REDUCE_MEAN, {in}, {out});
    uint8_t axis = 2;
    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    p.set<int8_t>(in, {10, 20, 32});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<int8_t>(out)[0], 21);  // 62/3 = 20.67
}

namespace {
// TFLite int8 CumSum re-stated with int64 and double-derived multipliers.
std::vector<int8_t> ref_cumsum_s8(const std::vector<int8_t> &x, const std::vector<int32_t> &s, int axis, bool ex,
                                  bool rev, float si, int zi, float so, int zo) {
    int32_t m, sh;
    ref_qm(2.0 * (double)si / (std::ldexp(1.0, 20) * (double)so), &m, &sh);
    EXPECT_LE(sh, 0);
    Lay l = lay_of(s, axis);
    std::vector<int8_t> y(x.size());
    for (uint32_t o = 0; o < l.outer; o++)
        for (uint32_t i = 0; i < l.inner; i++) {
            int64_t acc = ref_srdhm(-zi * (1 << 20), 1 << 30);
            for (uint32_t j = 0; j < l.r; j++) {
                uint32_t k = rev ? l.r - 1 - j : j;
                size_t at = (o * l.r + k) * l.inner + i;
                int64_t step = ref_srdhm((x[at] - zi) * (1 << 20), 1 << 30);
                int64_t emit = ex ? acc : acc + step;
                acc += step;
                int8_t v = 0;
                EXPECT_TRUE(ref_requant(emit, m, sh, zo, &v));
                y[at] = v;
            }
        }
    return y;
}
}  // namespace

TEST(CumSumS8, EveryOptionAndAxisMatchesTfliteArithmetic) {
    const std::vector<int32_t> s = {2, 5, 3};
    auto x = kt::ramp_s8(30, 17);
    struct Q {
        float si;
        int zi;
        float so;
        int zo;
    };
    const Q qs[] = {{0.05f, 3, 0.07f, -4}, {0.02f, -128, 0.5f, 0}, {0.3f, 0, 0.3f, 0}};
    for (const Q &q : qs)
        for (uint8_t axis = 0; axis < 3; axis++)
            for (int ex = 0; ex < 2; ex++)
                for (int rev = 0; rev < 2; rev++) {
                    KPlan p;
                    uint16_t qi = p.quant(q.si, q.zi), qo = p.quant(q.so, q.zo);
                    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, s, qi), out = p.tensor(TIGRIS_DTYPE_INT8, s, qo);
                    uint16_t op = p.op(TIGRIS_OP_CUMSUM, {in}, {out});
                    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
                    uint8_t opt[2] = {(uint8_t)ex, (uint8_t)rev};
                    p.attr(op, TIGRIS_ATTR_CUMSUM_OPTIONS, opt, 2);
                    p.finish();
                    p.set(in, x);
                    ASSERT_EQ(p.run_s8(op), 0);
                    EXPECT_EQ(p.get<int8_t>(out), ref_cumsum_s8(x, s, axis, ex, rev, q.si, q.zi, q.so, q.zo))
                        << q.si << " " << (int)axis << ex << rev;
                }
}

TEST(CumSumS8, HandWorkedAndRefusals) {
    // s_in = s_out = 1/16, zp_in 0: q = running sum of x (exact), + zp_out 1.
    KPlan p;
    uint16_t qi = p.quant(0.0625f, 0), qo = p.quant(0.0625f, 1), qbig = p.quant(std::ldexp(1.0f, -23), 0);
    uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, {1, 1, 4}, qi), out = p.tensor(TIGRIS_DTYPE_INT8, {1, 1, 4}, qo);
    uint16_t out2 = p.tensor(TIGRIS_DTYPE_INT8, {1, 1, 4}, qbig);
    uint16_t op = p.op(TIGRIS_OP_CUMSUM, {in}, {out});
    uint16_t op2 = p.op(TIGRIS_OP_CUMSUM, {in}, {out2});
    uint16_t op3 = p.op(TIGRIS_OP_CUMSUM, {in}, {out});
    uint8_t axis = 2, opt[2] = {0, 0};
    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
    p.attr(op, TIGRIS_ATTR_CUMSUM_OPTIONS, opt, 2);
    p.attr(op2, TIGRIS_ATTR_AXES, &axis, 1);
    p.attr(op2, TIGRIS_ATTR_CUMSUM_OPTIONS, opt, 2);
    p.attr(op3, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    p.set<int8_t>(in, {5, -2, 100, 30});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<int8_t>(out), (std::vector<int8_t>{6, 4, 104, 127}));
    EXPECT_EQ(p.run_s8(op2), -1);  // 2·s_in/(2^20·s_out) = 1: multiplier not below one
    EXPECT_EQ(p.run_s8(op3), -1);  // no CUMSUM_OPTIONS
}

TEST(ArgS8, RawCompareFirstIndexWinsAndFloatInputGoesToTheFloatKernel) {
    const std::vector<int32_t> s = {2, 3, 4, 2};
    std::vector<int8_t> x(48);
    for (int i = 0; i < 48; i++) x[i] = (int8_t)((i * 37) % 7 - 3);  // many ties
    for (uint8_t axis = 0; axis < 4; axis++)
        for (int is_max = 0; is_max < 2; is_max++) {
            KPlan p;
            uint16_t q = p.quant(0.2f, 11);
            uint16_t in = p.tensor(TIGRIS_DTYPE_INT8, s, q), out = p.tensor(TIGRIS_DTYPE_INT32, reduced(s, axis, is_max));
            uint16_t op = p.op(is_max ? TIGRIS_OP_ARG_MAX : TIGRIS_OP_ARG_MIN, {in}, {out});
            p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
            p.finish();
            p.set(in, x);
            ASSERT_EQ(p.run_s8(op), 0);
            EXPECT_EQ(p.get<int32_t>(out), ref_arg(x, s, axis, is_max)) << (int)axis << is_max;
        }
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {4}), out = p.tensor(TIGRIS_DTYPE_INT32, {1});
    uint16_t in8 = p.tensor(TIGRIS_DTYPE_INT8, {4}), bad = p.tensor(TIGRIS_DTYPE_INT8, {1});
    uint16_t op = p.op(TIGRIS_OP_ARG_MIN, {in}, {out});
    uint16_t op2 = p.op(TIGRIS_OP_ARG_MAX, {in8}, {bad});
    uint8_t axis = 0;
    p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
    p.attr(op2, TIGRIS_ATTR_AXES, &axis, 1);
    p.finish();
    p.set<float>(in, {0.5f, -2.0f, 3.0f, -2.0f});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<int32_t>(out)[0], 1);
    EXPECT_EQ(p.run_s8(op2), -1);  // int8 output: must be int32
    p.set<int8_t>(in8, {-128, 127, 127, 0});
    EXPECT_EQ(p.run_f32(op2), -1);
}
