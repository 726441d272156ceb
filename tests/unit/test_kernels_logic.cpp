// Logic family kernels: comparisons (f32, s8), LogicalAnd/Or/Not, SelectV2,
// Cast and AddN (f32, s8). Goldens are hand-computed or come from plain
// int64 / double re-implementations written here, independent of
// s8/fixedpoint.h.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "test_kernels_plan.h"

using kt::KPlan;

namespace {

// ---- Independent integer helpers (docs/runtime-semantics.md R4.1, written with int64) ----

int32_t ref_srdhm(int32_t a, int32_t b) {
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    int64_t p = (int64_t)a * (int64_t)b;
    int64_t nudge = p >= 0 ? (1ll << 30) : (1 - (1ll << 30));
    return (int32_t)((p + nudge) / (1ll << 31));  // C++ division truncates
}

int32_t ref_rdbpot(int32_t x, int e) {
    if (e <= 0) return x;
    int64_t d = 1ll << e;
    int64_t fl = (int64_t)std::floor((double)x / (double)d);
    int64_t rem = (int64_t)x - fl * d;  // in [0, d)
    int64_t thr = (d - 1) / 2 + (x < 0 ? 1 : 0);
    return (int32_t)(fl + (rem > thr ? 1 : 0));
}

int32_t ref_mbqm(int32_t x, int32_t m, int32_t s) {
    int l = s > 0 ? s : 0, r = s > 0 ? 0 : -s;
    return ref_rdbpot(ref_srdhm((int32_t)((int64_t)x * (1ll << l)), m), r);
}

// QuantizeMultiplier in double (frexp, round half away).
void ref_qm(double v, int32_t *m, int32_t *s) {
    if (v <= 0) {
        *m = 0;
        *s = 0;
        return;
    }
    int e;
    double q = std::frexp(v, &e);
    int64_t mm = (int64_t)std::llround(q * 2147483648.0);
    if (mm == (1ll << 31)) {
        mm /= 2;
        e++;
    }
    if (e < -31) {
        mm = 0;
        e = 0;
    }
    *m = (int32_t)mm;
    *s = e;
}

std::vector<uint8_t> const_attr(uint8_t pos, uint16_t q, std::vector<int32_t> shape = {}) {
    std::vector<uint8_t> a = {pos, 0, (uint8_t)(q & 0xFF), (uint8_t)(q >> 8)};
    for (int32_t d : shape)
        for (int k = 0; k < 4; k++) a.push_back((uint8_t)((uint32_t)d >> (8 * k)));
    return a;
}

std::vector<int32_t> cmp_attr(float sa, float sb) {
    int32_t ma, sha, mb, shb;
    ref_qm(sa, &ma, &sha);
    ref_qm(sb, &mb, &shb);
    return {8, ma, sha, mb, shb};
}

// Row-major index of `idx` in a tensor of shape d broadcast to out (right aligned).
uint32_t bidx(const std::vector<int32_t> &out, const std::vector<int32_t> &d, const std::vector<int32_t> &coord) {
    size_t off = out.size() - d.size();
    uint32_t i = 0;
    for (size_t k = 0; k < d.size(); k++) i = i * (uint32_t)d[k] + (d[k] == 1 ? 0u : (uint32_t)coord[off + k]);
    return i;
}

std::vector<int32_t> coord_of(const std::vector<int32_t> &out, uint32_t i) {
    std::vector<int32_t> c(out.size());
    for (size_t k = out.size(); k-- > 0;) {
        c[k] = (int32_t)(i % (uint32_t)out[k]);
        i /= (uint32_t)out[k];
    }
    return c;
}

uint32_t numel(const std::vector<int32_t> &s) {
    uint32_t n = 1;
    for (int32_t d : s) n *= (uint32_t)d;
    return n;
}

const uint8_t kCmpOps[5] = {TIGRIS_OP_EQUAL, TIGRIS_OP_LESS, TIGRIS_OP_LESS_EQUAL, TIGRIS_OP_GREATER,
                            TIGRIS_OP_GREATER_EQUAL};

template <typename T>
int cmp_ref(uint8_t opc, T a, T b) {
    switch (opc) {
    case TIGRIS_OP_EQUAL: return a == b;
    case TIGRIS_OP_LESS: return a < b;
    case TIGRIS_OP_LESS_EQUAL: return a <= b;
    case TIGRIS_OP_GREATER: return a > b;
    default: return a >= b;
    }
}

// ---- Float comparisons ----

TEST(LogicF32Compare, HandValuesWithNaN) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> a = {1, 2, 3, nan, -0.0f, 5};
    std::vector<float> b = {2, 2, 1, 1, 0.0f, nan};
    // EQ, LT, LE, GT, GE per element, by hand.
    const std::vector<std::vector<uint8_t>> want = {
        {0, 1, 0, 0, 1, 0}, {1, 0, 0, 0, 0, 0}, {1, 1, 0, 0, 1, 0}, {0, 0, 1, 0, 0, 0}, {0, 1, 1, 0, 1, 0}};
    for (int k = 0; k < 5; k++) {
        KPlan p;
        uint16_t ta = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3}), tb = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3});
        uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {2, 3});
        uint16_t op = p.op(kCmpOps[k], {ta, tb}, {ty});
        p.finish();
        p.set(ta, a);
        p.set(tb, b);
        ASSERT_EQ(p.run_f32(op), 0) << k;
        EXPECT_EQ(p.get<uint8_t>(ty), want[k]) << "op " << (int)kCmpOps[k];
    }
}

