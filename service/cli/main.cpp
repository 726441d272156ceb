// main.cpp - the `tigris` command line: parses, then runs the one subcommand
// given. Subcommands live in cmd_*.cpp and register themselves.
#include <algorithm>
#include <iostream>

#include "command.hpp"
#include "tigris.h"

namespace tigris::cli {

std::vector<Command> &registry() {
    static std::vector<Command> commands;  // function-local: safe from static init order
    return commands;
}

}  // namespace tigris::cli

int main(int argc, char **argv) {
    using namespace tigris::cli;
    CLI::App app{"TiGrIS: inspect, run and trace .tgrs inference plans"};
    app.set_version_flag("--version", std::to_string(TIGRIS_RUNTIME_VERSION_MAJOR) + "." +
                                          std::to_string(TIGRIS_RUNTIME_VERSION_MINOR) + "." +
                                          std::to_string(TIGRIS_RUNTIME_VERSION_PATCH));
    app.require_subcommand(1);

    std::vector<Command> commands = registry();
    std::sort(commands.begin(), commands.end(), [](const Command &a, const Command &b) { return a.name < b.name; });
    std::function<int()> chosen;
    for (const Command &c : commands) {
        CLI::App *sub = app.add_subcommand(c.name, c.description);
        std::function<int()> run = c.setup(*sub);
        sub->final_callback([&chosen, run] { chosen = run; });
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        app.exit(e);  // prints the message and a hint to stderr
        return kExitUsage;
    }
    if (!chosen) return kExitUsage;
    try {
        return chosen();
    } catch (const std::exception &e) {
        std::cerr << "error: " << e.what() << '\n';
        return kExitUsage;
    }
}
