// service.cpp - the RPCs of tigris.v1.Tigris. Each handler is a thin shell
// over the host library (inspect, run, import), as the CLI is; what is added
// here is the mapping of failures to gRPC codes, the limits, and stopping a
// run between kernel calls when the deadline passes or the client leaves.
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>

#include <atomic>
#include <chrono>
#include <ctime>

#include "auth.hpp"
#include "codegen_rpc.hpp"
#include "export_rpc.hpp"
#include "tigris/v1/tigris.grpc.pb.h"
#include "tigris_host/inspect.hpp"
#include "tigris_host/run.hpp"
#include "tigris_compile/compile.hpp"
#include "tigris_import/lower.hpp"
#include "tigris_import/report_json.hpp"
#include "tigris_server/plan_cache.hpp"
#include "tigris_server/run_workers.hpp"
#include "tigris_server/server.hpp"
#include "tigris_tflite/model.hpp"
#include "validate_rpc.hpp"

extern "C" {
#include "tigris.h"
#include "tigris_executor.h"
}

namespace tigris::server {
namespace {

namespace v1 = tigris::v1;
using grpc::Status;
using grpc::StatusCode;

const char *code_name(StatusCode c) {
    switch (c) {
    case StatusCode::OK: return "OK";
    case StatusCode::CANCELLED: return "CANCELLED";
    case StatusCode::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case StatusCode::DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case StatusCode::FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case StatusCode::RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case StatusCode::UNIMPLEMENTED: return "UNIMPLEMENTED";
    case StatusCode::INTERNAL: return "INTERNAL";
    default: return "OTHER";
    }
}

// A slot among max_concurrent_runs, released when it goes out of scope.
class RunSlot {
public:
    RunSlot(std::atomic<int> &in_flight, int max) : n_(in_flight) { ok_ = n_.fetch_add(1) < max; }
    ~RunSlot() { n_.fetch_sub(1); }
    bool ok() const { return ok_; }

private:
    std::atomic<int> &n_;
    bool ok_ = false;
};

double thread_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void fill_tensor(const host::IoTensor &t, v1::TensorInfo *out) {
    out->set_index(t.index);
    out->set_name(t.name);
    out->set_stored_dtype(t.stored_dtype);
    out->set_declared_dtype(t.declared_dtype);
    for (int32_t d : t.shape) out->add_shape(d);
    out->set_stored_bytes(t.stored_bytes);
    out->set_declared_bytes(t.declared_bytes ? t.declared_bytes : t.stored_bytes);
}

void fill_run(const host::RunResult &r, v1::RunResponse *out) {
    v1::ExecStats *s = out->mutable_stats();
    s->set_stages_normal(r.stats.stages_normal);
    s->set_stages_tiled(r.stats.stages_tiled);
    s->set_stages_chain(r.stats.stages_chain);
    s->set_total_tiles(r.stats.total_tiles);
    s->set_slow_overflow_count(r.stats.slow_overflow_count);
    s->set_slow_overflow_bytes(r.stats.slow_overflow_bytes);
    s->set_loads_bytes(r.stats.loads_bytes);
    s->set_spills_bytes(r.stats.spills_bytes);
    s->set_compactions(r.stats.compactions);
    s->set_slow_peak(r.stats.slow_peak);
    s->set_weight_bytes(r.stats.weight_bytes);
    s->set_copy_bytes(r.stats.copy_bytes);
    out->set_fast_size(r.fast_size);
    out->set_slow_size(r.slow_size);
    out->set_fast_peak(r.fast_peak);
    out->set_slow_peak(r.slow_peak);
    out->set_fast_required(r.fast_required);
    out->set_backend(r.backend);
    out->set_run_ms(r.wall_ms);
}

// Run uses gRPC's callback API: a call waiting for a worker holds no thread
// (run_workers.hpp). The other RPCs are synchronous handlers.
class TigrisService final : public v1::Tigris::WithCallbackMethod_Run<v1::Tigris::Service> {
public:
    TigrisService(Limits limits, LogFn log)
        : limits_(limits), log_(std::move(log)), workers_(limits.max_parallel_runs, kScratchKeepBytes) {}

