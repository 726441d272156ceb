// The TFLite reader against the shared reference models (counts transcribed
// by hand from ../shared/models/README.md) and against hostile images.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "shared_data.h"
#include "tigris_tflite/model.hpp"

namespace tfl = tigris::tflite;

namespace {

struct Expect {
    const char *file;
    size_t ops, tensors;
    std::map<std::string, int> op_counts;  // from the README's descriptions
};

const Expect kModels[] = {
    {"vww_96_int8.tflite", 31, 89,
     {{"CONV_2D", 14}, {"DEPTHWISE_CONV_2D", 13}, {"AVERAGE_POOL_2D", 1}, {"RESHAPE", 1},
      {"FULLY_CONNECTED", 1}, {"SOFTMAX", 1}}},
    {"kws_ref_model.tflite", 13, 35,
     {{"CONV_2D", 5}, {"DEPTHWISE_CONV_2D", 4}, {"AVERAGE_POOL_2D", 1}, {"RESHAPE", 1},
      {"FULLY_CONNECTED", 1}, {"SOFTMAX", 1}}},
    {"ad01_int8.tflite", 10, 31, {{"FULLY_CONNECTED", 10}}},
    {"model_ToyCar_quant_fullint.tflite", 12, 33,
     {{"QUANTIZE", 1}, {"FULLY_CONNECTED", 10}, {"DEQUANTIZE", 1}}},
    {"pretrainedResnet_quant.tflite", 16, 38,
     {{"CONV_2D", 9}, {"ADD", 3}, {"AVERAGE_POOL_2D", 1}, {"RESHAPE", 1}, {"FULLY_CONNECTED", 1},
      {"SOFTMAX", 1}}},
    {"pretrainedResnet_large_int8.tflite", 16, 38,
     {{"CONV_2D", 9}, {"ADD", 3}, {"AVERAGE_POOL_2D", 1}, {"RESHAPE", 1}, {"FULLY_CONNECTED", 1},
      {"SOFTMAX", 1}}},
    {"str_ww_ref_model.tflite", 11, 31,
     {{"DEPTHWISE_CONV_2D", 4}, {"CONV_2D", 4}, {"RESHAPE", 1}, {"FULLY_CONNECTED", 1}, {"SOFTMAX", 1}}},
    {"person_detect.tflite", 31, 89,
     {{"DEPTHWISE_CONV_2D", 14}, {"CONV_2D", 14}, {"AVERAGE_POOL_2D", 1}, {"RESHAPE", 1}, {"SOFTMAX", 1}}},
    {"micro_speech_quantized.tflite", 4, 10,
     {{"RESHAPE", 1}, {"DEPTHWISE_CONV_2D", 1}, {"FULLY_CONNECTED", 1}, {"SOFTMAX", 1}}},
    {"keyword_scrambled_8bit.tflite", 15, 54,
     {{"QUANTIZE", 2}, {"SVDF", 7}, {"FULLY_CONNECTED", 5}, {"SOFTMAX", 1}}},
};

std::vector<uint8_t> model_bytes(const char *name) {
    return tigris_test::read_file(tigris_test::shared_dir() / "models" / name);
}

const tfl::Operator &op_at(const tfl::Model &m, size_t i) { return m.subgraphs.at(0).operators.at(i); }
std::string op_name(const tfl::Model &m, size_t i) {
    return tfl::builtin_name(m.operator_codes.at(op_at(m, i).opcode_index).builtin);
}

}  // namespace

TEST(TfliteReader, EveryModelMatchesTheReadmeTable) {
    TIGRIS_REQUIRE_SHARED();
    for (const Expect &e : kModels) {
        SCOPED_TRACE(e.file);
        auto bytes = model_bytes(e.file);
        tfl::Model m = tfl::read_model(bytes);
        ASSERT_EQ(m.subgraphs.size(), 1u);
        EXPECT_EQ(m.subgraphs[0].operators.size(), e.ops);
        EXPECT_EQ(m.subgraphs[0].tensors.size(), e.tensors);
        std::map<std::string, int> counts;
        for (size_t i = 0; i < m.subgraphs[0].operators.size(); ++i) counts[op_name(m, i)]++;
        EXPECT_EQ(counts, e.op_counts);
        ASSERT_FALSE(m.buffers.empty());
        EXPECT_TRUE(m.buffers[0].data.empty()) << "buffer 0 is the empty sentinel";
        // the scrambled benchmark model ships with its tensor names stripped
        if (std::string(e.file) != "keyword_scrambled_8bit.tflite")
            for (const auto &t : m.subgraphs[0].tensors) EXPECT_FALSE(t.name.empty());
    }
}

