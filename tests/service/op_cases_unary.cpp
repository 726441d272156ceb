// Op cases for the unary family: the math ops of ref/unary.c and s8/unary.c
// and the activations Relu, Relu6, Sigmoid, Tanh and LeakyRelu, each run
// through `tigris run` as a one-operator plan. Expected values are derived
// here: exact arithmetic by hand, transcendental float results from
// double-precision math rounded to float, int8 results from the real-valued
// function rounded to the output grid, with inputs chosen away from rounding
// boundaries so the fixed-point algorithms' small errors cannot change them.
#include <cmath>
#include <cstring>

#include "op_cases.h"

using tigris_test::OpCase;
using tigris_test::PlanBuilder;

namespace {

struct Q {
    float scale;
    int32_t zp;
};

// x -> op -> y over `shape`, revision 10; int8 when quant is given.
OpCase unary_plan(const std::string &name, uint8_t opcode, const std::vector<int32_t> &shape, const Q *qi,
                  const Q *qo, const std::vector<uint8_t> &alpha = {}) {
    PlanBuilder b(10);
    b.model_name = name;
    uint8_t dt = qi ? TIGRIS_DTYPE_INT8 : TIGRIS_DTYPE_FLOAT32;
    int qx = qi ? b.add_quant(qi->scale, qi->zp) : -1;
    int qy = qo ? b.add_quant(qo->scale, qo->zp) : -1;
    uint16_t x = b.add_tensor("x", dt, shape, TIGRIS_TENSOR_MODEL_INPUT, qx);
    uint16_t y = b.add_tensor("y", dt, shape, TIGRIS_TENSOR_MODEL_OUTPUT, qy);
    uint16_t op = b.add_op(opcode, {x}, {y}, name);
    if (!alpha.empty()) b.add_attribute(op, TIGRIS_ATTR_ALPHA, alpha);
    b.add_stage({op}, {x}, {y});
    OpCase c;
    c.name = name;
    c.opcode = opcode;
    c.route = qi ? "s8" : "f32";
    c.plan = b.build();
    return c;
}

OpCase f32_case(const std::string &name, uint8_t opcode, const std::vector<float> &x, const std::vector<float> &y,
                const std::vector<uint8_t> &alpha = {}) {
    OpCase c = unary_plan(name, opcode, {1, (int32_t)x.size()}, nullptr, nullptr, alpha);
    c.input = tigris_test::bytes_of(x);
    c.expected = tigris_test::bytes_of(y);
    return c;
}

// Float results of a double function at x, rounded once to float.
std::vector<float> via_double(const std::vector<float> &x, double (*f)(double)) {
    std::vector<float> y;
    for (float v : x) y.push_back((float)f((double)v));
    return y;
}

OpCase s8_case(const std::string &name, uint8_t opcode, Q qi, Q qo, const std::vector<int8_t> &x,
               const std::vector<int8_t> &y, const std::vector<uint8_t> &alpha = {}) {
    OpCase c = unary_plan(name, opcode, {1, 1, (int32_t)x.size()}, &qi, &qo, alpha);
    c.input = tigris_test::bytes_of(x);
    c.expected = tigris_test::bytes_of(y);
    return c;
}

std::vector<uint8_t> f32_bytes(float v) {
    std::vector<uint8_t> b(4);
    std::memcpy(b.data(), &v, 4);
    return b;
}

}  // namespace

// ---- float32 ----

TIGRIS_OP_CASE(abs_f32) { return f32_case("abs_f32", TIGRIS_OP_ABS, {-2.5f, 0.0f, 3.0f, -0.125f}, {2.5f, 0, 3, 0.125f}); }

TIGRIS_OP_CASE(rsqrt_f32) {
    return f32_case("rsqrt_f32", TIGRIS_OP_RSQRT, {4.0f, 0.25f, 16.0f, 1.0f}, {0.5f, 2.0f, 0.25f, 1.0f});
}

TIGRIS_OP_CASE(neg_f32) { return f32_case("neg_f32", TIGRIS_OP_NEG, {1.5f, -2.0f, 0.25f}, {-1.5f, 2.0f, -0.25f}); }

TIGRIS_OP_CASE(exp_f32) {
    std::vector<float> x = {0.0f, 1.0f, -2.0f, 0.5f, 3.25f};
    return f32_case("exp_f32", TIGRIS_OP_EXP, x, via_double(x, [](double v) { return std::exp(v); }));
}

TIGRIS_OP_CASE(log_f32) {
    std::vector<float> x = {1.0f, 2.0f, 0.5f, 10.0f, 100.0f};
    return f32_case("log_f32", TIGRIS_OP_LOG, x, via_double(x, [](double v) { return std::log(v); }));
}

