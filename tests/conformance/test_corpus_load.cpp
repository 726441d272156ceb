// test_corpus_load.cpp - the four compiler-made plans of the shared corpus
// load, and what the loader exposes matches corpus/MANIFEST.md (values typed
// from the manifest, which was written from the compiler's own test suite,
// not from this loader). The schema-1 plan is refused by version.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "shared_data.h"
#include "tigris.h"
#include "tigris_loader.h"

namespace {

struct Io {
    uint8_t dtype;
    std::vector<int32_t> shape;
    uint32_t bytes;
};

struct CorpusPlan {
    const char *name;
    std::vector<uint8_t> op_types;
    uint32_t budget, peak;
    std::vector<uint32_t> stage_peaks;
    uint16_t chain_len, chain_tile_h;
    bool line_buffered;
    uint16_t weights, quant_params;
    uint32_t size;
    Io in, out;
};

const std::vector<CorpusPlan> &corpus() {
    static const std::vector<CorpusPlan> plans = {
        {"pool_chain_v5", {TIGRIS_OP_AVG_POOL, TIGRIS_OP_MAX_POOL}, 4096, 20480, {20480, 5120}, 2, 2, true, 0, 0, 431,
         {TIGRIS_DTYPE_FLOAT32, {1, 64, 64, 1}, 16384}, {TIGRIS_DTYPE_FLOAT32, {1, 16, 16, 1}, 1024}},
        {"linebuf_conv_chain_v5", {TIGRIS_OP_CONV, TIGRIS_OP_CONV, TIGRIS_OP_CONV}, 32768, 196608,
         {114688, 131072, 196608}, 3, 5, false, 3, 0, 2800,
         {TIGRIS_DTYPE_FLOAT32, {1, 64, 64, 3}, 49152}, {TIGRIS_DTYPE_FLOAT32, {1, 64, 64, 8}, 131072}},
        {"linebuf_conv_sig_chain_v5", {TIGRIS_OP_CONV, TIGRIS_OP_SIGMOID, TIGRIS_OP_CONV}, 32768, 196608,
         {114688, 131072, 196608}, 3, 6, false, 2, 0, 2208,
         {TIGRIS_DTYPE_FLOAT32, {1, 64, 64, 3}, 49152}, {TIGRIS_DTYPE_FLOAT32, {1, 64, 64, 8}, 131072}},
        {"linebuf_s8_conv_sig_chain_v5", {TIGRIS_OP_CONV, TIGRIS_OP_SIGMOID, TIGRIS_OP_CONV}, 32768, 49152,
         {32768, 49152}, 2, 26, false, 2, 6, 1124,
         {TIGRIS_DTYPE_INT8, {1, 64, 64, 3}, 12288}, {TIGRIS_DTYPE_INT8, {1, 64, 64, 8}, 32768}},
    };
    return plans;
}

std::vector<uint8_t> read_plan(const std::string &name) {
    return tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (name + ".pattern.tgrs"));
}

void expect_io(const tigris_plan_t &plan, uint16_t t, const Io &want) {
    ASSERT_LT(t, plan.header->num_tensors);
    const tigris_tensor_t &ten = plan.tensors[t];
    EXPECT_EQ(tigris_tensor_declared_dtype(&ten), want.dtype);
    ASSERT_EQ(ten.ndim, want.shape.size());
    const int32_t *shape = tigris_tensor_shape(&plan, &ten);
    for (size_t d = 0; d < want.shape.size(); d++) EXPECT_EQ(shape[d], want.shape[d]) << "axis " << d;
    EXPECT_EQ(ten.size_bytes, want.bytes);
}

class CorpusLoad : public ::testing::TestWithParam<size_t> {};

