// tflm_run and tigris-model-gen as a user runs them: outputs, --json, --dump
// and every exit code.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "model_gen.hpp"
#include "oracle_case.hpp"
#include "shared_data.h"

namespace fs = std::filesystem;

namespace tigris::oracle {
namespace {

class TflmRun : public testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("tigris_tflm_run_" + std::to_string(::getpid()) + "_" +
                                            testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // Runs a command line; returns its exit code, stdout in *out.
    int sh(const std::string &cmd, std::string *out = nullptr) {
        const fs::path o = dir_ / "stdout.txt";
        const int rc = std::system((cmd + " >" + o.string() + " 2>" + (dir_ / "stderr.txt").string()).c_str());
        if (out) *out = slurp(o);
        return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    }
    static std::string slurp(const fs::path &p) {
        std::ifstream f(p, std::ios::binary);
        return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    }
    std::string path(const std::string &name) const { return (dir_ / name).string(); }
    void write(const std::string &name, const std::vector<uint8_t> &bytes) const {
        std::ofstream f(dir_ / name, std::ios::binary);
        f.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    std::string stderr_text() const { return slurp(dir_ / "stderr.txt"); }
    fs::path dir_;
};

const std::string kTflmRun = TFLM_RUN_PATH;
const std::string kModelGen = MODEL_GEN_PATH;

TEST_F(TflmRun, OutputsEqualTheInProcessOracleAndJsonDescribesTheModel) {
    REQUIRE_TFLM();
    const Case c = generate("CONV_2D", DType::Int8, 3);
    write("m.tflite", c.model);
    write("in.bin", c.input);
    std::string out;
    ASSERT_EQ(sh(kTflmRun + " " + path("m.tflite") + " " + path("in.bin") + " " + path("out.bin") + " --json", &out), 0)
        << stderr_text();
    const OracleRun want = run_tflm(c.model, c.input);
    ASSERT_TRUE(want.ok) << want.error;
    const std::string got = slurp(path("out.bin"));
    EXPECT_EQ(std::vector<uint8_t>(got.begin(), got.end()), want.output);
    const auto j = nlohmann::json::parse(out);
    EXPECT_EQ(j["arena_used_bytes"].get<size_t>(), want.arena_used_bytes);
    EXPECT_TRUE(j["arena_is_real"].get<bool>());
    ASSERT_EQ(j["inputs"].size(), 1u);
    EXPECT_EQ(j["inputs"][0]["dtype"], "int8");
    EXPECT_EQ(j["inputs"][0]["bytes"].get<size_t>(), c.input.size());
    EXPECT_EQ(j["outputs"][0]["bytes"].get<size_t>(), want.output.size());
}

TEST_F(TflmRun, DumpWritesEveryTensorAndSaysTheArenaIsNotReal) {
    REQUIRE_TFLM();
    const Case c = generate("graph", DType::Int8, 5);
    write("m.tflite", c.model);
    write("in.bin", c.input);
    fs::create_directories(dir_ / "dump");
    std::string out;
    ASSERT_EQ(sh(kTflmRun + " " + path("m.tflite") + " " + path("in.bin") + " " + path("out.bin") + " --json --dump " +
                     path("dump"),
                 &out),
              0)
        << stderr_text();
    EXPECT_FALSE(nlohmann::json::parse(out)["arena_is_real"].get<bool>());
    size_t files = 0;
    for (const auto &e : fs::directory_iterator(dir_ / "dump")) files += e.is_regular_file();
    EXPECT_GE(files, 3u);  // input, at least one intermediate or weight, output
    // The model output is among the dumps, byte for byte.
    const int32_t out_tensor = nlohmann::json::parse(out)["outputs"][0]["tensor"].get<int32_t>();
    EXPECT_EQ(slurp(dir_ / "dump" / ("t" + std::to_string(out_tensor) + ".bin")), slurp(path("out.bin")));
}

TEST_F(TflmRun, EveryExitCode) {
    REQUIRE_TFLM();
    const Case c = generate("CONV_2D", DType::Int8, 3);
    write("m.tflite", c.model);
    write("in.bin", c.input);
    write("short.bin", std::vector<uint8_t>(c.input.begin(), c.input.end() - 1));
    write("junk.tflite", std::vector<uint8_t>(64, 0x5a));
    const std::string m = path("m.tflite"), in = path("in.bin"), out = path("out.bin");
    EXPECT_EQ(sh(kTflmRun), 2);
    EXPECT_EQ(sh(kTflmRun + " " + m + " " + in), 2);
    EXPECT_EQ(sh(kTflmRun + " " + m + " " + in + " " + out + " --arena 0"), 2);
    EXPECT_EQ(sh(kTflmRun + " " + m + " " + in + " " + out + " --bogus"), 2);
    EXPECT_EQ(sh(kTflmRun + " " + path("missing.tflite") + " " + in + " " + out), 3);
    EXPECT_EQ(sh(kTflmRun + " " + path("junk.tflite") + " " + in + " " + out), 3);
    EXPECT_NE(stderr_text().find("not a valid TFLite model"), std::string::npos) << stderr_text();
    // 64 bytes makes TFLite Micro crash, 256 makes AllocateTensors fail: both are exit 4.
    EXPECT_EQ(sh(kTflmRun + " " + m + " " + in + " " + out + " --arena 64"), 4);
    EXPECT_NE(stderr_text().find("crashed"), std::string::npos) << stderr_text();
    EXPECT_EQ(sh(kTflmRun + " " + m + " " + in + " " + out + " --arena 256"), 4);
    EXPECT_EQ(sh(kTflmRun + " " + m + " " + path("short.bin") + " " + out), 5);
    EXPECT_NE(stderr_text().find("bytes"), std::string::npos) << stderr_text();
    EXPECT_EQ(sh(kTflmRun + " " + m + " " + in + " " + path("no/such/dir/out.bin")), 7);
}

TEST_F(TflmRun, SharedModelsRunAndReportAnArena) {
    REQUIRE_TFLM();
    TIGRIS_REQUIRE_SHARED();
    for (const fs::path &p : tigris_test::shared_models()) {
        const std::vector<uint8_t> model = tigris_test::read_file(p);
        // Zero inputs of the right size: ask with an empty input first.
        OracleRun probe = run_tflm(model, {});
        ASSERT_FALSE(probe.ok) << p;
        ASSERT_NE(probe.error.find("the model's inputs take"), std::string::npos) << p << ": " << probe.error;
        const size_t want = std::stoull(probe.error.substr(probe.error.rfind(' ') + 1));
        const OracleRun r = run_tflm(model, std::vector<uint8_t>(want, 0));
        EXPECT_TRUE(r.ok) << p << ": " << r.error;
        EXPECT_GT(r.arena_used_bytes, 0u) << p;
    }
}

TEST_F(TflmRun, ModelGenWritesWhatGenerateMakes) {
    std::string out;
    ASSERT_EQ(sh(kModelGen + " --list", &out), 0);
    for (const std::string &k : single_op_kinds()) EXPECT_NE(out.find(k + "\n"), std::string::npos) << k;
    ASSERT_EQ(sh(kModelGen + " MEAN int8 11 " + path("m.tflite") + " " + path("in.bin"), &out), 0) << stderr_text();
    const Case c = generate("MEAN", DType::Int8, 11);
    const std::string m = slurp(path("m.tflite")), in = slurp(path("in.bin"));
    EXPECT_EQ(std::vector<uint8_t>(m.begin(), m.end()), c.model);
    EXPECT_EQ(std::vector<uint8_t>(in.begin(), in.end()), c.input);
    EXPECT_NE(out.find("MEAN/int8/seed=11"), std::string::npos) << out;
    EXPECT_EQ(sh(kModelGen + " NO_SUCH int8 1 " + path("a") + " " + path("b")), 2);
    EXPECT_EQ(sh(kModelGen + " MEAN int4 1 " + path("a") + " " + path("b")), 2);
    EXPECT_EQ(sh(kModelGen + " MEAN int8 x1 " + path("a") + " " + path("b")), 2);
    EXPECT_EQ(sh(kModelGen + " MEAN int8 1 " + path("no/dir/a") + " " + path("b")), 1);
}

}  // namespace
}  // namespace tigris::oracle
