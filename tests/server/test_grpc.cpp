// The gRPC service over real loopback connections: every RPC's success path,
// every error mapping, deadlines and cancellation mid-run, a client leaving
// mid-stream, the limits, health and reflection.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "plan_builder.h"
#include "shared_data.h"
#include "tigris/v1/tigris.grpc.pb.h"
#include "tigris_host/run.hpp"
#include "tigris_server/server.hpp"

namespace {

namespace v1 = tigris::v1;
using tigris_test::PlanBuilder;

std::string str(const std::vector<uint8_t> &b) { return std::string(b.begin(), b.end()); }

// A server on a free loopback port whose log lines the test can read.
struct Fixture {
    std::mutex mu;
    std::vector<std::string> log;
    std::unique_ptr<tigris::server::GrpcServer> srv;
    std::shared_ptr<grpc::Channel> ch;
    std::unique_ptr<v1::Tigris::Stub> stub;

    explicit Fixture(tigris::server::Limits limits = {}) {
        srv = tigris::server::start_grpc("127.0.0.1:0", limits, [this](const std::string &l) {
            std::lock_guard<std::mutex> lock(mu);
            log.push_back(l);
        });
        grpc::ChannelArguments args;
        args.SetMaxReceiveMessageSize(-1);
        ch = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(srv->port), grpc::InsecureChannelCredentials(), args);
        stub = v1::Tigris::NewStub(ch);
    }
    std::vector<std::string> lines() {
        std::lock_guard<std::mutex> lock(mu);
        return log;
    }
};

// x[1,96,96,16] -> 8 float 3x3 convs: milliseconds per kernel, so a run is
// long enough to be stopped between kernel calls.
std::vector<uint8_t> slow_plan(int convs = 8) {
    PlanBuilder b(11);
    b.model_name = "slow_convs";
    uint16_t prev = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 96, 96, 16}, TIGRIS_TENSOR_MODEL_INPUT);
    std::vector<float> w(16 * 3 * 3 * 16, 0.01f);
    for (int i = 0; i < convs; ++i) {
        uint16_t y = b.add_tensor("c" + std::to_string(i), TIGRIS_DTYPE_FLOAT32, {1, 96, 96, 16},
                                  i == convs - 1 ? TIGRIS_TENSOR_MODEL_OUTPUT : 0);
        uint16_t op = b.add_op(TIGRIS_OP_CONV, {prev}, {y}, "conv" + std::to_string(i));
        b.ops[op].spatial = PlanBuilder::conv_spatial(3, 1, 1);
        b.ops[op].weight = b.add_float_weight("w" + std::to_string(i), w);
        b.add_stage({op}, {prev}, {y});
        prev = y;
    }
    return b.build();
}

// A Run of the slow plan (with `convs` convs) on zeros.
v1::RunRequest slow_request(int convs = 8) {
    v1::RunRequest r;
    r.set_plan(str(slow_plan(convs)));
    r.add_inputs(std::string(96 * 96 * 16 * 4, '\0'));
    return r;
}

// The slow plan's run time on this machine now, in microseconds: the
// fastest of three warm runs, so a test's waits scale with the machine's
// speed and load, and a run is not shorter than this by surprise.
int64_t slow_run_us(v1::Tigris::Stub &stub, const v1::RunRequest &slow) {
    double best_ms = 1e9;
    for (int i = 0; i < 3; ++i) {
        v1::RunResponse whole;
        grpc::ClientContext c;
        if (!stub.Run(&c, slow, &whole).ok()) return 0;
        best_ms = std::min(best_ms, whole.run_ms());
    }
    return std::max<int64_t>(5000, (int64_t)(best_ms * 1000));
}

// Polls the server's activity until `ok` holds (up to 5 s): lets a test
// act once a call is admitted or queued, instead of guessing with a sleep.
template <class Pred>
bool wait_until(Fixture &f, Pred ok) {
    for (int i = 0; i < 5000; ++i) {
        if (ok(f.srv->activity())) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

v1::RunRequest corpus_request(const std::string &c) {
    v1::RunRequest req;
    req.set_plan(str(tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (c + ".tgrs"))));
    req.add_inputs(str(tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (c + ".input.bin"))));
    return req;
}

