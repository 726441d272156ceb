// The harness report and the count plugin's file, parsed without QEMU.
#include <gtest/gtest.h>

#include "tigris_host/emu.hpp"

namespace {

namespace emu = tigris::host::emu;

TEST(EmuReport, OutputsStatsAndLogAreRead) {
    const std::string text =
        "@tigris-emu 1\n@board mps2-an386\n@cpu cortex-m4\n@accel tigris-arm\n@vendor cmsis-nn\n@backend accel tigris-arm\n"
        "@fast_required 4096\n@fast_size 4096\n@slow_size 9000\n@calls 3\n@logged 3\n@log 0 1 0\n"
        "@fast_peak 3000\n@slow_peak 100\n@output 0 3\n0a0bff\n@output 1 2\n8001\n@end 0\n";
    emu::JobResult r;
    std::vector<uint16_t> log;
    emu::parse_report(text, r, &log);
    EXPECT_EQ(r.kernel, "tigris-arm");
    EXPECT_EQ(r.fast_required, 4096u);
    EXPECT_EQ(r.fast_peak, 3000u);
    EXPECT_EQ(r.slow_peak, 100u);
    EXPECT_EQ(r.kernel_calls, 3u);
    EXPECT_EQ(log, (std::vector<uint16_t>{0, 1, 0}));
    EXPECT_EQ(r.output_sizes, (std::vector<uint32_t>{3, 2}));
    EXPECT_EQ(r.outputs, (std::vector<uint8_t>{0x0a, 0x0b, 0xff, 0x80, 0x01}));
}

TEST(EmuReport, ErrorAndFaultAreRead) {
    emu::JobResult r;
    emu::parse_report("@error memory 0 the fast arena needs 9 bytes; the board has 4\n@end 7\n", r);
    EXPECT_EQ(r.error_kind, "memory");
    EXPECT_EQ(r.error, "the fast arena needs 9 bytes; the board has 4");
    emu::JobResult f;
    emu::parse_report("@error plan -13 build leaves out a kernel family\n", f);
    EXPECT_EQ(f.error_code, -13);
    emu::JobResult g;
    emu::parse_report("@debug fault_site 0x00001f08\n\n@fault pc 0x00001f08 lr 0x000008bf exception 3\n", g);
    ASSERT_TRUE(g.fault_pc && g.fault_site);
    EXPECT_EQ(*g.fault_pc, 0x1f08u);
    EXPECT_EQ(*g.fault_site, 0x1f08u);
}

TEST(EmuReport, CountsGivePerRunAndPerOpInstructions) {
    // Marks: run start, (before, after) per call, run end.
    const std::string counts = "insns 5000\nmarks 8\n100\n110\n210\n220\n250\n260\n1260\n1300\n";
    emu::JobResult r;
    ASSERT_TRUE(emu::apply_counts(counts, {4, 7, 4}, r));
    EXPECT_EQ(*r.total_instructions, 5000u);
    EXPECT_EQ(*r.run_instructions, 1200u);
    ASSERT_EQ(r.ops.size(), 2u);
    EXPECT_EQ(r.ops[0].op, 4);
    EXPECT_EQ(r.ops[0].calls, 2u);
    EXPECT_EQ(r.ops[0].instructions, 100u + 1000u);
    EXPECT_EQ(r.ops[1].op, 7);
    EXPECT_EQ(r.ops[1].instructions, 30u);
}

TEST(EmuReport, CountsWithoutMatchingLogGiveOnlyTheRun) {
    emu::JobResult r;
    ASSERT_TRUE(emu::apply_counts("insns 50\nmarks 4\n1\n2\n3\n9\n", {0, 1, 2}, r));
    EXPECT_EQ(*r.run_instructions, 8u);
    EXPECT_TRUE(r.ops.empty());
    emu::JobResult bad;
    EXPECT_FALSE(emu::apply_counts("garbage", {}, bad));
    EXPECT_FALSE(bad.run_instructions);
}

}  // namespace
