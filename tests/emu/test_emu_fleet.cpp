// The fleet: a bounded pool, a bounded queue, cancellation that leaves no
// QEMU behind, and many validations at once on few workers.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "emu_test_support.h"
#include "shared_data.h"
#include "tigris_emu_protocol.h"
#include "tigris_host/validate.hpp"

namespace {

namespace emu = tigris::host::emu;
using Status = emu::JobResult::Status;

emu::JobSpec hang_job(std::chrono::milliseconds timeout) {
    emu::JobSpec s;
    s.target = "cortex-m4";
    s.plan = emu_test::big_relu_plan();
    s.debug = TIGRIS_EMU_DEBUG_HANG;
    s.timeout = timeout;
    return s;
}

TEST(EmuFleet, QueueBeyondItsLimitIsRefusedAndCancelledJobsAreReaped) {
    EMU_REQUIRE("cortex-m4");
    emu::Fleet::Limits lim;
    lim.workers = 1;
    lim.max_queued = 1;
    emu::Fleet fleet(lim, emu_test::paths_without_counts());
    std::atomic<int> started{0};
    auto a = fleet.submit(hang_job(std::chrono::seconds(60)), [&](emu::Fleet::Event e, const std::string &) {
        if (e == emu::Fleet::Event::Started) started++;
    });
    while (started == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    auto b = fleet.submit(hang_job(std::chrono::seconds(60)));  // waits in the queue
    auto c = fleet.submit(hang_job(std::chrono::seconds(60)));  // beyond the queue's limit
    EXPECT_EQ(fleet.wait(c).status, Status::Busy);
    EXPECT_EQ(fleet.running(), 1u);
    EXPECT_EQ(fleet.queued(), 1u);
    EXPECT_EQ(emu_test::qemu_children(), 1);
    fleet.cancel(b);
    fleet.cancel(a);
    EXPECT_EQ(fleet.wait(b).status, Status::Cancelled);
    emu::JobResult ra = fleet.wait(a);
    EXPECT_EQ(ra.status, Status::Cancelled);
    EXPECT_NE(ra.error.find("killed"), std::string::npos) << ra.error;
    EXPECT_EQ(emu_test::qemu_children(), 0);
}

TEST(EmuFleet, CancelledValidateLeavesNoQemuProcess) {
    TIGRIS_REQUIRE_SHARED();
    EMU_REQUIRE("cortex-m4");
    emu::Fleet::Limits lim;
    lim.workers = 2;
    emu::Fleet fleet(lim, emu::Paths::defaults());
    std::atomic<bool> stop{false};
    tigris::host::ValidateOptions opt;
    opt.targets = {"all"};
    // Cancel as soon as the first QEMU is running (its process exists).
    opt.progress = [&](const std::string &, const std::string &stage) {
        if (stage.find("running") != std::string::npos) stop = true;
    };
    opt.should_stop = [&] { return stop.load(); };
    const auto t0 = std::chrono::steady_clock::now();
    tigris::host::ValidateReport rep =
        tigris::host::validate_plan(fleet, emu_test::corpus("linebuf_conv_chain_v5.pattern.tgrs"),
                                    emu_test::corpus("linebuf_conv_chain_v5.pattern.input.bin"), opt);
    EXPECT_TRUE(rep.cancelled);
    EXPECT_EQ(rep.results.size(), 4u);
    int cancelled = 0;
    for (const auto &t : rep.results) cancelled += t.cancelled;
    EXPECT_GT(cancelled, 0);
    EXPECT_EQ(emu_test::qemu_children(), 0) << "a cancelled validate left a QEMU process";
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
}

TEST(EmuFleet, EightConcurrentValidationsOnTwoWorkersAllFinishCorrectly) {
    TIGRIS_REQUIRE_SHARED();
    const char *const targets[] = {"cortex-m4", "cortex-m7", "cortex-m55", "xtensa-lx106"};
    for (const char *t : targets) EMU_REQUIRE(t);
    emu::Fleet::Limits lim;
    lim.workers = 2;
    emu::Fleet fleet(lim, emu_test::paths_without_counts());
    const auto plan = emu_test::corpus("linebuf_s8_conv_sig_chain_v5.random.tgrs");
    const auto input = emu_test::corpus("linebuf_s8_conv_sig_chain_v5.random.input.bin");

    // Sample how many QEMUs exist while the validations run.
    std::atomic<bool> done{false};
    std::atomic<int> most{0};
    std::thread sampler([&] {
        while (!done) {
            int n = emu_test::qemu_children();
            if (n > most) most = n;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    });
    std::vector<tigris::host::ValidateReport> reps(8);
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; i++)
        threads.emplace_back([&, i] {
            tigris::host::ValidateOptions opt;
            opt.targets = {targets[i % 4]};
            reps[i] = tigris::host::validate_plan(fleet, plan, input, opt);
        });
    for (auto &t : threads) t.join();
    done = true;
    sampler.join();
    for (int i = 0; i < 8; i++) {
        ASSERT_EQ(reps[i].results.size(), 1u);
        const auto &r = reps[i].results[0];
        EXPECT_TRUE(r.parity) << r.target << ": " << r.error;
        EXPECT_EQ(r.target, targets[i % 4]);
    }
    EXPECT_LE(most.load(), 2) << "more QEMU processes than workers";
    EXPECT_GE(most.load(), 1);
    EXPECT_EQ(emu_test::qemu_children(), 0);
}

}  // namespace
