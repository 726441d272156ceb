// tigris_host::run_plan at library level: corpus outputs, backend choice,
// arena overrides, error kinds and the tensor dump.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "shared_data.h"
#include "tigris_host/run.hpp"

namespace {

namespace fs = std::filesystem;
using tigris::host::Backend;
using tigris::host::RunOptions;
using tigris::host::RunResult;
using tigris::host::run_plan;

std::vector<uint8_t> corpus(const std::string &name) { return tigris_test::read_file(tigris_test::shared_dir() / "corpus" / name); }

const char *const kPlans[] = {"pool_chain_v5", "linebuf_conv_chain_v5", "linebuf_conv_sig_chain_v5",
                              "linebuf_s8_conv_sig_chain_v5"};

TEST(RunLib, EveryCorpusCaseMatchesExpected) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *p : kPlans)
        for (const char *v : {"pattern", "random"}) {
            const std::string c = std::string(p) + "." + v;
            const RunResult r = run_plan(corpus(c + ".tgrs"), corpus(c + ".input.bin"));
            ASSERT_TRUE(r.ok()) << c << ": " << r.error;
            EXPECT_TRUE(r.outputs == corpus(c + ".expected.bin")) << c;
            EXPECT_LE(r.fast_peak, r.fast_required) << c;
            EXPECT_EQ(r.fast_size, r.fast_required) << c;
            EXPECT_GT(r.slow_peak, 0u) << c;  // inputs live in slow (in-place placement)
        }
}

TEST(RunLib, AutoBackendFollowsPlanDtype) {
    TIGRIS_REQUIRE_SHARED();
    EXPECT_EQ(run_plan(corpus("pool_chain_v5.pattern.tgrs"), corpus("pool_chain_v5.pattern.input.bin")).backend, "f32");
    EXPECT_EQ(run_plan(corpus("linebuf_s8_conv_sig_chain_v5.pattern.tgrs"),
                       corpus("linebuf_s8_conv_sig_chain_v5.pattern.input.bin"))
                  .backend,
              "s8");
}

TEST(RunLib, WrongBackendDoesNotReproduceExpected) {
    TIGRIS_REQUIRE_SHARED();
    // The float dispatcher on an int8 plan either fails or computes something
    // else: the option must really switch dispatchers.
    RunOptions o;
    o.backend = Backend::F32;
    const std::string c = "linebuf_s8_conv_sig_chain_v5.pattern";
    const RunResult r = run_plan(corpus(c + ".tgrs"), corpus(c + ".input.bin"), o);
    EXPECT_EQ(r.backend, "f32");
    EXPECT_TRUE(!r.ok() || r.outputs != corpus(c + ".expected.bin"));
}

TEST(RunLib, ArenaOverridesAndMemError) {
    TIGRIS_REQUIRE_SHARED();
    const std::string c = "pool_chain_v5.pattern";
    RunOptions o;
    o.fast_bytes = 64;
    const RunResult small = run_plan(corpus(c + ".tgrs"), corpus(c + ".input.bin"), o);
    EXPECT_EQ(small.kind, RunResult::Kind::Refused);
    EXPECT_NE(small.error.find("--fast"), std::string::npos) << small.error;
    o.fast_bytes = 1u << 20;
    o.slow_bytes = 1u << 20;
    const RunResult big = run_plan(corpus(c + ".tgrs"), corpus(c + ".input.bin"), o);
    ASSERT_TRUE(big.ok()) << big.error;
    EXPECT_EQ(big.fast_size, 1u << 20);
    EXPECT_EQ(big.slow_size, 1u << 20);
    EXPECT_TRUE(big.outputs == corpus(c + ".expected.bin"));
}

TEST(RunLib, BadInputSizeAndRefusedPlan) {
    TIGRIS_REQUIRE_SHARED();
    std::vector<uint8_t> in = corpus("pool_chain_v5.pattern.input.bin");
    in.pop_back();
    const RunResult r = run_plan(corpus("pool_chain_v5.pattern.tgrs"), in);
    EXPECT_EQ(r.kind, RunResult::Kind::Refused);
    EXPECT_NE(r.error.find("16383"), std::string::npos) << r.error;
    const RunResult neg = run_plan(corpus("negative/legacy_v1_pool_chain.tgrs"), corpus("negative/legacy_v1_pool_chain.input.bin"));
    EXPECT_EQ(neg.kind, RunResult::Kind::Refused);
    const RunResult garbage = run_plan(std::vector<uint8_t>(10, 0), {});
    EXPECT_EQ(garbage.kind, RunResult::Kind::Refused);
}

TEST(RunLib, MissingFileIsIo) {
    const RunResult r = tigris::host::run_plan_file("/nonexistent/plan.tgrs", "/nonexistent/in.bin");
    EXPECT_EQ(r.kind, RunResult::Kind::Io);
    EXPECT_NE(r.error.find("/nonexistent/plan.tgrs"), std::string::npos);
}

TEST(RunLib, TraceCollectedOnlyWhenAsked) {
    TIGRIS_REQUIRE_SHARED();
    const std::string c = "pool_chain_v5.pattern";
    EXPECT_TRUE(run_plan(corpus(c + ".tgrs"), corpus(c + ".input.bin")).trace.empty());
    RunOptions o;
    o.collect_trace = true;
    const RunResult r = run_plan(corpus(c + ".tgrs"), corpus(c + ".input.bin"), o);
    ASSERT_TRUE(r.ok());
    ASSERT_FALSE(r.trace.empty());
    size_t ops = 0, stage_begin = 0, stage_end = 0;
    uint32_t max_fast = 0;
    for (const auto &e : r.trace) {
        ops += e.kind == TIGRIS_TRACE_OP;
        stage_begin += e.kind == TIGRIS_TRACE_STAGE_BEGIN;
        stage_end += e.kind == TIGRIS_TRACE_STAGE_END;
        max_fast = std::max(max_fast, e.fast_used);
    }
    EXPECT_EQ(stage_begin, stage_end);
    EXPECT_GE(ops, 2u);  // two ops, each called at least once
    EXPECT_LE(max_fast, r.fast_size);
    // The outputs are the same with the trace on.
    EXPECT_TRUE(r.outputs == corpus(c + ".expected.bin"));
}

TEST(RunLib, DumpTensorsWritesWholeTensors) {
    TIGRIS_REQUIRE_SHARED();
    // The pool chain runs only as a chain (bands), so nothing whole is
    // produced; use a plan we can check at least writes no partial tensor.
    const fs::path dir = fs::temp_directory_path() / ("tigris_dump_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    RunOptions o;
    o.dump_tensors_dir = dir.string();
    const std::string c = "pool_chain_v5.pattern";
    const RunResult r = run_plan(corpus(c + ".tgrs"), corpus(c + ".input.bin"), o);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(fs::is_directory(dir));
    EXPECT_TRUE(r.outputs == corpus(c + ".expected.bin"));  // the wrapper changes nothing
    for (const auto &f : fs::directory_iterator(dir)) ADD_FAILURE() << "band dumped as a whole tensor: " << f.path();
    fs::remove_all(dir);
}

}  // namespace
