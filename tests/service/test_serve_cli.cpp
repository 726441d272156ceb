// `tigris serve` as a process: it reports the port it bound and on SIGTERM
// drains and exits 0 (the RPCs themselves are tested in tests/server).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <thread>

#include "cli_process.h"

extern char **environ;

namespace {

TEST(ServeCli, StartsReportsItsPortAndStopsOnSigterm) {
    const auto err = tigris_test::cli_scratch() / "serve.stderr";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    std::vector<std::string> args = {TIGRIS_CLI_PATH, "serve", "--grpc", "127.0.0.1:0"};
    std::vector<char *> argv;
    for (auto &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, TIGRIS_CLI_PATH, &fa, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&fa);

    // The banner names the bound port.
    std::smatch m;
    std::string text;
    const std::regex banner("gRPC tigris\\.v1\\.Tigris on 127\\.0\\.0\\.1:([0-9]+)");
    for (int i = 0; i < 500 && !std::regex_search(text, m, banner); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        text = tigris_test::slurp(err);
    }
    ASSERT_TRUE(std::regex_search(text, m, banner)) << text;
    EXPECT_GT(std::stoi(m[1].str()), 0);

    ASSERT_EQ(kill(pid, SIGTERM), 0);
    int status = 0;
    for (int i = 0; i < 1000; ++i) {
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE(WIFEXITED(status)) << "serve did not exit after SIGTERM";
    EXPECT_EQ(WEXITSTATUS(status), 0);
    text = tigris_test::slurp(err);
    EXPECT_NE(text.find("SIGTERM, draining"), std::string::npos) << text;
    EXPECT_NE(text.find("stopped"), std::string::npos) << text;
}

TEST(ServeCli, BadAddressesAreUsageErrors) {
    EXPECT_EQ(tigris_test::run_cli({"serve", "--grpc", "256.1.1.1:99999"}).code, 1);
    EXPECT_EQ(tigris_test::run_cli({"serve", "--grpc", "127.0.0.1:0", "--web", "/nonexistent/dir"}).code, 1);
}

}  // namespace
