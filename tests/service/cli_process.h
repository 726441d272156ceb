// cli_process.h - run the `tigris` binary as a subprocess (no shell, so the
// arguments reach it exactly as given) and collect exit code and output.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tigris_test {

struct CliResult {
    int code = -1;  // exit status, or 128 + signal
    std::string out, err;
};

// A private scratch directory for this test process (ctest runs test
// processes in parallel); removed at exit.
std::filesystem::path cli_scratch();

CliResult run_cli(std::vector<std::string> args);

std::string slurp(const std::filesystem::path &p);

}  // namespace tigris_test