TIGRIS_OP_CASE(sqrt_f32) { return f32_case("sqrt_f32", TIGRIS_OP_SQRT, {9.0f, 0.25f, 0.0f, 2.25f}, {3, 0.5f, 0, 1.5f}); }

TIGRIS_OP_CASE(square_f32) {
    return f32_case("square_f32", TIGRIS_OP_SQUARE, {-3.0f, 0.5f, 1.5f}, {9.0f, 0.25f, 2.25f});
}

TIGRIS_OP_CASE(floor_f32) {
    return f32_case("floor_f32", TIGRIS_OP_FLOOR, {-1.5f, -1.0f, 0.25f, 2.999f}, {-2, -1, 0, 2});
}

TIGRIS_OP_CASE(ceil_f32) { return f32_case("ceil_f32", TIGRIS_OP_CEIL, {-1.5f, -1.0f, 0.25f, 2.001f}, {-1, -1, 1, 3}); }

// Half to even: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -2.5 -> -2, 2.6 -> 3.
TIGRIS_OP_CASE(round_f32) {
    return f32_case("round_f32", TIGRIS_OP_ROUND, {0.5f, 1.5f, 2.5f, -2.5f, 2.6f, -1.25f}, {0, 2, 2, -2, 3, -1});
}

TIGRIS_OP_CASE(sin_f32) {
    std::vector<float> x = {0.0f, 0.5f, -1.0f, 2.0f};
    return f32_case("sin_f32", TIGRIS_OP_SIN, x, via_double(x, [](double v) { return std::sin(v); }));
}

TIGRIS_OP_CASE(cos_f32) {
    std::vector<float> x = {0.0f, 0.5f, -1.0f, 2.0f};
    return f32_case("cos_f32", TIGRIS_OP_COS, x, via_double(x, [](double v) { return std::cos(v); }));
}

TIGRIS_OP_CASE(erf_f32) {
    std::vector<float> x = {0.0f, 0.5f, -1.0f, 2.0f};
    return f32_case("erf_f32", TIGRIS_OP_ERF, x, via_double(x, [](double v) { return std::erf(v); }));
}

// x·clamp(x+3, 0, 6)/6: -4 -> -0 (negative times 0), -3 -> -0, 1.5 -> 1.125, 3 -> 3, 4 -> 4.
TIGRIS_OP_CASE(hardswish_f32) {
    return f32_case("hardswish_f32", TIGRIS_OP_HARDSWISH, {-4.0f, -3.0f, 1.5f, 3.0f, 4.0f, 0.0f},
                    {-0.0f, -0.0f, 1.125f, 3, 4, 0});
}

TIGRIS_OP_CASE(elu_f32) {
    std::vector<float> x = {-1.0f, -0.5f, 0.0f, 2.0f, -4.0f};
    return f32_case("elu_f32", TIGRIS_OP_ELU, x, via_double(x, [](double v) { return v < 0 ? std::expm1(v) : v; }));
}

TIGRIS_OP_CASE(relu_f32) { return f32_case("relu_f32", TIGRIS_OP_RELU, {-1.0f, 0.5f, 7.0f}, {0, 0.5f, 7}); }

TIGRIS_OP_CASE(relu6_f32) {
    return f32_case("relu6_f32", TIGRIS_OP_RELU6, {-1.0f, 0.5f, 7.0f, 6.0f}, {0, 0.5f, 6, 6});
}

// 1/(1+e^-x); 0 -> 0.5 exactly, 20 is above TFLite's saturation point -> 1.
TIGRIS_OP_CASE(sigmoid_f32) {
    std::vector<float> x = {0.0f, 1.0f, -2.0f, 20.0f};
    std::vector<float> y = via_double(x, [](double v) { return 1.0 / (1.0 + std::exp(-v)); });
    y[3] = 1.0f;
    return f32_case("sigmoid_f32", TIGRIS_OP_SIGMOID, x, y);
}

TIGRIS_OP_CASE(tanh_f32) {
    std::vector<float> x = {0.0f, 0.5f, -1.0f, 3.0f};
    return f32_case("tanh_f32", TIGRIS_OP_TANH, x, via_double(x, [](double v) { return std::tanh(v); }));
}

TIGRIS_OP_CASE(leaky_relu_f32) {
    return f32_case("leaky_relu_f32", TIGRIS_OP_LEAKY_RELU, {-4.0f, -1.0f, 0.0f, 3.0f}, {-1.0f, -0.25f, 0, 3},
                    f32_bytes(0.25f));
}

// ---- int8 ----

