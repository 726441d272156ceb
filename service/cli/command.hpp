// command.hpp - how a subcommand joins the `tigris` CLI. Each cmd_*.cpp file
// defines one static Registration; main() adds them to the app in name order.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tigris::cli {

// Exit codes shared by every subcommand.
enum ExitCode : int {
    kExitOk = 0,
    kExitUsage = 1,    // bad arguments, unreadable file, I/O failure
    kExitRefused = 2,  // the core refused the plan (or the run) with an error code
};

// Sets up the subcommand's options on `sub` and returns the function to run
// once parsing has succeeded; it returns the process exit code.
using Setup = std::function<std::function<int()>(CLI::App &sub)>;

struct Command {
    std::string name;
    std::string description;
    Setup setup;
};

std::vector<Command> &registry();

struct Registration {
    Registration(std::string name, std::string description, Setup setup) {
        registry().push_back(Command{std::move(name), std::move(description), std::move(setup)});
    }
};

}  // namespace tigris::cli