TEST(LogicF32Compare, BroadcastEachRankUpToFour) {
    struct Form {
        std::vector<int32_t> a, b, out;
    };
    for (Form f : {Form{{1}, {1}, {1}}, Form{{5}, {1}, {5}}, Form{{3, 1}, {1, 4}, {3, 4}},
                   Form{{2, 1, 3}, {4, 1}, {2, 4, 3}}, Form{{2, 1, 3, 1}, {1, 4, 1, 2}, {2, 4, 3, 2}},
                   Form{{1, 1, 1, 1, 3}, {2, 2, 1, 2, 3}, {2, 2, 1, 2, 3}}}) {
        KPlan p;
        uint16_t ta = p.tensor(TIGRIS_DTYPE_FLOAT32, f.a), tb = p.tensor(TIGRIS_DTYPE_FLOAT32, f.b);
        uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, f.out);
        uint16_t op = p.op(TIGRIS_OP_GREATER, {ta, tb}, {ty});
        p.finish();
        auto a = kt::ramp_f32(numel(f.a), 1), b = kt::ramp_f32(numel(f.b), 2);
        for (auto &v : a) v = std::round(v);  // plenty of ties
        for (auto &v : b) v = std::round(v);
        p.set(ta, a);
        p.set(tb, b);
        ASSERT_EQ(p.run_f32(op), 0);
        auto y = p.get<uint8_t>(ty);
        for (uint32_t i = 0; i < numel(f.out); i++) {
            auto c = coord_of(f.out, i);
            EXPECT_EQ(y[i], (uint8_t)(a[bidx(f.out, f.a, c)] > b[bidx(f.out, f.b, c)])) << i;
        }
    }
}

TEST(LogicF32Compare, ConstantOperandFirstOrSecond) {
    for (uint8_t pos : {0, 1}) {
        KPlan p;
        uint16_t tx = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3});
        uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {2, 3});
        uint16_t op = p.op(TIGRIS_OP_LESS, {tx}, {ty});
        p.ops[op].weight_idx = p.weight(std::vector<float>{0.0f, 1.0f, 2.0f});  // per last axis
        auto at = const_attr(pos, TIGRIS_NONE16);
        p.attr(op, TIGRIS_ATTR_CONSTANT_OPERAND, at.data(), at.size());
        p.finish();
        p.set<float>(tx, {-1, 1, 3, 0, 0.5f, 2});
        ASSERT_EQ(p.run_f32(op), 0);
        if (pos == 1)  // x < c
            EXPECT_EQ(p.get<uint8_t>(ty), (std::vector<uint8_t>{1, 0, 0, 0, 1, 0}));
        else  // c < x
            EXPECT_EQ(p.get<uint8_t>(ty), (std::vector<uint8_t>{0, 0, 1, 0, 0, 0}));
    }
}

TEST(LogicF32Compare, LongFormConstantShape) {
    KPlan p;
    uint16_t tx = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3});
    uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {2, 3});
    uint16_t op = p.op(TIGRIS_OP_EQUAL, {tx}, {ty});
    p.ops[op].weight_idx = p.weight(std::vector<float>{1.0f, 5.0f});  // shape [2,1]
    auto at = const_attr(1, TIGRIS_NONE16, {2, 1});
    p.attr(op, TIGRIS_ATTR_CONSTANT_OPERAND, at.data(), at.size());
    p.finish();
    p.set<float>(tx, {1, 5, 1, 5, 1, 5});  // row 0 against 1, row 1 against 5
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<uint8_t>(ty), (std::vector<uint8_t>{1, 0, 1, 1, 0, 1}));
}

TEST(LogicF32Compare, Refusals) {
    {  // output not bool
        KPlan p;
        uint16_t ta = p.tensor(TIGRIS_DTYPE_FLOAT32, {4}), tb = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
        uint16_t ty = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
        uint16_t op = p.op(TIGRIS_OP_EQUAL, {ta, tb}, {ty});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {  // operand does not broadcast
        KPlan p;
        uint16_t ta = p.tensor(TIGRIS_DTYPE_FLOAT32, {2, 4}), tb = p.tensor(TIGRIS_DTYPE_FLOAT32, {3});
        uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {2, 4});
        uint16_t op = p.op(TIGRIS_OP_LESS, {ta, tb}, {ty});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {  // constant without CONSTANT_OPERAND, and a position beyond the arity
        for (int variant = 0; variant < 2; variant++) {
            KPlan p;
            uint16_t tx = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
            uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {4});
            uint16_t op = p.op(TIGRIS_OP_GREATER, {tx}, {ty});
            p.ops[op].weight_idx = p.weight(std::vector<float>{1.0f});
            if (variant == 1) {
                auto at = const_attr(2, TIGRIS_NONE16);
                p.attr(op, TIGRIS_ATTR_CONSTANT_OPERAND, at.data(), at.size());
            }
            p.finish();
            EXPECT_EQ(p.run_f32(op), -1) << variant;
        }
    }
    {  // constant of a size that is no short form
        KPlan p;
        uint16_t tx = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
        uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {4});
        uint16_t op = p.op(TIGRIS_OP_GREATER, {tx}, {ty});
        p.ops[op].weight_idx = p.weight(std::vector<float>{1.0f, 2.0f});
        auto at = const_attr(1, TIGRIS_NONE16);
        p.attr(op, TIGRIS_ATTR_CONSTANT_OPERAND, at.data(), at.size());
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
}

