// run.hpp - run a plan on the host: load, size arenas, write inputs, execute,
// read outputs, and optionally record the trace or dump tensors.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

extern "C" {
#include "tigris_executor.h"
#include "tigris_trace.h"
}

namespace tigris::host {

enum class Backend { Auto, F32, S8 };

// The slow arena a run gets unless told otherwise: room for every tensor
// twice plus alignment (docs/runtime-semantics.md R1.12). The plan states no
// slow figure; `tigris codegen` declares this one too.
uint32_t default_slow_bytes(const tigris_plan_t &plan);

struct RunOptions {
    Backend backend = Backend::Auto;
    std::optional<uint32_t> fast_bytes;  // default: tigris_fast_arena_required
    std::optional<uint32_t> slow_bytes;  // default: room for every tensor twice
    bool collect_trace = false;
    std::string dump_tensors_dir;  // empty: no dump
    // Asked before every kernel call; returning true stops the run there
    // (RunResult::stopped), so a server can honour deadlines and cancellation.
    std::function<bool()> should_stop;
    // When set: the caller's bytes per model input (e.g. one gRPC message
    // each), checked one by one so a refusal names the input.
    std::optional<std::vector<uint32_t>> input_sizes;
    uint64_t max_arena_bytes = 0;   // fast + slow above this: refused ("arena limit"); 0 = no limit
    uint64_t max_trace_events = 0;  // more events stop the run (trace_overflow); 0 = no limit
    // When set: model output i (n bytes) is read straight into the buffer this
    // returns (e.g. a gRPC response's bytes field) instead of RunResult::outputs;
    // output_sizes is filled either way.
    std::function<uint8_t *(size_t index, uint32_t n)> output_to;
};

// The step of a run that refused it. Callers decide by the step (and the
// core's code), never by the text: the gRPC service maps it to a status code.
enum class RunStep {
    None,
    Plan,        // the loader refused the plan
    Backend,     // the backend cannot run this plan (f32 on an int8 plan)
    InputSize,   // the inputs do not match the model interface
    ArenaLimit,  // the arenas asked for exceed the caller's limit
    MemoryInit,  // tigris_mem_init refused the arenas
    Input,       // writing a model input
    State,       // setting up the plan's persistent state
    Execution,   // the executor
    Output,      // reading a model output
};

// The step's name as users and reports see it ("plan refused", "bad input
// size", "arena limit", "memory init", "input", "state", "execution", ...).
const char *run_step_name(RunStep step);

struct RunResult {
    // kind: Ok; Refused (plan refused, bad input size, run error: exit 2);
    // Io (file unreadable, dump dir unwritable: exit 1).
    enum class Kind { Ok, Refused, Io } kind = Kind::Ok;
    std::string error;  // what went wrong, phrased so a user can act on it
    RunStep step = RunStep::None;  // Refused runs: the step that refused
    std::string error_name;        // run_step_name(step)
    int core_error = 0;     // tigris_error_t or tigris_exec_error_t of that step
    bool stopped = false;   // should_stop() ended the run
    bool trace_overflow = false;  // max_trace_events reached: the run was stopped
    size_t input_bytes_needed = 0;

    std::vector<uint8_t> outputs;  // model outputs concatenated, declared dtypes
    std::vector<uint32_t> output_sizes;  // bytes of each model output in `outputs`
    tigris_exec_stats_t stats{};
    uint32_t fast_size = 0, slow_size = 0;
    uint32_t fast_peak = 0, slow_peak = 0;
    uint32_t fast_required = 0;
    std::string backend;  // "f32" or "s8"
    double wall_ms = 0.0;
    std::vector<tigris_trace_event_t> trace;
    std::vector<std::string> tensor_names;  // index -> name, for exporters
    std::vector<std::string> op_names;      // index -> op type name

    bool ok() const { return kind == Kind::Ok; }
};

std::optional<Backend> parse_backend(const std::string &s);

using Bytes = std::span<const uint8_t>;

// A plan the loader has accepted, with its own 64-byte-aligned copy of the
// bytes (the loader keeps pointers into them, and TIGRIS_TENSOR_ALIGN holds
// inside the copy). The core only reads a loaded plan, so one LoadedPlan can
// be run by any number of threads at once; a server keeps these in a cache.
class LoadedPlan {
public:
    // Copies and loads the bytes. nullptr when the loader refuses them; then
    // *refusal (if given) is the run_plan result for the refusal.
    static std::shared_ptr<const LoadedPlan> load(Bytes bytes, RunResult *refusal = nullptr);
    ~LoadedPlan();
    LoadedPlan(const LoadedPlan &) = delete;
    LoadedPlan &operator=(const LoadedPlan &) = delete;

    const tigris_plan_t &plan() const { return plan_; }
    Bytes bytes() const { return {blob_, size_}; }
    const std::vector<std::string> &tensor_names() const { return tensor_names_; }
    const std::vector<std::string> &op_names() const { return op_names_; }

private:
    LoadedPlan() = default;
    uint8_t *blob_ = nullptr;
    size_t size_ = 0;
    tigris_plan_t plan_{};
    std::vector<std::string> tensor_names_, op_names_;
};

// The buffers one run works in (fast and slow arenas, tensor table, executor
// workspace, plan state). A worker that keeps one between runs allocates only
// when a run needs more than it holds; the contents never carry over (every
// run sets up its arenas, workspace and state from scratch). One run at a time.
class RunScratch {
public:
    RunScratch() = default;
    RunScratch(const RunScratch &) = delete;
    RunScratch &operator=(const RunScratch &) = delete;

    // Frees every buffer above keep_bytes, so one large run does not pin its
    // memory for the runs after it.
    void trim(size_t keep_bytes);
    size_t bytes_held() const;
    // Overwrites every held buffer with `byte` (tests: a run must not depend
    // on what an earlier run left behind).
    void poison(uint8_t byte);

    // A 64-byte-aligned buffer that only grows (until trimmed).
    class Buffer {
    public:
        Buffer() = default;
        ~Buffer();
        Buffer(const Buffer &) = delete;
        Buffer &operator=(const Buffer &) = delete;
        uint8_t *reserve(size_t n);  // at least n bytes; old contents are not kept
        void release();
        uint8_t *data() const { return p_; }
        size_t capacity() const { return cap_; }

    private:
        uint8_t *p_ = nullptr;
        size_t cap_ = 0;
    };
    Buffer fast, slow, workspace, state;
    std::vector<void *> tensor_ptrs;
};

// Runs a loaded plan on `inputs`, one span per model input in model-input
// order, each checked against the input's size (a refusal names the input).
// RunOptions::input_sizes is not used here: the spans carry their sizes.
// Tensor and op names are copied into the result only when collecting the trace.
RunResult run_loaded(const LoadedPlan &plan, std::span<const Bytes> inputs, const RunOptions &opt,
                     RunScratch &scratch);

// Runs plan bytes on `input` (the model inputs' raw bytes, model-input order).
RunResult run_plan(const std::vector<uint8_t> &plan_bytes, const std::vector<uint8_t> &input,
                   const RunOptions &opt = {});

// Reads both files first; I/O failures come back as Kind::Io.
RunResult run_plan_file(const std::string &plan_path, const std::string &input_path, const RunOptions &opt = {});

// Exporters of RunResult::trace.
std::string trace_to_text(const RunResult &r);
std::string trace_to_jsonl(const RunResult &r);
std::string trace_to_chrome(const RunResult &r);
std::string trace_kind_name(uint8_t kind);
std::string trace_path_name(uint8_t path);

}  // namespace tigris::host
