// emu.hpp - run plans on emulated boards: the board table, one QEMU run
// (a job) and the fleet that runs jobs in a bounded pool of QEMU processes.
//
// A job places a run descriptor, the plan and the inputs into the board's
// load region with QEMU's loader device, boots the board's generic firmware
// image (emu/), and reads the harness's report and, when the count plugin is
// available, the exact instruction counts. docs/emu.md has the details.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tigris::host::emu {

// One emulated board. The load region must match emu/boards/<board>/board.ld.
struct Board {
    std::string target;  // "cortex-m4", ... : the name users pick
    std::string board;   // "mps2-an386", ...: the QEMU machine / image name
    std::string cpu;     // "Cortex-M4 (DSP)", ...: for people
    std::string qemu;    // "qemu-system-arm" or "qemu-system-xtensa"
    std::vector<std::string> machine_args;  // -M ... [-cpu ...]
    std::string preset;                     // build tree holding the image
    uint32_t load_base = 0, load_size = 0;  // descriptor, plan, inputs, scratch
    uint32_t fast_ram = 0;                  // bytes of fast RAM (arena, stack, data)
    double ns_per_tick = 0;                 // cycle timer (SysTick / CCOUNT) period in virtual ns
};

const std::vector<Board> &boards();
const Board *find_board(const std::string &target);
// "cortex-m4|cortex-m7|cortex-m55|xtensa-lx106"
std::string target_names();

// Ref: the reference kernels; Accel: the board's own accelerated kernels
// (tigris-arm, tigris-xtensa); Vendor: the vendor library's adapter
// (cmsis-nn), in images built against it (docs/emu.md).
enum class Backend { Ref, Accel, Vendor };
const char *backend_name(Backend b);

// Where the images, the plugin and QEMU come from. Defaults: the build's
// TIGRIS_FIRMWARE_DIR and plugin, overridable by the environment variables
// TIGRIS_FIRMWARE_DIR and TIGRIS_EMU_PLUGIN (an empty value turns counts off).
struct Paths {
    std::string firmware_dir;  // <dir>/<preset>/emu/tigris-emu-<board>.elf
    std::string plugin;        // tigris-icount.so; empty: no exact counts
    // Without the plugin: run QEMU with -icount shift=0 (one instruction per
    // virtual ns) and convert the board's cycle-timer ticks to instructions.
    bool timer_fallback = true;
    static Paths defaults();
    std::string image(const Board &b) const;
};

struct JobSpec {
    std::string target;
    std::vector<uint8_t> plan, input;
    Backend backend = Backend::Ref;
    uint32_t fast_size = 0, slow_size = 0;  // 0: what the plan and backend need
    uint32_t debug = 0;                     // TIGRIS_EMU_DEBUG_* (tests)
    bool op_counts = true;                  // bracket every kernel call
    std::chrono::milliseconds timeout{0};   // 0: the fleet's default
};

struct OpCount {
    uint16_t op = 0;        // op index in the plan
    uint32_t calls = 0;     // kernel calls (tiles, bands) of this op
    uint64_t instructions = 0;
};

struct JobResult {
    enum class Status {
        Ok,
        Refused,      // the harness refused (plan, memory, backend): error_kind says which
        Fault,        // the CPU faulted; fault_pc says where
        Timeout,      // killed at its timeout
        Cancelled,    // cancelled before or while running
        Failed,       // QEMU did not start or ended abnormally
        Unavailable,  // no QEMU or no image for this board
        Busy,         // the fleet's queue was full
    } status = Status::Failed;
    std::string error;       // what went wrong, for a user
    std::string error_kind;  // the harness's @error kind ("plan", "memory", "no-accel", ...)
    int error_code = 0;      // the core's code with the refusal
    int exit_code = -1;      // QEMU's exit status (the harness's), -1 when killed
    std::string kernel;      // "s8", "f32", "tigris-arm", "tigris-xtensa", "cmsis-nn"
    std::vector<uint8_t> outputs;        // model outputs concatenated
    std::vector<uint32_t> output_sizes;  // bytes of each
    uint32_t fast_required = 0, fast_size = 0, fast_peak = 0, slow_size = 0, slow_peak = 0;
    uint32_t kernel_calls = 0;
    std::optional<uint64_t> run_instructions;  // the run between its marks
    std::optional<uint64_t> total_instructions;  // the whole emulation (plugin only)
    std::string count_method;  // "plugin" (exact), "timer" (to one timer tick), "" (none)
    std::vector<OpCount> ops;                  // per op index, when every call was bracketed
    std::optional<uint32_t> fault_pc, fault_site;
    double wall_ms = 0;
    std::string report;  // the harness's console output, for diagnosis

