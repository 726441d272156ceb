// The operators export's rewritten models add (SLICE, PAD, PADV2,
// CONCATENATION) and the rest of export's banded-run list (QUANTIZE, ADD/SUB/
// MUL with a constant, MAXIMUM, MINIMUM, LEAKY_RELU, HARD_SWISH, ABS), each
// lowered from a small TFLite graph and run as a real plan by the int8
// reference kernels. Every expected byte is worked out by hand in the comment
// beside it, from TFLite's definition of the operator - never from our code.
#include <gtest/gtest.h>

#include <cstdint>

#include "tflite_eval.h"
#include "tigris.h"
#include "tiny_graph.h"
#include "tigris_import/lower.hpp"
#include "tigris_import/support.hpp"

namespace {

namespace tfl = tigris::tflite;
using tigris_test::Q;
using tigris_test::TinyGraph;

std::vector<int8_t> run(const TinyGraph &g, const std::vector<int8_t> &in) {
    std::vector<uint8_t> bytes(in.begin(), in.end());
    const auto r = tigris_test::tflite_evaluate(g.model(), bytes);
    return std::vector<int8_t>(r.outputs.begin(), r.outputs.end());
}

// The refusal kind's name, or "" when the model imports.
std::string refusal(const TinyGraph &g, uint32_t schema = 11) {
    tigris::import::Options o;
    o.schema = schema;
    try {
        tigris::import::import_model(g.model(), o);
        return "";
    } catch (const tigris::import::ImportError &e) {
        return tigris::import::refusal_name(e.refusal.kind);
    }
}

std::vector<int8_t> iota(int n, int from = 0) {
    std::vector<int8_t> v;
    for (int i = 0; i < n; ++i) v.push_back((int8_t)(from + i));
    return v;
}

// ---- SLICE ----

TEST(ImportOps, SliceTakesTheBoxAndSizeMinusOneRunsToTheEnd) {
    for (bool wide : {false, true}) {  // begin/size as int32 and as int64
        TinyGraph g;
        const Q q{0.5f, 0};
        const int32_t x = g.i8("x", {1, 3, 4, 2}, q), y = g.i8("y", {1, 2, 3, 1}, q);
        const int32_t begin = wide ? g.const_i64("begin", {4}, {0, 1, 1, 0}) : g.const_i32("begin", {4}, {0, 1, 1, 0});
        const int32_t size = wide ? g.const_i64("size", {4}, {1, 2, -1, 1}) : g.const_i32("size", {4}, {1, 2, -1, 1});
        g.op(tfl::kSlice, {x, begin, size}, {y});
        g.io({x}, {y});
        EXPECT_EQ(tigris::import::lowered_opcode(g.model(), 0), std::optional<uint8_t>(TIGRIS_OP_STRIDED_SLICE));
        // x[h][w][c] = (h*4 + w)*2 + c. Rows 1-2, columns 1-3 (size -1: to the end), channel 0:
        // h=1: 10, 12, 14; h=2: 18, 20, 22.
        EXPECT_EQ(run(g, iota(24)), (std::vector<int8_t>{10, 12, 14, 18, 20, 22})) << (wide ? "int64" : "int32");
    }
}

TEST(ImportOps, SliceRefusals) {
    {  // begin computed at run time
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 4}, {0.5f, 0}), y = g.i8("y", {1, 2}, {0.5f, 0});
        const int32_t begin = g.tensor("begin", tfl::TensorType::Int32, {2}), size = g.const_i32("size", {2}, {1, 2});
        g.op(tfl::kSlice, {x, begin, size}, {y});
        g.io({x, begin}, {y});
        EXPECT_EQ(refusal(g), "unsupported-operator");
    }
    {  // TFLite copies bytes: a different output encoding would be requantized by the plan
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 4}, {0.5f, 0}), y = g.i8("y", {1, 2}, {0.25f, 0});
        g.op(tfl::kSlice, {x, g.const_i32("b", {2}, {0, 1}), g.const_i32("s", {2}, {1, 2})}, {y});
        g.io({x}, {y});
        EXPECT_EQ(refusal(g), "unsupported-attribute");
    }
    {  // past the end of the axis
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 4}, {0.5f, 0}), y = g.i8("y", {1, 2}, {0.5f, 0});
        g.op(tfl::kSlice, {x, g.const_i32("b", {2}, {0, 3}), g.const_i32("s", {2}, {1, 2})}, {y});
        g.io({x}, {y});
        EXPECT_EQ(refusal(g), "invalid-model");
    }
}

