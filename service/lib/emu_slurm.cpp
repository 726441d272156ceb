// emu_slurm.cpp - emulated-device jobs as Slurm jobs (docs/cluster.md).
//
// submit() stages the job (emu_stage.cpp) and hands it to one watcher
// thread, which does all the talking to Slurm with its own commands: sbatch
// (one batch job per emulated-device job, running `tigris emu-job DIR
// --attempt N` on a node), squeue for the states of the jobs in flight,
// scontrol show job for one that has left squeue's view, scancel for the
// cancelled ones. Each command runs as a child process with a deadline, so a
// hung controller cannot hang us.
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "emu_process.hpp"
#include "tigris_host/emu.hpp"

namespace tigris::host::emu {
namespace fs = std::filesystem;

namespace {

constexpr auto kCommandTimeout = std::chrono::seconds(30);
// How long past our own timeout a RUNNING job may go before we scancel it
// (the runner kills QEMU at the timeout; this covers a stuck node).
constexpr auto kRunningGrace = std::chrono::seconds(120);
// A COMPLETED job's result may take a moment to show on a shared file system.
constexpr auto kResultGrace = std::chrono::seconds(10);
// After a scancel, how long we wait for Slurm to report the job's end.
constexpr auto kCancelGrace = std::chrono::seconds(30);

struct Command {
    bool ok = false;  // ran and exited with status 0
    std::string out, error;
};

Command run_command(const std::vector<std::string> &argv, const std::string &cwd) {
    Command c;
    const std::string out = cwd + "/.slurm-cmd.out", err = cwd + "/.slurm-cmd.err";
    ProcessResult p = run_process(argv, cwd, out, err, std::chrono::steady_clock::now() + kCommandTimeout, nullptr,
                                  16u << 20);
    c.out = p.out;
    std::ifstream e(err, std::ios::binary);
    std::string etext((std::istreambuf_iterator<char>(e)), std::istreambuf_iterator<char>());
    while (!etext.empty() && (etext.back() == '\n' || etext.back() == '\r')) etext.pop_back();
    std::error_code ec;
    fs::remove(out, ec);
    fs::remove(err, ec);
    if (!p.started) c.error = p.error;
    else if (p.timed_out) c.error = argv[0] + " did not answer within 30 s";
    else if (p.exit_code != 0)
        c.error = argv[0] + " exited with status " + std::to_string(p.exit_code) + (etext.empty() ? "" : ": " + etext);
    else c.ok = true;
    return c;
}

bool terminal(const std::string &s) {
    static const char *const kEnd[] = {"COMPLETED", "FAILED",    "TIMEOUT",     "NODE_FAIL", "CANCELLED", "OUT_OF_MEMORY",
                                       "BOOT_FAIL", "DEADLINE",  "PREEMPTED",   "SPECIAL_EXIT", "REVOKED"};
    for (const char *e : kEnd)
        if (s == e) return true;
    return false;
}

std::string slurp(const fs::path &p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// "KEY=value" out of `scontrol show job -o` (one line, space separated).
std::string field(const std::string &line, const std::string &key) {
    const std::string k = " " + key + "=";
    std::string l = " " + line;
    const auto at = l.find(k);
    if (at == std::string::npos) return {};
    const auto from = at + k.size();
    const auto to = l.find_first_of(" \n", from);
    return l.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

std::string self_exe() {
    std::error_code ec;
    const fs::path p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : p.string();
}


}  // namespace

struct SlurmFleet::Tracked {
    Ticket ticket;
    std::string dir;           // this job's staging directory
    unsigned attempt = 0;      // 1, 2, ... once submitted
    std::string id;            // Slurm job id of the current attempt
    std::string state, node;   // last seen
    bool scancelled = false;
    bool overdue = false;      // scancelled by us for running past our bound
    std::chrono::milliseconds bound{0};  // the timeouts of every job of its Slurm job
    std::chrono::steady_clock::time_point running_since{}, cancel_sent{}, completed_at{};
    bool finished = false;
    std::vector<std::string> lost;  // "job 12 on n2" for each NODE_FAIL
};

std::unique_ptr<SlurmFleet> SlurmFleet::create(Config config, Paths paths, std::string &error) {
    if (config.staging_dir.empty()) {
        error = "the Slurm fleet needs a staging directory that every node shares (--staging-dir)";
        return nullptr;
    }
    std::error_code ec;
    const fs::path staging = fs::absolute(config.staging_dir, ec);
    if (ec || !fs::is_directory(staging)) {
        error = "the staging directory " + config.staging_dir + " does not exist";
        return nullptr;
    }
    if (config.runner.empty()) config.runner = self_exe();
    if (config.runner.empty() || !fs::exists(config.runner)) {
        error = "the job runner " + config.runner + " does not exist";
        return nullptr;
    }
    for (const std::string &p : {staging.string(), config.runner})
        if (p.find('\'') != std::string::npos || p.find('\n') != std::string::npos) {
            error = "a path with a quote or a newline cannot go into a batch script: " + p;
            return nullptr;
        }
    // One directory per fleet, so two services can share a staging directory.
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    std::random_device rd;
    const fs::path mine = staging / ("tigris-" + std::string(host) + "-" + std::to_string(getpid()) + "-" +
                                     std::to_string(rd() % 1000000));
    fs::create_directories(mine, ec);
    if (ec) {
        error = "cannot create " + mine.string() + ": " + ec.message();
        return nullptr;
    }
    config.staging_dir = mine.string();
    if (config.poll.count() < 10) config.poll = std::chrono::milliseconds(10);
    std::unique_ptr<SlurmFleet> f(new SlurmFleet(std::move(config), std::move(paths)));
    f->sbatch_ = find_program("sbatch");
    f->squeue_ = find_program("squeue");
    f->scontrol_ = find_program("scontrol");
    f->scancel_ = find_program("scancel");
    if (f->sbatch_.empty() || f->squeue_.empty() || f->scontrol_.empty() || f->scancel_.empty()) {
        error = "Slurm's commands (sbatch, squeue, scontrol, scancel) are not installed (Debian: slurm-client)";
        fs::remove_all(mine, ec);
        return nullptr;
    }
    f->watcher_ = std::thread([p = f.get()] { p->watch(); });
    return f;
}

SlurmFleet::SlurmFleet(Config config, Paths paths) : config_(std::move(config)), paths_(std::move(paths)) {}

SlurmFleet::~SlurmFleet() {
    {
        std::lock_guard<std::mutex> lk(m_);
        stopping_ = true;
        for (auto &t : jobs_) t->ticket->cancel = true;
    }
    cv_.notify_all();
    if (watcher_.joinable()) watcher_.join();
    std::error_code ec;
    fs::remove_all(config_.staging_dir, ec);
}

Executor::Ticket SlurmFleet::submit(JobSpec spec, EventFn on_event) {
    auto t = std::make_shared<Job>();
    t->spec = std::move(spec);
    t->on_event = std::move(on_event);
    auto tr = std::make_shared<Tracked>();
    tr->ticket = t;
    std::string busy;
    bool stopping = false;
    {
        std::lock_guard<std::mutex> lk(m_);
        stopping = stopping_;
        if (stopping_) busy = "cancelled: the fleet is shutting down";
        else if (jobs_.size() >= config_.max_jobs)
            busy = "the Slurm fleet has " + std::to_string(config_.max_jobs) + " jobs in flight; try again later";
        else {
            tr->dir = config_.staging_dir + "/job-" + std::to_string(++seq_);
            jobs_.push_back(tr);
        }
    }
    if (!busy.empty()) {
        t->finish(job_failed(stopping ? JobResult::Status::Cancelled : JobResult::Status::Busy, busy));
        return t;
    }
    // Batching: the next poll takes what arrived meanwhile, together.
    if (config_.jobs_per_slurm_job <= 1) cv_.notify_all();
    return t;
}

void SlurmFleet::cancel(const Ticket &t) {
    if (!t) return;
    t->cancel = true;  // the watcher scancels it (or drops it before sbatch)
    cv_.notify_all();
}

std::vector<std::string> SlurmFleet::job_ids() const {
    std::lock_guard<std::mutex> lk(m_);
    return all_ids_;
}

size_t SlurmFleet::in_flight() const {
    std::lock_guard<std::mutex> lk(m_);
    return jobs_.size();
}

bool SlurmFleet::sbatch(const std::vector<Tracked *> &group, std::string &error) {
    Tracked &first = *group.front();
    const JobSpec &spec = first.ticket->spec;
    std::chrono::milliseconds total{0};
    for (Tracked *t : group) {
        const JobSpec &sp = t->ticket->spec;
        const auto timeout = sp.timeout.count() > 0 ? sp.timeout : config_.timeout;
        total += timeout;
        if (t->attempt == 0 && !stage_job(sp, paths_, timeout, t->dir, error)) return false;
    }
    for (Tracked *t : group) t->attempt++;
    const std::string script = first.dir + "/job-" + std::to_string(first.attempt) + ".sh";
    {
        // One emulated-device job a line, one after the other.
        std::ofstream s(script);
        s << "#!/bin/sh\n# emulated-device jobs (tigris emu-job; docs/cluster.md)\n";
        for (Tracked *t : group)
            s << (group.size() == 1 ? "exec '" : "'") << config_.runner << "' emu-job '" << t->dir << "' --attempt "
              << t->attempt << "\n";
        if (!s) {
            error = "cannot write " + script;
            return false;
        }
    }
    unsigned minutes = config_.time_limit_min;
    if (minutes == 0) minutes = static_cast<unsigned>((total.count() + 59999) / 60000) + 1;
    std::vector<std::string> argv = {sbatch_, "--parsable", "--job-name=tigris-emu-" + spec.target + "-" +
                                                               backend_name(spec.backend),
                                     "--time=" + std::to_string(minutes), "--ntasks=1", "--cpus-per-task=1",
                                     "--no-requeue", "--chdir=" + first.dir,
                                     "--output=" + first.dir + "/slurm-" + std::to_string(first.attempt) + ".out"};
    if (!config_.partition.empty()) argv.push_back("--partition=" + config_.partition);
    if (!config_.account.empty()) argv.push_back("--account=" + config_.account);
    argv.push_back(script);
    Command c = run_command(argv, config_.staging_dir);
    if (!c.ok) {
        error = "sbatch refused the job: " + c.error;
        return false;
    }
    // --parsable: "ID" or "ID;CLUSTER".
    std::string id = c.out.substr(0, c.out.find_first_of(";\n"));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
        error = "sbatch printed no job id: " + c.out;
        return false;
    }
    {
        std::lock_guard<std::mutex> lk(m_);
        all_ids_.push_back(id);
    }
    for (Tracked *t : group) {
        t->id = id;
        t->state = "PENDING";
        t->node.clear();
        t->scancelled = false;
        t->overdue = false;
        t->completed_at = {};
        t->running_since = {};
        t->bound = total;
        t->ticket->event(Event::State, "PENDING (Slurm job " + id + ")");
    }
    return true;
}

void SlurmFleet::watch() {
    std::optional<std::chrono::steady_clock::time_point> stop_deadline;
    for (;;) {
        std::vector<std::shared_ptr<Tracked>> jobs;
        {
            std::unique_lock<std::mutex> lk(m_);
            cv_.wait_for(lk, config_.poll);
            if (stopping_ && !stop_deadline) stop_deadline = std::chrono::steady_clock::now() + kCancelGrace;
            jobs = jobs_;
            if (stopping_ && jobs.empty()) return;
        }
        const auto now = std::chrono::steady_clock::now();
        auto done = [&](Tracked &t, JobResult r) {
            t.finished = true;
            t.ticket->finish(std::move(r));
            std::error_code ec;
            fs::remove_all(t.dir, ec);
        };

        // 1. New jobs go to sbatch, up to jobs_per_slurm_job in one Slurm
        // job; cancelled ones before that are dropped.
        std::vector<Tracked *> fresh;
        for (auto &t : jobs) {
            if (!t->id.empty() || t->finished) continue;
            if (t->ticket->cancel) {
                done(*t, job_failed(JobResult::Status::Cancelled, "cancelled before it was submitted to Slurm"));
                continue;
            }
            fresh.push_back(t.get());
        }
        const size_t per = config_.jobs_per_slurm_job ? config_.jobs_per_slurm_job : 1;
        for (size_t i = 0; i < fresh.size(); i += per) {
            std::vector<Tracked *> group(fresh.begin() + static_cast<std::ptrdiff_t>(i),
                                         fresh.begin() + static_cast<std::ptrdiff_t>(std::min(fresh.size(), i + per)));
            std::string err;
            if (!sbatch(group, err))
                for (Tracked *t : group) done(*t, job_failed(JobResult::Status::Failed, err));
        }

        // 2. scancel what was cancelled (or outlived our bound), all at once;
        // a Slurm job holding several jobs ends for all of them.
        std::set<std::string> cancel_ids;
        for (auto &t : jobs) {
            if (t->finished || t->id.empty() || t->scancelled || terminal(t->state)) continue;
            const bool overdue = t->running_since != std::chrono::steady_clock::time_point{} &&
                                 now - t->running_since > t->bound + kRunningGrace;
            if (overdue && !t->ticket->cancel) t->overdue = true;
            if (t->ticket->cancel || overdue) cancel_ids.insert(t->id);
        }
        if (!cancel_ids.empty()) {
            std::vector<std::string> argv = {scancel_};
            argv.insert(argv.end(), cancel_ids.begin(), cancel_ids.end());
            for (auto &t : jobs)
                if (!t->finished && cancel_ids.count(t->id)) {
                    t->scancelled = true;
                    t->cancel_sent = now;
                }
            run_command(argv, config_.staging_dir);
        }

        // 3. States of the jobs in flight.
        std::vector<std::shared_ptr<Tracked>> live;
        std::string ids;
        std::set<std::string> live_ids;
        for (auto &t : jobs)
            if (!t->finished && !t->id.empty()) {
                live.push_back(t);
                if (live_ids.insert(t->id).second) ids += (ids.empty() ? "" : ",") + t->id;
            }
        std::map<std::string, std::pair<std::string, std::string>> seen;  // id -> state, node
        if (!live.empty()) {
            Command q = run_command({squeue_, "-h", "--states=all", "-j", ids, "-o", "%i|%T|%N"}, config_.staging_dir);
            if (q.ok) {
                std::istringstream in(q.out);
                std::string line;
                while (std::getline(in, line)) {
                    const auto a = line.find('|'), b = line.find('|', a == std::string::npos ? a : a + 1);
                    if (a == std::string::npos || b == std::string::npos) continue;
                    seen[line.substr(0, a)] = {line.substr(a + 1, b - a - 1), line.substr(b + 1)};
                }
            }
            for (auto &t : live) {
                if (seen.count(t->id)) continue;
                Command s = run_command({scontrol_, "show", "job", "-o", t->id}, config_.staging_dir);
                if (s.ok && !field(s.out, "JobState").empty())
                    seen[t->id] = {field(s.out, "JobState"), field(s.out, "NodeList")};
            }
        }

        // 4. Follow each job's state.
        for (auto &t : live) {
            auto it = seen.find(t->id);
            if (it == seen.end()) {
                // Neither squeue nor scontrol knows it (purged, or the
                // controller is away): a result on disk still counts.
                if (!fs::exists(t->dir + "/result-" + std::to_string(t->attempt) + ".json")) continue;
                it = seen.emplace(t->id, std::make_pair(std::string("COMPLETED"), t->node)).first;
            }
            const std::string state = it->second.first;
            const std::string node = it->second.second == "(null)" ? std::string() : it->second.second;
            if (!node.empty()) t->node = node;
            if (state != t->state) {
                t->state = state;
                if (state == "RUNNING") {
                    t->running_since = now;
                    t->ticket->event(Event::Started, "RUNNING on " + t->node + " (Slurm job " + t->id + ")");
                } else {
                    t->ticket->event(Event::State, state + (t->node.empty() ? "" : " on " + t->node) + " (Slurm job " +
                                                       t->id + ")");
                }
            }
            const std::string where = "Slurm job " + t->id + (t->node.empty() ? "" : " on " + t->node);
            if (!terminal(state)) {
                if (t->scancelled && now - t->cancel_sent > kCancelGrace)
                    done(*t, job_failed(JobResult::Status::Cancelled,
                                         "cancelled; " + where + " did not end within 30 s of scancel"));
                continue;
            }
            if (state == "NODE_FAIL" && !t->ticket->cancel && t->attempt < config_.max_attempts) {
                t->lost.push_back(where);
                const std::string old = t->id;
                std::string err;
                if (!sbatch({t.get()}, err)) {
                    done(*t, job_failed(JobResult::Status::Failed, "lost to a node failure (" + where +
                                                                        "); resubmitting failed: " + err));
                } else {
                    t->ticket->event(Event::State, "NODE_FAIL (" + where + "); resubmitted as Slurm job " + t->id);
                }
                continue;
            }
            const fs::path result = t->dir + "/result-" + std::to_string(t->attempt) + ".json";
            JobResult r;
            std::string err;
            const bool have = fs::exists(result) && result_from_json(slurp(result), r, err);
            if (t->ticket->cancel) {
                done(*t, job_failed(JobResult::Status::Cancelled, "cancelled; " + where + " was scancelled"));
            } else if (t->overdue) {
                done(*t, job_failed(JobResult::Status::Timeout, where + " ran past its timeout; scancelled"));
            } else if (state == "CANCELLED" && t->scancelled) {
                done(*t, job_failed(JobResult::Status::Cancelled,
                                     "cancelled with another job of " + where + " (jobs_per_slurm_job)"));
            } else if (state == "TIMEOUT") {
                done(*t, job_failed(JobResult::Status::Timeout, where + " reached Slurm's time limit"));
            } else if (state == "NODE_FAIL") {
                std::string all;
                for (const std::string &l : t->lost) all += l + ", ";
                done(*t, job_failed(JobResult::Status::Failed,
                                     "NODE_FAIL: lost to a node failure on every attempt (" + all + where + ")"));
            } else if (have) {
                done(*t, std::move(r));
            } else if (state == "COMPLETED" || state == "FAILED") {
                if (t->completed_at == std::chrono::steady_clock::time_point{}) t->completed_at = now;
                if (now - t->completed_at < kResultGrace) continue;  // the file may still be on its way
                std::string log = slurp(t->dir + "/slurm-" + std::to_string(t->attempt) + ".out");
                if (log.size() > 600) log = log.substr(log.size() - 600);
                done(*t, job_failed(JobResult::Status::Failed, where + " ended " + state + " without a result" +
                                                                    (err.empty() ? "" : " (" + err + ")") +
                                                                    (log.empty() ? "" : ": " + log)));
            } else {
                done(*t, job_failed(JobResult::Status::Failed, where + " ended " + state));
            }
        }

        // Shutting down: whatever Slurm has not ended in time is reported cancelled.
        if (stop_deadline && std::chrono::steady_clock::now() > *stop_deadline)
            for (auto &t : jobs)
                if (!t->finished) done(*t, job_failed(JobResult::Status::Cancelled, "cancelled: the fleet is shutting down"));

        std::lock_guard<std::mutex> lk(m_);
        jobs_.erase(std::remove_if(jobs_.begin(), jobs_.end(), [](const auto &t) { return t->finished; }), jobs_.end());
    }
}

std::unique_ptr<Executor> make_executor(const FleetConfig &c, std::string &error) {
    if (c.kind == "local") return std::make_unique<Fleet>(c.limits, c.paths);
    if (c.kind == "slurm") {
        SlurmFleet::Config sc = c.slurm;
        sc.timeout = c.limits.timeout;
        return SlurmFleet::create(std::move(sc), c.paths, error);
    }
    error = "unknown fleet '" + c.kind + "' (local|slurm)";
    return nullptr;
}

}  // namespace tigris::host::emu