    Status Inspect(grpc::ServerContext *, const v1::InspectRequest *req, v1::InspectResponse *resp) override {
        const auto t0 = std::chrono::steady_clock::now();
        const std::string &b = req->plan();
        const host::InspectReport rep = host::inspect({reinterpret_cast<const uint8_t *>(b.data()), b.size()});
        if (!rep.status.ok() || !rep.plan)
            return done("Inspect", t0, Status(StatusCode::INVALID_ARGUMENT, refused_message(rep)));
        const host::PlanInfo &p = *rep.plan;
        resp->set_schema(p.schema);
        resp->set_model_name(p.model_name);
        resp->set_data_dtype(p.data_dtype);
        for (const auto &t : p.inputs) fill_tensor(t, resp->add_inputs());
        for (const auto &t : p.outputs) fill_tensor(t, resp->add_outputs());
        resp->set_num_tensors(p.counts.tensors);
        resp->set_num_ops(p.counts.ops);
        resp->set_num_stages(p.counts.stages);
        resp->set_fast_arena_required(p.memory.fast_arena_required);
        resp->set_executor_workspace_bytes(p.memory.executor_workspace_bytes);
        resp->set_decompression_overhead(p.memory.decompression_overhead);
        resp->set_report_json(host::to_json(rep).dump());
        return done("Inspect", t0, Status::OK);
    }

    grpc::ServerUnaryReactor *Run(grpc::CallbackServerContext *ctx, const v1::RunRequest *req,
                                  v1::RunResponse *resp) override {
        const auto t0 = std::chrono::steady_clock::now();
        grpc::ServerUnaryReactor *reactor = ctx->DefaultReactor();
        auto slot = std::make_shared<RunSlot>(in_flight_, limits_.max_concurrent_runs);
        if (!slot->ok()) {
            reactor->Finish(done("Run", t0, busy()));
            return reactor;
        }
        // A plan already cached whose last run was short runs on this gRPC
        // thread (run_workers.hpp); anything else goes to a worker.
        const std::string &pb = req->plan();
        double last_ms = -1;
        auto plan = plans_.find({reinterpret_cast<const uint8_t *>(pb.data()), pb.size()}, &last_ms);
        const bool short_run = plan && last_ms >= 0 && last_ms < kShortRunMs;
        workers_.submit(
            [this, ctx, req, resp, reactor, t0, slot, plan](host::RunScratch &scratch) mutable {
                const double c0 = thread_cpu_ms();
                host::RunResult r;
                Status st = execute(ctx, *req, false, r, resp, scratch, &plan);
                const double cpu_ms = thread_cpu_ms() - c0;
                if (plan && r.ok()) plans_.note_run(plan.get(), cpu_ms);
                if (st.ok()) fill_run(r, resp);
                st = done("Run", t0, st, cpu_ms);
                slot.reset();  // free before the client hears back, so its next call is admitted
                reactor->Finish(st);
            },
            short_run);
        return reactor;
    }

    Status Trace(grpc::ServerContext *ctx, const v1::TraceRequest *req, grpc::ServerWriter<v1::TraceBatch> *w) override {
        const auto t0 = std::chrono::steady_clock::now();
        RunSlot slot(in_flight_, limits_.max_concurrent_runs);
        if (!slot.ok()) return done("Trace", t0, busy());
        host::RunResult r;
        Status st;
        workers_.run_and_wait(
            [&](host::RunScratch &scratch) { st = execute(ctx, req->run(), true, r, nullptr, scratch); });
        if (!st.ok()) return done("Trace", t0, st);
        const size_t batch = req->batch_events() ? req->batch_events() : 1024;
        size_t at = 0;
        bool first = true;
        do {
            if (ctx->IsCancelled()) return done("Trace", t0, Status(StatusCode::CANCELLED, "the client went away"));
            v1::TraceBatch msg;
            if (first) {
                for (const auto &n : r.tensor_names) msg.add_tensor_names(n);
                for (const auto &n : r.op_names) msg.add_op_names(n);
                first = false;
            }
            const size_t end = std::min(r.trace.size(), at + batch);
            for (; at < end; ++at) add_event(r.trace[at], msg.add_events());
            if (at == r.trace.size()) {
                for (const auto &o : split_outputs(req->run(), r)) msg.mutable_result()->add_outputs(o);
                fill_run(r, msg.mutable_result());
            }
            if (!w->Write(msg)) return done("Trace", t0, Status(StatusCode::CANCELLED, "the client went away"));
        } while (at < r.trace.size());
        return done("Trace", t0, Status::OK);
    }

