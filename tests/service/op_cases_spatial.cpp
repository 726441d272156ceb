// Op cases for the spatial family: Conv (1), Depthwise (2), MaxPool (5),
// AvgPool (6), FullyConnected (9), GlobalAvg (15), ConvTranspose (24),
// MatMul (25), Resize (30), GlobalMax (31), Conv1D (32), ResizeLinear (36),
// L2Pool (59). Every expected output is computed by hand (the comment says
// how) or by a plain loop written here, never by the kernels.
//
// int8 weight-bearing cases requantise with multiplier 2^30, shift 1, which
// is the identity (SRDHM(2v, 2^30) = v), so y = clamp(acc + zp_out).
#include <algorithm>
#include <cmath>

#include "op_cases.h"

using tigris_test::OpCase;
using tigris_test::PlanBuilder;

namespace {

constexpr uint8_t F32 = TIGRIS_DTYPE_FLOAT32;
constexpr uint8_t S8 = TIGRIS_DTYPE_INT8;
constexpr uint8_t IN = TIGRIS_TENSOR_MODEL_INPUT;
constexpr uint8_t OUT = TIGRIS_TENSOR_MODEL_OUTPUT;

// One op in one stage; returns the op index.
uint16_t one_op(PlanBuilder &b, uint8_t type, std::vector<uint16_t> in, uint16_t out) {
    uint16_t op = b.add_op(type, in, {out}, "op");
    b.add_stage({op}, in, {out});
    return op;
}

std::vector<uint8_t> s8_bytes(const std::vector<int> &v) {
    std::vector<uint8_t> r;
    for (int x : v) r.push_back((uint8_t)(int8_t)x);
    return r;
}

// The identity requantisation record (see the file comment).
uint16_t id_quant(PlanBuilder &b, float scale, int zp) { return b.add_quant(scale, zp, {1 << 30}, {1}); }

int clamp8(int v) { return v < -128 ? -128 : (v > 127 ? 127 : v); }

OpCase make(const char *name, uint8_t opcode, const char *route, PlanBuilder &b, std::vector<uint8_t> in,
            std::vector<uint8_t> expected) {
    // Room for the model input held in the fast arena plus the whole stage,
    // so every case runs as a normal (unbanded) stage.
    b.budget = 16384;
    OpCase c{name, opcode, route, b.build(), std::move(in), std::move(expected)};
    return c;
}

}  // namespace

// ---- Conv: 2x2 kernel {1,0,0,-1} over 1..9, bias 0.5: x[i][j] - x[i+1][j+1] + 0.5 = -3.5.
TIGRIS_OP_CASE(spatial_conv_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", F32, {1, 3, 3, 1}, IN), y = b.add_tensor("y", F32, {1, 2, 2, 1}, OUT);
    uint16_t op = one_op(b, TIGRIS_OP_CONV, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(2, 2, 1, 1, 0, 0, 0, 0);
    b.ops[op].weight = b.add_float_weight("w", {1, 0, 0, -1});
    b.ops[op].bias = b.add_float_weight("b", {0.5f});
    return make("spatial_conv_f32", TIGRIS_OP_CONV, "f32", b,
                tigris_test::bytes_of(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9}),
                tigris_test::bytes_of(std::vector<float>{-3.5f, -3.5f, -3.5f, -3.5f}));
}

// int8: zp_in 1 cancels in x00 - x11; acc = x00 - x11 + bias 5; y = acc + zp_out(-2).
TIGRIS_OP_CASE(spatial_conv_s8) {
    PlanBuilder b(10);
    uint16_t qx = b.add_quant(0.5f, 1), qy = id_quant(b, 0.25f, -2);
    uint16_t x = b.add_tensor("x", S8, {1, 3, 3, 1}, IN, qx), y = b.add_tensor("y", S8, {1, 2, 2, 1}, OUT, qy);
    uint16_t op = one_op(b, TIGRIS_OP_CONV, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(2, 2, 1, 1, 0, 0, 0, 0);
    b.ops[op].weight = b.add_weight("w", s8_bytes({1, 0, 0, -1}));
    b.ops[op].bias = b.add_i32_weight("b", {5});
    std::vector<int> xv = {10, -20, 30, 7, 100, -100, -128, 127, 0};
    std::vector<int> e;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) e.push_back(clamp8(xv[i * 3 + j] - xv[(i + 1) * 3 + j + 1] + 5 - 2));
    return make("spatial_conv_s8", TIGRIS_OP_CONV, "s8", b, s8_bytes(xv), s8_bytes(e));
}

