// The matrix (`tigris validate PLAN... --target all --backend all`, the
// ValidateMatrix RPC) on the local pool, and the pieces the Slurm fleet is
// made of that need no cluster: a staged job, `tigris emu-job DIR`, the
// result's JSON. The Slurm fleet itself is tested on a real cluster in
// tests/cluster (label `cluster`).
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "cli_process.h"
#include "emu_test_support.h"
#include "shared_data.h"
#include "tigris/v1/tigris.grpc.pb.h"
#include "tigris_emu_protocol.h"
#include "tigris_host/validate.hpp"
#include "tigris_server/server.hpp"

namespace {

namespace emu = tigris::host::emu;
namespace v1 = tigris::v1;
namespace fs = std::filesystem;
using Status = emu::JobResult::Status;

std::string corpus_path(const std::string &f) { return (tigris_test::shared_dir() / "corpus" / f).string(); }

TEST(EmuMatrixCli, TwoPlansOnEveryTargetWithBothBackendsGiveOneTableOfResults) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *t : {"cortex-m4", "cortex-m7", "cortex-m55", "xtensa-lx106"}) EMU_REQUIRE(t);
    auto r = tigris_test::run_cli({"validate", corpus_path("pool_chain_v5.pattern.tgrs"),
                                   corpus_path("linebuf_s8_conv_sig_chain_v5.pattern.tgrs"), "--target", "all",
                                   "--backend", "all", "--plugin", "none", "--json"});
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["plans"].size(), 2u);
    EXPECT_EQ(j["plans"][0]["plan"], corpus_path("pool_chain_v5.pattern.tgrs"));
    for (const auto &p : j["plans"]) {
        ASSERT_EQ(p["results"].size(), 4u);
        EXPECT_EQ(p["results"][0]["target"], "cortex-m4");
        EXPECT_EQ(p["results"][3]["target"], "xtensa-lx106");
        for (const auto &t : p["results"]) {
            EXPECT_EQ(t["parity"], true) << t.dump();
            EXPECT_FALSE(t["ref_instructions"].is_null()) << t.dump();
            EXPECT_FALSE(t["accel_instructions"].is_null()) << t.dump();
        }
    }
    EXPECT_EQ(j["summary"]["jobs"], 16);
    EXPECT_EQ(j["summary"]["bit_exact"], 8);
    EXPECT_EQ(j["summary"]["targets"], 8);

    // The text form ends in the summary table.
    auto text = tigris_test::run_cli({"validate", corpus_path("pool_chain_v5.pattern.tgrs"),
                                      corpus_path("pool_chain_v5.random.tgrs"), "--target", "cortex-m4",
                                      "--plugin", "none"});
    ASSERT_EQ(text.code, 0) << text.out << text.err;
    EXPECT_NE(text.out.find("first mismatch"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("2 of 2 bit-exact (2 plans, 4 jobs"), std::string::npos) << text.out;
}

TEST(EmuMatrixCli, OneBackendRunsOnlyThatBackend) {
    TIGRIS_REQUIRE_SHARED();
    EMU_REQUIRE("cortex-m4");
    auto r = tigris_test::run_cli({"validate", corpus_path("pool_chain_v5.pattern.tgrs"),
                                   corpus_path("pool_chain_v5.random.tgrs"), "--target", "cortex-m4", "--backend",
                                   "ref", "--plugin", "none", "--json"});
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["summary"]["jobs"], 2);
    for (const auto &p : j["plans"]) {
        EXPECT_EQ(p["results"][0]["parity"], true);
        EXPECT_EQ(p["results"][0]["ref_matches_host"], true);
        EXPECT_TRUE(p["results"][0]["accel_instructions"].is_null()) << p.dump();
    }
}

