// oracle_case.hpp - one differential case: a generated model run by TFLite
// Micro (the oracle) and by `tigris import` + the runtime at several fast
// budgets, arenas and backends, compared as docs/oracle.md says.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model_gen.hpp"

namespace tigris::oracle {

// Whether the TFLite Micro oracle is in this build, and why not when it is not.
bool have_tflm();
const char *tflm_missing_reason();

// In a gtest body: skip, saying why, when the oracle was not built.
#define REQUIRE_TFLM()                                                                                \
    do {                                                                                              \
        if (!::tigris::oracle::have_tflm())                                                           \
            GTEST_SKIP() << "TFLite Micro oracle not built: " << ::tigris::oracle::tflm_missing_reason(); \
    } while (0)

// What TFLite Micro made of a model.
struct OracleRun {
    bool ok = false;
    std::string error;
    std::vector<uint8_t> output;
    std::vector<int32_t> output_types;   // TfLiteType of each output
    std::vector<size_t> output_bytes;
    std::vector<int32_t> input_types;    // also filled when only the input size was wrong
    std::vector<size_t> input_bytes;
    size_t arena_used_bytes = 0;
};
OracleRun run_tflm(const std::vector<uint8_t> &model, const std::vector<uint8_t> &input,
                   size_t arena_bytes = size_t{8} << 20);

enum class Verdict {
    Match,         // every run gave TFLite Micro's bytes (float32: within the bound)
    Refused,       // `tigris import` refused the model, by name
    OracleRefused, // TFLite Micro itself refused or failed: the generator made something invalid
    Mismatch,      // a run gave other bytes
    RunFailed,     // a plan that loaded failed at or above its declared fast arena
};
const char *verdict_name(Verdict v);

struct CaseResult {
    Verdict verdict = Verdict::Match;
    std::string detail;   // the refusal, or the first mismatch / failure and where
    std::string refusal;  // Refused: the refusal's name ("unsupported-operator", ...)
    int runs = 0;         // plan runs compared
    // run_compiled_case: budgets compiled and checked, budgets refused as
    // below the model's floor, and the tiled stages of the compiled plans.
    int compiled = 0, below_floor = 0, tiled_stages = 0, chains = 0;
};

// Which plans and runs a case makes.
struct CasePlan {
    std::vector<uint32_t> budgets = {0, 4096, 65536};  // `tigris import --fast-budget`
};

// Largest |ours - tflm| allowed for one float32 output element, given the
// largest magnitude among TFLite Micro's outputs of that case (docs/oracle.md).
double float_bound(double max_abs_expected);

CaseResult run_case(const Case &c, const CasePlan &plan = {});

// `tigris compile` at each fast budget: every plan that compiles declares at
// most the budget and is checked as run_case checks an imported plan; a
// budget below the model's floor is counted, not run.
CaseResult run_compiled_case(const Case &c, const std::vector<uint32_t> &budgets);

// A case of a model file that was not generated (a shared model): its inputs
// drawn from `seed` (int8 uniform, float32 in [-1, 1]) with the sizes TFLite
// Micro reports. `ok` is false when TFLite Micro cannot even prepare it.
struct ModelCase {
    bool ok = false;
    std::string error;
    Case c;
};
ModelCase case_of_model(const std::string &name, const std::vector<uint8_t> &model, uint64_t seed);

}  // namespace tigris::oracle
