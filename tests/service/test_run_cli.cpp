// `tigris run` and `tigris trace` as a subprocess: outputs equal the corpus'
// expected bytes for every case, and each exit code (0, 1, 2) is reached.
#include <gtest/gtest.h>


#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_process.h"
#include "shared_data.h"

namespace {

namespace fs = std::filesystem;

using Proc = tigris_test::CliResult;
using tigris_test::slurp;

fs::path scratch() { return tigris_test::cli_scratch(); }

class RunCli : public ::testing::Test {
protected:
    Proc spawn(std::vector<std::string> args) {
        Proc r = tigris_test::run_cli(std::move(args));
        if (r.code < 0) ADD_FAILURE() << r.err;
        return r;
    }

    static std::string corpus(const std::string &name) { return (tigris_test::shared_dir() / "corpus" / name).string(); }
};

const char *const kPlans[] = {"pool_chain_v5", "linebuf_conv_chain_v5", "linebuf_conv_sig_chain_v5",
                              "linebuf_s8_conv_sig_chain_v5"};

TEST_F(RunCli, EveryCorpusCaseGivesTheExpectedBytes) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *p : kPlans)
        for (const char *v : {"pattern", "random"}) {
            const std::string c = std::string(p) + "." + v;
            const std::string out = (scratch() / (c + ".out")).string();
            const Proc r = spawn({"run", corpus(c + ".tgrs"), "--input", corpus(c + ".input.bin"), "--output", out});
            ASSERT_EQ(r.code, 0) << c << ": " << r.err;
            EXPECT_TRUE(r.err.empty()) << r.err;
            const std::string want = slurp(corpus(c + ".expected.bin"));
            ASSERT_FALSE(want.empty());
            EXPECT_TRUE(slurp(out) == want) << c << ": output bytes differ from expected.bin";
        }
}

TEST_F(RunCli, JsonReportsPeaksWithinTheArena) {
    TIGRIS_REQUIRE_SHARED();
    const std::string c = "linebuf_s8_conv_sig_chain_v5.pattern";
    const Proc r = spawn({"run", corpus(c + ".tgrs"), "--input", corpus(c + ".input.bin"), "--output",
                          (scratch() / "o.bin").string(), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["backend"], "s8");  // auto picks int8 for this plan (MANIFEST)
    EXPECT_EQ(j["output_bytes"], 32768);  // MANIFEST: [1,64,64,8] int8
    EXPECT_LE(j["fast_peak"].get<uint32_t>(), j["fast_required"].get<uint32_t>());
    EXPECT_EQ(j["fast_size"], j["fast_required"]);
    EXPECT_GE(j["wall_ms"].get<double>(), 0.0);
    // MANIFEST: 2 stages, one chain of 2; runtime-semantics: stages_chain += chain_len.
    EXPECT_EQ(j["stats"]["stages_chain"], 2) << j.dump();
    EXPECT_EQ(j["stats"]["stages_normal"], 0) << j.dump();
}

TEST_F(RunCli, WrongInputSizeExits2) {
    TIGRIS_REQUIRE_SHARED();
    const Proc r = spawn({"run", corpus("pool_chain_v5.pattern.tgrs"), "--input",
                          corpus("linebuf_conv_chain_v5.pattern.input.bin"), "--output", (scratch() / "x").string()});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("49152"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("16384"), std::string::npos) << r.err;
}

TEST_F(RunCli, RefusedPlanExits2) {
    TIGRIS_REQUIRE_SHARED();
    const Proc r = spawn({"run", corpus("negative/legacy_v1_pool_chain.tgrs"), "--input",
                          corpus("negative/legacy_v1_pool_chain.input.bin"), "--output", (scratch() / "x").string()});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("refuses"), std::string::npos) << r.err;
}

TEST_F(RunCli, TooSmallFastArenaExits2) {
    TIGRIS_REQUIRE_SHARED();
    const Proc r = spawn({"run", corpus("pool_chain_v5.pattern.tgrs"), "--input", corpus("pool_chain_v5.pattern.input.bin"),
                          "--output", (scratch() / "x").string(), "--fast", "64"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--fast"), std::string::npos) << r.err;
}

TEST_F(RunCli, MissingInputFileExits1) {
    TIGRIS_REQUIRE_SHARED();
    const Proc r = spawn({"run", corpus("pool_chain_v5.pattern.tgrs"), "--input", (scratch() / "absent").string(),
                          "--output", (scratch() / "x").string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("absent"), std::string::npos) << r.err;
}

TEST_F(RunCli, UnwritableOutputExits1) {
    TIGRIS_REQUIRE_SHARED();
    const Proc r = spawn({"run", corpus("pool_chain_v5.pattern.tgrs"), "--input", corpus("pool_chain_v5.pattern.input.bin"),
                          "--output", (scratch() / "no_dir" / "x").string()});
    EXPECT_EQ(r.code, 1);
}

TEST_F(RunCli, UsageErrorsExit1) {
    EXPECT_EQ(spawn({"run", "plan.tgrs"}).code, 1);  // --input/--output missing
    EXPECT_EQ(spawn({"run", "p", "--input", "i", "--output", "o", "--backend", "fp16"}).code, 1);
    EXPECT_EQ(spawn({"trace", "p", "--input", "i", "--format", "svg"}).code, 1);
}

TEST_F(RunCli, TraceFormatsAndExitCodes) {
    TIGRIS_REQUIRE_SHARED();
    const std::string c = "pool_chain_v5.pattern";
    const Proc text = spawn({"trace", corpus(c + ".tgrs"), "--input", corpus(c + ".input.bin")});
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_EQ(text.out.rfind("ALLOC", 0) == 0 || text.out.rfind("STAGE_BEGIN", 0) == 0, true) << text.out.substr(0, 80);
    const Proc jsonl = spawn({"trace", corpus(c + ".tgrs"), "--input", corpus(c + ".input.bin"), "--format", "jsonl"});
    ASSERT_EQ(jsonl.code, 0);
    // One line per event in both formats.
    EXPECT_EQ(std::count(text.out.begin(), text.out.end(), '\n'), std::count(jsonl.out.begin(), jsonl.out.end(), '\n'));
    std::istringstream lines(jsonl.out);
    for (std::string line; std::getline(lines, line);) EXPECT_TRUE(nlohmann::json::accept(line)) << line;
    const Proc chrome = spawn({"trace", corpus(c + ".tgrs"), "--input", corpus(c + ".input.bin"), "--format", "chrome"});
    ASSERT_EQ(chrome.code, 0);
    EXPECT_TRUE(nlohmann::json::parse(chrome.out).contains("traceEvents"));
    EXPECT_EQ(spawn({"trace", corpus(c + ".tgrs"), "--input", (scratch() / "absent").string()}).code, 1);
    EXPECT_EQ(spawn({"trace", corpus(c + ".tgrs"), "--input", corpus(c + ".input.bin"), "--fast", "64"}).code, 2);
}

}  // namespace
