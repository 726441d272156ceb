// emu_job.cpp - one plan run on one emulated board: lay out the load region,
// start QEMU in a private temporary directory, read back report and counts.
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "emu_process.hpp"
#include "tigris_emu_protocol.h"
#include "tigris_host/emu.hpp"

namespace tigris::host::emu {
namespace fs = std::filesystem;

namespace {

// Harness reports are small except for the outputs (hex: two characters a
// byte); anything far beyond the load region's size is a runaway guest.
constexpr size_t kMaxConsole = 64u << 20;
constexpr uint32_t kPlanOffset = 4096;  // descriptor page first

uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) & ~(a - 1); }

std::string hex(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%08x", v);
    return b;
}

bool write_file(const fs::path &p, const void *data, size_t n) {
    std::ofstream f(p, std::ios::binary);
    f.write(static_cast<const char *>(data), static_cast<std::streamsize>(n));
    return static_cast<bool>(f);
}

std::string slurp(const fs::path &p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::string tail(const std::string &s, size_t n) {
    std::string t = s.size() > n ? s.substr(s.size() - n) : s;
    // QEMU warns that the MPS2 boards' network card has no peer (-nic none
    // leaves the device in place); that line helps nobody.
    std::istringstream in(t);
    std::string line, out;
    while (std::getline(in, line))
        if (line.find("has no peer") == std::string::npos && !line.empty()) out += (out.empty() ? "" : "; ") + line;
    return out;
}

// A private directory for one run, removed when the run is over.
struct TempDir {
    fs::path path;
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "tigris-emu-XXXXXX").string();
        if (mkdtemp(tmpl.data())) path = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        if (!path.empty()) fs::remove_all(path, ec);
    }
};

// Turns the harness's refusal into a sentence naming the board.
std::string refusal_message(const Board &b, const JobResult &r) {
    const std::string where = b.target + " (" + b.board + ")";
    if (r.error_kind == "memory") return "the plan does not fit " + where + ": " + r.error;
    if (r.error_kind == "plan") return "the " + where + " image refuses the plan: " + r.error;
    if (r.error_kind == "no-accel") return "no accelerated backend in the " + where + " image: " + r.error;
    return where + ": " + r.error_kind + ": " + r.error;
}

}  // namespace

