// run_workers.hpp - the threads that execute runs, and the buffers they run in.
//
// The server admits up to Limits::max_concurrent_runs calls (more are
// refused), but only `width` threads run kernels, each in a RunScratch kept
// from run to run; admitted calls wait their turn in arrival order. On a
// machine with fewer cores than calls in flight this keeps the cores on a few
// runs with warm caches instead of switching among hundreds of threads, keeps
// the thread count fixed, and bounds arena memory to `width` scratches. The
// queue is bounded by the admission limit, never by this class.
#pragma once

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

    // Queues a job; the first free worker runs it with its scratch.
    void submit(Job job);
    // Queues a job and waits until it has run (for synchronous handlers).
    void run_and_wait(const Job &job);

    int width() const { return (int)threads_.size(); }
    size_t queued() const;
    size_t bytes_held() const;  // by the scratches of idle workers

private:
    void work(size_t index);

    const size_t keep_bytes_;
    mutable std::mutex mu_;
    std::condition_variable wake_;
    std::deque<Job> jobs_;  // arrival order
    bool stopping_ = false;
    std::vector<std::unique_ptr<host::RunScratch>> scratch_;  // one per worker
    std::vector<bool> busy_;
    std::vector<std::thread> threads_;
};

}  // namespace tigris::server
