// cmd_export.cpp - `tigris export MODEL [-o OUTPUT] [--target ...] [--json]`:
// rewrite a TFLite model so TFLite Micro runs it in a smaller arena
// (../shared/seeds/export.txt; docs/export.md). When nothing lowers the
// arena, or the file is refused, it prints `Error: no model written:
// REASON`, writes no file and exits 1.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "command.hpp"
#include "files.hpp"
#include "tigris_export/export.hpp"

namespace tigris::cli {
namespace {

struct Options {
    std::string model, out, target = "arm-none-eabi";
    bool json = false;
};

// <model>_export.tflite next to the input.
std::string default_output(const std::string &model) {
    const std::filesystem::path p(model);
    return (p.parent_path() / (p.stem().string() + "_export.tflite")).string();
}

int run(const Options &opt) {
    const auto target = exporter::parse_target(opt.target);  // CLI11 checked the spelling
    std::vector<uint8_t> file;
    if (!read_file(opt.model, file)) {
        std::cerr << "Error: no model written: cannot read " << opt.model << '\n';
        return kExitUsage;
    }
    const std::string name = std::filesystem::path(opt.model).filename().string();
    const std::string out = opt.out.empty() ? default_output(opt.model) : opt.out;
    const exporter::ExportResult r = exporter::export_model(file, *target);

    nlohmann::json j;
    if (opt.json) {
        j = exporter::export_json(r);
        j["model"] = name;
    } else if (r.model_read) {
        std::cout << exporter::model_line(name, r);
    }
    if (!r.written) {
        if (opt.json) std::cout << j.dump(2) << '\n';
        std::cerr << "Error: no model written: " << r.reason << '\n';
        return kExitUsage;
    }
    if (!write_atomically(out, r.bytes)) {
        std::cerr << "Error: no model written: cannot write " << out << '\n';
        return kExitUsage;
    }
    if (opt.json) {
        j["output"] = out;
        std::cout << j.dump(2) << '\n';
    } else {
        std::cout << exporter::export_text(r, out);
    }
    return kExitOk;
}

const Registration reg{"export", "Rewrite a TFLite model so TFLite Micro runs it in a smaller arena",
                       [](CLI::App &sub) {
                           auto opt = std::make_shared<Options>();
                           sub.add_option("model", opt->model, "TFLite model")->required();
                           sub.add_option("-o,--output", opt->out,
                                          "Where to write the rewritten model; default <model>_export.tflite next to the input");
                           sub.add_option("--target", opt->target,
                                          "C ABI of the TFLite Micro build the arena is computed for")
                               ->check(CLI::IsMember({"arm-none-eabi", "ilp32", "lp64"}))
                               ->default_val("arm-none-eabi");
                           sub.add_flag("--json", opt->json, "Print the result as JSON");
                           return std::function<int()>([opt] { return run(*opt); });
                       }};

}  // namespace
}  // namespace tigris::cli
