// analyze.cpp - the memory report of `tigris analyze -m` (docs/compile.md).
#include <algorithm>
#include <cstdio>

#include "tigris_compile/compile.hpp"
#include "tigris_planfile/plan_builder.hpp"

namespace tigris::compile {

Analysis analyze(const tflite::Model &m, const Options &opt, const std::vector<uint32_t> &budgets) {
    Analysis a;
    try {
        a.main = compile_model(m, opt).report;
        a.main_fits = true;
    } catch (const BudgetError &e) {
        a.main_why = e.what();
    }
    if (a.main_fits && !opt.lz4 && !opt.xip && planfile::lz4_available()) {
        Options z = opt;
        z.lz4 = true;
        try {
            a.lz4_plan_bytes = compile_model(m, z).report.plan_bytes;
        } catch (const BudgetError &) {
            a.lz4_plan_bytes = 0;  // decoded blocks do not fit beside the activations
        }
    }
    a.floor = smallest_budget(m, opt);
    if (a.floor) {
        Options f = opt;
        f.fast_budget = a.floor - 1;
        try {
            compile_model(m, f);
        } catch (const BudgetError &e) {
            a.floor_unit = e.unit;
        }
    }
    std::vector<uint32_t> list = budgets;
    if (a.floor) list.push_back(a.floor);
    std::sort(list.rbegin(), list.rend());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    for (uint32_t b : list) {
        if (a.main_fits && b > a.main.naive_peak) continue;  // nothing left to schedule
        BudgetRow row;
        row.budget = b;
        Options o = opt;
        o.fast_budget = b;
        try {
            row.report = compile_model(m, o).report;
            row.fits = true;
        } catch (const BudgetError &e) {
            row.why = e.what();
        }
        a.rows.push_back(row);
    }
    return a;
}

nlohmann::json to_json(const Analysis &a) {
    nlohmann::json rows = nlohmann::json::array();
    for (const BudgetRow &r : a.rows) {
        nlohmann::json j = {{"budget", r.budget}, {"fits", r.fits}};
        if (r.fits) {
            j["fast_arena_required"] = r.report.fast_required;
            j["slow_peak"] = r.report.slow_peak;
            j["slow_traffic"] = r.report.loads_bytes + r.report.spills_bytes;
            j["stages"] = r.report.stages;
            j["tiled"] = r.report.tiled;
            j["chains"] = r.report.chains;
        } else {
            j["reason"] = r.why;
        }
        rows.push_back(j);
    }
    nlohmann::json j = {{"fits", a.main_fits},
                        {"floor", {{"bytes", a.floor}, {"set_by", a.floor_unit}}},
                        {"budgets", rows}};
    if (a.main_fits) {
        j["schedule"] = to_json(a.main);
        j["verdict"] = verdict_line(a.main);
        j["plan_bytes_lz4"] = a.lz4_plan_bytes;
    } else {
        j["reason"] = a.main_why;
    }
    return j;
}

namespace {
std::string row(const std::string &name, const std::string &value, const std::string &note = "") {
    char buf[64];
    std::snprintf(buf, sizeof buf, "  %-20s %12s", name.c_str(), value.c_str());
    return std::string(buf) + (note.empty() ? "" : "   " + note) + "\n";
}
}  // namespace

std::string to_text(const Analysis &a, bool verbose) {
    std::string s;
    if (!a.main_fits) {
        s += "does not fit: " + a.main_why + "\n";
    } else {
        const Report &r = a.main;
        s += verdict_line(r) + "\n\nschedule at " + kib(r.fast_budget) + "\n";
        s += row("operators, tensors", std::to_string(r.ops) + ", " + std::to_string(r.tensors));
        s += row("naive peak", kib(r.naive_peak), "every activation tensor held at once (one stage)");
        s += row("largest tensor", kib(r.largest_tensor));
        s += row("fast peak", kib(r.fast_peak), "declared " + kib(r.fast_required) + " (measured at the declared arena)");
        s += row("slow peak", kib(r.slow_peak));
        s += row("slow traffic", kib(r.loads_bytes + r.spills_bytes),
                 "loads " + kib(r.loads_bytes) + ", spills " + kib(r.spills_bytes));
        s += row("extra MACs", "0", "stripes read halo rows again but compute every output row once");
        s += row("stages", std::to_string(r.stages),
                 std::to_string(r.stages - r.tiled) + " normal, " + std::to_string(r.tiled) + " tiled, " +
                     std::to_string(r.chains) + " chains");
        s += row("plan size", kib(r.plan_bytes),
                 a.lz4_plan_bytes ? "LZ4 " + kib(a.lz4_plan_bytes) + "; XIP reads weights in place (size unchanged)"
                 : planfile::lz4_available() ? "LZ4 does not fit this budget; XIP reads weights in place"
                                             : "LZ4 not computed by this build; XIP reads weights in place");
    }
    s += row("hard floor", a.floor ? kib(a.floor) : "none", a.floor_unit);
    std::string also;
    for (const BudgetRow &b : a.rows)
        if (b.fits) also += (also.empty() ? "" : ", ") + kib(b.budget);
    s += row("also fits at", also.empty() ? "none" : std::to_string(std::count_if(a.rows.begin(), a.rows.end(),
                                                                                   [](const BudgetRow &b) { return b.fits; })) +
                                                         " budgets",
             also);
    s += "\nbudgets\n";
    for (const BudgetRow &b : a.rows) {
        if (b.fits)
            s += row(kib(b.budget), kib(b.report.fast_required),
                     "fast + " + kib(b.report.slow_peak) + " slow, traffic " +
                         kib(b.report.loads_bytes + b.report.spills_bytes) + ", " + std::to_string(b.report.stages) +
                         " stages, " + std::to_string(b.report.tiled) + " tiled");
        else
            s += row(kib(b.budget), "no", "below the floor");
    }
    if (verbose && a.main_fits) {
        s += "\nstages\n";
        for (size_t i = 0; i < a.main.stage_list.size(); ++i) {
            const StageInfo &st = a.main.stage_list[i];
            char buf[160];
            std::snprintf(buf, sizeof buf, "  %4zu  ops %3u..%-3u  %-6s  peak %8u  tiles %4u  weights %u\n", i,
                          (unsigned)st.ops.front(), (unsigned)st.ops.back(), st.kind.c_str(), st.peak, st.tiles,
                          st.weights);
            s += buf;
        }
    }
    return s;
}

}  // namespace tigris::compile
