// Instruction counts from the count plugin: exact (the same run counts the
// same twice), per op where the harness brackets kernel calls, and the
// per-op counts add up within the run's count.
#include <gtest/gtest.h>

#include <filesystem>

#include "emu_test_support.h"
#include "shared_data.h"

namespace {

namespace emu = tigris::host::emu;

TEST(EmuCounts, ExactPerRunAndPerOp) {
    TIGRIS_REQUIRE_SHARED();
    EMU_REQUIRE("cortex-m4");
    EMU_REQUIRE("xtensa-lx106");
    const emu::Paths paths = emu::Paths::defaults();
    if (paths.plugin.empty() || !std::filesystem::exists(paths.plugin))
        GTEST_SKIP() << "the count plugin was not built (no qemu-plugin.h; see docs/emu.md)";
    for (const char *target : {"cortex-m4", "xtensa-lx106"}) {
        emu::JobSpec s;
        s.target = target;
        s.plan = emu_test::corpus("linebuf_s8_conv_sig_chain_v5.pattern.tgrs");
        s.input = emu_test::corpus("linebuf_s8_conv_sig_chain_v5.pattern.input.bin");
        emu::JobResult a = emu::run_job(s, paths, std::chrono::seconds(60));
        emu::JobResult b = emu::run_job(s, paths, std::chrono::seconds(60));
        ASSERT_TRUE(a.ok() && b.ok()) << a.error << b.error;
        ASSERT_TRUE(a.run_instructions && b.run_instructions);
        EXPECT_EQ(*a.run_instructions, *b.run_instructions) << "counts must be exact";
        EXPECT_GT(*a.run_instructions, 1000000u);  // three int8 layers on 64x64 images
        EXPECT_LT(*a.run_instructions, *a.total_instructions);
        // Three ops (conv, sigmoid, conv), each called once per band.
        ASSERT_EQ(a.ops.size(), 3u) << target;
        uint64_t sum = 0;
        uint32_t calls = 0;
        for (const emu::OpCount &o : a.ops) {
            EXPECT_GT(o.instructions, 0u);
            sum += o.instructions;
            calls += o.calls;
        }
        EXPECT_EQ(calls, a.kernel_calls);
        EXPECT_LT(sum, *a.run_instructions);
        EXPECT_GT(sum, *a.run_instructions / 2) << "kernels are most of this run";
        for (size_t i = 0; i < a.ops.size(); i++) EXPECT_EQ(a.ops[i].instructions, b.ops[i].instructions);
    }
}

// The fallback without the plugin: -icount shift=0 and the boards' cycle
// timers (SysTick at 25/32 MHz, CCOUNT at 40 MHz) give the same counts to
// within a timer tick per bracket.
TEST(EmuCounts, CycleTimerFallbackAgreesWithThePlugin) {
    TIGRIS_REQUIRE_SHARED();
    const emu::Paths exact = emu::Paths::defaults();
    if (exact.plugin.empty() || !std::filesystem::exists(exact.plugin))
        GTEST_SKIP() << "the count plugin was not built: nothing to compare the fallback with";
    emu::Paths timer = exact;
    timer.plugin.clear();
    for (const char *target : {"cortex-m55", "xtensa-lx106"}) {
        EMU_REQUIRE(target);
        emu::JobSpec s;
        s.target = target;
        s.plan = emu_test::corpus("linebuf_s8_conv_sig_chain_v5.random.tgrs");
        s.input = emu_test::corpus("linebuf_s8_conv_sig_chain_v5.random.input.bin");
        s.backend = emu::Backend::Accel;
        emu::JobResult a = emu::run_job(s, exact, std::chrono::seconds(60));
        emu::JobResult b = emu::run_job(s, timer, std::chrono::seconds(60));
        ASSERT_TRUE(a.ok() && b.ok()) << a.error << b.error;
        EXPECT_EQ(a.count_method, "plugin");
        EXPECT_EQ(b.count_method, "timer");
        EXPECT_EQ(a.outputs, b.outputs);
        ASSERT_TRUE(a.run_instructions && b.run_instructions);
        const double tick = emu::find_board(target)->ns_per_tick;
        // Each bracket differs by at most a tick plus the timer reads themselves.
        const double slack = 2 * tick + 64;
        EXPECT_NEAR(static_cast<double>(*b.run_instructions), static_cast<double>(*a.run_instructions),
                    slack + 0.001 * static_cast<double>(*a.run_instructions));
        ASSERT_EQ(a.ops.size(), b.ops.size());
        for (size_t i = 0; i < a.ops.size(); i++) {
            EXPECT_EQ(a.ops[i].calls, b.ops[i].calls);
            EXPECT_NEAR(static_cast<double>(b.ops[i].instructions), static_cast<double>(a.ops[i].instructions),
                        a.ops[i].calls * slack);
        }
    }
}

TEST(EmuCounts, WithoutThePluginTheRunStillWorks) {
    TIGRIS_REQUIRE_SHARED();
    EMU_REQUIRE("cortex-m7");
    emu::JobSpec s;
    s.target = "cortex-m7";
    s.plan = emu_test::corpus("pool_chain_v5.pattern.tgrs");
    s.input = emu_test::corpus("pool_chain_v5.pattern.input.bin");
    emu::JobResult r = emu::run_job(s, emu_test::paths_without_counts(), std::chrono::seconds(30));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_FALSE(r.run_instructions);
    EXPECT_EQ(r.outputs, emu_test::corpus("pool_chain_v5.pattern.expected.bin"));
}

}  // namespace
