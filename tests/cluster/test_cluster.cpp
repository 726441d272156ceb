// The Slurm fleet on a real two-node Slurm cluster on loopback, started by
// tests/cluster/cluster.sh (ctest: `ctest -L cluster`). Run outside that
// script, every test skips saying so.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "cluster_support.h"
#include "emu_test_support.h"
#include "shared_data.h"
#include "tigris/v1/tigris.grpc.pb.h"
#include "tigris_emu_protocol.h"
#include "tigris_host/validate.hpp"
#include "tigris_server/server.hpp"

namespace {

namespace emu = tigris::host::emu;
namespace host = tigris::host;
namespace v1 = tigris::v1;
using Status = emu::JobResult::Status;

#define CLUSTER_REQUIRE()                                                                               \
    do {                                                                                                \
        if (cluster_test::dir().empty())                                                                \
            GTEST_SKIP() << "not run by tests/cluster/cluster.sh (no TIGRIS_CLUSTER_DIR / SLURM_CONF)"; \
        TIGRIS_REQUIRE_SHARED();                                                                        \
        for (const char *t_ : {"cortex-m4", "cortex-m7", "cortex-m55", "xtensa-lx106"}) EMU_REQUIRE(t_); \
    } while (0)

// Counted with the boards' cycle timers under -icount: deterministic, and
// no plugin needed on the nodes.
emu::Paths timer_paths() {
    emu::Paths p = emu::Paths::defaults();
    p.plugin.clear();
    p.timer_fallback = true;
    return p;
}

// Which node ran each job, from the fleet's "RUNNING on nX" events.
struct NodeLog {
    std::mutex m;
    std::map<std::string, int> runs;  // node -> jobs started there
    std::vector<std::string> stages;
    void add(const std::string &stage) {
        std::lock_guard<std::mutex> lk(m);
        stages.push_back(stage);
        const auto at = stage.find("running: RUNNING on ");
        if (at != std::string::npos) {
            const std::string rest = stage.substr(at + 20);
            runs[rest.substr(0, rest.find(' '))]++;
        }
    }
    bool saw(const std::string &what) {
        std::lock_guard<std::mutex> lk(m);
        for (const std::string &s : stages)
            if (s.find(what) != std::string::npos) return true;
        return false;
    }
};

void expect_all_bit_exact(const host::MatrixReport &rep) {
    for (size_t i = 0; i < rep.plans.size(); i++) {
        ASSERT_EQ(rep.plans[i].results.size(), 4u) << rep.names[i];
        for (const host::TargetResult &t : rep.plans[i].results) {
            EXPECT_TRUE(t.parity) << rep.names[i] << " on " << t.target << ": " << t.error;
            EXPECT_TRUE(t.ref_instructions && t.accel_instructions) << rep.names[i] << " on " << t.target;
        }
    }
}

TEST(Cluster, MatrixOf24JobsSpreadsOverBothNodesAllBitExact) {
    CLUSTER_REQUIRE();
    std::string err;
    auto fleet = cluster_test::slurm_fleet(timer_paths(), err);
    ASSERT_TRUE(fleet) << err;
    NodeLog log;
    host::ValidateOptions opt;
    opt.targets = {"all"};
    opt.plan_progress = [&](size_t, const std::string &, const std::string &stage) { log.add(stage); };
    host::MatrixReport rep = host::validate_matrix(*fleet, cluster_test::matrix_plans(), opt);
    EXPECT_EQ(rep.jobs, 24u);
    EXPECT_FALSE(rep.cancelled);
    expect_all_bit_exact(rep);
    EXPECT_EQ(fleet->job_ids().size(), 24u) << "one Slurm job per emulated-device job, none resubmitted";
    EXPECT_GT(log.runs["n1"], 0) << "no job ran on n1";
    EXPECT_GT(log.runs["n2"], 0) << "no job ran on n2";
    EXPECT_EQ(log.runs["n1"] + log.runs["n2"], 24);
    EXPECT_TRUE(log.saw("PENDING (Slurm job "));
    EXPECT_TRUE(cluster_test::unfinished(fleet->job_ids()).empty());
}

TEST(Cluster, ResultsEqualTheLocalFleets) {
    CLUSTER_REQUIRE();
    std::string err;
    auto slurm = cluster_test::slurm_fleet(timer_paths(), err);
    ASSERT_TRUE(slurm) << err;
    // Exact counts (the plugin) repeat run to run; the cycle timers are
    // exact only to a tick per bracket, so compare counts only with the plugin.
    const emu::Paths paths = emu::Paths::defaults();
    const bool exact = !paths.plugin.empty() && std::filesystem::exists(paths.plugin);
    slurm = cluster_test::slurm_fleet(paths, err);
    ASSERT_TRUE(slurm) << err;
    emu::Fleet::Limits lim;
    lim.workers = 2;
    emu::Fleet local(lim, paths);
    std::vector<host::MatrixPlan> plans = cluster_test::matrix_plans();
    plans.resize(1);
    plans.push_back(cluster_test::matrix_plans()[2]);
    host::ValidateOptions opt;
    opt.targets = {"all"};
    const host::MatrixReport a = host::validate_matrix(*slurm, plans, opt);
    const host::MatrixReport b = host::validate_matrix(local, plans, opt);
    ASSERT_EQ(a.plans.size(), b.plans.size());
    for (size_t i = 0; i < a.plans.size(); i++) {
        ASSERT_EQ(a.plans[i].results.size(), b.plans[i].results.size());
        for (size_t k = 0; k < a.plans[i].results.size(); k++) {
            nlohmann::json ja = nlohmann::json::parse(host::target_result_json(a.plans[i].results[k]));
            nlohmann::json jb = nlohmann::json::parse(host::target_result_json(b.plans[i].results[k]));
            if (!exact)
                for (nlohmann::json *j : {&ja, &jb})
                    for (const char *f : {"op_types", "ref_instructions", "accel_instructions", "count_method"})
                        j->erase(f);
            EXPECT_EQ(ja["count_method"], exact ? "plugin" : nlohmann::json()) << ja.dump();
            EXPECT_EQ(ja, jb) << plans[i].name << ": the Slurm fleet and the local pool disagree";
            EXPECT_EQ(ja["parity"], true) << ja.dump();
        }
    }
}

TEST(Cluster, HungImageIsKilledAtItsTimeout) {
    CLUSTER_REQUIRE();
    std::string err;
    auto fleet = cluster_test::slurm_fleet(timer_paths(), err);
    ASSERT_TRUE(fleet) << err;
    emu::JobSpec s;
    s.target = "cortex-m4";
    s.plan = emu_test::corpus("pool_chain_v5.pattern.tgrs");
    s.input = emu_test::corpus("pool_chain_v5.pattern.input.bin");
    s.debug = TIGRIS_EMU_DEBUG_HANG;
    s.timeout = std::chrono::milliseconds(1500);
    const auto t0 = std::chrono::steady_clock::now();
    auto t = fleet->submit(s);
    ASSERT_TRUE(emu::Executor::wait_for(t, std::chrono::seconds(60))) << "the hung job never ended";
    emu::JobResult r = emu::Executor::wait(t);
    EXPECT_EQ(r.status, Status::Timeout) << r.error;
    EXPECT_NE(r.error.find("timed out after 1500 ms"), std::string::npos) << r.error;
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30));
    EXPECT_TRUE(cluster_test::unfinished(fleet->job_ids()).empty());
    EXPECT_EQ(cluster_test::cluster_qemus(), 0);
    // The Slurm job carries a time limit of its own: the timeout rounded up
    // to minutes, plus one.
    const std::string show = cluster_test::slurm({"scontrol", "show", "job", "-o", fleet->job_ids().at(0)});
    EXPECT_NE(show.find("TimeLimit=00:02:00"), std::string::npos) << show;
}