TEST(EmuMatrixCli, SlurmFleetWithoutItsSettingsIsAClearError) {
    TIGRIS_REQUIRE_SHARED();
    auto r = tigris_test::run_cli(
        {"validate", corpus_path("pool_chain_v5.pattern.tgrs"), "--target", "cortex-m4", "--fleet", "slurm"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("staging directory"), std::string::npos) << r.err;
    auto bad = tigris_test::run_cli({"validate", corpus_path("pool_chain_v5.pattern.tgrs"), "--target", "cortex-m4",
                                     "--fleet", "slurm", "--staging-dir", "/nonexistent/tigris-staging"});
    EXPECT_EQ(bad.code, 1);
    EXPECT_NE(bad.err.find("does not exist"), std::string::npos) << bad.err;
    // `tigris serve` refuses to start rather than fail every Validate later.
    auto serve = tigris_test::run_cli({"serve", "--grpc", "127.0.0.1:0", "--fleet", "slurm"});
    EXPECT_EQ(serve.code, 1);
    EXPECT_NE(serve.err.find("staging directory"), std::string::npos) << serve.err;
}

TEST(EmuStage, JobAndResultSurviveTheirFiles) {
    const fs::path dir = tigris_test::cli_scratch() / "stage-roundtrip";
    emu::JobSpec spec;
    spec.target = "cortex-m55";
    spec.plan = {1, 2, 3, 4, 5};
    spec.input = {9, 8, 7};
    spec.backend = emu::Backend::Accel;
    spec.fast_size = 1000;
    spec.slow_size = 2000;
    spec.debug = TIGRIS_EMU_DEBUG_HANG;
    spec.op_counts = false;
    emu::Paths paths{"/fw", "/plugin.so", false};
    std::string err;
    ASSERT_TRUE(emu::stage_job(spec, paths, std::chrono::milliseconds(1234), dir.string(), err)) << err;
    emu::JobSpec back;
    emu::Paths bp;
    std::chrono::milliseconds timeout{0};
    ASSERT_TRUE(emu::load_staged_job(dir.string(), back, bp, timeout, err)) << err;
    EXPECT_EQ(back.target, "cortex-m55");
    EXPECT_EQ(back.plan, spec.plan);
    EXPECT_EQ(back.input, spec.input);
    EXPECT_EQ(back.backend, emu::Backend::Accel);
    EXPECT_EQ(back.fast_size, 1000u);
    EXPECT_EQ(back.slow_size, 2000u);
    EXPECT_EQ(back.debug, static_cast<uint32_t>(TIGRIS_EMU_DEBUG_HANG));
    EXPECT_FALSE(back.op_counts);
    EXPECT_EQ(timeout.count(), 1234);
    // The vendor backend (cmsis-nn) survives its file too.
    spec.backend = emu::Backend::Vendor;
    const fs::path vdir = tigris_test::cli_scratch() / "stage-roundtrip-vendor";
    ASSERT_TRUE(emu::stage_job(spec, paths, std::chrono::milliseconds(1234), vdir.string(), err)) << err;
    ASSERT_TRUE(emu::load_staged_job(vdir.string(), back, bp, timeout, err)) << err;
    EXPECT_EQ(back.backend, emu::Backend::Vendor);
    EXPECT_EQ(bp.firmware_dir, "/fw");
    EXPECT_EQ(bp.plugin, "/plugin.so");
    EXPECT_FALSE(bp.timer_fallback);

    emu::JobResult r;
    r.status = Status::Fault;
    r.error = "faulted";
    r.outputs = {0, 255, 16, 1};
    r.output_sizes = {3, 1};
    r.run_instructions = 123456789012ull;
    r.ops = {{2, 3, 400}, {7, 1, 5}};
    r.fault_pc = 0x1234;
    r.kernel = "tigris-arm";
    emu::JobResult rb;
    ASSERT_TRUE(emu::result_from_json(emu::result_to_json(r), rb, err)) << err;
    EXPECT_EQ(rb.status, Status::Fault);
    EXPECT_EQ(rb.outputs, r.outputs);
    EXPECT_EQ(rb.output_sizes, r.output_sizes);
    EXPECT_EQ(rb.run_instructions, r.run_instructions);
    EXPECT_FALSE(rb.total_instructions);
    ASSERT_EQ(rb.ops.size(), 2u);
    EXPECT_EQ(rb.ops[1].op, 7);
    EXPECT_EQ(rb.ops[0].instructions, 400u);
    EXPECT_EQ(rb.fault_pc, r.fault_pc);
    EXPECT_EQ(rb.kernel, "tigris-arm");
    EXPECT_FALSE(emu::result_from_json("{\"status\": \"sideways\"}", rb, err));
    EXPECT_FALSE(emu::load_staged_job((dir / "missing").string(), back, bp, timeout, err));
}

// What a Slurm node runs, here on this machine: the same bytes as run_job.
TEST(EmuStage, EmuJobRunsAStagedJobLikeTheLocalPool) {
    TIGRIS_REQUIRE_SHARED();
    EMU_REQUIRE("xtensa-lx106");
    emu::JobSpec spec;
    spec.target = "xtensa-lx106";
    spec.plan = emu_test::corpus("linebuf_s8_conv_sig_chain_v5.random.tgrs");
    spec.input = emu_test::corpus("linebuf_s8_conv_sig_chain_v5.random.input.bin");
    spec.backend = emu::Backend::Accel;
    const emu::Paths paths = emu_test::paths_without_counts();
    const fs::path dir = tigris_test::cli_scratch() / "emu-job";
    std::string err;
    ASSERT_TRUE(emu::stage_job(spec, paths, std::chrono::milliseconds(60000), dir.string(), err)) << err;
    auto r = tigris_test::run_cli({"emu-job", dir.string(), "--attempt", "3"});
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    ASSERT_TRUE(fs::exists(dir / "result-3.json"));
    emu::JobResult staged;
    ASSERT_TRUE(emu::result_from_json(tigris_test::slurp(dir / "result-3.json"), staged, err)) << err;
    ASSERT_EQ(staged.status, Status::Ok) << staged.error;
    emu::JobResult local = emu::run_job(spec, paths, std::chrono::milliseconds(60000));
    ASSERT_TRUE(local.ok()) << local.error;
    EXPECT_EQ(staged.outputs, local.outputs);
    EXPECT_EQ(staged.outputs, emu_test::corpus("linebuf_s8_conv_sig_chain_v5.random.expected.bin"));
    EXPECT_EQ(staged.kernel, "tigris-xtensa");

    // A directory without a job: a result that says so, not a crash.
    const fs::path empty = tigris_test::cli_scratch() / "emu-job-empty";
    fs::create_directories(empty);
    auto e = tigris_test::run_cli({"emu-job", empty.string()});
    ASSERT_EQ(e.code, 0) << e.err;
    emu::JobResult missing;
    ASSERT_TRUE(emu::result_from_json(tigris_test::slurp(empty / "result-1.json"), missing, err)) << err;
    EXPECT_EQ(missing.status, Status::Failed);
    EXPECT_NE(missing.error.find("no job.json"), std::string::npos) << missing.error;
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

v1::MatrixPlan *add_plan(v1::ValidateMatrixRequest &req, const std::string &name) {
    auto bytes = emu_test::corpus(name);
    v1::MatrixPlan *p = req.add_plans();
    p->set_name(name);
    p->set_plan(std::string(bytes.begin(), bytes.end()));
    return p;
}

grpc::Status matrix_status(Server &s, const v1::ValidateMatrixRequest &req, int *messages = nullptr) {
    grpc::ClientContext ctx;
    auto reader = s.stub->ValidateMatrix(&ctx, req);
    v1::ValidateUpdate u;
    int n = 0;
    while (reader->Read(&u)) n++;
    if (messages) *messages = n;
    return reader->Finish();
}

TEST(EmuMatrixRpc, BadRequestsGetTheirStatusCodes) {
    TIGRIS_REQUIRE_SHARED();
    Server s;
    int n = -1;
    v1::ValidateMatrixRequest none;
    grpc::Status st = matrix_status(s, none, &n);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("no plans"), std::string::npos) << st.error_message();
    EXPECT_EQ(n, 0);

    v1::ValidateMatrixRequest target;
    add_plan(target, "pool_chain_v5.pattern.tgrs");
    target.add_targets("m99");
    st = matrix_status(s, target);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("unknown target 'm99'"), std::string::npos) << st.error_message();

    v1::ValidateMatrixRequest backend;
    add_plan(backend, "pool_chain_v5.pattern.tgrs");
    backend.add_backends("turbo");
    st = matrix_status(s, backend);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("unknown backend 'turbo'"), std::string::npos) << st.error_message();

    v1::ValidateMatrixRequest bad;
    add_plan(bad, "pool_chain_v5.pattern.tgrs");
    v1::MatrixPlan *junk = bad.add_plans();
    junk->set_name("junk");
    junk->set_plan("not a plan");
    st = matrix_status(s, bad, &n);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("junk"), std::string::npos) << st.error_message();
    EXPECT_EQ(n, 0) << "nothing may run when one plan of the matrix is refused";

    // 513 plans x 4 boards x 2 backends = 4104 jobs, beyond one call's 4096.
    v1::ValidateMatrixRequest big;
    for (int i = 0; i < 513; i++) add_plan(big, "pool_chain_v5.pattern.tgrs");
    st = matrix_status(s, big, &n);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_NE(st.error_message().find("4104 jobs"), std::string::npos) << st.error_message();
    EXPECT_EQ(n, 0);
}

