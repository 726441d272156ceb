// The int8 TFLite-graph evaluator (tests/support/tflite_eval) is judged
// first: on every TFLite Micro oracle case (corpus/oracle, MANIFEST §2) its
// output bytes must be TFLite Micro's, all of them. Then its refusals must
// say what went wrong.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "shared_data.h"
#include "tflite_eval.h"
#include "tiny_graph.h"

namespace {

namespace fs = std::filesystem;
namespace tfl = tigris::tflite;
using tigris_test::TfliteEvalError;

std::vector<uint8_t> oracle(const std::string &model, const std::string &variant, const char *what) {
    return tigris_test::read_file(tigris_test::shared_dir() / "corpus" / "oracle" /
                                  (model + "." + variant + "." + what + ".bin"));
}

TEST(TfliteEval, EveryOracleCaseIsExact) {
    TIGRIS_REQUIRE_SHARED();
    size_t cases = 0;
    for (const auto &e : fs::directory_iterator(tigris_test::shared_dir() / "corpus" / "oracle")) {
        const std::string f = e.path().filename().string();
        const std::string suffix = ".input.bin";
        if (f.size() <= suffix.size() || f.compare(f.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
        // <model>.<variant>.input.bin
        const std::string stem = f.substr(0, f.size() - suffix.size());
        const std::string model = stem.substr(0, stem.rfind('.')), variant = stem.substr(stem.rfind('.') + 1);
        SCOPED_TRACE(model + "." + variant);
        const auto file = tigris_test::read_file(tigris_test::shared_dir() / "models" / (model + ".tflite"));
        const auto in = oracle(model, variant, "input"), want = oracle(model, variant, "expected");
        ASSERT_FALSE(file.empty());
        const auto got = tigris_test::tflite_evaluate(file, in);
        ASSERT_EQ(got.outputs.size(), want.size());
        size_t diff = 0;
        for (size_t i = 0; i < want.size(); ++i) diff += got.outputs[i] != want[i];
        EXPECT_EQ(diff, 0u) << "bytes differing from TFLite Micro";
        ++cases;
    }
    EXPECT_EQ(cases, 18u) << "MANIFEST §2 lists 18 oracle cases (9 models x mid/rand)";
}

TEST(TfliteEval, InputSizesAndSeededInputsFollowTheModel) {
    TIGRIS_REQUIRE_SHARED();
    const auto file = tigris_test::read_file(tigris_test::shared_dir() / "models" / "model_ToyCar_quant_fullint.tflite");
    const tfl::Model m = tfl::read_model(file);
    // ToyCar takes float32 [1,640] through a QUANTIZE: 2560 bytes.
    ASSERT_EQ(tigris_test::tflite_input_sizes(m), std::vector<size_t>{2560});
    const auto a = tigris_test::tflite_seeded_inputs(m, 7), b = tigris_test::tflite_seeded_inputs(m, 7),
               c = tigris_test::tflite_seeded_inputs(m, 8);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    ASSERT_EQ(a.size(), 2560u);
    // Every float lies inside what the int8 input tensor represents.
    const tfl::Tensor *q = nullptr;
    for (const auto &op : m.subgraphs[0].operators)
        if (m.operator_codes[op.opcode_index].builtin == tfl::kQuantize) q = &m.subgraphs[0].tensors[op.outputs[0]];
    ASSERT_NE(q, nullptr);
    const float lo = (-128 - q->quant.zero_point[0]) * q->quant.scale[0], hi = (127 - q->quant.zero_point[0]) * q->quant.scale[0];
    for (size_t k = 0; k < a.size(); k += 4) {
        float v;
        std::memcpy(&v, &a[k], 4);
        ASSERT_GE(v, lo);
        ASSERT_LE(v, hi);
    }
    EXPECT_EQ(tigris_test::tflite_evaluate(m, a).outputs.size(), 640u * 4u);  // float32 [1,640] out
}

// Each refusal names its step.
TEST(TfliteEval, ErrorsSayWhatWentWrong) {
    auto expect_error = [](auto &&fn, const std::string &part) {
        try {
            fn();
            ADD_FAILURE() << "no error; expected one containing \"" << part << "\"";
        } catch (const TfliteEvalError &e) {
            EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
        }
    };
    const std::vector<uint8_t> junk{1, 2, 3, 4, 5, 6, 7, 8};
    expect_error([&] { tigris_test::tflite_evaluate(junk, {}); }, "not a readable TFLite model");

    tigris_test::TinyGraph g;
    const int32_t x = g.i8("x", {1, 4}, {0.5f, 0}), y = g.i8("y", {1, 4}, {0.5f, 0});
    g.op(tfl::kRelu, {x}, {y});
    g.io({x}, {y});
    const std::vector<uint8_t> three(3, 0);
    expect_error([&] { tigris_test::tflite_evaluate(g.model(), three); }, "the model takes 4 (\"x\" 4)");

    // An operator the lowering has no form for: the refusal is import's, named.
    tigris_test::TinyGraph h;
    const int32_t a = h.i8("a", {1, 4}, {0.5f, 0}), b = h.i8("b", {1, 4}, {0.5f, 0});
    h.op(10, {a}, {b});  // HASHTABLE_LOOKUP: no runtime operator
    h.io({a}, {b});
    expect_error([&] { tigris_test::tflite_evaluate(h.model(), std::vector<uint8_t>(4)); },
                 "import refused the model (unsupported-operator)");

    // What the kernels cannot run is refused before anything runs: an int8
    // SOFTMAX whose output encoding is not (1/256, -128) is refused by the
    // loader (a plan that loads runs), and the error says so.
    tigris_test::TinyGraph k;
    const int32_t p = k.i8("p", {1, 4}, {0.5f, 0}), r = k.i8("r", {1, 4}, {0.5f, 0}),
                  s = k.i8("s", {1, 4}, {0.5f, 0});
    k.op(tfl::kRelu, {p}, {r});
    k.op(tfl::kSoftmax, {r}, {s}).options.beta = 1.0f;
    k.io({p}, {s});
    expect_error([&] { tigris_test::tflite_evaluate(k.model(), std::vector<uint8_t>(4)); },
                 "the lowered plan is refused by the loader");
}

}  // namespace
