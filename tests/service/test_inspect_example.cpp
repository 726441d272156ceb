// The example plan the build writes (service/tools/write_example_plan.cpp):
// every number below is worked out by hand from the model
//   x[1,16,16,3] -> Conv 3x3 p1 (3->8, bias) -> Relu -> MaxPool 2x2 s2 -> y[1,8,8,8]
// with float32 (4 bytes) everywhere.
#include <gtest/gtest.h>

#include "shared_data.h"
#include "tigris_host/inspect.hpp"

namespace {

using tigris::host::StageKind;

TEST(ExamplePlan, InspectsAsDesigned) {
    const auto bytes = tigris_test::read_file(TIGRIS_EXAMPLE_PLAN);
    ASSERT_FALSE(bytes.empty()) << "example plan missing at " << TIGRIS_EXAMPLE_PLAN;
    const auto r = tigris::host::inspect(bytes);
    ASSERT_TRUE(r.status.ok()) << r.status.name << ": " << r.status.message;
    const auto &p = *r.plan;
    EXPECT_EQ(p.schema, 11u);
    EXPECT_EQ(p.model_name, "example_conv_relu_pool");
    EXPECT_EQ(p.data_dtype, "float32");
    EXPECT_EQ(p.counts.tensors, 4u);
    EXPECT_EQ(p.counts.ops, 3u);
    EXPECT_EQ(p.counts.stages, 2u);
    EXPECT_EQ(p.counts.weights, 2u);
    EXPECT_EQ(p.counts.tile_plans, 0u);
    EXPECT_EQ(p.flags.compression, "none");

    ASSERT_EQ(p.inputs.size(), 1u);
    EXPECT_EQ(p.inputs[0].name, "x");
    EXPECT_EQ(p.inputs[0].shape, (std::vector<int32_t>{1, 16, 16, 3}));
    EXPECT_EQ(p.inputs[0].stored_bytes, 16u * 16 * 3 * 4);
    EXPECT_EQ(p.inputs[0].declared_bytes, 16u * 16 * 3 * 4);
    ASSERT_EQ(p.outputs.size(), 1u);
    EXPECT_EQ(p.outputs[0].name, "y");
    EXPECT_EQ(p.outputs[0].shape, (std::vector<int32_t>{1, 8, 8, 8}));
    EXPECT_EQ(p.outputs[0].stored_bytes, 8u * 8 * 8 * 4);

    ASSERT_EQ(p.stages.size(), 2u);
    EXPECT_EQ(p.stages[0].kind, StageKind::Normal);
    ASSERT_EQ(p.stages[0].ops.size(), 2u);
    EXPECT_EQ(p.stages[0].ops[0].type_name, "CONV");
    EXPECT_EQ(p.stages[0].ops[0].name, "conv0");
    EXPECT_EQ(p.stages[0].ops[1].type_name, "RELU");
    EXPECT_EQ(p.stages[0].peak_bytes, 3072u + 8192 + 8192);
    ASSERT_EQ(p.stages[1].ops.size(), 1u);
    EXPECT_EQ(p.stages[1].ops[0].type_name, "MAX_POOL");
    EXPECT_EQ(p.stages[1].peak_bytes, 8192u + 2048);
    for (const auto &s : p.stages) {
        ASSERT_TRUE(s.band.has_value());  // standalone stages are classified
        EXPECT_EQ(s.band->kind, "NONE");  // no tile record: nothing to band by
    }

    EXPECT_EQ(p.memory.budget, 32768u);
    ASSERT_TRUE(p.memory.scheduled_peak.has_value());
    EXPECT_EQ(*p.memory.scheduled_peak, 19456u);
    // Schema 11 sizes the arena by the scheduled peak; no compressed weights.
    EXPECT_EQ(p.memory.decompression_overhead, 0u);
    EXPECT_EQ(p.memory.fast_arena_required, 19456u);
    EXPECT_EQ(p.memory.weight_bytes, (8u * 3 * 3 * 3 + 8) * 4);
    EXPECT_GT(p.memory.executor_workspace_bytes, 0u);
    EXPECT_TRUE(r.fits_build);
    EXPECT_EQ(r.required.tensors, 4u);
    EXPECT_EQ(r.required.chain_stages, 0u);
}

TEST(ExamplePlan, TextNamesEveryOpAndStage) {
    const auto r = tigris::host::inspect(tigris_test::read_file(TIGRIS_EXAMPLE_PLAN));
    ASSERT_TRUE(r.status.ok()) << r.status.name;
    const std::string text = tigris::host::to_text(r);
    for (const char *want : {"example_conv_relu_pool", "schema 11", "CONV, RELU", "MAX_POOL", "[1,16,16,3]",
                             "[1,8,8,8]", "scheduled peak 19456", "fast arena 19456"})
        EXPECT_NE(text.find(want), std::string::npos) << "missing '" << want << "' in\n" << text;
}

}  // namespace