// ---- Depthwise 1x1: channel 0 times 2, channel 1 times -1 plus 1.
TIGRIS_OP_CASE(spatial_depthwise_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", F32, {1, 2, 2, 2}, IN), y = b.add_tensor("y", F32, {1, 2, 2, 2}, OUT);
    uint16_t op = one_op(b, TIGRIS_OP_DEPTHWISE, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 2);
    b.ops[op].weight = b.add_float_weight("w", {2, -1});
    b.ops[op].bias = b.add_float_weight("b", {0, 1});
    return make("spatial_depthwise_f32", TIGRIS_OP_DEPTHWISE, "f32", b,
                tigris_test::bytes_of(std::vector<float>{1, 2, -3, 4, 0.5f, -0.5f, 8, 0}),
                tigris_test::bytes_of(std::vector<float>{2, -1, -6, -3, 1, 1.5f, 16, 1}));
}

TIGRIS_OP_CASE(spatial_depthwise_s8) {
    PlanBuilder b(10);
    uint16_t qx = b.add_quant(0.5f, 3), qy = id_quant(b, 0.5f, 4);
    uint16_t x = b.add_tensor("x", S8, {1, 2, 2, 2}, IN, qx), y = b.add_tensor("y", S8, {1, 2, 2, 2}, OUT, qy);
    uint16_t op = one_op(b, TIGRIS_OP_DEPTHWISE, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 2);
    b.ops[op].weight = b.add_weight("w", s8_bytes({2, -1}));
    b.ops[op].bias = b.add_i32_weight("b", {0, 1});
    std::vector<int> xv = {1, 2, -3, 4, 100, -100, 127, -128}, e;
    for (int i = 0; i < 8; i++) e.push_back(clamp8(i % 2 ? -(xv[i] - 3) + 1 + 4 : 2 * (xv[i] - 3) + 4));
    return make("spatial_depthwise_s8", TIGRIS_OP_DEPTHWISE, "s8", b, s8_bytes(xv), s8_bytes(e));
}

