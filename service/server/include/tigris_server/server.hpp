// server.hpp - the gRPC service `tigris.v1.Tigris` (proto/tigris/v1/tigris.proto)
// over the host library, with its resource limits, plus the static HTTP
// server for the viewer. `tigris serve` and the tests start them from here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tigris_host/emu.hpp"

namespace grpc {
class Server;
}

namespace tigris::server {

// Every limit a request can hit; each excess answers RESOURCE_EXHAUSTED.
// The executor of Validate and ValidateMatrix jobs, for the whole process:
// a local pool unless configured (`tigris serve --fleet slurm`, docs/cluster.md).
// configure_fleet goes before start_grpc; false (error set) when the
// executor cannot be made. release_fleet cancels what is left (a Slurm
// fleet scancels its jobs), after the server has shut down.
bool configure_fleet(const host::emu::FleetConfig &config, std::string &error);
void release_fleet();
const char *fleet_kind();

struct Limits {
    int max_message_bytes = 64 << 20;            // request and response messages
    uint64_t max_arena_bytes = 512ull << 20;      // fast + slow of one run
    uint64_t max_trace_events = 4u << 20;         // events one Trace call may record
    int max_concurrent_runs = 8;                  // Run/Trace/Import/Export/Analyze in flight; more are refused, never queued
    int max_parallel_runs = 0;                    // of those, runs executing kernels at once (0 = hardware threads);
                                                  // the rest wait in arrival order (docs/service.md)
    int max_threads = 64;                         // gRPC's own thread bound (resource quota)
};

// One line per finished request: method, status code name, milliseconds, detail.
using LogFn = std::function<void(const std::string &line)>;

// What the server is doing now: calls holding an admission (max concurrent
// runs) and, of those, runs waiting for a run slot (max parallel runs).
struct Activity {
    int admitted = 0;
    size_t waiting = 0;
};

struct GrpcServer {
    std::unique_ptr<grpc::Server> server;
    int port = 0;  // the port bound (useful with port 0)
    std::shared_ptr<void> service;  // keeps the service object alive with the server
    std::function<Activity()> activity;
    ~GrpcServer();
    // Stops accepting calls and waits up to grace_ms for calls in flight.
    void shutdown(int grace_ms);
};

// How the server meets clients beyond loopback (docs/service.md, "Leaving
// loopback"). Empty: plaintext, no token, as on loopback.
struct Security {
    std::string cert_pem, key_pem;  // both set: TLS with this certificate chain and key
    std::string client_ca_pem;      // set (with TLS): clients must show a certificate this CA signed
    std::vector<std::string> tokens;  // not empty: every call but health checking needs one of them
};

// Binds address ("127.0.0.1:50051", port 0 = any free port) with health
// checking and reflection enabled. Throws std::runtime_error when it cannot bind.
std::unique_ptr<GrpcServer> start_grpc(const std::string &address, const Limits &limits, LogFn log,
                                       const Security &security = {});

// Static files of the built viewer from root over HTTP on host:port (port 0 =
// any free port); runs on its own thread until stop().
class HttpServer {
public:
    HttpServer(const std::string &root, const std::string &host, int port, LogFn log);
    ~HttpServer();
    int port() const;
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tigris::server
