// validate_rpc.cpp - Validate and ListTargets over the host library's fleet.
#include "validate_rpc.hpp"

#include <mutex>

#include "tigris_host/validate.hpp"

namespace tigris::server {
namespace {

namespace v1 = tigris::v1;
using grpc::Status;
using grpc::StatusCode;

// One fleet for the whole server: concurrent Validate calls share its
// bounded pool (one QEMU per core) and its bounded queue, or the Slurm
// cluster that `tigris serve --fleet slurm` named.
std::mutex g_fleet_m;
std::unique_ptr<host::emu::Executor> g_fleet;

host::emu::Executor &fleet() {
    std::lock_guard<std::mutex> lk(g_fleet_m);
    if (!g_fleet) g_fleet = std::make_unique<host::emu::Fleet>(host::emu::Fleet::Limits{}, host::emu::Paths::defaults());
    return *g_fleet;
}

bool stop_requested(grpc::ServerContext *ctx) {
    return ctx->IsCancelled() || ctx->deadline() < std::chrono::system_clock::now();
}

}  // namespace

bool configure_fleet(const host::emu::FleetConfig &config, std::string &error) {
    auto f = host::emu::make_executor(config, error);
    if (!f) return false;
    std::lock_guard<std::mutex> lk(g_fleet_m);
    g_fleet = std::move(f);
    return true;
}

void release_fleet() {
    std::unique_ptr<host::emu::Executor> f;
    {
        std::lock_guard<std::mutex> lk(g_fleet_m);
        f = std::move(g_fleet);
    }
}

const char *fleet_kind() { return fleet().kind(); }

namespace {

// The last update of one target: its verdict and its report.
v1::ValidateUpdate done_update(const host::TargetResult &t) {
    v1::ValidateUpdate u;
    u.set_target(t.target);
    u.set_stage(t.parity ? "done: bit-exact" : "done: " + (t.error.empty() ? "outputs differ" : t.error));
    u.set_done(true);
    u.set_bit_exact(t.parity);
    u.set_report_json(host::target_result_json(t));
    return u;
}

}  // namespace

Status validate_rpc(grpc::ServerContext *ctx, const v1::ValidateRequest &req,
                    grpc::ServerWriter<v1::ValidateUpdate> *writer) {
    const std::vector<uint8_t> plan(req.plan().begin(), req.plan().end());
    std::vector<std::string> targets(req.targets().begin(), req.targets().end());
    std::string err;
    if (!host::resolve_targets(targets, err)) return Status(StatusCode::INVALID_ARGUMENT, err);

    std::vector<uint8_t> input;
    for (const std::string &b : req.inputs()) input.insert(input.end(), b.begin(), b.end());
    if (req.inputs().empty()) {
        auto in = host::pattern_input(plan, err);
        if (!in) return Status(StatusCode::INVALID_ARGUMENT, err);
        input = std::move(*in);
    }

    // Progress comes from the fleet's worker threads; one write at a time.
    std::mutex write_m;
    bool stream_ok = true;
    auto send = [&](const v1::ValidateUpdate &u) {
        std::lock_guard<std::mutex> lk(write_m);
        if (stream_ok) stream_ok = writer->Write(u);
    };
    host::ValidateOptions opt;
    opt.targets = targets;
    opt.progress = [&](const std::string &target, const std::string &stage) {
        v1::ValidateUpdate u;
        u.set_target(target);
        u.set_stage(stage);
        send(u);
    };
    opt.should_stop = [ctx] { return stop_requested(ctx); };

    host::ValidateReport rep = host::validate_plan(fleet(), plan, input, opt);
    if (rep.cancelled) {
        if (ctx->deadline() < std::chrono::system_clock::now())
            return Status(StatusCode::DEADLINE_EXCEEDED, "the deadline passed; every QEMU run was stopped");
        return Status(StatusCode::CANCELLED, "the client cancelled; every QEMU run was stopped");
    }
    if (!rep.error.empty()) return Status(StatusCode::INVALID_ARGUMENT, rep.error);
    for (const host::TargetResult &t : rep.results) {
        send(done_update(t));
    }
    return Status::OK;
}

Status validate_matrix_rpc(grpc::ServerContext *ctx, const v1::ValidateMatrixRequest &req,
                           grpc::ServerWriter<v1::ValidateUpdate> *writer) {
    if (req.plans().empty()) return Status(StatusCode::INVALID_ARGUMENT, "the matrix has no plans");
    std::vector<std::string> targets(req.targets().begin(), req.targets().end());
    std::string err;
    const auto resolved = host::resolve_targets(targets, err);
    if (!resolved) return Status(StatusCode::INVALID_ARGUMENT, err);
    host::ValidateOptions opt;
    opt.targets = targets;
    bool ref = false, accel = false;
    for (const std::string &b : req.backends()) {
        if (b == "ref") ref = true;
        else if (b == "accel") accel = true;
        else if (b == "all") ref = accel = true;
        else return Status(StatusCode::INVALID_ARGUMENT, "unknown backend '" + b + "' (ref|accel|all)");
    }
    if (!ref && !accel) ref = accel = true;
    opt.backends.clear();
    if (ref) opt.backends.push_back(host::emu::Backend::Ref);
    if (accel) opt.backends.push_back(host::emu::Backend::Accel);
    const size_t jobs = req.plans().size() * resolved->size() * opt.backends.size();
    if (jobs > kMaxMatrixJobs)
        return Status(StatusCode::RESOURCE_EXHAUSTED, "the matrix has " + std::to_string(jobs) +
                                                          " jobs; one call may have at most " +
                                                          std::to_string(kMaxMatrixJobs));

    std::vector<host::MatrixPlan> plans;
    for (int i = 0; i < req.plans().size(); i++) {
        const v1::MatrixPlan &mp = req.plans(i);
        host::MatrixPlan p;
        p.name = mp.name().empty() ? "plan " + std::to_string(i) : mp.name();
        p.plan.assign(mp.plan().begin(), mp.plan().end());
        for (const std::string &b : mp.inputs()) p.input.insert(p.input.end(), b.begin(), b.end());
        if (mp.inputs().empty()) {
            auto in = host::pattern_input(p.plan, err);
            if (!in) return Status(StatusCode::INVALID_ARGUMENT, p.name + ": " + err);
            p.input = std::move(*in);
        }
        plans.push_back(std::move(p));
    }

    std::mutex write_m;
    bool stream_ok = true;
    auto send = [&](const v1::ValidateUpdate &u) {
        std::lock_guard<std::mutex> lk(write_m);
        if (stream_ok) stream_ok = writer->Write(u);
    };
    opt.plan_progress = [&](size_t i, const std::string &target, const std::string &stage) {
        if (stage.rfind("done:", 0) == 0) return;  // the result message says it
        v1::ValidateUpdate u;
        u.set_plan_index(static_cast<uint32_t>(i));
        u.set_plan_name(plans[i].name);
        u.set_target(target);
        u.set_stage(stage);
        send(u);
    };
    opt.on_result = [&](size_t i, const host::TargetResult &t) {
        v1::ValidateUpdate u = done_update(t);
        u.set_plan_index(static_cast<uint32_t>(i));
        u.set_plan_name(plans[i].name);
        send(u);
    };
    opt.should_stop = [ctx] { return stop_requested(ctx); };
    opt.all_or_nothing = true;
    host::MatrixReport rep = host::validate_matrix(fleet(), plans, opt);
    if (rep.cancelled) {
        if (ctx->deadline() < std::chrono::system_clock::now())
            return Status(StatusCode::DEADLINE_EXCEEDED, "the deadline passed; every job was stopped");
        return Status(StatusCode::CANCELLED, "the client cancelled; every job was stopped");
    }
    for (size_t i = 0; i < rep.plans.size(); i++)
        if (!rep.plans[i].error.empty())
            return Status(StatusCode::INVALID_ARGUMENT, plans[i].name + ": " + rep.plans[i].error);
    v1::ValidateUpdate u;
    u.set_summary(true);
    u.set_done(true);
    u.set_summary_json(host::matrix_to_json(rep, -1));
    send(u);
    return Status::OK;
}

Status list_targets_rpc(const v1::ListTargetsRequest &, v1::ListTargetsResponse *resp) {
    for (const host::emu::Board &b : host::emu::boards()) {
        v1::Target *t = resp->add_targets();
        t->set_name(b.target);
        t->set_cpu(b.cpu);
        t->set_board(b.board);
    }
    return Status::OK;
}

}  // namespace tigris::server
