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

// One model's case: its imported plan, op types, the oracle's input and
// expected bytes, and whether the fleet counts instructions per op.
struct ModelCase {
    std::vector<uint8_t> plan, types, input, expected;
    bool counting = false;
};

ModelCase model_case(const std::string &model, const emu::Paths &paths) {
    ModelCase c;
    c.plan = import_model(model);
    c.types = op_types(c.plan);
    const auto dir = tigris_test::shared_dir() / "corpus" / "oracle";
    c.input = tigris_test::read_file(dir / (model + ".mid.input.bin"));
    c.expected = tigris_test::read_file(dir / (model + ".mid.expected.bin"));
    c.counting = !paths.plugin.empty() && std::filesystem::exists(paths.plugin);
    return c;
}

// For each target, the reference run and a run with `other`, submitted at once.
using JobPairs = std::vector<std::pair<std::string, std::pair<emu::Fleet::Ticket, emu::Fleet::Ticket>>>;
template <class Targets>
JobPairs submit_pairs(emu::Fleet &fleet, const Targets &targets, const ModelCase &c, emu::Backend other) {
    JobPairs jobs;
    for (const char *target : targets) {
        emu::JobSpec s;
        s.target = target;
        s.plan = c.plan;
        s.input = c.input;
        auto ref = fleet.submit(s);
        s.backend = other;
        auto oth = fleet.submit(s);
        jobs.push_back({target, {ref, oth}});
    }
    return jobs;
}

// The conv, depthwise and fully connected layers of `other` must take fewer
// instructions than the reference's.
void expect_fewer_per_layer(const ModelCase &c, const emu::JobResult &ref, const emu::JobResult &other,
                            const char *name) {
    std::map<std::string, std::pair<uint64_t, uint64_t>> per;  // type -> (ref, other)
    for (const auto &o : ref.ops) per[tigris::host::op_type_name(c.types.at(o.op))].first += o.instructions;
    for (const auto &o : other.ops) per[tigris::host::op_type_name(c.types.at(o.op))].second += o.instructions;
    for (const char *k : {"CONV", "DEPTHWISE", "FULLY_CONN"}) {
        if (!per.count(k)) continue;
        EXPECT_LT(per[k].second, per[k].first) << k << ": " << name << " " << per[k].second << " vs reference "
                                               << per[k].first;
    }
}

class EmuModels : public ::testing::TestWithParam<const char *> {};

TEST_P(EmuModels, ImportedModelGivesTfliteMicroBytesOnEveryBoardWithFewerInstructions) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *t : kTargets) EMU_REQUIRE(t);
    const std::string model = GetParam();
    const emu::Paths paths = emu::Paths::defaults();
    const ModelCase c = model_case(model, paths);
    ASSERT_FALSE(c.plan.empty());
    emu::Fleet::Limits lim;
    lim.workers = 2;
    emu::Fleet fleet(lim, paths);
    const JobPairs jobs = submit_pairs(fleet, kTargets, c, emu::Backend::Accel);
    for (const auto &[target, tickets] : jobs) {
        SCOPED_TRACE(model + " on " + target);
        emu::JobResult ref = fleet.wait(tickets.first), acc = fleet.wait(tickets.second);
        ASSERT_TRUE(ref.ok()) << ref.error;
        ASSERT_TRUE(acc.ok()) << acc.error;
        EXPECT_TRUE(ref.outputs == c.expected) << "reference differs from TFLite Micro";
        EXPECT_TRUE(acc.outputs == c.expected) << "accelerated differs from TFLite Micro";
        if (!c.counting) continue;
        expect_fewer_per_layer(c, ref, acc, "accelerated");
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
    const emu::Paths paths = emu::Paths::defaults();
    const ModelCase c = model_case(model, paths);
    ASSERT_FALSE(c.plan.empty());
    emu::Fleet::Limits lim;
    lim.workers = 2;
    emu::Fleet fleet(lim, paths);
    const JobPairs jobs = submit_pairs(fleet, arm, c, emu::Backend::Vendor);
    std::string skipped;
    for (const auto &[target, tickets] : jobs) {
        SCOPED_TRACE(model + " on " + target);
        emu::JobResult ref = fleet.wait(tickets.first), ven = fleet.wait(tickets.second);
        ASSERT_TRUE(ref.ok()) << ref.error;
        if (ven.status == emu::JobResult::Status::Refused && ven.error_kind == "no-accel") {
            skipped += " " + target;
            continue;
        }
        ASSERT_TRUE(ven.ok()) << ven.error;
        EXPECT_EQ(ven.kernel, "cmsis-nn");
        EXPECT_TRUE(ven.outputs == c.expected) << "cmsis-nn differs from TFLite Micro";
        if (!c.counting) continue;
        expect_fewer_per_layer(c, ref, ven, "cmsis-nn");
    }
    if (!skipped.empty())
        GTEST_SKIP() << "images built without CMSIS-NN (no ../shared/third_party/CMSIS-NN at configure time):"
                     << skipped;
}

INSTANTIATE_TEST_SUITE_P(Oracle, EmuModels, ::testing::ValuesIn(kModels));

}  // namespace