// Values a hostile file may hold (the host-asan build runs this under UBSan):
// refused with a name, no overflow on the way.
TEST(ImportOps, HostileSliceAndPadParameters) {
    {
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 4}, {0.5f, 0}), y = g.i8("y", {1, 2}, {0.5f, 0});
        g.op(tfl::kSlice, {x, g.const_i64("b", {2}, {0, 1}), g.const_i64("s", {2}, {1, INT64_MAX})}, {y});
        g.io({x}, {y});
        EXPECT_EQ(refusal(g), "invalid-model");
    }
    {
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 4}, {0.5f, 0}), y = g.i8("y", {1, 6}, {0.5f, 0});
        g.op(tfl::kPad, {x, g.const_i64("p", {2, 2}, {0, 0, INT64_MAX, INT64_MIN})}, {y});
        g.io({x}, {y});
        EXPECT_EQ(refusal(g), "invalid-model");
    }
    {  // a paddings tensor whose shape claims far more elements than its bytes
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 4}, {0.5f, 0}), y = g.i8("y", {1, 6}, {0.5f, 0});
        const int32_t p = g.const_i32("p", {2, 2}, {0, 0, 1, 1});
        g.sg().tensors[(size_t)p].shape = {65536, 65536, 65536, 65536};
        g.op(tfl::kPad, {x, p}, {y});
        g.io({x}, {y});
        EXPECT_EQ(refusal(g), "invalid-model");
    }
}

// ---- PAD / PADV2 ----

TEST(ImportOps, PadFillsWithTheZeroPoint) {
    TinyGraph g;
    const Q q{0.5f, -3};
    const int32_t x = g.i8("x", {1, 2, 2, 1}, q), y = g.i8("y", {1, 3, 4, 1}, q);
    g.op(tfl::kPad, {x, g.const_i32("paddings", {4, 2}, {0, 0, 1, 0, 0, 2, 0, 0})}, {y});
    g.io({x}, {y});
    // One row on top, two columns on the right, filled with the zero point -3:
    //   -3 -3 -3 -3 /  1  2 -3 -3 /  3  4 -3 -3
    EXPECT_EQ(run(g, {1, 2, 3, 4}), (std::vector<int8_t>{-3, -3, -3, -3, 1, 2, -3, -3, 3, 4, -3, -3}));
}

TEST(ImportOps, PadV2FillsWithItsConstantOnEveryAxis) {
    TinyGraph g;
    const Q q{0.5f, -3};
    const int32_t x = g.i8("x", {1, 1, 2, 2}, q), y = g.i8("y", {1, 2, 3, 3}, q);
    const int32_t pads = g.const_i64("paddings", {4, 2}, {0, 0, 0, 1, 1, 0, 0, 1});
    g.op(tfl::kPadV2, {x, pads, g.const_i8("fill", {}, q, {7})}, {y});
    g.io({x}, {y});
    // Row 0: a fill column, then (1 2), (3 4), each with a fill channel; row 1 all fill:
    //   7 7 7 | 1 2 7 | 3 4 7 / 7 7 7 | 7 7 7 | 7 7 7
    EXPECT_EQ(run(g, {1, 2, 3, 4}), (std::vector<int8_t>{7, 7, 7, 1, 2, 7, 3, 4, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}));
}

