// grpc_load_client.cpp - see grpc_load_client.hpp.
#include "grpc_load_client.hpp"

#include <grpcpp/grpcpp.h>

#include <chrono>

namespace tigris_load {

namespace v1 = tigris::v1;
using Clock = std::chrono::steady_clock;

struct LoadClient::Impl {
    std::vector<std::shared_ptr<grpc::Channel>> channels;
    std::vector<std::unique_ptr<v1::Tigris::Stub>> stubs;
    v1::RunRequest request;
    std::string expected;
};

namespace {

// One client's call in flight; reused for its next call.
struct Call {
    int client = 0, left = 0;
    std::unique_ptr<grpc::ClientContext> ctx;
    v1::RunResponse resp;
    grpc::Status status;
    std::unique_ptr<grpc::ClientAsyncResponseReader<v1::RunResponse>> rpc;
    Clock::time_point t0;
};

bool outputs_match(const v1::RunResponse &r, const std::string &expected) {
    size_t at = 0;
    for (const std::string &o : r.outputs()) {
        if (expected.compare(at, o.size(), o) != 0) return false;
        at += o.size();
    }
    return at == expected.size();
}

}  // namespace

LoadClient::LoadClient(const std::string &target, int channels, v1::RunRequest request, std::string expected)
    : impl_(std::make_unique<Impl>()) {
    impl_->request = std::move(request);
    impl_->expected = std::move(expected);
    for (int i = 0; i < channels; ++i) {
        grpc::ChannelArguments args;
        args.SetMaxReceiveMessageSize(-1);
        // A connection of its own per channel (channels with equal arguments
        // would share one).
        args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
        impl_->channels.push_back(grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args));
        impl_->stubs.push_back(v1::Tigris::NewStub(impl_->channels.back()));
    }
}

LoadClient::~LoadClient() = default;

LoadResult LoadClient::run(int clients, int calls_each) {
    LoadResult out;
    if (clients <= 0 || calls_each <= 0) return out;
    grpc::CompletionQueue cq;
    std::vector<Call> calls(clients);
    auto start = [&](Call &c) {
        c.ctx = std::make_unique<grpc::ClientContext>();
        c.ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(300));
        c.resp.Clear();
        c.t0 = Clock::now();
        c.rpc = impl_->stubs[c.client % impl_->stubs.size()]->AsyncRun(c.ctx.get(), impl_->request, &cq);
        c.rpc->Finish(&c.resp, &c.status, &c);
    };
    const auto t0 = Clock::now();
    for (int i = 0; i < clients; ++i) {
        calls[i].client = i;
        calls[i].left = calls_each;
        start(calls[i]);
    }
    out.latency_ms.reserve((size_t)clients * calls_each);
    int active = clients;
    void *tag = nullptr;
    bool ok = false;
    while (active > 0 && cq.Next(&tag, &ok)) {
        Call &c = *static_cast<Call *>(tag);
        out.latency_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - c.t0).count());
        ++out.calls;
        if (!ok || !c.status.ok()) {
            ++out.failures;
            if (out.first_errors.size() < 5)
                out.first_errors.push_back(std::to_string(c.status.error_code()) + ": " + c.status.error_message());
        } else if (!outputs_match(c.resp, impl_->expected)) {
            ++out.wrong;
        }
        if (--c.left > 0) start(c);
        else --active;
    }
    out.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
    cq.Shutdown();
    while (cq.Next(&tag, &ok)) {
    }
    return out;
}

}  // namespace tigris_load