TEST(EmuMatrixRpc, StreamsEachResultAsItArrivesThenTheSummary) {
    TIGRIS_REQUIRE_SHARED();
    EMU_REQUIRE("cortex-m4");
    EMU_REQUIRE("xtensa-lx106");
    Server s;
    v1::ValidateMatrixRequest req;
    add_plan(req, "pool_chain_v5.pattern.tgrs");
    add_plan(req, "linebuf_s8_conv_sig_chain_v5.pattern.tgrs");
    req.add_targets("cortex-m4");
    req.add_targets("xtensa-lx106");
    grpc::ClientContext ctx;
    auto reader = s.stub->ValidateMatrix(&ctx, req);
    v1::ValidateUpdate u;
    int progress = 0, results = 0, summaries = 0;
    std::set<std::string> seen;
    while (reader->Read(&u)) {
        if (u.summary()) {
            summaries++;
            EXPECT_EQ(results, 4) << "the summary comes last";
            auto j = nlohmann::json::parse(u.summary_json());
            EXPECT_EQ(j["summary"]["jobs"], 8);
            EXPECT_EQ(j["summary"]["bit_exact"], 4);
            EXPECT_EQ(j["plans"][1]["plan"], "linebuf_s8_conv_sig_chain_v5.pattern.tgrs");
            continue;
        }
        EXPECT_EQ(summaries, 0);
        ASSERT_LT(u.plan_index(), 2u);
        EXPECT_EQ(u.plan_name(), req.plans(static_cast<int>(u.plan_index())).name());
        if (!u.done()) {
            progress++;
            continue;
        }
        results++;
        EXPECT_TRUE(u.bit_exact()) << u.report_json();
        EXPECT_EQ(nlohmann::json::parse(u.report_json())["target"], u.target());
        seen.insert(std::to_string(u.plan_index()) + "/" + u.target());
    }
    ASSERT_TRUE(reader->Finish().ok());
    EXPECT_EQ(results, 4);
    EXPECT_EQ(seen.size(), 4u) << "one result per plan and target";
    EXPECT_EQ(summaries, 1);
    EXPECT_GE(progress, 12);  // queued, running, finished for each of the 8 jobs (at least)
}

TEST(EmuMatrixRpc, CancelledMatrixStopsEveryQemu) {
    TIGRIS_REQUIRE_SHARED();
    EMU_REQUIRE("cortex-m4");
    Server s;
    v1::ValidateMatrixRequest req;
    for (int i = 0; i < 3; i++) add_plan(req, "linebuf_conv_chain_v5.pattern.tgrs");
    req.add_targets("all");
    grpc::ClientContext ctx;
    auto reader = s.stub->ValidateMatrix(&ctx, req);
    v1::ValidateUpdate u;
    while (reader->Read(&u))
        if (u.stage().find("running") != std::string::npos) break;
    ctx.TryCancel();
    while (reader->Read(&u)) {
    }
    EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
    EXPECT_TRUE(emu_test::no_qemu_left()) << "a QEMU process outlived the cancelled matrix";
}

}  // namespace
