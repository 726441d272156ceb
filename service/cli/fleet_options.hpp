// fleet_options.hpp - the options `tigris validate` and `tigris serve` share
// to pick the executor of emulated-device jobs: the local pool (default) or a
// Slurm cluster (docs/cluster.md).
#pragma once

#include <string>

#include "command.hpp"
#include "tigris_host/emu.hpp"

namespace tigris::cli {

struct FleetCliOptions {
    std::string fleet = "local", staging_dir, partition, account, runner;
    unsigned time_limit_min = 0;
    unsigned poll_ms = 250;
    unsigned batch = 1;
};

inline void add_fleet_options(CLI::App &sub, FleetCliOptions &o) {
    sub.add_option("--fleet", o.fleet, "Where emulated-device jobs run: local (a pool of QEMU processes) or slurm")
        ->check(CLI::IsMember({"local", "slurm"}))
        ->default_val(o.fleet);
    sub.add_option("--staging-dir", o.staging_dir, "Slurm: a directory every node shares (job files and results)");
    sub.add_option("--partition", o.partition, "Slurm: the partition to submit to (default: the cluster's)");
    sub.add_option("--account", o.account, "Slurm: the account to charge");
    sub.add_option("--slurm-time-limit", o.time_limit_min,
                   "Slurm: each job's --time in minutes (default: the timeout rounded up, plus one)");
    sub.add_option("--slurm-runner", o.runner,
                   "Slurm: the tigris binary the nodes run (default: this one; same path on every node)");
    sub.add_option("--slurm-poll-ms", o.poll_ms, "Slurm: how often job states are read")
        ->check(CLI::Range(10u, 60000u))
        ->default_val(o.poll_ms);
    sub.add_option("--slurm-batch", o.batch, "Slurm: emulated-device jobs run one after the other in one Slurm job")
        ->check(CLI::Range(1u, 64u))
        ->default_val(o.batch);
}

// Fills the Slurm part of `c` (its kind, limits and paths are the caller's).
inline void apply_fleet_options(const FleetCliOptions &o, host::emu::FleetConfig &c) {
    c.kind = o.fleet;
    c.slurm.staging_dir = o.staging_dir;
    c.slurm.partition = o.partition;
    c.slurm.account = o.account;
    c.slurm.runner = o.runner;
    c.slurm.time_limit_min = o.time_limit_min;
    c.slurm.poll = std::chrono::milliseconds(o.poll_ms);
    c.slurm.jobs_per_slurm_job = o.batch;
}

}  // namespace tigris::cli
