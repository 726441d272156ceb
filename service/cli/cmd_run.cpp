// cmd_run.cpp - `tigris run PLAN --input FILE --output FILE ...`: one
// inference on the host, outputs written as raw bytes.
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "run_options.hpp"

namespace tigris::cli {

int report_failure(const host::RunResult &r) {
    std::cerr << "error: " << r.error << '\n';
    return r.kind == host::RunResult::Kind::Io ? kExitUsage : kExitRefused;
}

bool write_outputs(const RunCliOptions &o, const host::RunResult &r) {
    if (o.output.empty()) return true;
    std::ofstream f(o.output, std::ios::binary);
    f.write(reinterpret_cast<const char *>(r.outputs.data()), static_cast<std::streamsize>(r.outputs.size()));
    f.close();
    if (!f) {
        std::cerr << "error: cannot write " << o.output << '\n';
        return false;
    }
    return true;
}

namespace {

int run(const RunCliOptions &o) {
    const host::RunResult r = host::run_plan_file(o.plan, o.input, to_host(o, false));
    if (!r.ok()) return report_failure(r);
    if (!write_outputs(o, r)) return kExitUsage;
    if (o.json) {
        const tigris_exec_stats_t &s = r.stats;
        nlohmann::json j{{"backend", r.backend},
                         {"fast_size", r.fast_size},
                         {"slow_size", r.slow_size},
                         {"fast_required", r.fast_required},
                         {"fast_peak", r.fast_peak},
                         {"slow_peak", r.slow_peak},
                         {"wall_ms", r.wall_ms},
                         {"output_bytes", r.outputs.size()},
                         {"stats",
                          {{"stages_normal", s.stages_normal},
                           {"stages_tiled", s.stages_tiled},
                           {"stages_chain", s.stages_chain},
                           {"total_tiles", s.total_tiles},
                           {"slow_overflow_count", s.slow_overflow_count},
                           {"slow_overflow_bytes", s.slow_overflow_bytes},
                           {"loads_bytes", s.loads_bytes},
                           {"spills_bytes", s.spills_bytes},
                           {"compactions", s.compactions},
                           {"slow_peak", s.slow_peak},
                           {"weight_bytes", s.weight_bytes},
                           {"copy_bytes", s.copy_bytes}}}};
        std::cout << j.dump(2) << '\n';
    }
    return kExitOk;
}

const Registration reg{"run", "Run a plan on raw input bytes and write the raw output bytes", [](CLI::App &sub) {
                           auto opt = std::make_shared<RunCliOptions>();
                           add_run_options(sub, *opt, true);
                           sub.add_flag("--json", opt->json, "Print stats, peaks and wall time as JSON");
                           return std::function<int()>([opt] { return run(*opt); });
                       }};

}  // namespace
}  // namespace tigris::cli
