// plan_cache.cpp - see tigris_server/plan_cache.hpp.
#include "tigris_server/plan_cache.hpp"

#include <cstring>
#include <functional>
#include <string_view>

namespace tigris::server {
namespace {

uint64_t hash_of(host::Bytes b) {
    return std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char *>(b.data()), b.size()));
}

bool same_bytes(host::Bytes a, host::Bytes b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

}  // namespace

std::shared_ptr<const host::LoadedPlan> PlanCache::find(host::Bytes bytes, double *last_run_ms) {
    return find_hashed(bytes, hash_of(bytes), last_run_ms);
}

std::shared_ptr<const host::LoadedPlan> PlanCache::find_hashed(host::Bytes bytes, uint64_t h, double *last_run_ms) {
    std::shared_ptr<const host::LoadedPlan> found;
    double ms = -1;
    {
        std::lock_guard<std::mutex> lock(mu_);
        for (auto it = lru_.begin(); it != lru_.end(); ++it)
            if (it->hash == h && it->plan->bytes().size() == bytes.size()) {
                lru_.splice(lru_.begin(), lru_, it);
                found = it->plan;
                ms = it->last_run_ms;
                break;
            }
    }
    // Compared outside the lock: a large plan must not hold up other calls.
    if (!found || !same_bytes(found->bytes(), bytes)) return nullptr;  // a miss, or a hash collision
    std::lock_guard<std::mutex> lock(mu_);
    ++hits_;
    if (last_run_ms) *last_run_ms = ms;
    return found;
}

void PlanCache::note_run(const host::LoadedPlan *plan, double cpu_ms) {
    std::lock_guard<std::mutex> lock(mu_);
    for (Entry &e : lru_)
        if (e.plan.get() == plan) {
            e.last_run_ms = cpu_ms;
            return;
        }
}

std::shared_ptr<const host::LoadedPlan> PlanCache::get(host::Bytes bytes, host::RunResult *refusal) {
    const uint64_t h = hash_of(bytes);
    if (auto hit = find_hashed(bytes, h, nullptr)) return hit;
    auto plan = host::LoadedPlan::load(bytes, refusal);
    std::lock_guard<std::mutex> lock(mu_);
    ++misses_;
    if (!plan || bytes.size() > max_bytes_ || max_plans_ == 0) return plan;
    // Another call may have loaded the same bytes meanwhile (keep one entry),
    // or other bytes with the same hash are cached (keep those).
    for (const Entry &e : lru_)
        if (e.hash == h) return plan;
    lru_.push_front({h, plan});
    bytes_ += bytes.size();
    while (lru_.size() > max_plans_ || bytes_ > max_bytes_) {
        bytes_ -= lru_.back().plan->bytes().size();
        lru_.pop_back();  // runs still holding it keep it alive until they end
    }
    return plan;
}

PlanCache::Counts PlanCache::counts() const {
    std::lock_guard<std::mutex> lock(mu_);
    return {hits_, misses_, lru_.size(), bytes_};
}

}  // namespace tigris::server
