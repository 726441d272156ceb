// cmd_analyze.cpp - `tigris analyze MODEL.tflite [--json]`: the TFLite Micro
// memory rows of a TFLite model: the arena TFLM's planner places (plus the
// reduction kernels' scratch) and what `tigris export` would save on
// arm-none-eabi, without writing a file (../shared/seeds/export.txt, "In
// analyze"). A model export does not read or model gets neither row.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "command.hpp"
#include "tigris_export/export.hpp"

namespace tigris::cli {
namespace {

struct Options {
    std::string model;
    bool json = false;
};

int run(const Options &opt) {
    std::ifstream in(opt.model, std::ios::binary);
    if (!in) {
        std::cerr << "error: cannot read " << opt.model << '\n';
        return kExitUsage;
    }
    const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
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
    if (opt.json) {
        nlohmann::json j;
        j["model"] = name;
        j["operators"] = ops;
        j["tflite_micro"] = exporter::analyze_json(rows);
        std::cout << j.dump(2) << '\n';
        return kExitOk;
    }
    std::cout << name << "   " << ops << " operators\n";
    if (rows.present) std::cout << "\nmemory\n" << exporter::analyze_text(rows);
    return kExitOk;
}

const Registration reg{"analyze", "TFLite Micro memory rows of a TFLite model (arena, and what export saves)",
                       [](CLI::App &sub) {
                           auto opt = std::make_shared<Options>();
                           sub.add_option("model", opt->model, "TFLite model (.tflite)")->required();
                           sub.add_flag("--json", opt->json, "Print the rows as JSON (under tflite_micro)");
                           return std::function<int()>([opt] { return run(*opt); });
                       }};

}  // namespace
}  // namespace tigris::cli
