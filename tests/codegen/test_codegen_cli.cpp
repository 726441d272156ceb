// test_codegen_cli.cpp - `tigris codegen` as a user runs it: the files it
// writes, and one exit code (and a message) per kind of failure.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "shared_data.h"

namespace {

namespace fs = std::filesystem;

struct Outcome {
    int code = -1;
    std::string output;  // stdout and stderr
};

Outcome cli(const std::string &args) {
    const std::string cmd = std::string("'") + TIGRIS_CLI_PATH + "' codegen " + args + " 2>&1";
    Outcome o;
    FILE *p = popen(cmd.c_str(), "r");
    if (!p) return o;
    char buf[512];
    while (size_t n = fread(buf, 1, sizeof buf, p)) o.output.append(buf, n);
    const int st = pclose(p);
    o.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return o;
}

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("tigris_codegen_cli_" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
};

const std::string kPlan = std::string("'") + TIGRIS_EXAMPLE_PLAN + "'";

}  // namespace

TEST(CodegenCli, WritesTheHarnessIntoANewDirectory) {
    TempDir t;
    const fs::path out = t.path / "deep" / "harness";
    const Outcome o = cli(kPlan + " --backend s8 --name ex -o '" + out.string() + "'");
    ASSERT_EQ(o.code, 0) << o.output;
    for (const char *f : {"ex.h", "ex.c", "ex_plan.h", "ex_main.c", "CMakeLists.txt"}) {
        EXPECT_TRUE(fs::exists(out / f)) << f;
        EXPECT_NE(o.output.find((out / f).string()), std::string::npos) << o.output;
    }
    // Defaults: backend s8, name model.
    const Outcome d = cli(kPlan + " -o '" + (t.path / "d").string() + "'");
    ASSERT_EQ(d.code, 0) << d.output;
    std::ifstream h(t.path / "d" / "model.h");
    const std::string text((std::istreambuf_iterator<char>(h)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("#define MODEL_BACKEND \"s8\""), std::string::npos);
}

TEST(CodegenCli, EachFailureHasItsOwnExitCode) {
    TempDir t;
    const std::string out = " -o '" + (t.path / "o").string() + "'";
    const fs::path garbage = t.path / "garbage.tgrs";
    { std::ofstream(garbage) << "this is not a plan"; }
    const fs::path plain = t.path / "plain_file";
    { std::ofstream(plain) << "x"; }
    struct Case {
        std::string args;
        int code;
        const char *says;
    } cases[] = {
        {"'" + garbage.string() + "'" + out, 2, "refuses this plan"},
        {"'" + (t.path / "missing.tgrs").string() + "'" + out, 2, "cannot read the plan"},
        {kPlan + " --backend cmsis" + out, 3, "unknown backend \"cmsis\""},
        {kPlan + " --name 9lives" + out, 4, "not a C identifier"},
        {kPlan + " --name tigris_model" + out, 4, "runtime's own prefix"},
        {kPlan + " -o '" + (plain / "sub").string() + "'", 5, "cannot create the output directory"},
        {kPlan + " -o '" + plain.string() + "'", 5, "output directory"},
        {kPlan + " --backend cmsis-nn" + out, 6, "runs int8 plans"},
        {kPlan, 1, "--output"},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.args);
        const Outcome o = cli(c.args);
        EXPECT_EQ(o.code, c.code) << o.output;
        EXPECT_NE(o.output.find(c.says), std::string::npos) << o.output;
    }
    EXPECT_FALSE(fs::exists(t.path / "o")) << "a refused run must write nothing";
}
