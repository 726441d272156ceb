// The differential sweep (docs/oracle.md): seeded generated models, every
// kind in int8 and float32, run by TFLite Micro and by import + the runtime at
// three fast budgets, three arenas and both reference backends. A case passes
// when every run equals TFLite Micro (int8 byte for byte, float32 within
// float_bound) or import refuses the model by name for a reason this file
// lists as not done yet. Mismatches and failed runs always fail the test.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "model_gen.hpp"
#include "oracle_case.hpp"

namespace tigris::oracle {
namespace {

// Seeds per (kind, dtype) in CI: 133 (kind, dtype) pairs x 200 seeds = 26,600 cases
// (about two seconds: the models are small).
constexpr uint64_t kSeedsPerKind = 200;

struct Param {
    std::string kind;
    DType dtype;
};

std::string param_name(const testing::TestParamInfo<Param> &p) {
    std::string n = p.param.kind + "_" + dtype_name(p.param.dtype);
    for (char &ch : n)
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return n;
}

std::vector<Param> all_params() {
    std::vector<Param> v;
    std::vector<std::string> kinds = single_op_kinds();
    kinds.push_back("graph");
    for (const std::string &k : kinds)
        for (DType d : {DType::Int8, DType::Float32})
            if (generates(k, d)) v.push_back({k, d});
    return v;
}

class Sweep : public testing::TestWithParam<Param> {};

TEST_P(Sweep, MatchesTfliteMicroOrRefusesByName) {
    REQUIRE_TFLM();
    const Param &p = GetParam();
    std::map<Verdict, int> tally;
    std::map<std::string, int> refusals;
    std::string first_refusal;
    for (uint64_t seed = 0; seed < kSeedsPerKind; ++seed) {
        const Case c = generate(p.kind, p.dtype, seed);
        const CaseResult r = run_case(c);
        ++tally[r.verdict];
        if (r.verdict == Verdict::Refused) {
            if (std::getenv("TIGRIS_ORACLE_VERBOSE")) std::printf("[ refusal ] %s: %s\n", c.id().c_str(), r.detail.c_str());
            ++refusals[r.refusal];
            if (first_refusal.empty()) first_refusal = c.id() + ": " + r.detail;
        }
        EXPECT_NE(r.verdict, Verdict::Mismatch) << c.id() << " (" << c.what << "): " << r.detail;
        EXPECT_NE(r.verdict, Verdict::RunFailed) << c.id() << " (" << c.what << "): " << r.detail;
        EXPECT_NE(r.verdict, Verdict::OracleRefused)
            << c.id() << " (" << c.what << "): the generator made a model TFLite Micro refuses: " << r.detail;
    }
    std::printf("[ oracle ] %s/%s: %d match, %d refused, %d mismatch, %d run-failed, %d oracle-refused\n",
                p.kind.c_str(), dtype_name(p.dtype), tally[Verdict::Match], tally[Verdict::Refused],
                tally[Verdict::Mismatch], tally[Verdict::RunFailed], tally[Verdict::OracleRefused]);
    if (!first_refusal.empty()) std::printf("[ oracle ]   first refusal: %s\n", first_refusal.c_str());
}

INSTANTIATE_TEST_SUITE_P(Oracle, Sweep, testing::ValuesIn(all_params()), param_name);

// IF / WHILE with their subgraphs, SVDF with its state and the comparisons
// are lowered, not refused: every seed must match (the sweep only forbids
// mismatches, so a lowering that fell back to a refusal would pass there).
TEST(OracleLowered, ControlFlowStateAndComparisonsMatchWithoutRefusals) {
    REQUIRE_TFLM();
    int cases = 0;
    for (const std::string k : {"IF", "WHILE", "SVDF", "EQUAL", "LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL"})
        for (DType d : {DType::Int8, DType::Float32}) {
            if (!generates(k, d)) continue;
            for (uint64_t seed = 0; seed < 40; ++seed) {
                const Case c = generate(k, d, seed);
                const CaseResult r = run_case(c);
                EXPECT_EQ(r.verdict, Verdict::Match) << c.id() << " (" << c.what << "): " << verdict_name(r.verdict)
                                                     << ": " << r.detail;
                ++cases;
            }
        }
    EXPECT_EQ(cases, 40 * 15);
}

TEST(OracleGenerator, SameSeedSameBytesOtherSeedOtherModel) {
    for (const std::string &k : single_op_kinds()) {
        if (!generates(k, DType::Int8)) continue;
        const Case a = generate(k, DType::Int8, 7), b = generate(k, DType::Int8, 7);
        EXPECT_EQ(a.model, b.model) << k;
        EXPECT_EQ(a.input, b.input) << k;
        std::set<std::vector<uint8_t>> distinct;
        for (uint64_t s = 0; s < 8; ++s) distinct.insert(generate(k, DType::Int8, s).model);
        EXPECT_GT(distinct.size(), 1u) << k << ": eight seeds gave one model";
    }
    EXPECT_THROW(generate("NO_SUCH_OP", DType::Int8, 0), std::invalid_argument);
    EXPECT_THROW(generate("EXP", DType::Int8, 0), std::invalid_argument);  // TFLite Micro's EXP is float only
    EXPECT_NO_THROW(generate("EXP", DType::Float32, 0));
}

}  // namespace
}  // namespace tigris::oracle
