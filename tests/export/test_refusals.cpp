// Every reason export refuses a file for, on files built for the purpose:
// raw flatbuffers (FlatBufferBuilder) for the parts the reader notes as
// uncarried or finds out of range, and models written with our writer for
// the rest. Each must give the seed's wording and write nothing.
#include <gtest/gtest.h>

#include <flatbuffers/flatbuffers.h>

#include "graph_builder.h"
#include "tigris_export/export.hpp"
#include "tigris_export/writer.hpp"

namespace tfl = tigris::tflite;
namespace ex = tigris::exporter;
using flatbuffers::Offset;

namespace {

constexpr flatbuffers::voffset_t slot(int id) { return static_cast<flatbuffers::voffset_t>(4 + 2 * id); }

// Tweaks of a one-RELU model (tensor 0 -> RELU -> tensor 1).
struct Raw {
    bool tensor_sparsity = false;    // Tensor field 6
    bool external_buffer = false;    // Buffer offset/size
    bool quant_details = false;      // QuantizationParameters details_type
    uint8_t options_type = 0;        // Operator builtin_options_type with an empty table
    bool conv_extra_field = false;   // Conv2DOptions field 7
    int32_t op_input = 0;            // operator input tensor index
    uint32_t opcode_index = 0;
    bool signature_bad_tensor = false;
};

std::vector<uint8_t> raw_model(const Raw &r) {
    flatbuffers::FlatBufferBuilder b;
    std::vector<Offset<void>> bufs;
    for (int i = 0; i < 2; ++i) {
        auto t = b.StartTable();
        if (i == 1 && r.external_buffer) {
            b.AddElement<uint64_t>(slot(1), 64, 0);
            b.AddElement<uint64_t>(slot(2), 16, 0);
        }
        bufs.push_back(Offset<void>(b.EndTable(t)));
    }
    auto bufs_v = b.CreateVector(bufs);
    auto code_t = b.StartTable();
    b.AddElement<int8_t>(slot(0), 19, 0);
    b.AddElement<int32_t>(slot(3), 19, 0);
    auto codes_v = b.CreateVector(std::vector<Offset<void>>{Offset<void>(b.EndTable(code_t))});
    std::vector<Offset<void>> tensors;
    for (int i = 0; i < 2; ++i) {
        auto shape = b.CreateVector(std::vector<int32_t>{1, 4});
        auto scale = b.CreateVector(std::vector<float>{0.5f});
        auto zp = b.CreateVector(std::vector<int64_t>{0});
        Offset<void> details;
        if (r.quant_details) details = Offset<void>(b.EndTable(b.StartTable()));
        auto q = b.StartTable();
        b.AddOffset(slot(2), scale);
        b.AddOffset(slot(3), zp);
        if (r.quant_details) {
            b.AddElement<uint8_t>(slot(4), 1, 0);
            b.AddOffset(slot(5), details);
        }
        auto qo = Offset<void>(b.EndTable(q));
        Offset<void> sparsity;
        if (r.tensor_sparsity && i == 0) sparsity = Offset<void>(b.EndTable(b.StartTable()));
        auto t = b.StartTable();
        b.AddOffset(slot(0), shape);
        b.AddElement<int8_t>(slot(1), 9, 0);
        b.AddElement<uint32_t>(slot(2), static_cast<uint32_t>(i == 1 && r.external_buffer ? 1 : 0), 0);
        b.AddOffset(slot(4), qo);
        if (!sparsity.IsNull()) b.AddOffset(slot(6), sparsity);
        tensors.push_back(Offset<void>(b.EndTable(t)));
    }
    auto tensors_v = b.CreateVector(tensors);
    auto ins = b.CreateVector(std::vector<int32_t>{r.op_input});
    auto outs = b.CreateVector(std::vector<int32_t>{1});
    Offset<void> opts;
    if (r.options_type) {
        b.ForceDefaults(true);
        auto o = b.StartTable();
        if (r.conv_extra_field) b.AddElement<int32_t>(slot(7), 5, 0);
        opts = Offset<void>(b.EndTable(o));
        b.ForceDefaults(false);
    }
    auto op = b.StartTable();
    b.AddElement<uint32_t>(slot(0), r.opcode_index, 0);
    b.AddOffset(slot(1), ins);
    b.AddOffset(slot(2), outs);
    if (r.options_type) {
        b.AddElement<uint8_t>(slot(3), r.options_type, 0);
        b.AddOffset(slot(4), opts);
    }
    auto ops_v = b.CreateVector(std::vector<Offset<void>>{Offset<void>(b.EndTable(op))});
    auto gin = b.CreateVector(std::vector<int32_t>{0});
    auto gout = b.CreateVector(std::vector<int32_t>{1});
    auto sg = b.StartTable();
    b.AddOffset(slot(0), tensors_v);
    b.AddOffset(slot(1), gin);
    b.AddOffset(slot(2), gout);
    b.AddOffset(slot(3), ops_v);
    auto sgs_v = b.CreateVector(std::vector<Offset<void>>{Offset<void>(b.EndTable(sg))});
    Offset<flatbuffers::Vector<Offset<void>>> sigs;
    if (r.signature_bad_tensor) {
        auto name = b.CreateString("x");
        auto tm = b.StartTable();
        b.AddOffset(slot(0), name);
        b.AddElement<uint32_t>(slot(1), 9, 0);
        auto maps = b.CreateVector(std::vector<Offset<void>>{Offset<void>(b.EndTable(tm))});
        auto key = b.CreateString("serving_default");
        auto s = b.StartTable();
        b.AddOffset(slot(0), maps);
        b.AddOffset(slot(2), key);
        sigs = b.CreateVector(std::vector<Offset<void>>{Offset<void>(b.EndTable(s))});
    }
    auto m = b.StartTable();
    b.AddElement<uint32_t>(slot(0), 3, 0);
    b.AddOffset(slot(1), codes_v);
    b.AddOffset(slot(2), sgs_v);
    b.AddOffset(slot(4), bufs_v);
    if (!sigs.IsNull()) b.AddOffset(slot(7), sigs);
    b.Finish(Offset<void>(b.EndTable(m)), "TFL3");
    return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

std::string reason(const std::vector<uint8_t> &file) {
    const ex::ExportResult r = ex::export_model(file, ex::Target::ArmNoneEabi);
    EXPECT_FALSE(r.written);
    EXPECT_TRUE(r.bytes.empty());
    return r.reason;
}

}  // namespace

TEST(ExportRefusals, ThePlainRawModelIsReadAndHasNothingToBand) {
    EXPECT_EQ(reason(raw_model({})), "no rewrite lowers the arena");
}

TEST(ExportRefusals, FileParts) {
    Raw r;
    r.tensor_sparsity = true;
    EXPECT_EQ(reason(raw_model(r)), "the Tensor table sets field 6, which is not supported");
    r = {};
    r.external_buffer = true;
    EXPECT_EQ(reason(raw_model(r)), "Model.buffers[1]: buffers stored outside the FlatBuffer are not supported");
    r = {};
    r.quant_details = true;
    EXPECT_EQ(reason(raw_model(r)),
              "Model.subgraphs[0].tensors[0].quantization: quantization details are not supported");
    r = {};
    r.options_type = 34;
    EXPECT_EQ(reason(raw_model(r)), "builtin options of union type 34 are not supported");
    r = {};
    r.options_type = 1;  // Conv2DOptions on a RELU: carried field by field
    r.conv_extra_field = true;
    EXPECT_EQ(reason(raw_model(r)), "the Conv2DOptions table sets field 7, which is not supported");
}

TEST(ExportRefusals, IndicesOutOfRange) {
    Raw r;
    r.op_input = 7;
    EXPECT_EQ(reason(raw_model(r)), "Model.subgraphs[0].operators[0].inputs: tensor index 7 is out of range for 2 tensors");
    r = {};
    r.opcode_index = 3;
    EXPECT_EQ(reason(raw_model(r)), "Model.subgraphs[0].operators[0]: operator code index 3 is out of range for 1 operator codes");
    r = {};
    r.signature_bad_tensor = true;
    EXPECT_EQ(reason(raw_model(r)),
              "Model.signature_defs[0].inputs[0]: tensor index 9 is out of range for 2 tensors");
}

namespace {

tfl::Model relu_graph() {
    tigris_test::GraphBuilder g;
    const int32_t a = g.act("a", 4, 4, 2), b = g.act("b", 4, 4, 2);
    g.unary(tfl::kRelu, a, b);
    g.io({a}, {b});
    return g.model();
}

}  // namespace

TEST(ExportRefusals, ModelLevelReasons) {
    tfl::Model m = relu_graph();
    m.subgraphs.push_back(m.subgraphs[0]);
    EXPECT_EQ(reason(ex::write_model(m)), "models with several subgraphs are not exported");

    m = relu_graph();
    static const std::vector<uint8_t> plan = {0, 0, 0, 0};
    m.buffers.push_back({plan, 0, 0, nullptr});
    m.metadata.push_back({"min_runtime_version", 1});
    m.metadata.push_back({"CONVERSION_METADATA", 1});
    EXPECT_EQ(reason(ex::write_model(m)), "no rewrite lowers the arena");  // both names are kept
    m.metadata.push_back({"OfflineMemoryAllocation", 1});
    EXPECT_EQ(reason(ex::write_model(m)), "metadata OfflineMemoryAllocation is not supported");

    m = relu_graph();
    m.subgraphs[0].tensors[1].type = tfl::TensorType::Int4;
    EXPECT_EQ(reason(ex::write_model(m)), "a tensor type TFLite Micro's arena model does not know");

    m = relu_graph();
    m.operator_codes[0].builtin = 106;  // ADD_N
    EXPECT_EQ(reason(ex::write_model(m)), "TFLite Micro's scratch buffers for ADD_N are not modeled");
    m.operator_codes[0].builtin = 67;
    EXPECT_EQ(reason(ex::write_model(m)), "TFLite Micro's scratch buffers for TRANSPOSE_CONV are not modeled");
    m.operator_codes[0].builtin = 44;
    EXPECT_EQ(reason(ex::write_model(m)),
              "TFLite Micro's scratch buffers for UNIDIRECTIONAL_SEQUENCE_LSTM are not modeled");
    m.operator_codes[0].builtin = 27;
    EXPECT_EQ(reason(ex::write_model(m)), "TFLite Micro's scratch buffers for SVDF are not modeled");
    m.operator_codes[0].builtin = 250;  // a code outside the persistent table (and the schema)
    EXPECT_EQ(reason(ex::write_model(m)), "TFLite Micro's persistent allocations for BUILTIN_250 are not modeled");
}