    Status Import(grpc::ServerContext *, const v1::ImportRequest *req, v1::ImportResponse *resp) override {
        const auto t0 = std::chrono::steady_clock::now();
        RunSlot slot(in_flight_, limits_.max_concurrent_runs);
        if (!slot.ok()) return done("Import", t0, busy());
        const std::string &b = req->model();
        import::Options o;
        o.schema = req->schema() ? req->schema() : 11;
        o.fast_budget = req->fast_budget();
        o.lz4 = req->lz4();
        o.xip = req->xip();
        o.model_name = req->model_name();
        try {
            const tflite::Model m = tflite::read_model({reinterpret_cast<const uint8_t *>(b.data()), b.size()});
            import::Result res = import::import_model(m, o);
            resp->set_plan(std::string(res.plan.begin(), res.plan.end()));
            resp->set_report_json(import::to_json(res.report).dump());
        } catch (const tflite::ReadError &e) {
            return done("Import", t0,
                        Status(StatusCode::INVALID_ARGUMENT, std::string("not a readable TFLite model: ") + e.what()));
        } catch (const import::ImportError &e) {
            return done("Import", t0,
                        Status(StatusCode::INVALID_ARGUMENT,
                               std::string(import::refusal_name(e.refusal.kind)) + ": " + e.refusal.message));
        }
        return done("Import", t0, Status::OK);
    }

    // Compile is CPU work (dry runs of every candidate), so it takes a slot.
    // Every bad request is INVALID_ARGUMENT or FAILED_PRECONDITION, never
    // UNKNOWN or INTERNAL (docs/service.md).
    Status Compile(grpc::ServerContext *, const v1::CompileRequest *req, v1::CompileResponse *resp) override {
        const auto t0 = std::chrono::steady_clock::now();
        RunSlot slot(in_flight_, limits_.max_concurrent_runs);
        if (!slot.ok()) return done("Compile", t0, busy());
        if (req->fast_budget() == 0)
            return done("Compile", t0, Status(StatusCode::INVALID_ARGUMENT, "fast_budget must be more than 0 bytes"));
        if (req->lz4() && req->xip())
            return done("Compile", t0, Status(StatusCode::INVALID_ARGUMENT, "bad-option: lz4 and xip exclude each other"));
        const std::string &b = req->model();
        compile::Options o;
        o.fast_budget = req->fast_budget();
        o.slow_budget = req->slow_budget();
        o.lz4 = req->lz4();
        o.xip = req->xip();
        o.model_name = req->model_name();
        try {
            const tflite::Model m = tflite::read_model({reinterpret_cast<const uint8_t *>(b.data()), b.size()});
            if (req->analyze()) {
                std::vector<uint32_t> budgets(req->analyze_budgets().begin(), req->analyze_budgets().end());
                if (budgets.empty()) budgets = {65536, 32768, 16384, 8192};
                if (budgets.size() > 16)
                    return done("Compile", t0, Status(StatusCode::INVALID_ARGUMENT, "at most 16 analyze_budgets"));
                for (uint32_t x : budgets)
                    if (x == 0) return done("Compile", t0, Status(StatusCode::INVALID_ARGUMENT, "an analyze budget of 0"));
                resp->set_analysis_json(compile::to_json(compile::analyze(m, o, budgets)).dump());
            }
            compile::Result res = compile::compile_model(m, o);
            resp->set_plan(std::string(res.plan.begin(), res.plan.end()));
            resp->set_report_json(compile::to_json(res.report).dump());
        } catch (const tflite::ReadError &e) {
            return done("Compile", t0,
                        Status(StatusCode::INVALID_ARGUMENT, std::string("not a readable TFLite model: ") + e.what()));
        } catch (const import::ImportError &e) {
            return done("Compile", t0,
                        Status(StatusCode::INVALID_ARGUMENT,
                               std::string(import::refusal_name(e.refusal.kind)) + ": " + e.refusal.message));
        } catch (const compile::BudgetError &e) {
            // With analyze the report already says why; the plan stays empty.
            if (req->analyze()) return done("Compile", t0, Status::OK);
            return done("Compile", t0, Status(StatusCode::FAILED_PRECONDITION, e.what()));
        }
        return done("Compile", t0, Status::OK);
    }

