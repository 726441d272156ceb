// cmd_inspect.cpp - `tigris inspect PLAN [--json]`: what a plan holds and
// needs, or why the runtime refuses it.
#include <iostream>

#include "command.hpp"
#include "tigris_host/inspect.hpp"

namespace tigris::cli {
namespace {

struct Options {
    std::string plan;
    bool json = false;
};

int run(const Options &opt) {
    const host::InspectReport report = host::inspect_file(opt.plan);
    if (report.status.kind == host::Status::Kind::Io) {
        std::cerr << "error: " << report.status.message << '\n';
        return kExitUsage;
    }
    if (opt.json) {
        nlohmann::json j = host::to_json(report);
        j["path"] = opt.plan;
        std::cout << j.dump(2) << '\n';
    } else if (report.status.ok()) {
        std::cout << "plan      " << opt.plan << '\n' << host::to_text(report);
    }
    if (!report.status.ok()) {
        std::cerr << "error: " << report.status.name << ": " << report.status.message << '\n';
        // What the header claims often explains the refusal (an old schema,
        // a file cut short) without a hex dump.
        if (report.header)
            std::cerr << "note: header says " << (report.header->magic_ok ? "TGRS" : "no TGRS magic") << ", schema "
                      << report.header->version << ", " << report.header->file_size << " bytes; the file has "
                      << report.file_bytes << " bytes\n";
        return kExitRefused;
    }
    return kExitOk;
}

const Registration reg{"inspect", "Show what a plan holds and what it needs from a build", [](CLI::App &sub) {
                           auto opt = std::make_shared<Options>();
                           sub.add_option("plan", opt->plan, "Plan file (.tgrs)")->required();
                           sub.add_flag("--json", opt->json, "Print the report as JSON");
                           return std::function<int()>([opt] { return run(*opt); });
                       }};

}  // namespace
}  // namespace tigris::cli
