// Float32 pointwise, binary, softmax, reduction and data-movement kernels,
// checked against double-precision formulas and hand-worked cases; unary ops
// also on a rolled band (only the new rows are computed).
#include <algorithm>
#include <cmath>

#include "test_kernels_plan.h"

using kt::KPlan;

namespace {

struct UnaryCase {
    uint8_t op;
    double (*f)(double);
};

double d_relu(double x) { return std::max(x, 0.0); }
double d_relu6(double x) { return std::min(std::max(x, 0.0), 6.0); }
double d_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double d_tanh(double x) { return std::tanh(x); }
double d_leaky(double x) { return x > 0 ? x : 0.01 * x; }

TEST(F32Unary, MatchDoubleFormulas) {
    for (UnaryCase c : {UnaryCase{TIGRIS_OP_RELU, d_relu}, UnaryCase{TIGRIS_OP_RELU6, d_relu6},
                        UnaryCase{TIGRIS_OP_SIGMOID, d_sigmoid}, UnaryCase{TIGRIS_OP_TANH, d_tanh},
                        UnaryCase{TIGRIS_OP_LEAKY_RELU, d_leaky}}) {
        KPlan p;
        uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 4, 5, 3}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 4, 5, 3});
        uint16_t op = p.op(c.op, {in}, {out});
        p.finish();
        auto x = kt::ramp_f32(60, 3);
        for (auto &v : x) v *= 4.0f;  // reach the saturating ranges too
        x[0] = 20.0f;
        x[1] = -20.0f;
        p.set(in, x);
        ASSERT_EQ(p.run_f32(op), 0);
        auto y = p.get<float>(out);
        for (int i = 0; i < 60; i++) ASSERT_NEAR(y[i], c.f(x[i]), 1e-6) << (int)c.op << " x=" << x[i];
    }
}

TEST(F32Unary, LeakyReluAlphaAttribute) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {4}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {4});
    uint16_t op = p.op(TIGRIS_OP_LEAKY_RELU, {in}, {out});
    float alpha = 0.25f;
    p.attr(op, TIGRIS_ATTR_ALPHA, &alpha, 4);
    p.finish();
    p.set<float>(in, {-4, -1, 0, 3});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(out), (std::vector<float>{-1, -0.25f, 0, 3}));
}

TEST(F32Unary, RolledBandSkipsKeptRows) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 6, 2, 2}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 6, 2, 2});
    uint16_t op = p.op(TIGRIS_OP_RELU6, {in}, {out});
    p.finish();
    // Band buffers of 4 rows; rows 0-1 are kept from the previous tile.
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
    for (int i = 8; i < 16; i++) EXPECT_EQ(y[i], d_relu6(x[i]));
}

TEST(F32Softmax, LastAxisRows) {
    KPlan p;
    uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 7}), out = p.tensor(TIGRIS_DTYPE_FLOAT32, {3, 7});
    uint16_t op = p.op(TIGRIS_OP_SOFTMAX, {in}, {out});
    p.finish();
    auto x = kt::ramp_f32(21, 9);
    p.set(in, x);
    ASSERT_EQ(p.run_f32(op), 0);
    auto y = p.get<float>(out);
    for (int r = 0; r < 3; r++) {
        double s = 0;
        for (int k = 0; k < 7; k++) s += std::exp((double)x[r * 7 + k]);
        for (int k = 0; k < 7; k++) EXPECT_NEAR(y[r * 7 + k], std::exp((double)x[r * 7 + k]) / s, 1e-6);
    }
}

// Binary ops: dense, per-channel, scalar and general broadcasts.
TEST(F32Binary, BroadcastFormsAndFusedActivation) {
    struct Form {
        std::vector<int32_t> a, b;
    };
    std::vector<int32_t> out = {2, 3, 4, 5};
    for (Form f : {Form{out, out}, Form{out, {5}}, Form{{1}, out}, Form{{2, 1, 4, 1}, {1, 3, 1, 5}},
                   Form{out, {3, 1, 1}}}) {
        for (uint8_t type : {TIGRIS_OP_ADD, TIGRIS_OP_SUB, TIGRIS_OP_MUL}) {
            KPlan p;
            uint16_t a = p.tensor(TIGRIS_DTYPE_FLOAT32, f.a), b = p.tensor(TIGRIS_DTYPE_FLOAT32, f.b);
            uint16_t y = p.tensor(TIGRIS_DTYPE_FLOAT32, out);
            uint16_t op = p.op(type, {a, b}, {y});
            if (type == TIGRIS_OP_ADD) p.ops[op].fused_act = TIGRIS_ACT_RELU;
            p.finish();
            auto xa = kt::ramp_f32(p.tensors[a].size_bytes / 4, 1), xb = kt::ramp_f32(p.tensors[b].size_bytes / 4, 2);
            p.set(a, xa);
            p.set(b, xb);
            ASSERT_EQ(p.run_f32(op), 0);
            auto yy = p.get<float>(y);
            // Index each operand by the output coordinate, dims aligned right.
            auto at = [&](const std::vector<int32_t> &shape, const std::vector<float> &v, int i0, int i1, int i2, int i3) {
                int idx[4] = {i0, i1, i2, i3};
                std::vector<int32_t> s(4 - shape.size(), 1);
                s.insert(s.end(), shape.begin(), shape.end());
                size_t off = 0;
                for (int k = 0; k < 4; k++) off = off * s[k] + (s[k] == 1 ? 0 : idx[k]);
                return (double)v[off];
            };
            for (int i0 = 0; i0 < 2; i0++)
                for (int i1 = 0; i1 < 3; i1++)
                    for (int i2 = 0; i2 < 4; i2++)
                        for (int i3 = 0; i3 < 5; i3++) {
                            double u = at(f.a, xa, i0, i1, i2, i3), v = at(f.b, xb, i0, i1, i2, i3);
                            double r = type == TIGRIS_OP_ADD ? std::max(u + v, 0.0) : type == TIGRIS_OP_SUB ? u - v : u * v;
                            ASSERT_NEAR(yy[((i0 * 3 + i1) * 4 + i2) * 5 + i3], r, 1e-6);
                        }
        }
    }
}

