// inspect() on plans written by the test PlanBuilder: each stage kind, tile
// record layout, compression, state, control flow, declared dtypes, and the
// ways a plan is refused. Expected values come from what the builder was told
// to write or from the built bytes read here, never from inspect() itself.
#include <gtest/gtest.h>

#include "plan_builder.h"
#include "tigris_host/inspect.hpp"

namespace {

using tigris::host::inspect;
using tigris::host::InspectReport;
using tigris::host::StageKind;
using tigris_test::Compression;
using tigris_test::get_u32;
using tigris_test::PlanBuilder;

InspectReport loaded(PlanBuilder &b, std::vector<uint8_t> *out_bytes = nullptr) {
    std::vector<uint8_t> bytes = b.build();
    InspectReport r = inspect(bytes);
    EXPECT_TRUE(r.status.ok()) << b.model_name << " r" << b.revision << ": " << r.status.name << ": "
                               << r.status.message;
    if (out_bytes) *out_bytes = std::move(bytes);
    return r;
}

uint32_t align_up(uint32_t v) { return (v + TIGRIS_TENSOR_ALIGN - 1) / TIGRIS_TENSOR_ALIGN * TIGRIS_TENSOR_ALIGN; }

TEST(InspectBuilder, ChainHeadAndMember) {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.stages[0].flags = TIGRIS_STAGE_LINE_BUFFERED;
    const auto r = loaded(b);
    ASSERT_TRUE(r.plan);
    const auto &st = r.plan->stages;
    ASSERT_EQ(st.size(), 2u);
    EXPECT_EQ(st[0].kind, StageKind::ChainHead);
    EXPECT_EQ(st[1].kind, StageKind::ChainMember);
    EXPECT_EQ(*st[1].chain_head, 0);
    EXPECT_EQ(st[0].chain_len, 2);
    EXPECT_EQ(st[0].chain_tile_h, 2);
    EXPECT_TRUE(st[0].line_buffered);
    EXPECT_FALSE(st[1].line_buffered);
    EXPECT_EQ(r.required.chain_stages, 2u);
    EXPECT_EQ(r.required.spatial_ops_per_stage, 1u);
}

TEST(InspectBuilder, TiledStripeV11StatesAndDerivesItsFacts) {
    PlanBuilder b = PlanBuilder::tiled_stripe(11);
    const tigris_test::TilePlan want = b.tiles[0];
    const auto r = loaded(b);
    ASSERT_TRUE(r.plan);
    const auto &s = r.plan->stages.at(0);
    EXPECT_EQ(s.kind, StageKind::Tiled);
    ASSERT_TRUE(s.tile);
    EXPECT_EQ(s.tile->layout, "48-byte");
    EXPECT_EQ(s.tile->tileable, 1);
    EXPECT_EQ(s.tile->axis, TIGRIS_TILE_AXIS_HEIGHT);
    EXPECT_EQ(s.tile->tile_height, want.choices.tile_height);
    EXPECT_EQ(s.tile->num_tiles, want.choices.num_tiles);
    EXPECT_EQ(s.tile->original_height, 8u);
    EXPECT_EQ(s.tile->halo, 2);
    EXPECT_EQ(s.tile->receptive_field, 3);
    ASSERT_TRUE(s.stated_facts);
    EXPECT_EQ(s.stated_facts->tile_extent, 2u);
    EXPECT_EQ(s.stated_facts->num_tiles, 4u);
    EXPECT_EQ(s.stated_facts->original_extent, 8u);
    EXPECT_EQ(s.stated_facts->halo, 2);
    EXPECT_EQ(s.stated_facts->band_axis, 1);
    EXPECT_EQ(s.stated_facts->band_kind, "STRIPE");
    EXPECT_EQ(s.stated_facts->band_mode, 0);
    // The loader accepted the record, so the derivation must agree with it.
    ASSERT_TRUE(s.derived_facts);
    EXPECT_EQ(s.derived_facts->tile_extent, 2u);
    EXPECT_EQ(s.derived_facts->num_tiles, 4u);
    EXPECT_EQ(s.derived_facts->band_kind, "STRIPE");
    ASSERT_TRUE(s.band);
    EXPECT_EQ(s.band->kind, "STRIPE");
    EXPECT_EQ(s.band->extent, 8u);
}

TEST(InspectBuilder, TileRecordLayoutFollowsRevisionAndFlag) {
    PlanBuilder v9 = PlanBuilder::tiled_stripe(9);
    auto r9 = loaded(v9);
    ASSERT_TRUE(r9.plan);
    EXPECT_EQ(r9.plan->stages[0].tile->layout, "24-byte");
    EXPECT_FALSE(r9.plan->stages[0].stated_facts);
    EXPECT_FALSE(r9.plan->flags.tile_v10);

    PlanBuilder v10 = PlanBuilder::tiled_stripe(10);
    v10.flags |= TIGRIS_FLAG_TILE_V10;
    auto r10 = loaded(v10);
    ASSERT_TRUE(r10.plan);
    EXPECT_EQ(r10.plan->stages[0].tile->layout, "32-byte");
    EXPECT_TRUE(r10.plan->flags.tile_v10);
    EXPECT_EQ(r10.plan->stages[0].tile->tile_height, 2u);
}

TEST(InspectBuilder, CompressedWeightsNeedTheirBlockInTheArena) {
    for (Compression c : {Compression::Lz4Blocks, Compression::StoredBlocks}) {
        PlanBuilder b = PlanBuilder::compressed_conv(9, c);
        std::vector<uint8_t> bytes;
        const auto r = loaded(b, &bytes);
        ASSERT_TRUE(r.plan);
        const auto &p = *r.plan;
        EXPECT_EQ(p.flags.compression, c == Compression::Lz4Blocks ? "lz4" : "stored");
        EXPECT_EQ(p.counts.weight_blocks, 1u);
        const uint32_t uncompressed = get_u32(bytes, b.layout().block_record(0) + 16);
        const uint32_t budget = get_u32(bytes, 24);
        EXPECT_EQ(p.memory.decompression_overhead, align_up(uncompressed));
        EXPECT_EQ(p.memory.fast_arena_required, budget + align_up(uncompressed));
        // Weight 3x3x2 -> 3 (OHWI) and 3 biases, float32.
        EXPECT_EQ(p.memory.weight_bytes, (3u * 3 * 3 * 2 + 3) * 4);
    }
}

TEST(InspectBuilder, Int8BoundaryWithDeclaredFloat) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    b.tensors[b.model_inputs.empty() ? 0 : b.model_inputs[0]].iface_dtype = TIGRIS_DTYPE_FLOAT32;
    const auto r = loaded(b);
    ASSERT_TRUE(r.plan);
    const auto &in = r.plan->inputs.at(0);
    EXPECT_EQ(in.stored_dtype, "int8");
    EXPECT_EQ(in.declared_dtype, "float32");
    EXPECT_EQ(in.stored_bytes, 4u * 4 * 2);
    EXPECT_EQ(in.declared_bytes, 4u * 4 * 2 * 4);
    ASSERT_TRUE(in.quant);
    EXPECT_FLOAT_EQ(in.quant->scale, 0.5f);
    EXPECT_EQ(in.quant->zero_point, -1);
    const auto &out = r.plan->outputs.at(0);
    EXPECT_EQ(out.declared_dtype, "int8");
    EXPECT_EQ(out.declared_bytes, out.stored_bytes);
    EXPECT_EQ(out.quant->channels, 3u);
    EXPECT_EQ(r.plan->data_dtype, "int8");
    EXPECT_EQ(r.plan->counts.quant_params, 2u);
}

