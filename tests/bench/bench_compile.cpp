// `tigris compile` figures on the shared int8 models (docs/compile.md):
//
//   tigris_compile_bench [--min-ms T] [--models a,b,...] [--m4]
//
// For each model and budget (TFLite Micro's arena, 64K, 32K, 16K, 8K, the
// smallest that compiles): the declared fast arena, slow peak and traffic,
// stages/tiled/chains, compile time, host latency relative to the plan
// `tigris import` writes (one operator per stage), and whether the bytes
// equal TFLite Micro's on a seeded input. With --m4 also the instructions of
// one inference on the emulated Cortex-M4 (the cortex-m4 preset's image under
// QEMU, int8 reference and accelerated kernels), relative to the imported
// plan's, and the board's outputs against TFLite Micro's. Prints a Markdown
// table. Exit 1 on a byte mismatch or a failed run; 77 (skip) without TFLite
// Micro or the shared models.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "oracle_case.hpp"
#include "shared_data.h"
#include "tigris_compile/compile.hpp"
#include "tigris_host/emu.hpp"
#include "tigris_host/run.hpp"
#include "tigris_import/lower.hpp"

namespace {

using clk = std::chrono::steady_clock;

double ms_since(clk::time_point t0) { return std::chrono::duration<double, std::milli>(clk::now() - t0).count(); }

// Median wall time of one run over rounds of at least min_ms each.
double latency_ms(const std::vector<uint8_t> &plan, const std::vector<uint8_t> &in, double min_ms, bool *ok) {
    std::vector<double> rounds;
    for (int r = 0; r < 5; ++r) {
        int n = 0;
        const auto t0 = clk::now();
        do {
            const tigris::host::RunResult res = tigris::host::run_plan(plan, in);
            if (!res.ok()) *ok = false;
            ++n;
        } while (ms_since(t0) < min_ms);
        rounds.push_back(ms_since(t0) / n);
    }
    std::sort(rounds.begin(), rounds.end());
    return rounds[rounds.size() / 2];
}

// Instructions of one run on the emulated Cortex-M4 (0 when it did not run),
// and whether its outputs are `want`.
struct M4 {
    uint64_t ref = 0, accel = 0;
    bool same = true;
};
M4 on_m4(const std::vector<uint8_t> &plan, const std::vector<uint8_t> &in, const std::vector<uint8_t> &want) {
    namespace emu = tigris::host::emu;
    M4 m;
    for (emu::Backend be : {emu::Backend::Ref, emu::Backend::Accel}) {
        emu::JobSpec spec;
        spec.target = "cortex-m4";
        spec.plan = plan;
        spec.input = in;
        spec.backend = be;
        spec.op_counts = false;
        const emu::JobResult r = emu::run_job(spec, emu::Paths::defaults(), std::chrono::minutes(10));
        if (!r.ok() || !r.run_instructions) {
            std::fprintf(stderr, "cortex-m4 (%s): %s\n", be == emu::Backend::Ref ? "s8" : "accel", r.error.c_str());
            m.same = false;
            continue;
        }
        m.same = m.same && r.outputs == want;
        (be == emu::Backend::Ref ? m.ref : m.accel) = *r.run_instructions;
    }
    return m;
}

std::string ratio(uint64_t a, uint64_t b) {
    if (!a || !b) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", (double)a / (double)b);
    return buf;
}

}  // namespace

int main(int argc, char **argv) {
    using namespace tigris;
    double min_ms = 50;
    std::string only;
    bool m4 = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--min-ms") && i + 1 < argc) min_ms = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--models") && i + 1 < argc) only = argv[++i];
        else if (!std::strcmp(argv[i], "--m4")) m4 = true;
    }
    if (!oracle::have_tflm() || !tigris_test::shared_available()) {
        std::fprintf(stderr, "skipped: needs TFLite Micro (%s) and the shared models\n", oracle::tflm_missing_reason());
        return 77;
    }
    int failures = 0;
    std::printf("| model | budget | fast declared | slow peak | slow traffic | stages / tiled / chains | compile ms | latency vs import | = TFLite Micro |%s\n",
                m4 ? " M4 s8 instr. vs import | M4 accel vs import |" : "");
    std::printf("|---|---:|---:|---:|---:|---|---:|---:|---|%s\n", m4 ? "---:|---:|" : "");
    for (const auto &path : tigris_test::shared_models()) {
        const std::string name = path.stem().string();
        if (!only.empty() && ("," + only + ",").find("," + name + ",") == std::string::npos) continue;
        const std::vector<uint8_t> file = tigris_test::read_file(path);
        const oracle::ModelCase mc = oracle::case_of_model(name, file, 1);
        if (!mc.ok) continue;
        const oracle::OracleRun want = oracle::run_tflm(file, mc.c.input);
        const tflite::Model m = tflite::read_model(file);
        import::Result imp;
        try {
            imp = import::import_model(m, import::Options{});
        } catch (const import::ImportError &e) {
            std::printf("| %s | | refused: %s | | | | | | |\n", name.c_str(), e.what());
            continue;
        }
        bool ok = true;
        const double base_ms = latency_ms(imp.plan, mc.c.input, min_ms, &ok);
        const M4 base_m4 = m4 ? on_m4(imp.plan, mc.c.input, want.output) : M4{};
        compile::Options o;
        const uint32_t floor = compile::smallest_budget(m, o);
        std::vector<uint32_t> budgets = {(uint32_t)want.arena_used_bytes, 65536, 32768, 16384, 8192};
        if (floor) budgets.push_back(floor);
        for (uint32_t b : budgets) {
            o.fast_budget = b;
            const auto t0 = clk::now();
            compile::Result res;
            try {
                res = compile::compile_model(m, o);
            } catch (const compile::BudgetError &) {
                std::printf("| %s | %u | below the floor (%u) | | | | | | |\n", name.c_str(), b, floor);
                continue;
            }
            const double compile_ms = ms_since(t0);
            const host::RunResult r = host::run_plan(res.plan, mc.c.input);
            const bool same = r.ok() && want.ok && r.outputs == want.output;
            failures += !same;
            const double ms = latency_ms(res.plan, mc.c.input, min_ms, &ok);
            const compile::Report &rep = res.report;
            std::string m4_cols;
            if (m4) {
                const M4 c = on_m4(res.plan, mc.c.input, want.output);
                failures += !c.same;
                m4_cols = " " + ratio(c.ref, base_m4.ref) + " | " + ratio(c.accel, base_m4.accel) + " |";
            }
            std::printf("| %s | %u%s | %u | %u | %llu | %u / %u / %u | %.0f | %.2f | %s |%s\n", name.c_str(), b,
                        b == floor ? " (floor)" : b == want.arena_used_bytes ? " (TFLM)" : "", rep.fast_required,
                        rep.slow_peak, (unsigned long long)(rep.loads_bytes + rep.spills_bytes), rep.stages, rep.tiled,
                        rep.chains, compile_ms, ms / base_ms, same ? "yes" : "NO", m4_cols.c_str());
        }
        failures += !ok;
        std::fflush(stdout);
    }
    return failures ? 1 : 0;
}
