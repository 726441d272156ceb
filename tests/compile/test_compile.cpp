// tigris_compile as a library: each scheduling choice on a shared model, the
// invariant (runs at its declared arena and any larger one within it), the
// refusal of an unreachable budget, and the bytes against the plan
// `tigris import` writes for the same model (one lowering, two schedules).
#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "shared_data.h"
#include "tigris_compile/compile.hpp"
#include "tigris_host/run.hpp"
#include "tigris_import/lower.hpp"

extern "C" {
#include "tigris.h"
#include "tigris_iface.h"
}

namespace {

using namespace tigris;

// The reader's model points into the file's bytes: they are kept for the
// whole test program.
const tflite::Model &model(const std::string &name) {
    static std::map<std::string, std::pair<std::vector<uint8_t>, tflite::Model>> cache;
    auto it = cache.find(name);
    if (it == cache.end()) {
        it = cache.emplace(name, std::make_pair(tigris_test::read_file(tigris_test::shared_dir() / "models" /
                                                                       (name + ".tflite")),
                                                tflite::Model{}))
                 .first;
        it->second.second = tflite::read_model(it->second.first);
    }
    return it->second.second;
}

// Seeded input bytes for a plan's model inputs.
std::vector<uint8_t> input_for(const std::vector<uint8_t> &plan, uint32_t seed) {
    const auto lp = host::LoadedPlan::load(plan);
    EXPECT_TRUE(lp);
    size_t n = 0;
    for (uint8_t i = 0; lp && i < lp->plan().header->num_model_inputs; i++)
        n += tigris_iface_bytes(&lp->plan(), lp->plan().model_inputs[i]);
    std::vector<uint8_t> v(n);
    uint32_t s = seed * 2654435761u + 1;
    for (uint8_t &b : v) {
        s = s * 1103515245u + 12345u;
        b = (uint8_t)(s >> 16);
    }
    return v;
}

// Runs at the declared arena, 1.5x and 4x: each must succeed within the
// declared arena and give the same bytes; returns them.
std::vector<uint8_t> run_everywhere(const std::vector<uint8_t> &plan, const std::vector<uint8_t> &in) {
    std::vector<uint8_t> first;
    for (int k = 0; k < 3; ++k) {
        host::RunOptions ro;
        const auto lp = host::LoadedPlan::load(plan);
        const uint32_t req = tigris_fast_arena_required(&lp->plan());
        if (k == 1) ro.fast_bytes = req + req / 2;
        if (k == 2) ro.fast_bytes = req * 4;
        const host::RunResult r = host::run_plan(plan, in, ro);
        EXPECT_TRUE(r.ok()) << "arena " << r.fast_size << ": " << r.error;
        EXPECT_LE(r.fast_peak, r.fast_required) << "arena " << r.fast_size;
        if (k == 0) first = r.outputs;
        else EXPECT_EQ(r.outputs, first) << "arena " << r.fast_size;
    }
    return first;
}

std::vector<uint8_t> imported_output(const tflite::Model &m, const std::vector<uint8_t> &in) {
    const import::Result imp = import::import_model(m, import::Options{});
    const host::RunResult r = host::run_plan(imp.plan, in);
    EXPECT_TRUE(r.ok()) << r.error;
    return r.outputs;
}

TEST(Compile, RoomyBudgetGroupsOperatorsIntoFewStages) {
    TIGRIS_REQUIRE_SHARED();
    const tflite::Model &m = model("vww_96_int8");
    compile::Options o;
    o.fast_budget = 256 * 1024;
    const compile::Result r = compile::compile_model(m, o);
    EXPECT_LE(r.report.stages, 2u);
    EXPECT_EQ(r.report.tiled, 0u);
    EXPECT_LE(r.report.fast_required, o.fast_budget);
    // Capped at what the stage holds, not at the budget: the live set.
    EXPECT_LT(r.report.fast_required, r.report.naive_peak);
    const auto in = input_for(r.plan, 1);
    EXPECT_EQ(run_everywhere(r.plan, in), imported_output(m, in));
}

TEST(Compile, SmallBudgetTilesStagesIntoStripes) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *name : {"vww_96_int8", "person_detect", "pretrainedResnet_quant"}) {
        const tflite::Model &m = model(name);
        compile::Options o;
        o.fast_budget = 10 * 1024;  // the target for these models
        o.chains = false;           // stripes alone (chains: the next test)
        const compile::Result r = compile::compile_model(m, o);
        EXPECT_GT(r.report.tiled, 0u) << name;
        EXPECT_LE(r.report.fast_required, o.fast_budget) << name;
        size_t stripes = 0;
        for (const compile::StageInfo &s : r.report.stage_list) {
            EXPECT_LE(s.peak, r.report.fast_required) << name;
            if (s.kind == "stripe") {
                ++stripes;
                EXPECT_GT(s.tiles, 1u) << name;
            }
        }
        EXPECT_GT(stripes, 0u) << name;
        const auto in = input_for(r.plan, 2);
        EXPECT_EQ(run_everywhere(r.plan, in), imported_output(m, in)) << name;
    }
}

