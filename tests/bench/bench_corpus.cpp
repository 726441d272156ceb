// bench_corpus.cpp - per corpus plan: wall time of one inference
// (tigris_run_with_workspace_buffer only; arenas and inputs are set up outside
// the timed region), and how much of it is spent outside the kernels. The
// kernel time is measured by wrapping the dispatcher through the executor's
// kernel hook, so the executor itself is unchanged; the two clock reads per
// call are charged to the kernels' side to keep the "outside" figure honest
// (it can only be overstated by the timer's own cost, not understated).
//
// A second family, "run/<plan>.<input>", times the plain run (the dispatcher called
// directly, no hook) and reports the fastest single run as min_run_us: the
// native side of the wasm/native ratio (web/tests/bench_run.mjs), which times
// the very same call inside the wasm module. Minima, because the machine the
// figures come from is shared.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "shared_data.h"

extern "C" {
#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_iface.h"
#include "tigris_kernels.h"
#include "tigris_loader.h"
#include "tigris_mem.h"
}

namespace {

using Clock = std::chrono::steady_clock;

struct KernelTimer {
    tigris_kernel_fn inner = nullptr;
    Clock::duration in_kernels{};
    uint64_t calls = 0;
};

int timed_kernel(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem, void *ctx) {
    auto *kt = static_cast<KernelTimer *>(ctx);
    const auto t0 = Clock::now();
    const int rc = kt->inner(plan, op, op_index, mem, nullptr);
    kt->in_kernels += Clock::now() - t0;
    kt->calls++;
    return rc;
}

struct Fixture {
    std::vector<uint8_t> bytes, input;
    tigris_plan_t plan{};
    uint32_t fast_size = 0, slow_size = 0;
    uint8_t *fast = nullptr, *slow = nullptr;
    std::vector<void *> ptrs;
    std::vector<uint8_t> ws;
    tigris_kernel_fn kernel = nullptr;

    bool setup(const std::string &c, std::string &why) {
        const auto dir = tigris_test::shared_dir() / "corpus";
        bytes = tigris_test::read_file(dir / (c + ".tgrs"));
        input = tigris_test::read_file(dir / (c + ".input.bin"));
        if (bytes.empty() || tigris_plan_load(bytes.data(), static_cast<uint32_t>(bytes.size()), &plan) != TIGRIS_OK) {
            why = "cannot load " + c;
            return false;
        }
        fast_size = tigris_fast_arena_required(&plan);
        slow_size = 4096;
        for (uint32_t t = 0; t < plan.header->num_tensors; t++) slow_size += 2 * (plan.tensors[t].size_bytes + 64);
        fast = static_cast<uint8_t *>(::operator new(fast_size, std::align_val_t(64)));
        slow = static_cast<uint8_t *>(::operator new(slow_size, std::align_val_t(64)));
        ptrs.assign(plan.header->num_tensors, nullptr);
        ws.resize(tigris_executor_workspace_required(&plan));
        kernel = tigris_plan_data_dtype(&plan) == TIGRIS_DTYPE_INT8 ? tigris_dispatch_kernel_s8 : tigris_dispatch_kernel;
        return true;
    }
    ~Fixture() {
        if (fast) ::operator delete(fast, std::align_val_t(64));
        if (slow) ::operator delete(slow, std::align_val_t(64));
    }
    // Fresh arenas and inputs for one run (not timed).
    bool prepare(tigris_mem_t &mem) {
        std::fill(ptrs.begin(), ptrs.end(), nullptr);
        if (tigris_mem_init(&mem, ptrs.data(), plan.header->num_tensors, fast, fast_size, slow, slow_size) != TIGRIS_MEM_OK)
            return false;
        size_t at = 0;
        for (uint32_t i = 0; i < plan.header->num_model_inputs; i++) {
            const uint16_t t = plan.model_inputs[i];
            const uint32_t n = tigris_iface_bytes(&plan, t);
            if (tigris_input_write(&plan, &mem, t, input.data() + at, n) != TIGRIS_OK) return false;
            at += n;
        }
        return true;
    }
};

void BM_Run(benchmark::State &state, const std::string &c, bool hooked) {
    if (!tigris_test::shared_available()) {
        state.SkipWithError("shared corpus not found (set TIGRIS_SHARED_DIR)");
        return;
    }
    Fixture f;
    std::string why;
    if (!f.setup(c, why)) {
        state.SkipWithError(why.c_str());
        return;
    }
    KernelTimer kt;
    kt.inner = f.kernel;
    const tigris_kernel_fn kernel = hooked ? timed_kernel : f.kernel;
    void *const kernel_ctx = hooked ? &kt : nullptr;
    Clock::duration total{}, fastest = Clock::duration::max();
    for (auto _ : state) {
        state.PauseTiming();
        tigris_mem_t mem;
        if (!f.prepare(mem)) {
            state.SkipWithError("input placement failed");
            return;
        }
        tigris_exec_stats_t stats{};
        state.ResumeTiming();
        const auto t0 = Clock::now();
        const tigris_exec_error_t e =
            tigris_run_with_workspace_buffer(&f.plan, &mem, kernel, kernel_ctx, &stats, f.ws.data(), f.ws.size());
        const auto took = Clock::now() - t0;
        total += took;
        fastest = std::min(fastest, took);
        if (e != TIGRIS_EXEC_OK) {
            state.SkipWithError(tigris_exec_error_str(e));
            return;
        }
    }
    const double tot = std::chrono::duration<double>(total).count();
    const double ker = std::chrono::duration<double>(kt.in_kernels).count();
    const double runs = static_cast<double>(state.iterations());
    state.counters["run_us"] = runs > 0 ? 1e6 * tot / runs : 0;
    if (runs > 0) state.counters["min_run_us"] = 1e6 * std::chrono::duration<double>(fastest).count();
    if (!hooked) return;
    state.counters["kernel_calls"] = runs > 0 ? static_cast<double>(kt.calls) / runs : 0;
    state.counters["outside_kernels_pct"] = tot > 0 ? 100.0 * (tot - ker) / tot : 0;
}

const int kRegistered = [] {
    for (const char *p : {"pool_chain_v5", "linebuf_conv_chain_v5", "linebuf_conv_sig_chain_v5",
                          "linebuf_s8_conv_sig_chain_v5"}) {
        const std::string c = std::string(p) + ".pattern";
        benchmark::RegisterBenchmark(p, [c](benchmark::State &s) { BM_Run(s, c, true); })
            ->Unit(benchmark::kMicrosecond);
        for (const char *input : {"pattern", "random"}) {
            const std::string ci = std::string(p) + "." + input;
            benchmark::RegisterBenchmark(("run/" + ci).c_str(), [ci](benchmark::State &s) { BM_Run(s, ci, false); })
                ->Unit(benchmark::kMicrosecond);
        }
    }
    return 0;
}();

}  // namespace

BENCHMARK_MAIN();