TEST(LogicF32Compare, BandComputesOnlyItsRows) {
    KPlan p;
    uint16_t ta = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 4, 1, 2}), tb = p.tensor(TIGRIS_DTYPE_FLOAT32, {2});
    uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {1, 4, 1, 2});
    uint16_t op = p.op(TIGRIS_OP_GREATER_EQUAL, {ta, tb}, {ty});
    p.finish();
    std::vector<float> a = {0, 0, 0, 0, 1, 5, 3, 3};  // rows 2-3 matter
    std::vector<float> b = {1, 4};
    std::vector<uint8_t> y(8, 0xEE);
    p.ptrs[ta] = a.data();
    p.ptrs[tb] = b.data();
    p.ptrs[ty] = y.data();
    auto &t = p.mem.tile;
    t.active = 1;
    t.out_h = 2;
    t.in_h = 2;
    t.out_w = 1;
    t.in_w = 1;
    t.in_row_start = 2;
    t.out_row_start = 2;
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(y, (std::vector<uint8_t>{0xEE, 0xEE, 0xEE, 0xEE, 1, 1, 1, 0}));
}

TEST(LogicF32Compare, GeneralBroadcastUnderABandIsRefused) {
    KPlan p;
    uint16_t ta = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 4, 1, 2}), tb = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 4, 1, 1});
    uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {1, 4, 1, 2});
    uint16_t op = p.op(TIGRIS_OP_LESS, {ta, tb}, {ty});
    p.finish();
    ASSERT_EQ(p.run_f32(op), 0);  // whole tensor: fine
    auto &t = p.mem.tile;
    t.active = 1;
    t.out_h = 2;
    t.in_h = 2;
    t.out_w = 1;
    t.in_w = 1;
    EXPECT_EQ(p.run_f32(op), -1);
}

TEST(LogicF32Compare, RankEightLeadingRepeats) {
    const std::vector<int32_t> so = {2, 2, 1, 1, 1, 1, 2, 3}, sb = {1, 1, 1, 1, 1, 1, 2, 3};
    KPlan p;
    uint16_t ta = p.tensor(TIGRIS_DTYPE_FLOAT32, so), tb = p.tensor(TIGRIS_DTYPE_FLOAT32, sb);
    uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, so);
    uint16_t op = p.op(TIGRIS_OP_LESS_EQUAL, {ta, tb}, {ty});
    p.finish();
    auto a = kt::ramp_f32(24, 5), b = kt::ramp_f32(6, 6);
    p.set(ta, a);
    p.set(tb, b);
    ASSERT_EQ(p.run_f32(op), 0);
    auto y = p.get<uint8_t>(ty);
    for (int i = 0; i < 24; i++) EXPECT_EQ(y[i], (uint8_t)(a[i] <= b[i % 6])) << i;
}

// ---- int8 comparisons ----

TEST(LogicS8Compare, MatchesInt64ReferenceWithBroadcast) {
    const float sa = 0.05f, sb = 0.0375f;
    const int32_t za = 3, zb = -7;
    for (int k = 0; k < 5; k++) {
        KPlan p;
        uint16_t qa = p.quant(sa, za), qb = p.quant(sb, zb);
        uint16_t ta = p.tensor(TIGRIS_DTYPE_INT8, {4, 1}, qa), tb = p.tensor(TIGRIS_DTYPE_INT8, {1, 5}, qb);
        uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {4, 5});
        uint16_t op = p.op(kCmpOps[k], {ta, tb}, {ty});
        auto rq = cmp_attr(sa, sb);
        p.attr(op, TIGRIS_ATTR_COMPARISON_REQUANT, rq.data(), 20);
        p.finish();
        std::vector<int8_t> a = {-128, 3, 10, 127}, b = {-7, -128, 6, 17, 127};
        p.set(ta, a);
        p.set(tb, b);
        ASSERT_EQ(p.run_s8(op), 0);
        auto y = p.get<uint8_t>(ty);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 5; j++) {
                int32_t A = ref_mbqm((a[i] - za) * 256, rq[1], rq[2]);
                int32_t B = ref_mbqm((b[j] - zb) * 256, rq[3], rq[4]);
                EXPECT_EQ(y[i * 5 + j], (uint8_t)cmp_ref(kCmpOps[k], A, B)) << k << " " << i << " " << j;
            }
    }
}

TEST(LogicS8Compare, HandCaseEqualScales) {
    // Both scale 0.5, zp 0: values compare as integers.
    KPlan p;
    uint16_t q = p.quant(0.5f, 0);
    uint16_t ta = p.tensor(TIGRIS_DTYPE_INT8, {4}, q), tb = p.tensor(TIGRIS_DTYPE_INT8, {4}, q);
    uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {4});
    uint16_t op = p.op(TIGRIS_OP_LESS_EQUAL, {ta, tb}, {ty});
    std::vector<int32_t> rq = {8, 1 << 30, 0, 1 << 30, 0};  // 0.5 = 2^30 · 2^-31 · 2^0
    p.attr(op, TIGRIS_ATTR_COMPARISON_REQUANT, rq.data(), 20);
    p.finish();
    p.set<int8_t>(ta, {1, 2, -5, 127});
    p.set<int8_t>(tb, {2, 2, -6, -128});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<uint8_t>(ty), (std::vector<uint8_t>{1, 1, 0, 0}));
}

