// The `tigris` binary run as a subprocess: exit codes (0 ok, 1 usage or I/O,
// 2 plan refused), the error line on stderr, and parseable --json output.
#include <gtest/gtest.h>


#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_process.h"
#include "plan_builder.h"
#include "shared_data.h"

namespace {

namespace fs = std::filesystem;

using Result = tigris_test::CliResult;
using tigris_test::slurp;

fs::path scratch() { return tigris_test::cli_scratch(); }

class Cli : public ::testing::Test {
protected:
    // Runs the CLI without a shell, so arguments reach it exactly as given.
    Result run(std::vector<std::string> args) {
        Result r = tigris_test::run_cli(std::move(args));
        if (r.code < 0) ADD_FAILURE() << r.err;
        return r;
    }

    static std::string corpus(const std::string &name) {
        return (tigris_test::shared_dir() / "corpus" / name).string();
    }

    static std::string write(const std::string &name, const std::vector<uint8_t> &bytes) {
        const fs::path p = scratch() / name;
        std::ofstream o(p, std::ios::binary);
        o.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        return p.string();
    }
};

TEST_F(Cli, InspectCorpusPlanAsJson) {
    TIGRIS_REQUIRE_SHARED();
    const Result r = run({"inspect", corpus("pool_chain_v5.pattern.tgrs"), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);  // throws (fails) when not JSON
    EXPECT_EQ(j["status"]["ok"], true);
    EXPECT_EQ(j["file_bytes"], 431);
    EXPECT_EQ(j["plan"]["counts"]["ops"], 2);
    EXPECT_EQ(j["plan"]["counts"]["stages"], 2);
    EXPECT_EQ(j["plan"]["memory"]["budget"], 4096);
    EXPECT_EQ(j["plan"]["memory"]["header_peak"], 20480);
    EXPECT_EQ(j["plan"]["stages"][0]["ops"][0]["type_name"], "AVG_POOL");
    EXPECT_EQ(j["plan"]["stages"][1]["ops"][0]["type_name"], "MAX_POOL");
    EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(Cli, InspectCorpusPlanAsText) {
    TIGRIS_REQUIRE_SHARED();
    const Result r = run({"inspect", corpus("linebuf_s8_conv_sig_chain_v5.pattern.tgrs")});
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char *want : {"schema 5", "int8", "CONV, SIGMOID", "chain_head", "chain_member", "[1,64,64,3]",
                             "12288", "32768", "budget 32768"})
        EXPECT_NE(r.out.find(want), std::string::npos) << "missing '" << want << "' in\n" << r.out;
}

TEST_F(Cli, InspectExamplePlan) {
    const Result r = run({"inspect", TIGRIS_EXAMPLE_PLAN, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["plan"]["schema"], 11);
    EXPECT_EQ(j["path"], TIGRIS_EXAMPLE_PLAN);
}

TEST_F(Cli, LegacyPlanIsRefusedWithExitTwo) {
    TIGRIS_REQUIRE_SHARED();
    const Result r = run({"inspect", corpus("negative/legacy_v1_pool_chain.tgrs")});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: TIGRIS_ERR_BAD_VERSION: ", 0), 0u) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;

    const Result j = run({"inspect", corpus("negative/legacy_v1_pool_chain.tgrs"), "--json"});
    EXPECT_EQ(j.code, 2);
    EXPECT_EQ(nlohmann::json::parse(j.out)["status"]["name"], "TIGRIS_ERR_BAD_VERSION");
    EXPECT_NE(j.err.find("TIGRIS_ERR_BAD_VERSION"), std::string::npos);
}

TEST_F(Cli, TruncatedPlanIsRefusedWithExitTwo) {
    tigris_test::PlanBuilder b = tigris_test::PlanBuilder::float_conv(9);
    std::vector<uint8_t> bytes = b.build();
    bytes.resize(bytes.size() - 16);
    const Result r = run({"inspect", write("truncated.tgrs", bytes)});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("error: TIGRIS_ERR_BAD_SIZE: ", 0), 0u) << r.err;

    bytes.resize(20);
    const Result s = run({"inspect", write("stub.tgrs", bytes)});
    EXPECT_EQ(s.code, 2);
    EXPECT_EQ(s.err.rfind("error: TIGRIS_ERR_TOO_SMALL: ", 0), 0u) << s.err;
}

TEST_F(Cli, TruncatedCorpusPlanIsRefusedWithExitTwo) {
    TIGRIS_REQUIRE_SHARED();
    std::vector<uint8_t> bytes = tigris_test::read_file(corpus("pool_chain_v5.pattern.tgrs"));
    bytes.resize(200);
    const Result r = run({"inspect", write("pool_200.tgrs", bytes)});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("error: TIGRIS_ERR_"), std::string::npos) << r.err;
}

TEST_F(Cli, MissingFileIsExitOne) {
    const Result r = run({"inspect", (scratch() / "no_such_plan.tgrs").string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("no_such_plan.tgrs"), std::string::npos) << r.err;
    const Result d = run({"inspect", scratch().string()});
    EXPECT_EQ(d.code, 1);
}

TEST_F(Cli, BadUsageIsExitOne) {
    EXPECT_EQ(run({}).code, 1);                                   // no subcommand
    EXPECT_EQ(run({"inspect"}).code, 1);                          // no plan
    EXPECT_EQ(run({"inspect", "a.tgrs", "--bogus"}).code, 1);     // unknown option
    EXPECT_EQ(run({"frobnicate"}).code, 1);                       // unknown subcommand
    EXPECT_EQ(run({"inspect", "a.tgrs", "b.tgrs"}).code, 1);      // extra argument
}

TEST_F(Cli, HelpAndVersionSucceed) {
    const Result h = run({"--help"});
    EXPECT_EQ(h.code, 0);
    EXPECT_NE(h.out.find("inspect"), std::string::npos) << h.out;
    const Result v = run({"--version"});
    EXPECT_EQ(v.code, 0);
    EXPECT_NE(v.out.find("0.11.0"), std::string::npos) << v.out;
    EXPECT_EQ(run({"inspect", "--help"}).code, 0);
}

}  // namespace
