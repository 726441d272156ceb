// cluster_support.h - what the cluster tests and the cluster benchmark
// share: the cluster cluster.sh started (TIGRIS_CLUSTER_DIR, SLURM_CONF), a
// Slurm fleet on it, and looking at its jobs and processes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tigris_host/emu.hpp"
#include "tigris_host/validate.hpp"

namespace cluster_test {

namespace emu = tigris::host::emu;

// The cluster's directory; empty when not run by tests/cluster/cluster.sh.
std::string dir();

// A Slurm fleet on the test cluster (staging in DIR/staging, the tigris
// binary of this build as the runner). Null, with `error`, when it fails.
std::unique_ptr<emu::SlurmFleet> slurm_fleet(const emu::Paths &paths, std::string &error,
                                             std::chrono::milliseconds timeout = std::chrono::seconds(120));

// The matrix the tests and the benchmark run: three int8/float corpus plans
// with their inputs (x four boards x two backends = 24 jobs).
std::vector<tigris::host::MatrixPlan> matrix_plans();

// Output of a Slurm command (squeue, scontrol, sinfo), run with a deadline.
std::string slurm(const std::vector<std::string> &argv);

// Of these Slurm job ids, the ones squeue still shows PENDING or RUNNING (or
// in any other not-finished state).
std::vector<std::string> unfinished(const std::vector<std::string> &ids);

// QEMU processes that run for a Slurm job of this cluster (their
// environment holds SLURM_JOB_ID and our SLURM_CONF).
int cluster_qemus();

// Kills node `name` under a running job: the job steps running on it with
// everything they started (frozen with SIGSTOP first, then SIGKILL) and its
// slurmd, as a crashed machine would lose them. Returns how many job
// processes were killed; 0 (and nothing killed) when no job runs there.
int kill_node(const std::string &name);
// Starts the node's slurmd again and waits (at most 30 s) until it is idle.
bool restart_node(const std::string &name);

}  // namespace cluster_test
