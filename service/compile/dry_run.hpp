// dry_run.hpp - the compiler's cost model is the runtime itself: a candidate
// plan is loaded and run on zero inputs by the real executor, and the trace
// says what every stage held (private to service/compile).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tigris::compile {

struct DryRun {
    bool ok = false;
    std::string error;
    int failed_stage = -1;  // the stage that was running when the run failed
    uint32_t fast_required = 0;  // tigris_fast_arena_required
    uint32_t fast_size = 0;      // the arena it ran in
    uint32_t fast_peak = 0, slow_peak = 0;
    uint64_t loads_bytes = 0, spills_bytes = 0;
    uint32_t overflows = 0;
    // Per stage: the largest fast fill seen, the fill its decoded weight
    // block took (the floor the stage's cap starts above), the executor's
    // path, and the bands it ran.
    std::vector<uint32_t> stage_peak, stage_weights, stage_tiles;
    std::vector<uint8_t> stage_path;
    std::vector<uint8_t> stage_overflow;  // a normal-stage output fell back to slow
};

// Runs plan (which must load) once. With at_declared the fast arena is
// exactly tigris_fast_arena_required; otherwise it is fast_bytes, or when
// that is 0 one large enough that only the plan's own caps bind.
DryRun dry_run(const std::vector<uint8_t> &plan, uint32_t fast_bytes, bool at_declared = false);

}  // namespace tigris::compile