const char *const kCases[] = {"pool_chain_v5", "linebuf_conv_chain_v5", "linebuf_conv_sig_chain_v5",
                              "linebuf_s8_conv_sig_chain_v5"};

TEST(Grpc, HealthAnswersServing) {
    Fixture f;
    auto health = grpc::health::v1::Health::NewStub(f.ch);
    grpc::ClientContext ctx;
    grpc::health::v1::HealthCheckRequest req;
    grpc::health::v1::HealthCheckResponse resp;
    ASSERT_TRUE(health->Check(&ctx, req, &resp).ok());
    EXPECT_EQ(resp.status(), grpc::health::v1::HealthCheckResponse::SERVING);
}

TEST(Grpc, ReflectionListsTheService) {
    Fixture f;
    auto refl = grpc::reflection::v1alpha::ServerReflection::NewStub(f.ch);
    grpc::ClientContext ctx;
    auto stream = refl->ServerReflectionInfo(&ctx);
    grpc::reflection::v1alpha::ServerReflectionRequest req;
    req.set_list_services("*");
    ASSERT_TRUE(stream->Write(req));
    stream->WritesDone();
    grpc::reflection::v1alpha::ServerReflectionResponse resp;
    ASSERT_TRUE(stream->Read(&resp));
    std::vector<std::string> names;
    for (const auto &s : resp.list_services_response().service()) names.push_back(s.name());
    EXPECT_NE(std::find(names.begin(), names.end(), "tigris.v1.Tigris"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "grpc.health.v1.Health"), names.end());
    EXPECT_TRUE(stream->Finish().ok());
}

TEST(Grpc, InspectDescribesAPlanAndNamesTheLoaderErrorOfABadOne) {
    Fixture f;
    PlanBuilder b = PlanBuilder::int8_conv(11);
    v1::InspectRequest req;
    req.set_plan(str(b.build()));
    v1::InspectResponse resp;
    grpc::ClientContext ctx;
    ASSERT_TRUE(f.stub->Inspect(&ctx, req, &resp).ok());
    EXPECT_EQ(resp.schema(), 11u);
    EXPECT_EQ(resp.data_dtype(), "int8");
    ASSERT_EQ(resp.inputs_size(), 1);
    EXPECT_EQ(resp.inputs(0).declared_bytes(), 4u * 4u * 2u);  // [1,4,4,2] int8
    EXPECT_GT(resp.fast_arena_required(), 0u);
    EXPECT_NE(resp.report_json().find("\"tensors\""), std::string::npos);

    req.set_plan("not a plan at all, just bytes");
    grpc::ClientContext ctx2;
    const grpc::Status st = f.stub->Inspect(&ctx2, req, &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("TIGRIS_ERR_"), std::string::npos) << st.error_message();
}

TEST(Grpc, RunOutputsEqualTheCliOnEveryCorpusCase) {
    TIGRIS_REQUIRE_SHARED();
    Fixture f;
    for (const char *p : kCases)
        for (const char *v : {"pattern", "random"}) {
            const std::string c = std::string(p) + "." + v;
            v1::RunRequest req = corpus_request(c);
            v1::RunResponse resp;
            grpc::ClientContext ctx;
            const grpc::Status st = f.stub->Run(&ctx, req, &resp);
            ASSERT_TRUE(st.ok()) << c << ": " << st.error_message();
            ASSERT_EQ(resp.outputs_size(), 1);
            const auto want = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (c + ".expected.bin"));
            EXPECT_EQ(resp.outputs(0), str(want)) << c;
            // Same run in process through the library the CLI uses.
            const auto local = tigris::host::run_plan(std::vector<uint8_t>(req.plan().begin(), req.plan().end()),
                                                      std::vector<uint8_t>(req.inputs(0).begin(), req.inputs(0).end()));
            EXPECT_EQ(resp.outputs(0), str(local.outputs));
            EXPECT_EQ(resp.stats().loads_bytes(), local.stats.loads_bytes);
            EXPECT_EQ(resp.fast_peak(), local.fast_peak);
            EXPECT_LE(resp.fast_peak(), resp.fast_required());
        }
}