// TFLite's Prepare refuses a PADV2 whose int8 fill value has no encoding or
// another one than the output (the bug export once had: a band's -128 fill
// lost its quantization); the lowering refuses it too.
TEST(ImportOps, PadV2FillOutsideTheOutputsEncodingIsRefused) {
    for (Q fq : {Q{}, Q{0.25f, -3}, Q{0.5f, 0}}) {
        TinyGraph g;
        const Q q{0.5f, -3};
        const int32_t x = g.i8("x", {1, 2}, q), y = g.i8("y", {1, 3}, q);
        g.op(tfl::kPadV2, {x, g.const_i32("p", {2, 2}, {0, 0, 1, 0}), g.const_i8("fill", {}, fq, {7})}, {y});
        g.io({x}, {y});
        EXPECT_EQ(refusal(g), "invalid-model") << "fill scale " << fq.scale << " zero point " << fq.zero_point;
    }
}

TEST(ImportOps, PadRefusals) {
    TinyGraph g;
    const int32_t x = g.i8("x", {1, 2}, {0.5f, 0}), y = g.i8("y", {1, 3}, {0.5f, 0});
    g.op(tfl::kPad, {x, g.const_i32("paddings", {2, 2}, {0, 0, 1, 0})}, {y});
    g.io({x}, {y});
    EXPECT_EQ(refusal(g), "");
    EXPECT_EQ(refusal(g, 7), "bad-option");  // PADS is an attribute: schema 8 or later
    g.sg().tensors[(size_t)y].shape = {1, 4};  // the pads do not give the output's extent
    EXPECT_EQ(refusal(g), "invalid-model");
}

// ---- CONCATENATION ----

TEST(ImportOps, ConcatenationAlongRowsAndChannels) {
    const Q q{0.5f, 1};
    {
        TinyGraph g;
        const int32_t a = g.i8("a", {1, 1, 2, 2}, q), b = g.i8("b", {1, 2, 2, 2}, q), y = g.i8("y", {1, 3, 2, 2}, q);
        g.op(tfl::kConcatenation, {a, b}, {y}).options.axis = 1;
        g.io({a, b}, {y});
        // Rows of a, then rows of b: the bytes in order.
        EXPECT_EQ(run(g, iota(12, 1)), iota(12, 1));
    }
    {
        TinyGraph g;
        const int32_t a = g.i8("a", {1, 1, 2, 1}, q), b = g.i8("b", {1, 1, 2, 2}, q), y = g.i8("y", {1, 1, 2, 3}, q);
        g.op(tfl::kConcatenation, {a, b}, {y}).options.axis = -1;
        g.io({a, b}, {y});
        // a = (1, 2), b = (3 4, 5 6): per pixel a's channel then b's: 1 3 4 | 2 5 6.
        EXPECT_EQ(run(g, {1, 2, 3, 4, 5, 6}), (std::vector<int8_t>{1, 3, 4, 2, 5, 6}));
    }
    {  // inputs with another encoding: TFLite would copy, the plan would requantize
        TinyGraph g;
        const int32_t a = g.i8("a", {1, 1, 2, 1}, q), b = g.i8("b", {1, 1, 2, 1}, {0.25f, 1}),
                      y = g.i8("y", {1, 2, 2, 1}, q);
        g.op(tfl::kConcatenation, {a, b}, {y}).options.axis = 1;
        g.io({a, b}, {y});
        EXPECT_EQ(refusal(g), "unsupported-attribute");
    }
}

// ---- QUANTIZE int8 -> int8 (TFLite's Requantize) ----

