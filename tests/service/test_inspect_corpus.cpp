// inspect() on the real compiler plans of the shared corpus. Every expected
// number is copied from corpus/MANIFEST.md (written from the plans' origin,
// not from this code) or read from the file bytes directly here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "shared_data.h"
#include "tigris_config.h"
#include "tigris_host/inspect.hpp"

namespace {

using tigris::host::InspectReport;
using tigris::host::IoTensor;
using tigris::host::StageKind;

struct Io {
    const char *dtype;
    std::vector<int32_t> shape;
    uint32_t bytes;
    float scale;  // 0: no quantization
};

struct Case {
    const char *plan;
    std::vector<std::vector<std::string>> stage_ops;  // op type names per stage
    uint32_t budget;
    uint32_t peak;
    std::vector<uint32_t> stage_peaks;
    uint16_t chain_len;
    uint16_t chain_tile_h;
    bool line_buffered;
    uint32_t weights;
    uint32_t quant_params;
    uint64_t size;
    Io in, out;
    const char *data_dtype;
};

const std::vector<Case> &cases() {
    static const std::vector<Case> c = {
        {"pool_chain_v5", {{"AVG_POOL"}, {"MAX_POOL"}}, 4096, 20480, {20480, 5120}, 2, 2, true, 0, 0, 431,
         {"float32", {1, 64, 64, 1}, 16384, 0}, {"float32", {1, 16, 16, 1}, 1024, 0}, "float32"},
        {"linebuf_conv_chain_v5", {{"CONV"}, {"CONV"}, {"CONV"}}, 32768, 196608, {114688, 131072, 196608}, 3, 5,
         false, 3, 0, 2800, {"float32", {1, 64, 64, 3}, 49152, 0}, {"float32", {1, 64, 64, 8}, 131072, 0},
         "float32"},
        {"linebuf_conv_sig_chain_v5", {{"CONV"}, {"SIGMOID"}, {"CONV"}}, 32768, 196608, {114688, 131072, 196608}, 3,
         6, false, 2, 0, 2208, {"float32", {1, 64, 64, 3}, 49152, 0}, {"float32", {1, 64, 64, 8}, 131072, 0},
         "float32"},
        {"linebuf_s8_conv_sig_chain_v5", {{"CONV", "SIGMOID"}, {"CONV"}}, 32768, 49152, {32768, 49152}, 2, 26, false,
         2, 6, 1124, {"int8", {1, 64, 64, 3}, 12288, 0.05f}, {"int8", {1, 64, 64, 8}, 32768, 0.08f}, "int8"},
    };
    return c;
}

class CorpusInspect : public ::testing::TestWithParam<size_t> {};

std::vector<uint8_t> plan_bytes(const Case &c) {
    return tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (std::string(c.plan) + ".pattern.tgrs"));
}

uint16_t header_u16(const std::vector<uint8_t> &b, size_t off) {
    uint16_t v = 0;
    std::memcpy(&v, b.data() + off, 2);
    return v;
}

void expect_io(const IoTensor &got, const Io &want) {
    EXPECT_EQ(got.stored_dtype, want.dtype);
    EXPECT_EQ(got.declared_dtype, want.dtype);  // no plan of schema 5 declares another dtype
    EXPECT_EQ(got.shape, want.shape);
    EXPECT_EQ(got.stored_bytes, want.bytes);
    EXPECT_EQ(got.declared_bytes, want.bytes);
    if (want.scale > 0) {
        ASSERT_TRUE(got.quant.has_value());
        EXPECT_FLOAT_EQ(got.quant->scale, want.scale);
        EXPECT_EQ(got.quant->zero_point, 0);
    } else {
        EXPECT_FALSE(got.quant.has_value());
    }
}

bool spatial(const std::string &type) {
    return type == "CONV" || type == "DEPTHWISE" || type == "MAX_POOL" || type == "AVG_POOL" || type == "L2_POOL";
}

