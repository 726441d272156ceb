// trace_export_jsonl.cpp - one JSON object per trace event, for scripts.
#include <nlohmann/json.hpp>
#include <sstream>

#include "tigris_host/run.hpp"

namespace tigris::host {

std::string trace_to_jsonl(const RunResult &r) {
    std::ostringstream o;
    for (const tigris_trace_event_t &e : r.trace) {
        nlohmann::json j{{"kind", trace_kind_name(e.kind)},
                         {"path", trace_path_name(e.path)},
                         {"pool", e.pool == TIGRIS_TRACE_POOL_NONE ? nlohmann::json(nullptr)
                                                                   : nlohmann::json(e.pool == 0 ? "fast" : "slow")},
                         {"stage", e.stage == TIGRIS_TRACE_NONE16 ? nlohmann::json(nullptr) : nlohmann::json(e.stage)},
                         {"tensor", e.tensor == TIGRIS_TRACE_NONE16 ? nlohmann::json(nullptr) : nlohmann::json(e.tensor)},
                         {"op", e.op == TIGRIS_TRACE_NONE16 ? nlohmann::json(nullptr) : nlohmann::json(e.op)},
                         {"offset", e.offset},
                         {"src_offset", e.src_offset},
                         {"bytes", e.bytes},
                         {"row0", e.row0},
                         {"row1", e.row1},
                         {"col0", e.col0},
                         {"col1", e.col1},
                         {"fast_used", e.fast_used},
                         {"slow_used", e.slow_used}};
        o << j.dump() << '\n';
    }
    return o.str();
}

}  // namespace tigris::host