TEST(ImportOps, QuantizeRequantizesWithTfliteRounding) {
    {
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 1, 1, 4}, {0.75f, 1}), y = g.i8("y", {1, 1, 1, 4}, {1.0f, -2});
        g.op(tfl::kQuantize, {x}, {y});
        g.io({x}, {y});
        EXPECT_EQ(tigris::import::lowered_opcode(g.model(), 0), std::optional<uint8_t>(TIGRIS_OP_DEPTHWISE));
        // Multiplier 0.75 = 1610612736 * 2^-31, shift 0. v = x - 1 = 2, -2, 1, 126.
        // SRDHM rounds halves up for positive and towards zero for negative products:
        //   2 * 0.75 = 1.5 -> 2;  -1.5 -> -1;  0.75 -> 1;  94.5 -> 95; then + (-2):
        EXPECT_EQ(run(g, {3, -1, 2, 127}), (std::vector<int8_t>{0, -3, -1, 93}));
    }
    {
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 2, 1, 2}, {3.0f, 0}), y = g.i8("y", {1, 2, 1, 2}, {1.0f, 10});
        g.op(tfl::kQuantize, {x}, {y});
        g.io({x}, {y});
        // 3.0 = 0.75 * 2^2: left shift 2. 40*3 + 10 = 130 -> 127; -50*3 + 10 = -140 -> -128; 13; 10.
        EXPECT_EQ(run(g, {40, -50, 1, 0}), (std::vector<int8_t>{127, -128, 13, 10}));
    }
    {  // only the rank-4 form is lowered
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 4}, {3.0f, 0}), y = g.i8("y", {1, 4}, {1.0f, 10});
        g.op(tfl::kQuantize, {x}, {y});
        g.io({x}, {y});
        EXPECT_EQ(refusal(g), "unsupported-attribute");
    }
}

// ---- binary operators with a constant operand ----

TEST(ImportOps, AddWithAPerChannelConstantAndFusedRelu) {
    for (int8_t act : {0, 1}) {
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 1, 2, 2}, {0.5f, 0}), y = g.i8("y", {1, 1, 2, 2}, {0.5f, 5});
        const int32_t c = g.const_i8("c", {2}, {0.5f, 1}, {3, -3});  // real 1.0, -2.0 = 2, -4 steps
        g.op(tfl::kAdd, {x, c}, {y}).options.fused_activation = act;
        g.io({x}, {y});
        // All scales 0.5: twice the larger = 1.0, input multipliers 0.5, output 2^-19;
        // every product is exact, so y = x + (c - 1) + 5 per channel (2, -4):
        //   10+2+5 = 17, 20-4+5 = 21, -128+2+5 = -121, 127-4+5 = 128 -> 127.
        // RELU clamps below at the zero point 5: -121 -> 5.
        const std::vector<int8_t> want = act ? std::vector<int8_t>{17, 21, 5, 127} : std::vector<int8_t>{17, 21, -121, 127};
        EXPECT_EQ(run(g, {10, 20, -128, 127}), want) << "fused " << (int)act;
    }
}

TEST(ImportOps, SubWithTheConstantFirst) {
    TinyGraph g;
    const int32_t x = g.i8("x", {1, 4}, {0.5f, 0}), y = g.i8("y", {1, 4}, {0.5f, 5});
    const int32_t c = g.const_i8("c", {}, {0.5f, 1}, {11});  // a scalar: 10 steps
    g.op(tfl::kSub, {c, x}, {y});
    g.io({x}, {y});
    // y = 10 - x + 5: 5, -5, 143 -> 127, -112.
    EXPECT_EQ(run(g, {10, 20, -128, 127}), (std::vector<int8_t>{5, -5, 127, -112}));
}

TEST(ImportOps, MulWithABroadcastConstant) {
    TinyGraph g;
    const int32_t x = g.i8("x", {1, 4}, {0.5f, 1}), y = g.i8("y", {1, 4}, {0.125f, -20});
    const int32_t c = g.const_i8("c", {4}, {0.25f, 1}, {3, 3, -2, 2});
    g.op(tfl::kMul, {x, c}, {y});
    g.io({x}, {y});
    // 0.5 * 0.25 / 0.125 = 1: y = (x - 1)(c - 1) - 20 = 2*2, -6*2, 10*-3, 99*1, - 20.
    EXPECT_EQ(run(g, {3, -5, 11, 100}), (std::vector<int8_t>{-16, -32, -50, 79}));
}

