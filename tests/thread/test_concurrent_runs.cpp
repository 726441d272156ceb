// test_concurrent_runs.cpp - four threads run the corpus plans many times at
// once, each with its own workspace, arenas and tensor table (the re-entrant
// entry point): every run gives the reference bytes. Under TSan (host-tsan
// preset) this also proves the core shares no mutable state between runs.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <thread>
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

struct Case {
    std::vector<uint8_t> plan, input, expected;
};

// One complete inference with storage private to the calling thread. The plan
// bytes are shared read-only between threads, as on a device.
bool run_once(const Case &c, std::string &why) {
    tigris_plan_t plan;
    if (tigris_plan_load(c.plan.data(), static_cast<uint32_t>(c.plan.size()), &plan) != TIGRIS_OK) {
        why = "load failed";
        return false;
    }
    const uint32_t fast_size = tigris_fast_arena_required(&plan);
    uint32_t slow_size = 4096;
    for (uint32_t t = 0; t < plan.header->num_tensors; t++) slow_size += 2 * (plan.tensors[t].size_bytes + 64);
    auto *fast = static_cast<uint8_t *>(::operator new(fast_size, std::align_val_t(64)));
    auto *slow = static_cast<uint8_t *>(::operator new(slow_size, std::align_val_t(64)));
    std::vector<void *> ptrs(plan.header->num_tensors, nullptr);
    std::vector<uint8_t> ws(tigris_executor_workspace_required(&plan));
    std::vector<uint8_t> out;
    bool ok = false;
    tigris_mem_t mem;
    if (tigris_mem_init(&mem, ptrs.data(), plan.header->num_tensors, fast, fast_size, slow, slow_size) == TIGRIS_MEM_OK) {
        size_t at = 0;
        ok = true;
        for (uint32_t i = 0; ok && i < plan.header->num_model_inputs; i++) {
            const uint16_t t = plan.model_inputs[i];
            const uint32_t n = tigris_iface_bytes(&plan, t);
            ok = tigris_input_write(&plan, &mem, t, c.input.data() + at, n) == TIGRIS_OK;
            at += n;
        }
        tigris_kernel_fn k =
            tigris_plan_data_dtype(&plan) == TIGRIS_DTYPE_INT8 ? tigris_dispatch_kernel_s8 : tigris_dispatch_kernel;
        tigris_exec_stats_t stats{};
        tigris_exec_error_t e = ok ? tigris_run_with_workspace_buffer(&plan, &mem, k, nullptr, &stats, ws.data(), ws.size())
                                   : TIGRIS_EXEC_ERR_NULL;
        if (e != TIGRIS_EXEC_OK) {
            why = std::string("run: ") + tigris_exec_error_str(e);
            ok = false;
        }
        for (uint32_t i = 0; ok && i < plan.header->num_model_outputs; i++) {
            const uint16_t t = plan.model_outputs[i];
            const uint32_t n = tigris_iface_bytes(&plan, t);
            const size_t base = out.size();
            out.resize(base + n);
            ok = tigris_output_read(&plan, &mem, t, out.data() + base, n) == TIGRIS_OK;
        }
        if (ok && out != c.expected) {
            why = "outputs differ";
            ok = false;
        }
    } else {
        why = "mem init failed";
    }
    ::operator delete(fast, std::align_val_t(64));
    ::operator delete(slow, std::align_val_t(64));
    return ok;
}

TEST(ThreadedRuns, FourThreadsCorpusPlansIdenticalOutputs) {
    TIGRIS_REQUIRE_SHARED();
    const auto dir = tigris_test::shared_dir() / "corpus";
    std::vector<Case> cases;
    for (const char *p : {"pool_chain_v5", "linebuf_conv_chain_v5", "linebuf_conv_sig_chain_v5",
                          "linebuf_s8_conv_sig_chain_v5"})
        for (const char *v : {"pattern", "random"}) {
            const std::string c = std::string(p) + "." + v;
            cases.push_back(Case{tigris_test::read_file(dir / (c + ".tgrs")), tigris_test::read_file(dir / (c + ".input.bin")),
                                 tigris_test::read_file(dir / (c + ".expected.bin"))});
        }
    constexpr int kThreads = 4, kRounds = 6;
    std::atomic<int> failures{0}, runs{0};
    std::vector<std::string> first_failure(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++)
        threads.emplace_back([&, t] {
            for (int r = 0; r < kRounds; r++)
                // Each thread starts at a different case so different plans
                // (float and int8 dispatchers) overlap in time.
                for (size_t i = 0; i < cases.size(); i++) {
                    const Case &c = cases[(i + static_cast<size_t>(t) * 2) % cases.size()];
                    std::string why;
                    if (!run_once(c, why)) {
                        if (failures++ == 0 || first_failure[t].empty()) first_failure[t] = why;
                    }
                    runs++;
                }
        });
    for (auto &th : threads) th.join();
    EXPECT_EQ(runs.load(), kThreads * kRounds * static_cast<int>(cases.size()));
    EXPECT_EQ(failures.load(), 0);
    for (int t = 0; t < kThreads; t++) EXPECT_TRUE(first_failure[t].empty()) << "thread " << t << ": " << first_failure[t];
}

}  // namespace