// ---- MaxPool / AvgPool 2x2 stride 2 over [1,2,2,2].
static OpCase pool_case(const char *name, uint8_t type, uint8_t dtype, std::vector<uint8_t> in,
                        std::vector<uint8_t> exp) {
    PlanBuilder b(10);
    int q = dtype == S8 ? b.add_quant(0.5f, 0) : -1;
    uint16_t x = b.add_tensor("x", dtype, {1, 2, 2, 2}, IN, q), y = b.add_tensor("y", dtype, {1, 1, 1, 2}, OUT, q);
    uint16_t op = one_op(b, type, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(2, 2, 2, 2, 0, 0, 0, 0);
    return make(name, type, dtype == S8 ? "s8" : "f32", b, std::move(in), std::move(exp));
}

TIGRIS_OP_CASE(spatial_max_pool_f32) {
    return pool_case("spatial_max_pool_f32", TIGRIS_OP_MAX_POOL, F32,
                     tigris_test::bytes_of(std::vector<float>{1, -1, 5, -7, -2, -3, 3, -0.5f}),
                     tigris_test::bytes_of(std::vector<float>{5, -0.5f}));
}
TIGRIS_OP_CASE(spatial_max_pool_s8) {
    return pool_case("spatial_max_pool_s8", TIGRIS_OP_MAX_POOL, S8, s8_bytes({1, -128, 5, -7, -2, -3, 3, -100}),
                     s8_bytes({5, -3}));
}
// sums 7 and -9 over 4 taps: 1.75; s8 rounds half away: 11/4 -> 3, -10/4 -> -3 (2.5 away).
TIGRIS_OP_CASE(spatial_avg_pool_f32) {
    return pool_case("spatial_avg_pool_f32", TIGRIS_OP_AVG_POOL, F32,
                     tigris_test::bytes_of(std::vector<float>{1, -1, 5, -7, -2, -3, 3, 2}),
                     tigris_test::bytes_of(std::vector<float>{1.75f, -2.25f}));
}
TIGRIS_OP_CASE(spatial_avg_pool_s8) {
    return pool_case("spatial_avg_pool_s8", TIGRIS_OP_AVG_POOL, S8, s8_bytes({1, -1, 5, -7, 2, -3, 3, 1}),
                     s8_bytes({3, -3}));
}

// ---- FullyConnected [1,3] -> [1,2]: w rows {1,1,1}, {1,-1,0}; bias {0.5, 0}.
TIGRIS_OP_CASE(spatial_fully_conn_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", F32, {1, 3}, IN), y = b.add_tensor("y", F32, {1, 2}, OUT);
    uint16_t op = one_op(b, TIGRIS_OP_FULLY_CONN, {x}, y);
    b.ops[op].weight = b.add_float_weight("w", {1, 1, 1, 1, -1, 0});
    b.ops[op].bias = b.add_float_weight("b", {0.5f, 0});
    return make("spatial_fully_conn_f32", TIGRIS_OP_FULLY_CONN, "f32", b,
                tigris_test::bytes_of(std::vector<float>{1, 2, 3}),
                tigris_test::bytes_of(std::vector<float>{6.5f, -1}));
}
// zp_in -1: values +1; acc0 = 11+21+(-29)+10 = 13 -> y 13+5; acc1 = 11-21 = -10 -> -5.
TIGRIS_OP_CASE(spatial_fully_conn_s8) {
    PlanBuilder b(10);
    uint16_t qx = b.add_quant(0.5f, -1), qy = id_quant(b, 0.5f, 5);
    uint16_t x = b.add_tensor("x", S8, {1, 3}, IN, qx), y = b.add_tensor("y", S8, {1, 2}, OUT, qy);
    uint16_t op = one_op(b, TIGRIS_OP_FULLY_CONN, {x}, y);
    b.ops[op].weight = b.add_weight("w", s8_bytes({1, 1, 1, 1, -1, 0}));
    b.ops[op].bias = b.add_i32_weight("b", {10, 0});
    return make("spatial_fully_conn_s8", TIGRIS_OP_FULLY_CONN, "s8", b, s8_bytes({10, 20, -30}), s8_bytes({18, -5}));
}

// ---- GlobalAvg over 2x2: f32 mean; s8 TFLite Mean with equal scales (exact means 3 and -2).
TIGRIS_OP_CASE(spatial_global_avg_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", F32, {1, 2, 2, 1}, IN), y = b.add_tensor("y", F32, {1, 1, 1, 1}, OUT);
    one_op(b, TIGRIS_OP_GLOBAL_AVG, {x}, y);
    return make("spatial_global_avg_f32", TIGRIS_OP_GLOBAL_AVG, "f32", b,
                tigris_test::bytes_of(std::vector<float>{1, 2, 3, 6}), tigris_test::bytes_of(std::vector<float>{3}));
}
TIGRIS_OP_CASE(spatial_global_avg_s8) {
    PlanBuilder b(10);
    uint16_t q = b.add_quant(0.5f, 0);
    uint16_t x = b.add_tensor("x", S8, {1, 2, 2, 2}, IN, q), y = b.add_tensor("y", S8, {1, 1, 1, 2}, OUT, q);
    one_op(b, TIGRIS_OP_GLOBAL_AVG, {x}, y);
    return make("spatial_global_avg_s8", TIGRIS_OP_GLOBAL_AVG, "s8", b, s8_bytes({1, -5, 2, 1, 3, -2, 6, -2}),
                s8_bytes({3, -2}));
}

// ---- ConvTranspose 2x2 stride 2 over [1,2,2,1]: y[2i+kh][2j+kw] = x[i][j]·w[kh][kw] (+ bias).
static std::vector<float> convt_expect(const std::vector<float> &x, const std::vector<float> &w, float bias) {
    std::vector<float> y(16, 0.0f);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int kh = 0; kh < 2; kh++)
                for (int kw = 0; kw < 2; kw++) y[(2 * i + kh) * 4 + 2 * j + kw] = x[i * 2 + j] * w[kh * 2 + kw] + bias;
    return y;
}
TIGRIS_OP_CASE(spatial_conv_transpose_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", F32, {1, 2, 2, 1}, IN), y = b.add_tensor("y", F32, {1, 4, 4, 1}, OUT);
    uint16_t op = one_op(b, TIGRIS_OP_CONV_TRANSPOSE, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(2, 2, 2, 2, 0, 0, 0, 0);
    std::vector<float> w = {1, 10, 100, 1000}, xv = {1, 2, 3, -4};
    b.ops[op].weight = b.add_float_weight("w", w);
    b.ops[op].bias = b.add_float_weight("b", {0.5f});
    return make("spatial_conv_transpose_f32", TIGRIS_OP_CONV_TRANSPOSE, "f32", b, tigris_test::bytes_of(xv),
                tigris_test::bytes_of(convt_expect(xv, w, 0.5f)));
}
TIGRIS_OP_CASE(spatial_conv_transpose_s8) {
    PlanBuilder b(10);
    uint16_t qx = b.add_quant(0.5f, 2), qy = id_quant(b, 1.0f, -3);
    uint16_t x = b.add_tensor("x", S8, {1, 2, 2, 1}, IN, qx), y = b.add_tensor("y", S8, {1, 4, 4, 1}, OUT, qy);
    uint16_t op = one_op(b, TIGRIS_OP_CONV_TRANSPOSE, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(2, 2, 2, 2, 0, 0, 0, 0);
    b.ops[op].weight = b.add_weight("w", s8_bytes({1, -2, 3, 10}));
    b.ops[op].bias = b.add_i32_weight("b", {1});
    std::vector<int> xv = {5, -3, 2, 20};
    std::vector<float> e = convt_expect({3, -5, 0, 18}, {1, -2, 3, 10}, 1.0f);  // x - zp_in
    std::vector<int> ei;
    for (float v : e) ei.push_back(clamp8((int)v - 3));
    return make("spatial_conv_transpose_s8", TIGRIS_OP_CONV_TRANSPOSE, "s8", b, s8_bytes(xv), s8_bytes(ei));
}

// ---- MatMul batched [2,2,3]·[2,3,2] (plain triple loop here).
TIGRIS_OP_CASE(spatial_matmul_f32) {
    PlanBuilder b(10);
    uint16_t a = b.add_tensor("a", F32, {2, 2, 3}, IN), bb = b.add_tensor("b", F32, {2, 3, 2}, IN);
    uint16_t y = b.add_tensor("y", F32, {2, 2, 2}, OUT);
    one_op(b, TIGRIS_OP_MATMUL, {a, bb}, y);
    std::vector<float> av = {1, 2, 3, 4, 5, 6, -1, 0, 1, 2, 2, 2}, bv = {1, 0, 0, 1, 1, 1, 0.5f, 1, 2, 3, -1, 0};
    std::vector<float> e(8);
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                float s = 0;
                for (int k = 0; k < 3; k++) s += av[t * 6 + i * 3 + k] * bv[t * 6 + k * 2 + j];
                e[t * 4 + i * 2 + j] = s;
            }
    auto in = tigris_test::bytes_of(av), inb = tigris_test::bytes_of(bv);
    in.insert(in.end(), inb.begin(), inb.end());
    return make("spatial_matmul_f32", TIGRIS_OP_MATMUL, "f32", b, in, tigris_test::bytes_of(e));
}
TIGRIS_OP_CASE(spatial_matmul_s8) {
    PlanBuilder b(10);
    uint16_t qa = b.add_quant(0.5f, 1), qb = b.add_quant(0.25f, -2), qy = id_quant(b, 0.125f, 7);
    uint16_t a = b.add_tensor("a", S8, {2, 3}, IN, qa), bb = b.add_tensor("b", S8, {3, 2}, IN, qb);
    uint16_t y = b.add_tensor("y", S8, {2, 2}, OUT, qy);
    one_op(b, TIGRIS_OP_MATMUL, {a, bb}, y);
    std::vector<int> av = {1, 2, 3, -4, 5, 10}, bv = {-2, 0, 3, 1, 8, -8}, e;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int s = 0;
            for (int k = 0; k < 3; k++) s += (av[i * 3 + k] - 1) * (bv[k * 2 + j] + 2);
            e.push_back(clamp8(s + 7));
        }
    auto in = s8_bytes(av), inb = s8_bytes(bv);
    in.insert(in.end(), inb.begin(), inb.end());
    return make("spatial_matmul_s8", TIGRIS_OP_MATMUL, "s8", b, in, s8_bytes(e));
}