    // Export and Analyze live in export_rpc.cpp; the search is CPU work, so
    // they take a slot like Run.
    Status Export(grpc::ServerContext *, const v1::ExportRequest *req, v1::ExportResponse *resp) override {
        const auto t0 = std::chrono::steady_clock::now();
        RunSlot slot(in_flight_, limits_.max_concurrent_runs);
        if (!slot.ok()) return done("Export", t0, busy());
        return done("Export", t0, export_rpc(*req, resp));
    }
    Status Analyze(grpc::ServerContext *, const v1::AnalyzeRequest *req, v1::AnalyzeResponse *resp) override {
        const auto t0 = std::chrono::steady_clock::now();
        RunSlot slot(in_flight_, limits_.max_concurrent_runs);
        if (!slot.ok()) return done("Analyze", t0, busy());
        return done("Analyze", t0, analyze_rpc(*req, resp));
    }
    // Emulated devices: validate_rpc.cpp.
    Status Validate(grpc::ServerContext *ctx, const v1::ValidateRequest *req,
                    grpc::ServerWriter<v1::ValidateUpdate> *w) override {
        const auto t0 = std::chrono::steady_clock::now();
        return done("Validate", t0, validate_rpc(ctx, *req, w));
    }
    Status ValidateMatrix(grpc::ServerContext *ctx, const v1::ValidateMatrixRequest *req,
                          grpc::ServerWriter<v1::ValidateUpdate> *w) override {
        const auto t0 = std::chrono::steady_clock::now();
        return done("ValidateMatrix", t0, validate_matrix_rpc(ctx, *req, w));
    }
    Status ListTargets(grpc::ServerContext *, const v1::ListTargetsRequest *req, v1::ListTargetsResponse *resp) override {
        return done("ListTargets", std::chrono::steady_clock::now(), list_targets_rpc(*req, resp));
    }

    // Codegen lives in codegen_rpc.cpp: text generation, no run, so no slot.
    Status Codegen(grpc::ServerContext *, const v1::CodegenRequest *req, v1::CodegenResponse *resp) override {
        const auto t0 = std::chrono::steady_clock::now();
        return done("Codegen", t0, codegen_rpc(*req, resp));
    }

    Activity activity() const { return {in_flight_.load(), workers_.queued()}; }

private:
    // Plans kept loaded between calls (plan_cache.hpp) and what a run's
    // scratch may keep after it (run_workers.hpp); see docs/service.md.
    static constexpr size_t kCachedPlans = 16, kCachedPlanBytes = 64u << 20;
    static constexpr size_t kScratchKeepBytes = 64u << 20;
    // Runs up to this long (the plan's last run, CPU) execute on the gRPC
    // thread that received them; see run_workers.hpp and docs/service.md.
    static constexpr double kShortRunMs = 5.0;

    Limits limits_;
    LogFn log_;
    std::atomic<int> in_flight_{0};
    PlanCache plans_{kCachedPlans, kCachedPlanBytes};
    RunWorkers workers_;

    // The log line; run_cpu_ms (Run only) is the worker's CPU time for the
    // call, plan lookup, run and outputs, so that the rest of the server's
    // CPU per call is what gRPC costs (docs/service.md, the load test).
    Status done(const char *method, std::chrono::steady_clock::time_point t0, Status st, double run_cpu_ms = -1) {
        if (log_) {
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            char buf[128];
            int n = std::snprintf(buf, sizeof buf, "rpc=%s status=%s ms=%.2f", method, code_name(st.error_code()), ms);
            if (run_cpu_ms >= 0) std::snprintf(buf + n, sizeof buf - n, " run_cpu_ms=%.3f", run_cpu_ms);
            std::string line(buf);
            if (!st.ok()) line += " error=\"" + st.error_message() + "\"";
            log_(line);
        }
        return st;
    }