// Scale ratio 0.5/0.25 = 2 is exact: q = 2·|x − 3| − 128, clamped.
TIGRIS_OP_CASE(abs_s8) {
    return s8_case("abs_s8", TIGRIS_OP_ABS, {0.5f, 3}, {0.25f, -128}, {-5, 3, 60, 127, -128, 0},
                   {-112, -128, -14, 120, 127, -122});
}

// 1/sqrt(0.25·v)/(1/16) − 128 = 32/sqrt(v) − 128: v = 1, 4, 16, 64 -> 32, 16,
// 8, 4; v = 9 -> 10.67; v = 25 -> 6.4; v = 0 -> 127.
TIGRIS_OP_CASE(rsqrt_s8) {
    return s8_case("rsqrt_s8", TIGRIS_OP_RSQRT, {0.25f, -128}, {0.0625f, -128},
                   {-127, -124, -112, -64, -119, -103, -128}, {-96, -112, -120, -124, -117, -122, 127});
}

// s = 0.05 both sides: x·clamp(x+3,0,6)/6 at 0, ±1, ±2, 3, 5, 6.35 (in units
// of 0.05: 0, 13.33, -6.67, 33.33, -6.67, 60, 100, 127).
TIGRIS_OP_CASE(hardswish_s8) {
    return s8_case("hardswish_s8", TIGRIS_OP_HARDSWISH, {0.05f, 0}, {0.05f, 0}, {0, 20, -20, 40, -40, 60, 100, 127, -100},
                   {0, 13, -7, 33, -7, 60, 100, 127, 0});
}

// expm1(0.1·x)/0.05: x = -10 -> -12.64, -5 -> -7.87, -30 -> -19.00,
// -128 -> -20.0, 10 -> 20, 127 -> 254 (clamped).
TIGRIS_OP_CASE(elu_s8) {
    return s8_case("elu_s8", TIGRIS_OP_ELU, {0.1f, 0}, {0.05f, 0}, {-10, -5, -30, -128, 0, 10, 127},
                   {-13, -8, -19, -20, 0, 20, 127});
}

// erf(0.02·x)·128: 50 -> 107.87, 25 -> 66.62, 127 -> 127.96 (clamped),
// -128 -> -127.97.
TIGRIS_OP_CASE(erf_s8) {
    return s8_case("erf_s8", TIGRIS_OP_ERF, {0.02f, 0}, {1.0f / 128.0f, 0}, {0, 50, -50, 25, 127, -128},
                   {0, 108, -108, 67, 127, -128});
}

TIGRIS_OP_CASE(relu_s8) {
    return s8_case("relu_s8", TIGRIS_OP_RELU, {0.1f, -20}, {0.1f, -20}, {-100, -20, 5, 127, -128}, {-20, -20, 5, 127, -20});
}

// 6 / 0.05 = 120 above zp −100: clamp to [−100, 20].
TIGRIS_OP_CASE(relu6_s8) {
    return s8_case("relu6_s8", TIGRIS_OP_RELU6, {0.05f, -100}, {0.05f, -100}, {-128, -100, 0, 20, 50, 127},
                   {-100, -100, 0, 20, 20, 20});
}

// 256·sigmoid(0.1·x) − 128: 0 -> 0, 10 -> 59.14, -10 -> -59.14, 30 -> 115.86,
// 5 -> 31.36, ±saturation.
TIGRIS_OP_CASE(sigmoid_s8) {
    return s8_case("sigmoid_s8", TIGRIS_OP_SIGMOID, {0.1f, 0}, {1.0f / 256.0f, -128}, {0, 10, -10, 30, 5, 127, -128},
                   {0, 59, -59, 116, 31, 127, -128});
}

// 128·tanh(0.1·x): 5 -> 59.15, -20 -> -123.4, 3 -> 37.28, ±saturation.
TIGRIS_OP_CASE(tanh_s8) {
    return s8_case("tanh_s8", TIGRIS_OP_TANH, {0.1f, 0}, {1.0f / 128.0f, 0}, {0, 5, -20, 3, 127, -128},
                   {0, 59, -123, 37, 127, -128});
}

// alpha 0.25, equal scales: negatives ·0.25 with TFLite's half-away
// rounding (-6 -> -1.5 -> -2), positives unchanged.
TIGRIS_OP_CASE(leaky_relu_s8) {
    return s8_case("leaky_relu_s8", TIGRIS_OP_LEAKY_RELU, {0.1f, 0}, {0.1f, 0}, {-8, 8, -128, 127, -6, 0},
                   {-2, 8, -32, 127, -2, 0}, f32_bytes(0.25f));
}
