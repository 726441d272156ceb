// cmd_serve.cpp - `tigris serve [--grpc 127.0.0.1:50051] [--http 127.0.0.1:8080]
// [--web DIR] [limits...]`: the gRPC service and the viewer's static files,
// both on loopback by default. One log line per request on stderr; SIGINT or
// SIGTERM stops accepting calls and drains the ones in flight.
#include <malloc.h>

#include <csignal>
#include <iostream>
#include <unistd.h>

#include <absl/synchronization/mutex.h>

#include "command.hpp"
#include "tigris_server/log_writer.hpp"
#include "tigris_server/server.hpp"

namespace tigris::cli {
namespace {

struct Options {
    std::string grpc = "127.0.0.1:50051";
    std::string http = "127.0.0.1:8080";
    std::string web;  // empty: no HTTP server
    int grace_ms = 5000;
    server::Limits limits;
};

// Splits "host:port"; the port may be 0 (any free one).
bool split_host_port(const std::string &s, std::string &host, int &port) {
    const auto colon = s.rfind(':');
    if (colon == std::string::npos) return false;
    host = s.substr(0, colon);
    try {
        port = std::stoi(s.substr(colon + 1));
    } catch (...) {
        return false;
    }
    return port >= 0 && port <= 65535 && !host.empty();
}

int run(const Options &opt) {
    // glibc hands freed memory back to the kernel eagerly (heap trimming,
    // mmap for blocks over 128 KiB), and gRPC's buffers and messages come and
    // go with every call: under load that was a page fault or two per call,
    // dear on a virtual machine. Keep up to 64 MiB of free heap instead
    // (docs/service.md; the load test's RSS bounds cover it).
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    // Abseil's mutex deadlock detection (on in Debian's build) keeps a graph
    // of lock order on every gRPC lock: a debugging aid, about 0.5 % of the
    // server's CPU under load. Off in the server.
    absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
    // Request lines go out in batches (log_writer.hpp); serve's own messages
    // go through the same writer, flushed at once, so the order holds.
    server::LogWriter log_writer(STDERR_FILENO);
    const server::LogFn log = [&log_writer](const std::string &line) { log_writer.line(line); };
    // Block the stop signals before any thread starts, so only sigwait sees them.
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, nullptr);

    std::unique_ptr<server::GrpcServer> grpc;
    std::unique_ptr<server::HttpServer> http;
    try {
        grpc = server::start_grpc(opt.grpc, opt.limits, log);
        if (!opt.web.empty()) {
            std::string host;
            int port = 0;
            if (!split_host_port(opt.http, host, port)) {
                std::cerr << "error: --http wants HOST:PORT, got " << opt.http << '\n';
                return kExitUsage;
            }
            http = std::make_unique<server::HttpServer>(opt.web, host, port, log);
        }
    } catch (const std::exception &e) {
        std::cerr << "error: " << e.what() << '\n';
        return kExitUsage;
    }
    const std::string grpc_host = opt.grpc.substr(0, opt.grpc.rfind(':'));
    std::string started = "tigris serve: gRPC tigris.v1.Tigris on " + grpc_host + ":" + std::to_string(grpc->port);
    if (http)
        started += ", viewer on http://" + opt.http.substr(0, opt.http.rfind(':')) + ":" +
                   std::to_string(http->port()) + "/";
    log_writer.line(started + " (Ctrl-C to stop)");
    log_writer.flush();

    int sig = 0;
    sigwait(&stop, &sig);
    log_writer.line(std::string("tigris serve: ") + (sig == SIGINT ? "SIGINT" : "SIGTERM") +
                    ", draining calls in flight");
    log_writer.flush();
    if (http) http->stop();
    grpc->shutdown(opt.grace_ms);
    log_writer.line("tigris serve: stopped");
    log_writer.flush();
    return kExitOk;
}

const Registration reg{"serve", "Run the gRPC service (and the viewer's static files)", [](CLI::App &sub) {
                           auto opt = std::make_shared<Options>();
                           sub.add_option("--grpc", opt->grpc, "gRPC listen address HOST:PORT (port 0: any free)")
                               ->default_val(opt->grpc);
                           sub.add_option("--http", opt->http, "HTTP listen address for the viewer")
                               ->default_val(opt->http);
                           sub.add_option("--web", opt->web, "Directory of the built viewer to serve over HTTP");
                           sub.add_option("--grace-ms", opt->grace_ms, "How long shutdown waits for calls in flight")
                               ->default_val(opt->grace_ms);
                           sub.add_option("--max-message-bytes", opt->limits.max_message_bytes)
                               ->default_val(opt->limits.max_message_bytes);
                           sub.add_option("--max-arena-bytes", opt->limits.max_arena_bytes,
                                          "Fast + slow arena bytes one run may use")
                               ->default_val(opt->limits.max_arena_bytes);
                           sub.add_option("--max-trace-events", opt->limits.max_trace_events)
                               ->default_val(opt->limits.max_trace_events);
                           sub.add_option("--max-concurrent-runs", opt->limits.max_concurrent_runs,
                                          "Runs in flight; more are refused with RESOURCE_EXHAUSTED")
                               ->default_val(opt->limits.max_concurrent_runs);
                           sub.add_option("--max-parallel-runs", opt->limits.max_parallel_runs,
                                          "Of those, runs executing at once (0: hardware threads); the rest wait")
                               ->default_val(opt->limits.max_parallel_runs);
                           sub.add_option("--max-threads", opt->limits.max_threads)->default_val(opt->limits.max_threads);
                           return std::function<int()>([opt] { return run(*opt); });
                       }};

}  // namespace
}  // namespace tigris::cli
