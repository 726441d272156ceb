// Real models on every board: TFLite models from ../shared/models lowered
// with `tigris import`, run with both backends on each board, must give
// TFLite Micro's bytes (the oracle); the accelerated backend must need fewer
// instructions than the reference for conv, depthwise and fully connected.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>

#include "cli_process.h"
#include "emu_test_support.h"
#include "shared_data.h"
#include "tigris_host/names.hpp"
#include "tigris_loader.h"

namespace {

namespace emu = tigris::host::emu;

// kws_ref_model: conv, depthwise, average pool, FC, softmax. ad01_int8: ten FCs.
const char *const kModels[] = {"kws_ref_model", "ad01_int8"};
const char *const kTargets[] = {"cortex-m4", "cortex-m7", "cortex-m55", "xtensa-lx106"};

std::vector<uint8_t> import_model(const std::string &model) {
    const auto out = tigris_test::cli_scratch() / (model + ".tgrs");
    if (!std::filesystem::exists(out)) {
        auto r = tigris_test::run_cli({"import", (tigris_test::shared_dir() / "models" / (model + ".tflite")).string(),
                                       "-o", out.string()});
        EXPECT_EQ(r.code, 0) << r.err;
    }
    return tigris_test::read_file(out);
}

// Op type by op index, from a host load of the plan.
std::vector<uint8_t> op_types(const std::vector<uint8_t> &bytes) {
    std::vector<uint8_t> copy(bytes.size() + 64);
    uint8_t *p = copy.data() + (64 - reinterpret_cast<uintptr_t>(copy.data()) % 64) % 64;
    std::memcpy(p, bytes.data(), bytes.size());
    tigris_plan_t plan;
    std::vector<uint8_t> t;
    if (tigris_plan_load(p, static_cast<uint32_t>(bytes.size()), &plan) != TIGRIS_OK) return t;
    for (uint16_t i = 0; i < plan.header->num_ops; i++) t.push_back(plan.ops[i].op_type);
    return t;
}

class EmuModels : public ::testing::TestWithParam<const char *> {};

TEST_P(EmuModels, ImportedModelGivesTfliteMicroBytesOnEveryBoardWithFewerInstructions) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *t : kTargets) EMU_REQUIRE(t);
    const std::string model = GetParam();
    const std::vector<uint8_t> plan = import_model(model);
    ASSERT_FALSE(plan.empty());
    const auto types = op_types(plan);
    const auto input = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / "oracle" / (model + ".mid.input.bin"));
    const auto expected =
        tigris_test::read_file(tigris_test::shared_dir() / "corpus" / "oracle" / (model + ".mid.expected.bin"));
    const emu::Paths paths = emu::Paths::defaults();
    const bool counting = !paths.plugin.empty() && std::filesystem::exists(paths.plugin);

    emu::Fleet::Limits lim;
    lim.workers = 2;
    emu::Fleet fleet(lim, paths);
    std::vector<std::pair<std::string, std::pair<emu::Fleet::Ticket, emu::Fleet::Ticket>>> jobs;
    for (const char *target : kTargets) {
        emu::JobSpec s;
        s.target = target;
        s.plan = plan;
        s.input = input;
        auto ref = fleet.submit(s);
        s.backend = emu::Backend::Accel;
        auto acc = fleet.submit(s);
        jobs.push_back({target, {ref, acc}});
    }
    for (auto &[target, tickets] : jobs) {
        SCOPED_TRACE(model + " on " + target);
        emu::JobResult ref = fleet.wait(tickets.first), acc = fleet.wait(tickets.second);
        ASSERT_TRUE(ref.ok()) << ref.error;
        ASSERT_TRUE(acc.ok()) << acc.error;
        EXPECT_TRUE(ref.outputs == expected) << "reference differs from TFLite Micro";
        EXPECT_TRUE(acc.outputs == expected) << "accelerated differs from TFLite Micro";
        if (!counting) continue;
        std::map<std::string, std::pair<uint64_t, uint64_t>> per;  // type -> (ref, accel)
        for (const auto &o : ref.ops) per[tigris::host::op_type_name(types.at(o.op))].first += o.instructions;
        for (const auto &o : acc.ops) per[tigris::host::op_type_name(types.at(o.op))].second += o.instructions;
        for (const char *k : {"CONV", "DEPTHWISE", "FULLY_CONN"}) {
            if (!per.count(k)) continue;
            EXPECT_LT(per[k].second, per[k].first) << k << ": accelerated " << per[k].second << " vs reference "
                                                   << per[k].first;
        }
        EXPECT_LT(*acc.run_instructions, *ref.run_instructions);
    }
}

