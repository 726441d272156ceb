// run_options.hpp - the options `tigris run` and `tigris trace` share.
#pragma once

#include <memory>
#include <string>

#include "command.hpp"
#include "tigris_host/run.hpp"

namespace tigris::cli {

struct RunCliOptions {
    std::string plan, input, output, backend = "auto", dump_dir;
    std::optional<uint32_t> fast, slow;
    bool json = false;
};

inline void add_run_options(CLI::App &sub, RunCliOptions &o, bool output_required) {
    sub.add_option("plan", o.plan, "Plan file (.tgrs)")->required();
    sub.add_option("--input", o.input, "Model inputs: raw bytes in declared dtypes, model-input order")->required();
    auto *out = sub.add_option("--output", o.output, "Where to write the model outputs (model-output order)");
    if (output_required) out->required();
    sub.add_option("--backend", o.backend, "Kernel backend")->check(CLI::IsMember({"auto", "f32", "s8"}));
    sub.add_option("--fast", o.fast, "Fast arena bytes (default: what the plan asks for)");
    sub.add_option("--slow", o.slow, "Slow arena bytes (default: room for every tensor twice)");
    sub.add_option("--dump-tensors", o.dump_dir, "Write each whole tensor produced into this directory");
}

inline host::RunOptions to_host(const RunCliOptions &o, bool trace) {
    host::RunOptions r;
    r.backend = *host::parse_backend(o.backend);
    r.fast_bytes = o.fast;
    r.slow_bytes = o.slow;
    r.collect_trace = trace;
    r.dump_tensors_dir = o.dump_dir;
    return r;
}

// Reports a failed run on stderr and returns the exit code for it.
int report_failure(const host::RunResult &r);

// Writes the outputs when an output path was given; returns false on I/O error.
bool write_outputs(const RunCliOptions &o, const host::RunResult &r);

}  // namespace tigris::cli
