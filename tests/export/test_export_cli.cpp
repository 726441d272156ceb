// `tigris export` and `tigris analyze` as subprocesses: the seed's layout,
// exit codes, the written file, and no file whenever nothing is written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "cli_process.h"
#include "shared_data.h"
#include "tigris_tflite/model.hpp"

namespace {

namespace fs = std::filesystem;
using tigris_test::run_cli;

std::string model(const std::string &name) { return (tigris_test::shared_dir() / "models" / (name + ".tflite")).string(); }

fs::path scratch(const std::string &name) {
    const fs::path d = tigris_test::cli_scratch() / name;
    fs::create_directories(d);
    return d;
}

}  // namespace

TEST(ExportCli, WritesTheModelAndPrintsTheSeedLayout) {
    TIGRIS_REQUIRE_SHARED();
    const std::string out = (scratch("export_ok") / "small.tflite").string();
    auto r = run_cli({"export", model("vww_96_int8"), "-o", out});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::regex layout(
        "vww_96_int8\\.tflite   31 operators\n"
        "operators \\d+-\\d+ computed in \\d+ row bands, \\+\\d+\\.\\d\\d% MACs(, \\d+ PADs? folded)?; \\d+ operators after export\n"
        "\n"
        "TFLite Micro arena, reference kernels on arm-none-eabi\n"
        "  head            *\\d+\\.\\d\\d KiB   72\\.00 KiB before\n"
        "  persistent      *\\+\\d+\\.\\d\\d KiB\n"
        "  total change   *-\\d+\\.\\d\\d KiB\n"
        "\n"
        "wrote .*small\\.tflite   \\d+\\.\\d\\d KiB\n");
    EXPECT_TRUE(std::regex_match(r.out, layout)) << r.out;
    ASSERT_TRUE(fs::exists(out));
    EXPECT_FALSE(fs::exists(out + ".partial"));
    const auto bytes = tigris_test::read_file(out);
    const tigris::tflite::Model m = tigris::tflite::read_model(bytes);
    EXPECT_GT(m.subgraphs.at(0).operators.size(), 31u);
    char size[32];
    std::snprintf(size, sizeof size, "%.2f KiB", static_cast<double>(bytes.size()) / 1024.0);
    EXPECT_NE(r.out.find(std::string("small.tflite   ") + size), std::string::npos) << r.out;
}

TEST(ExportCli, DefaultOutputIsNextToTheInput) {
    TIGRIS_REQUIRE_SHARED();
    const fs::path dir = scratch("export_default");
    fs::copy_file(model("vww_96_int8"), dir / "vww_96_int8.tflite", fs::copy_options::overwrite_existing);
    auto r = run_cli({"export", (dir / "vww_96_int8.tflite").string(), "--target", "lp64"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir / "vww_96_int8_export.tflite"));
    EXPECT_NE(r.out.find("reference kernels on lp64\n"), std::string::npos) << r.out;
}

TEST(ExportCli, NothingWrittenExitsOneWithTheReasonAndNoFile) {
    TIGRIS_REQUIRE_SHARED();
    const fs::path dir = scratch("export_refused");
    struct Case {
        const char *model, *reason;
    } cases[] = {
        {"kws_ref_model", "no rewrite lowers the arena"},
        {"ad01_int8", "no rewrite lowers the arena"},
        {"keyword_scrambled_8bit", "TFLite Micro's scratch buffers for SVDF are not modeled"},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.model);
        const std::string out = (dir / (std::string(c.model) + ".tflite")).string();
        auto r = run_cli({"export", model(c.model), "-o", out});
        EXPECT_EQ(r.code, 1);
        EXPECT_EQ(r.err, std::string("Error: no model written: ") + c.reason + "\n");
        EXPECT_EQ(r.out.rfind(std::string(c.model) + ".tflite   ", 0), 0u) << r.out;
        EXPECT_FALSE(fs::exists(out));
        EXPECT_FALSE(fs::exists(out + ".partial"));
    }
    // Not a TFLite file at all: the reader's reason, no model line, no file.
    const fs::path junk = dir / "junk.tflite";
    std::ofstream(junk) << "this is not a flatbuffer";
    auto r = run_cli({"export", junk.string(), "-o", (dir / "junk_out.tflite").string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err.rfind("Error: no model written: ", 0), 0u) << r.err;
    EXPECT_FALSE(fs::exists(dir / "junk_out.tflite"));
    // An unknown target is a usage error.
    r = run_cli({"export", model("vww_96_int8"), "--target", "riscv", "-o", (dir / "t.tflite").string()});
    EXPECT_NE(r.code, 0);
    EXPECT_FALSE(fs::exists(dir / "t.tflite"));
}

TEST(ExportCli, JsonReportsTheSameResult) {
    TIGRIS_REQUIRE_SHARED();
    const fs::path dir = scratch("export_json");
    auto r = run_cli({"export", model("vww_96_int8"), "-o", (dir / "a.tflite").string(), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["written"].get<bool>());
    EXPECT_EQ(j["target"], "arm-none-eabi");
    EXPECT_EQ(j["before"]["head_bytes"], 73728);
    EXPECT_EQ(j["model_bytes"].get<uintmax_t>(), fs::file_size(dir / "a.tflite"));
    EXPECT_LT(j["total_change_bytes"].get<int64_t>(), 0);
    r = run_cli({"export", model("kws_ref_model"), "-o", (dir / "b.tflite").string(), "--json"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(nlohmann::json::parse(r.out)["reason"], "no rewrite lowers the arena");
}

TEST(AnalyzeCli, PrintsTheTwoTfliteMicroRows) {
    TIGRIS_REQUIRE_SHARED();
    auto r = run_cli({"analyze", model("vww_96_int8")});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("  TFLite Micro arena     72.00 KiB   its planner and reduction scratch; persistent "
                         "allocations and other kernel scratch excluded\n"),
              std::string::npos)
        << r.out;
    const std::regex row("  TFLite Micro export  +-\\d+\\.\\d\\d KiB   head 72\\.00 KiB -> \\d+\\.\\d\\d KiB, persistent "
                         "\\+\\d+\\.\\d\\d KiB, \\+\\d+\\.\\d\\d% MACs, reference kernels on arm-none-eabi\n");
    EXPECT_TRUE(std::regex_search(r.out, row)) << r.out;

    r = run_cli({"analyze", model("kws_ref_model")});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("  TFLite Micro export         none   no rewrite lowers the arena, reference kernels on "
                         "arm-none-eabi\n"),
              std::string::npos)
        << r.out;

    r = run_cli({"analyze", model("keyword_scrambled_8bit")});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("none   TFLite Micro's scratch buffers for SVDF are not modeled\n"), std::string::npos) << r.out;

    r = run_cli({"analyze", model("vww_96_int8"), "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["tflite_micro"]["arena"]["head_bytes"], 73728);
    EXPECT_TRUE(j["tflite_micro"]["export"]["written"].get<bool>());
    EXPECT_EQ(j["tflite_micro"]["export"]["target"], "arm-none-eabi");
}
