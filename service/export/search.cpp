// search.cpp - export's decision: refuse what it cannot carry or model,
// otherwise try every bandable run x band count x fold choice and keep the
// lowest head + tail, if it is lower than the input's.
#include <chrono>
#include <stdexcept>

#include "rewrite.hpp"
#include "tigris_export/export.hpp"
#include "tigris_export/writer.hpp"

namespace tigris::exporter {

namespace tfl = tigris::tflite;

namespace {

// The search builds about a thousand candidate models; names, min/max and
// shape signatures do not enter the arena, so candidates are built from a
// copy without them (a third of the search time was copying them). The
// winner is built again from the real model with the same plan.
tfl::Model lean_copy(const tfl::Model &m) {
    tfl::Model lean = m;
    for (tfl::SubGraph &sg : lean.subgraphs)
        for (tfl::Tensor &t : sg.tensors) {
            t.name.clear();
            t.name.shrink_to_fit();
            t.quant.min = {};
            t.quant.max = {};
            t.shape_signature.reset();
        }
    lean.description.clear();
    return lean;
}

}  // namespace

void check_exportable(const tfl::Model &m) {
    if (!m.uncarried.empty()) throw Refusal(m.uncarried.front());
    if (m.subgraphs.size() != 1) throw Refusal("models with several subgraphs are not exported");
    for (const tfl::Metadata &md : m.metadata)
        if (md.name != "min_runtime_version" && md.name != "CONVERSION_METADATA")
            throw Refusal("metadata " + md.name + " is not supported");
    check_modeled(m);
}

ExportResult export_model(std::span<const uint8_t> file, Target target) {
    ExportResult r;
    r.target = target;
    tfl::Model m;
    try {
        m = tfl::read_model(file);
    } catch (const tfl::ReadError &e) {
        r.reason = e.what();
        return r;
    }
    r.model_read = true;
    if (!m.subgraphs.empty()) r.operators = static_cast<int>(m.subgraphs[0].operators.size());
    try {
        check_exportable(m);
    } catch (const Refusal &e) {
        r.reason = e.what();
        return r;
    }
    r.before = arena(m, target);
    r.have_before = true;
    r.macs_before = detail::model_macs(m);

    std::optional<detail::Rewrite> best;
    ArenaFigure best_fig;
    detail::BandPlan best_plan;
    int64_t best_macs = 0;
    const tfl::Model lean = lean_copy(m);
    for (const detail::Run &run : detail::bandable_runs(m)) {
        for (int fold = 0; fold <= (run.has_foldable_pad ? 1 : 0); ++fold) {
            for (int k = 2; k <= 10; ++k) {
                detail::BandPlan plan{run, k, fold != 0};
                auto rw = detail::band_rewrite(lean, plan);
                if (!rw) continue;
                ++r.candidates;
                const ArenaFigure f = arena(rw->model, target);
                const int64_t macs = detail::model_macs(rw->model);
                // Lowest total; on a tie, fewer added MACs, then fewer operators.
                const bool better =
                    !best || f.total() < best_fig.total() ||
                    (f.total() == best_fig.total() &&
                     (macs < best_macs || (macs == best_macs && rw->model.subgraphs[0].operators.size() <
                                                                    best->model.subgraphs[0].operators.size())));
                if (better) {
                    best = std::move(rw);
                    best_fig = f;
                    best_plan = plan;
                    best_macs = macs;
                }
            }
        }
    }
    if (!best || best_fig.total() >= r.before.total()) {
        r.reason = "no rewrite lowers the arena";
        r.reason_is_no_rewrite = true;
        return r;
    }
    best = detail::band_rewrite(m, best_plan);  // the same rewrite, with every name and field
    if (!best) throw std::logic_error("export: the chosen rewrite could not be rebuilt");
    r.written = true;
    r.after = arena(best->model, target);
    if (r.after.head != best_fig.head || r.after.tail != best_fig.tail)
        throw std::logic_error("export: the lean candidate and the written model differ in their arena");
    r.run_first = best_plan.run.first;
    r.run_last = best_plan.run.last;
    r.bands = best_plan.bands;
    r.folds = best->folds;
    r.operators_after = static_cast<int>(best->model.subgraphs[0].operators.size());
    r.macs_after = detail::model_macs(best->model);
    r.bytes = write_model(best->model);
    return r;
}

AnalyzeRows analyze_model(std::span<const uint8_t> file) {
    AnalyzeRows a;
    tfl::Model m;
    try {
        m = tfl::read_model(file);
        if (!m.uncarried.empty()) return a;  // a file export does not read
        a.arena_head = arena_head(m, /*skip_unmodeled_scratch=*/true);
    } catch (const std::exception &) {
        return a;  // unreadable, several subgraphs, or an unknown tensor type: neither row
    }
    a.present = true;
    a.exported = export_model(file, Target::ArmNoneEabi);
    a.exported.bytes.clear();  // analyze writes no file
    return a;
}

}  // namespace tigris::exporter
