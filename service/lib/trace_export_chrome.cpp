// trace_export_chrome.cpp - Chrome trace-event JSON (Perfetto opens it).
// Events carry no time, so the event ordinal is the timestamp in µs: the
// picture shows the order and nesting of stages, tiles and ops, and the
// arenas' use as counters, not durations.
#include <nlohmann/json.hpp>

#include "tigris_host/run.hpp"

namespace tigris::host {

std::string trace_to_chrome(const RunResult &r) {
    using nlohmann::json;
    json events = json::array();
    bool stage_open = false, tile_open = false;
    auto slice = [&](const char *ph, std::string name, int64_t ts, json args = json::object()) {
        json j{{"ph", ph}, {"name", std::move(name)}, {"ts", ts}, {"pid", 1}, {"tid", 1}};
        if (!args.empty()) j["args"] = std::move(args);
        events.push_back(std::move(j));
    };
    int64_t ts = 0;
    for (const tigris_trace_event_t &e : r.trace) {
        ts++;
        switch (e.kind) {
        case TIGRIS_TRACE_STAGE_BEGIN:
            if (tile_open) slice("E", "tile", ts), tile_open = false;
            if (stage_open) slice("E", "stage", ts);
            slice("B", "stage", ts, json{{"stage", e.stage}, {"path", trace_path_name(e.path)}});
            stage_open = true;
            break;
        case TIGRIS_TRACE_STAGE_END:
            if (tile_open) slice("E", "tile", ts), tile_open = false;
            if (stage_open) slice("E", "stage", ts), stage_open = false;
            break;
        case TIGRIS_TRACE_TILE_BEGIN:
            if (tile_open) slice("E", "tile", ts);
            slice("B", "tile", ts, json{{"tile", e.op}, {"row0", e.row0}, {"row1", e.row1}});
            tile_open = true;
            break;
        case TIGRIS_TRACE_OP: {
            std::string name = e.op < r.op_names.size() ? r.op_names[e.op] : "op";
            json j{{"ph", "X"}, {"name", name}, {"ts", ts}, {"dur", 1}, {"pid", 1}, {"tid", 1},
                   {"args", {{"op", e.op}, {"row0", e.row0}, {"row1", e.row1}}}};
            events.push_back(std::move(j));
            break;
        }
        default: {
            json args{{"tensor", e.tensor}, {"bytes", e.bytes}, {"offset", e.offset}};
            events.push_back(json{{"ph", "i"}, {"s", "t"}, {"name", trace_kind_name(e.kind)}, {"ts", ts},
                                  {"pid", 1}, {"tid", 1}, {"args", args}});
        }
        }
        events.push_back(json{{"ph", "C"}, {"name", "arena bytes in use"}, {"ts", ts}, {"pid", 1},
                              {"args", {{"fast", e.fast_used}, {"slow", e.slow_used}}}});
    }
    ts++;
    if (tile_open) slice("E", "tile", ts);
    if (stage_open) slice("E", "stage", ts);
    return json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump() + "\n";
}

}  // namespace tigris::host
