// test_arena_sweep.cpp - every corpus plan with its fast arena cut from 100 %
// to 50 % of tigris_fast_arena_required in 5 % steps: either the outputs are
// the reference bytes, or the run says ERR_MEM - and in both cases nothing is
// written outside the two arenas and mem's counters stay inside them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <iostream>
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

constexpr size_t kGuard = 256;  // a multiple of 64 keeps the arena aligned
constexpr uint8_t kGuardByte = 0xCD;

// An arena with guard zones on both sides, 64-byte aligned in between.
struct GuardedArena {
    explicit GuardedArena(size_t n)
        : size(n), raw(static_cast<uint8_t *>(::operator new(n + 2 * kGuard, std::align_val_t(64)))) {
        std::memset(raw, kGuardByte, n + 2 * kGuard);
    }
    ~GuardedArena() { ::operator delete(raw, std::align_val_t(64)); }
    GuardedArena(const GuardedArena &) = delete;
    GuardedArena &operator=(const GuardedArena &) = delete;
    uint8_t *p() const { return raw + kGuard; }
    // Index of the first touched guard byte, or -1.
    long touched_guard() const {
        for (size_t i = 0; i < kGuard; i++) {
            if (raw[i] != kGuardByte) return static_cast<long>(i);
            if (raw[kGuard + size + i] != kGuardByte) return static_cast<long>(kGuard + size + i);
        }
        return -1;
    }
    size_t size;
    uint8_t *raw;
};

struct Outcome {
    tigris_exec_error_t err = TIGRIS_EXEC_OK;
    std::vector<uint8_t> outputs;
};

Outcome run_at(const std::vector<uint8_t> &bytes, const std::vector<uint8_t> &input, uint32_t fast_size,
               const std::string &what) {
    Outcome out;
    tigris_plan_t plan;
    EXPECT_EQ(tigris_plan_load(bytes.data(), static_cast<uint32_t>(bytes.size()), &plan), TIGRIS_OK) << what;
    uint32_t slow_size = 4096;
    for (uint32_t t = 0; t < plan.header->num_tensors; t++) slow_size += 2 * (plan.tensors[t].size_bytes + 64);
    GuardedArena fast(fast_size), slow(slow_size);
    std::vector<void *> ptrs(plan.header->num_tensors, nullptr);
    tigris_mem_t mem;
    EXPECT_EQ(tigris_mem_init(&mem, ptrs.data(), plan.header->num_tensors, fast.p(), fast_size, slow.p(), slow_size),
              TIGRIS_MEM_OK)
        << what;
    size_t at = 0;
    for (uint32_t i = 0; i < plan.header->num_model_inputs; i++) {
        const uint16_t t = plan.model_inputs[i];
        const uint32_t n = tigris_iface_bytes(&plan, t);
        EXPECT_EQ(tigris_input_write(&plan, &mem, t, input.data() + at, n), TIGRIS_OK) << what;
        at += n;
    }
    std::vector<uint8_t> ws(tigris_executor_workspace_required(&plan));
    tigris_kernel_fn k =
        tigris_plan_data_dtype(&plan) == TIGRIS_DTYPE_INT8 ? tigris_dispatch_kernel_s8 : tigris_dispatch_kernel;
    tigris_exec_stats_t stats{};
    out.err = tigris_run_with_workspace_buffer(&plan, &mem, k, nullptr, &stats, ws.data(), ws.size());

    EXPECT_EQ(fast.touched_guard(), -1) << what << ": fast arena guard written";
    EXPECT_EQ(slow.touched_guard(), -1) << what << ": slow arena guard written";
    // The memory manager's documented invariants hold whatever the outcome.
    EXPECT_LE(mem.fast_used, mem.fast_size) << what;
    EXPECT_LE(mem.fast_reserved, mem.fast_used) << what;
    EXPECT_LE(mem.fast_peak, fast_size) << what;
    EXPECT_LE(mem.slow_used, mem.slow_size) << what;
    EXPECT_LE(mem.slow_peak, slow_size) << what;
    EXPECT_EQ(mem.fast_base, fast.p()) << what;
    EXPECT_EQ(mem.fast_size, fast_size) << what;
    // Every placed tensor pointer lies inside one of the arenas or the input.
    for (uint32_t t = 0; t < plan.header->num_tensors; t++) {
        const uint8_t *q = static_cast<const uint8_t *>(ptrs[t]);
        if (!q) continue;
        const bool in_fast = q >= fast.p() && q + plan.tensors[t].size_bytes <= fast.p() + fast_size;
        const bool in_slow = q >= slow.p() && q + plan.tensors[t].size_bytes <= slow.p() + slow_size;
        const bool in_input = q >= input.data() && q < input.data() + input.size();
        EXPECT_TRUE(in_fast || in_slow || in_input || out.err != TIGRIS_EXEC_OK) << what << ": tensor " << t;
    }
    if (out.err == TIGRIS_EXEC_OK) {
        for (uint32_t i = 0; i < plan.header->num_model_outputs; i++) {
            const uint16_t t = plan.model_outputs[i];
            const uint32_t n = tigris_iface_bytes(&plan, t);
            const size_t base = out.outputs.size();
            out.outputs.resize(base + n);
            EXPECT_EQ(tigris_output_read(&plan, &mem, t, out.outputs.data() + base, n), TIGRIS_OK) << what;
        }
    }
    return out;
}

TEST(ArenaSweep, EveryCorpusPlanFrom100To50Percent) {
    TIGRIS_REQUIRE_SHARED();
    const auto dir = tigris_test::shared_dir() / "corpus";
    size_t ok_runs = 0, mem_runs = 0;
    for (const char *p : {"pool_chain_v5", "linebuf_conv_chain_v5", "linebuf_conv_sig_chain_v5",
                          "linebuf_s8_conv_sig_chain_v5"}) {
        for (const char *v : {"pattern", "random"}) {
            const std::string c = std::string(p) + "." + v;
            const std::vector<uint8_t> bytes = tigris_test::read_file(dir / (c + ".tgrs"));
            const std::vector<uint8_t> input = tigris_test::read_file(dir / (c + ".input.bin"));
            const std::vector<uint8_t> expected = tigris_test::read_file(dir / (c + ".expected.bin"));
            tigris_plan_t plan;
            ASSERT_EQ(tigris_plan_load(bytes.data(), static_cast<uint32_t>(bytes.size()), &plan), TIGRIS_OK) << c;
            const uint32_t req = tigris_fast_arena_required(&plan);
            for (int pct = 100; pct >= 50; pct -= 5) {
                const uint32_t fast = static_cast<uint32_t>(uint64_t(req) * pct / 100);
                const std::string what = c + " at " + std::to_string(pct) + "% (" + std::to_string(fast) + " bytes)";
                const Outcome o = run_at(bytes, input, fast, what);
                if (o.err == TIGRIS_EXEC_OK) {
                    ok_runs++;
                    EXPECT_TRUE(o.outputs == expected) << what << ": ran but outputs differ";
                } else {
                    mem_runs++;
                    EXPECT_EQ(o.err, TIGRIS_EXEC_ERR_MEM) << what << ": " << tigris_exec_error_str(o.err);
                }
                if (pct == 100) EXPECT_EQ(o.err, TIGRIS_EXEC_OK) << what << ": the plan's own requirement must run";
            }
        }
    }
    std::cout << "[ sweep ] " << ok_runs << " runs matched, " << mem_runs << " returned ERR_MEM\n";
}

}  // namespace