JobResult run_job(const JobSpec &spec, const Paths &paths, std::chrono::milliseconds default_timeout,
                  const std::atomic<bool> *cancel, const std::function<void()> &on_start) {
    JobResult r;
    auto t0 = std::chrono::steady_clock::now();
    const Board *b = find_board(spec.target);
    if (!b) {
        r.status = JobResult::Status::Unavailable;
        r.error = "unknown target '" + spec.target + "' (known: " + target_names() + ")";
        return r;
    }
    const std::string image = paths.image(*b);
    if (paths.firmware_dir.empty() || !fs::exists(image)) {
        r.status = JobResult::Status::Unavailable;
        r.error = "no firmware image for " + b->target + " at " + image + " (build it: cmake --preset " + b->preset +
                  " && cmake --build build/" + b->preset + " --target tigris_emu; or set TIGRIS_FIRMWARE_DIR)";
        return r;
    }
    const std::string qemu = find_program(b->qemu);
    if (qemu.empty()) {
        r.status = JobResult::Status::Unavailable;
        r.error = b->qemu + " is not installed (Debian: qemu-system-arm / qemu-system-misc)";
        return r;
    }

    // Load region: descriptor page, plan, inputs, then free scratch.
    const uint64_t plan_addr = b->load_base + kPlanOffset;
    const uint64_t input_addr = align_up(static_cast<uint32_t>(plan_addr + spec.plan.size()), 16);
    const uint64_t free_addr = align_up(static_cast<uint32_t>(input_addr + spec.input.size()), 64);
    const uint64_t load_end = static_cast<uint64_t>(b->load_base) + b->load_size;
    if (kPlanOffset + spec.plan.size() + spec.input.size() + 128 > b->load_size || free_addr >= load_end) {
        r.status = JobResult::Status::Refused;
        r.error_kind = "memory";
        r.error = "the plan does not fit " + b->target + " (" + b->board + "): plan and inputs take " +
                  std::to_string(kPlanOffset + spec.plan.size() + spec.input.size()) + " bytes; the board's load region has " +
                  std::to_string(b->load_size);
        return r;
    }
    tigris_emu_desc_t d;
    std::memset(&d, 0, sizeof d);
    d.magic = TIGRIS_EMU_MAGIC;
    d.version = TIGRIS_EMU_VERSION;
    d.backend = spec.backend == Backend::Accel    ? TIGRIS_EMU_BACKEND_ACCEL
                : spec.backend == Backend::Vendor ? TIGRIS_EMU_BACKEND_VENDOR
                                                  : TIGRIS_EMU_BACKEND_REF;
    d.flags = spec.op_counts ? TIGRIS_EMU_FLAG_OP_MARKS : 0;
    if ((paths.plugin.empty() || !fs::exists(paths.plugin)) && paths.timer_fallback) d.flags |= TIGRIS_EMU_FLAG_TIMER;
    d.debug = spec.debug;
    d.plan_addr = static_cast<uint32_t>(plan_addr);
    d.plan_size = static_cast<uint32_t>(spec.plan.size());
    d.input_addr = static_cast<uint32_t>(input_addr);
    d.input_size = static_cast<uint32_t>(spec.input.size());
    d.fast_size = spec.fast_size;
    d.slow_size = spec.slow_size;
    d.free_addr = static_cast<uint32_t>(free_addr);
    d.free_size = static_cast<uint32_t>(load_end - free_addr);

    TempDir dir;
    if (dir.path.empty() || !write_file(dir.path / "desc.bin", &d, sizeof d) ||
        !write_file(dir.path / "plan.tgrs", spec.plan.data(), spec.plan.size()) ||
        !write_file(dir.path / "input.bin", spec.input.data(), spec.input.size())) {
        r.status = JobResult::Status::Failed;
        r.error = "cannot write the run's files into a temporary directory";
        return r;
    }
    // QEMU splits option values at commas: paths with one cannot be passed.
    if (dir.path.string().find(',') != std::string::npos || image.find(',') != std::string::npos ||
        paths.plugin.find(',') != std::string::npos) {
        r.status = JobResult::Status::Failed;
        r.error = "a path contains a comma, which QEMU options cannot carry: " + image;
        return r;
    }

    std::vector<std::string> argv = {qemu};
    argv.insert(argv.end(), b->machine_args.begin(), b->machine_args.end());
    for (const char *a : {"-display", "none", "-nic", "none", "-monitor", "none", "-serial", "none", "-chardev",
                          "stdio,id=con", "-semihosting-config", "enable=on,target=native,chardev=con"})
        argv.emplace_back(a);
    const bool counting = !paths.plugin.empty() && fs::exists(paths.plugin);
    const bool timing = !counting && paths.timer_fallback;
    if (counting) {
        argv.emplace_back("-plugin");
        argv.push_back(paths.plugin + ",out=" + (dir.path / "counts.txt").string() + ",mark=" + TIGRIS_EMU_MARK_SYMBOL);
    } else if (timing) {
        // Virtual time = instructions (1 ns each), so the timer counts them.
        argv.emplace_back("-icount");
        argv.emplace_back("shift=0");
    }
    argv.emplace_back("-kernel");
    argv.push_back(image);
    auto load = [&](const char *file, uint64_t addr, size_t size) {
        if (!size) return;  // the loader device refuses empty files
        argv.emplace_back("-device");
        argv.push_back("loader,file=" + (dir.path / file).string() + ",addr=" + hex(static_cast<uint32_t>(addr)) +
                       ",force-raw=on");
    };
    load("desc.bin", b->load_base, sizeof d);
    load("plan.tgrs", plan_addr, spec.plan.size());
    load("input.bin", input_addr, spec.input.size());

    const auto timeout = spec.timeout.count() > 0 ? spec.timeout : default_timeout;
    ProcessResult p = run_process(argv, dir.path.string(), (dir.path / "console.txt").string(),
                                  (dir.path / "stderr.txt").string(),
                                  std::chrono::steady_clock::now() + timeout, cancel, kMaxConsole, on_start);
    r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.exit_code = p.exit_code;
    r.report = std::move(p.out);
    std::vector<uint16_t> log;
    std::vector<uint32_t> ticks;
    std::optional<uint64_t> run_ticks;
    parse_report(r.report, r, &log, &ticks, &run_ticks);
    if (counting && p.exit_code >= 0) apply_counts(slurp(dir.path / "counts.txt"), log, r);
    if (timing) apply_ticks(*b, log, ticks, run_ticks, r);

    const std::string where = b->target + " (" + b->board + ")";
    if (!p.started) {
        r.status = JobResult::Status::Failed;
        r.error = "could not start " + qemu + ": " + p.error;
    } else if (p.cancelled) {
        r.status = JobResult::Status::Cancelled;
        r.error = "cancelled; the QEMU process was killed";
    } else if (p.timed_out) {
        r.status = JobResult::Status::Timeout;
        r.error = "timed out after " + std::to_string(timeout.count()) + " ms on " + where + "; the QEMU process was killed";
    } else if (p.output_overflow) {
        r.status = JobResult::Status::Failed;
        r.error = "the " + where + " image wrote more than " + std::to_string(kMaxConsole) + " bytes; killed";
    } else if (p.exit_code == TIGRIS_EMU_EXIT_FAULT && r.fault_pc) {
        r.status = JobResult::Status::Fault;
        r.error = "the " + where + " image faulted at pc " + hex(*r.fault_pc);
    } else if (p.exit_code == TIGRIS_EMU_EXIT_OK && r.report.find("\n@end 0") != std::string::npos) {
        size_t total = 0;
        for (uint32_t s : r.output_sizes) total += s;
        if (total == r.outputs.size()) {
            r.status = JobResult::Status::Ok;
        } else {
            r.status = JobResult::Status::Failed;
            r.error = "the " + where + " report is incomplete (" + std::to_string(r.outputs.size()) + " of " +
                      std::to_string(total) + " output bytes)";
        }
    } else if (p.exit_code > 0 && p.exit_code < TIGRIS_EMU_EXIT_FAULT && !r.error_kind.empty()) {
        r.status = JobResult::Status::Refused;
        r.error = refusal_message(*b, r);
    } else {
        r.status = JobResult::Status::Failed;
        std::string why = p.term_signal ? "was killed by signal " + std::to_string(p.term_signal)
                                        : "exited with status " + std::to_string(p.exit_code);
        std::string err = tail(slurp(dir.path / "stderr.txt"), 600);
        r.error = "QEMU for " + where + " " + why + (err.empty() ? "" : ": " + err);
        if (p.exit_code == TIGRIS_EMU_EXIT_OK)
            r.error += " but the report has no end line (" + std::to_string(r.report.size()) + " bytes received)";
    }
    return r;
}

}  // namespace tigris::host::emu