TEST(Compile, ChainsStreamWhatStripesSpill) {
    TIGRIS_REQUIRE_SHARED();
    const tflite::Model &m = model("vww_96_int8");
    compile::Options o;
    o.fast_budget = 16 * 1024;
    o.chains = false;
    const compile::Result plain = compile::compile_model(m, o);
    EXPECT_EQ(plain.report.chains, 0u);
    o.chains = true;
    const compile::Result chained = compile::compile_model(m, o);
    ASSERT_GT(chained.report.chains, 0u);
    EXPECT_LE(chained.report.fast_required, o.fast_budget);
    // The point of a chain: intermediate tensors never go to slow memory whole.
    EXPECT_LT(chained.report.loads_bytes + chained.report.spills_bytes,
              plain.report.loads_bytes + plain.report.spills_bytes);
    EXPECT_LE(chained.report.slow_peak, plain.report.slow_peak);
    size_t heads = 0;
    for (const compile::StageInfo &s : chained.report.stage_list)
        if (s.kind == "chain" && s.tile_h) {
            ++heads;
            EXPECT_GT(s.tiles, 1u);  // banded, not one band of the whole height
        }
    EXPECT_EQ(heads, chained.report.chains);
    const auto in = input_for(chained.plan, 4);
    const auto want = imported_output(m, in);
    EXPECT_EQ(run_everywhere(chained.plan, in), want);
    EXPECT_EQ(run_everywhere(plain.plan, in), want);

    // Without line buffers the chain recomputes shared rows: same bytes.
    o.line_buffers = false;
    const compile::Result recompute = compile::compile_model(m, o);
    ASSERT_GT(recompute.report.chains, 0u);
    EXPECT_NE(recompute.plan, chained.plan);
    EXPECT_EQ(run_everywhere(recompute.plan, in), want);
}

// ResNet-8's first block: conv -> conv -> conv -> ADD(first conv's output,
// last conv's output). At 16 KiB the block is one chain whose head writes the
// skip tensor, so the skip is banded with its branch, never held whole.
TEST(Compile, ResidualIsCoTiledWithItsBranch) {
    TIGRIS_REQUIRE_SHARED();
    const tflite::Model &m = model("pretrainedResnet_quant");
    compile::Options o;
    o.fast_budget = 16 * 1024;
    const compile::Result r = compile::compile_model(m, o);
    ASSERT_GT(r.report.chains, 0u);
    const auto lp = host::LoadedPlan::load(r.plan);
    ASSERT_TRUE(lp);
    const tigris_plan_t &plan = lp->plan();
    bool co_tiled = false;
    for (uint16_t s = 0; s < plan.header->num_stages; ++s) {
        const tigris_stage_t &st = plan.stages[s];
        if (st.chain_len == 0) continue;
        const uint16_t head = st.chain_id;
        const tigris_stage_t &h = plan.stages[head];
        const uint16_t first_op = tigris_stage_ops(&plan, &h)[0];
        const uint16_t *ops = tigris_stage_ops(&plan, &st);
        for (uint16_t k = 0; k < st.ops_count; ++k) {
            const tigris_op_t &op = plan.ops[ops[k]];
            if (op.op_type != TIGRIS_OP_ADD || op.num_inputs != 2) continue;
            // Both operands written by operators of this chain, one of them
            // (the skip) by the head's first operator.
            const uint16_t *in = tigris_op_inputs(&plan, &op);
            int from_head = 0, inside = 0;
            for (uint16_t q = first_op; q < ops[k]; ++q) {
                const uint16_t out = tigris_op_outputs(&plan, &plan.ops[q])[0];
                inside += out == in[0] || out == in[1];
                from_head += q == first_op && (out == in[0] || out == in[1]);
            }
            co_tiled |= inside == 2 && from_head == 1;
        }
    }
    EXPECT_TRUE(co_tiled) << "no chain holds a residual ADD with its skip";
    const auto in = input_for(r.plan, 5);
    EXPECT_EQ(run_everywhere(r.plan, in), imported_output(m, in));
}

