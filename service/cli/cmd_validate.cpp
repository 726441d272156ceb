// cmd_validate.cpp - `tigris validate PLAN --target T|all [--json]`: run the
// plan on emulated boards with the reference and the accelerated backend and
// check both give the host's bytes (docs/emu.md).
#include <csignal>
#include <fstream>
#include <iostream>
#include <iterator>
#include <mutex>
#include <unistd.h>

#include "command.hpp"
#include "tigris_host/validate.hpp"

namespace tigris::cli {
namespace {

struct ValidateCliOptions {
    std::string plan, input, firmware_dir, plugin;
    std::vector<std::string> targets;
    bool json = false;
    unsigned jobs = 0;
    unsigned timeout_ms = 60000;
};

volatile std::sig_atomic_t g_interrupted = 0;
void on_sigint(int) { g_interrupted = 1; }

bool slurp(const std::string &path, std::vector<uint8_t> &out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    return true;
}

int validate(const ValidateCliOptions &o) {
    std::vector<uint8_t> plan, input;
    if (!slurp(o.plan, plan)) {
        std::cerr << "error: cannot read " << o.plan << '\n';
        return kExitUsage;
    }
    std::string err;
    if (!host::resolve_targets(o.targets, err)) {
        std::cerr << "error: " << err << '\n';
        return kExitUsage;
    }
    if (!o.input.empty()) {
        if (!slurp(o.input, input)) {
            std::cerr << "error: cannot read " << o.input << '\n';
            return kExitUsage;
        }
    } else {
        auto in = host::pattern_input(plan, err);
        if (!in) {
            std::cerr << "error: " << err << '\n';
            return kExitRefused;
        }
        input = std::move(*in);
    }

    host::emu::Paths paths = host::emu::Paths::defaults();
    if (!o.firmware_dir.empty()) paths.firmware_dir = o.firmware_dir;
    if (!o.plugin.empty()) paths.plugin = o.plugin == "none" ? std::string() : o.plugin;
    host::emu::Fleet::Limits limits;
    limits.workers = o.jobs;
    limits.timeout = std::chrono::milliseconds(o.timeout_ms);
    host::emu::Fleet fleet(limits, paths);

    // Ctrl-C cancels: every QEMU is killed and reaped before we exit.
    g_interrupted = 0;
    auto old = std::signal(SIGINT, on_sigint);
    host::ValidateOptions vo;
    vo.targets = o.targets;
    vo.should_stop = [] { return g_interrupted != 0; };
    std::mutex out_m;
    if (isatty(STDERR_FILENO))
        vo.progress = [&out_m](const std::string &t, const std::string &stage) {
            std::lock_guard<std::mutex> lk(out_m);
            std::cerr << "  " << t << ": " << stage << '\n';
        };
    host::ValidateReport rep = host::validate_plan(fleet, plan, input, vo);
    std::signal(SIGINT, old);

    if (o.json) std::cout << host::validate_to_json(rep) << '\n';
    else std::cout << host::validate_to_text(rep);
    if (rep.cancelled) return 130;
    if (!rep.error.empty() && rep.results.empty()) return kExitUsage;
    for (const host::TargetResult &t : rep.results)
        if (!t.parity) return kExitRefused;
    return kExitOk;
}

const Registration reg{
    "validate", "Run a plan on emulated Cortex-M and Xtensa boards, accelerated vs reference vs host",
    [](CLI::App &sub) {
        auto o = std::make_shared<ValidateCliOptions>();
        sub.add_option("plan", o->plan, "Plan file (.tgrs)")->required();
        sub.add_option("--target", o->targets, "cortex-m4|cortex-m7|cortex-m55|xtensa-lx106|all (repeatable)")
            ->required();
        sub.add_option("--input", o->input, "Model inputs (raw bytes); default: the corpus pattern fill");
        sub.add_flag("--json", o->json, "Print {\"results\": [...]} as JSON");
        sub.add_option("--jobs", o->jobs, "Parallel QEMU processes (default: one per core)");
        sub.add_option("--timeout-ms", o->timeout_ms, "Timeout of each QEMU run")->check(CLI::Range(100u, 3600000u));
        sub.add_option("--firmware-dir", o->firmware_dir,
                       "Root of the firmware build trees (<dir>/<preset>/emu/tigris-emu-<board>.elf)");
        sub.add_option("--plugin", o->plugin,
                       "Instruction-count plugin (.so), or 'none' to count with the boards' cycle timers");
        return std::function<int()>([o] { return validate(*o); });
    }};

}  // namespace
}  // namespace tigris::cli
