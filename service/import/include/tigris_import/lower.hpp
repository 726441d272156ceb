// lower.hpp - `tigris import`: a TFLite model lowered to a `.tgrs` plan
// (docs/import.md). The plan is checked by the runtime's own loader before
// it is returned, so a plan that comes back always loads.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tigris_import/support.hpp"
#include "tigris_planfile/plan_builder.hpp"
#include "tigris_tflite/model.hpp"

namespace tigris::import {

struct Options {
    uint32_t schema = 11;      // 4..11
    uint32_t fast_budget = 0;  // bytes a stage may hold in the fast arena; 0 = one op per stage
    bool lz4 = false;          // weights in LZ4 blocks, one per stage (decoded into the fast arena)
    bool xip = false;          // weights read in place from the plan (flash)
    std::string model_name;    // empty: the subgraph's name, else "model"
};

struct StageReport {
    std::vector<uint16_t> ops;
    uint32_t peak = 0;  // fast-arena bytes the stage holds at most (32-byte rounded)
};

struct Report {
    std::string model_name;
    uint32_t schema = 0;
    size_t tensors = 0, ops = 0, weights = 0, quant_params = 0;
    uint32_t fast_budget = 0;
    uint32_t scheduled_peak = 0;  // largest stage working set
    bool budget_met = true;       // every stage fits fast_budget (always true without a budget)
    std::vector<StageReport> stages;
    std::vector<std::string> folded;    // boundary conversions that became interface dtypes
    std::vector<std::string> not_done;  // scheduler features this version does not use yet
};

struct Result {
    std::vector<uint8_t> plan;
    Report report;
};

// A model (or option) that cannot be lowered: the refusal names why.
class ImportError : public std::runtime_error {
public:
    explicit ImportError(Refusal r) : std::runtime_error(r.message), refusal(std::move(r)) {}
    Refusal refusal;
};

// Lowers subgraph 0 of m and schedules it with the first scheduler
// (schedule.hpp). Throws ImportError.
Result import_model(const tflite::Model &m, const Options &opt);

// The lowering alone, shared by `tigris import` and `tigris compile` so that
// the two never lower a model differently: every tensor, operator, weight
// and attribute, model inputs and outputs, compression and XIP set; no
// stages yet. The report's stage fields are left for the scheduler.
struct Lowered {
    planfile::PlanBuilder builder;
    Report report;
};
Lowered lower_model(const tflite::Model &m, const Options &opt);

// Serialises b and loads the bytes with the runtime's loader; a plan the
// loader refuses is an ImportError (invalid-model), never returned.
std::vector<uint8_t> build_checked(planfile::PlanBuilder &b);

}  // namespace tigris::import
