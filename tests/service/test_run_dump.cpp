// The --dump-tensors hook: a whole tensor produced by a normal stage is
// written under its index and name; a banded stage writes nothing partial.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "plan_builder.h"
#include "tigris_host/run.hpp"

namespace {

namespace fs = std::filesystem;
using tigris_test::PlanBuilder;

fs::path fresh_dir(const char *tag) {
    fs::path d = fs::temp_directory_path() / (std::string("tigris_dump_") + tag + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    return d;
}

std::vector<uint8_t> floats(const std::vector<float> &v) {
    std::vector<uint8_t> b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

TEST(RunDump, NormalStageWritesTheReluOutput) {
    std::vector<float> x(32), want(32);
    for (int i = 0; i < 32; i++) {
        x[i] = 0.5f * static_cast<float>(i - 16);
        want[i] = x[i] > 0 ? x[i] : 0.0f;  // Relu by hand
    }
    const fs::path dir = fresh_dir("relu");
    tigris::host::RunOptions o;
    o.dump_tensors_dir = dir.string();
    o.collect_trace = true;
    o.fast_bytes = 1u << 16;  // room for the whole stage: the normal path
    const auto r = tigris::host::run_plan(PlanBuilder::minimal_float().build(), floats(x), o);
    ASSERT_TRUE(r.ok()) << r.error;
    for (const auto &e : r.trace)
        if (e.kind == TIGRIS_TRACE_OP) ASSERT_EQ(e.path, TIGRIS_TRACE_PATH_NORMAL) << "precondition";
    EXPECT_TRUE(r.outputs == floats(want));
    const fs::path f = dir / "1_y.bin";  // tensor 1 is y (builder order)
    ASSERT_TRUE(fs::exists(f));
    std::ifstream in(f, std::ios::binary);
    const std::vector<uint8_t> got{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_TRUE(got == floats(want));
    size_t files = 0;
    for ([[maybe_unused]] const auto &e : fs::directory_iterator(dir)) files++;
    EXPECT_EQ(files, 1u);  // inputs are not produced by a kernel
    fs::remove_all(dir);
}

TEST(RunDump, BandedStageWritesNoBand) {
    const fs::path dir = fresh_dir("banded");
    tigris::host::RunOptions o;
    o.dump_tensors_dir = dir.string();
    o.collect_trace = true;
    // A conv with a height-stripe tile plan, in a fast arena that holds one
    // band but not the whole stage: the executor runs it in bands (checked
    // below as a precondition).
    o.fast_bytes = 1024;
    const auto r = tigris::host::run_plan(PlanBuilder::tiled_stripe().build(), std::vector<uint8_t>(8 * 8 * 2 * 4, 0), o);
    ASSERT_TRUE(r.ok()) << r.error;
    size_t banded_ops = 0;
    for (const auto &e : r.trace) banded_ops += e.kind == TIGRIS_TRACE_OP && e.path != TIGRIS_TRACE_PATH_NORMAL;
    ASSERT_GT(banded_ops, 0u) << "precondition: no banded op in this run";
    EXPECT_TRUE(fs::is_empty(dir));
    fs::remove_all(dir);
}

TEST(RunDump, UncreatableDirIsIo) {
    tigris::host::RunOptions o;
    o.dump_tensors_dir = "/proc/tigris_cannot_create_this";
    const auto r = tigris::host::run_plan(PlanBuilder::minimal_float().build(), std::vector<uint8_t>(32 * 4, 0), o);
    EXPECT_EQ(r.kind, tigris::host::RunResult::Kind::Io);
}

}  // namespace