    Status busy() const {
        return Status(StatusCode::RESOURCE_EXHAUSTED,
                      "the server is running " + std::to_string(limits_.max_concurrent_runs) +
                          " requests already (its max concurrent runs); retry later");
    }

    Status not_yet(const char *method, const char *part) {
        return done(method, std::chrono::steady_clock::now(),
                    Status(StatusCode::UNIMPLEMENTED, std::string(method) + " is part of " + part +
                                                          ", which this server does not implement yet"));
    }

    static std::string refused_message(const host::InspectReport &rep) {
        return "the plan is refused: " + rep.status.name + ": " + rep.status.message;
    }

    // Runs the request with the server's limits, in a run slot's scratch
    // (run_workers.hpp): the plan from the cache (or loaded and checked now;
    // with `cached`, the caller's lookup, and set to the plan run), the
    // inputs straight from the request's bytes. With `direct`, outputs are
    // read straight into its outputs fields. The host library checks each
    // input by size, naming the input, as the CLI does.
    Status execute(grpc::ServerContextBase *ctx, const v1::RunRequest &req, bool trace, host::RunResult &r,
                   v1::RunResponse *direct, host::RunScratch &scratch,
                   std::shared_ptr<const host::LoadedPlan> *cached = nullptr) {
        // The call may have waited for a slot: do no work for a deadline
        // that has passed (gRPC then reports the call cancelled too, so the
        // deadline is looked at first) or a client that is gone.
        if (ctx->deadline() < std::chrono::system_clock::now())
            return Status(StatusCode::DEADLINE_EXCEEDED, "the deadline passed before the run could start");
        if (ctx->IsCancelled()) return Status(StatusCode::CANCELLED, "the client cancelled the run");
        const std::string &pb = req.plan();
        std::shared_ptr<const host::LoadedPlan> mine;
        std::shared_ptr<const host::LoadedPlan> &plan = cached ? *cached : mine;
        if (!plan) plan = plans_.get({reinterpret_cast<const uint8_t *>(pb.data()), pb.size()}, &r);
        if (!plan) return run_status(ctx, r);
        std::vector<host::Bytes> inputs;
        inputs.reserve(req.inputs_size());
        for (const std::string &b : req.inputs())
            inputs.emplace_back(reinterpret_cast<const uint8_t *>(b.data()), b.size());
        host::RunOptions opt;
        switch (req.backend()) {
        case v1::BACKEND_F32: opt.backend = host::Backend::F32; break;
        case v1::BACKEND_S8: opt.backend = host::Backend::S8; break;
        default: opt.backend = host::Backend::Auto; break;
        }
        if (req.fast_bytes()) opt.fast_bytes = req.fast_bytes();
        if (req.slow_bytes()) opt.slow_bytes = req.slow_bytes();
        opt.max_arena_bytes = limits_.max_arena_bytes;
        opt.collect_trace = trace;
        opt.max_trace_events = trace ? limits_.max_trace_events : 0;
        opt.should_stop = [ctx] { return ctx->IsCancelled() || ctx->deadline() < std::chrono::system_clock::now(); };
        if (direct)
            opt.output_to = [direct](size_t, uint32_t n) {
                std::string *s = direct->add_outputs();
                s->resize(n);
                return reinterpret_cast<uint8_t *>(s->data());
            };
        r = host::run_loaded(*plan, inputs, opt, scratch);
        if (r.ok()) return Status::OK;
        return run_status(ctx, r);
    }

