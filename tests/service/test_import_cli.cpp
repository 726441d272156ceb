// `tigris import` as a subprocess: a written plan runs through `tigris run`
// and dumps every tensor under its TFLite name; every refusal exits 2 with
// its reason and leaves no file; usage errors exit 1.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "cli_process.h"
#include "shared_data.h"

namespace {

namespace fs = std::filesystem;
using tigris_test::run_cli;

std::string model(const std::string &name) { return (tigris_test::shared_dir() / "models" / (name + ".tflite")).string(); }
std::string oracle(const std::string &name) { return (tigris_test::shared_dir() / "corpus" / "oracle" / name).string(); }

TEST(ImportCli, WrittenPlanRunsAndDumpsEveryTensorByName) {
    TIGRIS_REQUIRE_SHARED();
    const fs::path dir = tigris_test::cli_scratch() / "import_ok";
    fs::create_directories(dir);
    const std::string plan = (dir / "kws.tgrs").string();
    auto r = run_cli({"import", model("kws_ref_model"), "-o", plan, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["ops"], 13);  // README: 5 conv, 4 depthwise, pool, reshape, FC, softmax
    EXPECT_EQ(j["stages"].size(), 13u);
    EXPECT_EQ(j["bytes"].get<uintmax_t>(), fs::file_size(plan));
    EXPECT_FALSE(fs::exists(plan + ".partial"));

    const std::string out = (dir / "out.bin").string(), dump = (dir / "dump").string();
    r = run_cli({"run", plan, "--input", oracle("kws_ref_model.mid.input.bin"), "--output", out, "--dump-tensors", dump});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(tigris_test::slurp(out), tigris_test::slurp(oracle("kws_ref_model.mid.expected.bin")));
    // One file per operator output (13), named <index>_<TFLite tensor name>
    // ('/' made '_', long fused names cut to 120 bytes).
    size_t files = 0;
    std::set<std::string> names;
    for (const auto &e : fs::directory_iterator(dump)) {
        ++files;
        names.insert(e.path().filename().string());
    }
    EXPECT_EQ(files, 13u);
    EXPECT_TRUE(names.count("10_functional_1_average_pooling2d_AvgPool.bin")) << "pool output not dumped by name";
    EXPECT_TRUE(names.count("13_Identity.bin")) << "model output not dumped by name";
    EXPECT_EQ(tigris_test::slurp(fs::path(dump) / "13_Identity.bin"),
              tigris_test::slurp(oracle("kws_ref_model.mid.expected.bin")));
}

TEST(ImportCli, RefusalsExitTwoAndWriteNothing) {
    TIGRIS_REQUIRE_SHARED();
    const fs::path dir = tigris_test::cli_scratch() / "import_refused";
    fs::create_directories(dir);
    const std::string plan = (dir / "x.tgrs").string();
    auto r = run_cli({"import", model("keyword_scrambled_8bit"), "-o", plan});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("int16-tensor"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(plan));

    r = run_cli({"import", model("model_ToyCar_quant_fullint"), "-o", plan, "--schema", "5", "--json"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(nlohmann::json::parse(r.out)["refused"], "bad-option");
    EXPECT_FALSE(fs::exists(plan));

    const std::string junk = (dir / "junk.tflite").string();
    std::ofstream(junk) << "this is not a flatbuffer";
    r = run_cli({"import", junk, "-o", plan});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("not a readable TFLite model"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(plan));
}

TEST(ImportCli, UsageErrorsExitOne) {
    const std::string plan = (tigris_test::cli_scratch() / "usage.tgrs").string();
    EXPECT_EQ(run_cli({"import", "/nonexistent/model.tflite", "-o", plan}).code, 1);
    EXPECT_EQ(run_cli({"import", "m.tflite"}).code, 1);                                   // no -o
    EXPECT_EQ(run_cli({"import", "m.tflite", "-o", plan, "--compress", "zstd"}).code, 1);  // not a choice
    EXPECT_EQ(run_cli({"import", "m.tflite", "-o", plan, "--schema", "12"}).code, 1);
    EXPECT_FALSE(fs::exists(plan));
}

}  // namespace