TEST_P(CorpusInspect, MatchesManifest) {
    TIGRIS_REQUIRE_SHARED();
    const Case &c = cases()[GetParam()];
    const std::vector<uint8_t> bytes = plan_bytes(c);
    ASSERT_EQ(bytes.size(), c.size);
    const InspectReport r = tigris::host::inspect(bytes);
    ASSERT_TRUE(r.status.ok()) << c.plan << ": " << r.status.name << ": " << r.status.message;
    ASSERT_TRUE(r.plan.has_value());
    const auto &p = *r.plan;

    EXPECT_EQ(r.file_bytes, c.size);
    ASSERT_TRUE(r.header.has_value());
    EXPECT_TRUE(r.header->magic_ok);
    EXPECT_EQ(r.header->file_size, c.size);
    EXPECT_EQ(p.schema, 5u);
    EXPECT_EQ(p.data_dtype, c.data_dtype);

    size_t num_ops = 0;
    for (const auto &s : c.stage_ops) num_ops += s.size();
    EXPECT_EQ(p.counts.ops, num_ops);
    EXPECT_EQ(p.counts.stages, c.stage_ops.size());
    EXPECT_EQ(p.counts.tensors, header_u16(bytes, 16));
    EXPECT_EQ(p.counts.tile_plans, 0u);  // MANIFEST: none has a tile-plan record
    EXPECT_EQ(p.counts.weights, c.weights);
    EXPECT_EQ(p.counts.quant_params, c.quant_params);
    EXPECT_EQ(p.counts.weight_blocks, 0u);
    EXPECT_EQ(p.counts.state_entries, 0u);
    EXPECT_EQ(p.counts.subgraphs, 0u);
    EXPECT_EQ(p.flags.raw, 0u);
    EXPECT_FALSE(p.flags.xip);
    EXPECT_EQ(p.flags.compression, "none");

    // Uncompressed, pre-11 plans: the arena to ask for is the header budget.
    EXPECT_EQ(p.memory.budget, c.budget);
    EXPECT_EQ(p.memory.header_peak, c.peak);
    EXPECT_FALSE(p.memory.scheduled_peak.has_value());
    EXPECT_EQ(p.memory.decompression_overhead, 0u);
    EXPECT_EQ(p.memory.fast_arena_required, c.budget);
    EXPECT_EQ(p.memory.state_bytes, 0u);

    ASSERT_EQ(p.inputs.size(), 1u);
    ASSERT_EQ(p.outputs.size(), 1u);
    expect_io(p.inputs[0], c.in);
    expect_io(p.outputs[0], c.out);

    ASSERT_EQ(p.stages.size(), c.stage_ops.size());
    uint16_t op_index = 0;
    uint32_t max_in = 0, max_out = 0, max_spatial = 0;
    for (size_t s = 0; s < p.stages.size(); ++s) {
        const auto &st = p.stages[s];
        SCOPED_TRACE("stage " + std::to_string(s));
        EXPECT_EQ(st.index, s);
        EXPECT_EQ(st.peak_bytes, c.stage_peaks[s]);
        ASSERT_EQ(st.ops.size(), c.stage_ops[s].size());
        uint32_t spatial_ops = 0;
        for (size_t i = 0; i < st.ops.size(); ++i) {
            EXPECT_EQ(st.ops[i].type_name, c.stage_ops[s][i]);
            EXPECT_EQ(st.ops[i].index, op_index++);  // forward partitioned schedule
            spatial_ops += spatial(st.ops[i].type_name);
        }
        // One chain covers every stage of each corpus plan, head first.
        EXPECT_EQ(st.kind, s == 0 ? StageKind::ChainHead : StageKind::ChainMember);
        ASSERT_TRUE(st.chain_head.has_value());
        EXPECT_EQ(*st.chain_head, 0);
        EXPECT_EQ(st.chain_len, c.chain_len);
        EXPECT_EQ(st.chain_tile_h, s == 0 ? c.chain_tile_h : 0);
        EXPECT_EQ(st.line_buffered, s == 0 && c.line_buffered);
        EXPECT_FALSE(st.band.has_value());  // chain members are not classified
        EXPECT_FALSE(st.tile.has_value());
        max_in = std::max(max_in, st.inputs);
        max_out = std::max(max_out, st.outputs);
        max_spatial = std::max(max_spatial, spatial_ops);
    }

    // Limits the plan needs, and the workspace by the formula of
    // docs/runtime-semantics.md R2.1.1 worked out here from those limits.
    EXPECT_EQ(r.required.tensors, p.counts.tensors);
    EXPECT_EQ(r.required.chain_stages, c.chain_len);
    EXPECT_EQ(r.required.stage_inputs, max_in);
    EXPECT_EQ(r.required.stage_outputs, max_out);
    EXPECT_EQ(r.required.spatial_ops_per_stage, max_spatial);
    EXPECT_TRUE(r.fits_build);
    EXPECT_EQ(r.build.tensors, static_cast<uint32_t>(TIGRIS_MAX_TENSORS));
    EXPECT_EQ(r.build.chain_stages, static_cast<uint32_t>(TIGRIS_MAX_CHAIN_STAGES));
    const uint64_t P = alignof(void *), I = alignof(int32_t), U = alignof(uint16_t);
    const uint64_t ws = (P - 1) + (max_in + max_out + 2ull * c.chain_len) * sizeof(void *) + (I - 1) +
                        ((14 + 13ull * max_spatial) * c.chain_len + 2ull * p.counts.tensors) * 4 + (U - 1) +
                        (2ull * p.counts.tensors + 4 + 4ull * TIGRIS_MAX_SUBGRAPH_DEPTH) * 2;
    EXPECT_EQ(p.memory.executor_workspace_bytes, ws);
}

INSTANTIATE_TEST_SUITE_P(AllPlans, CorpusInspect, ::testing::Range<size_t>(0, 4),
                         [](const auto &info) { return std::string(cases()[info.param].plan); });

TEST(CorpusFiles, BothVariantsAreTheSamePlan) {
    TIGRIS_REQUIRE_SHARED();
    for (const Case &c : cases()) {
        const auto dir = tigris_test::shared_dir() / "corpus";
        EXPECT_EQ(tigris_test::read_file(dir / (std::string(c.plan) + ".pattern.tgrs")),
                  tigris_test::read_file(dir / (std::string(c.plan) + ".random.tgrs")))
            << c.plan;
    }
}

TEST(CorpusFiles, NegativePlanIsRefusedForItsVersion) {
    TIGRIS_REQUIRE_SHARED();
    const auto bytes = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / "negative" /
                                              "legacy_v1_pool_chain.tgrs");
    ASSERT_EQ(bytes.size(), 472u);
    const InspectReport r = tigris::host::inspect(bytes);
    EXPECT_EQ(r.status.kind, tigris::host::Status::Kind::Refused);
    EXPECT_EQ(r.status.code, -4);
    EXPECT_EQ(r.status.name, "TIGRIS_ERR_BAD_VERSION");
    EXPECT_FALSE(r.status.message.empty());
    EXPECT_FALSE(r.plan.has_value());
    ASSERT_TRUE(r.header.has_value());
    EXPECT_TRUE(r.header->magic_ok);
    EXPECT_EQ(r.header->version, 1u);
    EXPECT_EQ(r.header->file_size, 472u);
}

}  // namespace
