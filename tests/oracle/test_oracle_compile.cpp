// `tigris compile` against TFLite Micro: every shared model compiled at a
// sweep of fast budgets; every plan that compiles declares at most its
// budget, runs at its declared arena, 1.5x and a huge one within the
// declared arena, and gives TFLite Micro's bytes (docs/compile.md).
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <string>

#include "oracle_case.hpp"
#include "shared_data.h"

namespace tigris::oracle {
namespace {

// Models import refuses today (test_oracle_models.cpp says why).
const std::map<std::string, std::string> kRefused = {{"keyword_scrambled_8bit", "int16-tensor"}};

// Budgets from roomy to below every model's floor, so each model is seen
// untiled, tiled and refused.
const std::vector<uint32_t> kBudgets = {262144, 103392, 65536, 32768, 16384, 10240, 8192, 4096, 256};

TEST(OracleCompile, SharedModelsMatchTfliteMicroAtEveryBudget) {
    if (!have_tflm()) GTEST_SKIP() << "TFLite Micro oracle not built: " << tflm_missing_reason();
    TIGRIS_REQUIRE_SHARED();
    int models = 0, tiled = 0;
    for (const auto &path : tigris_test::shared_models()) {
        const std::string name = path.stem().string();
        const ModelCase mc = case_of_model(name, tigris_test::read_file(path), 1);
        ASSERT_TRUE(mc.ok) << name << ": TFLite Micro cannot prepare it: " << mc.error;
        const CaseResult r = run_compiled_case(mc.c, kBudgets);
        auto refused = kRefused.find(name);
        if (refused != kRefused.end()) {
            EXPECT_EQ(r.verdict, Verdict::Refused) << name << ": " << r.detail;
            EXPECT_EQ(r.refusal, refused->second) << name;
            continue;
        }
        EXPECT_EQ(r.verdict, Verdict::Match) << name << ": " << verdict_name(r.verdict) << ": " << r.detail;
        // The roomiest budget always compiles and 256 bytes never does.
        EXPECT_GE(r.compiled, 1) << name;
        EXPECT_GE(r.below_floor, 1) << name;
        ++models;
        tiled += r.tiled_stages;
    }
    EXPECT_GE(models, 9);
    EXPECT_GT(tiled, 0);  // small budgets must have produced banded stages
}

// The generated multi-operator models of the sweep, at budgets drawn per seed.
TEST(OracleCompile, GeneratedModelsMatchAtRandomBudgets) {
    if (!have_tflm()) GTEST_SKIP() << "TFLite Micro oracle not built: " << tflm_missing_reason();
    int matched = 0, compiled = 0, below = 0, tiled = 0;
    uint64_t s = 12345;
    for (uint64_t seed = 0; seed < 24; ++seed) {
        const Case c = generate("graph", seed % 4 == 3 ? DType::Float32 : DType::Int8, seed);
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        const uint32_t a = 256u + (uint32_t)((s >> 33) % 16384u), b = 256u + (uint32_t)((s >> 13) % 2048u);
        const CaseResult r = run_compiled_case(c, {a, b, 1u << 20});
        if (r.verdict == Verdict::Refused || r.verdict == Verdict::OracleRefused) continue;
        EXPECT_EQ(r.verdict, Verdict::Match) << "seed " << seed << ": " << verdict_name(r.verdict) << ": " << r.detail;
        matched += r.verdict == Verdict::Match;
        compiled += r.compiled;
        below += r.below_floor;
        tiled += r.tiled_stages;
    }
    std::cout << "generated: " << matched << " matched, " << compiled << " plans compiled, " << below
              << " budgets below the floor, " << tiled << " tiled stages\n";
    EXPECT_GE(matched, 8);
    EXPECT_GE(compiled, 8);
}

// The example the viewer opens first (service/tools/write_example_model.cpp,
// compiled by the build): its compiled plans must show what TiGrIS does
// (streamed chains, multi-operator stages) and give TFLite Micro's bytes at
// the build's budget, around it and at the model's floor.
TEST(OracleCompile, ExampleModelHasChainsAndMatches) {
    if (!have_tflm()) GTEST_SKIP() << "TFLite Micro oracle not built: " << tflm_missing_reason();
    const std::vector<uint8_t> model = tigris_test::read_file(TIGRIS_EXAMPLE_MODEL);
    ASSERT_FALSE(model.empty()) << "the build did not write " << TIGRIS_EXAMPLE_MODEL;
    const ModelCase mc = case_of_model("example_mobilenet", model, 1);
    ASSERT_TRUE(mc.ok) << "TFLite Micro cannot prepare the example: " << mc.error;
    const CaseResult r = run_compiled_case(mc.c, {4608, 8192, 12288, 16384, 32768, 65536});
    EXPECT_EQ(r.verdict, Verdict::Match) << verdict_name(r.verdict) << ": " << r.detail;
    EXPECT_EQ(r.compiled, 6);
    EXPECT_GE(r.chains, 6);
}

}  // namespace
}  // namespace tigris::oracle
