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
// bounded pool (one QEMU per core) and its bounded queue.
host::emu::Fleet &fleet() {
    static host::emu::Fleet f(host::emu::Fleet::Limits{}, host::emu::Paths::defaults());
    return f;
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
    opt.should_stop = [ctx] { return ctx->IsCancelled() || ctx->deadline() < std::chrono::system_clock::now(); };

    host::ValidateReport rep = host::validate_plan(fleet(), plan, input, opt);
    if (rep.cancelled) {
        if (ctx->deadline() < std::chrono::system_clock::now())
            return Status(StatusCode::DEADLINE_EXCEEDED, "the deadline passed; every QEMU run was stopped");
        return Status(StatusCode::CANCELLED, "the client cancelled; every QEMU run was stopped");
    }
    if (!rep.error.empty()) return Status(StatusCode::INVALID_ARGUMENT, rep.error);
    for (const host::TargetResult &t : rep.results) {
        v1::ValidateUpdate u;
        u.set_target(t.target);
        u.set_stage(t.parity ? "done: bit-exact" : "done: " + (t.error.empty() ? "outputs differ" : t.error));
        u.set_done(true);
        u.set_bit_exact(t.parity);
        u.set_report_json(host::target_result_json(t));
        send(u);
    }
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
