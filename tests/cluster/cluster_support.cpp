// cluster_support.cpp - see cluster_support.h.
#include "cluster_support.h"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <thread>

#include "emu_process.hpp"
#include "emu_test_support.h"

namespace cluster_test {

std::string dir() {
    const char *d = std::getenv("TIGRIS_CLUSTER_DIR");
    return d && std::getenv("SLURM_CONF") ? std::string(d) : std::string();
}

std::unique_ptr<emu::SlurmFleet> slurm_fleet(const emu::Paths &paths, std::string &error,
                                             std::chrono::milliseconds timeout) {
    emu::SlurmFleet::Config c;
    c.staging_dir = dir() + "/staging";
    c.runner = TIGRIS_CLI_PATH;
    c.poll = std::chrono::milliseconds(100);
    c.timeout = timeout;
    return emu::SlurmFleet::create(c, paths, error);
}

std::vector<tigris::host::MatrixPlan> matrix_plans() {
    namespace host = tigris::host;
    std::vector<host::MatrixPlan> out;
    for (const char *name : {"pool_chain_v5.pattern", "linebuf_s8_conv_sig_chain_v5.pattern",
                             "linebuf_s8_conv_sig_chain_v5.random"}) {
        host::MatrixPlan p;
        p.name = name;
        p.plan = emu_test::corpus(std::string(name) + ".tgrs");
        p.input = emu_test::corpus(std::string(name) + ".input.bin");
        out.push_back(std::move(p));
    }
    return out;
}

std::string slurm(const std::vector<std::string> &argv) {
    std::vector<std::string> a = argv;
    a[0] = emu::find_program(a[0]);
    if (a[0].empty()) return {};
    const std::string out = dir() + "/.test-cmd.out", err = dir() + "/.test-cmd.err";
    emu::ProcessResult p =
        emu::run_process(a, dir(), out, err, std::chrono::steady_clock::now() + std::chrono::seconds(30), nullptr, 1 << 24);
    std::remove(out.c_str());
    std::remove(err.c_str());
    return p.out;
}

std::vector<std::string> unfinished(const std::vector<std::string> &ids) {
    if (ids.empty()) return {};
    std::string list;
    for (const std::string &i : ids) list += (list.empty() ? "" : ",") + i;
    std::istringstream in(slurm({"squeue", "-h", "--states=all", "-j", list, "-o", "%i %T"}));
    std::vector<std::string> out;
    for (std::string id, st; in >> id >> st;)
        if (st == "PENDING" || st == "RUNNING" || st == "CONFIGURING" || st == "COMPLETING" || st == "SUSPENDED" ||
            st == "REQUEUED")
            out.push_back(id + " " + st);
    return out;
}

namespace {

std::string read_all(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::string comm_of(const std::string &pid) {
    std::string s = read_all("/proc/" + pid + "/comm");
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
}

long ppid_of(const std::string &pid) {
    const std::string stat = read_all("/proc/" + pid + "/stat");
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) return -1;
    std::istringstream rest(stat.substr(close + 2));
    char state;
    long ppid = -1;
    rest >> state >> ppid;
    return ppid;
}

// NUL-separated environment: the value of KEY, or empty.
std::string env_of(const std::string &pid, const std::string &key) {
    const std::string env = read_all("/proc/" + pid + "/environ");
    size_t at = 0;
    while (at < env.size()) {
        const size_t end = env.find('\0', at);
        const std::string kv = env.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (kv.rfind(key + "=", 0) == 0) return kv.substr(key.size() + 1);
        if (end == std::string::npos) break;
        at = end + 1;
    }
    return {};
}

std::vector<std::string> pids() {
    std::vector<std::string> out;
    DIR *d = opendir("/proc");
    if (!d) return out;
    while (dirent *e = readdir(d))
        if (e->d_name[0] >= '0' && e->d_name[0] <= '9') out.push_back(e->d_name);
    closedir(d);
    return out;
}

}  // namespace

int cluster_qemus() {
    const std::string conf = std::getenv("SLURM_CONF") ? std::getenv("SLURM_CONF") : "";
    int n = 0;
    for (const std::string &p : pids())
        if (comm_of(p).rfind("qemu-system", 0) == 0 && !env_of(p, "SLURM_JOB_ID").empty() &&
            env_of(p, "SLURM_CONF") == conf)
            n++;
    return n;
}

int kill_node(const std::string &name) {
    // The job steps of jobs running on this node, and every process below
    // them; slurmstepd's command line names its step: "slurmstepd: [12.batch]".
    const std::string conf = std::getenv("SLURM_CONF") ? std::getenv("SLURM_CONF") : "";
    std::vector<std::string> jobs;
    {
        std::istringstream in(slurm({"squeue", "-h", "-w", name, "-t", "RUNNING", "-o", "%i"}));
        for (std::string id; in >> id;) jobs.push_back("[" + id + ".");
    }
    if (jobs.empty()) return 0;
    std::map<long, long> parent;
    std::vector<long> roots;
    for (const std::string &p : pids()) {
        const long pid = std::atol(p.c_str());
        parent[pid] = ppid_of(p);
        const std::string cmd = read_all("/proc/" + p + "/cmdline");
        bool step = false;
        if (comm_of(p) == "slurmstepd")
            for (const std::string &j : jobs) step = step || cmd.find(j) != std::string::npos;
        // The batch script (our emu-job) carries the node's name.
        if (step || (env_of(p, "SLURMD_NODENAME") == name && env_of(p, "SLURM_CONF") == conf)) roots.push_back(pid);
    }
    std::vector<long> victims = roots;
    for (size_t i = 0; i < victims.size(); i++)  // bounded: each pid is added once
        for (const auto &[pid, pp] : parent)
            if (pp == victims[i] && std::find(victims.begin(), victims.end(), pid) == victims.end())
                victims.push_back(pid);
    // Freeze first, so no job of the node can finish (and report) while
    // the node dies; nothing frozen: the job ended meanwhile, try again later.
    int frozen = 0;
    for (long v : victims)
        if (kill(static_cast<pid_t>(v), SIGSTOP) == 0) frozen++;
    if (frozen == 0) return 0;
    const long slurmd = std::atol(read_all(dir() + "/slurmd." + name + ".pid").c_str());
    if (slurmd > 0) kill(static_cast<pid_t>(slurmd), SIGKILL);
    int n = 0;
    for (long v : victims)
        if (kill(static_cast<pid_t>(v), SIGKILL) == 0) n++;
    return n;
}

bool restart_node(const std::string &name) {
    const std::string slurmd = emu::find_program("slurmd").empty() ? "/usr/sbin/slurmd" : emu::find_program("slurmd");
    const std::string out = dir() + "/.restart.out", err = dir() + "/.restart.err";
    emu::run_process({slurmd, "-f", std::getenv("SLURM_CONF"), "-N", name}, dir(), out, err,
                     std::chrono::steady_clock::now() + std::chrono::seconds(30), nullptr, 1 << 20);
    for (int i = 0; i < 300; i++) {
        std::string s = slurm({"sinfo", "-h", "-n", name, "-o", "%t"});
        if (s.rfind("idle", 0) == 0) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

}  // namespace cluster_test
