// The lowering on hostile option values (found by fuzz_import): shapes,
// strides and dilations whose SAME padding overflows 32 bits, or does not fit
// the format's 16-bit pads, are refused with a named reason - no undefined
// behaviour (the host-asan build runs this with UBSan).
#include <gtest/gtest.h>

#include "tigris_import/lower.hpp"
#include "tigris_tflite/model.hpp"

namespace {

namespace tfl = tigris::tflite;

// x[1,H,W,1] f32 -> CONV_2D (filter [1,3,3,1], SAME) -> y[1,OH,OW,1].
tfl::Model conv(int32_t h, int32_t oh, int32_t stride, int32_t dilation) {
    tfl::Model m;
    m.buffers.resize(2);
    static const std::vector<uint8_t> w(9 * 4, 0);
    m.buffers[1].data = w;
    m.operator_codes.push_back({tfl::kConv2D, "", 1});
    tfl::SubGraph sg;
    sg.tensors.resize(3);
    sg.tensors[0] = {"x", tfl::TensorType::Float32, {1, h, 4, 1}, 0, {}, false, false, false};
    sg.tensors[1] = {"w", tfl::TensorType::Float32, {1, 3, 3, 1}, 1, {}, false, false, false};
    sg.tensors[2] = {"y", tfl::TensorType::Float32, {1, oh, 4, 1}, 0, {}, false, false, false};
    sg.inputs = {0};
    sg.outputs = {2};
    tfl::Operator op;
    op.inputs = {0, 1};
    op.outputs = {2};
    op.options.padding = 0;  // SAME
    op.options.stride_h = stride;
    op.options.stride_w = 1;
    op.options.dilation_h = dilation;
    sg.operators.push_back(op);
    m.subgraphs.push_back(sg);
    return m;
}

TEST(ImportHostile, SamePaddingThatOverflowsIsRefused) {
    // (out - 1) * stride overflows int32: the fuzzer's case.
    EXPECT_THROW(tigris::import::import_model(conv(4, 1073741828, 2, 1), {}), tigris::import::ImportError);
    // A pad above 65535 does not fit the record.
    try {
        tigris::import::import_model(conv(4, 70000, 2, 1), {});
        ADD_FAILURE() << "accepted";
    } catch (const tigris::import::ImportError &e) {
        EXPECT_STREQ(tigris::import::refusal_name(e.refusal.kind), "invalid-model") << e.what();
    }
    // Dilation beyond the 16-bit field.
    EXPECT_THROW(tigris::import::import_model(conv(4, 4, 1, 70000), {}), tigris::import::ImportError);
    // The same model with sane numbers lowers.
    EXPECT_NO_THROW(tigris::import::import_model(conv(4, 4, 1, 1), {}));
}

TEST(ImportHostile, AnOperatorWithoutRuntimeInputIsRefused) {
    tfl::Model m = conv(4, 4, 1, 1);
    m.operator_codes[0].builtin = tfl::kAveragePool2D;
    m.subgraphs[0].operators[0].inputs = {1};  // only the constant
    m.subgraphs[0].operators[0].options.filter_h = m.subgraphs[0].operators[0].options.filter_w = 2;
    try {
        tigris::import::import_model(m, {});
        ADD_FAILURE() << "accepted";
    } catch (const tigris::import::ImportError &e) {
        EXPECT_STREQ(tigris::import::refusal_name(e.refusal.kind), "invalid-model") << e.what();
    }
}

}  // namespace
