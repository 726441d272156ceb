// The shared real models against TFLite Micro: every one imports (at three
// fast budgets) and gives TFLite Micro's bytes on seeded inputs, or is
// refused by name for a reason listed here.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "oracle_case.hpp"
#include "shared_data.h"

namespace tigris::oracle {
namespace {

// Models import refuses today, and the refusal it must give (docs/import.md).
const std::map<std::string, std::string> kRefused = {
    {"keyword_scrambled_8bit", "int16-tensor"},  // int16 activations: refused by name until supported
};

TEST(OracleModels, SharedModelsMatchTfliteMicroOrAreRefusedByName) {
    if (!have_tflm()) GTEST_SKIP() << "TFLite Micro oracle not built: " << tflm_missing_reason();
    TIGRIS_REQUIRE_SHARED();
    int matched = 0;
    for (const auto &path : tigris_test::shared_models()) {
        const std::string name = path.stem().string();
        for (uint64_t seed = 0; seed < 3; ++seed) {
            const ModelCase mc = case_of_model(name, tigris_test::read_file(path), seed);
            ASSERT_TRUE(mc.ok) << name << ": TFLite Micro cannot prepare it: " << mc.error;
            const CaseResult r = run_case(mc.c);
            auto refused = kRefused.find(name);
            if (refused != kRefused.end()) {
                EXPECT_EQ(r.verdict, Verdict::Refused) << name << ": " << r.detail;
                EXPECT_EQ(r.refusal, refused->second) << name << ": " << r.detail;
                break;
            }
            EXPECT_EQ(r.verdict, Verdict::Match) << name << " seed " << seed << ": " << verdict_name(r.verdict) << ": "
                                                 << r.detail;
            matched += r.verdict == Verdict::Match;
        }
    }
    EXPECT_GE(matched, 27);  // nine models, three seeds each
}

}  // namespace
}  // namespace tigris::oracle
