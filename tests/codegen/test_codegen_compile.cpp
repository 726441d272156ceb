// test_codegen_compile.cpp - harnesses for plans built here (two model
// inputs and two outputs; state; an If with a bool input), compiled with the
// host C compiler against this build's core and run: the outputs are the
// host library's, byte for byte, and the header types each input and output.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "plan_builder.h"
#include "tigris_codegen/codegen.hpp"
#include "tigris_host/run.hpp"

namespace {

namespace fs = std::filesystem;
using tigris_test::PlanBuilder;

constexpr uint8_t kIn = TIGRIS_TENSOR_MODEL_INPUT, kOut = TIGRIS_TENSOR_MODEL_OUTPUT;

// a + b -> sum, a * b -> prod: two inputs, two outputs, one stage each.
std::vector<uint8_t> two_in_two_out() {
    PlanBuilder b(10);
    const uint16_t a = b.add_tensor("a", TIGRIS_DTYPE_FLOAT32, {1, 3, 5, 2}, kIn);
    const uint16_t x = b.add_tensor("b", TIGRIS_DTYPE_FLOAT32, {1, 3, 5, 2}, kIn);
    const uint16_t s = b.add_tensor("sum", TIGRIS_DTYPE_FLOAT32, {1, 3, 5, 2}, kOut);
    const uint16_t p = b.add_tensor("prod", TIGRIS_DTYPE_FLOAT32, {1, 3, 5, 2}, kOut);
    const uint16_t add = b.add_op(TIGRIS_OP_ADD, {a, x}, {s}, "add");
    const uint16_t mul = b.add_op(TIGRIS_OP_MUL, {a, x}, {p}, "mul");
    b.add_stage({add}, {a, x}, {s});
    b.add_stage({mul}, {a, x}, {p});
    return b.build();
}

int sh(const std::string &cmd) {
    const int st = std::system(cmd.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string read(const fs::path &p) {
    std::ifstream f(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Generates the harness `name` for plan into a fresh directory, compiles it
// with the host C compiler against this build's core, runs it on `in` and
// returns the output file's bytes ("" and a test failure on any error).
std::string build_and_run(const std::vector<uint8_t> &plan, const std::string &name, const std::vector<uint8_t> &in,
                          fs::path *dir_out = nullptr) {
    tigris::codegen::Options o;
    o.name = name;
    const auto r = tigris::codegen::generate(plan, o);
    EXPECT_TRUE(r.ok()) << r.message;
    if (!r.ok()) return "";
    const fs::path dir = fs::temp_directory_path() / ("tigris_codegen_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    EXPECT_FALSE(tigris::codegen::write_files(dir, r.files).has_value());
    if (dir_out) *dir_out = dir;
    {
        std::ofstream(dir / "in.bin", std::ios::binary)
            .write(reinterpret_cast<const char *>(in.data()), static_cast<std::streamsize>(in.size()));
    }
    const std::string cc = std::string("'") + TIGRIS_C_COMPILER + "' -std=c11 -Wall -Wextra -Werror " +
                           TIGRIS_SAN_FLAGS + " " + TIGRIS_CORE_DEFINES + " -I'" + dir.string() + "' -I'" +
                           TIGRIS_CORE_INCLUDE + "' '" + (dir / (name + ".c")).string() + "' '" +
                           (dir / (name + "_main.c")).string() + "' '" + TIGRIS_CORE_LIB + "' -lm -o '" +
                           (dir / name).string() + "'";
    EXPECT_EQ(sh(cc), 0) << cc;
    EXPECT_EQ(sh("'" + (dir / name).string() + "' '" + (dir / "in.bin").string() + "' '" + (dir / "out.bin").string() +
                 "' > /dev/null"),
              0);
    return read(dir / "out.bin");
}

std::string host_run(const std::vector<uint8_t> &plan, const std::vector<uint8_t> &in) {
    const auto ref = tigris::host::run_plan(plan, in, {});
    EXPECT_TRUE(ref.ok()) << ref.error;
    return std::string(ref.outputs.begin(), ref.outputs.end());
}

std::vector<uint8_t> floats(std::initializer_list<float> v) {
    std::vector<uint8_t> b(v.size() * 4);
    size_t i = 0;
    for (float f : v) std::memcpy(&b[4 * i++], &f, 4);
    return b;
}

}  // namespace

TEST(CodegenCompile, TwoInputsTwoOutputsRunAsTheHostLibrary) {
    const std::vector<uint8_t> plan = two_in_two_out();
    // Inputs: a = j/4 - 3, b = 1.5 - j/8 (exact in float32).
    std::vector<uint8_t> in(240);
    for (int j = 0; j < 30; j++) {
        const float a = static_cast<float>(j) / 4 - 3, b = 1.5f - static_cast<float>(j) / 8;
        std::memcpy(&in[4 * j], &a, 4);
        std::memcpy(&in[120 + 4 * j], &b, 4);
    }
    fs::path dir;
    const std::string out = build_and_run(plan, "duo", in, &dir);
    const std::string h = read(dir / "duo.h");
    for (const char *want : {"#define DUO_NUM_INPUTS 2u", "#define DUO_NUM_OUTPUTS 2u", "#define DUO_INPUT_BYTES 240u",
                             "#define DUO_INPUT1_NAME \"b\"", "#define DUO_OUTPUT1_NAME \"prod\"",
                             "duo_status duo_set_input1(const duo_input1_elem data[DUO_INPUT1_ELEMENTS]);",
                             "duo_status duo_get_output1(duo_output1_elem data[DUO_OUTPUT1_ELEMENTS]);"})
        EXPECT_NE(h.find(want), std::string::npos) << want;
    ASSERT_EQ(out.size(), 240u);
    EXPECT_EQ(out, host_run(plan, in));
    // And the values are a + b then a * b.
    float s0, p29;
    std::memcpy(&s0, out.data(), 4);
    std::memcpy(&p29, out.data() + 120 + 4 * 29, 4);
    EXPECT_EQ(s0, -3.0f + 1.5f);
    EXPECT_EQ(p29, (29.0f / 4 - 3) * (1.5f - 29.0f / 8));
    fs::remove_all(dir);
}

// A plan with state: the harness declares and initialises the state buffer.
TEST(CodegenCompile, StateIsDeclaredAndInitialised) {
    const std::vector<uint8_t> plan = PlanBuilder::state_add().build();
    const std::vector<uint8_t> in = floats({10, 20, 30, 40});
    fs::path dir;
    const std::string out = build_and_run(plan, "st", in, &dir);
    EXPECT_NE(read(dir / "st.h").find("#define ST_STATE_BYTES 16u"), std::string::npos);
    EXPECT_NE(read(dir / "st.c").find("tigris_state_init(&st_.plan, st_state, sizeof st_state)"), std::string::npos);
    EXPECT_EQ(out, host_run(plan, in));
    const std::vector<uint8_t> want = floats({11, 22, 33, 44});
    EXPECT_EQ(out, std::string(want.begin(), want.end()));
    fs::remove_all(dir);
}

// Control flow (If with subgraphs) and a bool input typed as uint8_t.
TEST(CodegenCompile, ControlFlowAndABoolInput) {
    const std::vector<uint8_t> plan = PlanBuilder::if_subgraphs().build();
    for (uint8_t cond : {0, 1}) {
        std::vector<uint8_t> in = {cond};
        const std::vector<uint8_t> x = floats({-7, 3, 9, -0.5f});
        in.insert(in.end(), x.begin(), x.end());
        fs::path dir;
        const std::string out = build_and_run(plan, "branch", in, &dir);
        EXPECT_NE(read(dir / "branch.h").find("typedef uint8_t branch_input0_elem;"), std::string::npos);
        EXPECT_NE(read(dir / "branch.c").find("#if TIGRIS_MAX_SUBGRAPHS < 3"), std::string::npos);
        EXPECT_EQ(out, host_run(plan, in)) << "cond " << int(cond);
        // then: Relu, else: Relu6.
        const std::vector<uint8_t> want = cond ? floats({0, 3, 9, 0}) : floats({0, 3, 6, 0});
        EXPECT_EQ(out, std::string(want.begin(), want.end())) << "cond " << int(cond);
        fs::remove_all(dir);
    }
}