TEST(TfliteReader, ReadmeFactsAboutFirstOperators) {
    TIGRIS_REQUIRE_SHARED();
    {
        auto b = model_bytes("vww_96_int8.tflite");
        auto m = tfl::read_model(b);
        const auto &o = op_at(m, 0).options;  // 3x3 stride-2 SAME CONV_2D
        EXPECT_EQ(op_name(m, 0), "CONV_2D");
        EXPECT_EQ(o.stride_w, 2);
        EXPECT_EQ(o.stride_h, 2);
        EXPECT_EQ(o.padding, 0);
        const auto &w = m.subgraphs[0].tensors.at(op_at(m, 0).inputs.at(1));
        EXPECT_EQ(w.shape, (std::vector<int32_t>{8, 3, 3, 3}));
        EXPECT_EQ(w.type, tfl::TensorType::Int8);
        // per-channel: one scale per output channel on dimension 0
        EXPECT_EQ(w.quant.scale.size(), 8u);
        EXPECT_EQ(w.quant.quantized_dimension, 0);
        EXPECT_EQ(m.buffers.at(w.buffer).data.size(), 8u * 3 * 3 * 3);
        const auto &in = m.subgraphs[0].tensors.at(m.subgraphs[0].inputs.at(0));
        EXPECT_EQ(in.shape, (std::vector<int32_t>{1, 96, 96, 3}));
    }
    {
        auto b = model_bytes("person_detect.tflite");
        auto m = tfl::read_model(b);
        EXPECT_EQ(op_name(m, 0), "DEPTHWISE_CONV_2D");
        EXPECT_EQ(op_at(m, 0).options.depth_multiplier, 8);
        EXPECT_EQ(op_at(m, 0).options.stride_h, 2);
        const auto &w = m.subgraphs[0].tensors.at(op_at(m, 0).inputs.at(1));
        EXPECT_EQ(w.quant.quantized_dimension, 3);
    }
    {
        auto b = model_bytes("micro_speech_quantized.tflite");
        auto m = tfl::read_model(b);
        EXPECT_EQ(op_name(m, 0), "RESHAPE");
        EXPECT_EQ(op_name(m, 1), "DEPTHWISE_CONV_2D");
        EXPECT_EQ(op_at(m, 1).options.padding, 0);
        EXPECT_EQ(op_at(m, 1).options.stride_h, 2);
    }
    {
        auto b = model_bytes("keyword_scrambled_8bit.tflite");
        auto m = tfl::read_model(b);
        const auto &sg = m.subgraphs[0];
        int variables = 0;
        for (const auto &t : sg.tensors) variables += t.is_variable;
        EXPECT_EQ(variables, 7);
        EXPECT_EQ(sg.tensors.at(sg.inputs.at(0)).type, tfl::TensorType::Int16);
        EXPECT_EQ(sg.tensors.at(sg.inputs.at(0)).shape, (std::vector<int32_t>{1, 96}));
        EXPECT_EQ(sg.tensors.at(sg.outputs.at(0)).type, tfl::TensorType::Int32);
        for (size_t i = 0; i < sg.operators.size(); ++i)
            if (op_name(m, i) == "SVDF") EXPECT_GT(op_at(m, i).options.rank, 0);
    }
}

TEST(TfliteReader, SoftmaxBetaAndFullyConnectedOptionsRead) {
    TIGRIS_REQUIRE_SHARED();
    auto b = model_bytes("kws_ref_model.tflite");
    auto m = tfl::read_model(b);
    size_t n = m.subgraphs[0].operators.size();
    ASSERT_EQ(op_name(m, n - 1), "SOFTMAX");
    EXPECT_EQ(op_at(m, n - 1).options.beta, 1.0f);
    EXPECT_EQ(op_name(m, n - 4), "AVERAGE_POOL_2D");
    EXPECT_GT(op_at(m, n - 4).options.filter_w, 1);
}

