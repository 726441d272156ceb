// run.cpp - one inference on the host with caller-sized arenas.
#include "tigris_host/run.hpp"
#include "tigris_host/names.hpp"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <new>

extern "C" {
#include "tigris.h"
#include "tigris_iface.h"
#include "tigris_kernels.h"
#include "tigris_loader.h"
#include "tigris_mem.h"
}

namespace tigris::host {
namespace {

struct Ctx {
    tigris_kernel_fn inner = nullptr;
    RunResult *res = nullptr;
    const std::string *dump_dir = nullptr;
    bool dump_failed = false;
    const std::function<bool()> *should_stop = nullptr;
    uint64_t max_events = 0;
};

void on_trace(const tigris_trace_event_t *ev, void *p) {
    Ctx *c = static_cast<Ctx *>(p);
    if (c->max_events && c->res->trace.size() >= c->max_events) {
        c->res->trace_overflow = true;  // the next kernel call stops the run
        return;
    }
    c->res->trace.push_back(*ev);
}

// A tensor name as part of a file name: separators replaced, and cut to 120
// bytes because converters join fused names with ';' into strings longer than
// a file name may be (the index prefix keeps cut names unique).
std::string file_safe(std::string s) {
    for (char &c : s)
        if (c == '/' || c == '\\' || c == ':' || c == ' ') c = '_';
    if (s.size() > 120) s.resize(120);
    return s.empty() ? std::string("unnamed") : s;
}

// Wraps the dispatcher so a run can be stopped between kernel calls and a
// tensor can be written the moment its producing kernel returns. Only
// whole-tensor (normal-path) calls are dumped: a tiled call produces one
// band, which is not the tensor.
int host_kernel(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem, void *user) {
    auto *ctx = static_cast<Ctx *>(user);
    if (ctx->res->trace_overflow || (ctx->should_stop && *ctx->should_stop && (*ctx->should_stop)())) {
        ctx->res->stopped = true;
        return -1;
    }
    int rc = ctx->inner(plan, op, op_index, mem, nullptr);
    if (ctx->dump_dir->empty()) return rc;
#ifdef TIGRIS_TRACE
    if (rc != 0 || mem->trace_path != TIGRIS_TRACE_PATH_NORMAL) return rc;
#else
    // Without the trace the stage's path is unknown, so no call is known to
    // produce a whole tensor: dump nothing rather than a band.
    (void)mem;
    return rc;
#endif
    const uint16_t *outs = tigris_op_outputs(plan, op);
    for (uint8_t i = 0; outs && i < op->num_outputs; i++) {
        uint16_t t = outs[i];
        if (t >= plan->header->num_tensors || !mem->tensor_ptrs[t]) continue;
        std::string name = std::to_string(t) + "_" + file_safe(tigris_str(plan, plan->tensors[t].name_str)) + ".bin";
        std::ofstream f(std::filesystem::path(*ctx->dump_dir) / name, std::ios::binary);
        f.write(static_cast<const char *>(mem->tensor_ptrs[t]), plan->tensors[t].size_bytes);
        if (!f) ctx->dump_failed = true;
    }
    return rc;
}

RunResult refused(RunStep step, std::string msg, int code = 0) {
    RunResult r;
    r.kind = RunResult::Kind::Refused;
    r.step = step;
    r.error_name = run_step_name(step);
    r.error = std::move(msg);
    r.core_error = code;
    return r;
}

uint8_t *aligned_alloc64(size_t n) {
    return static_cast<uint8_t *>(::operator new(n ? n : 1, std::align_val_t(64)));
}
void aligned_free64(uint8_t *p) {
    if (p) ::operator delete(p, std::align_val_t(64));
}

}  // namespace

const char *run_step_name(RunStep step) {
    switch (step) {
    case RunStep::None: return "";
    case RunStep::Plan: return "plan refused";
    case RunStep::Backend: return "bad backend";
    case RunStep::InputSize: return "bad input size";
    case RunStep::ArenaLimit: return "arena limit";
    case RunStep::MemoryInit: return "memory init";
    case RunStep::Input: return "input";
    case RunStep::State: return "state";
    case RunStep::Execution: return "execution";
    case RunStep::Output: return "output";
    }
    return "";
}

std::optional<Backend> parse_backend(const std::string &s) {
    if (s == "auto") return Backend::Auto;
    if (s == "f32") return Backend::F32;
    if (s == "s8") return Backend::S8;
    return std::nullopt;
}

uint32_t default_slow_bytes(const tigris_plan_t &plan) {
    uint64_t slow = 4096;
    for (uint16_t t = 0; t < plan.header->num_tensors; t++) slow += 2ull * (plan.tensors[t].size_bytes + 64);
    return slow > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(slow);
}

std::shared_ptr<const LoadedPlan> LoadedPlan::load(Bytes bytes, RunResult *refusal) {
    std::shared_ptr<LoadedPlan> lp(new LoadedPlan());
    lp->blob_ = aligned_alloc64(bytes.size());
    lp->size_ = bytes.size();
    if (!bytes.empty()) std::memcpy(lp->blob_, bytes.data(), bytes.size());
    tigris_error_t le = tigris_plan_load(lp->blob_, static_cast<uint32_t>(bytes.size()), &lp->plan_);
    if (le != TIGRIS_OK) {
        if (refusal)
            *refusal = refused(RunStep::Plan,
                               std::string("the runtime refuses this plan: ") + error_name(le) + ": " +
                                   tigris_error_str(le) + " (run `tigris inspect` on it for details)",
                               le);
        return nullptr;
    }
    const tigris_plan_t &plan = lp->plan_;
    for (uint16_t t = 0; t < plan.header->num_tensors; t++)
        lp->tensor_names_.emplace_back(tigris_str(&plan, plan.tensors[t].name_str));
    for (uint32_t o = 0; o < plan.header->num_ops; o++) lp->op_names_.emplace_back(tigris_op_name(&plan, &plan.ops[o]));
    return lp;
}

LoadedPlan::~LoadedPlan() { aligned_free64(blob_); }

RunScratch::Buffer::~Buffer() { release(); }

uint8_t *RunScratch::Buffer::reserve(size_t n) {
    if (n > cap_ || !p_) {
        release();
        p_ = aligned_alloc64(n);
        cap_ = n;
    }
    return p_;
}

void RunScratch::Buffer::release() {
    aligned_free64(p_);
    p_ = nullptr;
    cap_ = 0;
}

void RunScratch::trim(size_t keep_bytes) {
    for (Buffer *b : {&fast, &slow, &workspace, &state})
        if (b->capacity() > keep_bytes) b->release();
    if (tensor_ptrs.capacity() * sizeof(void *) > keep_bytes) std::vector<void *>().swap(tensor_ptrs);
}

size_t RunScratch::bytes_held() const {
    return fast.capacity() + slow.capacity() + workspace.capacity() + state.capacity() +
           tensor_ptrs.capacity() * sizeof(void *);
}

void RunScratch::poison(uint8_t byte) {
    for (Buffer *b : {&fast, &slow, &workspace, &state})
        if (b->data()) std::memset(b->data(), byte, b->capacity());
}

RunResult run_loaded(const LoadedPlan &lp, std::span<const Bytes> inputs, const RunOptions &opt, RunScratch &scratch) {
    const tigris_plan_t &plan = lp.plan();
    RunResult res;
    const uint8_t dtype = tigris_plan_data_dtype(&plan);
    Backend b = opt.backend;
    if (b == Backend::Auto) b = dtype == TIGRIS_DTYPE_INT8 ? Backend::S8 : Backend::F32;
    res.backend = b == Backend::S8 ? "s8" : "f32";
    // The float reference backend has no int8 kernels: say so before the run
    // rather than fail inside it with a kernel error.
    if (b == Backend::F32 && dtype == TIGRIS_DTYPE_INT8) {
        RunResult no = refused(RunStep::Backend, "the f32 backend has no int8 kernels and this plan is int8; use s8 or auto");
        no.backend = res.backend;
        return no;
    }
    tigris_kernel_fn kernel = b == Backend::S8 ? tigris_dispatch_kernel_s8 : tigris_dispatch_kernel;

    const uint16_t nt = plan.header->num_tensors;
    res.fast_required = tigris_fast_arena_required(&plan);
    res.fast_size = opt.fast_bytes.value_or(res.fast_required);
    res.slow_size = opt.slow_bytes.value_or(default_slow_bytes(plan));
    // Names only for the trace's exporters: a plain run does not pay for them.
    if (opt.collect_trace) {
        res.tensor_names = lp.tensor_names();
        res.op_names = lp.op_names();
    }

    if (inputs.size() != plan.header->num_model_inputs)
        return refused(RunStep::InputSize, "the plan has " + std::to_string(plan.header->num_model_inputs) +
                                             " model inputs but " + std::to_string(inputs.size()) + " were given");
    for (uint8_t i = 0; i < plan.header->num_model_inputs; i++) {
        const uint16_t t = plan.model_inputs[i];
        const uint32_t want = tigris_iface_bytes(&plan, t);
        if (inputs[i].size() != want)
            return refused(RunStep::InputSize, "input " + std::to_string(i) + " (\"" +
                                                 tigris_tensor_name(&plan, &plan.tensors[t]) + "\") has " +
                                                 std::to_string(inputs[i].size()) + " bytes; it takes " +
                                                 std::to_string(want) + " bytes");
    }

    if (opt.max_arena_bytes && (uint64_t)res.fast_size + res.slow_size > opt.max_arena_bytes)
        return refused(RunStep::ArenaLimit, "the run asks for " + std::to_string((uint64_t)res.fast_size + res.slow_size) +
                                          " arena bytes (fast + slow); the limit is " +
                                          std::to_string(opt.max_arena_bytes));
    uint8_t *fast = scratch.fast.reserve(res.fast_size);
    uint8_t *slowbuf = scratch.slow.reserve(res.slow_size);
    scratch.tensor_ptrs.assign(nt, nullptr);
    tigris_mem_t mem;
    tigris_mem_error_t me =
        tigris_mem_init(&mem, scratch.tensor_ptrs.data(), nt, fast, res.fast_size, slowbuf, res.slow_size);
    if (me != TIGRIS_MEM_OK)
        return refused(RunStep::MemoryInit, std::string("cannot set up the arenas: ") + tigris_mem_error_str(me), me);

    Ctx ctx;
    ctx.inner = kernel;
    ctx.res = &res;
    ctx.dump_dir = &opt.dump_tensors_dir;
    ctx.should_stop = &opt.should_stop;
    ctx.max_events = opt.max_trace_events;
    if (opt.collect_trace) tigris_mem_set_trace(&mem, on_trace, &ctx);
    if (!opt.dump_tensors_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(opt.dump_tensors_dir, ec);
        if (ec) {
            RunResult r;
            r.kind = RunResult::Kind::Io;
            r.error = "cannot create " + opt.dump_tensors_dir + ": " + ec.message();
            return r;
        }
    }

    for (uint8_t i = 0; i < plan.header->num_model_inputs; i++) {
        const uint16_t t = plan.model_inputs[i];
        tigris_error_t we = tigris_input_write(&plan, &mem, t, inputs[i].data(), (uint32_t)inputs[i].size());
        if (we != TIGRIS_OK)
            return refused(RunStep::Input,
                           "cannot place model input " + std::to_string(i) + ": " + tigris_error_str(we) +
                               " (try a larger --fast or --slow)",
                           we);
    }

    // The workspace starts zeroed, as a fresh one would.
    const size_t ws_size = tigris_executor_workspace_required(&plan);
    uint8_t *ws = scratch.workspace.reserve(ws_size);
    std::memset(ws, 0, ws_size);
    const bool wrap = !opt.dump_tensors_dir.empty() || opt.should_stop || opt.max_trace_events;
    auto t0 = std::chrono::steady_clock::now();
    // Plans with state (SVDF, LSTM, variables) start every run from the
    // plan's initial values: one `tigris run` is one inference.
    const size_t state_size = tigris_state_required(&plan);
    uint8_t *state = state_size ? scratch.state.reserve(state_size) : nullptr;
    if (state_size) {
        std::memset(state, 0, state_size);
        tigris_exec_error_t se = tigris_state_init(&plan, state, state_size);
        if (se != TIGRIS_EXEC_OK)
            return refused(RunStep::State, std::string("cannot set up the plan's state: ") + tigris_exec_error_str(se), se);
    }
    tigris_exec_error_t xe = tigris_run_with_state(&plan, &mem, wrap ? host_kernel : kernel, wrap ? &ctx : nullptr,
                                                   &res.stats, ws, ws_size, state, state_size);
    res.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    res.fast_peak = mem.fast_peak;
    res.slow_peak = mem.slow_peak;
    if (xe != TIGRIS_EXEC_OK) {
        res.kind = RunResult::Kind::Refused;
        res.step = RunStep::Execution;
        res.error_name = run_step_name(res.step);
        res.core_error = xe;
        res.error = res.stopped ? std::string("the run was stopped before it finished")
                                : std::string("the run failed: ") + tigris_exec_error_str(xe);
        if (xe == TIGRIS_EXEC_ERR_MEM)
            res.error += " (fast arena " + std::to_string(res.fast_size) + " bytes, the plan asks for " +
                         std::to_string(res.fast_required) + "; raise --fast or --slow)";
        return res;
    }
    if (ctx.dump_failed) {
        res.kind = RunResult::Kind::Io;
        res.error = "could not write every tensor into " + opt.dump_tensors_dir;
        return res;
    }
    for (uint8_t i = 0; i < plan.header->num_model_outputs; i++) {
        const uint16_t t = plan.model_outputs[i];
        const uint32_t n = tigris_iface_bytes(&plan, t);
        res.output_sizes.push_back(n);
        uint8_t *to;
        if (opt.output_to) {
            to = opt.output_to(i, n);
        } else {
            const size_t base = res.outputs.size();
            res.outputs.resize(base + n);
            to = res.outputs.data() + base;
        }
        tigris_error_t oe = tigris_output_read(&plan, &mem, t, to, n);
        if (oe != TIGRIS_OK)
            return refused(RunStep::Output, std::string("cannot read model output: ") + tigris_error_str(oe), oe);
    }
    return res;
}

RunResult run_plan(const std::vector<uint8_t> &plan_bytes, const std::vector<uint8_t> &input, const RunOptions &opt) {
    RunResult refusal;
    const auto lp = LoadedPlan::load(plan_bytes, &refusal);
    if (!lp) return refusal;
    const tigris_plan_t &plan = lp->plan();
    const uint8_t n_in = plan.header->num_model_inputs;
    // The caller's split of `input` (one gRPC message per input, say) is
    // checked input by input first, so the refusal names the input.
    if (opt.input_sizes) {
        const auto &sz = *opt.input_sizes;
        if (sz.size() != n_in)
            return refused(RunStep::InputSize, "the plan has " + std::to_string(n_in) + " model inputs but " +
                                                 std::to_string(sz.size()) + " were given");
        for (uint8_t i = 0; i < n_in; i++) {
            const uint16_t t = plan.model_inputs[i];
            const uint32_t want = tigris_iface_bytes(&plan, t);
            if (sz[i] != want)
                return refused(RunStep::InputSize,
                               "input " + std::to_string(i) + " (\"" + tigris_tensor_name(&plan, &plan.tensors[t]) +
                                   "\") has " + std::to_string(sz[i]) + " bytes; it takes " + std::to_string(want) +
                                   " bytes");
        }
    }
    size_t need = 0;
    for (uint8_t i = 0; i < n_in; i++) need += tigris_iface_bytes(&plan, plan.model_inputs[i]);
    if (need != input.size()) {
        RunResult r = refused(RunStep::InputSize, "the input has " + std::to_string(input.size()) +
                                                    " bytes but the model inputs need " + std::to_string(need) +
                                                    " (raw bytes in declared dtypes, model-input order)");
        r.input_bytes_needed = need;
        return r;
    }
    std::vector<Bytes> parts;
    size_t at = 0;
    for (uint8_t i = 0; i < n_in; i++) {
        const uint32_t n = tigris_iface_bytes(&plan, plan.model_inputs[i]);
        parts.emplace_back(input.data() + at, n);
        at += n;
    }
    RunScratch scratch;
    RunResult r = run_loaded(*lp, parts, opt, scratch);
    // The CLI's results always carry the names (its exporters and reports use them).
    if (r.tensor_names.empty()) r.tensor_names = lp->tensor_names();
    if (r.op_names.empty()) r.op_names = lp->op_names();
    return r;
}

RunResult run_plan_file(const std::string &plan_path, const std::string &input_path, const RunOptions &opt) {
    auto slurp = [](const std::string &p, std::vector<uint8_t> &out) {
        std::ifstream f(p, std::ios::binary);
        if (!f) return false;
        out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
        return true;
    };
    std::vector<uint8_t> plan, input;
    for (auto [path, buf] : {std::pair{&plan_path, &plan}, std::pair{&input_path, &input}}) {
        if (!slurp(*path, *buf)) {
            RunResult r;
            r.kind = RunResult::Kind::Io;
            r.error = "cannot read " + *path + ": " + std::strerror(errno);
            return r;
        }
    }
    return run_plan(plan, input, opt);
}

}  // namespace tigris::host