    bool ok() const { return status == Status::Ok; }
};

// A result that is only a status and its message (a job that never ran).
inline JobResult job_failed(JobResult::Status s, std::string msg) {
    JobResult r;
    r.status = s;
    r.error = std::move(msg);
    return r;
}

const char *status_name(JobResult::Status s);

// Runs one job synchronously. `cancel` is polled while QEMU runs; the QEMU
// process is killed and reaped on timeout or cancellation, and its temporary
// directory removed in every case.
// `on_start` is called once QEMU is executing.
JobResult run_job(const JobSpec &spec, const Paths &paths, std::chrono::milliseconds default_timeout,
                  const std::atomic<bool> *cancel = nullptr, const std::function<void()> &on_start = {});

// Parsing of the harness report and the plugin's counts file (exposed for tests).
// call_ticks: the cycle-timer ticks of each logged call; run_ticks: the run's.
void parse_report(const std::string &text, JobResult &r, std::vector<uint16_t> *call_log = nullptr,
                  std::vector<uint32_t> *call_ticks = nullptr, std::optional<uint64_t> *run_ticks = nullptr);
// Instruction counts from timer ticks (-icount shift=0: one instruction per ns).
void apply_ticks(const Board &b, const std::vector<uint16_t> &log, const std::vector<uint32_t> &call_ticks,
                 std::optional<uint64_t> run_ticks, JobResult &r);
bool apply_counts(const std::string &counts_file_text, const std::vector<uint16_t> &log, JobResult &r);

// What runs jobs: the local pool (Fleet) or a Slurm cluster (SlurmFleet).
// Both never block in submit(), report events from their own threads and
// finish every job exactly once (Busy, Cancelled, Timeout, ... included).
class Executor {
public:
    // Started: the job's QEMU (local) or its Slurm job (cluster) runs;
    // State: a scheduler state change ("PENDING (job 12)", "NODE_FAIL on n2;
    // resubmitted as job 13"); Finished: the result is about to be delivered.
    enum class Event { Started, State, Finished };
    using EventFn = std::function<void(Event, const std::string &detail)>;
    struct Job {
        JobSpec spec;
        EventFn on_event;
        std::atomic<bool> cancel{false};
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        JobResult result;
        // The event comes first: once `done` is set a waiter may return and
        // its callback's captures (a gRPC stream, say) may be gone.
        void finish(JobResult r);
        void event(Event e, const std::string &detail = {}) {
            if (on_event) on_event(e, detail);
        }
    };
    using Ticket = std::shared_ptr<Job>;

    virtual ~Executor() = default;
    virtual Ticket submit(JobSpec spec, EventFn on_event = {}) = 0;
    virtual void cancel(const Ticket &t) = 0;
    virtual const Paths &paths() const = 0;
    virtual const char *kind() const = 0;  // "local", "slurm"
    static bool wait_for(const Ticket &t, std::chrono::milliseconds d);
    static JobResult wait(const Ticket &t);
    static bool is_done(const Ticket &t);
};

// A bounded pool of QEMU processes with a bounded queue.
class Fleet : public Executor {
public:
    struct Limits {
        unsigned workers = 0;  // parallel QEMU processes; 0: one per core
        size_t max_queued = 256;  // jobs waiting beyond this are refused (Busy)
        std::chrono::milliseconds timeout{60000};  // per job, unless the job sets one
    };

