// What the service keeps between calls: a run's scratch (arenas, workspace,
// state) reused from plan to plan, loaded plans in the plan cache, and the
// worker threads that bound how many runs execute at once.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "plan_builder.h"
#include "shared_data.h"
#include "tigris_host/run.hpp"
#include "tigris_server/plan_cache.hpp"
#include "tigris_server/run_workers.hpp"

namespace {

using tigris::host::Bytes;
using tigris::host::LoadedPlan;
using tigris::host::RunScratch;
using tigris_test::PlanBuilder;
using namespace std::chrono_literals;

const char *const kCases[] = {"pool_chain_v5", "linebuf_conv_chain_v5", "linebuf_conv_sig_chain_v5",
                              "linebuf_s8_conv_sig_chain_v5"};

// One scratch through every corpus case twice, its buffers overwritten with a
// different pattern before each run: the outputs never depend on what the
// previous run (or the pattern) left in the arenas, workspace or state.
TEST(RunReuse, AScratchReusedAcrossPlansGivesEachPlansOwnOutputs) {
    TIGRIS_REQUIRE_SHARED();
    const auto dir = tigris_test::shared_dir() / "corpus";
    RunScratch scratch;
    uint8_t poison = 0xA5;
    for (int pass = 0; pass < 2; ++pass)
        for (const char *p : kCases)
            for (const char *v : {"pattern", "random"}) {
                const std::string c = std::string(p) + "." + v;
                const auto plan = LoadedPlan::load(tigris_test::read_file(dir / (c + ".tgrs")));
                ASSERT_TRUE(plan) << c;
                const auto input = tigris_test::read_file(dir / (c + ".input.bin"));
                const Bytes in[] = {{input.data(), input.size()}};
                scratch.poison(poison);
                poison = (uint8_t)~poison;
                const auto r = tigris::host::run_loaded(*plan, in, {}, scratch);
                ASSERT_TRUE(r.ok()) << c << ": " << r.error;
                EXPECT_EQ(r.outputs, tigris_test::read_file(dir / (c + ".expected.bin"))) << c << " pass " << pass;
                EXPECT_TRUE(r.tensor_names.empty());  // a plain run does not copy the names
            }
    EXPECT_GT(scratch.bytes_held(), 0u);
    scratch.trim(0);
    EXPECT_EQ(scratch.bytes_held(), 0u);
}

TEST(RunReuse, OutputsGoWhereTheSinkSaysAndInputsAreCheckedOneByOne) {
    const auto plan = LoadedPlan::load(PlanBuilder::float_conv(11).build());
    ASSERT_TRUE(plan);
    RunScratch scratch;
    const std::vector<uint8_t> x(4 * 4 * 2 * 4, 0);  // x[1,4,4,2] f32
    const Bytes in[] = {{x.data(), x.size()}};
    std::vector<uint8_t> sink;
    tigris::host::RunOptions opt;
    opt.output_to = [&](size_t i, uint32_t n) {
        EXPECT_EQ(i, 0u);
        sink.assign(n, 0xEE);
        return sink.data();
    };
    const auto r = tigris::host::run_loaded(*plan, in, opt, scratch);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.outputs.empty());
    ASSERT_EQ(r.output_sizes.size(), 1u);
    EXPECT_EQ(sink.size(), r.output_sizes[0]);
    EXPECT_EQ(sink, tigris::host::run_plan(PlanBuilder::float_conv(11).build(), x).outputs);

    const Bytes short_in[] = {{x.data(), 10}};
    const auto bad = tigris::host::run_loaded(*plan, short_in, {}, scratch);
    EXPECT_EQ(bad.error_name, "bad input size");
    EXPECT_NE(bad.error.find("input 0 (\"x\") has 10 bytes; it takes 128 bytes"), std::string::npos) << bad.error;
    const auto none = tigris::host::run_loaded(*plan, {}, {}, scratch);
    EXPECT_NE(none.error.find("has 1 model inputs but 0 were given"), std::string::npos) << none.error;
}

