// tigris_compiler.cpp - `tigris compile` and `tigris analyze -m` for the
// viewer: the importer, the scheduler and TFLite Micro's arena model built
// from the CLI's own sources (service/tflite, import, compile, export) into
// tigris_compiler.{mjs,wasm}. One call: model bytes and a fast (and slow)
// budget in; the compiled plan and the analysis JSON out.
//
// The JSON is what `tigris analyze MODEL -m FAST[+SLOW] --json` prints
// ({"model", "operators", "tigris", "tflite_micro"}) plus "text" (the rows
// the CLI prints, compile::to_text) and "tflm_layout" (every buffer of
// TFLite Micro's head at its planned offset). The model's floor and the
// fixed budget rows do not depend on the fast budget: they are computed on
// the first call for a model (and slow budget) and kept, so a new fast
// budget costs one compile (flag TC_FULL forces the whole analysis).
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include "tigris_compile/compile.hpp"
#include "tigris_export/arena.hpp"
#include "tigris_export/export.hpp"
#include "tigris_import/lower.hpp"
#include "tigris_tflite/model.hpp"

namespace {

using namespace tigris;

struct Cache {
    std::vector<uint8_t> model_bytes;
    uint64_t slow = 0;
    bool valid = false;
    tflite::Model model;
    exporter::AnalyzeRows rows;
    nlohmann::json tflm_layout;
    compile::Analysis analysis;  // floor and budget rows; main replaced per call
    std::vector<uint32_t> budgets;
};

Cache g_cache;
std::string g_json;
std::vector<uint8_t> g_plan;

// The head as TFLite Micro's planner lays it out, in the order of
// planner_buffers: tensors (with their names) then scratch requests.
nlohmann::json layout_json(const tflite::Model &m) {
    nlohmann::json j;
    int64_t head = 0;
    std::vector<exporter::ArenaPlacement> l;
    try {
        l = exporter::arena_layout(m, /*skip_unmodeled_scratch=*/true, &head);
    } catch (const std::exception &e) {
        j["error"] = e.what();
        return j;
    }
    const tflite::SubGraph &sg = m.subgraphs[0];
    nlohmann::json bufs = nlohmann::json::array();
    for (const exporter::ArenaPlacement &p : l) {
        nlohmann::json b = {{"tensor", p.tensor}, {"op", p.op},     {"offset", p.offset},
                            {"size", p.size},     {"first", p.first}, {"last", p.last}};
        if (p.tensor >= 0) b["name"] = sg.tensors[static_cast<size_t>(p.tensor)].name;
        bufs.push_back(std::move(b));
    }
    nlohmann::json ops = nlohmann::json::array();
    for (const tflite::Operator &op : sg.operators) ops.push_back(tflite::builtin_name(m.operator_codes[op.opcode_index].builtin));
    j["head"] = head;
    j["buffers"] = std::move(bufs);
    j["ops"] = std::move(ops);
    return j;
}

void fail(const std::string &kind, const std::string &message) {
    g_plan.clear();
    g_json = nlohmann::json({{"ok", false}, {"error", kind}, {"message", message}}).dump();
}

int compile_call(const uint8_t *bytes, uint32_t len, uint32_t fast, double slow_d, int flags, const char *name) {
    const uint64_t slow = slow_d > 0 ? static_cast<uint64_t>(slow_d) : 0;
    const bool full = (flags & 1) != 0;
    // TC_QUICK (2) on a model not analysed yet: the schedule at this budget
    // and TFLite Micro's layout only ("partial": true), so the page can draw
    // before the floor search and the budget rows (a later call does those).
    const bool quick = (flags & 2) != 0;
    Cache &c = g_cache;
    const bool same = c.valid && c.slow == slow && c.model_bytes.size() == len &&
                      std::equal(c.model_bytes.begin(), c.model_bytes.end(), bytes);
    compile::Options co;
    co.fast_budget = fast;
    co.slow_budget = slow;
    // As the CLI names it: the file name in the report, without its extension in the plan.
    const std::string file_name = name && *name ? name : "model";
    co.model_name = file_name;
    if (const size_t dot = co.model_name.rfind('.'); dot != std::string::npos && dot > 0) co.model_name.resize(dot);
    try {
        if (quick && (!same || full)) {
            c.valid = false;
            tflite::Model m;
            try {
                m = tflite::read_model(std::span<const uint8_t>(bytes, len));
            } catch (const tflite::ReadError &e) {
                fail("unreadable", std::string("not a readable TFLite model: ") + e.what());
                return 2;
            }
            compile::Analysis a;
            g_plan.clear();
            try {
                compile::Result r = compile::compile_model(m, co);
                a.main = std::move(r.report);
                a.main_fits = true;
                g_plan = std::move(r.plan);
            } catch (const compile::BudgetError &e) {
                a.main_why = e.what();
            }
            nlohmann::json j;
            j["ok"] = true;
            j["partial"] = true;
            j["model"] = file_name;
            j["operators"] = m.subgraphs.empty() ? 0 : m.subgraphs[0].operators.size();
            j["tigris"] = compile::to_json(a);
            j["tflite_micro"] = nlohmann::json::object();
            j["text"] = compile::to_text(a, /*verbose=*/true);
            j["tflm_layout"] = layout_json(m);
            j["fast_budget"] = fast;
            j["slow_budget"] = slow;
            g_json = j.dump();
            return a.main_fits ? 0 : 3;
        }
        if (!same || full) {
            c.valid = false;
            c.model_bytes.assign(bytes, bytes + len);
            c.slow = slow;
            try {
                c.model = tflite::read_model(c.model_bytes);
            } catch (const tflite::ReadError &e) {
                fail("unreadable", std::string("not a readable TFLite model: ") + e.what());
                return 2;
            }
            // The CLI's analyze: TFLite Micro's rows, then the budgets (its head among them).
            c.rows = exporter::analyze_model(c.model_bytes);
            c.budgets = {65536, 32768, 16384, 8192};
            if (c.rows.present && c.rows.arena_head > 0) c.budgets.push_back(static_cast<uint32_t>(c.rows.arena_head));
            c.analysis = compile::analyze(c.model, co, c.budgets);
            c.tflm_layout = layout_json(c.model);
            c.valid = true;
        } else {
            // Same model and slow budget: only the schedule at the new fast budget.
            compile::Analysis &a = c.analysis;
            a.main = compile::Report{};
            a.main_fits = false;
            a.main_why.clear();
            a.lz4_plan_bytes = 0;
            g_plan.clear();
            try {
                compile::Result r = compile::compile_model(c.model, co);
                a.main = std::move(r.report);
                a.main_fits = true;
                g_plan = std::move(r.plan);
            } catch (const compile::BudgetError &e) {
                a.main_why = e.what();
            }
        }
        // After a whole analysis, the plan itself (analyze keeps only the report).
        if (!same || full) {
            g_plan.clear();
            if (c.analysis.main_fits) g_plan = compile::compile_model(c.model, co).plan;
        }
    } catch (const import::ImportError &e) {
        c.valid = false;
        fail(import::refusal_name(e.refusal.kind), e.refusal.message);
        return 2;
    } catch (const std::exception &e) {
        c.valid = false;
        fail("error", e.what());
        return 1;
    }
    const compile::Analysis &a = c.analysis;
    compile::Analysis shown = a;
    // analyze leaves out budgets above the naive peak when the main budget fits.
    if (a.main_fits) {
        shown.rows.clear();
        for (const compile::BudgetRow &r : a.rows)
            if (r.budget <= a.main.naive_peak) shown.rows.push_back(r);
    }
    nlohmann::json j;
    j["ok"] = true;
    j["model"] = file_name;
    j["operators"] = c.model.subgraphs.empty() ? 0 : c.model.subgraphs[0].operators.size();
    j["tigris"] = compile::to_json(shown);
    j["tflite_micro"] = exporter::analyze_json(c.rows);
    j["text"] = compile::to_text(shown, /*verbose=*/true);
    if (c.rows.present) j["tflite_micro_text"] = exporter::analyze_text(c.rows);
    j["tflm_layout"] = c.tflm_layout;
    j["fast_budget"] = fast;
    j["slow_budget"] = slow;
    g_json = j.dump();
    return a.main_fits ? 0 : 3;
}

}  // namespace

extern "C" {

// Returns 0 (plan compiled), 3 (budget cannot be met: JSON says why),
// 2 (model refused or unreadable), 1 (anything else). The JSON is always set.
EMSCRIPTEN_KEEPALIVE int tc_compile(const uint8_t *bytes, uint32_t len, uint32_t fast, double slow, int flags,
                                    const char *name) {
    try {
        return compile_call(bytes, len, fast, slow, flags, name);
    } catch (const std::exception &e) {
        fail("error", e.what());
        return 1;
    }
}
EMSCRIPTEN_KEEPALIVE const char *tc_json(void) { return g_json.c_str(); }
EMSCRIPTEN_KEEPALIVE const uint8_t *tc_plan(void) { return g_plan.data(); }
EMSCRIPTEN_KEEPALIVE uint32_t tc_plan_len(void) { return static_cast<uint32_t>(g_plan.size()); }

}  // extern "C"
