// What goes wrong on a board is reported, never hangs and never leaves a
// QEMU behind: a hung image is killed at its timeout, a faulting image
// reports the faulting PC, a plan too big for a board or refused by its
// loader says so.
#include <gtest/gtest.h>

#include "emu_test_support.h"
#include "tigris_emu_protocol.h"
#include "tigris_host/validate.hpp"

namespace {

namespace emu = tigris::host::emu;
using Status = emu::JobResult::Status;

const char *const kTargets[] = {"cortex-m4", "cortex-m7", "cortex-m55", "xtensa-lx106"};

emu::JobSpec debug_job(const std::string &target, uint32_t mode) {
    emu::JobSpec s;
    s.target = target;
    s.plan = emu_test::big_relu_plan();  // never loaded: the debug modes act first
    s.debug = mode;
    return s;
}

class EmuFailures : public ::testing::TestWithParam<const char *> {};

TEST_P(EmuFailures, HungImageIsKilledAtItsTimeout) {
    EMU_REQUIRE(GetParam());
    emu::JobSpec s = debug_job(GetParam(), TIGRIS_EMU_DEBUG_HANG);
    s.timeout = std::chrono::milliseconds(1500);
    emu::JobResult r = emu::run_job(s, emu_test::paths_without_counts(), std::chrono::seconds(60));
    EXPECT_EQ(r.status, Status::Timeout) << r.error;
    EXPECT_NE(r.error.find("timed out after 1500 ms"), std::string::npos) << r.error;
    EXPECT_NE(r.report.find("@debug hang"), std::string::npos) << "the image did start: " << r.report;
    EXPECT_GE(r.wall_ms, 1500.0);
    EXPECT_LT(r.wall_ms, 10000.0);
    EXPECT_EQ(emu_test::qemu_children(), 0);
}

TEST_P(EmuFailures, FaultingImageReportsItsPc) {
    EMU_REQUIRE(GetParam());
    emu::JobResult r = emu::run_job(debug_job(GetParam(), TIGRIS_EMU_DEBUG_FAULT), emu_test::paths_without_counts(),
                                    std::chrono::seconds(30));
    ASSERT_EQ(r.status, Status::Fault) << r.error << "\n" << r.report;
    EXPECT_EQ(r.exit_code, TIGRIS_EMU_EXIT_FAULT);
    ASSERT_TRUE(r.fault_pc && r.fault_site) << r.report;
    // The handler's stacked/EPC1 PC is the undefined instruction's address.
    EXPECT_EQ(*r.fault_pc, *r.fault_site);
    char pc[16];
    std::snprintf(pc, sizeof pc, "0x%08x", *r.fault_pc);
    EXPECT_NE(r.error.find(pc), std::string::npos) << r.error;
    EXPECT_EQ(emu_test::qemu_children(), 0);
}

INSTANTIATE_TEST_SUITE_P(AllBoards, EmuFailures, ::testing::ValuesIn(kTargets),
                         [](const auto &info) {
                             std::string n = info.param;
                             for (char &ch : n)
                                 if (ch == '-') ch = '_';
                             return n;
                         });

TEST(EmuLimits, PlanTooLargeForABoardIsAClearError) {
    EMU_REQUIRE("cortex-m55");
    EMU_REQUIRE("cortex-m4");
    emu::JobSpec s;
    s.plan = emu_test::big_relu_plan();
    s.input.assign(128 * 256 * 4 * 4, 0);
    s.op_counts = false;
    s.target = "cortex-m55";  // 512 KiB of DTCM
    emu::JobResult small = emu::run_job(s, emu_test::paths_without_counts(), std::chrono::seconds(30));
    EXPECT_EQ(small.status, Status::Refused);
    EXPECT_EQ(small.error_kind, "memory");
    EXPECT_NE(small.error.find("does not fit cortex-m55"), std::string::npos) << small.error;
    EXPECT_NE(small.error.find("fast arena needs"), std::string::npos) << small.error;
    s.target = "cortex-m4";  // 4 MiB of SSRAM: fits
    emu::JobResult big = emu::run_job(s, emu_test::paths_without_counts(), std::chrono::seconds(30));
    EXPECT_EQ(big.status, Status::Ok) << big.error;
    EXPECT_EQ(big.outputs.size(), s.input.size());
}

TEST(EmuLimits, PlanBeyondTheLoadRegionIsRefusedBeforeQemuStarts) {
    EMU_REQUIRE("cortex-m4");
    emu::JobSpec s;
    s.target = "cortex-m4";
    s.plan.assign(17u << 20, 0);
    emu::JobResult r = emu::run_job(s, emu_test::paths_without_counts(), std::chrono::seconds(30));
    EXPECT_EQ(r.status, Status::Refused);
    EXPECT_NE(r.error.find("load region"), std::string::npos) << r.error;
    EXPECT_TRUE(r.report.empty());
}

// The host sends a plan as it is; the image's loader is what refuses a bad
// one, and the refusal names the board and the loader's reason.
TEST(EmuLimits, PlanTheImageRefusesIsAClearError) {
    EMU_REQUIRE("xtensa-lx106");
    emu::JobSpec s;
    s.target = "xtensa-lx106";
    s.plan = emu_test::big_relu_plan();
    s.plan[0] ^= 0xFF;  // not the plan magic
    s.op_counts = false;
    emu::JobResult r = emu::run_job(s, emu_test::paths_without_counts(), std::chrono::seconds(30));
    EXPECT_EQ(r.status, Status::Refused) << r.error << "\n" << r.report;
    EXPECT_EQ(r.error_kind, "plan");
    EXPECT_NE(r.error.find("xtensa-lx106 (sim-lx106) image refuses the plan"), std::string::npos) << r.error;
}

TEST(EmuLimits, MissingImageOrUnknownTargetIsUnavailable) {
    emu::Paths p = emu::Paths::defaults();
    p.firmware_dir = "/nonexistent-firmware";
    emu::JobSpec s;
    s.target = "cortex-m4";
    emu::JobResult r = emu::run_job(s, p, std::chrono::seconds(5));
    EXPECT_EQ(r.status, Status::Unavailable);
    EXPECT_NE(r.error.find("no firmware image for cortex-m4"), std::string::npos) << r.error;
    s.target = "riscv";
    r = emu::run_job(s, p, std::chrono::seconds(5));
    EXPECT_EQ(r.status, Status::Unavailable);
    EXPECT_NE(r.error.find("unknown target 'riscv'"), std::string::npos) << r.error;
    std::string err;
    EXPECT_FALSE(tigris::host::resolve_targets({"cortex-m4", "m99"}, err));
    EXPECT_NE(err.find("unknown target 'm99'"), std::string::npos);
    auto all = tigris::host::resolve_targets({"all"}, err);
    ASSERT_TRUE(all);
    EXPECT_EQ(all->size(), 4u);
}

}  // namespace