TEST(PlanCache, SameBytesHitDifferentBytesLoadRefusalsAreNotKept) {
    tigris::server::PlanCache cache(2, 1 << 20);
    const auto a = PlanBuilder::float_conv(11).build();
    const auto b = PlanBuilder::int8_conv(11).build();
    auto pa = cache.get(a, nullptr);
    ASSERT_TRUE(pa);
    const std::vector<uint8_t> a_copy = a;  // equal bytes elsewhere in memory
    EXPECT_EQ(cache.get(a_copy, nullptr), pa);
    EXPECT_NE(pa->bytes().data(), a.data());  // the entry owns its own copy
    auto pb = cache.get(b, nullptr);
    ASSERT_TRUE(pb);
    EXPECT_NE(pb, pa);
    auto c = cache.counts();
    EXPECT_EQ(c.hits, 1u);
    EXPECT_EQ(c.misses, 2u);
    EXPECT_EQ(c.plans, 2u);
    EXPECT_EQ(c.bytes, a.size() + b.size());

    tigris::host::RunResult why;
    const std::vector<uint8_t> junk(a.begin(), a.begin() + 40);
    EXPECT_FALSE(cache.get(junk, &why));
    EXPECT_EQ(why.error_name, "plan refused");
    EXPECT_NE(why.error.find("refuses this plan: TIGRIS_ERR_"), std::string::npos) << why.error;
    EXPECT_EQ(cache.counts().plans, 2u);

    // A third plan pushes out the least recently used one (a, then b were used; b is newer).
    PlanBuilder other = PlanBuilder::float_conv(11);
    other.model_name = "another";
    const auto o = other.build();
    ASSERT_TRUE(cache.get(o, nullptr));
    EXPECT_EQ(cache.counts().plans, 2u);
    EXPECT_EQ(cache.get(b, nullptr), pb);        // still there
    EXPECT_NE(cache.get(a, nullptr), pa);        // loaded again
    EXPECT_TRUE(pa->plan().header != nullptr);   // an evicted plan lives on while held
}

TEST(PlanCache, APlanAboveTheByteBoundIsLoadedButNotKept) {
    const auto a = PlanBuilder::float_conv(11).build();
    tigris::server::PlanCache cache(4, a.size() - 1);
    auto p1 = cache.get(a, nullptr);
    auto p2 = cache.get(a, nullptr);
    ASSERT_TRUE(p1 && p2);
    EXPECT_NE(p1, p2);
    EXPECT_EQ(cache.counts().plans, 0u);
}

TEST(RunWorkers, AtMostWidthJobsRunAtOnceInArrivalOrderEachOnItsOwnScratch) {
    std::vector<int> order;
    std::set<const RunScratch *> scratches;
    std::atomic<int> running{0}, most{0};
    std::mutex mu;
    {
        tigris::server::RunWorkers w(2, 1 << 20);
        EXPECT_EQ(w.width(), 2);
        for (int i = 0; i < 12; ++i)
            w.submit([&, i](RunScratch &s) {
                const int now = running.fetch_add(1) + 1;
                int seen = most.load();
                while (now > seen && !most.compare_exchange_weak(seen, now)) {
                }
                {
                    std::lock_guard<std::mutex> lock(mu);
                    order.push_back(i);
                    scratches.insert(&s);
                }
                std::this_thread::sleep_for(5ms);
                running.fetch_sub(1);
            });
    }  // the destructor runs what is queued, then joins
    ASSERT_EQ(order.size(), 12u);
    EXPECT_EQ(most.load(), 2);
    EXPECT_EQ(scratches.size(), 2u);
    // Two workers take jobs in arrival order: job i starts no later than job i + 2.
    for (size_t k = 0; k + 2 < order.size(); ++k) EXPECT_LT(order[k], order[k + 2] + 2) << k;
    EXPECT_EQ(order.front() + order[1], 1);  // jobs 0 and 1 first
}

TEST(RunWorkers, RunAndWaitReturnsAfterTheJobAndBigBuffersAreFreedAfterIt) {
    tigris::server::RunWorkers w(1, 4096);
    bool ran = false;
    w.run_and_wait([&](RunScratch &s) {
        s.slow.reserve(1 << 20);
        s.fast.reserve(1024);
        std::this_thread::sleep_for(10ms);
        ran = true;
    });
    EXPECT_TRUE(ran);
    // The worker trims after the job; wait until it is idle again.
    for (int i = 0; i < 100 && w.bytes_held() != 1024u; ++i) std::this_thread::sleep_for(1ms);
    EXPECT_EQ(w.bytes_held(), 1024u);
}

