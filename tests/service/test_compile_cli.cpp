// `tigris compile` as a subprocess: the exit codes (0 written, 1 usage,
// 2 refused model, 3 unreachable budget) and that a refusal writes no file.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_process.h"
#include "shared_data.h"

namespace {

namespace fs = std::filesystem;
using tigris_test::run_cli;

std::string model(const std::string &name) { return (tigris_test::shared_dir() / "models" / (name + ".tflite")).string(); }

TEST(CompileCli, WritesAPlanWithinTheBudget) {
    TIGRIS_REQUIRE_SHARED();
    const fs::path dir = tigris_test::cli_scratch() / "compile_ok";
    fs::create_directories(dir);
    const std::string plan = (dir / "vww.tgrs").string();
    auto r = run_cli({"compile", model("vww_96_int8"), "-m", "16K", "-o", plan, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_LE(j["fast_arena_required"].get<uint32_t>(), 16384u);
    // 16 KiB cannot hold vww's 36 KiB tensors: stripes or chains band them.
    EXPECT_GT(j["stages"]["tiled"].get<uint32_t>() + j["stages"]["chains"].get<uint32_t>(), 0u);
    EXPECT_EQ(j["plan_bytes"].get<uintmax_t>(), fs::file_size(plan));
    EXPECT_FALSE(fs::exists(plan + ".partial"));
    // The written plan runs at its declared arena (the default of `tigris
    // run`) and gives the bytes TFLite Micro gave on the corpus input.
    const std::string oracle = (tigris_test::shared_dir() / "corpus" / "oracle").string();
    const std::string out = (dir / "out.bin").string();
    r = run_cli({"run", plan, "--input", oracle + "/vww_96_int8.mid.input.bin", "--output", out, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(tigris_test::slurp(out), tigris_test::slurp(oracle + "/vww_96_int8.mid.expected.bin"));
    const nlohmann::json run = nlohmann::json::parse(r.out);
    EXPECT_LE(run["fast_peak"].get<uint32_t>(), j["fast_arena_required"].get<uint32_t>()) << r.out;

    r = run_cli({"compile", model("vww_96_int8"), "-m", "64K+1M"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("fits ", 0), 0u) << r.out;  // the verdict line comes first
}

TEST(CompileCli, UnreachableBudgetsExitThreeAndWriteNothing) {
    TIGRIS_REQUIRE_SHARED();
    const std::string plan = (tigris_test::cli_scratch() / "below.tgrs").string();
    auto r = run_cli({"compile", model("vww_96_int8"), "-m", "1K", "-o", plan});
    EXPECT_EQ(r.code, 3);
    EXPECT_NE(r.err.find("minimum execution unit is"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(plan));
    // A slow budget smaller than what the schedule spills.
    r = run_cli({"compile", model("vww_96_int8"), "-m", "16K", "-m", "4K", "-o", plan});
    EXPECT_EQ(r.code, 3);
    EXPECT_NE(r.err.find("slow budget"), std::string::npos) << r.err;
    // A flash budget smaller than the plan.
    r = run_cli({"compile", model("vww_96_int8"), "-m", "64K", "-f", "64K", "-o", plan});
    EXPECT_EQ(r.code, 3);
    EXPECT_FALSE(fs::exists(plan));
}

TEST(CompileCli, RefusedModelsExitTwo) {
    TIGRIS_REQUIRE_SHARED();
    const std::string plan = (tigris_test::cli_scratch() / "refused.tgrs").string();
    auto r = run_cli({"compile", model("keyword_scrambled_8bit"), "-m", "64K", "-o", plan, "--json"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(nlohmann::json::parse(r.out)["refused"], "int16-tensor");
    EXPECT_FALSE(fs::exists(plan));
    r = run_cli({"compile", model("kws_ref_model"), "-m", "64K", "-c", "lz4", "--xip"});
    EXPECT_EQ(r.code, 2);  // bad-option, as import refuses it
}

TEST(CompileCli, UsageErrorsExitOne) {
    EXPECT_EQ(run_cli({"compile", "/nonexistent/model.tflite", "-m", "64K"}).code, 1);
    const std::string m = model("kws_ref_model");
    EXPECT_EQ(run_cli({"compile", m}).code, 1);                     // no -m
    EXPECT_EQ(run_cli({"compile", m, "-m", "64Q"}).code, 1);        // bad size
    EXPECT_EQ(run_cli({"compile", m, "-m", "0"}).code, 1);          // no fast memory
    EXPECT_EQ(run_cli({"compile", m, "-m", "64K+1M", "-m", "2M"}).code, 1);  // slow twice
    EXPECT_EQ(run_cli({"compile", m, "-m", "64K", "-c", "zip"}).code, 1);
}

}  // namespace

namespace {

TEST(AnalyzeMemoryCli, ReportsTheScheduleTheFloorAndTheBudgets) {
    TIGRIS_REQUIRE_SHARED();
    auto r = run_cli({"analyze", model("vww_96_int8"), "-m", "16K", "-v"});
    ASSERT_EQ(r.code, 0) << r.err;
    // The verdict comes right after the model line.
    const size_t nl = r.out.find('\n');
    ASSERT_NE(nl, std::string::npos);
    EXPECT_EQ(r.out.compare(nl + 1, 5, "fits "), 0) << r.out;
    for (const char *row : {"naive peak", "largest tensor", "fast peak", "slow peak", "slow traffic", "extra MACs",
                            "stages", "plan size", "hard floor", "also fits at", "total RAM", "TFLite Micro arena"})
        EXPECT_NE(r.out.find(row), std::string::npos) << row << " missing:\n" << r.out;
    EXPECT_NE(r.out.find("\nstages\n"), std::string::npos) << "-v has the per-stage table";

    r = run_cli({"analyze", model("vww_96_int8"), "-m", "16K", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const auto &t = j["tigris"];
    EXPECT_TRUE(t["fits"].get<bool>());
    EXPECT_LE(t["schedule"]["fast_arena_required"].get<uint32_t>(), 16384u);
    const uint32_t floor = t["floor"]["bytes"].get<uint32_t>();
    EXPECT_GT(floor, 0u);
    EXPECT_LE(floor, 10240u);  // the target for vww
    bool floor_row = false;
    for (const auto &b : t["budgets"]) floor_row |= b["budget"] == floor && b["fits"].get<bool>();
    EXPECT_TRUE(floor_row);
    EXPECT_EQ(j["tflite_micro"]["arena"]["head_bytes"], 73728);

    // A budget below the floor is a report, not an error.
    r = run_cli({"analyze", model("vww_96_int8"), "-m", "1K"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("does not fit: "), std::string::npos) << r.out;
    EXPECT_EQ(run_cli({"analyze", model("vww_96_int8"), "-m", "lots"}).code, 1);
}

}  // namespace
