// bench_cluster.cpp - the same 24-job matrix (3 plans x 4 boards x 2
// backends) on the local pool (2 workers) and on the two-node Slurm cluster
// of tests/cluster/cluster.sh (one CPU a node): wall time, throughput and
// Slurm's overhead per job (docs/cluster.md has the figures).
//
//   tests/cluster/cluster.sh run auto build/host/tests/cluster/tigris_cluster_bench [--rounds N]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cluster_support.h"
#include "emu_test_support.h"
#include "tigris_host/validate.hpp"

namespace {

namespace emu = tigris::host::emu;
namespace host = tigris::host;

bool all_exact(const host::MatrixReport &r) {
    for (const auto &p : r.plans)
        for (const auto &t : p.results)
            if (!t.parity) return false;
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    int rounds = 3;
    for (int i = 1; i < argc; i++)
        if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::atoi(argv[++i]);
    if (rounds < 1 || rounds > 100) rounds = 3;
    if (cluster_test::dir().empty()) {
        std::printf("run me with tests/cluster/cluster.sh run auto %s\n", argv[0]);
        return 1;
    }
    for (const char *t : {"cortex-m4", "cortex-m7", "cortex-m55", "xtensa-lx106"})
        if (!emu_test::missing(t).empty()) {
            std::printf("%s\n", emu_test::missing(t).c_str());
            return 1;
        }
    emu::Paths paths = emu::Paths::defaults();
    paths.plugin.clear();  // the cycle timers under -icount: no plugin needed on the nodes
    const auto ps = cluster_test::matrix_plans();
    host::ValidateOptions opt;
    opt.targets = {"all"};

    std::string err;
    auto slurm = cluster_test::slurm_fleet(paths, err);
    if (!slurm) {
        std::printf("error: %s\n", err.c_str());
        return 1;
    }
    emu::SlurmFleet::Config batched;
    batched.staging_dir = cluster_test::dir() + "/staging";
    batched.runner = TIGRIS_CLI_PATH;
    batched.poll = std::chrono::milliseconds(100);
    batched.jobs_per_slurm_job = 2;
    auto slurm2 = emu::SlurmFleet::create(batched, paths, err);
    if (!slurm2) {
        std::printf("error: %s\n", err.c_str());
        return 1;
    }
    emu::Fleet::Limits lim;
    lim.workers = 2;  // as many as the cluster's two one-CPU nodes
    emu::Fleet local(lim, paths);

    double best_local = 1e30, best_slurm = 1e30;
    size_t jobs = 0;
    for (int r = 0; r < rounds; r++) {
        host::MatrixReport a = host::validate_matrix(local, ps, opt);
        host::MatrixReport b = host::validate_matrix(*slurm, ps, opt);
        host::MatrixReport c = host::validate_matrix(*slurm2, ps, opt);
        if (!all_exact(a) || !all_exact(b) || !all_exact(c)) {
            std::printf("error: a job was not bit-exact\n");
            return 1;
        }
        jobs = a.jobs;
        std::printf("round %d: local %zu jobs %.2f s (%.2f jobs/s) | slurm %zu jobs %.2f s (%.2f jobs/s) | "
                    "slurm, 2 a Slurm job, %.2f s (%.2f jobs/s)\n",
                    r + 1, a.jobs, a.wall_ms / 1000, a.jobs / (a.wall_ms / 1000), b.jobs, b.wall_ms / 1000,
                    b.jobs / (b.wall_ms / 1000), c.wall_ms / 1000, c.jobs / (c.wall_ms / 1000));
        best_local = std::min(best_local, a.wall_ms);
        best_slurm = std::min(best_slurm, b.wall_ms);
    }
    // Two slots either way: each job's share of the extra wall time, times
    // the two jobs that run at once, is what Slurm adds to one job.
    std::printf("best: local %.2f s, slurm %.2f s; Slurm overhead %.0f ms per job (2 slots)\n", best_local / 1000,
                best_slurm / 1000, (best_slurm - best_local) * 2 / static_cast<double>(jobs));
    return 0;
}