TEST(Cluster, SeveralJobsRunInOneSlurmJobWhenBatched) {
    CLUSTER_REQUIRE();
    emu::SlurmFleet::Config c;
    c.staging_dir = cluster_test::dir() + "/staging";
    c.runner = TIGRIS_CLI_PATH;
    c.poll = std::chrono::milliseconds(100);
    c.jobs_per_slurm_job = 4;
    std::string err;
    auto fleet = emu::SlurmFleet::create(c, timer_paths(), err);
    ASSERT_TRUE(fleet) << err;
    host::ValidateOptions opt;
    opt.targets = {"cortex-m4", "xtensa-lx106"};
    host::MatrixReport rep = host::validate_matrix(*fleet, cluster_test::matrix_plans(), opt);
    EXPECT_EQ(rep.jobs, 12u);
    for (size_t i = 0; i < rep.plans.size(); i++)
        for (const host::TargetResult &t : rep.plans[i].results)
            EXPECT_TRUE(t.parity) << rep.names[i] << " on " << t.target << ": " << t.error;
    // Submitted within one poll, 12 jobs make 3 Slurm jobs; a poll that
    // falls between two submissions splits one group.
    EXPECT_GE(fleet->job_ids().size(), 3u);
    EXPECT_LE(fleet->job_ids().size(), 5u);
    EXPECT_TRUE(cluster_test::unfinished(fleet->job_ids()).empty());
}

