// Op cases for the recurrent family: SVDF (85, f32 and s8), LSTM (86, f32
// and s8) and DETECTION_POSTPROCESS (89, float inputs and int8 inputs). State
// tensors start from the plan's initial values (one run). Expected bytes are
// worked out by hand in the comments.
#include <cmath>
#include <cstring>

#include "op_cases.h"

using tigris_test::kNone16;
using tigris_test::le_f32;
using tigris_test::le_i32;
using tigris_test::le_u16;
using tigris_test::OpCase;
using tigris_test::PlanBuilder;

namespace {

std::vector<uint8_t> le_i16(const std::vector<int16_t> &v) { return tigris_test::bytes_of(v); }
std::vector<uint8_t> le_i8(const std::vector<int8_t> &v) { return tigris_test::bytes_of(v); }

void append(std::vector<uint8_t> &a, const std::vector<uint8_t> &b) { a.insert(a.end(), b.begin(), b.end()); }

}  // namespace

// SVDF f32, 2 units, rank 1, memory 3, fused Relu. State [1 2 3 | 4 5 6]
// shifts to [2 3 4 | 5 6 6]; x = (2, 1) gives the newest slots 1*2+2*1 = 4
// and -10*2 = -20: [2 3 4 | 5 6 -20]. y0 = 0.5 + 1*2 + 10*3 + 100*4 = 432.5;
// y1 = 5 + 6 - 20 = -9 -> Relu 0.
TIGRIS_OP_CASE(svdf_f32) {
    PlanBuilder b(10);
    b.model_name = "svdf_f32";
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 2}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t s = b.add_tensor("state", TIGRIS_DTYPE_FLOAT32, {1, 6}, TIGRIS_TENSOR_STATE);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t ns = b.add_tensor("state.next", TIGRIS_DTYPE_FLOAT32, {1, 6}, TIGRIS_TENSOR_STATE);
    uint16_t fw = b.add_float_weight("svdf.fw", {1, 2, -10, 0});
    uint16_t tw = b.add_float_weight("svdf.tw", {1, 10, 100, 1, 1, 1});
    uint16_t bias = b.add_float_weight("svdf.b", {0.5f, 0});
    uint16_t op = b.add_op(TIGRIS_OP_SVDF, {x, s}, {y, ns}, "svdf");
    b.ops[op].fused_act = TIGRIS_ACT_RELU;
    b.add_attribute(op, TIGRIS_ATTR_CONSTANTS, le_u16({fw, tw, bias}));
    b.add_attribute(op, TIGRIS_ATTR_SVDF, le_i32({1}));
    b.add_stage({op}, {x, s}, {y, ns});
    b.add_state(s, ns, le_f32({1, 2, 3, 4, 5, 6}));
    OpCase c{"svdf_f32", TIGRIS_OP_SVDF, "f32", b.build(), {}, {}};
    c.input = le_f32({2, 1});
    c.expected = le_f32({432.5f, 0.0f});
    return c;
}

// SVDF int8, 1 unit, rank 1, memory 2, m = 2^30 (x 1/2) for both
// requantisations, output shift -1. x = (6, 2) with zero point 1 -> (5, 1);
// feature sum 3*5 - 2*1 = 13 -> 6.5 -> 7 (state zero point 0); state
// [11 20] -> [20 7]. y: 100 + 5*20 + 7*7 = 249 -> 124.5 -> 125 -> /2 ->
// 62.5 -> 63, + zero point -3 = 60.
TIGRIS_OP_CASE(svdf_s8) {
    PlanBuilder b(10);
    b.model_name = "svdf_s8";
    int qx = b.add_quant(0.05f, 1), qy = b.add_quant(0.1f, -3);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_INT8, {1, 2}, TIGRIS_TENSOR_MODEL_INPUT, qx);
    uint16_t s = b.add_tensor("state", TIGRIS_DTYPE_INT16, {1, 2}, TIGRIS_TENSOR_STATE);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_INT8, {1, 1}, TIGRIS_TENSOR_MODEL_OUTPUT, qy);
    uint16_t ns = b.add_tensor("state.next", TIGRIS_DTYPE_INT16, {1, 2}, TIGRIS_TENSOR_STATE);
    uint16_t fw = b.add_weight("svdf.fw", le_i8({3, -2}));
    uint16_t tw = b.add_weight("svdf.tw", le_i16({5, 7}));
    uint16_t bias = b.add_i32_weight("svdf.b", {100});
    uint16_t op = b.add_op(TIGRIS_OP_SVDF, {x, s}, {y, ns}, "svdf");
    b.add_attribute(op, TIGRIS_ATTR_CONSTANTS, le_u16({fw, tw, bias}));
    b.add_attribute(op, TIGRIS_ATTR_SVDF, le_i32({1, 0, 1 << 30, 0, 1 << 30, -1}));
    b.add_stage({op}, {x, s}, {y, ns});
    b.add_state(s, ns, le_i16({11, 20}));
    OpCase c{"svdf_s8", TIGRIS_OP_SVDF, "s8", b.build(), {}, {}};
    c.input = le_i8({6, 2});
    c.expected = le_i8({60});
    return c;
}

