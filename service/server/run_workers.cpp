// run_workers.cpp - see tigris_server/run_workers.hpp.
#include "tigris_server/run_workers.hpp"

#include <algorithm>

namespace tigris::server {

RunWorkers::RunWorkers(int width, size_t keep_bytes) : keep_bytes_(keep_bytes) {
    const size_t n = width > 0 ? (size_t)width : std::max(1u, std::thread::hardware_concurrency());
    for (size_t i = 0; i < n; ++i) scratch_.push_back(std::make_unique<host::RunScratch>());
    busy_.assign(n, false);
    for (size_t i = 0; i < n; ++i) threads_.emplace_back([this] { work(); });
}

RunWorkers::~RunWorkers() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto &t : threads_) t.join();
}

int RunWorkers::free_slot() const {
    for (size_t i = 0; i < busy_.size(); ++i)
        if (!busy_[i]) return (int)i;
    return -1;
}

void RunWorkers::run_in_slot(size_t slot, std::unique_lock<std::mutex> &lock, bool only_short) {
    host::RunScratch &scratch = *scratch_[slot];
    busy_[slot] = true;
    do {
        Job job = std::move(jobs_.front().job);
        jobs_.pop_front();
        lock.unlock();
        job(scratch);
        job = nullptr;  // what the job holds (its call's admission) goes now
        scratch.trim(keep_bytes_);
        lock.lock();
    } while (only_short && !jobs_.empty() && jobs_.front().short_run);
    busy_[slot] = false;
    slot_freed_ = std::chrono::steady_clock::now();
}

void RunWorkers::submit(Job job, bool short_run) {
    std::unique_lock<std::mutex> lock(mu_);
    jobs_.push_back({std::move(job), short_run});
    const int slot = free_slot();
    // Arrival order holds: this thread runs the front job, which is its own
    // unless others wait before it.
    if (short_run && slot >= 0 && jobs_.front().short_run) run_in_slot((size_t)slot, lock, true);
    const bool for_workers = !jobs_.empty() && free_slot() >= 0;
    lock.unlock();
    if (for_workers) wake_.notify_one();
}

void RunWorkers::run_and_wait(const Job &job) {
    std::mutex m;
    std::condition_variable cv;
    bool finished = false;
    submit([&](host::RunScratch &s) {
        job(s);
        std::lock_guard<std::mutex> lock(m);
        finished = true;
        cv.notify_one();  // under the lock: the waiter's cv outlives this call
    });
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return finished; });
}

void RunWorkers::work() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
        wake_.wait(lock, [this] { return (stopping_ && jobs_.empty()) || (!jobs_.empty() && free_slot() >= 0); });
        if (jobs_.empty()) return;  // stopping, and nothing left to run
        // A short job is left a moment to the gRPC threads: the next call to
        // arrive takes the free slot and runs it where it is. Only when none
        // does (every client is waiting on the queue) does a worker run it.
        const auto rescue_at = slot_freed_ + kShortJobGrace;
        if (jobs_.front().short_run && !stopping_ && std::chrono::steady_clock::now() < rescue_at) {
            wake_.wait_until(lock, rescue_at);
            continue;
        }
        run_in_slot((size_t)free_slot(), lock, false);
        // A slot is free again: another worker may take what is queued.
        if (!jobs_.empty()) wake_.notify_one();
    }
}

size_t RunWorkers::queued() const {
    std::lock_guard<std::mutex> lock(mu_);
    return jobs_.size();
}

size_t RunWorkers::bytes_held() const {
    std::lock_guard<std::mutex> lock(mu_);
    size_t n = 0;
    for (size_t i = 0; i < scratch_.size(); ++i)
        if (!busy_[i]) n += scratch_[i]->bytes_held();
    return n;
}

}  // namespace tigris::server
