// emu_fleet.cpp - a bounded pool of QEMU processes fed by a bounded queue.
//
// `workers` threads each run one job (one QEMU process) at a time, so at
// most `workers` QEMUs exist at once. Submitting never blocks: beyond
// `max_queued` waiting jobs the job is refused as Busy. Cancelling a queued
// job drops it; cancelling a running one kills and reaps its QEMU.
#include <algorithm>

#include "tigris_host/emu.hpp"

namespace tigris::host::emu {

void Executor::Job::finish(JobResult r) {
    event(Event::Finished);
    {
        std::lock_guard<std::mutex> lk(m);
        result = std::move(r);
        done = true;
    }
    cv.notify_all();
}

bool Executor::wait_for(const Ticket &t, std::chrono::milliseconds d) {
    std::unique_lock<std::mutex> lk(t->m);
    return t->cv.wait_for(lk, d, [&] { return t->done; });
}

JobResult Executor::wait(const Ticket &t) {
    std::unique_lock<std::mutex> lk(t->m);
    t->cv.wait(lk, [&] { return t->done; });
    return t->result;
}

bool Executor::is_done(const Ticket &t) {
    std::lock_guard<std::mutex> lk(t->m);
    return t->done;
}

namespace {


}  // namespace

Fleet::Fleet(Limits limits, Paths paths) : limits_(limits), paths_(std::move(paths)) {
    unsigned n = limits_.workers ? limits_.workers : std::thread::hardware_concurrency();
    if (n == 0) n = 1;
    limits_.workers = n;
    for (unsigned i = 0; i < n; i++) threads_.emplace_back([this] { work(); });
}

Fleet::~Fleet() {
    std::deque<Ticket> dropped;
    {
        std::lock_guard<std::mutex> lk(m_);
        stopping_ = true;
        dropped.swap(queue_);
        for (const Ticket &t : active_) t->cancel = true;  // their workers kill the QEMUs
    }
    for (const Ticket &t : dropped) {
        t->cancel = true;
        t->finish(job_failed(JobResult::Status::Cancelled, "cancelled: the fleet is shutting down"));
    }
    cv_.notify_all();
    for (std::thread &t : threads_) t.join();
}

Fleet::Ticket Fleet::submit(JobSpec spec, EventFn on_event) {
    auto t = std::make_shared<Job>();
    t->spec = std::move(spec);
    t->on_event = std::move(on_event);
    {
        std::lock_guard<std::mutex> lk(m_);
        if (!stopping_ && queue_.size() < limits_.max_queued) {
            queue_.push_back(t);
            cv_.notify_one();
            return t;
        }
    }
    t->finish(job_failed(JobResult::Status::Busy, "the emulator queue is full (" +
                                                       std::to_string(limits_.max_queued) +
                                                       " jobs waiting); try again later"));
    return t;
}

void Fleet::cancel(const Ticket &t) {
    if (!t) return;
    t->cancel = true;  // a running job's QEMU is killed by its worker
    bool was_queued = false;
    {
        std::lock_guard<std::mutex> lk(m_);
        auto it = std::find(queue_.begin(), queue_.end(), t);
        if (it != queue_.end()) {
            queue_.erase(it);
            was_queued = true;
        }
    }
    if (was_queued) t->finish(job_failed(JobResult::Status::Cancelled, "cancelled before it started"));
}

size_t Fleet::queued() const {
    std::lock_guard<std::mutex> lk(m_);
    return queue_.size();
}

size_t Fleet::running() const {
    std::lock_guard<std::mutex> lk(m_);
    return running_;
}

void Fleet::work() {
    for (;;) {
        Ticket t;
        {
            std::unique_lock<std::mutex> lk(m_);
            cv_.wait(lk, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping
            t = queue_.front();
            queue_.pop_front();
            active_.push_back(t);
            running_++;
        }
        JobResult r;
        if (t->cancel) {
            r = job_failed(JobResult::Status::Cancelled, "cancelled before it started");
        } else {
            r = run_job(t->spec, paths_, limits_.timeout, &t->cancel, [&t] {
                t->event(Event::Started);
            });
        }
        {
            std::lock_guard<std::mutex> lk(m_);
            active_.erase(std::find(active_.begin(), active_.end(), t));
            running_--;
        }
        t->finish(std::move(r));
    }
}

}  // namespace tigris::host::emu