TEST(ImportOps, MaximumAndMinimumCompareRawValues) {
    const Q q{0.5f, 3};
    {
        TinyGraph g;
        const int32_t a = g.i8("a", {1, 4}, q), b = g.i8("b", {1, 4}, q), y = g.i8("y", {1, 4}, q);
        g.op(tfl::kMaximum, {a, b}, {y});
        g.io({a, b}, {y});
        // max(1,0), max(-5,-4), max(7,9), max(-128,-128)
        EXPECT_EQ(run(g, {1, -5, 7, -128, 0, -4, 9, -128}), (std::vector<int8_t>{1, -4, 9, -128}));
    }
    {
        TinyGraph g;
        const int32_t a = g.i8("a", {1, 4}, q), y = g.i8("y", {1, 4}, q);
        g.op(tfl::kMinimum, {a, g.const_i8("three", {1}, q, {3})}, {y});
        g.io({a}, {y});
        EXPECT_EQ(run(g, {1, -5, 7, 127}), (std::vector<int8_t>{1, -5, 3, 3}));
    }
    {  // another output encoding: raw comparison would mean something else
        TinyGraph g;
        const int32_t a = g.i8("a", {1, 4}, q), b = g.i8("b", {1, 4}, q), y = g.i8("y", {1, 4}, {0.25f, 3});
        g.op(tfl::kMaximum, {a, b}, {y});
        g.io({a, b}, {y});
        EXPECT_EQ(refusal(g), "unsupported-attribute");
    }
}

// ---- unary ----

TEST(ImportOps, LeakyReluWritesItsAlpha) {
    TinyGraph g;
    const int32_t x = g.i8("x", {1, 6}, {0.5f, 0}), y = g.i8("y", {1, 6}, {0.5f, 3});
    g.op(tfl::kLeakyRelu, {x}, {y}).options.alpha = 0.25f;
    g.io({x}, {y});
    // Identity multiplier 1 for x >= 0, 0.25 below (not the plan's 0.01 default):
    //   -8 -> -2, -4 -> -1, -6 -> -1.5 -> -2 (the final shift rounds halves away), 6, 127, -128 -> -32;
    // plus the output zero point 3, clamped: 1, 2, 1, 9, 127, -29.
    EXPECT_EQ(run(g, {-8, -4, -6, 6, 127, -128}), (std::vector<int8_t>{1, 2, 1, 9, 127, -29}));
}

TEST(ImportOps, AbsWithOneScaleAddsTheZeroPoints) {
    TinyGraph g;
    const int32_t x = g.i8("x", {1, 5}, {0.5f, 2}), y = g.i8("y", {1, 5}, {0.5f, -10});
    g.op(tfl::kAbs, {x}, {y});
    g.io({x}, {y});
    // |x - 2| - 10: 0-10, 5-10, 10-10, 130-10, 125-10.
    EXPECT_EQ(run(g, {2, -3, 12, -128, 127}), (std::vector<int8_t>{-10, -5, 0, 120, 115}));
}

TEST(ImportOps, HardSwishOnValuesWhoseResultIsOnTheGrid) {
    TinyGraph g;
    const int32_t x = g.i8("x", {1, 8}, {0.0625f, 0}), y = g.i8("y", {1, 8}, {0.0625f, 0});
    g.op(tfl::kHardSwish, {x}, {y});
    g.io({x}, {y});
    // x = q/16; h(x) = x * min(max(x + 3, 0), 6) / 6; each result is a multiple of 1/16:
    //   -8 -> 0, -3 -> 0, 0 -> 0, 1.5 -> 1.125 (18), -1.5 -> -0.375 (-6), 3 -> 3 (48), 4 -> 4 (64),
    //   7.9375 -> 7.9375 (127).
    EXPECT_EQ(run(g, {-128, -48, 0, 24, -24, 48, 64, 127}), (std::vector<int8_t>{0, 0, 0, 18, -6, 48, 64, 127}));
}

}  // namespace
