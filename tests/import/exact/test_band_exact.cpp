// Row-banded graphs in the form `tigris export` writes (SLICE, PAD/PADV2,
// VALID copies of the operators on the original weights, CONCATENATION;
// built by hand in band_by_hand.cpp and passed through the TFLite writer and
// reader) compute the same bytes as the original graphs: every output byte
// is compared on several seeded inputs by the int8 evaluator.
#include <gtest/gtest.h>

#include <random>

#include "band_by_hand.h"
#include "option_tables.h"
#include "shared_data.h"
#include "tflite_eval.h"
#include "tigris_export/writer.hpp"
#include "tiny_graph.h"

namespace {

namespace tfl = tigris::tflite;
using tigris_test::Q;

constexpr uint32_t kSeeds[] = {1, 2, 3};

// The model as a file and read back, as an exported model reaches its user.
struct Written {
    std::vector<uint8_t> file;
    tfl::Model m;
};
Written through_writer(const tfl::Model &m) {
    Written w;
    w.file = tigris::exporter::write_model(m);
    w.m = tfl::read_model(w.file);
    return w;
}

size_t count(const tfl::Model &m, int32_t builtin) {
    size_t n = 0;
    for (const auto &op : m.subgraphs[0].operators) n += m.operator_codes[op.opcode_index].builtin == builtin;
    return n;
}

// Every output byte of `banded` equals the original's, on every seed.
void expect_same_bytes(const tfl::Model &original, const tfl::Model &banded, const std::string &what) {
    for (uint32_t seed : kSeeds) {
        const auto in = tigris_test::tflite_seeded_inputs(original, seed);
        const auto want = tigris_test::tflite_evaluate(original, in);
        const auto got = tigris_test::tflite_evaluate(banded, in);
        ASSERT_EQ(got.outputs.size(), want.outputs.size()) << what;
        size_t diff = 0;
        for (size_t i = 0; i < want.outputs.size(); ++i) diff += got.outputs[i] != want.outputs[i];
        EXPECT_EQ(diff, 0u) << what << ", seed " << seed << ": bytes differing from the unbanded model";
        EXPECT_GT(got.operators, want.operators) << what;  // the bands really ran
    }
}

// The model with the run's output tensor as one more model output, so the
// comparison covers the banded tensor itself and not only what a classifier
// head makes of it.
tfl::Model probing(const tfl::Model &m, size_t last) {
    tfl::Model p = m;
    auto &sg = p.subgraphs[0];
    sg.outputs.push_back(sg.operators.at(last).outputs.at(0));
    return p;
}

struct Case {
    const char *model;
    size_t first, last;
    std::vector<int> bands;
};

// Runs at the head of the vision and keyword models (where export bands):
// strided convolutions and depthwise convolutions with SAME padding.
TEST(BandExact, SharedModelRunsGiveTheSameBytes) {
    TIGRIS_REQUIRE_SHARED();
    const Case cases[] = {
        {"vww_96_int8", 0, 3, {2, 3, 7}},
        {"vww_96_int8", 0, 0, {2, 10}},
        {"vww_96_int8", 1, 6, {4}},
        {"person_detect", 0, 4, {2, 5}},
        {"kws_ref_model", 0, 2, {2, 3}},
        {"pretrainedResnet_quant", 1, 2, {2, 4}},
        {"str_ww_ref_model", 0, 1, {3}},
    };
    for (const Case &c : cases) {
        const auto file = tigris_test::read_file(tigris_test::shared_dir() / "models" / (std::string(c.model) + ".tflite"));
        const tfl::Model original = probing(tfl::read_model(file), c.last);
        for (int bands : c.bands) {
            const std::string what = std::string(c.model) + " operators " + std::to_string(c.first) + "-" +
                                     std::to_string(c.last) + " in " + std::to_string(bands) + " bands";
            SCOPED_TRACE(what);
            const Written banded = through_writer(tigris_test::band_by_hand(original, c.first, c.last, bands));
            EXPECT_EQ(count(banded.m, tfl::kSlice), (size_t)bands);
            EXPECT_EQ(count(banded.m, tfl::kConcatenation), count(original, tfl::kConcatenation) + 1);
            expect_same_bytes(original, banded.m, what);
        }
    }
}

// Uneven bands: a one-row band at the top, at the bottom, and a band whose
// window reaches past both edges of the input.
TEST(BandExact, UnevenBandEdges) {
    TIGRIS_REQUIRE_SHARED();
    const auto file = tigris_test::read_file(tigris_test::shared_dir() / "models" / "vww_96_int8.tflite");
    const tfl::Model original = probing(tfl::read_model(file), 3);
    const int32_t h = original.subgraphs[0].tensors[(size_t)original.subgraphs[0].operators[3].outputs[0]].shape[1];
    for (const std::vector<int32_t> &cuts : {std::vector<int32_t>{1}, std::vector<int32_t>{h - 1},
                                             std::vector<int32_t>{1, 2, h - 1}, std::vector<int32_t>{5, 6, 17}}) {
        std::string what = "vww_96_int8 operators 0-3, cuts";
        for (int32_t c : cuts) what += " " + std::to_string(c);
        const Written banded = through_writer(tigris_test::band_by_hand(original, 0, 3, cuts));
        expect_same_bytes(original, banded.m, what);
    }
}

// A run holding every kind of operator export may band: a dilated SAME
// convolution, LEAKY_RELU, a SAME max pool (PADV2 with -128), HARD_SWISH, an
// int8 QUANTIZE, ADD and MAXIMUM with per-channel constants, a strided
// depthwise convolution, ABS, RELU6, and a VALID average pool.
tigris_test::TinyGraph every_kind(uint32_t seed) {
    std::mt19937 rng(seed);
    auto bytes = [&](size_t n, int lo, int hi) {
        std::vector<int8_t> v(n);
        for (auto &x : v) x = (int8_t)(lo + (int)(rng() % (uint32_t)(hi - lo + 1)));
        return v;
    };
    tigris_test::TinyGraph g;
    const int32_t x = g.i8("x", {1, 23, 9, 3}, {0.05f, -7});
    const int32_t w = g.const_i8_channels("w", {4, 3, 3, 3}, {0.011f, 0.017f, 0.009f, 0.013f}, bytes(108, -127, 127));
    const int32_t bias = g.const_i32("bias", {4}, {300, -1200, 45, 0}, {});
    const int32_t c1 = g.i8("conv", {1, 23, 9, 4}, {0.09f, 3});
    auto &conv = g.op(tfl::kConv2D, {x, w, bias}, {c1});
    conv.options.padding = 0;
    conv.options.dilation_h = 2;
    conv.options.fused_activation = 1;  // RELU
    const int32_t l = g.i8("leaky", {1, 23, 9, 4}, {0.07f, -20});
    g.op(tfl::kLeakyRelu, {c1}, {l}).options.alpha = 0.2f;
    const int32_t mp = g.i8("maxpool", {1, 12, 5, 4}, {0.07f, -20});
    auto &pool = g.op(tfl::kMaxPool2D, {l}, {mp});
    pool.options.padding = 0;
    pool.options.filter_h = pool.options.filter_w = 3;
    pool.options.stride_h = pool.options.stride_w = 2;
    const int32_t hs = g.i8("hardswish", {1, 12, 5, 4}, {0.06f, -60});
    g.op(tfl::kHardSwish, {mp}, {hs});
    const int32_t qz = g.i8("requant", {1, 12, 5, 4}, {0.045f, 5});
    g.op(tfl::kQuantize, {hs}, {qz});
    const int32_t add = g.i8("add", {1, 12, 5, 4}, {0.08f, 0});
    g.op(tfl::kAdd, {qz, g.const_i8("addend", {1, 1, 1, 4}, {0.03f, 2}, bytes(4, -100, 100))}, {add});
    const int32_t mx = g.i8("max", {1, 12, 5, 4}, {0.08f, 0});
    g.op(tfl::kMaximum, {add, g.const_i8("floor", {4}, {0.08f, 0}, bytes(4, -40, 10))}, {mx});
    const int32_t dw = g.const_i8_channels("dw", {1, 3, 3, 4}, {0.02f, 0.03f, 0.015f, 0.025f}, bytes(36, -127, 127), 3);
    const int32_t d1 = g.i8("depthwise", {1, 6, 3, 4}, {0.1f, -3});
    auto &dwop = g.op(tfl::kDepthwiseConv2D, {mx, dw, g.const_i32("dw_bias", {4}, {10, -10, 500, -500})}, {d1});
    dwop.options.padding = 0;
    dwop.options.stride_h = dwop.options.stride_w = 2;
    dwop.options.depth_multiplier = 1;
    const int32_t ab = g.i8("abs", {1, 6, 3, 4}, {0.1f, -100});
    g.op(tfl::kAbs, {d1}, {ab});
    // RELU6 keeps its input's encoding: TFLite clamps the raw bytes, and import
    // refuses a RELU6 whose output is encoded differently.
    const int32_t r6 = g.i8("relu6", {1, 6, 3, 4}, {0.1f, -100});
    g.op(tfl::kRelu6, {ab}, {r6});
    const int32_t ap = g.i8("avgpool", {1, 5, 2, 4}, {0.1f, -100});
    auto &avg = g.op(tfl::kAveragePool2D, {r6}, {ap});
    avg.options.padding = 1;
    avg.options.filter_h = avg.options.filter_w = 2;
    g.io({x}, {ap});
    return g;
}

TEST(BandExact, EveryOperatorKindExportBands) {
    for (uint32_t seed : {11u, 12u}) {
        const tigris_test::TinyGraph g = every_kind(seed);
        tfl::Model original = g.model();
        tigris_test::derive_option_tables(original);
        const Written orig = through_writer(original);
        const size_t n = orig.m.subgraphs[0].operators.size();
        for (int bands : {2, 3, 5}) {
            const std::string what = "every kind, seed " + std::to_string(seed) + ", " + std::to_string(bands) + " bands";
            const Written banded = through_writer(tigris_test::band_by_hand(orig.m, 0, n - 1, bands));
            EXPECT_EQ(count(banded.m, tfl::kPadV2), (size_t)bands) << what;  // one per band, in front of the max pool
            expect_same_bytes(orig.m, banded.m, what);
        }
        // Banding only the middle of the run (input and output inside the graph).
        const Written middle = through_writer(tigris_test::band_by_hand(orig.m, 2, 7, 3));
        expect_same_bytes(orig.m, middle.m, "every kind, operators 2-7");
    }
}

// The comparison is not blind: shifting one band's slice by a row (the
// overlap arithmetic off by one) is seen as differing bytes.
TEST(BandExact, AnOffByOneSliceIsCaught) {
    TIGRIS_REQUIRE_SHARED();
    const auto file = tigris_test::read_file(tigris_test::shared_dir() / "models" / "vww_96_int8.tflite");
    const tfl::Model original = probing(tfl::read_model(file), 3);
    tfl::Model banded = tigris_test::band_by_hand(original, 0, 3, 3);
    // The second band's SLICE begin: rows start one later.
    size_t slices = 0;
    for (auto &op : banded.subgraphs[0].operators) {
        if (banded.operator_codes[op.opcode_index].builtin != tfl::kSlice || ++slices != 2) continue;
        auto &begin = banded.subgraphs[0].tensors[(size_t)op.inputs[1]];
        auto &buf = banded.buffers[begin.buffer];
        auto moved = std::make_shared<std::vector<uint8_t>>(buf.data.begin(), buf.data.end());
        (*moved)[4] += 1;  // begin[1], little-endian int32 (stays inside the input: the slice is shorter than it)
        buf.owned = moved;
        buf.data = *moved;
    }
    ASSERT_EQ(slices, 3u);
    const Written w = through_writer(banded);
    const auto in = tigris_test::tflite_seeded_inputs(original, 1);
    EXPECT_NE(tigris_test::tflite_evaluate(original, in).outputs, tigris_test::tflite_evaluate(w.m, in).outputs);
}

}  // namespace
