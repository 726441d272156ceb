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
#include "files.hpp"
#include "fleet_options.hpp"
#include "tigris_host/validate.hpp"

namespace tigris::cli {
namespace {

struct ValidateCliOptions {
    std::vector<std::string> plans;
    std::string input, firmware_dir, plugin, backend = "all";
    FleetCliOptions fleet;
    std::vector<std::string> targets;
    bool json = false;
    unsigned jobs = 0;
    unsigned timeout_ms = 60000;
};

volatile std::sig_atomic_t g_interrupted = 0;
void on_sigint(int) { g_interrupted = 1; }

int validate(const ValidateCliOptions &o) {
    std::string err;
    if (!host::resolve_targets(o.targets, err)) {
        std::cerr << "error: " << err << '\n';
        return kExitUsage;
    }
    std::vector<uint8_t> given_input;
    if (!o.input.empty() && !read_file(o.input, given_input)) {
        std::cerr << "error: cannot read " << o.input << '\n';
        return kExitUsage;
    }
    std::vector<host::MatrixPlan> plans;
    for (const std::string &path : o.plans) {
        host::MatrixPlan p;
        p.name = path;
        if (!read_file(path, p.plan)) {
            std::cerr << "error: cannot read " << path << '\n';
            return kExitUsage;
        }
        if (!o.input.empty()) {
            p.input = given_input;
        } else {
            auto in = host::pattern_input(p.plan, err);
            if (!in) {
                std::cerr << "error: " << path << ": " << err << '\n';
                return kExitRefused;
            }
            p.input = std::move(*in);
        }
        plans.push_back(std::move(p));
    }

    host::emu::FleetConfig fc;
    if (!o.firmware_dir.empty()) fc.paths.firmware_dir = o.firmware_dir;
    if (!o.plugin.empty()) fc.paths.plugin = o.plugin == "none" ? std::string() : o.plugin;
    fc.limits.workers = o.jobs;
    fc.limits.timeout = std::chrono::milliseconds(o.timeout_ms);
    apply_fleet_options(o.fleet, fc);
    std::unique_ptr<host::emu::Executor> fleet = host::emu::make_executor(fc, err);
    if (!fleet) {
        std::cerr << "error: " << err << '\n';
        return kExitUsage;
    }

    // Ctrl-C cancels: every QEMU is killed and reaped (every Slurm job
    // scancelled) before we exit.
    g_interrupted = 0;
    auto old = std::signal(SIGINT, on_sigint);
    host::ValidateOptions vo;
    vo.targets = o.targets;
    if (o.backend == "ref") vo.backends = {host::emu::Backend::Ref};
    else if (o.backend == "accel") vo.backends = {host::emu::Backend::Accel};
    vo.should_stop = [] { return g_interrupted != 0; };
    std::mutex out_m;
    const bool matrix = plans.size() > 1;
    if (isatty(STDERR_FILENO))
        vo.plan_progress = [&out_m, &plans, matrix](size_t i, const std::string &t, const std::string &stage) {
            std::lock_guard<std::mutex> lk(out_m);
            std::cerr << "  " << (matrix ? plans[i].name + " " : std::string()) << t << ": " << stage << '\n';
        };
    host::MatrixReport rep = host::validate_matrix(*fleet, plans, vo);
    fleet.reset();  // a Slurm fleet scancels what is left
    std::signal(SIGINT, old);

    if (!matrix) {
        host::ValidateReport &one = rep.plans.front();
        if (o.json) std::cout << host::validate_to_json(one) << '\n';
        else std::cout << host::validate_to_text(one);
        if (rep.cancelled) return 130;
        if (!one.error.empty() && one.results.empty()) return kExitUsage;
    } else {
        if (o.json) std::cout << host::matrix_to_json(rep) << '\n';
        else std::cout << host::matrix_to_text(rep);
        if (rep.cancelled) return 130;
    }
    for (const host::ValidateReport &p : rep.plans)
        for (const host::TargetResult &t : p.results)
            if (!t.parity) return kExitRefused;
    return kExitOk;
}

const Registration reg{
    "validate", "Run a plan on emulated Cortex-M and Xtensa boards, accelerated vs reference vs host",
    [](CLI::App &sub) {
        auto o = std::make_shared<ValidateCliOptions>();
        sub.add_option("plan", o->plans, "Plan files (.tgrs); several make a matrix with a summary table")->required();
        sub.add_option("--target", o->targets, "cortex-m4|cortex-m7|cortex-m55|xtensa-lx106|all (repeatable)")
            ->required();
        sub.add_option("--input", o->input, "Model inputs (raw bytes); default: the corpus pattern fill");
        sub.add_option("--backend", o->backend, "ref|accel|all: the backends to run on each board")
            ->check(CLI::IsMember({"ref", "accel", "all"}))
            ->default_val(o->backend);
        sub.add_flag("--json", o->json, "Print {\"results\": [...]} as JSON ({\"plans\": [...]} for several plans)");
        sub.add_option("--jobs", o->jobs, "Parallel QEMU processes (default: one per core)");
        sub.add_option("--timeout-ms", o->timeout_ms, "Timeout of each QEMU run")->check(CLI::Range(100u, 3600000u));
        sub.add_option("--firmware-dir", o->firmware_dir,
                       "Root of the firmware build trees (<dir>/<preset>/emu/tigris-emu-<board>.elf)");
        sub.add_option("--plugin", o->plugin,
                       "Instruction-count plugin (.so), or 'none' to count with the boards' cycle timers");
        add_fleet_options(sub, o->fleet);
        return std::function<int()>([o] { return validate(*o); });
    }};

}  // namespace
}  // namespace tigris::cli
