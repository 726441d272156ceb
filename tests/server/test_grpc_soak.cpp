// The gRPC fuzz soak: seeded mutations of valid plans and models sent to
// every RPC of a real server on loopback. Every answer must be OK,
// INVALID_ARGUMENT, FAILED_PRECONDITION or RESOURCE_EXHAUSTED (a bad request
// is never UNKNOWN or INTERNAL); afterwards the server still answers a good
// request, and its open files and resident memory have stayed bounded.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "model_gen.hpp"
#include "plan_builder.h"
#include "shared_data.h"
#include "tigris/v1/tigris.grpc.pb.h"
#include "tigris_host/run.hpp"
#include "tigris_server/server.hpp"
extern "C" {
#include "tigris_iface.h"
}

namespace {

namespace v1 = tigris::v1;
using tigris_test::PlanBuilder;

std::string str(const std::vector<uint8_t> &b) { return std::string(b.begin(), b.end()); }

class Rng {
public:
    explicit Rng(uint64_t s) : s_(s) {}
    uint64_t next() {
        uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    size_t below(size_t n) { return n ? static_cast<size_t>(next() % n) : 0; }

private:
    uint64_t s_;
};

// A few byte changes, a truncation or an extension: mostly what a corrupted
// transfer or a hostile client sends. One in eight is left intact so the
// valid paths run too.
std::string mutate(const std::string &in, Rng &r) {
    std::string s = in;
    switch (r.below(8)) {
    case 0: return s;
    case 1: s.resize(r.below(s.size() + 1)); return s;
    case 2: s.append(r.below(64) + 1, static_cast<char>(r.next())); return s;
    default: {
        const size_t n = 1 + r.below(8);
        for (size_t k = 0; k < n && !s.empty(); ++k) {
            const size_t at = r.below(s.size());
            // Small values and all-ones bytes reach counts and offsets more often than random ones.
            const uint8_t pick[] = {0, 1, 2, 0x7f, 0x80, 0xff, static_cast<uint8_t>(r.next())};
            s[at] = static_cast<char>(pick[r.below(sizeof pick)]);
        }
        return s;
    }
    }
}

size_t open_fds() {
    size_t n = 0;
    for ([[maybe_unused]] const auto &e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
    return n;
}

size_t rss_bytes() {
    std::ifstream f("/proc/self/statm");
    size_t pages = 0, resident = 0;
    f >> pages >> resident;
    return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

bool allowed(grpc::StatusCode c) {
    return c == grpc::StatusCode::OK || c == grpc::StatusCode::INVALID_ARGUMENT ||
           c == grpc::StatusCode::FAILED_PRECONDITION || c == grpc::StatusCode::RESOURCE_EXHAUSTED;
}

TEST(GrpcSoak, MutatedPlansAndModelsOnEveryRpcGetOnlyClientCodes) {
    tigris::server::Limits lim;
    lim.max_arena_bytes = 64ull << 20;  // a mutated shape must not make the soak allocate gigabytes
    lim.max_trace_events = 1u << 16;
    auto srv = tigris::server::start_grpc("127.0.0.1:0", lim, [](const std::string &) {});
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(-1);
    auto ch = grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(srv->port), grpc::InsecureChannelCredentials(),
                                        args);
    auto stub = v1::Tigris::NewStub(ch);

    std::vector<std::string> plans = {
        str(PlanBuilder::minimal_float(11).build()), str(PlanBuilder::float_conv(11).build()),
        str(PlanBuilder::int8_conv(11).build()),     str(PlanBuilder::conv_chain(11).build()),
        str(PlanBuilder::tiled_stripe(11).build()),  str(PlanBuilder::state_add(10).build()),
        str(PlanBuilder::if_subgraphs(10).build()),  str(PlanBuilder::compressed_conv(11).build()),
    };
    // Each plan's input sizes, so that half the runs get inputs that fit and
    // reach the executor (the mutation then decides what it meets).
    std::vector<std::vector<uint32_t>> input_sizes;
    for (const std::string &p : plans) {
        const auto lp = tigris::host::LoadedPlan::load(
            tigris::host::Bytes(reinterpret_cast<const uint8_t *>(p.data()), p.size()));
        ASSERT_TRUE(lp) << "a seed plan does not load";
        std::vector<uint32_t> sizes;
        for (uint8_t k = 0; k < lp->plan().header->num_model_inputs; ++k)
            sizes.push_back(tigris_iface_bytes(&lp->plan(), lp->plan().model_inputs[k]));
        input_sizes.push_back(sizes);
    }
    std::vector<std::string> models;
    for (const char *k : {"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "MEAN", "SOFTMAX", "graph"})
        models.push_back(str(tigris::oracle::generate(k, tigris::oracle::DType::Int8, 3).model));
    if (tigris_test::shared_available())
        models.push_back(str(tigris_test::read_file(tigris_test::shared_dir() / "models" / "micro_speech_quantized.tflite")));

    // Warm up (gRPC's threads, the first allocations) before taking the baselines.
    for (int i = 0; i < 20; ++i) {
        grpc::ClientContext ctx;
        v1::InspectRequest q;
        q.set_plan(plans[static_cast<size_t>(i) % plans.size()]);
        v1::InspectResponse a;
        (void)stub->Inspect(&ctx, q, &a);
    }
    const size_t fds0 = open_fds(), rss0 = rss_bytes();

    Rng r(20261203);
    std::map<std::string, std::map<int, int>> codes;  // rpc -> code -> count
    int calls = 0;
    std::string last_plan;
    auto record = [&](const char *rpc, const grpc::Status &st, const std::string &what) {
        ++calls;
        ++codes[rpc][st.error_code()];
        EXPECT_TRUE(allowed(st.error_code()))
            << rpc << " answered " << st.error_code() << " (" << st.error_message() << ") to " << what;
        if (const char *dir = std::getenv("TIGRIS_SOAK_DUMP"); dir && !allowed(st.error_code()))
            std::ofstream(std::string(dir) + "/" + rpc + "_" + what.substr(5) + ".bin", std::ios::binary) << last_plan;
    };
    const auto deadline = [] { return std::chrono::system_clock::now() + std::chrono::seconds(60); };
    for (int i = 0; i < 3200; ++i) {
        const size_t pick = r.below(plans.size());
        const std::string plan = mutate(plans[pick], r);
        last_plan = plan;
        const std::string model = mutate(models[r.below(models.size())], r);
        const std::string what = "call " + std::to_string(i);
        grpc::ClientContext ctx;
        ctx.set_deadline(deadline());
        switch (i % 8) {
        case 0: {
            v1::InspectRequest q;
            q.set_plan(plan);
            v1::InspectResponse a;
            record("Inspect", stub->Inspect(&ctx, q, &a), what);
            break;
        }
        case 1:
        case 2: {
            v1::RunRequest q;
            q.set_plan(plan);
            if (r.below(2)) {
                for (uint32_t n : input_sizes[pick]) q.add_inputs(std::string(n, static_cast<char>(r.next())));
            } else {
                for (size_t k = 0, n = r.below(3); k < n; ++k) q.add_inputs(std::string(r.below(512), '\0'));
            }
            if (r.below(4) == 0) q.set_fast_bytes(static_cast<uint32_t>(r.next()));
            q.set_backend(static_cast<v1::Backend>(r.below(4)));
            v1::RunResponse a;
            record("Run", stub->Run(&ctx, q, &a), what);
            break;
        }
        case 3: {
            v1::TraceRequest q;
            q.mutable_run()->set_plan(plan);
            for (uint32_t n : input_sizes[pick]) q.mutable_run()->add_inputs(std::string(n, '\0'));
            q.set_batch_events(static_cast<uint32_t>(r.below(2000)));
            auto rd = stub->Trace(&ctx, q);
            v1::TraceBatch b;
            while (rd->Read(&b)) {
            }
            record("Trace", rd->Finish(), what);
            break;
        }
        case 4: {
            if ((i / 8) % 2) {  // every other round: Compile, on the same mutated models
                v1::CompileRequest q;
                q.set_model(model);
                q.set_fast_budget(static_cast<uint32_t>(r.below(4) == 0 ? 0 : r.next() % 100000));
                q.set_slow_budget(r.below(4) == 0 ? r.next() % 100000 : 0);
                q.set_lz4(r.below(4) == 0);
                q.set_xip(r.below(8) == 0);
                q.set_analyze(r.below(16) == 0);
                v1::CompileResponse a;
                record("Compile", stub->Compile(&ctx, q, &a), what);
                break;
            }
            v1::ImportRequest q;
            q.set_model(model);
            q.set_schema(static_cast<uint32_t>(r.below(14)));
            q.set_fast_budget(static_cast<uint32_t>(r.below(3) == 0 ? r.next() % 100000 : 0));
            q.set_lz4(r.below(4) == 0);
            q.set_xip(r.below(4) == 0);
            v1::ImportResponse a;
            record("Import", stub->Import(&ctx, q, &a), what);
            break;
        }
        case 5: {
            v1::ExportRequest q;
            q.set_model(model);
            q.set_arena_budget(static_cast<uint32_t>(r.below(200000)));
            const char *targets[] = {"", "arm-none-eabi", "ilp32", "lp64", "no-such-target"};
            q.set_target(targets[r.below(5)]);
            v1::ExportResponse a;
            record("Export", stub->Export(&ctx, q, &a), what);
            break;
        }
        case 6: {
            v1::AnalyzeRequest q;
            q.set_model(model);
            v1::AnalyzeResponse a;
            record("Analyze", stub->Analyze(&ctx, q, &a), what);
            break;
        }
        default: {
            // Validate runs QEMU for a plan that loads: only plans the
            // mutation broke (the intact ones go to ListTargets instead).
            if (plan == plans[pick]) {
                v1::ListTargetsRequest q;
                v1::ListTargetsResponse a;
                record("ListTargets", stub->ListTargets(&ctx, q, &a), what);
                break;
            }
            if (i % 16 == 7) {
                v1::ValidateRequest q;
                q.set_plan(plan);
                q.add_targets(r.below(2) ? "no-such-board" : "");
                auto rd = stub->Validate(&ctx, q);
                v1::ValidateUpdate u;
                while (rd->Read(&u)) {
                }
                record("Validate", rd->Finish(), what);
                break;
            }
            // The matrix: the broken plan among intact ones is refused
            // before anything runs.
            v1::ValidateMatrixRequest q;
            for (size_t k = 0, n = r.below(3); k < n; ++k) q.add_plans()->set_plan(plans[r.below(plans.size())]);
            q.add_plans()->set_plan(plan);
            q.add_targets(r.below(2) ? "no-such-board" : "");
            if (r.below(4) == 0) q.add_backends(r.below(2) ? "accel" : "no-such-backend");
            auto rd = stub->ValidateMatrix(&ctx, q);
            v1::ValidateUpdate u;
            while (rd->Read(&u)) {
            }
            record("ValidateMatrix", rd->Finish(), what);
            break;
        }
        }
    }
    EXPECT_GE(calls, 3000);
    for (const auto &[rpc, by_code] : codes) {
        std::string line = "[ soak ] " + rpc + ":";
        for (const auto &[c, n] : by_code) line += " code " + std::to_string(c) + " x" + std::to_string(n);
        std::printf("%s\n", line.c_str());
    }
    for (const char *rpc :
         {"Inspect", "Run", "Trace", "Import", "Compile", "Export", "Analyze", "Validate", "ValidateMatrix",
          "ListTargets"})
        EXPECT_GT(codes[rpc].size(), 0u) << rpc << " was never called";

    // Still serving a good request.
    grpc::ClientContext ctx;
    v1::InspectRequest q;
    q.set_plan(plans[1]);
    v1::InspectResponse a;
    EXPECT_TRUE(stub->Inspect(&ctx, q, &a).ok());
    // Bounded: no descriptor per call, no memory per call kept.
    EXPECT_LE(open_fds(), fds0 + 16) << "open files grew from " << fds0;
    EXPECT_LE(rss_bytes(), rss0 + (size_t{96} << 20)) << "resident memory grew from " << rss0;
}

}  // namespace