// The same models through the CMSIS-NN adapter on the Arm boards (images
// built against Arm's CMSIS-NN; the test skips for images without it):
// TFLite Micro's bytes, and fewer instructions than the reference for
// conv, depthwise and fully connected.
TEST_P(EmuModels, CmsisNnAdapterGivesTfliteMicroBytesOnArmBoards) {
    TIGRIS_REQUIRE_SHARED();
    const char *const arm[] = {"cortex-m4", "cortex-m7", "cortex-m55"};
    for (const char *t : arm) EMU_REQUIRE(t);
    const std::string model = GetParam();
    const std::vector<uint8_t> plan = import_model(model);
    ASSERT_FALSE(plan.empty());
    const auto types = op_types(plan);
    const auto input = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / "oracle" / (model + ".mid.input.bin"));
    const auto expected =
        tigris_test::read_file(tigris_test::shared_dir() / "corpus" / "oracle" / (model + ".mid.expected.bin"));
    const emu::Paths paths = emu::Paths::defaults();
    const bool counting = !paths.plugin.empty() && std::filesystem::exists(paths.plugin);
    emu::Fleet::Limits lim;
    lim.workers = 2;
    emu::Fleet fleet(lim, paths);
    std::vector<std::pair<std::string, std::pair<emu::Fleet::Ticket, emu::Fleet::Ticket>>> jobs;
    for (const char *target : arm) {
        emu::JobSpec s;
        s.target = target;
        s.plan = plan;
        s.input = input;
        auto ref = fleet.submit(s);
        s.backend = emu::Backend::Vendor;
        auto ven = fleet.submit(s);
        jobs.push_back({target, {ref, ven}});
    }
    std::string skipped;
    for (auto &[target, tickets] : jobs) {
        SCOPED_TRACE(model + " on " + target);
        emu::JobResult ref = fleet.wait(tickets.first), ven = fleet.wait(tickets.second);
        ASSERT_TRUE(ref.ok()) << ref.error;
        if (ven.status == emu::JobResult::Status::Refused && ven.error_kind == "no-accel") {
            skipped += " " + target;
            continue;
        }
        ASSERT_TRUE(ven.ok()) << ven.error;
        EXPECT_EQ(ven.kernel, "cmsis-nn");
        EXPECT_TRUE(ven.outputs == expected) << "cmsis-nn differs from TFLite Micro";
        if (!counting) continue;
        std::map<std::string, std::pair<uint64_t, uint64_t>> per;  // type -> (ref, cmsis-nn)
        for (const auto &o : ref.ops) per[tigris::host::op_type_name(types.at(o.op))].first += o.instructions;
        for (const auto &o : ven.ops) per[tigris::host::op_type_name(types.at(o.op))].second += o.instructions;
        for (const char *k : {"CONV", "DEPTHWISE", "FULLY_CONN"}) {
            if (!per.count(k)) continue;
            EXPECT_LT(per[k].second, per[k].first) << k << ": cmsis-nn " << per[k].second << " vs reference "
                                                   << per[k].first;
        }
    }
    if (!skipped.empty())
        GTEST_SKIP() << "images built without CMSIS-NN (no ../shared/third_party/CMSIS-NN at configure time):"
                     << skipped;
}

INSTANTIATE_TEST_SUITE_P(Oracle, EmuModels, ::testing::ValuesIn(kModels));

}  // namespace
