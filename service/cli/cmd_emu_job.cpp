// cmd_emu_job.cpp - `tigris emu-job DIR [--attempt N]` (hidden): run one
// staged emulated-device job (emu_stage.cpp) on this machine, the way the
// local pool runs it, and write DIR/result-N.json. This is what each Slurm
// job of the Slurm fleet executes on its node (docs/cluster.md).
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "command.hpp"
#include "tigris_host/emu.hpp"

namespace tigris::cli {
namespace {

std::atomic<bool> g_cancel{false};
void on_term(int) { g_cancel = true; }

int emu_job(const std::string &dir, unsigned attempt) {
    namespace emu = host::emu;
    emu::JobSpec spec;
    emu::Paths paths;
    std::chrono::milliseconds timeout{0};
    std::string err;
    emu::JobResult r;
    if (!emu::load_staged_job(dir, spec, paths, timeout, err)) {
        r.status = emu::JobResult::Status::Failed;
        r.error = err;
    } else {
        // scancel sends SIGTERM first: kill QEMU, report the cancellation.
        std::signal(SIGTERM, on_term);
        std::signal(SIGINT, on_term);
        r = emu::run_job(spec, paths, timeout, &g_cancel);
    }
    const std::string final_path = dir + "/result-" + std::to_string(attempt) + ".json";
    const std::string tmp = final_path + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary);
        f << emu::result_to_json(r);
        if (!f) {
            std::cerr << "error: cannot write " << tmp << '\n';
            return kExitUsage;
        }
    }
    // The watcher sees the whole file or none.
    if (std::rename(tmp.c_str(), final_path.c_str()) != 0) {
        std::cerr << "error: cannot rename " << tmp << '\n';
        return kExitUsage;
    }
    std::cout << "emu-job " << dir << " attempt " << attempt << ": " << emu::status_name(r.status)
              << (r.error.empty() ? "" : ": " + r.error) << '\n';
    return kExitOk;
}

const Registration reg{"emu-job", "", [](CLI::App &sub) {
                           auto dir = std::make_shared<std::string>();
                           auto attempt = std::make_shared<unsigned>(1);
                           sub.group("");  // internal: what a Slurm node runs
                           sub.add_option("dir", *dir, "Staged job directory")->required();
                           sub.add_option("--attempt", *attempt, "Attempt number (names the result file)");
                           return std::function<int()>([dir, attempt] { return emu_job(*dir, *attempt); });
                       }};

}  // namespace
}  // namespace tigris::cli
