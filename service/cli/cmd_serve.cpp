// cmd_serve.cpp - `tigris serve [--grpc 127.0.0.1:50051] [--http 127.0.0.1:8080]
// [--web DIR] [limits...] [--tls-cert F --tls-key F [--tls-client-ca F]]
// [--token-file F] [--insecure]`: the gRPC service and the viewer's static
// files, both on loopback by default; plaintext gRPC off loopback only with
// --insecure. One log line per request on stderr; SIGINT or
// SIGTERM stops accepting calls and drains the ones in flight.
#include <malloc.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include <absl/synchronization/mutex.h>

#include "command.hpp"
#include "fleet_options.hpp"
#include "tigris_server/log_writer.hpp"
#include "tigris_server/security.hpp"
#include "tigris_server/server.hpp"

namespace tigris::cli {
namespace {

struct Options {
    std::string grpc = "127.0.0.1:50051";
    std::string http = "127.0.0.1:8080";
    std::string web;  // empty: no HTTP server, unless --http was given (then the viewer is looked for)
    bool http_given = false;
    int grace_ms = 5000;
    server::Limits limits;
    std::string tls_cert, tls_key, tls_client_ca, token_file;  // docs/service.md, "Leaving loopback"
    bool insecure = false;
    FleetCliOptions fleet;    // docs/cluster.md
    unsigned emu_timeout_ms = 60000;
};

// Where the built viewer may be when `--http` is given without `--web`:
// $TIGRIS_WEB_DIR alone when it is set; otherwise, next to this executable,
// an installed tree (<prefix>/share/tigris/web beside <prefix>/bin) and the
// build trees of the presets (build/host/service/cli/tigris beside
// build/wasm/web, the viewer the wasm preset builds).
std::vector<std::filesystem::path> viewer_candidates() {
    if (const char *env = std::getenv("TIGRIS_WEB_DIR"); env && *env) return {env};
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    const std::filesystem::path dir = exe.parent_path();
    return {(dir / "../share/tigris/web").lexically_normal(), (dir / "../../../wasm/web").lexically_normal(),
            (dir / "../../../../wasm/web").lexically_normal()};
}

// The first candidate holding the viewer's index.html; empty (and `looked`
// filled with every place tried) when there is none.
std::string find_viewer(std::string &looked) {
    for (const auto &c : viewer_candidates()) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(c / "index.html", ec)) return c.string();
        looked += (looked.empty() ? "" : ", ") + c.string();
    }
    return {};
}

// A file's whole content; false (with a message on stderr) when it cannot be read.
bool read_file(const std::string &path, const char *what, std::string &out) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || in.bad()) {
        std::cerr << "error: cannot read " << what << " " << path << ": " << std::strerror(errno) << '\n';
        return false;
    }
    out = text.str();
    return true;
}

