// emu_process.hpp - one child process with a deadline, a cancel flag and a
// cap on its output; always killed (whole process group) and reaped.
// Private to the host library (used by emu_job.cpp).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace tigris::host::emu {

struct ProcessResult {
    bool started = false;      // fork and exec succeeded
    int exit_code = -1;        // when it exited by itself
    int term_signal = 0;       // when a signal ended it
    bool timed_out = false;    // we killed it at the deadline
    bool cancelled = false;    // we killed it because `cancel` was set
    bool output_overflow = false;  // we killed it for writing too much
    std::string out;           // its stdout
    std::string error;         // why it could not start
};

// Searches PATH like execvp would; empty when not found.
std::string find_program(const std::string &name);

// Runs argv (argv[0] a full path) in `cwd`, stdin from /dev/null, stdout and
// stderr into files (a file never refuses a write; QEMU drops console output
// that a full pipe refuses), stdout read back into `out` at the end. The
// child gets its own process group and dies with this process
// (PR_SET_PDEATHSIG), so nothing outlives us. `on_started` is called once
// the program is executing (exec succeeded), before the watch begins.
ProcessResult run_process(const std::vector<std::string> &argv, const std::string &cwd, const std::string &stdout_path,
                          const std::string &stderr_path,
                          std::chrono::steady_clock::time_point deadline, const std::atomic<bool> *cancel,
                          size_t max_output, const std::function<void()> &on_started = {});

}  // namespace tigris::host::emu