TEST(F32Binary, ConstantSecondOperandWithoutAttribute) {
    KPlan p;
    uint16_t a = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 2, 2, 3}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 2, 2, 3});
    uint16_t op = p.op(TIGRIS_OP_MUL, {a}, {y});
    p.ops[op].weight_idx = p.weight(std::vector<float>{1, 10, 100});  // one per channel
    p.finish();
    p.set<float>(a, {1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(y), (std::vector<float>{1, 10, 100, 2, 20, 200, 3, 30, 300, 4, 40, 400}));
    p.ops[op].weight_idx = p.weight(std::vector<float>{1, 2});  // no short form fits
    p.finish();
    EXPECT_EQ(p.run_f32(op), -1);
}

TEST(F32ReduceMean, EachAxisOfRank3) {
    for (uint8_t axis = 0; axis < 3; axis++) {
        KPlan p;
        std::vector<int32_t> s = {3, 4, 5}, so = s;
        so[axis] = 1;
        uint16_t in = p.tensor(TIGRIS_DTYPE_FLOAT32, s), out = p.tensor(TIGRIS_DTYPE_FLOAT32, so);
        uint16_t op = p.op(TIGRIS_OP_REDUCE_MEAN, {in}, {out});
        p.attr(op, TIGRIS_ATTR_AXES, &axis, 1);
        p.finish();
        auto x = kt::ramp_f32(60, 4);
        p.set(in, x);
        ASSERT_EQ(p.run_f32(op), 0);
        auto y = p.get<float>(out);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4; j++)
                for (int k = 0; k < 5; k++) {
                    int c[3] = {i, j, k};
                    if (c[axis]) continue;
                    double sum = 0;
                    for (int r = 0; r < s[axis]; r++) {
                        c[axis] = r;
                        sum += x[(c[0] * 4 + c[1]) * 5 + c[2]];
                    }
                    c[axis] = 0;
                    ASSERT_NEAR(y[(c[0] * so[1] + c[1]) * so[2] + c[2]], sum / s[axis], 1e-6);
                }
    }
}

TEST(F32Movement, ReshapeCopiesAndConcatJoinsAlongAxis) {
    KPlan p;
    uint16_t a = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 2, 2, 2}), r = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 8});
    uint16_t b = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 2, 2, 1}), c = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 2, 2, 3});
    uint16_t c1 = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 4, 2, 2});
    uint16_t o1 = p.op(TIGRIS_OP_RESHAPE, {a}, {r});
    uint16_t o2 = p.op(TIGRIS_OP_CONCAT, {a, b}, {c});
    uint16_t o3 = p.op(TIGRIS_OP_CONCAT, {a, a}, {c1});
    p.ops[o3].spatial.kernel_h = 1;  // along H
    p.finish();
    p.set<float>(a, {1, 2, 3, 4, 5, 6, 7, 8});
    p.set<float>(b, {-1, -2, -3, -4});
    ASSERT_EQ(p.run_f32(o1), 0);
    ASSERT_EQ(p.run_f32(o2), 0);
    ASSERT_EQ(p.run_f32(o3), 0);
    EXPECT_EQ(p.get<float>(r), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}));
    EXPECT_EQ(p.get<float>(c), (std::vector<float>{1, 2, -1, 3, 4, -2, 5, 6, -3, 7, 8, -4}));
    EXPECT_EQ(p.get<float>(c1), (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(F32Movement, ConcatConstantLeadingPart) {
    KPlan p;
    uint16_t a = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 1, 2, 1}), c = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 1, 2, 3});
    uint16_t op = p.op(TIGRIS_OP_CONCAT, {a}, {c});
    p.ops[op].spatial.kernel_h = 3;
    p.ops[op].weight_idx = p.weight(std::vector<float>{10, 11, 20, 21});  // the whole uncovered part
    p.finish();
    p.set<float>(a, {1, 2});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(c), (std::vector<float>{10, 11, 1, 20, 21, 2}));
}

