// The TFLite writer: read -> write -> read gives the same model for every
// shared model, the written bytes are a fixed point, and the writer refuses
// models that hold uncarried parts or dangling references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "model_compare.h"
#include "shared_data.h"
#include "tigris_export/writer.hpp"

namespace tfl = tigris::tflite;
namespace ex = tigris::exporter;

namespace {

// How often `needle` occurs in `hay`.
size_t occurrences(const std::vector<uint8_t> &hay, const std::vector<uint8_t> &needle) {
    size_t n = 0;
    for (auto it = hay.begin(); (it = std::search(it, hay.end(), needle.begin(), needle.end())) != hay.end(); ++it) ++n;
    return n;
}

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T> &v) {
    std::vector<uint8_t> b(v.size() * sizeof(T));
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

}  // namespace

TEST(TfliteWriter, RoundTripKeepsEverySharedModel) {
    TIGRIS_REQUIRE_SHARED();
    auto models = tigris_test::shared_models();
    ASSERT_GE(models.size(), 10u);
    for (const auto &p : models) {
        SCOPED_TRACE(p.filename().string());
        const std::vector<uint8_t> file = tigris_test::read_file(p);
        const tfl::Model a = tfl::read_model(file);
        ASSERT_TRUE(a.uncarried.empty()) << a.uncarried.front();
        const std::vector<uint8_t> bytes = ex::write_model(a);
        const tfl::Model b = tfl::read_model(bytes);
        EXPECT_EQ(tigris_test::model_difference(a, b), "");
        // Fixed point: writing the re-read model gives the same bytes.
        EXPECT_EQ(ex::write_model(b), bytes);
        // Buffer data lands 16-byte aligned in the file image.
        for (const tfl::Buffer &buf : b.buffers)
            if (!buf.data.empty()) EXPECT_EQ((buf.data.data() - bytes.data()) % 16, 0);
    }
}

TEST(TfliteWriter, WritesRewrittenBuffersAndOptionFields) {
    TIGRIS_REQUIRE_SHARED();
    const std::vector<uint8_t> file = tigris_test::read_file(tigris_test::shared_dir() / "models" / "micro_speech_quantized.tflite");
    tfl::Model m = tfl::read_model(file);
    // A new buffer owned by the model, and a changed option field.
    auto owned = std::make_shared<std::vector<uint8_t>>(std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8});
    tfl::Buffer nb;
    nb.owned = owned;
    nb.data = *owned;
    m.buffers.push_back(nb);
    const uint32_t new_buffer = static_cast<uint32_t>(m.buffers.size() - 1);
    tfl::SubGraph &sg = m.subgraphs.at(0);
    tfl::Tensor t;
    t.name = "added";
    t.type = tfl::TensorType::Int32;
    t.shape = {2};
    t.buffer = new_buffer;
    sg.tensors.push_back(t);
    // Depthwise padding -> VALID: SAME is the default, so the file may not
    // store field 0 at all; set it either way.
    bool changed = false;
    for (tfl::Operator &op : sg.operators) {
        if (op.options.union_type != 2) continue;
        auto it = std::find_if(op.option_fields.begin(), op.option_fields.end(),
                               [](const tfl::OptionField &f) { return f.id == 0; });
        if (it == op.option_fields.end())
            it = op.option_fields.insert(op.option_fields.begin(), tfl::OptionField{0, tfl::OptionField::kScalar, 1, 0, {}});
        it->bits = 1;
        changed = true;
    }
    ASSERT_TRUE(changed);
    const std::vector<uint8_t> bytes = ex::write_model(m);  // the read model's spans point into it
    const tfl::Model back = tfl::read_model(bytes);
    EXPECT_EQ(tigris_test::model_difference(m, back), "");
    EXPECT_EQ(back.subgraphs[0].tensors.back().name, "added");
    for (const tfl::Operator &op : back.subgraphs[0].operators)
        if (op.options.union_type == 2) EXPECT_EQ(op.options.padding, 1);
}

TEST(TfliteWriter, RefusesUncarriedPartsAndDanglingIndices) {
    tfl::Model m;
    m.version = 3;
    m.buffers.resize(1);
    m.uncarried.push_back("the Tensor table sets field 6, which is not supported");
    EXPECT_THROW(ex::write_model(m), ex::WriteError);
    m.uncarried.clear();
    EXPECT_NO_THROW(ex::write_model(m));
    tfl::SubGraph sg;
    tfl::Tensor t;
    t.buffer = 3;  // only one buffer
    sg.tensors.push_back(t);
    m.subgraphs.push_back(sg);
    EXPECT_THROW(ex::write_model(m), ex::WriteError);
    m.subgraphs[0].tensors[0].buffer = 0;
    m.subgraphs[0].outputs = {1};
    EXPECT_THROW(ex::write_model(m), ex::WriteError);
}

// Export adds band tensors that repeat the name pieces, shapes and
// quantization of the tensors they split; the writer stores each distinct
// name, shape vector and quantization table once and points every tensor
// at it (issue 16: an exported vww_96_int8 had grown by 6.6 KiB, mostly
// copies). Four tensors share one name, shape and per-channel quantization
// with values found nowhere else; each must appear exactly once in the file.
TEST(TfliteWriter, EqualNamesShapesAndQuantizationAreWrittenOnce) {
    TIGRIS_REQUIRE_SHARED();
    const std::vector<uint8_t> file = tigris_test::read_file(tigris_test::shared_dir() / "models" / "micro_speech_quantized.tflite");
    tfl::Model m = tfl::read_model(file);
    tfl::SubGraph &sg = m.subgraphs.at(0);
    tfl::Tensor t;
    t.name = "writer-test/a-name-no-model-holds";
    t.type = tfl::TensorType::Int8;
    t.shape = {1, 3701, 3709, 3719};
    t.quant.scale = {0.0123f, 0.0456f, 0.0789f};
    t.quant.zero_point = {-7, 5, 11};
    t.quant.quantized_dimension = 3;
    for (int i = 0; i < 4; ++i) sg.tensors.push_back(t);
    const std::vector<uint8_t> bytes = ex::write_model(m);

    std::vector<uint8_t> name(t.name.begin(), t.name.end());
    name.push_back(0);  // FlatBuffers strings end in a NUL
    EXPECT_EQ(occurrences(bytes, name), 1u);
    EXPECT_EQ(occurrences(bytes, bytes_of(t.shape)), 1u);
    EXPECT_EQ(occurrences(bytes, bytes_of(t.quant.scale)), 1u);
    EXPECT_EQ(occurrences(bytes, bytes_of(t.quant.zero_point)), 1u);
    // And all four read back whole.
    const tfl::Model b = tfl::read_model(bytes);
    ASSERT_EQ(b.subgraphs[0].tensors.size(), sg.tensors.size());
    for (size_t i = sg.tensors.size() - 4; i < sg.tensors.size(); ++i) {
        const tfl::Tensor &r = b.subgraphs[0].tensors[i];
        EXPECT_EQ(r.name, t.name);
        EXPECT_EQ(r.shape, t.shape);
        EXPECT_EQ(r.quant.scale, t.quant.scale);
        EXPECT_EQ(r.quant.zero_point, t.quant.zero_point);
        EXPECT_EQ(r.quant.quantized_dimension, 3);
    }
}