// Short jobs run on the thread that submits them when a slot is free;
// other jobs never do, so a gRPC thread is never held by a long run.
TEST(RunWorkers, ShortJobsRunWhereTheyAreSubmittedLongOnesOnAWorker) {
    tigris::server::RunWorkers w(1, 1 << 20);
    const auto me = std::this_thread::get_id();
    std::thread::id short_on, long_on;
    w.submit([&](RunScratch &) { short_on = std::this_thread::get_id(); }, true);
    EXPECT_EQ(short_on, me);  // already run when submit returns
    w.run_and_wait([&](RunScratch &) { long_on = std::this_thread::get_id(); });
    EXPECT_NE(long_on, me);
    std::atomic<bool> ran{false};
    w.submit([&](RunScratch &) { ran = true; });  // long: returns at once, a worker runs it
    for (int i = 0; i < 1000 && !ran; ++i) std::this_thread::sleep_for(1ms);
    EXPECT_TRUE(ran);
}

// With the only slot held by a short job, the short jobs submitted meanwhile
// queue and are run, in arrival order, by the thread holding the slot; a
// long job behind them stops that thread and goes to a worker.
TEST(RunWorkers, TheSlotHolderRunsTheShortJobsQueuedBehindIt) {
    tigris::server::RunWorkers w(1, 1 << 20);
    std::atomic<bool> holding{false}, release{false};
    std::vector<int> order;
    std::thread::id holder_id, long_on;
    std::atomic<bool> long_ran{false};
    std::vector<std::thread::id> short_on(4);
    std::thread holder([&] {
        holder_id = std::this_thread::get_id();
        w.submit(
            [&](RunScratch &) {
                holding = true;
                while (!release) std::this_thread::sleep_for(1ms);
            },
            true);
    });
    while (!holding) std::this_thread::sleep_for(1ms);
    for (int i = 0; i < 4; ++i)
        w.submit(
            [&, i](RunScratch &) {
                order.push_back(i);
                short_on[i] = std::this_thread::get_id();
            },
            true);
    w.submit([&](RunScratch &) {
        long_on = std::this_thread::get_id();
        long_ran = true;
    });
    EXPECT_EQ(w.queued(), 5u);
    release = true;
    holder.join();  // returns once it has run the four short jobs
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
    for (const auto &id : short_on) EXPECT_EQ(id, holder_id);
    for (int i = 0; i < 1000 && !long_ran; ++i) std::this_thread::sleep_for(1ms);
    ASSERT_TRUE(long_ran);
    EXPECT_NE(long_on, holder_id);
}

// A short job queued while a worker holds the slot, with no call arriving
// afterwards to run it: a worker runs it (nothing waits forever).
TEST(RunWorkers, AQueuedShortJobNobodyTakesIsRunByAWorker) {
    tigris::server::RunWorkers w(1, 1 << 20);
    std::atomic<bool> holding{false}, release{false}, ran{false};
    w.submit([&](RunScratch &) {  // long: on a worker
        holding = true;
        while (!release) std::this_thread::sleep_for(1ms);
    });
    while (!holding) std::this_thread::sleep_for(1ms);
    w.submit([&](RunScratch &) { ran = true; }, true);  // no free slot: queued
    release = true;
    for (int i = 0; i < 1000 && !ran; ++i) std::this_thread::sleep_for(1ms);
    EXPECT_TRUE(ran);
}

// find() answers only for cached bytes, and carries the last run's time.
TEST(PlanCache, FindReportsTheLastRunOfACachedPlan) {
    tigris::server::PlanCache cache(4, 1 << 20);
    const auto a = PlanBuilder::float_conv(11).build();
    const Bytes ab{a.data(), a.size()};
    double ms = 0;
    EXPECT_EQ(cache.find(ab, &ms), nullptr);
    const auto p = cache.get(ab, nullptr);
    ASSERT_TRUE(p);
    EXPECT_EQ(cache.find(ab, &ms), p);
    EXPECT_LT(ms, 0);  // not run yet
    cache.note_run(p.get(), 2.5);
    EXPECT_EQ(cache.find(ab, &ms), p);
    EXPECT_DOUBLE_EQ(ms, 2.5);
    auto other = a;
    other.back() ^= 1;
    EXPECT_EQ(cache.find({other.data(), other.size()}, &ms), nullptr);
}

}  // namespace