TEST(F32Movement, PadWithFillAndLeadingTrailing) {
    KPlan p;
    uint16_t a = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 2, 2, 1}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 3, 4, 1});
    uint16_t op = p.op(TIGRIS_OP_PAD, {a}, {y});
    int32_t pads[8] = {0, 0, 1, 0, 1, 1, 0, 0};
    p.attr(op, TIGRIS_ATTR_PADS, pads, sizeof pads);
    p.ops[op].weight_idx = p.weight(std::vector<float>{-9});
    p.finish();
    p.set<float>(a, {1, 2, 3, 4});
    ASSERT_EQ(p.run_f32(op), 0);
    EXPECT_EQ(p.get<float>(y), (std::vector<float>{-9, -9, -9, -9, -9, 1, 2, -9, -9, 3, 4, -9}));
}

TEST(S8Movement, PadUsesZeroPointAndConcatRequantises) {
    KPlan p;
    uint16_t q = p.quant(0.5f, 3), q2 = p.quant(0.25f, -1);
    uint16_t a = p.tensor(TIGRIS_DTYPE_INT8, {1, 1, 2, 1}, q), y = p.tensor(TIGRIS_DTYPE_INT8, {1, 1, 4, 1}, q);
    uint16_t op = p.op(TIGRIS_OP_PAD, {a}, {y});
    int32_t pads[8] = {0, 0, 0, 0, 1, 1, 0, 0};
    p.attr(op, TIGRIS_ATTR_PADS, pads, sizeof pads);
    uint16_t c = p.tensor(TIGRIS_DTYPE_INT8, {1, 1, 2, 2}, q2);
    uint16_t oc = p.op(TIGRIS_OP_CONCAT, {a, a}, {c});
    uint16_t r = p.tensor(TIGRIS_DTYPE_INT8, {2}, q2);
    uint16_t orr = p.op(TIGRIS_OP_RESHAPE, {a}, {r});
    p.finish();
    p.set<int8_t>(a, {7, -100});
    ASSERT_EQ(p.run_s8(op), 0);
    EXPECT_EQ(p.get<int8_t>(y), (std::vector<int8_t>{3, 7, -100, 3}));
    ASSERT_EQ(p.run_s8(oc), 0);
    ASSERT_EQ(p.run_s8(orr), 0);
    // (7-3)*0.5/0.25 - 1 = 7; (-100-3)*2 - 1 = -207 -> -128
    EXPECT_EQ(p.get<int8_t>(c), (std::vector<int8_t>{7, 7, -128, -128}));
    EXPECT_EQ(p.get<int8_t>(r), (std::vector<int8_t>{7, -128}));
}

}  // namespace

// Binary operands under a band (docs/runtime-semantics.md R4.4): a periodic operand
// is read with the band-local index, which is right only when its period
// divides a band row; a general-broadcast constant is refused.
TEST(F32BinaryBand, PeriodicOperandsMustDivideABandRowAndGeneralConstantsAreRefused) {
    auto run = [](std::vector<int32_t> cshape, bool with_shape) {
        KPlan p;
        uint16_t a = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 4, 2, 2}), y = p.tensor(TIGRIS_DTYPE_FLOAT32, {1, 4, 2, 2});
        uint32_t n = 1;
        for (int32_t d : cshape) n *= (uint32_t)d;
        uint16_t w = p.weight(std::vector<float>(n, 1.0f));
        uint16_t op = p.op(TIGRIS_OP_ADD, {a}, {y});
        p.ops[op].weight_idx = w;
        std::vector<uint8_t> attr = {1, 0, 0xFF, 0xFF};
        if (with_shape)
            for (int32_t d : cshape)
                for (int k = 0; k < 4; k++) attr.push_back((uint8_t)((uint32_t)d >> (8 * k)));
        p.attr(op, TIGRIS_ATTR_CONSTANT_OPERAND, attr.data(), attr.size());
        p.finish();
        auto &t = p.mem.tile;  // rows 1..2 of the height band: a row is 2*2 = 4 elements
        t.active = 1;
        t.out_h = 2;
        t.in_h = 2;
        t.out_w = 2;
        t.in_w = 2;
        return p.run_f32(op);
    };
    EXPECT_EQ(run({2}, false), 0);                 // per channel: period 2 divides a row of 4
    EXPECT_EQ(run({1, 1, 2, 2}, true), 0);         // period 4 == one row
    EXPECT_EQ(run({1, 4, 2, 2}, true), -1);        // dense constant: refused under a band
    EXPECT_EQ(run({1, 2, 2, 2}, true), -1);        // does not broadcast (2 vs 4 rows): refused anyway
    EXPECT_EQ(run({1, 4, 1, 2}, true), -1);        // general broadcast constant: refused under a band
}
