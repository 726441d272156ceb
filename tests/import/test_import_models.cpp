// `tigris import` end to end on the shared models: every model imports or is
// refused with a named reason; every imported model run on every oracle input
// gives TFLite Micro's reference output bytes exactly, at every fast budget
// and with LZ4 or XIP weights; inspect of the plan shows every tensor, op and
// quant parameter of the source model.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "shared_data.h"
#include "tigris_host/inspect.hpp"
#include "tigris_host/run.hpp"
#include "tigris_import/lower.hpp"
#include "tigris_tflite/model.hpp"

namespace {

namespace fs = std::filesystem;
namespace tfl = tigris::tflite;
using tigris::import::ImportError;
using tigris::import::Options;

struct Model {
    std::vector<uint8_t> file;
    tfl::Model m;
};

Model load(const std::string &name) {
    Model x;
    x.file = tigris_test::read_file(tigris_test::shared_dir() / "models" / (name + ".tflite"));
    x.m = tfl::read_model(x.file);
    return x;
}

// The oracle cases (MANIFEST §2): model name -> input variants.
const char *const kOracleModels[] = {"ad01_int8",          "kws_ref_model",          "micro_speech_quantized",
                                     "model_ToyCar_quant_fullint", "person_detect", "pretrainedResnet_large_int8",
                                     "pretrainedResnet_quant", "str_ww_ref_model",  "vww_96_int8"};

std::vector<uint8_t> oracle(const std::string &model, const char *variant, const char *what) {
    return tigris_test::read_file(tigris_test::shared_dir() / "corpus" / "oracle" /
                                  (model + "." + variant + "." + what + ".bin"));
}

// Runs plan on both oracle inputs and checks the reference bytes and the peak.
void expect_oracle(const std::string &model, const std::vector<uint8_t> &plan, const std::string &what) {
    for (const char *v : {"mid", "rand"}) {
        const auto in = oracle(model, v, "input"), want = oracle(model, v, "expected");
        ASSERT_FALSE(in.empty());
        const tigris::host::RunResult r = tigris::host::run_plan(plan, in);
        ASSERT_TRUE(r.ok()) << model << " " << v << " " << what << ": " << r.error;
        EXPECT_LE(r.fast_peak, r.fast_required) << model << " " << what;
        ASSERT_EQ(r.outputs.size(), want.size());
        size_t diff = 0;
        for (size_t i = 0; i < want.size(); ++i) diff += r.outputs[i] != want[i];
        EXPECT_EQ(diff, 0u) << model << "." << v << " " << what << ": bytes differing from TFLite Micro";
    }
}

TEST(ImportModels, EveryModelImportsOrIsRefusedWithAName) {
    TIGRIS_REQUIRE_SHARED();
    size_t seen = 0;
    for (const auto &e : fs::directory_iterator(tigris_test::shared_dir() / "models")) {
        if (e.path().extension() != ".tflite") continue;
        ++seen;
        const std::string name = e.path().stem().string();
        Model x = load(name);
        try {
            const auto res = tigris::import::import_model(x.m, Options{});
            EXPECT_FALSE(res.plan.empty()) << name;
            EXPECT_EQ(res.report.ops + res.report.folded.size(), x.m.subgraphs[0].operators.size()) << name;
        } catch (const ImportError &err) {
            // The one model the README says carries int16 tensors.
            EXPECT_EQ(name, "keyword_scrambled_8bit") << err.what();
            EXPECT_STREQ(tigris::import::refusal_name(err.refusal.kind), "int16-tensor");
        }
    }
    EXPECT_EQ(seen, 10u);
}

TEST(ImportModels, OracleOutputsAreExact) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *name : kOracleModels) {
        Model x = load(name);
        expect_oracle(name, tigris::import::import_model(x.m, Options{}).plan, "one op per stage");
    }
}

// From one stage for everything down to one operator per stage: the outputs
// never change and the executor stays within what the plan states.
TEST(ImportModels, EveryFastBudgetGivesTheSameBytes) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *name : kOracleModels) {
        Model x = load(name);
        Options o;
        const auto whole = tigris::import::import_model(x.m, o);
        uint32_t total = 0;
        for (const auto &s : whole.report.stages) total += s.peak;
        for (uint32_t budget : {total * 2, total / 2, whole.report.scheduled_peak * 2, whole.report.scheduled_peak}) {
            o.fast_budget = budget;
            const auto res = tigris::import::import_model(x.m, o);
            EXPECT_TRUE(res.report.budget_met) << name << " budget " << budget;
            EXPECT_LE(res.report.scheduled_peak, budget);
            if (budget >= total) EXPECT_EQ(res.report.stages.size(), 1u) << name;
            expect_oracle(name, res.plan, "budget " + std::to_string(budget));
        }
    }
}

