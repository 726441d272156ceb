// Elementwise binary kernels (Add, Sub, Mul, Div, SquaredDifference, Maximum,
// Minimum, FloorDiv, FloorMod, PRelu) through the dispatchers: hand-worked
// values, every broadcast kind of ranks 1-4, the constant operand with and
// without its stored shape, bands, and refusals. The int8 goldens come from a
// re-implementation of TFLite's integer algorithms written here with int64
// arithmetic and plain formulas (multipliers from std::frexp on doubles, as
// TFLite's QuantizeMultiplier does), cross-checked against the real-valued
// result.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "test_kernels_plan.h"

using kt::KPlan;

namespace {

constexpr uint16_t kNone = TIGRIS_NONE16;

// ---- Reference integer arithmetic (int64, plain formulas) ----

int32_t sat32(int64_t v) {
    return (int32_t)std::min<int64_t>(INT32_MAX, std::max<int64_t>(INT32_MIN, v));
}

int32_t r_srdhm(int32_t a, int32_t b) {
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    int64_t p = (int64_t)a * b;
    int64_t nudge = p >= 0 ? (1ll << 30) : 1 - (1ll << 30);
    return (int32_t)((p + nudge) / (1ll << 31));  // C++ division truncates
}

// x / 2^e rounded half away from zero (exact in double for |x| < 2^53).
int32_t r_rdbpot(int64_t x, int e) {
    if (e <= 0) return (int32_t)x;
    return (int32_t)std::round(std::ldexp((double)x, -e));
}

int32_t r_mbqm(int32_t x, int32_t m, int s) {
    int64_t shifted = (int64_t)x * (1ll << std::max(s, 0));
    return r_rdbpot(r_srdhm((int32_t)shifted, m), std::max(-s, 0));
}

void r_qm(double v, int32_t *m, int *s) {
    if (v <= 0) {
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

int8_t clamp8(int64_t v) { return (int8_t)std::max<int64_t>(-128, std::min<int64_t>(127, v)); }

// gemmlowp's 1/(1+x) on d normalised to [1, 2): Q0.31 result, *rshift = log2 of the normalisation.
int32_t r_reciprocal(int32_t d, int *rshift) {
    int lz = 0;
    while (!(((uint32_t)d << lz) & 0x80000000u)) lz++;
    *rshift = 31 - lz;
    int64_t frac = ((int64_t)d << lz) - (1ll << 31);  // in [0, 2^31)
    int64_t sum = frac + INT32_MAX;
    int32_t half = (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
    const int32_t c48 = (int32_t)std::lround(48.0 / 17.0 * (1 << 29));
    const int32_t cm32 = (int32_t)std::lround(-32.0 / 17.0 * (1 << 29));
    int32_t x = c48 + r_srdhm(half, cm32);
    for (int k = 0; k < 3; k++) {
        int32_t one_minus = (1 << 29) - r_srdhm(half, x);
        x = x + sat32((int64_t)r_srdhm(x, one_minus) * 4);
    }
    return sat32((int64_t)x * 2);
}

// How far v can be shifted left and still fit 32 bits.
int r_headroom(int32_t v) {
    int h = 0;
    while (h < 31) {
        int64_t w = (int64_t)v * (1ll << (h + 1));
        if (w > INT32_MAX || w < INT32_MIN) break;
        h++;
    }
    return h;
}

struct QSpec {
    float scale;
    int zp;
};

// TFLite int8 Div, element by element.
struct RefDiv {
    int32_t m;
    int s;
    int za, zb, zy;
    RefDiv(QSpec a, QSpec b, QSpec y) : za(a.zp), zb(b.zp), zy(y.zp) {
        volatile float prod = b.scale * y.scale;  // float, as TFLite forms it
        volatile float ratio = a.scale / prod;
        r_qm((double)ratio, &m, &s);
    }
    int8_t operator()(int8_t a, int8_t b) const {
        int32_t num = a - za, den = b - zb;
        if (den < 0) {
            num = -num;
            den = -den;
        }
        int rs;
        int32_t inv = r_reciprocal(den, &rs);
        int h = r_headroom(num);
        int32_t quo = r_srdhm((int32_t)((int64_t)num * (1ll << h)), inv);
        int e = rs + h - s;
        return clamp8((int64_t)r_rdbpot(r_srdhm(quo, m), e) + zy);
    }
};

// TFLite int8 SquaredDifference (left shift 7).
struct RefSqDiff {
    int32_t m0, m1, m2;
    int s0, s1, s2;
    int za, zb, zy;
    RefSqDiff(QSpec a, QSpec b, QSpec y) : za(a.zp), zb(b.zp), zy(y.zp) {
        double twice = 2.0 * (double)std::max(a.scale, b.scale);
        r_qm(a.scale / twice, &m0, &s0);
        r_qm(b.scale / twice, &m1, &s1);
        r_qm(twice * twice / (16384.0 * y.scale), &m2, &s2);
    }
    int8_t operator()(int8_t a, int8_t b) const {
        int32_t d = r_mbqm((a - za) * 128, m0, s0) - r_mbqm((b - zb) * 128, m1, s1);
        return clamp8((int64_t)r_mbqm(d * d, m2, s2) + zy);
    }
};

// TFLite int8 PRelu.
struct RefPrelu {
    int32_t m0, m1;
    int s0, s1;
    int zx, zal, zy;
    RefPrelu(QSpec x, QSpec al, QSpec y) : zx(x.zp), zal(al.zp), zy(y.zp) {
        r_qm((double)x.scale / y.scale, &m0, &s0);
        r_qm((double)x.scale * al.scale / y.scale, &m1, &s1);
    }
    int8_t operator()(int8_t x, int8_t al) const {
        int32_t v = x - zx;
        int32_t r = v >= 0 ? r_mbqm(v, m0, s0) : r_mbqm(v * (al - zal), m1, s1);
        return clamp8((int64_t)r + zy);
    }
};

// TFLite int8 Add/Sub (left shift 20) and Mul, with derived multipliers.
struct RefAddSubMul {
    uint8_t op;
    int32_t ma, mb, my;
    int sa_, sb_, sy_;
    int za, zb, zy;
    RefAddSubMul(uint8_t type, QSpec a, QSpec b, QSpec y) : op(type), za(a.zp), zb(b.zp), zy(y.zp) {
        if (type == TIGRIS_OP_MUL) {
            r_qm((double)a.scale * b.scale / y.scale, &my, &sy_);
            return;
        }
        double twice = 2.0 * std::max(a.scale, b.scale);
        r_qm(a.scale / twice, &ma, &sa_);
        r_qm(b.scale / twice, &mb, &sb_);
        r_qm(twice / ((1 << 20) * (double)y.scale), &my, &sy_);
    }
    int8_t operator()(int8_t a, int8_t b) const {
        if (op == TIGRIS_OP_MUL) return clamp8((int64_t)r_mbqm((a - za) * (b - zb), my, sy_) + zy);
        int32_t A = r_mbqm((a - za) * (1 << 20), ma, sa_), B = r_mbqm((b - zb) * (1 << 20), mb, sb_);
        return clamp8((int64_t)r_mbqm(op == TIGRIS_OP_ADD ? A + B : A - B, my, sy_) + zy);
    }
};

// ---- Float references (double arithmetic, rounded once to float) ----

float ref_f32(uint8_t op, float a, float b) {
    double x = a, y = b;
    switch (op) {
    case TIGRIS_OP_ADD: return (float)(x + y);
    case TIGRIS_OP_SUB: return (float)(x - y);
    case TIGRIS_OP_MUL: return (float)(x * y);
    // The double quotient of two floats rounded to float is the correctly
    // rounded float quotient (53 >= 2·24 + 2 bits).
    case TIGRIS_OP_DIV: return (float)(x / y);
    case TIGRIS_OP_SQUARED_DIFFERENCE: return (float)((x - y) * (x - y));
    case TIGRIS_OP_MAXIMUM: return (float)std::max(x, y);
    case TIGRIS_OP_MINIMUM: return (float)std::min(x, y);
    // docs/runtime-semantics.md R4.5: floor of the float quotient (TFLite floors the double one).
    case TIGRIS_OP_FLOOR_DIV: return (float)std::floor((double)(float)(x / y));
    case TIGRIS_OP_FLOOR_MOD: {
        double m = x - y * std::floor(x / y);
        return (float)m;
    }
    case TIGRIS_OP_PRELU: return (float)(x >= 0 ? x : x * y);
    default: return NAN;
    }
}

// Index into an operand of shape s (aligned right) for flat output index i.
size_t bidx(const std::vector<int32_t> &out, const std::vector<int32_t> &s, size_t i) {
    std::vector<size_t> c(out.size());
    for (size_t k = out.size(); k-- > 0;) {
        c[k] = i % (size_t)out[k];
        i /= (size_t)out[k];
    }
    size_t lead = out.size() - s.size(), off = 0;
    for (size_t k = 0; k < s.size(); k++) off = off * (size_t)s[k] + (s[k] == 1 ? 0 : c[lead + k]);
    return off;
}

size_t numel(const std::vector<int32_t> &s) {
    size_t n = 1;
    for (int32_t d : s) n *= (size_t)d;
    return n;
}

// How an operand reaches the kernel.
enum class Src {
    Tensor,      // runtime tensor
    ConstShape,  // weight + CONSTANT_OPERAND with the stored shape
    ConstShort,  // weight + CONSTANT_OPERAND of 4 bytes (short form)
    ConstBare,   // weight without attribute (float Add/Mul second operand)
};

struct Operand {
    std::vector<int32_t> shape;
    Src src = Src::Tensor;
};

// One binary op in a KPlan with its operand data in place.
struct BinRun {
    KPlan p;
    uint16_t op = 0, y = 0;
    uint16_t t[2] = {kNone, kNone};

    BinRun(uint8_t type, uint8_t dtype, const std::vector<int32_t> &out, const Operand (&o)[2],
           const std::vector<uint8_t> (&data)[2], const QSpec *q = nullptr) {
        uint16_t qi[3] = {kNone, kNone, kNone};
        if (q)
            for (int k = 0; k < 3; k++) qi[k] = p.quant(q[k].scale, q[k].zp);
        std::vector<uint16_t> ins;
        int cpos = -1;
        for (int k = 0; k < 2; k++) {
            if (o[k].src == Src::Tensor) {
                t[k] = p.tensor(dtype, o[k].shape, qi[k]);
                ins.push_back(t[k]);
            } else {
                cpos = k;
            }
        }
        y = p.tensor(dtype, out, qi[2]);
        op = p.op(type, ins, {y});
        if (cpos >= 0) {
            p.ops[op].weight_idx = p.weight(data[cpos].data(), data[cpos].size());
            if (o[cpos].src != Src::ConstBare) {
                std::vector<uint8_t> a = {(uint8_t)cpos, 0, (uint8_t)(qi[cpos] & 0xFF), (uint8_t)(qi[cpos] >> 8)};
                if (o[cpos].src == Src::ConstShape) {
                    std::vector<int32_t> full(out.size() - o[cpos].shape.size(), 1);
                    full.insert(full.end(), o[cpos].shape.begin(), o[cpos].shape.end());
                    for (int32_t d : full)
                        for (int b = 0; b < 4; b++) a.push_back((uint8_t)((uint32_t)d >> (8 * b)));
                }
                p.attr(op, TIGRIS_ATTR_CONSTANT_OPERAND, a.data(), a.size());
            }
        }
        p.finish();
        for (int k = 0; k < 2; k++)
            if (t[k] != kNone) std::memcpy(p.ptrs[t[k]], data[k].data(), data[k].size());
    }
    int run(uint8_t dtype) { return dtype == TIGRIS_DTYPE_INT8 ? p.run_s8(op) : p.run_f32(op); }
};

template <typename T>
std::vector<uint8_t> raw(const std::vector<T> &v) {
    const uint8_t *b = (const uint8_t *)v.data();
    return std::vector<uint8_t>(b, b + v.size() * sizeof(T));
}

// Shapes of (out, a, b) covering every broadcast kind of ranks 1 to 4.
struct Form {
    const char *name;
    std::vector<int32_t> out, a, b;
};

std::vector<Form> broadcast_forms() {
    return {
        {"r1 dense", {7}, {7}, {7}},
        {"r1 scalar", {7}, {7}, {1}},
        {"r1 scalar first", {7}, {1}, {7}},
        {"1x1", {1}, {1}, {1}},
        {"r2 dense", {3, 5}, {3, 5}, {3, 5}},
        {"r2 periodic", {3, 5}, {3, 5}, {5}},
        {"r2 general column", {3, 5}, {3, 5}, {3, 1}},
        {"r2 general both", {3, 5}, {1, 5}, {3, 1}},
        {"r3 periodic", {2, 3, 4}, {2, 3, 4}, {1, 3, 4}},
        {"r3 general", {2, 3, 4}, {2, 1, 4}, {3, 1}},
        {"r4 dense odd", {1, 3, 5, 7}, {1, 3, 5, 7}, {1, 3, 5, 7}},
        {"r4 per channel", {2, 3, 4, 5}, {2, 3, 4, 5}, {5}},
        {"r4 periodic first", {2, 3, 4, 5}, {4, 5}, {2, 3, 4, 5}},
        {"r4 general", {2, 3, 4, 5}, {2, 1, 4, 1}, {1, 3, 1, 5}},
        {"r4 general rank 3", {2, 3, 4, 5}, {2, 3, 4, 5}, {3, 1, 1}},
    };
}

const uint8_t kF32Ops[] = {TIGRIS_OP_ADD,     TIGRIS_OP_SUB,       TIGRIS_OP_MUL,      TIGRIS_OP_DIV,
                           TIGRIS_OP_SQUARED_DIFFERENCE, TIGRIS_OP_MAXIMUM, TIGRIS_OP_MINIMUM,
                           TIGRIS_OP_FLOOR_DIV, TIGRIS_OP_FLOOR_MOD, TIGRIS_OP_PRELU};

bool divides(uint8_t op) {
    return op == TIGRIS_OP_DIV || op == TIGRIS_OP_FLOOR_DIV || op == TIGRIS_OP_FLOOR_MOD;
}

// Float data without zeros in divisor position.
std::vector<float> f32_data(size_t n, uint32_t seed, bool no_zero) {
    auto v = kt::ramp_f32(n, seed);
    if (no_zero)
        for (float &x : v)
            if (x == 0.0f) x = 0.75f;
    return v;
}

void expect_f32(uint8_t type, float got, float want, size_t i) {
    if (type == TIGRIS_OP_SQUARED_DIFFERENCE)
        EXPECT_NEAR(got, want, 2e-6 * std::max(1.0f, std::fabs(want))) << "op " << (int)type << " at " << i;
    else
        EXPECT_EQ(got, want) << "op " << (int)type << " at " << i;
}

// ---- Float32 ----

TEST(BinaryF32, HandWorkedValues) {
    struct HCase {
        uint8_t op;
        std::vector<float> a, b, y;
    };
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<HCase> cases = {
        {TIGRIS_OP_DIV, {1, -3, 7, 0}, {4, 2, -0.5f, 5}, {0.25f, -1.5f, -14, 0}},
        {TIGRIS_OP_SQUARED_DIFFERENCE, {1, -3, 7, 0.5f}, {4, 2, 7, -0.5f}, {9, 25, 0, 1}},
        {TIGRIS_OP_MAXIMUM, {1, -3, 7, -0.0f}, {4, -5, 7, 2}, {4, -3, 7, 2}},
        {TIGRIS_OP_MINIMUM, {1, -3, 7, 3}, {4, -5, 7, -2}, {1, -5, 7, -2}},
        {TIGRIS_OP_FLOOR_DIV, {7, -7, 7, -7, 6, 0.5f}, {2, 2, -2, -2, 3, 4}, {3, -4, -4, 3, 2, 0}},
        // 1 / 0.1f is 9.99999985... exactly, but the float quotient rounds to 10: docs/runtime-semantics.md R4.5's floorf gives 10.
        {TIGRIS_OP_FLOOR_DIV, {1, -1}, {0.1f, 0.1f}, {10, -10}},
        {TIGRIS_OP_FLOOR_MOD, {7, -7, 7, -7, 6, 5.5f}, {2, 2, -2, -2, 3, -2}, {1, 1, -1, -1, 0, -0.5f}},
        {TIGRIS_OP_PRELU, {2, -2, 0, -0.5f}, {0.25f, 0.25f, 3, -4}, {2, -0.5f, 0, 2}},
        {TIGRIS_OP_ADD, {1, -3}, {0.5f, 3}, {1.5f, 0}},
        {TIGRIS_OP_SUB, {1, -3}, {0.5f, 3}, {0.5f, -6}},
        {TIGRIS_OP_MUL, {1.5f, -3}, {2, 3}, {3, -9}},
    };
    for (const HCase &c : cases) {
        int32_t n = (int32_t)c.a.size();
        Operand o[2] = {{{n}}, {{n}}};
        std::vector<uint8_t> d[2] = {raw(c.a), raw(c.b)};
        BinRun r(c.op, TIGRIS_DTYPE_FLOAT32, {n}, o, d);
        ASSERT_EQ(r.run(TIGRIS_DTYPE_FLOAT32), 0) << (int)c.op;
        EXPECT_EQ(r.p.get<float>(r.y), c.y) << "op " << (int)c.op;
    }
    // NaN: Maximum is a < b ? b : a and Minimum b < a ? b : a, so a NaN
    // first operand comes through and a NaN second operand does not.
    for (uint8_t op : {TIGRIS_OP_MAXIMUM, TIGRIS_OP_MINIMUM}) {
        Operand o[2] = {{{2}}, {{2}}};
        std::vector<uint8_t> d[2] = {raw(std::vector<float>{nan, 1.0f}), raw(std::vector<float>{1.0f, nan})};
        BinRun r(op, TIGRIS_DTYPE_FLOAT32, {2}, o, d);
        ASSERT_EQ(r.run(TIGRIS_DTYPE_FLOAT32), 0);
        auto y = r.p.get<float>(r.y);
        EXPECT_TRUE(std::isnan(y[0])) << (int)op;
        EXPECT_EQ(y[1], 1.0f) << (int)op;
    }
}

TEST(BinaryF32, FloorDivByZeroIsAKernelError) {
    for (float zero : {0.0f, -0.0f}) {
        Operand o[2] = {{{3}}, {{3}}};
        std::vector<uint8_t> d[2] = {raw(std::vector<float>{1, 2, 3}), raw(std::vector<float>{1, zero, 2})};
        BinRun r(TIGRIS_OP_FLOOR_DIV, TIGRIS_DTYPE_FLOAT32, {3}, o, d);
        EXPECT_EQ(r.run(TIGRIS_DTYPE_FLOAT32), -1);
    }
    // Div and FloorMod by zero are IEEE results, not errors.
    Operand o[2] = {{{2}}, {{2}}};
    std::vector<uint8_t> d[2] = {raw(std::vector<float>{1, 2}), raw(std::vector<float>{0, 0})};
    BinRun dv(TIGRIS_OP_DIV, TIGRIS_DTYPE_FLOAT32, {2}, o, d);
    ASSERT_EQ(dv.run(TIGRIS_DTYPE_FLOAT32), 0);
    EXPECT_EQ(dv.p.get<float>(dv.y)[0], std::numeric_limits<float>::infinity());
    BinRun fm(TIGRIS_OP_FLOOR_MOD, TIGRIS_DTYPE_FLOAT32, {2}, o, d);
    ASSERT_EQ(fm.run(TIGRIS_DTYPE_FLOAT32), 0);
    EXPECT_TRUE(std::isnan(fm.p.get<float>(fm.y)[1]));
}

TEST(BinaryF32, EveryBroadcastKindOfRanks1To4) {
    for (const Form &f : broadcast_forms()) {
        for (uint8_t type : kF32Ops) {
            SCOPED_TRACE(f.name);
            auto xa = f32_data(numel(f.a), 3, false), xb = f32_data(numel(f.b), 4, divides(type));
            Operand o[2] = {{f.a}, {f.b}};
            std::vector<uint8_t> d[2] = {raw(xa), raw(xb)};
            BinRun r(type, TIGRIS_DTYPE_FLOAT32, f.out, o, d);
            ASSERT_EQ(r.run(TIGRIS_DTYPE_FLOAT32), 0) << (int)type;
            auto y = r.p.get<float>(r.y);
            ASSERT_EQ(y.size(), numel(f.out));
            for (size_t i = 0; i < y.size(); i++)
                expect_f32(type, y[i], ref_f32(type, xa[bidx(f.out, f.a, i)], xb[bidx(f.out, f.b, i)]), i);
        }
    }
}

TEST(BinaryF32, ConstantOperandWithAndWithoutStoredShape) {
    const std::vector<int32_t> out = {2, 3, 4, 5};
    struct CForm {
        std::vector<int32_t> shape;
        Src src;
        int pos;
    };
    std::vector<CForm> forms = {
        {{1}, Src::ConstShort, 1},          {{5}, Src::ConstShort, 1},       {out, Src::ConstShort, 1},
        {{1}, Src::ConstShort, 0},          {{5}, Src::ConstShort, 0},       {{3, 1, 1}, Src::ConstShape, 1},
        {{2, 1, 4, 1}, Src::ConstShape, 0}, {{4, 5}, Src::ConstShape, 1},    {{1, 3, 4, 5}, Src::ConstShape, 1},
        {{5}, Src::ConstBare, 1},           {{1}, Src::ConstBare, 1},        {out, Src::ConstBare, 1},
    };
    for (const CForm &c : forms) {
        for (uint8_t type : kF32Ops) {
            if (c.src == Src::ConstBare && type != TIGRIS_OP_ADD && type != TIGRIS_OP_MUL) continue;
            Operand o[2] = {{out}, {out}};
            o[c.pos] = {c.shape, c.src};
            std::vector<float> x[2] = {f32_data(numel(o[0].shape), 11, false),
                                       f32_data(numel(o[1].shape), 12, divides(type))};
            std::vector<uint8_t> d[2] = {raw(x[0]), raw(x[1])};
            BinRun r(type, TIGRIS_DTYPE_FLOAT32, out, o, d);
            ASSERT_EQ(r.run(TIGRIS_DTYPE_FLOAT32), 0) << (int)type << " pos " << c.pos;
            auto y = r.p.get<float>(r.y);
            for (size_t i = 0; i < y.size(); i++)
                expect_f32(type, y[i],
                           ref_f32(type, x[0][bidx(out, o[0].shape, i)], x[1][bidx(out, o[1].shape, i)]), i);
        }
    }
}

// ---- int8 ----

std::vector<int8_t> s8_data(size_t n, uint32_t seed, int avoid) {
    auto v = kt::ramp_s8(n, seed);
    for (int8_t &x : v)
        if (x == avoid) x = (int8_t)(avoid == 127 ? 126 : avoid + 1);
    return v;
}

using S8Ref = std::function<int8_t(int8_t, int8_t)>;

// The int8 reference of an op for quantisations q[0..2].
S8Ref s8_ref(uint8_t type, const QSpec *q) {
    switch (type) {
    case TIGRIS_OP_DIV: return RefDiv(q[0], q[1], q[2]);
    case TIGRIS_OP_SQUARED_DIFFERENCE: return RefSqDiff(q[0], q[1], q[2]);
    case TIGRIS_OP_PRELU: return RefPrelu(q[0], q[1], q[2]);
    case TIGRIS_OP_MAXIMUM: return [](int8_t a, int8_t b) { return std::max(a, b); };
    case TIGRIS_OP_MINIMUM: return [](int8_t a, int8_t b) { return std::min(a, b); };
    default: return RefAddSubMul(type, q[0], q[1], q[2]);
    }
}

// The real-valued result of an op, for the closeness check.
double s8_real(uint8_t type, const QSpec *q, int8_t a, int8_t b) {
    double x = q[0].scale * (a - q[0].zp), w = q[1].scale * (b - q[1].zp), r;
    switch (type) {
    case TIGRIS_OP_DIV: r = x / w; break;
    case TIGRIS_OP_SQUARED_DIFFERENCE: r = (x - w) * (x - w); break;
    case TIGRIS_OP_PRELU: r = x >= 0 ? x : x * w; break;
    case TIGRIS_OP_MAXIMUM: r = std::max(x, w); break;
    case TIGRIS_OP_MINIMUM: r = std::min(x, w); break;
    case TIGRIS_OP_ADD: r = x + w; break;
    case TIGRIS_OP_SUB: r = x - w; break;
    default: r = x * w; break;
    }
    return std::max(-128.0, std::min(127.0, std::round(r / q[2].scale) + q[2].zp));
}

const uint8_t kS8Ops[] = {TIGRIS_OP_ADD, TIGRIS_OP_SUB, TIGRIS_OP_MUL, TIGRIS_OP_DIV, TIGRIS_OP_SQUARED_DIFFERENCE,
                          TIGRIS_OP_MAXIMUM, TIGRIS_OP_MINIMUM, TIGRIS_OP_PRELU};

// Quantisations an op is exercised with (Maximum/Minimum need one shared encoding).
std::vector<std::vector<QSpec>> s8_quants(uint8_t type) {
    if (type == TIGRIS_OP_MAXIMUM || type == TIGRIS_OP_MINIMUM)
        return {{{0.05f, 3}, {0.05f, 3}, {0.05f, 3}}, {{0.3f, -128}, {0.3f, -128}, {0.3f, -128}}};
    if (type == TIGRIS_OP_DIV)
        return {{{0.05f, -3}, {0.02f, 7}, {0.1f, 2}},
                {{0.5f, 0}, {0.25f, 0}, {0.125f, 0}},
                {{0.0123f, 20}, {0.37f, -11}, {0.004f, -5}}};
    if (type == TIGRIS_OP_SQUARED_DIFFERENCE)
        return {{{0.05f, -3}, {0.11f, 7}, {2.5f, -128}}, {{0.02f, 0}, {0.02f, 5}, {0.07f, -100}}};
    if (type == TIGRIS_OP_PRELU)
        return {{{0.05f, -3}, {0.01f, 7}, {0.04f, 2}}, {{0.1f, 10}, {0.02f, -128}, {0.1f, 10}}};
    return {{{0.05f, -3}, {0.11f, 7}, {0.13f, 2}}};
}

// Compare a kernel's int8 output against the int64 reference, and that
// reference against the real-valued result.
void check_s8(uint8_t type, const QSpec *q, const std::vector<int32_t> &out, const Operand (&o)[2],
              const std::vector<int8_t> (&x)[2], const std::vector<int8_t> &y) {
    S8Ref ref = s8_ref(type, q);
    ASSERT_EQ(y.size(), numel(out));
    for (size_t i = 0; i < y.size(); i++) {
        int8_t a = x[0][bidx(out, o[0].shape, i)], b = x[1][bidx(out, o[1].shape, i)];
        int8_t want = ref(a, b);
        ASSERT_EQ(y[i], want) << "op " << (int)type << " at " << i << " a " << (int)a << " b " << (int)b;
        double tol = type == TIGRIS_OP_SQUARED_DIFFERENCE ? 2.0 : 1.0;
        EXPECT_NEAR(want, s8_real(type, q, a, b), tol) << "op " << (int)type << " a " << (int)a << " b " << (int)b;
    }
}

TEST(BinaryS8, EveryBroadcastKindOfRanks1To4) {
    for (const Form &f : broadcast_forms()) {
        for (uint8_t type : kS8Ops) {
            if (type == TIGRIS_OP_PRELU && numel(f.a) != numel(f.out)) continue;  // x has the output's shape
            for (const auto &qv : s8_quants(type)) {
                SCOPED_TRACE(f.name);
                const QSpec *q = qv.data();
                std::vector<int8_t> x[2] = {s8_data(numel(f.a), 5, 1000), s8_data(numel(f.b), 6, q[1].zp)};
                Operand o[2] = {{f.a}, {f.b}};
                std::vector<uint8_t> d[2] = {raw(x[0]), raw(x[1])};
                BinRun r(type, TIGRIS_DTYPE_INT8, f.out, o, d, q);
                ASSERT_EQ(r.run(TIGRIS_DTYPE_INT8), 0) << (int)type;
                check_s8(type, q, f.out, o, x, r.p.get<int8_t>(r.y));
            }
        }
    }
}

TEST(BinaryS8, EveryValuePairOfDivSquaredDifferenceAndPrelu) {
    // All 256 x 256 operand pairs: the whole domain of each formula.
    std::vector<int8_t> xa(65536), xb(65536);
    for (int i = 0; i < 65536; i++) {
        xa[i] = (int8_t)(i >> 8);
        xb[i] = (int8_t)(i & 0xFF);
    }
    for (uint8_t type : {TIGRIS_OP_DIV, TIGRIS_OP_SQUARED_DIFFERENCE, TIGRIS_OP_PRELU}) {
        for (const auto &qv : s8_quants(type)) {
            const QSpec *q = qv.data();
            std::vector<int8_t> x[2] = {xa, xb};
            if (type == TIGRIS_OP_DIV)
                for (int8_t &v : x[1])
                    if (v == q[1].zp) v = (int8_t)(q[1].zp + 1);
            Operand o[2] = {{{65536}}, {{65536}}};
            std::vector<uint8_t> d[2] = {raw(x[0]), raw(x[1])};
            BinRun r(type, TIGRIS_DTYPE_INT8, {65536}, o, d, q);
            ASSERT_EQ(r.run(TIGRIS_DTYPE_INT8), 0) << (int)type;
            check_s8(type, q, {65536}, o, x, r.p.get<int8_t>(r.y));
        }
    }
}

TEST(BinaryS8, HandWorkedValues) {
    // Div with sa/(sb·sy) = 16: y = round(16·A/B).
    {
        QSpec q[3] = {{0.5f, 0}, {0.25f, 0}, {0.125f, 0}};
        Operand o[2] = {{{6}}, {{6}}};
        std::vector<int8_t> a = {3, 1, -5, 7, 0, 100}, b = {8, 3, 4, -2, 9, 1};
        std::vector<uint8_t> d[2] = {raw(a), raw(b)};
        BinRun r(TIGRIS_OP_DIV, TIGRIS_DTYPE_INT8, {6}, o, d, q);
        ASSERT_EQ(r.run(TIGRIS_DTYPE_INT8), 0);
        // 6, 5.33, -20, -56, 0, 1600 (saturates)
        EXPECT_EQ(r.p.get<int8_t>(r.y), (std::vector<int8_t>{6, 5, -20, -56, 0, 127}));
    }
    // SquaredDifference on one scale 0.5, output 0.25: (0.5(a - b))² / 0.25 = (a - b)².
    {
        QSpec q[3] = {{0.5f, 0}, {0.5f, 0}, {0.25f, -100}};
        Operand o[2] = {{{4}}, {{4}}};
        std::vector<int8_t> a = {3, -2, 10, 0}, b = {1, 2, 10, 20};
        std::vector<uint8_t> d[2] = {raw(a), raw(b)};
        BinRun r(TIGRIS_OP_SQUARED_DIFFERENCE, TIGRIS_DTYPE_INT8, {4}, o, d, q);
        ASSERT_EQ(r.run(TIGRIS_DTYPE_INT8), 0);
        EXPECT_EQ(r.p.get<int8_t>(r.y), (std::vector<int8_t>{-96, -84, -100, 127}));
    }
    // PRelu: x scale 0.1 zp 0, alpha 0.25 exactly (scale 0.125, q 2), output scale 0.1.
    {
        QSpec q[3] = {{0.1f, 0}, {0.125f, 0}, {0.1f, 0}};
        Operand o[2] = {{{1, 2, 2}}, {{2}, Src::ConstShort}};
        std::vector<int8_t> x = {40, -40, -8, 5}, al = {2, 8};  // slopes 0.25 and 1.0
        std::vector<uint8_t> d[2] = {raw(x), raw(al)};
        BinRun r(TIGRIS_OP_PRELU, TIGRIS_DTYPE_INT8, {1, 2, 2}, o, d, q);
        ASSERT_EQ(r.run(TIGRIS_DTYPE_INT8), 0);
        EXPECT_EQ(r.p.get<int8_t>(r.y), (std::vector<int8_t>{40, -40, -2, 5}));
    }
    // Maximum/Minimum compare raw values.
    for (uint8_t type : {TIGRIS_OP_MAXIMUM, TIGRIS_OP_MINIMUM}) {
        QSpec q[3] = {{0.2f, -5}, {0.2f, -5}, {0.2f, -5}};
        Operand o[2] = {{{4}}, {{1}, Src::ConstShort}};
        std::vector<int8_t> a = {-128, -5, 0, 127}, k = {-5};
        std::vector<uint8_t> d[2] = {raw(a), raw(k)};
        BinRun r(type, TIGRIS_DTYPE_INT8, {4}, o, d, q);
        ASSERT_EQ(r.run(TIGRIS_DTYPE_INT8), 0);
        EXPECT_EQ(r.p.get<int8_t>(r.y), type == TIGRIS_OP_MAXIMUM ? (std::vector<int8_t>{-5, -5, 0, 127})
                                                                 : (std::vector<int8_t>{-128, -5, -5, -5}));
    }
}

TEST(BinaryS8, ConstantOperandWithAndWithoutStoredShape) {
    const std::vector<int32_t> out = {2, 3, 4, 5};
    struct CForm {
        std::vector<int32_t> shape;
        Src src;
        int pos;
    };
    std::vector<CForm> forms = {{{1}, Src::ConstShort, 1},       {{5}, Src::ConstShort, 1},
                                {out, Src::ConstShort, 1},       {{5}, Src::ConstShort, 0},
                                {{3, 1, 1}, Src::ConstShape, 1}, {{2, 1, 4, 1}, Src::ConstShape, 0},
                                {{4, 5}, Src::ConstShape, 1}};
    for (const CForm &c : forms) {
        for (uint8_t type : kS8Ops) {
            if (type == TIGRIS_OP_PRELU && c.pos == 0) continue;
            const auto qv = s8_quants(type)[0];
            const QSpec *q = qv.data();
            Operand o[2] = {{out}, {out}};
            o[c.pos] = {c.shape, c.src};
            std::vector<int8_t> x[2] = {s8_data(numel(o[0].shape), 21, 1000), s8_data(numel(o[1].shape), 22, q[1].zp)};
            std::vector<uint8_t> d[2] = {raw(x[0]), raw(x[1])};
            BinRun r(type, TIGRIS_DTYPE_INT8, out, o, d, q);
            ASSERT_EQ(r.run(TIGRIS_DTYPE_INT8), 0) << (int)type << " pos " << c.pos;
            check_s8(type, q, out, o, x, r.p.get<int8_t>(r.y));
        }
    }
}

TEST(BinaryS8, Refusals) {
    auto run_s8 = [](uint8_t type, std::vector<QSpec> q, std::vector<int8_t> a, std::vector<int8_t> b) {
        Operand o[2] = {{{(int32_t)a.size()}}, {{(int32_t)b.size()}}};
        std::vector<uint8_t> d[2] = {raw(a), raw(b)};
        BinRun r(type, TIGRIS_DTYPE_INT8, {(int32_t)a.size()}, o, d, q.data());
        return r.run(TIGRIS_DTYPE_INT8);
    };
    // Division by (b - zb) == 0.
    EXPECT_EQ(run_s8(TIGRIS_OP_DIV, {{0.1f, 0}, {0.1f, 4}, {0.1f, 0}}, {1, 2}, {3, 4}), -1);
    EXPECT_EQ(run_s8(TIGRIS_OP_DIV, {{0.1f, 0}, {0.1f, 4}, {0.1f, 0}}, {1, 2}, {3, 5}), 0);
    // Maximum/Minimum with any encoding differing from the output's.
    for (uint8_t type : {TIGRIS_OP_MAXIMUM, TIGRIS_OP_MINIMUM}) {
        EXPECT_EQ(run_s8(type, {{0.1f, 0}, {0.1f, 0}, {0.1f, 1}}, {1}, {2}), -1);
        EXPECT_EQ(run_s8(type, {{0.1f, 0}, {0.2f, 0}, {0.1f, 0}}, {1}, {2}), -1);
        EXPECT_EQ(run_s8(type, {{0.1000001f, 0}, {0.1f, 0}, {0.1f, 0}}, {1}, {2}), -1);
        EXPECT_EQ(run_s8(type, {{0.1f, 0}, {0.1f, 0}, {0.1f, 0}}, {1}, {2}), 0);
    }
    // SquaredDifference whose output multiplier twice²/(2^14·sy) = 4/(2^14/2^16)
    // = 16 needs a left shift of 5: d = 64·255 squared overflows it, d = 64 does not.
    EXPECT_EQ(run_s8(TIGRIS_OP_SQUARED_DIFFERENCE, {{1.0f, 0}, {1.0f, 0}, {1.0f / 65536, 0}}, {127}, {-128}), -1);
    EXPECT_EQ(run_s8(TIGRIS_OP_SQUARED_DIFFERENCE, {{1.0f, 0}, {1.0f, 0}, {1.0f / 65536, 0}}, {1}, {0}), 0);
    // Negative and zero scales.
    for (uint8_t type : {TIGRIS_OP_DIV, TIGRIS_OP_SQUARED_DIFFERENCE, TIGRIS_OP_PRELU})
        for (float bad : {0.0f, -0.5f}) {
            EXPECT_EQ(run_s8(type, {{bad, 0}, {0.1f, 0}, {0.1f, 0}}, {1}, {2}), -1) << (int)type;
            EXPECT_EQ(run_s8(type, {{0.1f, 0}, {0.1f, 0}, {bad, 0}}, {1}, {2}), -1) << (int)type;
        }
    // Missing quantisation records.
    for (uint8_t type : kS8Ops) {
        Operand o[2] = {{{2}}, {{2}}};
        std::vector<uint8_t> d[2] = {{1, 2}, {3, 4}};
        BinRun r(type, TIGRIS_DTYPE_INT8, {2}, o, d);
        EXPECT_EQ(r.run(TIGRIS_DTYPE_INT8), -1) << (int)type;
    }
    // A constant whose CONSTANT_OPERAND names no quant record.
    {
        QSpec q[3] = {{0.1f, 0}, {0.1f, 0}, {0.1f, 0}};
        Operand o[2] = {{{4}}, {{4}, Src::ConstShort}};
        std::vector<uint8_t> d[2] = {{1, 2, 3, 4}, {1, 1, 1, 1}};
        BinRun r(TIGRIS_OP_PRELU, TIGRIS_DTYPE_INT8, {4}, o, d, q);
        ASSERT_EQ(r.run(TIGRIS_DTYPE_INT8), 0);
        r.p.attr_data[r.p.attrs[0].data_offset + 2] = 0xFF;
        r.p.attr_data[r.p.attrs[0].data_offset + 3] = 0xFF;
        EXPECT_EQ(r.run(TIGRIS_DTYPE_INT8), -1);
    }
}

TEST(BinaryRefusals, ShapesSizesAndAttributes) {
    for (uint8_t dtype : {TIGRIS_DTYPE_FLOAT32, TIGRIS_DTYPE_INT8}) {
        for (uint8_t type : {TIGRIS_OP_DIV, TIGRIS_OP_MAXIMUM, TIGRIS_OP_PRELU, TIGRIS_OP_SQUARED_DIFFERENCE}) {
            QSpec q[3] = {{0.1f, 0}, {0.1f, 0}, {0.1f, 0}};
            const QSpec *qq = dtype == TIGRIS_DTYPE_INT8 ? q : nullptr;
            size_t es = dtype == TIGRIS_DTYPE_INT8 ? 1 : 4;
            // b of 3 does not broadcast to an output of 4.
            {
                Operand o[2] = {{{2, 4}}, {{3}}};
                std::vector<uint8_t> d[2] = {std::vector<uint8_t>(8 * es, 0x11), std::vector<uint8_t>(3 * es, 0x11)};
                BinRun r(type, dtype, {2, 4}, o, d, qq);
                EXPECT_EQ(r.run(dtype), -1);
            }
            // An operand larger than the output.
            {
                Operand o[2] = {{{2, 4}}, {{3, 2, 4}}};
                std::vector<uint8_t> d[2] = {std::vector<uint8_t>(8 * es, 0x11), std::vector<uint8_t>(24 * es, 0x11)};
                BinRun r(type, dtype, {2, 4}, o, d, qq);
                EXPECT_EQ(r.run(dtype), -1);
            }
            // A constant of a size no short form has, then a stored shape that disagrees with its size.
            {
                Operand o[2] = {{{2, 4}}, {{3}, Src::ConstShort}};
                std::vector<uint8_t> d[2] = {std::vector<uint8_t>(8 * es, 0x11), std::vector<uint8_t>(3 * es, 0x11)};
                BinRun r(type, dtype, {2, 4}, o, d, qq);
                EXPECT_EQ(r.run(dtype), -1);
                Operand o2[2] = {{{2, 4}}, {{2, 1}, Src::ConstShape}};
                std::vector<uint8_t> d2[2] = {std::vector<uint8_t>(8 * es, 0x11), std::vector<uint8_t>(3 * es, 0x11)};
                BinRun r2(type, dtype, {2, 4}, o2, d2, qq);
                EXPECT_EQ(r2.run(dtype), -1);
            }
            // Position 2 in CONSTANT_OPERAND; an output of the other dtype; a tensor byte size too small.
            {
                Operand o[2] = {{{4}}, {{1}, Src::ConstShort}};
                std::vector<uint8_t> d[2] = {std::vector<uint8_t>(4 * es, 0x11), std::vector<uint8_t>(es, 0x11)};
                BinRun r(type, dtype, {4}, o, d, qq);
                ASSERT_EQ(r.run(dtype), 0);
                r.p.attr_data[r.p.attrs[0].data_offset] = 2;
                EXPECT_EQ(r.run(dtype), -1);
                r.p.attr_data[r.p.attrs[0].data_offset] = 1;
                r.p.tensors[r.y].dtype = dtype == TIGRIS_DTYPE_INT8 ? TIGRIS_DTYPE_FLOAT32 : TIGRIS_DTYPE_INT8;
                EXPECT_EQ(r.run(dtype), -1);
                r.p.tensors[r.y].dtype = dtype;
                r.p.tensors[r.y].size_bytes -= 1;
                EXPECT_EQ(r.run(dtype), -1);
            }
        }
    }
}

// ---- Bands ----

TEST(BinaryBand, RolledStripeComputesOnlyTheNewRows) {
    // out [1,6,2,3]; band buffers of 4 rows, rows 2-3 are the new ones.
    for (uint8_t type : kF32Ops) {
        Operand o[2] = {{{1, 6, 2, 3}}, {{3}}};
        std::vector<float> xb = f32_data(3, 8, true);
        std::vector<uint8_t> d[2] = {std::vector<uint8_t>(144, 0), raw(xb)};
        BinRun r(type, TIGRIS_DTYPE_FLOAT32, {1, 6, 2, 3}, o, d);
        std::vector<float> xa = f32_data(24, 9, false), y(24, 99.0f);
        r.p.ptrs[r.t[0]] = xa.data();
        r.p.ptrs[r.y] = y.data();
        auto &t = r.p.mem.tile;
        t.active = 1;
        t.out_h = t.in_h = 2;
        t.out_w = t.in_w = 2;
        t.in_row_start = t.out_row_start = 2;
        ASSERT_EQ(r.run(TIGRIS_DTYPE_FLOAT32), 0) << (int)type;
        for (int i = 0; i < 12; i++) EXPECT_EQ(y[i], 99.0f);
        for (int i = 12; i < 24; i++) expect_f32(type, y[i], ref_f32(type, xa[i], xb[i % 3]), i);
    }
}

TEST(BinaryBand, RowBandsWithAPerChannelConstant) {
    // out [6,5] in ROWS bands of 3 rows; the constant is one value per column.
    for (uint8_t dtype : {TIGRIS_DTYPE_FLOAT32, TIGRIS_DTYPE_INT8}) {
        for (uint8_t type : dtype == TIGRIS_DTYPE_INT8 ? std::vector<uint8_t>(std::begin(kS8Ops), std::end(kS8Ops))
                                                       : std::vector<uint8_t>(std::begin(kF32Ops), std::end(kF32Ops))) {
            const auto qv = s8_quants(type)[0];
            const QSpec *q = dtype == TIGRIS_DTYPE_INT8 ? qv.data() : nullptr;
            Operand o[2] = {{{6, 5}}, {{5}, Src::ConstShort}};
            std::vector<float> fb = f32_data(5, 13, true);
            std::vector<int8_t> sb = s8_data(5, 13, q ? q[1].zp : 0);
            std::vector<uint8_t> d[2] = {std::vector<uint8_t>(dtype == TIGRIS_DTYPE_INT8 ? 30 : 120, 0),
                                         dtype == TIGRIS_DTYPE_INT8 ? raw(sb) : raw(fb)};
            BinRun r(type, dtype, {6, 5}, o, d, q);
            std::vector<float> fa = f32_data(30, 14, false);
            std::vector<int8_t> sa = s8_data(30, 14, 1000);
            for (int band = 0; band < 2; band++) {
                std::vector<float> fy(15, 99.0f);
                std::vector<int8_t> sy(15, 99);
                if (dtype == TIGRIS_DTYPE_INT8) {
                    r.p.ptrs[r.t[0]] = sa.data() + 15 * band;
                    r.p.ptrs[r.y] = sy.data();
                } else {
                    r.p.ptrs[r.t[0]] = fa.data() + 15 * band;
                    r.p.ptrs[r.y] = fy.data();
                }
                auto &t = r.p.mem.tile;
                t.active = 1;
                t.row_tiled = TIGRIS_ROW_MODE_ROWS;
                t.out_h = t.in_h = 3;
                t.out_row_origin = t.in_row_origin = 3 * band;
                ASSERT_EQ(r.run(dtype), 0) << (int)type;
                if (dtype == TIGRIS_DTYPE_INT8) {
                    S8Ref ref = s8_ref(type, q);
                    for (int i = 0; i < 15; i++) EXPECT_EQ(sy[i], ref(sa[15 * band + i], sb[i % 5])) << (int)type;
                } else {
                    for (int i = 0; i < 15; i++)
                        expect_f32(type, fy[i], ref_f32(type, fa[15 * band + i], fb[i % 5]), i);
                }
            }
        }
    }
}

TEST(BinaryBand, LeadingAxisBandsOfRank3) {
    // out [3,2,4] in LEADING bands of one position of axis 0 (8 elements);
    // b [2,4] is periodic with the band's length and read whole.
    for (uint8_t type : kF32Ops) {
        Operand o[2] = {{{3, 2, 4}}, {{2, 4}}};
        std::vector<float> xb = f32_data(8, 41, true);
        std::vector<uint8_t> d[2] = {std::vector<uint8_t>(96, 0), raw(xb)};
        BinRun r(type, TIGRIS_DTYPE_FLOAT32, {3, 2, 4}, o, d);
        std::vector<float> xa = f32_data(24, 42, false);
        for (int band = 0; band < 3; band++) {
            std::vector<float> y(8, 99.0f);
            r.p.ptrs[r.t[0]] = xa.data() + 8 * band;
            r.p.ptrs[r.y] = y.data();
            auto &t = r.p.mem.tile;
            t.active = 1;
            t.row_tiled = TIGRIS_ROW_MODE_LEADING;
            t.out_h = t.in_h = 1;
            t.out_row_origin = t.in_row_origin = band;
            ASSERT_EQ(r.run(TIGRIS_DTYPE_FLOAT32), 0) << (int)type;
            for (int i = 0; i < 8; i++) expect_f32(type, y[i], ref_f32(type, xa[8 * band + i], xb[i]), i);
        }
    }
}

TEST(BinaryBand, PreluStripeWithPerChannelSlope) {
    QSpec q[3] = {{0.05f, -3}, {0.01f, 7}, {0.04f, 2}};
    Operand o[2] = {{{1, 4, 3, 2}}, {{2}, Src::ConstShort}};
    std::vector<int8_t> al = {20, -60};
    std::vector<uint8_t> d[2] = {std::vector<uint8_t>(24, 0), raw(al)};
    BinRun r(TIGRIS_OP_PRELU, TIGRIS_DTYPE_INT8, {1, 4, 3, 2}, o, d, q);
    std::vector<int8_t> x = s8_data(12, 31, 1000), y(12, 99);  // a band of 2 rows
    r.p.ptrs[r.t[0]] = x.data();
    r.p.ptrs[r.y] = y.data();
    auto &t = r.p.mem.tile;
    t.active = 1;
    t.out_h = t.in_h = 2;
    t.out_w = t.in_w = 3;
    ASSERT_EQ(r.run(TIGRIS_DTYPE_INT8), 0);
    RefPrelu ref(q[0], q[1], q[2]);
    for (int i = 0; i < 12; i++) EXPECT_EQ(y[i], ref(x[i], al[i % 2])) << i;
}

TEST(BinaryBand, GeneralBroadcastAndDenseConstantAreRefusedUnderATile) {
    for (uint8_t type : {TIGRIS_OP_DIV, TIGRIS_OP_MAXIMUM, TIGRIS_OP_FLOOR_MOD}) {
        {
            Operand o[2] = {{{1, 4, 2, 3}}, {{1, 4, 1, 3}}};  // general: H kept, W broadcast
            std::vector<uint8_t> d[2] = {raw(f32_data(24, 1, false)), raw(f32_data(12, 2, true))};
            BinRun r(type, TIGRIS_DTYPE_FLOAT32, {1, 4, 2, 3}, o, d);
            ASSERT_EQ(r.run(TIGRIS_DTYPE_FLOAT32), 0);
            r.p.mem.tile.active = 1;
            r.p.mem.tile.out_h = r.p.mem.tile.in_h = 2;
            r.p.mem.tile.out_w = r.p.mem.tile.in_w = 2;
            EXPECT_EQ(r.run(TIGRIS_DTYPE_FLOAT32), -1);
        }
        {
            Operand o[2] = {{{1, 4, 2, 3}}, {{1, 4, 2, 3}, Src::ConstShort}};  // dense constant
            std::vector<uint8_t> d[2] = {raw(f32_data(24, 1, false)), raw(f32_data(24, 2, true))};
            BinRun r(type, TIGRIS_DTYPE_FLOAT32, {1, 4, 2, 3}, o, d);
            ASSERT_EQ(r.run(TIGRIS_DTYPE_FLOAT32), 0);
            r.p.mem.tile.active = 1;
            r.p.mem.tile.out_h = r.p.mem.tile.in_h = 2;
            r.p.mem.tile.out_w = r.p.mem.tile.in_w = 2;
            EXPECT_EQ(r.run(TIGRIS_DTYPE_FLOAT32), -1);
        }
    }
}

}  // namespace
