// test_codegen.cpp - the generator as a library: the files, the figures the
// header declares (against the runtime's own functions on the same plan),
// the plan array's bytes, each backend's calls, and every refusal.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>

#include <unistd.h>

#include "shared_data.h"
#include "tigris_codegen/codegen.hpp"
#include "tigris_host/run.hpp"

extern "C" {
#include "tigris_executor.h"
#include "tigris_loader.h"
}

namespace {

namespace cg = tigris::codegen;

std::vector<uint8_t> example_plan() { return tigris_test::read_file(TIGRIS_EXAMPLE_PLAN); }

std::vector<uint8_t> corpus(const char *name) {
    return tigris_test::read_file(tigris_test::shared_dir() / "corpus" / name);
}

const std::string &file(const cg::Result &r, const std::string &name) {
    for (const auto &f : r.files)
        if (f.name == name) return f.text;
    static const std::string none;
    ADD_FAILURE() << "no file " << name;
    return none;
}

// The value of `#define NAME 123u` in a header, or -1.
long long macro(const std::string &text, const std::string &name) {
    std::smatch m;
    if (!std::regex_search(text, m, std::regex("#define " + name + " ([0-9]+)u?\\b"))) return -1;
    return std::stoll(m[1]);
}

cg::Result gen(const std::vector<uint8_t> &plan, const std::string &backend, const std::string &name = "model") {
    cg::Options o;
    o.backend = backend;
    o.name = name;
    o.plan_label = "test.tgrs";
    return cg::generate(plan, o);
}

// The runtime's own figures for a plan, loaded here independently.
struct Figures {
    uint32_t fast = 0, slow = 0, tensors = 0;
    uint64_t workspace = 0, state = 0;
};

Figures figures(const std::vector<uint8_t> &bytes) {
    void *buf = std::aligned_alloc(64, (bytes.size() + 63) / 64 * 64);
    std::memcpy(buf, bytes.data(), bytes.size());
    tigris_plan_t plan;
    Figures f;
    EXPECT_EQ(tigris_plan_load(static_cast<uint8_t *>(buf), static_cast<uint32_t>(bytes.size()), &plan), TIGRIS_OK);
    f.fast = tigris_fast_arena_required(&plan);
    f.slow = tigris::host::default_slow_bytes(plan);
    f.workspace = tigris_executor_workspace_required(&plan);
    f.state = tigris_state_required(&plan);
    f.tensors = plan.header->num_tensors;
    std::free(buf);
    return f;
}

}  // namespace

TEST(Codegen, WritesTheFiveFilesWithTheRuntimeFigures) {
    const auto plan = example_plan();
    const cg::Result r = gen(plan, "s8", "ex");
    ASSERT_TRUE(r.ok()) << r.message;
    std::vector<std::string> names;
    for (const auto &f : r.files) names.push_back(f.name);
    EXPECT_EQ(names, (std::vector<std::string>{"ex.h", "ex.c", "ex_plan.h", "ex_main.c", "CMakeLists.txt"}));
    const std::string &h = file(r, "ex.h");
    const Figures fig = figures(plan);
    EXPECT_EQ(macro(h, "EX_CORE_FAST_BYTES"), fig.fast);
    EXPECT_EQ(macro(h, "EX_SLOW_ARENA_BYTES"), fig.slow);
    EXPECT_EQ(macro(h, "EX_WORKSPACE_BYTES"), static_cast<long long>(fig.workspace));
    EXPECT_EQ(macro(h, "EX_STATE_BYTES"), static_cast<long long>(fig.state));
    EXPECT_EQ(macro(h, "EX_NUM_TENSORS"), fig.tensors);
    EXPECT_EQ(macro(h, "EX_PLAN_BYTES"), static_cast<long long>(plan.size()));
    // The example plan's boundary (service/tools/write_example_plan.cpp).
    EXPECT_EQ(macro(h, "EX_INPUT0_BYTES"), 16 * 16 * 3 * 4);
    EXPECT_EQ(macro(h, "EX_OUTPUT0_BYTES"), 8 * 8 * 8 * 4);
    EXPECT_NE(h.find("#define EX_INPUT0_SHAPE {1, 16, 16, 3}"), std::string::npos);
    EXPECT_NE(h.find("typedef float ex_input0_elem;"), std::string::npos);
    EXPECT_NE(h.find("ex_status ex_set_input0(const ex_input0_elem data[EX_INPUT0_ELEMENTS]);"), std::string::npos);
    EXPECT_NE(h.find("ex_status ex_get_output0(ex_output0_elem data[EX_OUTPUT0_ELEMENTS]);"), std::string::npos);
    // s8 has no preparation and no scratch reserve.
    const std::string &c = file(r, "ex.c");
    EXPECT_NE(c.find("tigris_dispatch_kernel_s8"), std::string::npos);
    EXPECT_EQ(c.find("_prepare("), std::string::npos);
    EXPECT_EQ(h.find("SCRATCH_BYTES"), std::string::npos);
    EXPECT_NE(file(r, "ex_main.c").find("#ifndef TIGRIS_HARNESS_NO_MAIN"), std::string::npos);
    EXPECT_NE(file(r, "CMakeLists.txt").find("find_package(tigris_runtime 0.6 REQUIRED CONFIG)"), std::string::npos);
}