struct Server {
    std::unique_ptr<tigris::server::GrpcServer> srv;
    std::unique_ptr<v1::Tigris::Stub> stub;
    explicit Server(std::string &err) {
        emu::FleetConfig fc;
        fc.kind = "slurm";
        fc.paths = timer_paths();
        fc.limits.timeout = std::chrono::seconds(120);
        fc.slurm.staging_dir = cluster_test::dir() + "/staging";
        fc.slurm.runner = TIGRIS_CLI_PATH;
        fc.slurm.poll = std::chrono::milliseconds(100);
        if (!tigris::server::configure_fleet(fc, err)) return;
        srv = tigris::server::start_grpc("127.0.0.1:0", {}, nullptr);
        stub = v1::Tigris::NewStub(
            grpc::CreateChannel("127.0.0.1:" + std::to_string(srv->port), grpc::InsecureChannelCredentials()));
    }
    ~Server() {
        srv.reset();
        tigris::server::release_fleet();
    }
};

TEST(Cluster, ValidateMatrixRpcOnTheClusterStreamsEveryResult) {
    CLUSTER_REQUIRE();
    std::string err;
    Server s(err);
    ASSERT_TRUE(s.stub) << err;
    EXPECT_STREQ(tigris::server::fleet_kind(), "slurm");
    v1::ValidateMatrixRequest req;
    for (const host::MatrixPlan &p : cluster_test::matrix_plans()) {
        v1::MatrixPlan *mp = req.add_plans();
        mp->set_name(p.name);
        mp->set_plan(std::string(p.plan.begin(), p.plan.end()));
        mp->add_inputs(std::string(p.input.begin(), p.input.end()));
    }
    req.add_targets("cortex-m55");
    req.add_targets("xtensa-lx106");
    req.add_backends("accel");
    grpc::ClientContext ctx;
    auto reader = s.stub->ValidateMatrix(&ctx, req);
    v1::ValidateUpdate u;
    int results = 0, slurm_states = 0;
    nlohmann::json summary;
    while (reader->Read(&u)) {
        if (u.summary()) summary = nlohmann::json::parse(u.summary_json());
        else if (u.done()) {
            results++;
            EXPECT_TRUE(u.bit_exact()) << u.plan_name() << " " << u.target() << ": " << u.report_json();
        } else if (u.stage().find("Slurm job") != std::string::npos) {
            slurm_states++;
        }
    }
    ASSERT_TRUE(reader->Finish().ok());
    EXPECT_EQ(results, 6);
    EXPECT_GE(slurm_states, 6) << "the stream names each job's Slurm states";
    EXPECT_EQ(summary["summary"]["jobs"], 6);
    EXPECT_EQ(summary["summary"]["bit_exact"], 6);
}

TEST(Cluster, CancelledValidateLeavesNoJobInSqueueAndNoQemu) {
    CLUSTER_REQUIRE();
    std::string err;
    Server s(err);
    ASSERT_TRUE(s.stub) << err;
    // Float convolution: about 374 million instructions on lx106, seconds of QEMU.
    v1::ValidateRequest req;
    auto plan = emu_test::corpus("linebuf_conv_chain_v5.random.tgrs");
    auto in = emu_test::corpus("linebuf_conv_chain_v5.random.input.bin");
    req.set_plan(std::string(plan.begin(), plan.end()));
    req.add_inputs(std::string(in.begin(), in.end()));
    req.add_targets("xtensa-lx106");
    req.add_targets("cortex-m4");
    grpc::ClientContext ctx;
    auto reader = s.stub->Validate(&ctx, req);
    v1::ValidateUpdate u;
    std::set<std::string> ids;
    bool running = false;
    // Until a job runs on a node (its QEMU exists), at most 60 s.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < until && reader->Read(&u)) {
        const auto at = u.stage().find("Slurm job ");
        if (at != std::string::npos) ids.insert(u.stage().substr(at + 10, u.stage().find(')', at) - at - 10));
        if (u.stage().find("RUNNING on") != std::string::npos) {
            running = true;
            break;
        }
    }
    ASSERT_TRUE(running) << "no job started within 60 s";
    ctx.TryCancel();
    while (reader->Read(&u)) {
    }
    EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
    // The server scancels within a polling period; Slurm then ends the jobs
    // (SIGTERM, then SIGKILL after KillWait = 2 s). At most 30 s.
    std::vector<std::string> left(ids.begin(), ids.end());
    int qemus = -1;
    for (int i = 0; i < 300; i++) {
        qemus = cluster_test::cluster_qemus();
        if (cluster_test::unfinished(left).empty() && qemus == 0) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_TRUE(cluster_test::unfinished(left).empty()) << "a cancelled Validate left a job in squeue";
    EXPECT_EQ(qemus, 0) << "a cancelled Validate left a QEMU process on a node";
    ASSERT_FALSE(left.empty());
    const std::string show = cluster_test::slurm({"scontrol", "show", "job", "-o", left.front()});
    EXPECT_NE(show.find("JobState=CANCELLED"), std::string::npos) << show;
}