TEST(Grpc, RunErrorsMapToTheirCodes) {
    Fixture f;
    PlanBuilder b = PlanBuilder::float_conv(11);
    const std::string plan = str(b.build());
    auto run = [&](v1::RunRequest req) {
        v1::RunResponse resp;
        grpc::ClientContext ctx;
        return f.stub->Run(&ctx, req, &resp);
    };
    v1::RunRequest ok;
    ok.set_plan(plan);
    ok.add_inputs(std::string(4 * 4 * 2 * 4, '\0'));  // x[1,4,4,2] f32
    EXPECT_TRUE(run(ok).ok());

    v1::RunRequest bad_plan = ok;
    bad_plan.set_plan(plan.substr(0, 40));
    grpc::Status st = run(bad_plan);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("refuses this plan: TIGRIS_ERR_"), std::string::npos) << st.error_message();

    v1::RunRequest short_input = ok;
    short_input.set_inputs(0, std::string(10, '\0'));
    st = run(short_input);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("takes 128 bytes"), std::string::npos) << st.error_message();

    v1::RunRequest two_inputs = ok;
    two_inputs.add_inputs("x");
    EXPECT_EQ(run(two_inputs).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

    v1::RunRequest small_arena = ok;
    small_arena.set_fast_bytes(64);
    st = run(small_arena);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_NE(st.error_message().find("requires a fast arena of"), std::string::npos) << st.error_message();
}