TEST(Codegen, ThePlanArrayHoldsThePlanBytesAligned) {
    const auto plan = example_plan();
    const cg::Result r = gen(plan, "s8");
    ASSERT_TRUE(r.ok()) << r.message;
    const std::string &p = file(r, "model_plan.h");
    EXPECT_NE(p.find("static const uint8_t model_plan[] __attribute__((aligned(16))) MODEL_PLAN_SECTION = {"),
              std::string::npos);
    EXPECT_NE(p.find("section(\".rodata.model_plan\")"), std::string::npos);
    std::vector<uint8_t> back;
    const std::regex hex("0x([0-9a-f]{2}),");
    for (auto it = std::sregex_iterator(p.begin(), p.end(), hex); it != std::sregex_iterator(); ++it)
        back.push_back(static_cast<uint8_t>(std::stoi((*it)[1], nullptr, 16)));
    EXPECT_EQ(back, plan);
}

TEST(Codegen, DeviceBackendsCallTheirOwnFunctions) {
    TIGRIS_REQUIRE_SHARED();
    const auto plan = corpus("linebuf_s8_conv_sig_chain_v5.pattern.tgrs");
    const Figures fig = figures(plan);
    struct Case {
        const char *backend, *has, *prepare, *deinit, *dispatch, *scratch;
    } cases[] = {
        {"tigris-arm", "TIGRIS_HAS_TIGRIS_ARM", "tigris_arm_prepare(&model_.plan, &model_.mem)",
         "tigris_arm_deinit(&model_.mem)", "tigris_dispatch_kernel_tigris_arm", "TIGRIS_ARM_SCRATCH_BYTES"},
        {"cmsis-nn", "TIGRIS_HAS_CMSIS_NN", "tigris_cmsis_nn_prepare(&model_.plan, &model_.mem)",
         "tigris_cmsis_nn_deinit(&model_.mem)", "tigris_dispatch_kernel_cmsis_nn", "TIGRIS_CMSIS_NN_SCRATCH_BYTES"},
        {"tigris-xtensa", "TIGRIS_HAS_TIGRIS_XTENSA", "tigris_xtensa_prepare(&model_.plan, &model_.mem)",
         "tigris_xtensa_deinit()", "tigris_dispatch_kernel_tigris_xtensa", "TIGRIS_XTENSA_SCRATCH_BYTES"},
        {"esp-nn", "TIGRIS_HAS_ESP_NN", "tigris_esp_nn_prepare(&model_.plan, &model_.mem)", "tigris_esp_nn_deinit()",
         "tigris_dispatch_kernel_esp_nn", nullptr},
    };
    for (const Case &k : cases) {
        SCOPED_TRACE(k.backend);
        const cg::Result r = gen(plan, k.backend);
        ASSERT_TRUE(r.ok()) << r.message;
        const std::string &c = file(r, "model.c"), &h = file(r, "model.h");
        EXPECT_NE(c.find(std::string("#ifndef ") + k.has + "\n#error"), std::string::npos);
        EXPECT_NE(c.find(k.prepare), std::string::npos);
        EXPECT_NE(c.find(k.deinit), std::string::npos);
        EXPECT_NE(c.find(k.dispatch), std::string::npos);
        EXPECT_NE(h.find(std::string("#define MODEL_BACKEND \"") + k.backend + "\""), std::string::npos);
        EXPECT_EQ(macro(h, "MODEL_CORE_FAST_BYTES"), fig.fast);
        if (k.scratch) {
            // The 4 KiB default reserve above the core, checked at start-up
            // against the backend's own requirement.
            EXPECT_EQ(macro(h, k.scratch), 4096);
            EXPECT_NE(h.find(std::string("#define MODEL_FAST_ARENA_BYTES (MODEL_CORE_FAST_BYTES + ") + k.scratch + ")"),
                      std::string::npos);
            EXPECT_NE(c.find(std::string("rebuild with -D") + k.scratch + "="), std::string::npos);
        } else {
            EXPECT_NE(h.find("#define MODEL_FAST_ARENA_BYTES MODEL_CORE_FAST_BYTES"), std::string::npos);
        }
    }
}

