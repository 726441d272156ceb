// grpc_load_server.cpp - see grpc_load_server.hpp.
#include "grpc_load_server.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace tigris_load {
namespace {

size_t count_dir(const std::string &path) {
    size_t n = 0;
    if (DIR *d = opendir(path.c_str())) {
        while (dirent *e = readdir(d))
            if (e->d_name[0] != '.') ++n;
        closedir(d);
    }
    return n;
}

std::string slurp(const std::string &path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

}  // namespace

Usage usage_of(pid_t pid) {
    const std::string proc = "/proc/" + std::to_string(pid);
    Usage u;
    u.threads = count_dir(proc + "/task");
    u.fds = count_dir(proc + "/fd");
    std::ifstream f(proc + "/statm");
    size_t pages = 0, resident = 0;
    f >> pages >> resident;
    u.rss_kib = resident * (size_t)sysconf(_SC_PAGESIZE) / 1024;
    return u;
}

double cpu_seconds_of(pid_t pid) {
    // Fields 14 and 15 of /proc/PID/stat (utime, stime), counted after the
    // command name, which ends at the last ')'.
    const std::string s = slurp("/proc/" + std::to_string(pid) + "/stat");
    const auto close = s.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream in(s.substr(close + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && in >> field; ++i) {
        if (i == 14) utime = std::stoull(field);
        if (i == 15) stime = std::stoull(field);
    }
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

double own_cpu_seconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    auto sec = [](const timeval &t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; };
    return sec(ru.ru_utime) + sec(ru.ru_stime);
}

ServeProcess::ServeProcess(const std::string &cli, const std::vector<std::string> &extra) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "tigris_grpc_load_XXXXXX").string();
    const int fd = mkstemp(tmpl.data());
    if (fd < 0) throw std::runtime_error("cannot create a log file: " + std::string(std::strerror(errno)));
    log_path_ = tmpl;
    std::vector<std::string> args = {cli, "serve", "--grpc", "127.0.0.1:0"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char *> argv;
    for (auto &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        const int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, 0);
        execve(argv[0], argv.data(), environ);
        _exit(127);
    }
    close(fd);
    // The banner: "tigris serve: gRPC tigris.v1.Tigris on 127.0.0.1:PORT ...".
    for (int i = 0; i < 1000 && port_ == 0; ++i) {
        const std::string l = log();
        const auto at = l.find("on 127.0.0.1:");
        if (at != std::string::npos) port_ = std::atoi(l.c_str() + at + 13);
        int status = 0;
        if (port_ == 0 && waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            throw std::runtime_error("tigris serve exited at start: " + l);
        }
        if (port_ == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (port_ == 0) throw std::runtime_error("no banner from tigris serve within 10 s: " + log());
}

ServeProcess::~ServeProcess() {
    if (pid_ > 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    if (!log_path_.empty()) std::filesystem::remove(log_path_);
}

int ServeProcess::stop() {
    if (pid_ <= 0) return -1;
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string ServeProcess::log() const { return slurp(log_path_); }

}  // namespace tigris_load