// LSTM f32, 1 unit, 2 steps, batch-major, all weights and biases zero:
// every sigmoid gate is 1/2 and the cell gate tanh(0) = 0, so the cell
// halves each step (2 -> 1 -> 0.5) and h_t = 0.5 * tanh(c_t).
TIGRIS_OP_CASE(lstm_f32) {
    PlanBuilder b(10);
    b.model_name = "lstm_f32";
    uint16_t x = b.add_tensor("seq", TIGRIS_DTYPE_FLOAT32, {1, 2, 1}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t h = b.add_tensor("h", TIGRIS_DTYPE_FLOAT32, {1, 1}, TIGRIS_TENSOR_STATE);
    uint16_t cl = b.add_tensor("c", TIGRIS_DTYPE_FLOAT32, {1, 1}, TIGRIS_TENSOR_STATE);
    uint16_t hs = b.add_tensor("hseq", TIGRIS_DTYPE_FLOAT32, {1, 2, 1}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t nh = b.add_tensor("h.next", TIGRIS_DTYPE_FLOAT32, {1, 1}, TIGRIS_TENSOR_STATE);
    uint16_t nc = b.add_tensor("c.next", TIGRIS_DTYPE_FLOAT32, {1, 1}, TIGRIS_TENSOR_STATE);
    std::vector<uint16_t> k;
    for (int i = 0; i < 12; i++) k.push_back(b.add_float_weight("lstm.w" + std::to_string(i), {0.0f}));
    uint16_t op = b.add_op(TIGRIS_OP_LSTM, {x, h, cl}, {hs, nh, nc}, "lstm");
    b.add_attribute(op, TIGRIS_ATTR_CONSTANTS, le_u16(k));
    std::vector<uint8_t> a = le_i32({0});
    append(a, le_f32({0.0f}));
    b.add_attribute(op, TIGRIS_ATTR_LSTM, a);
    b.add_stage({op}, {x, h, cl}, {hs, nh, nc});
    b.add_state(h, nh, le_f32({-7}));
    b.add_state(cl, nc, le_f32({2}));
    OpCase c{"lstm_f32", TIGRIS_OP_LSTM, "f32", b.build(), {}, {}};
    c.input = le_f32({3, -1});
    c.expected = le_f32({0.5f * std::tanh(1.0f), 0.5f * std::tanh(0.5f)});
    return c;
}

// LSTM int8 (TFLite's integer LSTM, docs/kernels.md), 1 unit, 1 feature, 2
// steps, batch-major. Payload: zero points 0 (input) and -2 (hidden), cell
// scale 2^-11, no clip; every gate FC (2^30, 0) = x/2; forget product
// (2^30, -14) = x/2^15, input product (2^30, -18) = x/2^19, output product
// (2^30, -22) = x/2^23. Weights: only the cell gate's input weight 64; the
// forget gate has bias 8192. Sigmoids and tanhs read the 0.16 table T of
// sigmoid(i/24) (act16.h): gates are Q3.12, the cell tanh reads 6·c.
//  forget: 8192/2 = 4096 -> 3·4096 = 24 steps -> (T[24]·512 + 512) >> 10 =
//          23956; input and output gates: sigmoid(0) = 16384.
//  x = 32: cell gate 64·32/2 = 1024 -> 3072 = step 12 -> (40794·256 − 2^23
//          + 128) >> 8 = 8026; x = −32 mirrors it: −8026.
//  step 1: kept 23956·1000/2^15 = 731.08 -> 731, added 16384·8026/2^19 =
//          250.8 -> 251, c = 982; tanh: 6·982 = 5892 = step 23 + 4/256,
//          (47369·256 + 4·542 − 2^23 + 128) >> 8 = 14609; h = 16384·14609/2^23
//          = 28.5 -> 29, − 2 = 27.
//  step 2: kept 23956·982/2^15 = 717.9 -> 718, added −251, c = 467; tanh:
//          2802 = step 10 + 242/256, (39498·256 + 242·651 − 2^23 + 128) >> 8
//          = 7345; h = 7345/2^9 = 14.3 -> 14, − 2 = 12.
TIGRIS_OP_CASE(lstm_s8) {
    PlanBuilder b(10);
    b.model_name = "lstm_s8";
    int qx = b.add_quant(0.02f, 0), qh = b.add_quant(1.0f / 128, -2);
    uint16_t x = b.add_tensor("seq", TIGRIS_DTYPE_INT8, {1, 2, 1}, TIGRIS_TENSOR_MODEL_INPUT, qx);
    uint16_t h = b.add_tensor("h", TIGRIS_DTYPE_INT8, {1, 1}, TIGRIS_TENSOR_STATE, qh);
    uint16_t cl = b.add_tensor("c", TIGRIS_DTYPE_INT16, {1, 1}, TIGRIS_TENSOR_STATE);
    uint16_t hs = b.add_tensor("hseq", TIGRIS_DTYPE_INT8, {1, 2, 1}, TIGRIS_TENSOR_MODEL_OUTPUT, qh);
    uint16_t nh = b.add_tensor("h.next", TIGRIS_DTYPE_INT8, {1, 1}, TIGRIS_TENSOR_STATE, qh);
    uint16_t nc = b.add_tensor("c.next", TIGRIS_DTYPE_INT16, {1, 1}, TIGRIS_TENSOR_STATE);
    std::vector<uint16_t> k;
    for (int g = 0; g < 4; g++)
        k.push_back(b.add_weight("lstm.wi" + std::to_string(g), le_i8({(int8_t)(g == 2 ? 64 : 0)})));
    for (int g = 0; g < 4; g++) k.push_back(b.add_weight("lstm.wr" + std::to_string(g), le_i8({0})));
    for (int g = 0; g < 4; g++) k.push_back(g == 1 ? b.add_i32_weight("lstm.bf", {8192}) : kNone16);
    uint16_t op = b.add_op(TIGRIS_OP_LSTM, {x, h, cl}, {hs, nh, nc}, "lstm");
    b.add_attribute(op, TIGRIS_ATTR_CONSTANTS, le_u16(k));
    std::vector<int32_t> a = {0, 0, 0, -2, -11, 0};
    for (int i = 0; i < 8; i++) a.insert(a.end(), {1 << 30, 0});
    a.insert(a.end(), {1 << 30, -14, 1 << 30, -18, 1 << 30, -22});
    b.add_attribute(op, TIGRIS_ATTR_LSTM, le_i32(a));
    b.add_stage({op}, {x, h, cl}, {hs, nh, nc});
    b.add_state(h, nh, le_i8({-2}));
    b.add_state(cl, nc, le_i16({1000}));
    OpCase c{"lstm_s8", TIGRIS_OP_LSTM, "s8", b.build(), {}, {}};
    c.input = le_i8({32, -32});
    c.expected = le_i8({27, 12});
    return c;
}

namespace {

std::vector<uint8_t> det_payload(uint16_t max_det, uint16_t per_class, uint16_t classes, uint8_t regular) {
    std::vector<uint8_t> a = le_u16({max_det, per_class, classes});
    a.push_back(regular);
    a.push_back(0);
    append(a, le_f32({0.2f, 0.5f, 10, 10, 5, 5}));
    return a;
}

// Three boxes against anchors [0,0,1,1], [0.125,0,1.125,1] (IoU 7/9 with the
// first) and [2,2,3,3]; C = 3 score columns (background first).
PlanBuilder det_plan(uint8_t dtype, uint8_t regular) {
    PlanBuilder b(10);
    b.model_name = "detection";
    int qb = -1, qs = -1;
    if (dtype == TIGRIS_DTYPE_INT8) {
        qb = b.add_quant(0.5f, 0);
        qs = b.add_quant(1.0f / 256.0f, -128);
    }
    uint16_t bx = b.add_tensor("boxes", dtype, {1, 3, 4}, TIGRIS_TENSOR_MODEL_INPUT, qb);
    uint16_t sc = b.add_tensor("scores", dtype, {1, 3, 3}, TIGRIS_TENSOR_MODEL_INPUT, qs);
    uint16_t ob = b.add_tensor("det.boxes", TIGRIS_DTYPE_FLOAT32, {1, 3, 4}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t oc = b.add_tensor("det.classes", TIGRIS_DTYPE_FLOAT32, {1, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t os = b.add_tensor("det.scores", TIGRIS_DTYPE_FLOAT32, {1, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t on = b.add_tensor("det.count", TIGRIS_DTYPE_FLOAT32, {1}, TIGRIS_TENSOR_MODEL_OUTPUT);
    // 4 * (9*3 + max(3, K) + 2K + 3) + 3 bytes, K = 3 (+ 2 when regular).
    int32_t K = regular ? 5 : 3;
    int32_t need = 4 * (27 + (K > 3 ? K : 3) + 2 * K + 3) + 3;
    uint16_t wm = b.add_tensor("det.work", TIGRIS_DTYPE_FLOAT32, {(need + 3) / 4});
    uint16_t anc = b.add_float_weight("anchors", {0.5f, 0.5f, 1, 1, 0.625f, 0.5f, 1, 1, 2.5f, 2.5f, 1, 1});
    uint16_t op = b.add_op(TIGRIS_OP_DETECTION_POSTPROCESS, {bx, sc}, {ob, oc, os, on, wm}, "detect");
    b.add_attribute(op, TIGRIS_ATTR_CONSTANTS, le_u16({anc}));
    b.add_attribute(op, TIGRIS_ATTR_DETECTION, det_payload(3, 2, 2, regular));
    b.add_stage({op}, {bx, sc}, {ob, oc, os, on});
    return b;
}

}  // namespace

// Fast NMS, float inputs, zero encodings. Best classes: box0 c0 0.8, box1
// c1 0.75 (IoU 7/9 > 0.5 with box0: suppressed), box2 c1 0.625.
TIGRIS_OP_CASE(detection_postprocess_f32) {
    PlanBuilder b = det_plan(TIGRIS_DTYPE_FLOAT32, 0);
    OpCase c{"detection_postprocess_f32", TIGRIS_OP_DETECTION_POSTPROCESS, "f32", b.build(), {}, {}};
    c.input = le_f32(std::vector<float>(12, 0.0f));
    append(c.input, le_f32({0.9f, 0.8f, 0.1f, 0.1f, 0.7f, 0.75f, 0.0f, 0.3f, 0.625f}));
    c.expected = le_f32({0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 0, 0});
    append(c.expected, le_f32({0, 1, 0}));
    append(c.expected, le_f32({0.8f, 0.625f, 0}));
    append(c.expected, le_f32({2}));
    return c;
}

// Regular NMS on int8 inputs (boxes 0.5/0, scores 1/256/-128: value =
// (q + 128)/256). Scores: box0 (bg, 205, 28)/256, box1 (.., 179, 192)/256,
// box2 (.., 78, 154)/256; box2's y encoding 20 * 0.5 = 10 moves it down by 1
// anchor height: [3,2,4,3]. Class 0 keeps box0 (box1 suppressed) and box2;
// class 1 keeps box1 and box2 (box0's 28/256 < 0.2). Top three by score:
// box0 c0 205, box1 c1 192, box2 c1 154.
TIGRIS_OP_CASE(detection_postprocess_s8) {
    PlanBuilder b = det_plan(TIGRIS_DTYPE_INT8, 1);
    OpCase c{"detection_postprocess_s8", TIGRIS_OP_DETECTION_POSTPROCESS, "s8", b.build(), {}, {}};
    std::vector<int8_t> bq(12, 0);
    bq[8] = 20;
    c.input = le_i8(bq);
    append(c.input, le_i8({100, 77, -100, -100, 51, 64, -128, -50, 26}));
    c.expected = le_f32({0, 0, 1, 1, 0.125f, 0, 1.125f, 1, 3, 2, 4, 3});
    append(c.expected, le_f32({0, 1, 1}));
    append(c.expected, le_f32({205 / 256.0f, 192 / 256.0f, 154 / 256.0f}));
    append(c.expected, le_f32({3}));
    return c;
}