// The last two take node n2 down (and bring it back).
TEST(Cluster, KilledSlurmdMidMatrixTheMatrixStillCompletes) {
    CLUSTER_REQUIRE();
    std::string err;
    auto fleet = cluster_test::slurm_fleet(timer_paths(), err);
    ASSERT_TRUE(fleet) << err;
    NodeLog log;
    host::ValidateOptions opt;
    opt.targets = {"all"};
    opt.plan_progress = [&](size_t, const std::string &, const std::string &stage) { log.add(stage); };
    const std::vector<host::MatrixPlan> plans = cluster_test::matrix_plans();
    std::atomic<int> killed{0};
    std::atomic<bool> matrix_done{false};
    std::thread killer([&] {
        // As soon as a job runs on n2 (bounded: 60 s, or the matrix's end).
        for (int i = 0; i < 1200 && !matrix_done && killed == 0; i++) {
            killed = cluster_test::kill_node("n2");
            if (killed == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    });
    host::MatrixReport rep = host::validate_matrix(*fleet, plans, opt);
    matrix_done = true;
    killer.join();
    EXPECT_GT(killed.load(), 0) << "no job ran on n2 to be killed there";
    expect_all_bit_exact(rep);
    EXPECT_TRUE(log.saw("NODE_FAIL")) << "no job was lost to the node failure";
    EXPECT_TRUE(log.saw("resubmitted as Slurm job")) << "the lost job was not resubmitted";
    EXPECT_GT(fleet->job_ids().size(), 24u);
    EXPECT_TRUE(cluster_test::unfinished(fleet->job_ids()).empty());
    EXPECT_TRUE(cluster_test::restart_node("n2")) << "n2 did not come back";
}

}  // namespace

namespace {

// With one attempt allowed, a job lost with its node is reported as lost.
TEST(Cluster, JobLostToANodeFailureOnItsLastAttemptIsReportedAsNodeFail) {
    CLUSTER_REQUIRE();
    emu::SlurmFleet::Config c;
    c.staging_dir = cluster_test::dir() + "/staging";
    c.runner = TIGRIS_CLI_PATH;
    c.poll = std::chrono::milliseconds(100);
    c.max_attempts = 1;
    std::string err;
    auto fleet = emu::SlurmFleet::create(c, timer_paths(), err);
    ASSERT_TRUE(fleet) << err;
    // Two hung jobs: one a node, both running (60 s timeout: only the node
    // failure or our cancel ends them).
    std::atomic<int> on_n2{0};
    std::vector<emu::Executor::Ticket> jobs;
    for (int i = 0; i < 2; i++) {
        emu::JobSpec s;
        s.target = "cortex-m4";
        s.plan = emu_test::corpus("pool_chain_v5.pattern.tgrs");
        s.input = emu_test::corpus("pool_chain_v5.pattern.input.bin");
        s.debug = TIGRIS_EMU_DEBUG_HANG;
        s.timeout = std::chrono::seconds(60);
        jobs.push_back(fleet->submit(s, [&](emu::Executor::Event e, const std::string &detail) {
            if (e == emu::Executor::Event::Started && detail.find("on n2") != std::string::npos) on_n2++;
        }));
    }
    for (int i = 0; i < 3000 && on_n2 == 0; i++) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_GT(on_n2.load(), 0) << "no job started on n2 within 30 s";
    EXPECT_GT(cluster_test::kill_node("n2"), 0);
    // Slurm notices the dead node after SlurmdTimeout (6 s); at most 60 s.
    int lost = -1;
    for (int i = 0; i < 600 && lost < 0; i++) {
        for (int k = 0; k < 2; k++)
            if (emu::Executor::is_done(jobs[k])) lost = k;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_GE(lost, 0) << "the job on the dead node was never reported";
    const emu::JobResult r = emu::Executor::wait(jobs[lost]);
    EXPECT_EQ(r.status, Status::Failed) << r.error;
    EXPECT_NE(r.error.find("NODE_FAIL"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("on n2"), std::string::npos) << r.error;
    EXPECT_EQ(fleet->job_ids().size(), 2u) << "nothing may be resubmitted with one attempt allowed";
    fleet->cancel(jobs[1 - lost]);
    EXPECT_EQ(emu::Executor::wait(jobs[1 - lost]).status, Status::Cancelled);
    EXPECT_TRUE(cluster_test::unfinished(fleet->job_ids()).empty());
    EXPECT_TRUE(cluster_test::restart_node("n2")) << "n2 did not come back";
}

}  // namespace
