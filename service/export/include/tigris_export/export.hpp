// export.hpp - `tigris export` and the TFLite Micro rows of `tigris analyze`:
// rewrite a TFLite model so TFLite Micro runs it in a smaller arena (one run
// of int8 operators computed in row bands), or say why nothing is written.
// docs/export.md has the decisions; ../shared/seeds/export.txt the contract.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tigris_export/arena.hpp"
#include "tigris_tflite/model.hpp"

namespace tigris::exporter {

struct ExportResult {
    Target target = Target::ArmNoneEabi;
    bool model_read = false;   // false: the file was refused while reading (reason says why)
    int operators = 0;         // of the input
    bool written = false;      // a rewrite lowers the total
    std::string reason;        // when !written: one of the seed's reasons
    bool reason_is_no_rewrite = false;  // "no rewrite lowers the arena"

    // The input's arena (head always; tail when modeled).
    ArenaFigure before;
    bool have_before = false;

    // When written:
    ArenaFigure after;
    size_t run_first = 0, run_last = 0;
    int bands = 0, folds = 0;
    int operators_after = 0;
    int64_t macs_before = 0, macs_after = 0;
    double mac_increase_percent() const {
        return macs_before ? 100.0 * static_cast<double>(macs_after - macs_before) / static_cast<double>(macs_before) : 0.0;
    }
    int64_t head_change() const { return after.head - before.head; }
    int64_t persistent_growth() const { return after.tail - before.tail; }
    int64_t total_change() const { return after.total() - before.total(); }
    std::vector<uint8_t> bytes;  // the written model
    int candidates = 0;          // rewrites the search built and measured
};

// Reads `file`, refuses what export does not carry or model (with the
// seed's reasons), then tries every bandable run, every band count 2..10
// and, where a run holds a PAD, with and without folds; keeps the candidate
// with the lowest head + tail on `target` if it is below the input's.
ExportResult export_model(std::span<const uint8_t> file, Target target);

// The check export_model runs before searching: throws Refusal (or
// tflite::ReadError from reading) with the reason.
void check_exportable(const tflite::Model &m);

// "1.50 KiB" (bytes / 1024, two decimals); signed adds '+' or '-'.
std::string kib(int64_t bytes, bool signed_value = false);

// The seed's text layout for `tigris export` after the model line is
// printed: the change line, the arena rows, and (when written) the "wrote"
// line for `output_name` with the file size.
std::string model_line(const std::string &model_name, const ExportResult &r);
std::string export_text(const ExportResult &r, const std::string &output_name);
// JSON for --json and the RPCs (keys documented in docs/export.md).
nlohmann::json export_json(const ExportResult &r);

// The two analyze rows (arm-none-eabi), or nothing when the model gets
// neither (several subgraphs, unknown tensor types, unreadable file).
struct AnalyzeRows {
    bool present = false;
    int64_t arena_head = 0;  // planner + reduction scratch of the input
    ExportResult exported;   // the search, without writing a file
};
AnalyzeRows analyze_model(std::span<const uint8_t> file);
std::string analyze_text(const AnalyzeRows &a);
nlohmann::json analyze_json(const AnalyzeRows &a);  // {"arena": ..., "export": ...}

}  // namespace tigris::exporter
