// cmd_trace.cpp - `tigris trace PLAN --input FILE [--format text|jsonl|chrome]`:
// runs the plan and prints every trace event.
#include <iostream>

#include "run_options.hpp"

namespace tigris::cli {
namespace {

struct TraceOptions {
    RunCliOptions run;
    std::string format = "text";
};

int run(const TraceOptions &o) {
    const host::RunResult r = host::run_plan_file(o.run.plan, o.run.input, to_host(o.run, true));
    // A failed run still has a trace up to the failure: that is often why one
    // asks for it, so print it before the error.
    if (r.ok() || r.kind == host::RunResult::Kind::Refused) {
        if (o.format == "jsonl")
            std::cout << host::trace_to_jsonl(r);
        else if (o.format == "chrome")
            std::cout << host::trace_to_chrome(r);
        else
            std::cout << host::trace_to_text(r);
    }
    if (!r.ok()) return report_failure(r);
    if (r.trace.empty()) std::cerr << "note: no trace events (core built without TIGRIS_TRACE?)\n";
    return write_outputs(o.run, r) ? kExitOk : kExitUsage;
}

const Registration reg{"trace", "Run a plan and print every trace event", [](CLI::App &sub) {
                           auto opt = std::make_shared<TraceOptions>();
                           add_run_options(sub, opt->run, false);
                           sub.add_option("--format", opt->format, "Output format")
                               ->check(CLI::IsMember({"text", "jsonl", "chrome"}));
                           return std::function<int()>([opt] { return run(*opt); });
                       }};

}  // namespace
}  // namespace tigris::cli