TEST(Compile, CompressedWeightsCountInTheBudget) {
    TIGRIS_REQUIRE_SHARED();
    const tflite::Model &m = model("kws_ref_model");
    compile::Options o;
    o.fast_budget = 24 * 1024;
    o.lz4 = true;
    const compile::Result r = compile::compile_model(m, o);
    EXPECT_LE(r.report.fast_required, o.fast_budget);
    uint32_t decoded = 0;
    for (const compile::StageInfo &s : r.report.stage_list) decoded = std::max(decoded, s.weights);
    EXPECT_GT(decoded, 0u);  // weights were decoded into the fast arena
    const auto lp = host::LoadedPlan::load(r.plan);
    ASSERT_TRUE(lp);
    EXPECT_GT(tigris_weight_decompression_overhead(&lp->plan()), 0u);
    const auto in = input_for(r.plan, 3);
    EXPECT_EQ(run_everywhere(r.plan, in), imported_output(m, in));
}

TEST(Compile, UnreachableBudgetIsRefusedWithTheFloorNamed) {
    TIGRIS_REQUIRE_SHARED();
    const tflite::Model &m = model("kws_ref_model");
    compile::Options o;
    o.fast_budget = 4096;
    try {
        compile::compile_model(m, o);
        FAIL() << "4 KiB compiled";
    } catch (const compile::BudgetError &e) {
        EXPECT_GT(e.floor_hint, o.fast_budget);
        EXPECT_NE(std::string(e.what()).find("minimum execution unit is"), std::string::npos) << e.what();
        EXPECT_NE(e.unit.find("AVG_POOL"), std::string::npos) << e.unit;  // the pool reads its input whole
    }
}

TEST(Compile, SmallestBudgetCompilesAndOneGranuleLessDoesNot) {
    TIGRIS_REQUIRE_SHARED();
    const tflite::Model &m = model("str_ww_ref_model");
    compile::Options o;
    const uint32_t floor = compile::smallest_budget(m, o);
    ASSERT_GT(floor, 0u);
    o.fast_budget = floor;
    EXPECT_NO_THROW(compile::compile_model(m, o));
    o.fast_budget = floor - 32;
    EXPECT_THROW(compile::compile_model(m, o), compile::BudgetError);
}

TEST(Compile, SizesParse) {
    uint64_t v = 0, s = 0;
    EXPECT_TRUE(compile::parse_size("64K", &v));
    EXPECT_EQ(v, 65536u);
    EXPECT_TRUE(compile::parse_size("1.5M", &v));
    EXPECT_EQ(v, 1572864u);
    EXPECT_TRUE(compile::parse_size("262144", &v));
    EXPECT_EQ(v, 262144u);
    EXPECT_FALSE(compile::parse_size("64Q", &v));
    EXPECT_FALSE(compile::parse_size("", &v));
    EXPECT_FALSE(compile::parse_size("-1K", &v));
    EXPECT_FALSE(compile::parse_size("8G", &v));  // above the 32-bit sizes of the format
    EXPECT_TRUE(compile::parse_budget("64K+8M", &v, &s));
    EXPECT_EQ(v, 65536u);
    EXPECT_EQ(s, 8u << 20);
    EXPECT_FALSE(compile::parse_budget("64K+", &v, &s));
}

}  // namespace