// ---- Conv1D k3 pad 1 over 1..5: channel 0 (ones) {3,6,9,12,9}; channel 1 (0,1,-1) x[t] - x[t+1].
TIGRIS_OP_CASE(spatial_conv1d_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", F32, {1, 5, 1}, IN), y = b.add_tensor("y", F32, {1, 5, 2}, OUT);
    uint16_t op = one_op(b, TIGRIS_OP_CONV1D, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(3, 1, 1, 1, 1, 1, 0, 0);
    b.ops[op].weight = b.add_float_weight("w", {1, 1, 1, 0, 1, -1});  // [OC=2, K=3, IC=1]
    return make("spatial_conv1d_f32", TIGRIS_OP_CONV1D, "f32", b,
                tigris_test::bytes_of(std::vector<float>{1, 2, 3, 4, 5}),
                tigris_test::bytes_of(std::vector<float>{3, -1, 6, -1, 9, -1, 12, -1, 9, 5}));
}
// int8, stride 2: taps at 2t-1..2t+1 of x - zp(1), weight {1,2,1}.
TIGRIS_OP_CASE(spatial_conv1d_s8) {
    PlanBuilder b(10);
    uint16_t qx = b.add_quant(0.5f, 1), qy = id_quant(b, 0.5f, 0);
    uint16_t x = b.add_tensor("x", S8, {1, 5, 1}, IN, qx), y = b.add_tensor("y", S8, {1, 3, 1}, OUT, qy);
    uint16_t op = one_op(b, TIGRIS_OP_CONV1D, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(3, 1, 2, 1, 1, 1, 0, 0);
    b.ops[op].weight = b.add_weight("w", s8_bytes({1, 2, 1}));
    std::vector<int> xv = {11, 21, -9, 41, 101}, e;
    for (int t = 0; t < 3; t++) {
        int s = 0;
        for (int k = 0; k < 3; k++) {
            int p = 2 * t - 1 + k;
            if (p >= 0 && p < 5) s += (xv[p] - 1) * (k == 1 ? 2 : 1);
        }
        e.push_back(clamp8(s));
    }
    return make("spatial_conv1d_s8", TIGRIS_OP_CONV1D, "s8", b, s8_bytes(xv), s8_bytes(e));
}

// ---- GlobalMax over [1,2,2,2] per channel.
TIGRIS_OP_CASE(spatial_global_max_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", F32, {1, 2, 2, 2}, IN), y = b.add_tensor("y", F32, {1, 1, 1, 2}, OUT);
    one_op(b, TIGRIS_OP_GLOBAL_MAX, {x}, y);
    return make("spatial_global_max_f32", TIGRIS_OP_GLOBAL_MAX, "f32", b,
                tigris_test::bytes_of(std::vector<float>{-5, -9, -3, -1, -4, -2, -7, -8}),
                tigris_test::bytes_of(std::vector<float>{-3, -1}));
}
TIGRIS_OP_CASE(spatial_global_max_s8) {
    PlanBuilder b(10);
    uint16_t q = b.add_quant(0.5f, -3);
    uint16_t x = b.add_tensor("x", S8, {1, 2, 2, 2}, IN, q), y = b.add_tensor("y", S8, {1, 1, 1, 2}, OUT, q);
    one_op(b, TIGRIS_OP_GLOBAL_MAX, {x}, y);
    return make("spatial_global_max_s8", TIGRIS_OP_GLOBAL_MAX, "s8", b, s8_bytes({-128, 9, -100, 127, -7, 0, -99, 3}),
                s8_bytes({-7, 127}));
}

// ---- L2Pool 2x2 stride 2: sqrt((9+16+0+0)/4) = 2.5; channel 1 sqrt(4/4) = 1.
TIGRIS_OP_CASE(spatial_l2_pool_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", F32, {1, 2, 2, 2}, IN), y = b.add_tensor("y", F32, {1, 1, 1, 2}, OUT);
    uint16_t op = one_op(b, TIGRIS_OP_L2_POOL, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(2, 2, 2, 2, 0, 0, 0, 0);
    return make("spatial_l2_pool_f32", TIGRIS_OP_L2_POOL, "f32", b,
                tigris_test::bytes_of(std::vector<float>{3, 1, -4, -1, 0, 1, 0, -1}),
                tigris_test::bytes_of(std::vector<float>{2.5f, 1}));
}

// ---- Resize nearest, asymmetric (mode 1), 2x2 -> 4x4: source index floor(i/2).
static std::vector<int> nearest_2to4(const std::vector<int> &x) {
    std::vector<int> y;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) y.push_back(x[(i / 2) * 2 + j / 2]);
    return y;
}
TIGRIS_OP_CASE(spatial_resize_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", F32, {1, 2, 2, 1}, IN), y = b.add_tensor("y", F32, {1, 4, 4, 1}, OUT);
    uint16_t op = one_op(b, TIGRIS_OP_RESIZE, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(1, 0, 2, 2, 0, 0, 0, 0);
    std::vector<float> e;
    for (int v : nearest_2to4({1, 2, 3, 4})) e.push_back((float)v);
    return make("spatial_resize_f32", TIGRIS_OP_RESIZE, "f32", b,
                tigris_test::bytes_of(std::vector<float>{1, 2, 3, 4}), tigris_test::bytes_of(e));
}
TIGRIS_OP_CASE(spatial_resize_s8) {
    PlanBuilder b(10);
    uint16_t q = b.add_quant(0.5f, 0);
    uint16_t x = b.add_tensor("x", S8, {1, 2, 2, 1}, IN, q), y = b.add_tensor("y", S8, {1, 4, 4, 1}, OUT, q);
    uint16_t op = one_op(b, TIGRIS_OP_RESIZE, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(1, 0, 2, 2, 0, 0, 0, 0);
    return make("spatial_resize_s8", TIGRIS_OP_RESIZE, "s8", b, s8_bytes({-128, 5, 127, -1}),
                s8_bytes(nearest_2to4({-128, 5, 127, -1})));
}

// ---- ResizeLinear half-pixel (mode 0) [1,1,2,1] -> [1,1,4,1]. Float: positions
// -0.25, 0.25, 0.75, 1.25 over {0, 4} give {0, 1, 3, 4}. int8 10-bit: scale10 512,
// positions -256, 256, 768, 1280 over {0, 40} give {0, 10, 30, 40}.
TIGRIS_OP_CASE(spatial_resize_linear_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", F32, {1, 1, 2, 1}, IN), y = b.add_tensor("y", F32, {1, 1, 4, 1}, OUT);
    uint16_t op = one_op(b, TIGRIS_OP_RESIZE_LINEAR, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(0, 0, 1, 2, 0, 0, 0, 0);
    return make("spatial_resize_linear_f32", TIGRIS_OP_RESIZE_LINEAR, "f32", b,
                tigris_test::bytes_of(std::vector<float>{0, 4}), tigris_test::bytes_of(std::vector<float>{0, 1, 3, 4}));
}
TIGRIS_OP_CASE(spatial_resize_linear_s8) {
    PlanBuilder b(10);
    uint16_t q = b.add_quant(0.5f, 0);
    uint16_t x = b.add_tensor("x", S8, {1, 1, 2, 1}, IN, q), y = b.add_tensor("y", S8, {1, 1, 4, 1}, OUT, q);
    uint16_t op = one_op(b, TIGRIS_OP_RESIZE_LINEAR, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(0, 0, 1, 2, 0, 0, 0, 0);
    return make("spatial_resize_linear_s8", TIGRIS_OP_RESIZE_LINEAR, "s8", b, s8_bytes({0, 40}),
                s8_bytes({0, 10, 30, 40}));
}

// ---- Banded runs: a fast arena far smaller than the stage makes the executor
// compute these in height stripes (kernels see tile row origins / in_h / pad_top).
// Checked with `tigris run --json` while writing them: 12, 2, 3, 2 tiles, and 2
// ROWS bands for each MatMul case below.

static OpCase make_banded(const char *name, uint8_t opcode, const char *route, PlanBuilder &b, uint32_t budget,
                          std::vector<uint8_t> in, std::vector<uint8_t> expected) {
    OpCase c = make(name, opcode, route, b, {}, {});
    b.budget = budget;
    c.plan = b.build();
    c.input = std::move(in);
    c.expected = std::move(expected);
    return c;
}

// Half-pixel bilinear 6x3 -> 12x5 in float, the docs/runtime-semantics.md R4.7 formula in its documented order.
static std::vector<float> bilinear_f32(const std::vector<float> &x, int ih, int iw, int oh, int ow) {
    std::vector<float> y;
    float rh = (float)ih / (float)oh, rw = (float)iw / (float)ow;
    for (int i = 0; i < oh; i++)
        for (int j = 0; j < ow; j++) {
            float py = ((float)i + 0.5f) * rh - 0.5f, px = ((float)j + 0.5f) * rw - 0.5f;
            int y0 = std::max(0, (int)std::floor(py)), y1 = std::min(ih - 1, (int)std::ceil(py));
            int x0 = std::max(0, (int)std::floor(px)), x1 = std::min(iw - 1, (int)std::ceil(px));
            float wy = py - (float)y0, wx = px - (float)x0;
            y.push_back(x[y0 * iw + x0] * (1.0f - wy) * (1.0f - wx) + x[y1 * iw + x0] * wy * (1.0f - wx) +
                        x[y0 * iw + x1] * (1.0f - wy) * wx + x[y1 * iw + x1] * wy * wx);
        }
    return y;
}

TIGRIS_OP_CASE(spatial_resize_linear_banded_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", F32, {1, 6, 3, 1}, IN), y = b.add_tensor("y", F32, {1, 12, 5, 1}, OUT);
    one_op(b, TIGRIS_OP_RESIZE_LINEAR, {x}, y);
    std::vector<float> xv;
    for (int i = 0; i < 18; i++) xv.push_back((float)((i * 7) % 11) - 4.5f);
    return make_banded("spatial_resize_linear_banded_f32", TIGRIS_OP_RESIZE_LINEAR, "f32", b, 224,
                       tigris_test::bytes_of(xv), tigris_test::bytes_of(bilinear_f32(xv, 6, 3, 12, 5)));
}

// int8 10-bit path, asymmetric 6 -> 12 rows (scale10 512), 3 -> 5 columns (scale10 (3072+2)/5 = 614).
TIGRIS_OP_CASE(spatial_resize_linear_banded_s8) {
    PlanBuilder b(10);
    uint16_t q = b.add_quant(0.5f, 1);
    uint16_t x = b.add_tensor("x", S8, {1, 6, 3, 1}, IN, q), y = b.add_tensor("y", S8, {1, 12, 5, 1}, OUT, q);
    uint16_t op = one_op(b, TIGRIS_OP_RESIZE_LINEAR, {x}, y);
    b.ops[op].spatial.kernel_h = 1;
    std::vector<int> xv, e;
    for (int i = 0; i < 18; i++) xv.push_back((i * 37) % 255 - 127);
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 5; j++) {
            int64_t py = (int64_t)i * 512, px = (int64_t)j * 614;
            int64_t y0 = py / 1024, y1 = std::min<int64_t>(5, (py + 1023) / 1024), dy = py - 1024 * y0;
            int64_t x0 = px / 1024, x1 = std::min<int64_t>(2, (px + 1023) / 1024), dx = px - 1024 * x0;
            auto X = [&](int64_t h, int64_t w) { return (int64_t)xv[h * 3 + w]; };
            int64_t s = X(y0, x0) * (1024 - dy) * (1024 - dx) + X(y1, x0) * dy * (1024 - dx) +
                        X(y0, x1) * (1024 - dy) * dx + X(y1, x1) * dy * dx;
            e.push_back(clamp8((int)((s + (s > 0 ? (1 << 19) : -(1 << 19))) / (1 << 20))));
        }
    return make_banded("spatial_resize_linear_banded_s8", TIGRIS_OP_RESIZE_LINEAR, "s8", b, 96, s8_bytes(xv),
                       s8_bytes(e));
}

// Nearest align-corners 5 -> 9 rows: ratio 0.5, index round(i/2) half away = 0 1 1 2 2 3 3 4 4.
TIGRIS_OP_CASE(spatial_resize_banded_s8) {
    PlanBuilder b(10);
    uint16_t q = b.add_quant(0.5f, 0);
    uint16_t x = b.add_tensor("x", S8, {1, 5, 8, 2}, IN, q), y = b.add_tensor("y", S8, {1, 9, 8, 2}, OUT, q);
    uint16_t op = one_op(b, TIGRIS_OP_RESIZE, {x}, y);
    b.ops[op].spatial.kernel_h = 2;
    std::vector<int> xv, e;
    for (int i = 0; i < 80; i++) xv.push_back((i * 13) % 256 - 128);
    for (int i = 0; i < 9; i++)
        for (int k = 0; k < 16; k++) e.push_back(xv[((i + 1) / 2) * 16 + k]);
    return make_banded("spatial_resize_banded_s8", TIGRIS_OP_RESIZE, "s8", b, 256, s8_bytes(xv), s8_bytes(e));
}

// Conv1D over a 16-long sequence in length stripes: k3 stride 1 pads 1, weights {1, 2, -1}.
TIGRIS_OP_CASE(spatial_conv1d_banded_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", F32, {1, 16, 2}, IN), y = b.add_tensor("y", F32, {1, 16, 1}, OUT);
    uint16_t op = one_op(b, TIGRIS_OP_CONV1D, {x}, y);
    b.ops[op].spatial = PlanBuilder::spatial(3, 1, 1, 1, 1, 1, 0, 0);
    b.ops[op].weight = b.add_float_weight("w", {1, 0, 2, 1, -1, 0});  // [1, K=3, IC=2]
    b.stages[0].tile = b.add_tile(PlanBuilder::stripe_tile(4, 16, 2, 3));  // rank 3 stripes need a record
    std::vector<float> xv, e;
    for (int i = 0; i < 32; i++) xv.push_back((float)(i % 7) - (float)(i % 3));
    auto X = [&](int t, int c) { return t < 0 || t >= 16 ? 0.0f : xv[t * 2 + c]; };
    for (int t = 0; t < 16; t++) e.push_back(X(t - 1, 0) + 2 * X(t, 0) + X(t, 1) - X(t + 1, 0));
    return make_banded("spatial_conv1d_banded_f32", TIGRIS_OP_CONV1D, "f32", b, 160, tigris_test::bytes_of(xv),
                       tigris_test::bytes_of(e));
}

// MatMul [M,K]·[K,3] in ROWS bands (row-tiled stage record): B whole, rows of A and Y banded.
static OpCase matmul_banded(bool s8) {
    PlanBuilder b(10);
    const int M = s8 ? 16 : 8, K = s8 ? 8 : 4;
    int qa = s8 ? b.add_quant(0.5f, 3) : -1, qb = s8 ? b.add_quant(0.5f, -1) : -1;
    int qy = s8 ? id_quant(b, 1.0f, -6) : -1;
    uint8_t dt = s8 ? S8 : F32;
    uint16_t a = b.add_tensor("a", dt, {M, K}, IN, qa), bb = b.add_tensor("b", dt, {K, 3}, IN, qb);
    uint16_t y = b.add_tensor("y", dt, {M, 3}, OUT, qy);
    one_op(b, TIGRIS_OP_MATMUL, {a, bb}, y);
    b.stages[0].tile = b.add_tile(PlanBuilder::stripe_tile(2, (uint32_t)M, 0, 1));
    std::vector<int> av, bv, e;
    for (int i = 0; i < M * K; i++) av.push_back((i * 11) % 23 - 11);
    for (int i = 0; i < K * 3; i++) bv.push_back((i * 5) % 9 - 4);
    int za = s8 ? 3 : 0, zb = s8 ? -1 : 0, zy = s8 ? -6 : 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < 3; j++) {
            int s = 0;
            for (int k = 0; k < K; k++) s += (av[i * K + k] - za) * (bv[k * 3 + j] - zb);
            e.push_back(s8 ? clamp8(s + zy) : s);
        }
    std::vector<uint8_t> in, exp;
    if (s8) {
        in = s8_bytes(av);
        auto t = s8_bytes(bv);
        in.insert(in.end(), t.begin(), t.end());
        exp = s8_bytes(e);
    } else {
        std::vector<float> af(av.begin(), av.end()), bf(bv.begin(), bv.end()), ef(e.begin(), e.end());
        in = tigris_test::bytes_of(af);
        auto t = tigris_test::bytes_of(bf);
        in.insert(in.end(), t.begin(), t.end());
        exp = tigris_test::bytes_of(ef);
    }
    return make_banded(s8 ? "spatial_matmul_banded_s8" : "spatial_matmul_banded_f32", TIGRIS_OP_MATMUL,
                       s8 ? "s8" : "f32", b, s8 ? 128 : 192, in, exp);
}
TIGRIS_OP_CASE(spatial_matmul_banded_f32) { return matmul_banded(false); }
TIGRIS_OP_CASE(spatial_matmul_banded_s8) { return matmul_banded(true); }
