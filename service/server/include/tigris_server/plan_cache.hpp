// plan_cache.hpp - loaded plans kept between requests, keyed by their bytes.
//
// CI clients send the same plan with every Run; loading (checking every byte
// of the plan) once per distinct plan instead of once per call saves that
// work. A hit is decided on the full bytes, not on the hash alone, and each
// entry owns its copy of the bytes (the loader keeps pointers into them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>

#include "tigris_host/run.hpp"

namespace tigris::server {

class PlanCache {
public:
    // At most max_plans entries and max_bytes of plan bytes; the least
    // recently used entry goes first. Plans above max_bytes are never kept.
    PlanCache(size_t max_plans, size_t max_bytes) : max_plans_(max_plans), max_bytes_(max_bytes) {}

    // The loaded plan for `bytes`: the cached one when the same bytes were
    // loaded before, else loaded now (and kept when it fits). nullptr when the
    // loader refuses them; then *refusal says why (refusals are not kept).
    std::shared_ptr<const host::LoadedPlan> get(host::Bytes bytes, host::RunResult *refusal);
    // The cached plan for `bytes`, or nullptr (nothing is loaded). With it,
    // *last_run_ms: the CPU milliseconds of its last run (note_run), or a
    // negative number when it has not run yet.
    std::shared_ptr<const host::LoadedPlan> find(host::Bytes bytes, double *last_run_ms = nullptr);
    // Records a run of a cached plan (for find's last_run_ms); plans not in
    // the cache are ignored.
    void note_run(const host::LoadedPlan *plan, double cpu_ms);

    struct Counts {
        uint64_t hits = 0, misses = 0;
        size_t plans = 0, bytes = 0;
    };
    Counts counts() const;

private:
    // find() for bytes whose hash is h (get() hashes once for both steps).
    std::shared_ptr<const host::LoadedPlan> find_hashed(host::Bytes bytes, uint64_t h, double *last_run_ms);
    struct Entry {
        uint64_t hash;
        std::shared_ptr<const host::LoadedPlan> plan;
        double last_run_ms = -1;
    };
    const size_t max_plans_, max_bytes_;
    mutable std::mutex mu_;
    std::list<Entry> lru_;  // front: most recently used
    size_t bytes_ = 0;
    uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace tigris::server