TEST(LogicS8Compare, ConstantOperandUsesItsOwnQuant) {
    // x (scale 0.1, zp 0) > constant 20 encoded at scale 0.05 zp 0 (= 1.0).
    KPlan p;
    uint16_t qx = p.quant(0.1f, 0), qc = p.quant(0.05f, 0);
    uint16_t tx = p.tensor(TIGRIS_DTYPE_INT8, {5}, qx), ty = p.tensor(TIGRIS_DTYPE_BOOL, {5});
    uint16_t op = p.op(TIGRIS_OP_GREATER, {tx}, {ty});
    p.ops[op].weight_idx = p.weight(std::vector<int8_t>{20});
    auto at = const_attr(1, qc);
    p.attr(op, TIGRIS_ATTR_CONSTANT_OPERAND, at.data(), at.size());
    auto rq = cmp_attr(0.1f, 0.05f);
    p.attr(op, TIGRIS_ATTR_COMPARISON_REQUANT, rq.data(), 20);
    p.finish();
    p.set<int8_t>(tx, {9, 10, 11, -100, 100});  // 0.9, 1.0, 1.1, -10, 10
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<uint8_t>(ty), (std::vector<uint8_t>{0, 0, 1, 0, 1}));
}

TEST(LogicS8Compare, FloatOperandsInAnInt8PlanUseTheFloatKernel) {
    KPlan p;
    uint16_t ta = p.tensor(TIGRIS_DTYPE_FLOAT32, {3}), tb = p.tensor(TIGRIS_DTYPE_FLOAT32, {3});
    uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {3});
    uint16_t op = p.op(TIGRIS_OP_LESS, {ta, tb}, {ty});
    p.finish();
    p.set<float>(ta, {1, 2, 3});
    p.set<float>(tb, {2, 2, 2});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<uint8_t>(ty), (std::vector<uint8_t>{1, 0, 0}));
}

TEST(LogicS8Compare, Refusals) {
    for (int variant = 0; variant < 5; variant++) {
        KPlan p;
        uint16_t q = p.quant(0.5f, 0);
        uint16_t ta = p.tensor(TIGRIS_DTYPE_INT8, {4}, q), tb = p.tensor(TIGRIS_DTYPE_INT8, {4}, q);
        if (variant == 4) tb = p.tensor(TIGRIS_DTYPE_INT8, {4});  // no quant record
        uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {4});
        uint16_t op = p.op(TIGRIS_OP_EQUAL, {ta, tb}, {ty});
        std::vector<int32_t> rq = {8, 1 << 30, 0, 1 << 30, 0};
        if (variant == 1) rq[0] = 7;
        if (variant == 2) rq[2] = 1;
        if (variant == 3) rq[3] = -1;
        if (variant != 0) p.attr(op, TIGRIS_ATTR_COMPARISON_REQUANT, rq.data(), 20);
        p.finish();
        EXPECT_EQ(p.run_s8(op), -1) << variant;
    }
}

// ---- Logic ops (byte level, both dispatchers) ----

TEST(LogicBool, AndOrBroadcastOnBothRoutes) {
    for (int route = 0; route < 2; route++)
        for (uint8_t opc : {TIGRIS_OP_LOGICAL_AND, TIGRIS_OP_LOGICAL_OR}) {
            KPlan p;
            uint16_t ta = p.tensor(TIGRIS_DTYPE_BOOL, {2, 1, 3}), tb = p.tensor(TIGRIS_DTYPE_BOOL, {2, 1});
            uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {2, 2, 3});
            uint16_t op = p.op(opc, {ta, tb}, {ty});
            p.finish();
            p.set<uint8_t>(ta, {1, 0, 1, 0, 0, 1});
            p.set<uint8_t>(tb, {1, 0});
            ASSERT_EQ(route ? p.run_s8(op) : p.run_f32(op), 0);
            // out[i][j][k] = a[i][0][k] op b[j][0]
            std::vector<uint8_t> want = opc == TIGRIS_OP_LOGICAL_AND
                                            ? std::vector<uint8_t>{1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0}
                                            : std::vector<uint8_t>{1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1};
            EXPECT_EQ(p.get<uint8_t>(ty), want) << route << " " << (int)opc;
        }
}

TEST(LogicBool, OrWithConstantOperand) {
    KPlan p;
    uint16_t tx = p.tensor(TIGRIS_DTYPE_BOOL, {2, 2}), ty = p.tensor(TIGRIS_DTYPE_BOOL, {2, 2});
    uint16_t op = p.op(TIGRIS_OP_LOGICAL_OR, {tx}, {ty});
    p.ops[op].weight_idx = p.weight(std::vector<uint8_t>{0, 1});
    auto at = const_attr(0, TIGRIS_NONE16);
    p.attr(op, TIGRIS_ATTR_CONSTANT_OPERAND, at.data(), at.size());
    p.finish();
    p.set<uint8_t>(tx, {0, 0, 1, 0});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<uint8_t>(ty), (std::vector<uint8_t>{0, 1, 1, 1}));
}