TEST(Grpc, LimitsAnswerResourceExhausted) {
    tigris::server::Limits lim;
    lim.max_arena_bytes = 1024;
    Fixture f(lim);
    v1::RunRequest req;
    req.set_plan(str(PlanBuilder::float_conv(11).build()));
    req.add_inputs(std::string(128, '\0'));
    v1::RunResponse resp;
    grpc::ClientContext ctx;
    grpc::Status st = f.stub->Run(&ctx, req, &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_NE(st.error_message().find("limit is 1024"), std::string::npos) << st.error_message();

    tigris::server::Limits none;
    none.max_concurrent_runs = 0;  // every run is one too many
    Fixture g(none);
    grpc::ClientContext ctx2;
    st = g.stub->Run(&ctx2, req, &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_NE(st.error_message().find("max concurrent runs"), std::string::npos);

    tigris::server::Limits tiny;
    tiny.max_message_bytes = 256;
    Fixture h(tiny);
    grpc::ClientContext ctx3;
    EXPECT_EQ(h.stub->Run(&ctx3, req, &resp).error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);

    tigris::server::Limits few;
    few.max_trace_events = 2;  // the conv's run has more (stage begin, load, alloc, op, ...)
    Fixture k(few);
    v1::TraceRequest treq;
    *treq.mutable_run() = req;
    grpc::ClientContext ctx4;
    auto reader = k.stub->Trace(&ctx4, treq);
    v1::TraceBatch batch;
    while (reader->Read(&batch)) {
    }
    st = reader->Finish();
    EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_NE(st.error_message().find("more than 2 events"), std::string::npos) << st.error_message();
}

// Two concurrent slow runs with room for one: the second is refused at once,
// not queued.
TEST(Grpc, ExcessConcurrentRunsAreRefusedNotQueued) {
    tigris::server::Limits lim;
    lim.max_concurrent_runs = 1;
    Fixture f(lim);
    const v1::RunRequest slow = slow_request();
    std::thread first([&] {
        v1::RunResponse r;
        grpc::ClientContext c;
        EXPECT_TRUE(f.stub->Run(&c, slow, &r).ok());
    });
    ASSERT_TRUE(wait_until(f, [](const tigris::server::Activity &a) { return a.admitted == 1; }));
    v1::RunResponse r;
    grpc::ClientContext c;
    const auto t0 = std::chrono::steady_clock::now();
    const grpc::Status st = f.stub->Run(&c, slow, &r);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    first.join();
    EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << st.error_message();
    EXPECT_LT(ms, 1000.0);
}

// Waits up to 3 s for the `times`-th log line containing `what`; returns all lines seen.
bool wait_for_log(Fixture &f, const std::string &what, std::string *all, int times = 1) {
    for (int i = 0; i < 300; ++i) {
        all->clear();
        int seen = 0;
        for (const auto &l : f.lines()) {
            *all += l + "\n";
            if (l.find(what) != std::string::npos && ++seen == times) return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

TEST(Grpc, OneMillisecondDeadlineAnswersDeadlineExceeded) {
    Fixture f;
    const v1::RunRequest slow = slow_request();
    v1::RunResponse r;
    grpc::ClientContext c;
    c.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(1));
    EXPECT_EQ(f.stub->Run(&c, slow, &r).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
    grpc::ClientContext c2;
    EXPECT_TRUE(f.stub->Run(&c2, slow, &r).ok());  // and the server still serves
}

// A deadline that passes while the kernels run: the server stops the run at
// the next kernel call instead of finishing it.
TEST(Grpc, DeadlineStopsTheRunBetweenKernelCalls) {
    Fixture f;
    const v1::RunRequest slow = slow_request();
    v1::RunResponse whole;
    {
        grpc::ClientContext c;
        ASSERT_TRUE(f.stub->Run(&c, slow, &whole).ok());
    }
    const double deadline_ms = std::max(5.0, whole.run_ms() / 4);
    v1::RunResponse r;
    grpc::ClientContext c;
    c.set_deadline(std::chrono::system_clock::now() + std::chrono::microseconds((int64_t)(deadline_ms * 1000)));
    EXPECT_EQ(f.stub->Run(&c, slow, &r).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
    // The server stopped the run early. It logs DEADLINE_EXCEEDED, or
    // CANCELLED when the client's own deadline timer cancelled the call
    // before the server's copy of the deadline (later by the transit) passed.
    std::string all;
    ASSERT_TRUE(wait_for_log(f, "rpc=Run status=", &all, 2)) << all;
    const std::string last = f.lines().back();
    EXPECT_TRUE(last.find("status=DEADLINE_EXCEEDED") != std::string::npos ||
                last.find("status=CANCELLED") != std::string::npos)
        << last;
    const double ms = std::stod(last.substr(last.find("ms=") + 3));
    EXPECT_LT(ms, whole.run_ms() * 0.9) << last;
}

// Admitted runs beyond the workers wait their turn instead of being refused;
// one whose deadline passes while it waits ends without running.
TEST(Grpc, AdmittedRunsBeyondTheWorkersWaitTheirTurn) {
    tigris::server::Limits lim;
    lim.max_concurrent_runs = 3;
    lim.max_parallel_runs = 1;
    Fixture f(lim);
    const v1::RunRequest slow = slow_request();
    // The first call holds the one worker for about T (the slow plan's run
    // time here); the second arrives right after it is admitted, waits, and
    // its deadline (T/2) passes before the worker is free; the third waits
    // too, then runs.
    const int64_t t_us = slow_run_us(*f.stub, slow);
    ASSERT_GT(t_us, 0);
    std::thread first([&] {
        v1::RunResponse r;
        grpc::ClientContext c;
        EXPECT_TRUE(f.stub->Run(&c, slow, &r).ok());
    });
    ASSERT_TRUE(wait_until(f, [](const tigris::server::Activity &a) { return a.admitted == 1; }));
    grpc::Status second;
    std::thread waiter([&] {
        v1::RunResponse r;
        grpc::ClientContext c2;
        c2.set_deadline(std::chrono::system_clock::now() + std::chrono::microseconds(t_us / 2));
        second = f.stub->Run(&c2, slow, &r);
    });
    EXPECT_TRUE(wait_until(f, [](const tigris::server::Activity &a) { return a.waiting == 1; }));
    v1::RunResponse r;
    grpc::ClientContext c3;
    EXPECT_TRUE(f.stub->Run(&c3, slow, &r).ok());  // queued behind, then run
    first.join();
    waiter.join();
    EXPECT_EQ(second.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
    std::string all;
    EXPECT_TRUE(wait_for_log(f, "the deadline passed before the run could start", &all)) << all;
    size_t ok = 0;
    for (const auto &l : f.lines()) ok += l.find("rpc=Run status=OK") != std::string::npos;
    EXPECT_EQ(ok, 5u) << all;  // the three timing runs, the first and the third
}

// Every run slot busy with a long run: the server still answers at once.
// A call beyond the admission limit is refused, health answers, and a
// client that cancels its long run has it stopped, each in a small part of
// the long run's time, whichever threads the runs execute on.
TEST(Grpc, BusyRunSlotsLeaveTheServerResponsive) {
    tigris::server::Limits lim;
    lim.max_concurrent_runs = 2;
    lim.max_parallel_runs = 2;
    Fixture f(lim);
    const v1::RunRequest slow = slow_request();
    const int64_t t_us = slow_run_us(*f.stub, slow);
    ASSERT_GT(t_us, 0);
    const v1::RunRequest longer = slow_request(64);  // about 8 T
    const double long_ms = 8.0 * t_us / 1000, prompt_ms = std::max(100.0, long_ms / 8);

    grpc::ClientContext cancelled_ctx;
    grpc::Status kept, cancelled;
    std::thread a([&] {
        v1::RunResponse r;
        grpc::ClientContext c;
        kept = f.stub->Run(&c, longer, &r);
    });
    std::thread b([&] {
        v1::RunResponse r;
        cancelled = f.stub->Run(&cancelled_ctx, longer, &r);
    });
    ASSERT_TRUE(wait_until(f, [](const tigris::server::Activity &x) { return x.admitted == 2; }));

    auto timed = [](auto &&call) {
        const auto t0 = std::chrono::steady_clock::now();
        call();
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
    grpc::Status refused;
    const double refuse_ms = timed([&] {
        v1::RunResponse r;
        grpc::ClientContext c;
        refused = f.stub->Run(&c, slow, &r);
    });
    EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_LT(refuse_ms, prompt_ms);

    grpc::health::v1::HealthCheckResponse health;
    const double health_ms = timed([&] {
        auto stub = grpc::health::v1::Health::NewStub(f.ch);
        grpc::ClientContext c;
        grpc::health::v1::HealthCheckRequest req;
        EXPECT_TRUE(stub->Check(&c, req, &health).ok());
    });
    EXPECT_EQ(health.status(), grpc::health::v1::HealthCheckResponse::SERVING);
    EXPECT_LT(health_ms, prompt_ms);

    const auto t_cancel = std::chrono::steady_clock::now();
    cancelled_ctx.TryCancel();
    std::string all;
    EXPECT_TRUE(wait_for_log(f, "rpc=Run status=CANCELLED", &all)) << all;
    const double stop_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_cancel).count();
    EXPECT_LT(stop_ms, prompt_ms) << all;
    a.join();
    b.join();
    EXPECT_TRUE(kept.ok()) << kept.error_message();
    EXPECT_EQ(cancelled.error_code(), grpc::StatusCode::CANCELLED);
}

TEST(Grpc, ClientLeavingMidStreamEndsTheCall) {
    TIGRIS_REQUIRE_SHARED();
    tigris::server::Limits one;
    one.max_concurrent_runs = 1;  // the follow-up run proves the slot was given back
    Fixture f(one);
    v1::TraceRequest req;
    *req.mutable_run() = corpus_request("linebuf_conv_chain_v5.pattern");
    req.set_batch_events(1);
    {
        grpc::ClientContext ctx;
        auto reader = f.stub->Trace(&ctx, req);
        v1::TraceBatch b;
        ASSERT_TRUE(reader->Read(&b));
        ctx.TryCancel();
        while (reader->Read(&b)) {
        }
        EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
    }
    // The handler ends: CANCELLED when it noticed, OK when every batch was
    // already written into gRPC's buffers before the client left.
    std::string all;
    EXPECT_TRUE(wait_for_log(f, "rpc=Trace status=", &all)) << all;
    v1::RunResponse r;
    grpc::ClientContext c2;
    EXPECT_TRUE(f.stub->Run(&c2, req.run(), &r).ok());
}

TEST(Grpc, TraceStreamsEveryEventInBatchesThenTheResult) {
    TIGRIS_REQUIRE_SHARED();
    Fixture f;
    v1::TraceRequest req;
    *req.mutable_run() = corpus_request("linebuf_conv_chain_v5.pattern");
    req.set_batch_events(100);
    grpc::ClientContext ctx;
    auto reader = f.stub->Trace(&ctx, req);
    v1::TraceBatch b;
    size_t events = 0, messages = 0;
    bool result = false;
    std::vector<std::string> kinds;
    while (reader->Read(&b)) {
        ++messages;
        if (messages == 1) EXPECT_GT(b.tensor_names_size(), 0);
        EXPECT_LE(b.events_size(), 100);
        events += b.events_size();
        for (const auto &e : b.events()) kinds.push_back(e.kind_name());
        if (b.has_result()) {
            result = true;
            EXPECT_EQ(b.result().outputs(0),
                      str(tigris_test::read_file(tigris_test::shared_dir() / "corpus" /
                                                 "linebuf_conv_chain_v5.pattern.expected.bin")));
        }
    }
    ASSERT_TRUE(reader->Finish().ok());
    EXPECT_TRUE(result);
    tigris::host::RunOptions o;
    o.collect_trace = true;
    const auto local = tigris::host::run_plan(
        std::vector<uint8_t>(req.run().plan().begin(), req.run().plan().end()),
        std::vector<uint8_t>(req.run().inputs(0).begin(), req.run().inputs(0).end()), o);
    EXPECT_EQ(events, local.trace.size());
    EXPECT_EQ(messages, (local.trace.size() + 99) / 100);
    ASSERT_FALSE(kinds.empty());
    EXPECT_EQ(kinds.front(), tigris::host::trace_kind_name(local.trace.front().kind));
}

TEST(Grpc, ImportLowersAModelAndNamesARefusal) {
    TIGRIS_REQUIRE_SHARED();
    Fixture f;
    v1::ImportRequest req;
    req.set_model(str(tigris_test::read_file(tigris_test::shared_dir() / "models" / "micro_speech_quantized.tflite")));
    v1::ImportResponse resp;
    grpc::ClientContext ctx;
    ASSERT_TRUE(f.stub->Import(&ctx, req, &resp).ok());
    v1::RunRequest run;
    run.set_plan(resp.plan());
    run.add_inputs(str(tigris_test::read_file(tigris_test::shared_dir() / "corpus" / "oracle" /
                                              "micro_speech_quantized.mid.input.bin")));
    v1::RunResponse out;
    grpc::ClientContext ctx2;
    ASSERT_TRUE(f.stub->Run(&ctx2, run, &out).ok());
    EXPECT_EQ(out.outputs(0), str(tigris_test::read_file(tigris_test::shared_dir() / "corpus" / "oracle" /
                                                         "micro_speech_quantized.mid.expected.bin")));

    req.set_model(str(tigris_test::read_file(tigris_test::shared_dir() / "models" / "keyword_scrambled_8bit.tflite")));
    grpc::ClientContext ctx3;
    const grpc::Status st = f.stub->Import(&ctx3, req, &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("int16-tensor"), std::string::npos);
    req.set_model("garbage");
    grpc::ClientContext ctx4;
    EXPECT_EQ(f.stub->Import(&ctx4, req, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

// Export and Analyze: test_grpc_export.cpp.
// Validate and ListTargets run on emulated boards (tests/emu); here only
// what needs no QEMU: the board list, and a refused plan refused up front.
TEST(Grpc, EmulatedDeviceRpcsAnswer) {
    Fixture f;
    {
        grpc::ClientContext c;
        v1::ListTargetsResponse r;
        ASSERT_TRUE(f.stub->ListTargets(&c, v1::ListTargetsRequest{}, &r).ok());
        EXPECT_EQ(r.targets_size(), 4);
    }
    {
        grpc::ClientContext c;
        auto reader = f.stub->Validate(&c, v1::ValidateRequest{});
        v1::ValidateUpdate u;
        EXPECT_FALSE(reader->Read(&u));
        EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    }
    {
        grpc::ClientContext c;
        v1::ValidateRequest req;
        req.add_targets("m99");
        auto reader = f.stub->Validate(&c, req);
        v1::ValidateUpdate u;
        EXPECT_FALSE(reader->Read(&u));
        grpc::Status st = reader->Finish();
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
        EXPECT_NE(st.error_message().find("unknown target 'm99'"), std::string::npos);
    }
}

}  // namespace