TEST(Codegen, RefusesWithOneKindPerCause) {
    const auto plan = example_plan();
    EXPECT_EQ(gen(plan, "cmsis").error, cg::ErrorKind::BadBackend);
    EXPECT_NE(gen(plan, "cmsis").message.find("s8, tigris-arm, cmsis-nn, tigris-xtensa, esp-nn"), std::string::npos);
    EXPECT_EQ(gen(plan, "").error, cg::ErrorKind::BadBackend);
    for (const char *bad : {"", "1model", "my-model", "my model", "_model", "int", "bool", "tigris", "Tigris_x",
                            "model_t", "a_very_long_name_that_goes_on_and_on_past_forty"}) {
        SCOPED_TRACE(bad);
        const cg::Result r = gen(plan, "s8", bad);
        EXPECT_EQ(r.error, cg::ErrorKind::BadName);
        EXPECT_FALSE(r.message.empty());
        EXPECT_TRUE(r.files.empty());
    }
    for (const char *good : {"m", "kws", "Model2", "person_detect"}) EXPECT_TRUE(gen(plan, "s8", good).ok()) << good;

    const std::vector<uint8_t> garbage = {'n', 'o', 't', ' ', 'a', ' ', 'p', 'l', 'a', 'n'};
    EXPECT_EQ(gen(garbage, "s8").error, cg::ErrorKind::BadPlan);
    EXPECT_EQ(gen({}, "s8").error, cg::ErrorKind::BadPlan);
    std::vector<uint8_t> cut(plan.begin(), plan.begin() + static_cast<long>(plan.size() / 2));
    const cg::Result rc = gen(cut, "s8");
    EXPECT_EQ(rc.error, cg::ErrorKind::BadPlan);
    EXPECT_NE(rc.message.find("refuses"), std::string::npos) << rc.message;

    // The example plan is float32: the int8 backends do not take it.
    for (const char *b : {"tigris-arm", "cmsis-nn", "tigris-xtensa", "esp-nn"}) {
        const cg::Result r = gen(plan, b);
        EXPECT_EQ(r.error, cg::ErrorKind::PlanNotForBackend) << b;
        EXPECT_NE(r.message.find("int8"), std::string::npos) << r.message;
    }
}

TEST(Codegen, RefusesTheLegacyCorpusPlan) {
    TIGRIS_REQUIRE_SHARED();
    const cg::Result r = gen(corpus("negative/legacy_v1_pool_chain.tgrs"), "s8");
    EXPECT_EQ(r.error, cg::ErrorKind::BadPlan);
    EXPECT_NE(r.message.find("version"), std::string::npos) << r.message;
}

TEST(Codegen, WriteFilesReportsAnUnwritableDirectory) {
    const auto dir = std::filesystem::temp_directory_path() / ("tigris_codegen_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto plain = dir / "a_file";
    { std::ofstream(plain) << "x"; }
    const cg::Result r = gen(example_plan(), "s8");
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(cg::write_files(plain / "sub", r.files).has_value());
    EXPECT_TRUE(cg::write_files(plain, r.files).has_value());
    EXPECT_FALSE(cg::write_files(dir / "out", r.files).has_value());
    EXPECT_TRUE(std::filesystem::exists(dir / "out" / "model_plan.h"));
    std::filesystem::remove_all(dir);
}