    Status run_status(grpc::ServerContextBase *ctx, const host::RunResult &r) const {
        if (r.trace_overflow)
            return Status(StatusCode::RESOURCE_EXHAUSTED, "the trace has more than " +
                                                              std::to_string(limits_.max_trace_events) +
                                                              " events (the server's limit); trace a smaller plan");
        if (r.stopped) {
            // A client whose own deadline passes first cancels the call, and
            // the server's copy of the deadline (its arrival time plus the
            // timeout) is later by the request's transit: such a stop reads
            // as a cancel here. The client has its DEADLINE_EXCEEDED anyway.
            if (ctx->deadline() < std::chrono::system_clock::now())
                return Status(StatusCode::DEADLINE_EXCEEDED, "the deadline passed during the run");
            return Status(StatusCode::CANCELLED, "the client cancelled the run");
        }
        using host::RunStep;
        if (r.step == RunStep::ArenaLimit) return Status(StatusCode::RESOURCE_EXHAUSTED, r.error);
        if (r.step == RunStep::Plan || r.step == RunStep::InputSize || r.step == RunStep::Backend)
            return Status(StatusCode::INVALID_ARGUMENT, r.error);
        const bool mem = (r.step == RunStep::Input && r.core_error == TIGRIS_ERR_MEM) || r.step == RunStep::MemoryInit ||
                         (r.step == RunStep::Execution && r.core_error == TIGRIS_EXEC_ERR_MEM);
        if (mem)
            return Status(StatusCode::FAILED_PRECONDITION,
                          r.error + "; the plan requires a fast arena of " + std::to_string(r.fast_required) + " bytes");
        // Whatever else stops a run (a kernel or tile error, state it
        // cannot set up) comes from the plan or inputs the client sent, not
        // from the server: the request cannot be served as it is.
        return Status(StatusCode::FAILED_PRECONDITION, "the plan cannot be run: " + r.error);
    }

    // RunResult::outputs is every model output concatenated: cut it per output.
    static std::vector<std::string> split_outputs(const v1::RunRequest &, const host::RunResult &r) {
        std::vector<std::string> out;
        size_t at = 0;
        for (uint32_t n : r.output_sizes) {
            out.emplace_back(reinterpret_cast<const char *>(r.outputs.data()) + at, n);
            at += n;
        }
        return out;
    }

    static void add_event(const tigris_trace_event_t &e, v1::TraceEvent *out) {
        out->set_kind(e.kind);
        out->set_kind_name(host::trace_kind_name(e.kind));
        out->set_pool(e.pool);
        out->set_path(e.path);
        out->set_stage(e.stage);
        out->set_tensor(e.tensor);
        out->set_op(e.op);
        out->set_offset(e.offset);
        out->set_src_offset(e.src_offset);
        out->set_bytes(e.bytes);
        out->set_row0(e.row0);
        out->set_row1(e.row1);
        out->set_col0(e.col0);
        out->set_col1(e.col1);
        out->set_fast_used(e.fast_used);
        out->set_slow_used(e.slow_used);
    }
};

}  // namespace

GrpcServer::~GrpcServer() {
    if (server) shutdown(0);
}

void GrpcServer::shutdown(int grace_ms) {
    if (!server) return;
    server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(grace_ms));
    server->Wait();
    server.reset();
}

std::unique_ptr<GrpcServer> start_grpc(const std::string &address, const Limits &limits, LogFn log,
                                       const Security &security) {
    const auto creds = server_credentials(security, address, log);
    grpc::EnableDefaultHealthCheckService(true);
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
    auto svc = std::make_shared<TigrisService>(limits, std::move(log));
    auto out = std::make_unique<GrpcServer>();
    grpc::ServerBuilder builder;
    builder.AddListeningPort(address, creds, &out->port);
    builder.SetMaxReceiveMessageSize(limits.max_message_bytes);
    builder.SetMaxSendMessageSize(limits.max_message_bytes);
    grpc::ResourceQuota quota("tigris");
    quota.SetMaxThreads(limits.max_threads);
    builder.SetResourceQuota(quota);
    builder.RegisterService(svc.get());
    out->server = builder.BuildAndStart();
    if (!out->server || out->port == 0)
        throw std::runtime_error("cannot listen on " + address +
                                 (security.cert_pem.empty() ? ""
                                                            : " with TLS (are the certificate and key PEM, and a pair?)"));
    out->service = svc;
    out->activity = [s = svc.get()] { return s->activity(); };
    return out;
}

}  // namespace tigris::server