TEST(LogicBool, NotAndItsBand) {
    for (int route = 0; route < 2; route++) {
        KPlan p;
        uint16_t tx = p.tensor(TIGRIS_DTYPE_BOOL, {1, 3, 1, 1}), ty = p.tensor(TIGRIS_DTYPE_BOOL, {1, 3, 1, 1});
        uint16_t op = p.op(TIGRIS_OP_LOGICAL_NOT, {tx}, {ty});
        p.finish();
        p.set<uint8_t>(tx, {1, 0, 1});
        ASSERT_EQ(route ? p.run_s8(op) : p.run_f32(op), 0);
        EXPECT_EQ(p.get<uint8_t>(ty), (std::vector<uint8_t>{0, 1, 0}));
        auto &t = p.mem.tile;
        std::vector<uint8_t> x = {1, 1, 0}, y(3, 0xEE);
        p.ptrs[tx] = x.data();
        p.ptrs[ty] = y.data();
        t.active = 1;
        t.out_h = 1;
        t.in_h = 1;
        t.in_row_start = 2;
        t.out_row_start = 2;
        ASSERT_EQ(route ? p.run_s8(op) : p.run_f32(op), 0);
        EXPECT_EQ(y, (std::vector<uint8_t>{0xEE, 0xEE, 1}));
    }
}