TEST(InspectBuilder, StateBytesComeFromTheStateSection) {
    PlanBuilder b = PlanBuilder::state_add(10);
    std::vector<uint8_t> bytes;
    const auto r = loaded(b, &bytes);
    ASSERT_TRUE(r.plan);
    EXPECT_EQ(r.plan->counts.state_entries, 1u);
    EXPECT_EQ(r.plan->memory.state_bytes, get_u32(bytes, b.layout().state_header + 4));
    EXPECT_EQ(r.plan->memory.state_bytes, 16u);  // one float32 [1,4] variable
}

TEST(InspectBuilder, ControlFlowStageAndSubgraphOwnership) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    const auto r = loaded(b);
    ASSERT_TRUE(r.plan);
    const auto &st = r.plan->stages;
    ASSERT_EQ(st.size(), 3u);
    EXPECT_EQ(st[0].kind, StageKind::ControlFlow);
    EXPECT_EQ(st[0].ops.at(0).type_name, "IF");
    EXPECT_FALSE(st[0].band);  // control flow is not classified by band
    EXPECT_EQ(st[0].subgraph, 0u);
    EXPECT_EQ(st[1].subgraph, 1u);
    EXPECT_EQ(st[2].subgraph, 2u);
    EXPECT_EQ(st[1].kind, StageKind::Normal);
    EXPECT_EQ(r.plan->counts.subgraphs, 3u);
    EXPECT_EQ(r.plan->counts.attributes, 1u);
    EXPECT_EQ(r.plan->inputs.size(), 2u);
    EXPECT_EQ(r.plan->inputs[0].stored_dtype, "bool");
}