TEST_P(CorpusLoad, LoadsAndMatchesManifest) {
    TIGRIS_REQUIRE_SHARED();
    const CorpusPlan &c = corpus()[GetParam()];
    std::vector<uint8_t> buf = read_plan(c.name);
    ASSERT_EQ(buf.size(), c.size);
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(buf.data(), (uint32_t)buf.size(), &plan), TIGRIS_OK) << c.name;
    const tigris_file_header_t *h = plan.header;
    EXPECT_EQ(h->version, 5u);
    EXPECT_EQ(h->file_size, c.size);
    EXPECT_EQ(h->budget, c.budget);
    EXPECT_EQ(h->peak, c.peak);
    EXPECT_EQ(h->flags, 0u);
    EXPECT_EQ(h->num_tile_plans, 0u);
    EXPECT_EQ(h->num_weights, c.weights);
    EXPECT_EQ(h->num_quant_params, c.quant_params);
    ASSERT_EQ(h->num_ops, c.op_types.size());
    for (size_t i = 0; i < c.op_types.size(); i++) EXPECT_EQ(plan.ops[i].op_type, c.op_types[i]) << "op " << i;
    ASSERT_EQ(h->num_stages, c.stage_peaks.size());
    for (size_t s = 0; s < c.stage_peaks.size(); s++) {
        const tigris_stage_t &st = plan.stages[s];
        EXPECT_EQ(st.peak_bytes, c.stage_peaks[s]) << "stage " << s;
        EXPECT_EQ(st.chain_id, 0u);
        EXPECT_EQ(st.chain_len, c.chain_len);
        EXPECT_EQ(st.chain_tile_h, s == 0 ? c.chain_tile_h : 0u);
        EXPECT_EQ(st.tile_plan_idx, TIGRIS_NONE16);
    }
    EXPECT_EQ((plan.stages[0]._reserved1 & TIGRIS_STAGE_LINE_BUFFERED) != 0, c.line_buffered);
    ASSERT_EQ(h->num_model_inputs, 1);
    ASSERT_EQ(h->num_model_outputs, 1);
    expect_io(plan, plan.model_inputs[0], c.in);
    expect_io(plan, plan.model_outputs[0], c.out);
    // Uncompressed: weights are read in place, and schema 5 has no
    // scheduled peak, so the fast arena is the header budget.
    EXPECT_EQ(plan.weight_blocks, nullptr);
    EXPECT_EQ(plan.scheduled_peak, 0u);
    EXPECT_EQ(tigris_weight_decompression_overhead(&plan), 0u);
    EXPECT_EQ(tigris_fast_arena_required(&plan), c.budget);
    EXPECT_EQ(tigris_plan_data_dtype(&plan), c.in.dtype);
    // No tile records: nothing for the band helpers to describe.
    tigris_tile_facts_t f;
    EXPECT_EQ(tigris_stage_tile_facts(&plan, &plan.stages[0], &f), 0);
    EXPECT_EQ(tigris_stage_band_kind(&plan, &plan.stages[0], nullptr), TIGRIS_BAND_KIND_NONE);
}

TEST_P(CorpusLoad, RandomVariantIsTheSamePlan) {
    TIGRIS_REQUIRE_SHARED();
    const CorpusPlan &c = corpus()[GetParam()];
    auto a = read_plan(c.name);
    auto b = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (std::string(c.name) + ".random.tgrs"));
    EXPECT_EQ(a, b);
}

TEST_P(CorpusLoad, EveryTruncationIsRefused) {
    TIGRIS_REQUIRE_SHARED();
    std::vector<uint8_t> buf = read_plan(corpus()[GetParam()].name);
    for (size_t n = 0; n < buf.size(); n++) {
        // Hand the loader an exactly sized copy so any read past n is an
        // ASan error, and patch file_size so the size check alone cannot
        // be what refuses it.
        std::vector<uint8_t> cut(buf.begin(), buf.begin() + (long)n);
        if (n >= 12) {
            uint32_t sz = (uint32_t)n;
            memcpy(cut.data() + 8, &sz, 4);
        }
        tigris_plan_t plan;
        memset(&plan, 0xAB, sizeof plan);
        tigris_error_t e = tigris_plan_load(cut.data(), (uint32_t)cut.size(), &plan);
        EXPECT_NE(e, TIGRIS_OK) << "length " << n;
        EXPECT_EQ(plan.header, nullptr) << "plan not zeroed at length " << n;
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusLoad, ::testing::Range<size_t>(0, 4),
                         [](const ::testing::TestParamInfo<size_t> &i) { return std::string(corpus()[i.param].name); });

TEST(CorpusNegative, SchemaOnePlanIsRefusedByVersion) {
    TIGRIS_REQUIRE_SHARED();
    auto buf = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / "negative" / "legacy_v1_pool_chain.tgrs");
    ASSERT_EQ(buf.size(), 472u);
    tigris_plan_t plan;
    memset(&plan, 0xAB, sizeof plan);
    EXPECT_EQ(tigris_plan_load(buf.data(), (uint32_t)buf.size(), &plan), TIGRIS_ERR_BAD_VERSION);
    EXPECT_EQ(plan.header, nullptr);
}

}  // namespace