TEST(LogicBool, Refusals) {
    {  // Not with a data-dtype input
        KPlan p;
        uint16_t tx = p.tensor(TIGRIS_DTYPE_INT8, {3}), ty = p.tensor(TIGRIS_DTYPE_BOOL, {3});
        uint16_t op = p.op(TIGRIS_OP_LOGICAL_NOT, {tx}, {ty});
        p.finish();
        EXPECT_EQ(p.run_s8(op), -1);
    }
    {  // Not with sizes that differ
        KPlan p;
        uint16_t tx = p.tensor(TIGRIS_DTYPE_BOOL, {3}), ty = p.tensor(TIGRIS_DTYPE_BOOL, {4});
        uint16_t op = p.op(TIGRIS_OP_LOGICAL_NOT, {tx}, {ty});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {  // And with a float operand
        KPlan p;
        uint16_t ta = p.tensor(TIGRIS_DTYPE_BOOL, {4}), tb = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
        uint16_t ty = p.tensor(TIGRIS_DTYPE_BOOL, {4});
        uint16_t op = p.op(TIGRIS_OP_LOGICAL_AND, {ta, tb}, {ty});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
}

// ---- SelectV2 ----

TEST(LogicSelect, RankFiveGeneralBroadcastFloatAndInt8) {
    const std::vector<int32_t> sc = {2, 1, 3, 1, 1}, sa = {1, 2, 1, 1, 2}, sb = {2, 2, 3, 1, 2},
                               so = {2, 2, 3, 1, 2};
    for (int route = 0; route < 2; route++) {
        KPlan p;
        uint8_t d = route ? TIGRIS_DTYPE_INT8 : TIGRIS_DTYPE_FLOAT32;
        uint16_t q = route ? p.quant(0.1f, 2) : TIGRIS_NONE16;
        uint16_t tc = p.tensor(TIGRIS_DTYPE_BOOL, sc);
        uint16_t ta = p.tensor(d, sa, q), tb = p.tensor(d, sb, q), ty = p.tensor(d, so, q);
        uint16_t op = p.op(TIGRIS_OP_SELECT_V2, {tc, ta, tb}, {ty});
        p.finish();
        std::vector<uint8_t> c = {1, 0, 1, 0, 0, 1};
        p.set(tc, c);
        std::vector<float> af(numel(sa)), bf(numel(sb));
        std::vector<int8_t> ai(numel(sa)), bi(numel(sb));
        for (size_t i = 0; i < af.size(); i++) af[i] = 100.0f + (float)i, ai[i] = (int8_t)(100 + i);
        for (size_t i = 0; i < bf.size(); i++) bf[i] = -(float)i, bi[i] = (int8_t)(-(int)i);
        if (route) {
            p.set(ta, ai);
            p.set(tb, bi);
        } else {
            p.set(ta, af);
            p.set(tb, bf);
        }
        ASSERT_EQ(route ? p.run_s8(op) : p.run_f32(op), 0);
        for (uint32_t i = 0; i < numel(so); i++) {
            auto co = coord_of(so, i);
            bool pick = c[bidx(so, sc, co)] != 0;
            if (route) {
                int8_t w = pick ? ai[bidx(so, sa, co)] : bi[bidx(so, sb, co)];
                EXPECT_EQ(p.get<int8_t>(ty)[i], w) << i;
            } else {
                float w = pick ? af[bidx(so, sa, co)] : bf[bidx(so, sb, co)];
                EXPECT_EQ(p.get<float>(ty)[i], w) << i;
            }
        }
    }
}

TEST(LogicSelect, ConstantAtEachPosition) {
    for (uint8_t pos : {0, 1, 2}) {
        KPlan p;
        uint16_t t0 = p.tensor(pos == 0 ? TIGRIS_DTYPE_FLOAT32 : TIGRIS_DTYPE_BOOL, {4});
        uint16_t t1 = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
        uint16_t ty = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
        uint16_t op = p.op(TIGRIS_OP_SELECT_V2, {t0, t1}, {ty});
        if (pos == 0)
            p.ops[op].weight_idx = p.weight(std::vector<uint8_t>{0, 1, 1, 0});
        else
            p.ops[op].weight_idx = p.weight(std::vector<float>{7.0f});
        auto at = const_attr(pos, TIGRIS_NONE16);
        p.attr(op, TIGRIS_ATTR_CONSTANT_OPERAND, at.data(), at.size());
        p.finish();
        std::vector<uint8_t> cond = {1, 0, 0, 1};
        std::vector<float> v1 = {1, 2, 3, 4}, v2 = {-1, -2, -3, -4};
        if (pos == 0) {
            p.set(t0, v1);
            p.set(t1, v2);
        } else {
            p.set(t0, cond);
            p.set(t1, pos == 1 ? v2 : v1);
        }
        ASSERT_EQ(p.run_f32(op), 0) << (int)pos;
        std::vector<float> want = pos == 0   ? std::vector<float>{-1, 2, 3, -4}
                                  : pos == 1 ? std::vector<float>{7, -2, -3, 7}
                                             : std::vector<float>{1, 7, 7, 4};
        EXPECT_EQ(p.get<float>(ty), want) << (int)pos;
    }
}

TEST(LogicSelect, Int8ConstantCondition) {
    KPlan p;
    uint16_t q = p.quant(0.25f, -5);
    uint16_t ta = p.tensor(TIGRIS_DTYPE_INT8, {2, 2}, q), tb = p.tensor(TIGRIS_DTYPE_INT8, {2, 2}, q);
    uint16_t ty = p.tensor(TIGRIS_DTYPE_INT8, {2, 2}, q);
    uint16_t op = p.op(TIGRIS_OP_SELECT_V2, {ta, tb}, {ty});
    p.ops[op].weight_idx = p.weight(std::vector<uint8_t>{0, 1});  // per last axis
    auto at = const_attr(0, TIGRIS_NONE16);
    p.attr(op, TIGRIS_ATTR_CONSTANT_OPERAND, at.data(), at.size());
    p.finish();
    p.set<int8_t>(ta, {1, 2, 3, 4});
    p.set<int8_t>(tb, {-1, -2, -3, -4});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<int8_t>(ty), (std::vector<int8_t>{-1, 2, -3, 4}));
}

TEST(LogicSelect, Refusals) {
    {  // condition not bool
        KPlan p;
        uint16_t tc = p.tensor(TIGRIS_DTYPE_FLOAT32, {2}), ta = p.tensor(TIGRIS_DTYPE_FLOAT32, {2});
        uint16_t tb = p.tensor(TIGRIS_DTYPE_FLOAT32, {2}), ty = p.tensor(TIGRIS_DTYPE_FLOAT32, {2});
        uint16_t op = p.op(TIGRIS_OP_SELECT_V2, {tc, ta, tb}, {ty});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {  // two operands and no constant
        KPlan p;
        uint16_t tc = p.tensor(TIGRIS_DTYPE_BOOL, {2}), ta = p.tensor(TIGRIS_DTYPE_FLOAT32, {2});
        uint16_t ty = p.tensor(TIGRIS_DTYPE_FLOAT32, {2});
        uint16_t op = p.op(TIGRIS_OP_SELECT_V2, {tc, ta}, {ty});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
    {  // int8 value operand with a float output
        KPlan p;
        uint16_t tc = p.tensor(TIGRIS_DTYPE_BOOL, {2}), ta = p.tensor(TIGRIS_DTYPE_INT8, {2});
        uint16_t tb = p.tensor(TIGRIS_DTYPE_FLOAT32, {2}), ty = p.tensor(TIGRIS_DTYPE_FLOAT32, {2});
        uint16_t op = p.op(TIGRIS_OP_SELECT_V2, {tc, ta, tb}, {ty});
        p.finish();
        EXPECT_EQ(p.run_f32(op), -1);
    }
}

// ---- Cast ----

TEST(LogicCast, BoolToFloat) {
    KPlan p;
    uint16_t tx = p.tensor(TIGRIS_DTYPE_BOOL, {1, 5}), ty = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 5});
    uint16_t op = p.op(TIGRIS_OP_CAST, {tx}, {ty});
    p.finish();
    p.set<uint8_t>(tx, {0, 1, 1, 0, 1});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(ty), (std::vector<float>{0, 1, 1, 0, 1}));
    ASSERT_EQ(p.run_s8(op), 0);  // float output: the int8 dispatcher hands it over
    EXPECT_EQ(p.get<float>(ty), (std::vector<float>{0, 1, 1, 0, 1}));
}

