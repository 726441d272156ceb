// trace_export_text.cpp - one line per trace event, for reading in a terminal.
#include <sstream>

#include "tigris_host/run.hpp"

namespace tigris::host {

std::string trace_kind_name(uint8_t kind) {
    static const char *const k[] = {"?",      "STAGE_BEGIN", "STAGE_END", "TILE_BEGIN", "LOAD", "SPILL",
                                    "ALLOC",  "RESET",       "MOVE",      "WEIGHTS",    "OP",   "COPY"};
    return kind < sizeof(k) / sizeof(k[0]) ? k[kind] : "KIND_" + std::to_string(kind);
}

std::string trace_path_name(uint8_t path) {
    static const char *const p[] = {"normal", "tiled", "tiled_2d", "by_input", "transpose",
                                    "rows",   "reshape", "chain",  "control"};
    return path < sizeof(p) / sizeof(p[0]) ? p[path] : "path_" + std::to_string(path);
}

std::string trace_to_text(const RunResult &r) {
    std::ostringstream o;
    for (const tigris_trace_event_t &e : r.trace) {
        o << trace_kind_name(e.kind);
        if (e.stage != TIGRIS_TRACE_NONE16) o << " stage=" << e.stage;
        o << " path=" << trace_path_name(e.path);
        if (e.pool != TIGRIS_TRACE_POOL_NONE) o << " pool=" << (e.pool == TIGRIS_TRACE_POOL_FAST ? "fast" : "slow");
        if (e.tensor != TIGRIS_TRACE_NONE16) {
            o << " tensor=" << e.tensor;
            if (e.tensor < r.tensor_names.size()) o << "(" << r.tensor_names[e.tensor] << ")";
        }
        if (e.op != TIGRIS_TRACE_NONE16) {
            o << (e.kind == TIGRIS_TRACE_TILE_BEGIN ? " tile=" : " op=") << e.op;
            if (e.kind == TIGRIS_TRACE_OP && e.op < r.op_names.size()) o << "(" << r.op_names[e.op] << ")";
        }
        o << " offset=" << e.offset << " src=" << e.src_offset << " bytes=" << e.bytes;
        if (e.row0 >= 0) o << " rows=[" << e.row0 << "," << e.row1 << ")";
        if (e.col0 >= 0) o << " cols=[" << e.col0 << "," << e.col1 << ")";
        o << " fast_used=" << e.fast_used << " slow_used=" << e.slow_used << '\n';
    }
    return o.str();
}

}  // namespace tigris::host
