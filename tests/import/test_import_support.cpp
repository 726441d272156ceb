// Which models import and which are refused, with the named reason. The
// expectations come from the models' README (op lists and I/O types), not
// from running the checker.
#include <gtest/gtest.h>

#include "shared_data.h"
#include "tigris.h"
#include "tigris_import/support.hpp"

namespace tfl = tigris::tflite;
using tigris::import::check_importable;
using tigris::import::RefusalKind;

namespace {

tfl::Model load(const char *name) {
    static std::vector<std::vector<uint8_t>> keep;  // buffer spans point into the image
    keep.push_back(tigris_test::read_file(tigris_test::shared_dir() / "models" / name));
    return tfl::read_model(keep.back());
}

// x -> op(code) -> y, one subgraph, float32 tensors.
tfl::Model tiny(int32_t code, std::string custom = "") {
    tfl::Model m;
    m.buffers.resize(1);
    m.operator_codes.push_back({code, std::move(custom), 1});
    tfl::SubGraph sg;
    sg.tensors.resize(2);
    sg.tensors[0].name = "x";
    sg.tensors[1].name = "y";
    sg.inputs = {0};
    sg.outputs = {1};
    tfl::Operator op;
    op.inputs = {0};
    op.outputs = {1};
    sg.operators.push_back(op);
    m.subgraphs.push_back(sg);
    return m;
}

}  // namespace

TEST(ImportSupport, SharedModelsImportOrAreRefusedWithTheNamedReason) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *f : {"vww_96_int8.tflite", "kws_ref_model.tflite", "ad01_int8.tflite",
                          "model_ToyCar_quant_fullint.tflite", "pretrainedResnet_quant.tflite",
                          "pretrainedResnet_large_int8.tflite", "str_ww_ref_model.tflite", "person_detect.tflite",
                          "micro_speech_quantized.tflite"}) {
        auto r = check_importable(load(f));
        EXPECT_FALSE(r.has_value()) << f << ": " << (r ? r->message : "");
    }
    // int16 input per the README
    auto r = check_importable(load("keyword_scrambled_8bit.tflite"));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RefusalKind::Int16Tensor) << r->message;
    EXPECT_STREQ(tigris::import::refusal_name(r->kind), "int16-tensor");
}

TEST(ImportSupport, ToyCarBoundaryConversionsBecomeTheInterface) {
    TIGRIS_REQUIRE_SHARED();
    auto m = load("model_ToyCar_quant_fullint.tflite");
    size_t n = m.subgraphs[0].operators.size();
    EXPECT_TRUE(tigris::import::is_boundary_conversion(m, 0));
    EXPECT_TRUE(tigris::import::is_boundary_conversion(m, n - 1));
    EXPECT_EQ(tigris::import::lowered_opcode(m, 0), std::nullopt);
    EXPECT_FALSE(tigris::import::is_boundary_conversion(m, 1));
    EXPECT_EQ(tigris::import::lowered_opcode(m, 1), std::optional<uint8_t>(TIGRIS_OP_FULLY_CONN));
}

TEST(ImportSupport, EachRefusalIsNamed) {
    {
        auto m = tiny(tfl::kConv2D);
        m.subgraphs.push_back(m.subgraphs[0]);
        EXPECT_EQ(check_importable(m)->kind, RefusalKind::SeveralSubgraphs);
    }
    {
        auto m = tiny(tfl::kRelu);
        m.buffers.push_back({{}, 64, 128});
        auto r = check_importable(m);
        EXPECT_EQ(r->kind, RefusalKind::ExternalBuffer);
        EXPECT_NE(r->message.find("buffer 1"), std::string::npos) << r->message;
    }
    {
        auto m = tiny(tfl::kCustom, "MyOp");
        auto r = check_importable(m);
        EXPECT_EQ(r->kind, RefusalKind::CustomOperator);
        EXPECT_NE(r->message.find("MyOp"), std::string::npos) << r->message;
    }
    EXPECT_FALSE(check_importable(tiny(tfl::kCustom, "TFLite_Detection_PostProcess")).has_value());
    {
        auto m = tiny(10);  // HASHTABLE_LOOKUP: a builtin with no runtime operator, named
        auto r = check_importable(m);
        EXPECT_EQ(r->kind, RefusalKind::UnsupportedOperator);
        EXPECT_NE(r->message.find("operator 0"), std::string::npos) << r->message;
        EXPECT_NE(r->message.find("HASHTABLE_LOOKUP"), std::string::npos) << r->message;
    }
    {
        auto m = tiny(250);  // a code newer than the schema we read: named by number
        auto r = check_importable(m);
        EXPECT_EQ(r->kind, RefusalKind::UnsupportedOperator);
        EXPECT_NE(r->message.find("BUILTIN_250"), std::string::npos) << r->message;
    }
    {
        // a requantization between two interior tensors
        auto m = tiny(tfl::kQuantize);
        m.subgraphs[0].tensors.resize(4);
        m.subgraphs[0].operators[0].inputs = {2};
        m.subgraphs[0].operators[0].outputs = {3};
        auto r = check_importable(m);
        EXPECT_EQ(r->kind, RefusalKind::UnsupportedOperator);
        EXPECT_NE(r->message.find("QUANTIZE"), std::string::npos) << r->message;
    }
    {
        auto m = tiny(tfl::kRelu);
        m.subgraphs[0].tensors[1].type = tfl::TensorType::Int4;
        auto r = check_importable(m);
        EXPECT_EQ(r->kind, RefusalKind::Int4Tensor);
        EXPECT_NE(r->message.find("\"y\""), std::string::npos) << r->message;
    }
    {
        auto m = tiny(tfl::kRelu);
        m.subgraphs[0].tensors[0].type = tfl::TensorType::Float16;
        EXPECT_EQ(check_importable(m)->kind, RefusalKind::UnsupportedDtype);
    }
    EXPECT_FALSE(check_importable(tiny(tfl::kRelu)).has_value());
}
