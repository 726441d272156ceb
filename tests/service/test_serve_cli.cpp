// `tigris serve` as a process: it reports the port it bound and on SIGTERM
// drains and exits 0 (the RPCs themselves are tested in tests/server).
#include <gtest/gtest.h>

#include <cstdlib>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include "cli_process.h"

extern char **environ;

namespace {

// Starts `tigris serve ARGS...`, waits for its banner (which must match
// banner, group 1 the port), stops it with SIGTERM and returns its stderr;
// the exit status goes to status.
std::string serve_until_banner(const std::vector<std::string> &serve_args, const std::regex &banner, int &status) {
    const auto err = tigris_test::cli_scratch() / "serve.stderr";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    std::vector<std::string> args = {TIGRIS_CLI_PATH, "serve"};
    args.insert(args.end(), serve_args.begin(), serve_args.end());
    std::vector<char *> argv;
    for (auto &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    status = -1;
    if (posix_spawn(&pid, TIGRIS_CLI_PATH, &fa, nullptr, argv.data(), environ) != 0) return "spawn failed";
    posix_spawn_file_actions_destroy(&fa);

    // The banner names the bound port.
    std::smatch m;
    std::string text;
    for (int i = 0; i < 500 && !std::regex_search(text, m, banner); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        text = tigris_test::slurp(err);
    }
    const bool started = std::regex_search(text, m, banner) && std::stoi(m[1].str()) > 0;
    kill(pid, SIGTERM);
    for (int i = 0; i < 1000; ++i) {
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    text = tigris_test::slurp(err);
    if (!started) status = -1;
    return text;
}

TEST(ServeCli, StartsReportsItsPortAndStopsOnSigterm) {
    int status = -1;
    const std::string text = serve_until_banner(
        {"--grpc", "127.0.0.1:0"}, std::regex("gRPC tigris\\.v1\\.Tigris on 127\\.0\\.0\\.1:([0-9]+) \\(plaintext\\)"), status);
    ASSERT_TRUE(WIFEXITED(status)) << "serve did not start, or did not exit after SIGTERM: " << text;
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_NE(text.find("SIGTERM, draining"), std::string::npos) << text;
    EXPECT_NE(text.find("stopped"), std::string::npos) << text;
}

TEST(ServeCli, BadAddressesAreUsageErrors) {
    EXPECT_EQ(tigris_test::run_cli({"serve", "--grpc", "256.1.1.1:99999"}).code, 1);
    EXPECT_EQ(tigris_test::run_cli({"serve", "--grpc", "127.0.0.1:0", "--web", "/nonexistent/dir"}).code, 1);
}

// `--http` without `--web` looks for the built viewer; with none where it
// looks (TIGRIS_WEB_DIR set: only there) it is a usage error naming the place.
TEST(ServeCli, HttpWithoutAViewerNamesWhereItLooked) {
    const auto nowhere = tigris_test::cli_scratch() / "no-viewer-here";
    ASSERT_EQ(setenv("TIGRIS_WEB_DIR", nowhere.c_str(), 1), 0);
    const auto r = tigris_test::run_cli({"serve", "--grpc", "127.0.0.1:0", "--http", "127.0.0.1:0"});
    unsetenv("TIGRIS_WEB_DIR");
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("without --web: no built viewer (index.html) found; looked in " + nowhere.string()),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("pass --web DIR"), std::string::npos) << r.err;
}

// Plaintext off loopback is refused before anything binds: usage error,
// a message naming the address and the way out.
TEST(ServeCli, PlaintextOnANonLoopbackAddressIsRefused) {
    for (const char *addr : {"0.0.0.0:0", "[::]:0"}) {
        const auto r = tigris_test::run_cli({"serve", "--grpc", addr});
        EXPECT_EQ(r.code, 1) << addr;
        EXPECT_NE(r.err.find(std::string("error: refusing plaintext gRPC on non-loopback address ") + addr),
                  std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("--tls-cert and --tls-key, or --insecure"), std::string::npos) << r.err;
    }
    // A token does not make plaintext safe: the token itself would cross the network in clear.
    const auto tokens = tigris_test::cli_scratch() / "tokens";
    std::ofstream(tokens) << "tok-one\n";
    EXPECT_EQ(tigris_test::run_cli({"serve", "--grpc", "0.0.0.0:0", "--token-file", tokens.string()}).code, 1);
    const auto r = tigris_test::run_cli({"serve", "--grpc", "0.0.0.0:0", "--insecure", "--token-file", tokens.string()});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("error: bearer tokens on a non-loopback address need TLS"), std::string::npos) << r.err;
}

TEST(ServeCli, InsecureAllowsPlaintextOnANonLoopbackAddress) {
    int status = -1;
    const std::string text = serve_until_banner(
        {"--grpc", "0.0.0.0:0", "--insecure"}, std::regex("gRPC tigris\\.v1\\.Tigris on 0\\.0\\.0\\.0:([0-9]+) \\(plaintext\\)"),
        status);
    ASSERT_TRUE(WIFEXITED(status)) << "serve did not start, or did not exit after SIGTERM: " << text;
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(ServeCli, UnreadableOrIncompleteSecurityFilesAreUsageErrors) {
    const auto dir = tigris_test::cli_scratch();
    const std::string missing = (dir / "missing.pem").string();
    const std::string junk = (dir / "junk.pem").string();
    std::ofstream(junk) << "not a certificate\n";
    const std::string empty_tokens = (dir / "empty_tokens").string();
    std::ofstream(empty_tokens) << "# nothing yet\n\n";
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"--tls-cert", missing, "--tls-key", junk}, "error: cannot read TLS certificate " + missing + ": "},
        {{"--tls-cert", junk, "--tls-key", missing}, "error: cannot read TLS key " + missing + ": "},
        {{"--tls-cert", junk, "--tls-key", junk, "--tls-client-ca", missing}, "error: cannot read client CA " + missing},
        {{"--token-file", missing}, "error: cannot read token file " + missing + ": No such file or directory"},
        {{"--token-file", empty_tokens}, "error: token file " + empty_tokens + " has no tokens"},
        {{"--tls-cert", junk}, "error: --tls-cert and --tls-key go together"},
        {{"--tls-client-ca", junk}, "error: --tls-client-ca needs --tls-cert and --tls-key"},
        {{"--tls-cert", junk, "--tls-key", junk}, "error: cannot listen on 127.0.0.1:0 with TLS"},
    };
    for (const auto &c : cases) {
        std::vector<std::string> args = {"serve", "--grpc", "127.0.0.1:0"};
        args.insert(args.end(), c.args.begin(), c.args.end());
        const auto r = tigris_test::run_cli(args);
        EXPECT_EQ(r.code, 1) << c.message;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << "want: " << c.message << "\ngot: " << r.err;
    }
}

}  // namespace
