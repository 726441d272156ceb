// cmd_analyze.cpp - `tigris analyze MODEL.tflite [-m FAST [-m SLOW]] [-f FLASH]
// [-v] [--json]`: the TFLite Micro memory rows of a TFLite model (the arena
// TFLM's planner places plus the reduction kernels' scratch, and what
// `tigris export` would save on arm-none-eabi, without writing a file;
// ../shared/seeds/export.txt, "In analyze"); with -m, first the verdict and
// the schedule `tigris compile` makes at that budget, the hard floor and the
// budgets it also fits (docs/compile.md). A model export does not read or
// model gets neither TFLite Micro row.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <cstdio>
#include <iterator>
#include <optional>

#include "command.hpp"
#include "files.hpp"
#include "tigris_compile/compile.hpp"
#include "tigris_export/export.hpp"
#include "tigris_import/lower.hpp"

namespace tigris::cli {
namespace {

struct Options {
    std::string model, flash;
    std::vector<std::string> memory;
    bool json = false, verbose = false;
};

int run(const Options &opt) {
    std::vector<uint8_t> file;
    if (!read_file(opt.model, file)) {
        std::cerr << "error: cannot read " << opt.model << '\n';
        return kExitUsage;
    }
    const std::string name = std::filesystem::path(opt.model).filename().string();
    tflite::Model m;
    try {
        m = tflite::read_model(file);
    } catch (const tflite::ReadError &e) {
        std::cerr << "error: not a readable TFLite model: " << e.what() << '\n';
        return kExitRefused;
    }
    const size_t ops = m.subgraphs.empty() ? 0 : m.subgraphs[0].operators.size();
    const exporter::AnalyzeRows rows = exporter::analyze_model(file);

    std::optional<compile::Analysis> schedule;
    uint64_t flash = 0;
    if (!opt.memory.empty()) {
        uint64_t fast = 0, slow = 0;
        if (opt.memory.size() > 2 || !compile::parse_budget(opt.memory[0], &fast, &slow) || fast == 0 ||
            (opt.memory.size() == 2 && (slow || !compile::parse_size(opt.memory[1], &slow) || slow == 0)) ||
            (!opt.flash.empty() && (!compile::parse_size(opt.flash, &flash) || flash == 0))) {
            std::cerr << "error: bad -m/-f sizes (use e.g. -m 64K, -m 64K+8M, -f 1M)\n";
            return kExitUsage;
        }
        compile::Options co;
        co.fast_budget = (uint32_t)fast;
        co.slow_budget = slow;
        co.model_name = std::filesystem::path(opt.model).stem().string();
        // The budgets: TFLite Micro's head, then 64K down to 8K.
        std::vector<uint32_t> budgets = {65536, 32768, 16384, 8192};
        if (rows.present && rows.arena_head > 0) budgets.push_back((uint32_t)rows.arena_head);
        try {
            schedule = compile::analyze(m, co, budgets);
        } catch (const import::ImportError &e) {
            report_refusal(e, false);
            return kExitRefused;
        }
    }
    if (opt.json) {
        nlohmann::json j;
        j["model"] = name;
        j["operators"] = ops;
        if (schedule) {
            j["tigris"] = compile::to_json(*schedule);
            if (flash && schedule->main_fits) j["tigris"]["flash_fits"] = schedule->main.plan_bytes <= flash;
        }
        j["tflite_micro"] = exporter::analyze_json(rows);
        std::cout << j.dump(2) << '\n';
        return kExitOk;
    }
    std::cout << name << "   " << ops << " operators\n";
    if (schedule) {
        std::cout << compile::to_text(*schedule, opt.verbose);
        if (flash && schedule->main_fits)
            std::cout << "  flash " << compile::kib(flash) << ": the plan "
                      << (schedule->main.plan_bytes <= flash ? "fits" : "does not fit") << '\n';
        // Total RAM against TFLite Micro's (head + persistent, docs/tflm-arena.md).
        const auto &before = rows.exported.before;
        if (schedule->main_fits && rows.present && rows.exported.have_before && before.tail > 0) {
            const uint64_t ours = (uint64_t)schedule->main.fast_required + schedule->main.slow_peak;
            char buf[48];
            std::snprintf(buf, sizeof buf, "%.2f", (double)ours / (double)before.total());
            std::cout << "  total RAM            " << compile::kib(ours) << "   fast + slow = " << buf
                      << "x TFLite Micro's head + persistent " << compile::kib((uint64_t)before.total()) << '\n';
        }
    }
    if (rows.present) std::cout << "\nmemory\n" << exporter::analyze_text(rows);
    return kExitOk;
}

const Registration reg{"analyze", "TFLite Micro memory rows of a TFLite model (arena, and what export saves)",
                       [](CLI::App &sub) {
                           auto opt = std::make_shared<Options>();
                           sub.add_option("model", opt->model, "TFLite model (.tflite)")->required();
                           sub.add_flag("--json", opt->json, "Print the rows as JSON (under tflite_micro and tigris)");
                           sub.add_option("-m,--memory", opt->memory,
                                          "Fast budget to schedule for, then optionally the slow one (64K, 64K+8M)");
                           sub.add_option("-f,--flash", opt->flash, "Flash budget the plan file must fit");
                           sub.add_flag("-v,--verbose", opt->verbose, "With -m: the per-stage table");
                           return std::function<int()>([opt] { return run(*opt); });
                       }};

}  // namespace
}  // namespace tigris::cli