// The TLS and token settings from their files, checked before anything binds.
int load_security(const Options &opt, server::Security &sec) {
    if (opt.tls_cert.empty() != opt.tls_key.empty()) {
        std::cerr << "error: --tls-cert and --tls-key go together\n";
        return kExitUsage;
    }
    if (!opt.tls_client_ca.empty() && opt.tls_cert.empty()) {
        std::cerr << "error: --tls-client-ca needs --tls-cert and --tls-key\n";
        return kExitUsage;
    }
    if (!opt.tls_cert.empty() && (!read_file(opt.tls_cert, "TLS certificate", sec.cert_pem) ||
                                  !read_file(opt.tls_key, "TLS key", sec.key_pem)))
        return kExitUsage;
    if (!opt.tls_client_ca.empty() && !read_file(opt.tls_client_ca, "client CA", sec.client_ca_pem)) return kExitUsage;
    if (!opt.token_file.empty()) {
        std::string text;
        if (!read_file(opt.token_file, "token file", text)) return kExitUsage;
        sec.tokens = server::parse_tokens(text);
        if (sec.tokens.empty()) {
            // An empty list would let every call through: refuse rather than guess.
            std::cerr << "error: token file " << opt.token_file << " has no tokens\n";
            return kExitUsage;
        }
    }
    // Plaintext off this machine exposes plans, results and tokens to the
    // network; only an explicit --insecure allows it.
    if (sec.cert_pem.empty() && !opt.insecure && !server::is_local_address(opt.grpc)) {
        std::cerr << "error: refusing plaintext gRPC on non-loopback address " << opt.grpc
                  << "; give --tls-cert and --tls-key, or --insecure to allow it\n";
        return kExitUsage;
    }
    return kExitOk;
}

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
    server::Security security;
    if (const int rc = load_security(opt, security); rc != kExitOk) return rc;
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

    // The emulated-device fleet (local pool, or a Slurm cluster), before any call.
    if (opt.fleet.fleet != "local" || opt.emu_timeout_ms != 60000) {
        host::emu::FleetConfig fc;
        fc.limits.timeout = std::chrono::milliseconds(opt.emu_timeout_ms);
        apply_fleet_options(opt.fleet, fc);
        std::string err;
        if (!server::configure_fleet(fc, err)) {
            std::cerr << "error: " << err << '\n';
            return kExitUsage;
        }
    }

    std::string web = opt.web;
    if (web.empty() && opt.http_given) {
        std::string looked;
        web = find_viewer(looked);
        if (web.empty()) {
            std::cerr << "error: --http " << opt.http << " without --web: no built viewer (index.html) found; looked in "
                      << (looked.empty() ? "(nowhere: the executable's path is unknown)" : looked)
                      << ". Build it (cmake --preset wasm && cmake --build build/wasm) or pass --web DIR\n";
            return kExitUsage;
        }
    }

    std::unique_ptr<server::GrpcServer> grpc;
    std::unique_ptr<server::HttpServer> http;
    try {
        grpc = server::start_grpc(opt.grpc, opt.limits, log, security);
        if (!web.empty()) {
            std::string host;
            int port = 0;
            if (!split_host_port(opt.http, host, port)) {
                std::cerr << "error: --http wants HOST:PORT, got " << opt.http << '\n';
                return kExitUsage;
            }
            http = std::make_unique<server::HttpServer>(web, host, port, log);
        }
    } catch (const std::exception &e) {
        std::cerr << "error: " << e.what() << '\n';
        return kExitUsage;
    }
    const std::string grpc_host = opt.grpc.substr(0, opt.grpc.rfind(':'));
    std::string started = "tigris serve: gRPC tigris.v1.Tigris on " + grpc_host + ":" + std::to_string(grpc->port);
    started += security.cert_pem.empty() ? " (plaintext" : security.client_ca_pem.empty() ? " (TLS" : " (TLS, client certificates";
    started += security.tokens.empty() ? ")" : ", bearer token)";
    if (opt.fleet.fleet != "local") started += ", emulated devices on Slurm";
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
    server::release_fleet();
    log_writer.line("tigris serve: stopped");
    log_writer.flush();
    return kExitOk;
}

const Registration reg{"serve", "Run the gRPC service (and the viewer's static files)", [](CLI::App &sub) {
                           auto opt = std::make_shared<Options>();
                           sub.add_option("--grpc", opt->grpc, "gRPC listen address HOST:PORT (port 0: any free)")
                               ->default_val(opt->grpc);
                           CLI::Option *http_opt =
                               sub.add_option("--http", opt->http,
                                              "HTTP listen address for the viewer (without --web: the built "
                                              "viewer is looked for, $TIGRIS_WEB_DIR first)")
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
                           sub.add_option("--tls-cert", opt->tls_cert, "PEM certificate chain: serve gRPC over TLS");
                           sub.add_option("--tls-key", opt->tls_key, "PEM private key of --tls-cert");
                           sub.add_option("--tls-client-ca", opt->tls_client_ca,
                                          "PEM CA: require client certificates it signed");
                           sub.add_option("--token-file", opt->token_file,
                                          "Bearer tokens, one a line ('#' comments): every call but health needs one");
                           sub.add_flag("--insecure", opt->insecure, "Allow plaintext gRPC on a non-loopback address");
                           add_fleet_options(sub, opt->fleet);
                           sub.add_option("--emu-timeout-ms", opt->emu_timeout_ms,
                                          "Timeout of each emulated-device job (Validate, ValidateMatrix)")
                               ->check(CLI::Range(100u, 3600000u))
                               ->default_val(opt->emu_timeout_ms);
                           return std::function<int()>([opt, http_opt] {
                               opt->http_given = http_opt->count() > 0;
                               return run(*opt);
                           });
                       }};

}  // namespace
}  // namespace tigris::cli