TEST(InspectBuilder, XipFlagAndScheduledPeakOnlyFromV11) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.flags |= TIGRIS_FLAG_XIP;
    const auto r = loaded(b);
    ASSERT_TRUE(r.plan);
    EXPECT_TRUE(r.plan->flags.xip);
    EXPECT_EQ(r.plan->flags.raw, TIGRIS_FLAG_XIP);
    EXPECT_FALSE(r.plan->memory.scheduled_peak);

    PlanBuilder v11 = PlanBuilder::minimal_float(11);
    v11.scheduled_peak = 4096;
    v11.budget = 8192;
    const auto r11 = loaded(v11);
    ASSERT_TRUE(r11.plan);
    EXPECT_EQ(r11.plan->memory.scheduled_peak, std::optional<uint32_t>(4096u));
    EXPECT_EQ(r11.plan->memory.budget, 8192u);
    EXPECT_EQ(r11.plan->memory.fast_arena_required, 4096u);  // v11: peak, not budget
}

TEST(InspectBuilder, UnalignedCallerBufferGivesTheSameReport) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    const std::vector<uint8_t> bytes = b.build();
    std::vector<uint8_t> shifted(bytes.size() + 1);
    std::copy(bytes.begin(), bytes.end(), shifted.begin() + 1);
    const auto a = inspect(bytes);
    const auto c = inspect(std::span<const uint8_t>(shifted).subspan(1));
    ASSERT_TRUE(a.status.ok()) << a.status.name;
    EXPECT_EQ(tigris::host::to_json(a), tigris::host::to_json(c));
}

// ---- Refused plans ----

TEST(InspectRefused, TruncatedPlanIsABadSize) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    std::vector<uint8_t> bytes = b.build();
    const uint32_t full = static_cast<uint32_t>(bytes.size());
    bytes.resize(full / 2);
    const auto r = inspect(bytes);
    EXPECT_EQ(r.status.kind, tigris::host::Status::Kind::Refused);
    EXPECT_EQ(r.status.name, "TIGRIS_ERR_BAD_SIZE");
    EXPECT_EQ(r.status.code, TIGRIS_ERR_BAD_SIZE);
    EXPECT_FALSE(r.status.message.empty());
    EXPECT_FALSE(r.plan);
    ASSERT_TRUE(r.header);
    EXPECT_EQ(r.header->file_size, full);  // what the header claims
    EXPECT_EQ(r.file_bytes, full / 2);
}

TEST(InspectRefused, ShorterThanAHeader) {
    const std::vector<uint8_t> tiny = {'T', 'G', 'R', 'S', 11, 0, 0, 0};
    const auto r = inspect(tiny);
    EXPECT_EQ(r.status.name, "TIGRIS_ERR_TOO_SMALL");
    EXPECT_FALSE(r.header);
    const auto e = inspect(std::span<const uint8_t>());
    EXPECT_EQ(e.status.name, "TIGRIS_ERR_TOO_SMALL");
    EXPECT_EQ(e.file_bytes, 0u);
}

TEST(InspectRefused, BadMagicAndVersions) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    std::vector<uint8_t> magic = bytes;
    magic[0] = 'X';
    const auto rm = inspect(magic);
    EXPECT_EQ(rm.status.name, "TIGRIS_ERR_BAD_MAGIC");
    ASSERT_TRUE(rm.header);
    EXPECT_FALSE(rm.header->magic_ok);
    for (uint32_t v : {3u, 12u, 0xFFFFFFFFu}) {
        std::vector<uint8_t> ver = bytes;
        tigris_test::put_u32(ver, 4, v);
        const auto rv = inspect(ver);
        EXPECT_EQ(rv.status.name, "TIGRIS_ERR_BAD_VERSION") << v;
        EXPECT_EQ(rv.header->version, v);
    }
}

TEST(InspectRefused, PlanLimitsReportWhatThePlanNeeds) {
    // A chain one stage longer than the build allows.
    PlanBuilder b(9);
    const uint32_t n = TIGRIS_MAX_CHAIN_STAGES + 1;
    std::vector<uint16_t> t;
    for (uint32_t i = 0; i <= n; ++i)
        t.push_back(b.add_tensor("t" + std::to_string(i), TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 1},
                                 i == 0 ? TIGRIS_TENSOR_MODEL_INPUT : (i == n ? TIGRIS_TENSOR_MODEL_OUTPUT : 0)));
    for (uint32_t i = 0; i < n; ++i) {
        const uint16_t op = b.add_op(TIGRIS_OP_RELU, {t[i]}, {t[i + 1]});
        const uint16_t s = b.add_stage({op}, {t[i]}, {t[i + 1]});
        b.stages[s].chain_id = 0;
        b.stages[s].chain_len = static_cast<uint16_t>(n);
        b.stages[s].chain_tile_h = i == 0 ? 1 : 0;
    }
    const auto r = inspect(b.build());
    EXPECT_EQ(r.status.name, "TIGRIS_ERR_PLAN_LIMITS");
    EXPECT_EQ(r.required.chain_stages, n);
    EXPECT_EQ(r.build.chain_stages, static_cast<uint32_t>(TIGRIS_MAX_CHAIN_STAGES));
    EXPECT_FALSE(r.fits_build);
    EXPECT_FALSE(r.plan);
}

}  // namespace