TEST(TfliteReader, EveryTruncationIsRefusedWithAReason) {
    TIGRIS_REQUIRE_SHARED();
    auto full = model_bytes("micro_speech_quantized.tflite");
    size_t refused = 0;
    for (size_t len = 0; len < full.size(); ++len) {
        // an exact-size copy so a sanitizer build sees any over-read
        std::vector<uint8_t> cut(full.begin(), full.begin() + static_cast<long>(len));
        try {
            (void)tfl::read_model(cut);
        } catch (const tfl::ReadError &e) {
            EXPECT_NE(std::string(e.what()), "");
            ++refused;
        }
    }
    // the last bytes of a TFLite file belong to referenced vectors, so every
    // proper prefix loses something the model points at.
    EXPECT_EQ(refused, full.size());
}

TEST(TfliteReader, CorruptedBytesNeverCrash) {
    TIGRIS_REQUIRE_SHARED();
    auto full = model_bytes("micro_speech_quantized.tflite");
    std::mt19937 rng(1234);
    int refused = 0;
    for (int round = 0; round < 3000; ++round) {
        auto img = full;
        // corrupt the first 2 KiB more often: the tables and vtables live there
        for (int k = 0; k < 4; ++k) {
            size_t pos = (round & 1) ? rng() % std::min<size_t>(2048, img.size()) : rng() % img.size();
            img[pos] = static_cast<uint8_t>(rng());
        }
        try {
            (void)tfl::read_model(img);
        } catch (const tfl::ReadError &) {
            ++refused;
        }
    }
    EXPECT_GT(refused, 0);
}

TEST(TfliteReader, HostileHeaders) {
    EXPECT_THROW(tfl::read_model({}), tfl::ReadError);
    std::vector<uint8_t> wrong_id = {8, 0, 0, 0, 'T', 'F', 'L', '2', 0, 0, 0, 0};
    EXPECT_THROW(tfl::read_model(wrong_id), tfl::ReadError);
    // root offset far beyond the end
    std::vector<uint8_t> far = {0xff, 0xff, 0xff, 0x7f, 'T', 'F', 'L', '3'};
    EXPECT_THROW(tfl::read_model(far), tfl::ReadError);
    // root table whose soffset puts the vtable before the file start
    std::vector<uint8_t> neg = {8, 0, 0, 0, 'T', 'F', 'L', '3', 0x00, 0x10, 0, 0};
    EXPECT_THROW(tfl::read_model(neg), tfl::ReadError);
    // a table pointing to itself as its own vtable with a size too small
    std::vector<uint8_t> tiny = {8, 0, 0, 0, 'T', 'F', 'L', '3', 0, 0, 0, 0};
    EXPECT_THROW(tfl::read_model(tiny), tfl::ReadError);
}

TEST(TfliteReader, HandBuiltMinimalModelWithHugeVectorLengthIsRefused) {
    // Model table at 12 with vtable at 4 bytes before it... build by hand:
    // [0]  root = 16
    // [4]  "TFL3"
    // [8]  vtable: vt_size 8, tbl_size 8, field0 (version) at 4  -> 3 slots? only id 0
    // [12] pad
    // [16] table: soffset = 16-8 = 8, version = 3
    std::vector<uint8_t> f = {16, 0, 0, 0, 'T', 'F', 'L', '3', 6, 0, 8, 0, 4, 0, 0, 0,
                              8,  0, 0, 0, 3,   0,   0,   0};
    tfl::Model m = tfl::read_model(f);
    EXPECT_EQ(m.version, 3u);
    EXPECT_TRUE(m.subgraphs.empty());
    // Now give it an operator_codes vector (id 1) whose length claims 2^31.
    std::vector<uint8_t> g = {16, 0, 0, 0, 'T', 'F', 'L', '3', 8, 0, 12, 0, 4, 0, 8, 0,
                              8,  0, 0, 0, 3,   0,   0,   0,   4, 0, 0,  0, 0, 0, 0, 0x80};
    EXPECT_THROW(tfl::read_model(g), tfl::ReadError);
}
