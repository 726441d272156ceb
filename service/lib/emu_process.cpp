// emu_process.cpp - spawn, watch, kill and reap one QEMU process.
#include "emu_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tigris::host::emu {

std::string find_program(const std::string &name) {
    if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : std::string();
    const char *path = std::getenv("PATH");
    std::string p = path ? path : "/usr/bin:/bin";
    size_t start = 0;
    while (start <= p.size()) {
        size_t end = p.find(':', start);
        if (end == std::string::npos) end = p.size();
        std::string full = end > start ? p.substr(start, end - start) : std::string(1, '.');
        full += '/';
        full += name;
        struct stat st;
        if (stat(full.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(full.c_str(), X_OK) == 0) return full;
        start = end + 1;
    }
    return {};
}

namespace {

// What a child reports on the exec pipe when it cannot start.
enum { kInCwd = 1, kOpenFiles, kExec };

void kill_group(pid_t pid) {
    kill(-pid, SIGKILL);  // the group: QEMU and anything it started
    kill(pid, SIGKILL);   // in case setpgid had not happened yet
}

}  // namespace

ProcessResult run_process(const std::vector<std::string> &argv, const std::string &cwd, const std::string &stdout_path,
                          const std::string &stderr_path, std::chrono::steady_clock::time_point deadline,
                          const std::atomic<bool> *cancel, size_t max_output,
                          const std::function<void()> &on_started) {
    ProcessResult r;
    // Everything the child needs is prepared before fork: between fork and
    // exec only async-signal-safe calls are allowed (other threads may hold
    // the allocator's locks).
    std::vector<char *> cargv;
    for (const std::string &a : argv) cargv.push_back(const_cast<char *>(a.c_str()));
    cargv.push_back(nullptr);
    // The child reports a failure before or at exec (the stage, the errno)
    // on this pipe; a successful exec closes it (O_CLOEXEC) with nothing written. So
    // once the read returns, the program is running or has failed to start.
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) {
        r.error = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        r.error = std::string("fork: ") + std::strerror(errno);
        close(report[0]);
        close(report[1]);
        return r;
    }
    if (pid == 0) {
        auto fail = [&](int stage) {
            const int what[2] = {stage, errno};
            (void)!write(report[1], what, sizeof what);
            _exit(126);
        };
        close(report[0]);
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(125);  // the parent is already gone
        if (chdir(cwd.c_str()) != 0) fail(kInCwd);
        int in = open("/dev/null", O_RDONLY);
        int out = open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in < 0 || out < 0 || err < 0) fail(kOpenFiles);
        dup2(in, 0);
        dup2(out, 1);
        dup2(err, 2);
        execv(cargv[0], cargv.data());
        fail(kExec);
    }
    setpgid(pid, pid);  // also from here, so a kill right away reaches the group
    close(report[1]);
    int what[2] = {0, 0};  // the stage that failed and its errno
    ssize_t n;
    do n = read(report[0], what, sizeof what);
    while (n < 0 && errno == EINTR);
    close(report[0]);
    if (n == (ssize_t)sizeof what) {
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        const std::string why = std::strerror(what[1]);
        if (what[0] == kInCwd) r.error = "cannot enter " + cwd + ": " + why;
        else if (what[0] == kOpenFiles) r.error = "cannot open /dev/null or its output files: " + why;
        else r.error = "could not execute " + argv[0] + ": " + why;
        return r;
    }
    r.started = true;
    if (on_started) on_started();

    // Watch: exit, cancellation, deadline, runaway output. Polling starts at
    // 1 ms (most runs take well under a second) and backs off to 20 ms.
    int status = 0;
    bool killed = false;
    unsigned nap_us = 1000;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) break;
        if (!killed) {
            struct stat st;
            if (cancel && cancel->load()) r.cancelled = true;
            else if (std::chrono::steady_clock::now() >= deadline) r.timed_out = true;
            else if (stat(stdout_path.c_str(), &st) == 0 && static_cast<size_t>(st.st_size) > max_output)
                r.output_overflow = true;
            if (r.cancelled || r.timed_out || r.output_overflow) {
                kill_group(pid);
                killed = true;
                continue;  // reap right away
            }
        }
        usleep(nap_us);
        if (nap_us < 20000) nap_us += nap_us / 2;
    }
    if (WIFEXITED(status) && !killed) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
    std::ifstream f(stdout_path, std::ios::binary);
    r.out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    if (r.out.size() > max_output) r.out.resize(max_output);
    return r;
}

}  // namespace tigris::host::emu
