// dry_run.cpp - one traced run of a candidate plan on the host.
#include "dry_run.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "tigris_host/run.hpp"

extern "C" {
#include "tigris.h"
#include "tigris_iface.h"
}

namespace tigris::compile {

DryRun dry_run(const std::vector<uint8_t> &plan_bytes, uint32_t fast_bytes, bool at_declared) {
    DryRun d;
    host::RunResult refusal;
    const auto lp = host::LoadedPlan::load(plan_bytes, &refusal);
    if (!lp) {
        d.error = refusal.error;
        return d;
    }
    const tigris_plan_t &plan = lp->plan();
    const uint16_t n_stages = plan.header->num_stages;
    d.stage_peak.assign(n_stages, 0);
    d.stage_weights.assign(n_stages, 0);
    d.stage_tiles.assign(n_stages, 0);
    d.stage_path.assign(n_stages, TIGRIS_TRACE_PATH_NORMAL);
    d.stage_overflow.assign(n_stages, 0);
    d.fast_required = tigris_fast_arena_required(&plan);

    // Memory use does not depend on the values: zeros are as good as any input.
    std::vector<std::vector<uint8_t>> inputs;
    std::vector<host::Bytes> spans;
    for (uint8_t i = 0; i < plan.header->num_model_inputs; i++)
        inputs.emplace_back(tigris_iface_bytes(&plan, plan.model_inputs[i]), 0);
    for (const auto &v : inputs) spans.emplace_back(v.data(), v.size());

    host::RunOptions ro;
    ro.collect_trace = true;
    if (at_declared) {
        ro.fast_bytes = d.fast_required;
    } else if (fast_bytes) {
        ro.fast_bytes = fast_bytes;
    } else {
        // Far above every cap: what binds is the plan, not the arena.
        uint64_t big = (uint64_t)d.fast_required * 4 + (1u << 20);
        ro.fast_bytes = (uint32_t)std::min<uint64_t>(big, 1u << 30);
    }
    host::RunScratch scratch;
    const host::RunResult r = host::run_loaded(*lp, spans, ro, scratch);
    d.fast_size = r.fast_size;
    int current = -1;
    std::map<uint16_t, std::set<uint16_t>> slow_allocs;
    for (const tigris_trace_event_t &ev : r.trace) {
        if (ev.stage == 0xFFFF || ev.stage >= n_stages) continue;
        current = ev.stage;
        d.stage_peak[ev.stage] = std::max(d.stage_peak[ev.stage], ev.fast_used);
        if (ev.kind == TIGRIS_TRACE_WEIGHTS) d.stage_weights[ev.stage] = std::max(d.stage_weights[ev.stage], ev.fast_used);
        if (ev.kind == TIGRIS_TRACE_TILE_BEGIN) d.stage_tiles[ev.stage]++;
        if (ev.kind == TIGRIS_TRACE_STAGE_BEGIN) d.stage_path[ev.stage] = ev.path;
        // A slow allocation in a normal stage is a spill's target unless no
        // SPILL of that tensor follows it: then it was an overflow (R1.9).
        if (ev.kind == TIGRIS_TRACE_ALLOC && ev.pool == TIGRIS_TRACE_POOL_SLOW && ev.path == TIGRIS_TRACE_PATH_NORMAL)
            slow_allocs[ev.stage].insert(ev.tensor);
        if (ev.kind == TIGRIS_TRACE_SPILL) slow_allocs[ev.stage].erase(ev.tensor);
    }
    for (const auto &[stage, left] : slow_allocs)
        if (!left.empty()) d.stage_overflow[stage] = 1;
    if (!r.ok()) {
        d.error = r.error;
        d.failed_stage = current;
        return d;
    }
    d.ok = true;
    d.fast_peak = r.fast_peak;
    d.slow_peak = r.slow_peak;
    d.loads_bytes = r.stats.loads_bytes;
    d.spills_bytes = r.stats.spills_bytes;
    d.overflows = r.stats.slow_overflow_count;
    return d;
}

}  // namespace tigris::compile
