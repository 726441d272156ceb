// validate.hpp - run a plan on emulated boards with the reference and the
// accelerated int8 backend, and check both give the host's bytes.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tigris_host/emu.hpp"

namespace tigris::host {

struct ValidateOptions {
    std::vector<std::string> targets;  // empty or "all": every board
    // Called from worker threads as the runs move on ("queued", "ref running", ...).
    std::function<void(const std::string &target, const std::string &stage)> progress;
    // Polled while waiting; true cancels every run (their QEMUs are killed).
    std::function<bool()> should_stop;
    std::chrono::milliseconds timeout{0};  // per run; 0: the fleet's default
    // The backends to run on each board (default both; "all"). With one,
    // parity means that backend's bytes equal the host's.
    std::vector<emu::Backend> backends{emu::Backend::Ref, emu::Backend::Accel};
    // Matrix calls: progress and results per plan (index into the plans),
    // results as they arrive (from the calling thread).
    std::function<void(size_t plan, const std::string &target, const std::string &stage)> plan_progress;
    std::function<void(size_t plan, const struct TargetResult &result)> on_result;
    // A plan the host refuses stops the whole matrix before any job runs
    // (the RPC); otherwise only that plan's results carry the refusal (the CLI).
    bool all_or_nothing = false;
};

// Instructions per op type (conv, depthwise, fully connected, ...), summed
// over the plan's ops of that type and all their kernel calls.
struct OpTypeCount {
    std::string op_type;  // "CONV", "DEPTHWISE", "FULLY_CONN", ...
    uint32_t ops = 0;
    uint64_t ref_instructions = 0, accel_instructions = 0;
};

struct TargetResult {
    std::string target, board;
    bool parity = false;  // accelerated == reference == host, byte for byte
    bool ref_matches_host = false, accel_matches_ref = false;
    std::optional<uint64_t> ref_instructions, accel_instructions;
    std::optional<uint32_t> fast_peak;        // of the accelerated run (else the reference run)
    std::optional<uint64_t> first_mismatch;   // byte offset in the concatenated outputs
    std::string error;                        // empty when both runs finished
    std::string accel_kernel;                 // "tigris-arm", "tigris-xtensa"
    std::string count_method;                 // "plugin" (exact), "timer" (to a tick), "" (none)
    bool cancelled = false, timed_out = false;
    std::vector<OpTypeCount> op_types;
};

struct ValidateReport {
    std::vector<TargetResult> results;  // one per target, in the order asked
    std::string error;                  // a problem with the request itself
    bool cancelled = false;
};

// Returns the targets named by `names` ("all" or empty: every board) or an
// error naming the unknown one.
std::optional<std::vector<std::string>> resolve_targets(const std::vector<std::string> &names, std::string &error);

// A deterministic input when the caller gives none: every model input filled
// with the corpus's "pattern" values in its declared dtype (float32 element j
// = ((j mod 17) - 8) * 0.25; other dtypes byte j = ((73 j + 17) mod 201) - 100,
// bool 0/1). Empty with `error` set when the host refuses the plan.
std::optional<std::vector<uint8_t>> pattern_input(const std::vector<uint8_t> &plan, std::string &error);

ValidateReport validate_plan(emu::Executor &fleet, const std::vector<uint8_t> &plan, const std::vector<uint8_t> &input,
                             const ValidateOptions &opt);

// One plan of a matrix call: a name for people (its path) and its bytes.
struct MatrixPlan {
    std::string name;
    std::vector<uint8_t> plan, input;
};

struct MatrixReport {
    std::vector<std::string> names;      // of the plans, in the order given
    std::vector<ValidateReport> plans;   // one per plan
    bool cancelled = false;
    size_t jobs = 0;                     // emulated-device jobs submitted
    double wall_ms = 0;
};

// Every plan on every target with every backend, all jobs submitted before
// any result is awaited, so they spread over the whole fleet.
MatrixReport validate_matrix(emu::Executor &fleet, const std::vector<MatrixPlan> &plans, const ValidateOptions &opt);
std::string backend_names(const std::vector<emu::Backend> &b);  // "ref,accel"
// {"plans": [{"plan", "results": [...]}], "summary": {...}}
std::string matrix_to_json(const MatrixReport &r, int indent = 2);
// Per job line, then a summary table: plan, target, parity, instructions, first mismatch.
std::string matrix_to_text(const MatrixReport &r);

// {"results": [{"target", "parity", "ref_instructions", "accel_instructions",
// "fast_peak", "first_mismatch", "error", ...}, ...]}
std::string validate_to_json(const ValidateReport &r, int indent = 2);
std::string validate_to_text(const ValidateReport &r);
std::string target_result_json(const TargetResult &t);

}  // namespace tigris::host
