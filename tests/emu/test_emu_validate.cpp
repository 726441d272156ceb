// `tigris validate` and the Validate / ListTargets RPCs end to end.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "cli_process.h"
#include "emu_test_support.h"
#include "shared_data.h"
#include "tigris/v1/tigris.grpc.pb.h"
#include "tigris_server/server.hpp"

namespace {

namespace v1 = tigris::v1;

std::string corpus_path(const std::string &f) { return (tigris_test::shared_dir() / "corpus" / f).string(); }

TEST(EmuValidateCli, JsonHasOneResultPerTargetWithTheIssueFields) {
    TIGRIS_REQUIRE_SHARED();
    EMU_REQUIRE("cortex-m4");
    EMU_REQUIRE("xtensa-lx106");
    // No --input: the pattern fill, which for this plan is the corpus's pattern input.
    auto r = tigris_test::run_cli({"validate", corpus_path("linebuf_s8_conv_sig_chain_v5.pattern.tgrs"), "--target",
                                   "cortex-m4", "--target", "xtensa-lx106", "--json"});
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["results"].size(), 2u);
    for (const auto &t : j["results"]) {
        for (const char *k : {"target", "parity", "ref_instructions", "accel_instructions", "fast_peak",
                              "first_mismatch", "error"})
            EXPECT_TRUE(t.contains(k)) << k;
        EXPECT_EQ(t["parity"], true) << t.dump();
        EXPECT_TRUE(t["first_mismatch"].is_null());
        EXPECT_TRUE(t["error"].is_null());
        EXPECT_GT(t["fast_peak"].get<uint32_t>(), 0u);
        if (!t["ref_instructions"].is_null()) {
            EXPECT_GT(t["ref_instructions"].get<uint64_t>(), t["accel_instructions"].get<uint64_t>())
                << "the accelerated backend should need fewer instructions on " << t["target"];
        }
    }
    EXPECT_EQ(j["results"][0]["target"], "cortex-m4");
    EXPECT_EQ(j["results"][1]["target"], "xtensa-lx106");
}

TEST(EmuValidateCli, UnknownTargetIsAClearError) {
    TIGRIS_REQUIRE_SHARED();
    auto bad = tigris_test::run_cli({"validate", corpus_path("pool_chain_v5.pattern.tgrs"), "--target", "m99"});
    EXPECT_EQ(bad.code, 1);
    EXPECT_NE(bad.err.find("unknown target 'm99'"), std::string::npos) << bad.err;
}

// lx106 has no FPU: the float plan runs on GCC's soft-float routines and must
// still give the corpus's bytes, with both backends.
TEST(EmuValidateCli, FloatPlanOnLx106IsBitExact) {
    TIGRIS_REQUIRE_SHARED();
    EMU_REQUIRE("xtensa-lx106");
    auto f = tigris_test::run_cli({"validate", corpus_path("pool_chain_v5.pattern.tgrs"), "--target", "xtensa-lx106",
                                   "--json", "--input", corpus_path("pool_chain_v5.pattern.input.bin")});
    ASSERT_EQ(f.code, 0) << f.out << f.err;
    auto j = nlohmann::json::parse(f.out);
    EXPECT_EQ(j["results"][0]["parity"], true) << j.dump();
    EXPECT_TRUE(j["results"][0]["error"].is_null()) << j.dump();
}

struct Server {
    std::unique_ptr<tigris::server::GrpcServer> srv;
    std::unique_ptr<v1::Tigris::Stub> stub;
    Server() {
        srv = tigris::server::start_grpc("127.0.0.1:0", {}, nullptr);
        stub = v1::Tigris::NewStub(
            grpc::CreateChannel("127.0.0.1:" + std::to_string(srv->port), grpc::InsecureChannelCredentials()));
    }
};

TEST(EmuValidateRpc, ListTargetsNamesTheFourBoards) {
    Server s;
    grpc::ClientContext ctx;
    v1::ListTargetsResponse resp;
    ASSERT_TRUE(s.stub->ListTargets(&ctx, {}, &resp).ok());
    ASSERT_EQ(resp.targets_size(), 4);
    EXPECT_EQ(resp.targets(0).name(), "cortex-m4");
    EXPECT_EQ(resp.targets(0).board(), "mps2-an386");
    EXPECT_EQ(resp.targets(3).name(), "xtensa-lx106");
    EXPECT_FALSE(resp.targets(2).cpu().empty());
}

TEST(EmuValidateRpc, StreamsProgressThenOneResultPerTarget) {
    TIGRIS_REQUIRE_SHARED();
    EMU_REQUIRE("cortex-m55");
    Server s;
    v1::ValidateRequest req;
    auto plan = emu_test::corpus("linebuf_s8_conv_sig_chain_v5.random.tgrs");
    auto in = emu_test::corpus("linebuf_s8_conv_sig_chain_v5.random.input.bin");
    req.set_plan(std::string(plan.begin(), plan.end()));
    req.add_inputs(std::string(in.begin(), in.end()));
    req.add_targets("cortex-m55");
    grpc::ClientContext ctx;
    auto reader = s.stub->Validate(&ctx, req);
    v1::ValidateUpdate u;
    int progress = 0, results = 0;
    while (reader->Read(&u)) {
        EXPECT_EQ(u.target(), "cortex-m55");
        if (!u.done()) {
            EXPECT_EQ(results, 0) << "progress after the result";
            progress++;
            continue;
        }
        results++;
        EXPECT_TRUE(u.bit_exact()) << u.report_json();
        auto j = nlohmann::json::parse(u.report_json());
        EXPECT_EQ(j["parity"], true);
        EXPECT_EQ(j["target"], "cortex-m55");
    }
    ASSERT_TRUE(reader->Finish().ok());
    EXPECT_EQ(results, 1);
    EXPECT_GE(progress, 4);  // queued, running, finished for each backend
}

TEST(EmuValidateRpc, CancelledCallStopsEveryQemu) {
    TIGRIS_REQUIRE_SHARED();
    EMU_REQUIRE("cortex-m4");
    Server s;
    v1::ValidateRequest req;
    auto plan = emu_test::corpus("linebuf_conv_chain_v5.pattern.tgrs");
    req.set_plan(std::string(plan.begin(), plan.end()));
    req.add_targets("all");
    grpc::ClientContext ctx;
    auto reader = s.stub->Validate(&ctx, req);
    v1::ValidateUpdate u;
    while (reader->Read(&u))
        if (u.stage().find("running") != std::string::npos) break;
    ctx.TryCancel();
    while (reader->Read(&u)) {
    }
    EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
    // Finish returns as soon as the client cancels; the server stops its QEMUs
    // a little later (emu_test_support.h).
    EXPECT_TRUE(emu_test::no_qemu_left()) << "a QEMU process outlived the cancelled call";
    EXPECT_EQ(emu_test::qemu_children(), 0);
}

}  // namespace
