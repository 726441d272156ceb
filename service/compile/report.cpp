// report.cpp - the compile report as JSON and as the verdict line.
#include "tigris_compile/compile.hpp"

namespace tigris::compile {

nlohmann::json to_json(const Report &r) {
    nlohmann::json stages = nlohmann::json::array();
    for (const StageInfo &s : r.stage_list)
        stages.push_back({{"ops", s.ops}, {"peak", s.peak}, {"weights", s.weights}, {"kind", s.kind}, {"tiles", s.tiles}, {"tile_h", s.tile_h}});
    return {{"model", r.model_name},
            {"operators", r.ops},
            {"tensors", r.tensors},
            {"fast_budget", r.fast_budget},
            {"slow_budget", r.slow_budget},
            {"naive_peak", r.naive_peak},
            {"largest_tensor", r.largest_tensor},
            {"fast_arena_required", r.fast_required},
            {"fast_peak", r.fast_peak},
            {"slow_peak", r.slow_peak},
            {"slow_traffic", {{"loads", r.loads_bytes}, {"spills", r.spills_bytes}}},
            {"slow_overflows", r.overflows},
            {"stages", {{"total", r.stages}, {"tiled", r.tiled}, {"chains", r.chains}}},
            {"plan_bytes", r.plan_bytes},
            {"stage_list", stages}};
}

std::string verdict_line(const Report &r) {
    return "fits " + kib(r.fast_required) + " fast + " + kib(r.slow_peak) + " slow: " + std::to_string(r.stages) +
           " stages, " + std::to_string(r.tiled) + " tiled, " + std::to_string(r.chains) + " chains";
}

bool parse_budget(const std::string &s, uint64_t *fast, uint64_t *slow) {
    const size_t plus = s.find('+');
    if (plus == std::string::npos) {
        *slow = 0;
        return parse_size(s, fast);
    }
    return parse_size(s.substr(0, plus), fast) && parse_size(s.substr(plus + 1), slow) && *slow > 0;
}

}  // namespace tigris::compile