TEST(LogicCast, BoolToInt8TrueCode) {
    struct Case {
        float scale;
        int32_t zp;
    };
    // 0.4f: the float quotient 1/0.4f is exactly 2.5f (the real one is just
    // below), so roundf gives 3. 1/255.5: above 255 -> 127.
    for (Case c : {Case{0.4f, -128}, Case{1.0f / 3.0f, 0}, Case{0.5f, 126}, Case{1.0f / 255.5f, -100},
                   Case{1.0f / 255.0f, -128}, Case{2.0f, 5}, Case{1e-30f, 0}, Case{1e30f, -3}, Case{0.0036f, 0}}) {
        KPlan p;
        uint16_t q = p.quant(c.scale, c.zp);
        uint16_t tx = p.tensor(TIGRIS_DTYPE_BOOL, {4}), ty = p.tensor(TIGRIS_DTYPE_INT8, {4}, q);
        uint16_t op = p.op(TIGRIS_OP_CAST, {tx}, {ty});
        p.finish();
        p.set<uint8_t>(tx, {0, 1, 0, 1});
        ASSERT_EQ(p.run_s8(op), 0) << c.scale;
        float inv = 1.0f / c.scale;  // the float division of the spec
        int32_t one = inv > 255.0f ? 127 : std::min<int32_t>(127, (int32_t)std::round(inv) + c.zp);
        int8_t z = (int8_t)c.zp, o = (int8_t)one;
        EXPECT_EQ(p.get<int8_t>(ty), (std::vector<int8_t>{z, o, z, o})) << c.scale << " " << c.zp;
    }
}

TEST(LogicCast, HandTrueCodes) {
    // 0.4f -> 3 - 128 = -125; 1/3 -> 3; 0.5 + zp 126 -> min(127, 128) = 127;
    // 2.0 -> roundf(0.5) = 1 (half away) + 5.
    const std::vector<std::pair<float, int32_t>> in = {{0.4f, -128}, {1.0f / 3.0f, 0}, {0.5f, 126}, {2.0f, 5}};
    const std::vector<int8_t> want = {-125, 3, 127, 6};
    for (size_t k = 0; k < in.size(); k++) {
        KPlan p;
        uint16_t q = p.quant(in[k].first, in[k].second);
        uint16_t tx = p.tensor(TIGRIS_DTYPE_BOOL, {1}), ty = p.tensor(TIGRIS_DTYPE_INT8, {1}, q);
        uint16_t op = p.op(TIGRIS_OP_CAST, {tx}, {ty});
        p.finish();
        p.set<uint8_t>(tx, {1});
        ASSERT_EQ(p.run_s8(op), 0);
        EXPECT_EQ(p.get<int8_t>(ty)[0], want[k]) << k;
    }
}

TEST(LogicCast, DequantizeAndQuantize) {
    {
        KPlan p;
        uint16_t q = p.quant(0.25f, -3);
        uint16_t tx = p.tensor(TIGRIS_DTYPE_INT8, {4}, q), ty = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
        uint16_t op = p.op(TIGRIS_OP_CAST, {tx}, {ty});
        p.finish();
        p.set<int8_t>(tx, {-3, -128, 127, 1});
        ASSERT_EQ(p.run_s8(op), 0);
        EXPECT_EQ(p.get<float>(ty), (std::vector<float>{0.0f, -31.25f, 32.5f, 1.0f}));
    }
    {
        KPlan p;
        uint16_t q = p.quant(0.5f, 10);
        uint16_t tx = p.tensor(TIGRIS_DTYPE_FLOAT32, {5}), ty = p.tensor(TIGRIS_DTYPE_INT8, {5}, q);
        uint16_t op = p.op(TIGRIS_OP_CAST, {tx}, {ty});
        p.finish();
        p.set<float>(tx, {0.25f, -0.25f, 100.0f, -1000.0f, 1.1f});
        ASSERT_EQ(p.run_s8(op), 0);
        // 0.5 -> 1 (away) + 10; -0.5 -> -1 + 10; 200 + 10 -> 127; -2000 -> -128; 2.2 -> 2 + 10
        EXPECT_EQ(p.get<int8_t>(ty), (std::vector<int8_t>{11, 9, 127, -128, 12}));
    }
}

TEST(LogicCast, Refusals) {
    for (int variant = 0; variant < 4; variant++) {
        KPlan p;
        uint16_t q = variant == 0 ? p.quant(0.0f, 0) : (variant == 1 ? p.quant(-0.5f, 0) : p.quant(0.5f, 0));
        uint16_t tx = p.tensor(TIGRIS_DTYPE_BOOL, {variant == 2 ? 3 : 4});
        uint16_t ty = variant == 3 ? p.tensor(TIGRIS_DTYPE_INT8, {4}) : p.tensor(TIGRIS_DTYPE_INT8, {4}, q);
        uint16_t op = p.op(TIGRIS_OP_CAST, {tx}, {ty});
        p.finish();
        EXPECT_EQ(p.run_s8(op), -1) << variant;
    }
}

// ---- AddN ----

TEST(LogicAddN, FloatAddsInOrderFromZero) {
    KPlan p;
    uint16_t a = p.tensor(TIGRIS_DTYPE_FLOAT32, {2}), b = p.tensor(TIGRIS_DTYPE_FLOAT32, {2});
    uint16_t c = p.tensor(TIGRIS_DTYPE_FLOAT32, {2}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {2});
    uint16_t op = p.op(TIGRIS_OP_ADD_N, {a, b, c}, {y});
    p.finish();
    p.set<float>(a, {1e8f, 1.5f});
    p.set<float>(b, {1.0f, 2.0f});
    p.set<float>(c, {-1e8f, -0.25f});
    ASSERT_EQ(p.run_f32(op), 0);
    // (0 + 1e8) + 1 = 1e8 in float, - 1e8 = 0 (another order would give 1).
    EXPECT_EQ(p.get<float>(y), (std::vector<float>{0.0f, 3.25f}));
}

