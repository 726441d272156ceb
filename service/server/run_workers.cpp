// run_workers.cpp - see tigris_server/run_workers.hpp.
#include "tigris_server/run_workers.hpp"

#include <algorithm>

namespace tigris::server {

RunWorkers::RunWorkers(int width, size_t keep_bytes) : keep_bytes_(keep_bytes) {
    const size_t n = width > 0 ? (size_t)width : std::max(1u, std::thread::hardware_concurrency());
    for (size_t i = 0; i < n; ++i) scratch_.push_back(std::make_unique<host::RunScratch>());
    busy_.assign(n, false);
    for (size_t i = 0; i < n; ++i) threads_.emplace_back([this, i] { work(i); });
}

RunWorkers::~RunWorkers() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto &t : threads_) t.join();
}

void RunWorkers::submit(Job job) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        jobs_.push_back(std::move(job));
    }
    wake_.notify_one();
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

void RunWorkers::work(size_t index) {
    host::RunScratch &scratch = *scratch_[index];
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;  // stopping, and nothing left to run
        Job job = std::move(jobs_.front());
        jobs_.pop_front();
        busy_[index] = true;
        lock.unlock();
        job(scratch);
        job = nullptr;  // what the job holds (its call's admission) goes now
        scratch.trim(keep_bytes_);
        lock.lock();
        busy_[index] = false;
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