TEST(ImportModels, Lz4AndXipWeightsGiveTheSameBytes) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *name : {"kws_ref_model", "pretrainedResnet_quant", "model_ToyCar_quant_fullint"}) {
        Model x = load(name);
        Options o;
        o.lz4 = true;
        const auto lz = tigris::import::import_model(x.m, o);
        EXPECT_EQ(tigris::host::inspect(lz.plan).plan->flags.compression, "lz4");
        expect_oracle(name, lz.plan, "lz4");
        o.lz4 = false;
        o.xip = true;
        const auto xip = tigris::import::import_model(x.m, o);
        EXPECT_TRUE(tigris::host::inspect(xip.plan).plan->flags.xip);
        expect_oracle(name, xip.plan, "xip");
    }
}

// TFLite's QuantizeMultiplier written out again here with frexp, so the
// plan's multipliers are checked against a second derivation.
std::pair<int32_t, int32_t> qm(double real) {
    int e = 0;
    const double f = std::frexp(real, &e);
    int64_t q = (int64_t)std::llround(f * (double)(1ll << 31));
    if (q == (1ll << 31)) {
        q /= 2;
        ++e;
    }
    if (e < -31) return {0, 0};
    return {(int32_t)q, e};
}

TEST(ImportModels, InspectShowsEveryTensorOpAndQuantParameter) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *name : kOracleModels) {
        Model x = load(name);
        const auto res = tigris::import::import_model(x.m, Options{});
        const auto rep = tigris::host::inspect(res.plan);
        ASSERT_TRUE(rep.plan) << name;
        const tfl::SubGraph &sg = x.m.subgraphs[0];
        std::map<std::string, const tigris::host::IoTensor *> by_name;
        for (const auto &t : rep.plan->tensors) by_name[t.name] = &t;
        size_t op = 0;
        for (size_t i = 0; i < sg.operators.size(); ++i) {
            const tfl::Operator &top = sg.operators[i];
            const int32_t code = x.m.operator_codes[top.opcode_index].builtin;
            if (code == tfl::kQuantize || code == tfl::kDequantize) continue;  // folded into the interface
            ASSERT_LT(op, rep.plan->ops.size());
            const auto &pop = rep.plan->ops[op++];
            const tfl::Tensor &out = sg.tensors[top.outputs[0]];
            EXPECT_EQ(pop.name, out.name) << name << " op " << i;
            ASSERT_EQ(pop.outputs.size(), 1u);
            const auto &pt = rep.plan->tensors[pop.outputs[0]];
            EXPECT_EQ(pt.name, out.name);
            EXPECT_EQ(pt.shape, out.shape) << out.name;
            ASSERT_TRUE(pt.quant) << out.name;
            EXPECT_EQ(pt.quant->scale, out.quant.scale[0]) << out.name;
            EXPECT_EQ(pt.quant->zero_point, out.quant.zero_point[0]) << out.name;
            // Weight-bearing outputs carry input·filter[c]/output per channel.
            if (code == tfl::kConv2D || code == tfl::kDepthwiseConv2D || code == tfl::kFullyConnected) {
                const tfl::Tensor &in = sg.tensors[top.inputs[0]], &filt = sg.tensors[top.inputs[1]];
                ASSERT_EQ(pt.quant->multipliers.size(), filt.quant.scale.size()) << out.name;
                for (size_t c = 0; c < filt.quant.scale.size(); ++c) {
                    const auto [m, s] = qm((double)in.quant.scale[0] * (double)filt.quant.scale[c] /
                                           (double)out.quant.scale[0]);
                    EXPECT_EQ(pt.quant->multipliers[c], m) << out.name << " channel " << c;
                    EXPECT_EQ(pt.quant->shifts[c], s) << out.name << " channel " << c;
                }
                EXPECT_TRUE(pop.weight.has_value());
            }
            // Every runtime input of the TFLite op is an input of the plan op, by name.
            size_t rt = 0;
            for (int32_t ti : top.inputs) {
                if (ti < 0) continue;
                const tfl::Tensor &t = sg.tensors[ti];
                if (t.buffer && !x.m.buffers[t.buffer].data.empty()) continue;
                ASSERT_LT(rt, pop.inputs.size()) << out.name;
                const auto &pin = rep.plan->tensors[pop.inputs[rt++]];
                if (by_name.count(t.name)) EXPECT_EQ(pin.name, t.name);
            }
        }
        EXPECT_EQ(op, rep.plan->ops.size()) << name;
    }
}

TEST(ImportModels, RefusedOptionsNameTheirReason) {
    TIGRIS_REQUIRE_SHARED();
    Model toy = load("model_ToyCar_quant_fullint");
    Options o;
    o.schema = 5;  // declared interface dtypes need schema 6
    try {
        tigris::import::import_model(toy.m, o);
        ADD_FAILURE() << "schema 5 with float I/O was accepted";
    } catch (const ImportError &e) {
        EXPECT_STREQ(tigris::import::refusal_name(e.refusal.kind), "bad-option");
    }
    o.schema = 12;
    EXPECT_THROW(tigris::import::import_model(toy.m, o), ImportError);
    // An int8-only model is fine at an old schema.
    Model kws = load("kws_ref_model");
    o.schema = 9;
    expect_oracle("kws_ref_model", tigris::import::import_model(kws.m, o).plan, "schema 9");
}

}  // namespace
