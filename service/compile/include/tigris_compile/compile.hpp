// compile.hpp - `tigris compile`: a TFLite model lowered as `tigris import`
// lowers it, then scheduled into a fast-memory budget (docs/compile.md):
// consecutive operators share a stage while the stage's working set fits,
// a lone operator that does not fit runs as a height stripe, and every
// stage's declared peak is what the runtime itself reached on a dry run.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tigris_import/lower.hpp"
#include "tigris_tflite/model.hpp"

namespace tigris::compile {

struct Options {
    uint32_t fast_budget = 0;  // bytes the fast arena has (required, > 0)
    uint64_t slow_budget = 0;  // bytes the slow arena has; 0 = no limit
    bool lz4 = false;          // weights in LZ4 blocks, decoded per stage into the fast arena (counted)
    bool xip = false;          // weights read in place from flash
    std::string model_name;
    bool chains = true;        // stream consecutive spatial stages as chains when that moves fewer slow bytes
    bool line_buffers = true;  // chains keep shared rows (no recomputation) rather than recompute them
};

struct StageInfo {
    std::vector<uint16_t> ops;
    uint32_t peak = 0;      // declared stage cap = measured fast peak (weights excluded)
    uint32_t weights = 0;   // fast bytes its decoded weight block takes (lz4), else 0
    std::string kind;       // "normal", "stripe" or "chain"
    uint32_t tiles = 0;     // bands the dry run executed (stripes; a chain's head)
    uint32_t tile_h = 0;    // chains: output rows per band of the chain's last stage
};

struct Report {
    std::string model_name;
    size_t ops = 0, tensors = 0;
    uint32_t fast_budget = 0;
    uint64_t slow_budget = 0;
    uint32_t naive_peak = 0;      // one stage holding every activation tensor (32-byte rounded)
    uint32_t largest_tensor = 0;  // bytes of the largest activation tensor
    uint32_t fast_required = 0;   // tigris_fast_arena_required of the written plan
    uint32_t fast_peak = 0;       // measured on the dry run at the declared arena
    uint32_t slow_peak = 0;
    uint64_t loads_bytes = 0, spills_bytes = 0;  // slow traffic of one inference
    uint32_t overflows = 0;                      // normal-stage outputs that fell back to slow
    uint32_t stages = 0, tiled = 0, chains = 0;
    size_t plan_bytes = 0;
    std::vector<StageInfo> stage_list;
};

struct Result {
    std::vector<uint8_t> plan;
    Report report;
};

// The budget cannot be met by any schedule this compiler makes. `floor_hint`
// is the smallest execution unit's estimate (what names the blocking
// operator); the message says what sets it.
class BudgetError : public std::runtime_error {
public:
    BudgetError(const std::string &msg, uint32_t floor_hint_, std::string unit_)
        : std::runtime_error(msg), floor_hint(floor_hint_), unit(std::move(unit_)) {}
    uint32_t floor_hint;
    std::string unit;  // "CONV_2D op 3 reads 1x48x48x8 whole", ...
};

// Lowers and schedules subgraph 0 of m. Throws import::ImportError for a
// model import refuses, BudgetError for a budget below the model's floor.
// The returned plan loads, and runs at its declared fast arena (and any
// larger one) with fast_peak <= tigris_fast_arena_required.
Result compile_model(const tflite::Model &m, const Options &opt);

// The smallest fast budget compile_model meets (binary search between the
// largest execution unit and the naive peak), 0 when even the naive peak
// fails. Options other than fast_budget are kept.
uint32_t smallest_budget(const tflite::Model &m, const Options &opt);

// "64K", "1.5M", "262144" -> bytes (K/M/G powers of 1024); false on a bad size.
bool parse_size(const std::string &s, uint64_t *out);
// "16.00 KiB"-style text of a byte count.
std::string kib(uint64_t bytes);

}  // namespace tigris::compile

#include <nlohmann/json.hpp>

namespace tigris::compile {

// The compile report as JSON (`tigris compile --json`, the gRPC replies).
nlohmann::json to_json(const Report &r);
// One line: "fits 16.00 KiB fast + 40.00 KiB slow: 9 stages, 4 tiled, 0 chains".
std::string verdict_line(const Report &r);

// `-m FAST[+SLOW]` values: "64K", "64K+8M". False on a bad size.
bool parse_budget(const std::string &s, uint64_t *fast, uint64_t *slow);

}  // namespace tigris::compile

namespace tigris::compile {

// `tigris analyze -m`: the model compiled at a list of budgets, the hard
// floor, and the LZ4 plan size at the main budget.
struct BudgetRow {
    uint32_t budget = 0;
    bool fits = false;
    std::string why;  // when it does not
    Report report;    // when it does
};
struct Analysis {
    bool main_fits = false;
    std::string main_why;
    Report main;                 // the schedule at opt.fast_budget
    size_t lz4_plan_bytes = 0;   // the same budget with -c lz4 (0: did not compile)
    uint32_t floor = 0;          // smallest budget that compiles (0: none)
    std::string floor_unit;      // what sets it
    std::vector<BudgetRow> rows;
};
// Compiles at opt.fast_budget and at each of `budgets` (those above the
// naive peak are skipped) and finds the floor.
Analysis analyze(const tflite::Model &m, const Options &opt, const std::vector<uint32_t> &budgets);
nlohmann::json to_json(const Analysis &a);
// The rows of the text report; verbose adds the per-stage table.
std::string to_text(const Analysis &a, bool verbose);

}  // namespace tigris::compile