TEST(LogicAddN, FloatSingleInputAndRefusal) {
    KPlan p;
    uint16_t a = p.tensor(TIGRIS_DTYPE_FLOAT32, {3}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {3});
    uint16_t b = p.tensor(TIGRIS_DTYPE_FLOAT32, {2});
    uint16_t op = p.op(TIGRIS_OP_ADD_N, {a}, {y});
    uint16_t bad = p.op(TIGRIS_OP_ADD_N, {a, b}, {y});
    p.finish();
    p.set<float>(a, {-0.0f, 2.5f, -7.0f});
    ASSERT_EQ(p.run_f32(op), 0);
    auto v = p.get<float>(y);
    EXPECT_EQ(v, (std::vector<float>{0.0f, 2.5f, -7.0f}));
    EXPECT_FALSE(std::signbit(v[0]));  // 0.0 + -0.0 = +0.0
    EXPECT_EQ(p.run_f32(bad), -1);
}

TEST(LogicAddN, Int8HandCase) {
    // s_x = s_y = 0.5, zp 0: the sum of the codes, saturated.
    KPlan p;
    uint16_t q = p.quant(0.5f, 0);
    uint16_t a = p.tensor(TIGRIS_DTYPE_INT8, {4}, q), b = p.tensor(TIGRIS_DTYPE_INT8, {4}, q);
    uint16_t y = p.tensor(TIGRIS_DTYPE_INT8, {4}, q);
    uint16_t op = p.op(TIGRIS_OP_ADD_N, {a, b}, {y});
    p.finish();
    p.set<int8_t>(a, {1, -5, 100, -100});
    p.set<int8_t>(b, {2, 3, 100, -100});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<int8_t>(y), (std::vector<int8_t>{3, -2, 127, -128}));
}

TEST(LogicAddN, Int8MatchesInt64Reference) {
    const float sx = 0.07f, sy = 0.13f;
    const int32_t zx = -9, zy = 17;
    KPlan p;
    uint16_t qx = p.quant(sx, zx), qy = p.quant(sy, zy);
    uint16_t a = p.tensor(TIGRIS_DTYPE_INT8, {3, 7}, qx), b = p.tensor(TIGRIS_DTYPE_INT8, {3, 7}, qx);
    uint16_t c = p.tensor(TIGRIS_DTYPE_INT8, {3, 7}, qx), y = p.tensor(TIGRIS_DTYPE_INT8, {3, 7}, qy);
    uint16_t op = p.op(TIGRIS_OP_ADD_N, {a, b, c}, {y});
    p.finish();
    auto va = kt::ramp_s8(21, 1), vb = kt::ramp_s8(21, 2), vc = kt::ramp_s8(21, 3);
    p.set(a, va);
    p.set(b, vb);
    p.set(c, vc);
    ASSERT_EQ(p.run_s8(op), 0);
    int32_t m, s;
    ref_qm(2.0 * (double)sx / (1048576.0 * (double)sy), &m, &s);
    auto got = p.get<int8_t>(y);
    for (int i = 0; i < 21; i++) {
        int64_t acc = (int64_t)(va[i] - zx + vb[i] - zx + vc[i] - zx - zx) * 524288;
        int32_t r = ref_mbqm((int32_t)acc, m, s) + zy;
        r = std::max(-128, std::min(127, r));
        EXPECT_EQ(got[i], (int8_t)r) << i;
    }
}

TEST(LogicAddN, Int8AccumulatorStartsAtMinusZeroPoint) {
    // One input, scale 0.5 zp 2 -> output scale 1.0 zp -3. Code 4 is the real
    // 1.0, but TFLite's accumulator starts at -zp: S = -2 + (4 - 2) = 0 codes,
    // so the output is 0 + (-3) = -3 (not -2). Code 8: S = 4 -> 2 - 3 = -1.
    KPlan p;
    uint16_t qx = p.quant(0.5f, 2), qy = p.quant(1.0f, -3);
    uint16_t a = p.tensor(TIGRIS_DTYPE_INT8, {2}, qx), y = p.tensor(TIGRIS_DTYPE_INT8, {2}, qy);
    uint16_t op = p.op(TIGRIS_OP_ADD_N, {a}, {y});
    p.finish();
    p.set<int8_t>(a, {4, 8});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<int8_t>(y), (std::vector<int8_t>{-3, -1}));
}

TEST(LogicAddN, Int8Refusals) {
    for (int variant = 0; variant < 3; variant++) {
        KPlan p;
        uint16_t qx = p.quant(0.5f, 0), qo = p.quant(0.25f, 1);
        uint16_t qy = variant == 1 ? p.quant(0.5f / 524288.0f, 0) : p.quant(0.5f, 0);  // rescale = 1
        uint16_t a = p.tensor(TIGRIS_DTYPE_INT8, {4}, qx);
        uint16_t b = p.tensor(TIGRIS_DTYPE_INT8, {4}, variant == 0 ? qo : qx);
        uint16_t y = variant == 2 ? p.tensor(TIGRIS_DTYPE_INT8, {4}) : p.tensor(TIGRIS_DTYPE_INT8, {4}, qy);
        uint16_t op = p.op(TIGRIS_OP_ADD_N, {a, b}, {y});
        p.finish();
        EXPECT_EQ(p.run_s8(op), -1) << variant;
    }
}

}  // namespace
