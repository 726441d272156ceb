// run_workers.hpp - where runs execute, and the buffers they run in.
//
// The server admits up to Limits::max_concurrent_runs calls (more are
// refused), but only `width` runs execute at once, each in one of `width`
// slots whose RunScratch is kept from run to run; admitted calls wait their
// turn in arrival order. On a machine with fewer cores than calls in flight
// this keeps the cores on a few runs with warm caches instead of switching
// among hundreds of threads, and bounds arena memory to `width` scratches.
// The queue is bounded by the admission limit, never by this class.
//
// Two kinds of jobs. A short one (a plan known to run in a few
// milliseconds) runs on the thread that submits it, a gRPC thread, when a
// slot is free, and that thread then runs the short jobs queued behind it:
// the same thread reads, runs and answers. Handing such a run to a worker
// woke a gRPC thread on arrival and again on completion, preempting a worker
// each time, which cost as much as a fifth of a short run (docs/service.md).
// Other jobs (long, unknown, or queued behind a long one) go to `width`
// worker threads, so gRPC's threads never sit in a long run: calls beyond
// the admission limit are still refused at once, and cancellations seen.
// A worker also runs a queued short job when no gRPC thread has taken a
// free slot for a millisecond (all clients waiting), so nothing stalls.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "tigris_host/run.hpp"

namespace tigris::server {

class RunWorkers {
public:
    using Job = std::function<void(host::RunScratch &)>;

    // width: worker threads (0: the machine's hardware threads). keep_bytes:
    // a scratch buffer larger than this is freed after its run.
    RunWorkers(int width, size_t keep_bytes);
    // Runs the jobs still queued, then joins the workers.
    ~RunWorkers();
    RunWorkers(const RunWorkers &) = delete;
    RunWorkers &operator=(const RunWorkers &) = delete;

    // Queues a job. A short one runs here and now when a slot is free (then
    // the short jobs queued meanwhile); otherwise a worker runs it when a
    // slot frees up.
    void submit(Job job, bool short_run = false);
    // Queues a job for a worker and waits until it has run (for synchronous
    // handlers).
    void run_and_wait(const Job &job);

    int width() const { return (int)scratch_.size(); }
    size_t queued() const;
    size_t bytes_held() const;  // by the scratches of idle workers

private:
    struct Queued {
        Job job;
        bool short_run;
    };
    void work();
    int free_slot() const;  // -1: every slot busy (mu_ held)
    // Runs the front job in `slot`, and on while the front is short (mu_ held
    // on entry and exit, released while a job runs).
    void run_in_slot(size_t slot, std::unique_lock<std::mutex> &lock, bool only_short);

    const size_t keep_bytes_;
    mutable std::mutex mu_;
    std::condition_variable wake_;
    std::deque<Queued> jobs_;  // arrival order
    bool stopping_ = false;
    std::vector<std::unique_ptr<host::RunScratch>> scratch_;  // one per slot
    std::vector<bool> busy_;
    // When a slot last became free; a worker leaves a queued short job to the
    // gRPC threads for kShortJobGrace after that.
    std::chrono::steady_clock::time_point slot_freed_{};
    static constexpr std::chrono::microseconds kShortJobGrace{1000};
    std::vector<std::thread> threads_;
};

}  // namespace tigris::server
