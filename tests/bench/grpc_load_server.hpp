// grpc_load_server.hpp - `tigris serve` as a child process for the load test,
// and what /proc says about a process (threads, open files, memory, CPU time).
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace tigris_load {

struct Usage {
    size_t threads = 0, fds = 0, rss_kib = 0;
};
Usage usage_of(pid_t pid);
// User + system CPU seconds the process has used so far (all its threads).
double cpu_seconds_of(pid_t pid);
// This process's user + system CPU seconds (getrusage).
double own_cpu_seconds();

// `<cli> serve --grpc 127.0.0.1:0 <extra...>` with stdout and stderr going to
// a log file; the constructor waits for the banner and reads the port from it.
class ServeProcess {
public:
    ServeProcess(const std::string &cli, const std::vector<std::string> &extra);
    ~ServeProcess();  // SIGKILL if still running
    pid_t pid() const { return pid_; }
    int port() const { return port_; }
    // SIGTERM, then waits; the exit status (-1 when it did not exit normally).
    int stop();
    // The log so far (one line per finished request, docs/service.md).
    std::string log() const;

private:
    pid_t pid_ = -1;
    int port_ = 0;
    std::string log_path_;
};

}  // namespace tigris_load