    Fleet(Limits limits, Paths paths);
    ~Fleet() override;  // cancels everything, kills and reaps running QEMUs, joins
    Fleet(const Fleet &) = delete;
    Fleet &operator=(const Fleet &) = delete;

    // Never blocks. `on_event` runs on a worker thread.
    Ticket submit(JobSpec spec, EventFn on_event = {}) override;
    void cancel(const Ticket &t) override;
    const char *kind() const override { return "local"; }

    unsigned workers() const { return static_cast<unsigned>(threads_.size()); }
    size_t queued() const;
    size_t running() const;
    const Paths &paths() const override { return paths_; }
    const Limits &limits() const { return limits_; }

private:
    void work();
    Limits limits_;
    Paths paths_;
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::deque<Ticket> queue_;
    std::vector<Ticket> active_;  // jobs whose QEMU is running
    size_t running_ = 0;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

// ---- Slurm (docs/cluster.md) ----

// A staged job: the directory a node's `tigris emu-job DIR` reads
// (job.json, plan.tgrs, input.bin) and writes result-<attempt>.json into.
bool stage_job(const JobSpec &spec, const Paths &paths, std::chrono::milliseconds timeout, const std::string &dir,
               std::string &error);
bool load_staged_job(const std::string &dir, JobSpec &spec, Paths &paths, std::chrono::milliseconds &timeout,
                     std::string &error);
std::string result_to_json(const JobResult &r);
bool result_from_json(const std::string &text, JobResult &r, std::string &error);

// One Slurm job (sbatch) per emulated-device job, running `RUNNER emu-job
// DIR --attempt N` on a node; states from squeue (scontrol show job once a
// job has left squeue's view); scancel on cancel; a job lost to NODE_FAIL is
// resubmitted once, then reported as such.
class SlurmFleet : public Executor {
public:
    struct Config {
        std::string staging_dir;  // shared by every node (absolute)
        std::string runner;       // the tigris binary the nodes run; empty: this one
        std::string partition, account;
        unsigned time_limit_min = 0;  // Slurm's --time; 0: our timeout rounded up, plus one minute
        std::chrono::milliseconds poll{250};
        std::chrono::milliseconds timeout{60000};  // per job (ours; the runner enforces it)
        size_t max_jobs = 4096;  // jobs in flight beyond this are refused (Busy)
        unsigned max_attempts = 2;  // a NODE_FAIL job is resubmitted until this many attempts
        // Emulated-device jobs run one after the other in one Slurm job
        // (those submitted within one poll); a resubmitted one goes alone.
        unsigned jobs_per_slurm_job = 1;
    };
    // Refuses (error set, returns null) when sbatch is missing or the
    // staging directory cannot be used.
    static std::unique_ptr<SlurmFleet> create(Config config, Paths paths, std::string &error);
    ~SlurmFleet() override;  // scancels everything still in Slurm, joins
    Ticket submit(JobSpec spec, EventFn on_event = {}) override;
    void cancel(const Ticket &t) override;
    const Paths &paths() const override { return paths_; }
    const char *kind() const override { return "slurm"; }
    const Config &config() const { return config_; }
    // Slurm job ids submitted so far (every attempt), for tests and the bench.
    std::vector<std::string> job_ids() const;
    size_t in_flight() const;

private:
    struct Tracked;
    SlurmFleet(Config config, Paths paths);
    void watch();
    bool sbatch(const std::vector<Tracked *> &group, std::string &error);
    Config config_;
    Paths paths_;
    std::string sbatch_, squeue_, scontrol_, scancel_;
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::vector<std::shared_ptr<Tracked>> jobs_;
    std::vector<std::string> all_ids_;
    uint64_t seq_ = 0;
    bool stopping_ = false;
    std::thread watcher_;
};

// Which executor `tigris validate` and `tigris serve` use.
struct FleetConfig {
    std::string kind = "local";  // "local" | "slurm"
    Fleet::Limits limits;
    Paths paths = Paths::defaults();
    SlurmFleet::Config slurm;
};
std::unique_ptr<Executor> make_executor(const FleetConfig &c, std::string &error);

}  // namespace tigris::host::emu
