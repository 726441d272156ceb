// cmd_codegen.cpp - `tigris codegen PLAN --backend B [--name N] -o DIR`: writes
// a standalone C harness for the plan (docs/codegen.md). Each kind of
// failure has its own exit code, so scripts can tell them apart.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "command.hpp"
#include "files.hpp"
#include "tigris_codegen/codegen.hpp"

namespace tigris::cli {

namespace {

enum CodegenExit : int {
    kCgBadPlan = 2,     // unreadable or refused by the runtime (kExitRefused)
    kCgBadBackend = 3,  // not one of the backend names
    kCgBadName = 4,     // --name is not a usable C identifier
    kCgBadDir = 5,      // the output directory cannot be created or written
    kCgMismatch = 6,    // the backend does not run this plan (float32 on an int8 backend)
};

struct CodegenOptions {
    std::string plan, backend = "s8", name = "model", out;
};

int exit_for(codegen::ErrorKind k) {
    switch (k) {
    case codegen::ErrorKind::BadPlan: return kCgBadPlan;
    case codegen::ErrorKind::BadBackend: return kCgBadBackend;
    case codegen::ErrorKind::BadName: return kCgBadName;
    case codegen::ErrorKind::PlanNotForBackend: return kCgMismatch;
    case codegen::ErrorKind::None: break;
    }
    return kExitUsage;
}

int run(const CodegenOptions &o) {
    // Names first: a bad backend or name is reported even for a bad plan.
    if (!codegen::parse_backend(o.backend)) {
        std::cerr << "error: unknown backend \"" << o.backend << "\"; choose one of " << codegen::backend_list()
                  << '\n';
        return kCgBadBackend;
    }
    if (auto why = codegen::check_name(o.name)) {
        std::cerr << "error: " << *why << '\n';
        return kCgBadName;
    }
    std::vector<uint8_t> bytes;
    if (!read_file(o.plan, bytes)) {
        std::cerr << "error: cannot read the plan " << o.plan << '\n';
        return kCgBadPlan;
    }
    codegen::Options opt;
    opt.backend = o.backend;
    opt.name = o.name;
    opt.plan_label = std::filesystem::path(o.plan).filename().string();
    const codegen::Result r = codegen::generate(bytes, opt);
    if (!r.ok()) {
        std::cerr << "error: " << o.plan << ": " << r.message << '\n';
        return exit_for(r.error);
    }
    if (auto err = codegen::write_files(o.out, r.files)) {
        std::cerr << "error: " << *err << '\n';
        return kCgBadDir;
    }
    for (const auto &file : r.files) std::cout << (std::filesystem::path(o.out) / file.name).string() << '\n';
    return kExitOk;
}

const Registration reg{
    "codegen", "Write a standalone C harness (plan array, arenas, run, POSIX main, CMake) for a plan",
    [](CLI::App &sub) {
        auto opt = std::make_shared<CodegenOptions>();
        sub.add_option("plan", opt->plan, "Plan file (.tgrs)")->required();
        sub.add_option("--backend", opt->backend, "Kernel backend: " + codegen::backend_list() + " (default s8)");
        sub.add_option("--name", opt->name, "C identifier prefixing the files and symbols (default model)");
        sub.add_option("-o,--output", opt->out, "Directory to write the harness into (created if missing)")
            ->required();
        sub.footer("Exit codes: 0 ok, 1 usage, 2 bad plan, 3 unknown backend, 4 bad --name, "
                   "5 output directory not writable, 6 plan not for the backend");
        return std::function<int()>([opt] { return run(*opt); });
    }};

}  // namespace
}  // namespace tigris::cli
