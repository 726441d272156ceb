// bench_grpc_load.cpp - load on `tigris serve` over loopback, against the
// same runs made in-process, measured in the same session:
//
//   tigris_grpc_load [--clients 200] [--calls 50] [--case linebuf_s8_conv_sig_chain_v5.pattern]
//                    [--rounds 10] [--channels 4] [--parallel 0] [--min-ratio 0.9] [--server PATH]
//
// The server is `tigris serve` in a child process; this process is the load
// generator. Each round runs its share of the in-process runs (the host
// library on a plan loaded once, one thread per core: the best the machine
// can do without the service), then its share of the Run calls: `clients`
// calls in flight at once from one completion-queue thread. Interleaving the
// two in rounds lets both see the same background load on a shared machine.
//
// Reported: failures and wrong outputs; the wall-clock rates and their ratio;
// CPU seconds per run/call of the in-process runs, the server and this
// client, and the ratios they give; p50/p99 latency; the server's threads,
// open files and resident memory when idle, after a warm-up, at the end and
// at the peak. Exits 1 when a call failed or returned wrong outputs, the
// gated ratio is below --min-ratio, a resource grew beyond its stated bound,
// or the server did not log every call or exit cleanly on SIGTERM.
// docs/service.md explains the method and records the figures.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include "grpc_load_client.hpp"
#include "grpc_load_server.hpp"
#include "shared_data.h"
#include "tigris_host/run.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using tigris_load::Usage;

double pct(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, (size_t)(p * (double)(v.size() - 1) + 0.5))];
}

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct Phase {
    int n = 0;
    double wall_s = 0, cpu_s = 0;
};

// `runs` in-process runs on `threads` threads, each with its own scratch, on
// a plan loaded once: what the service's workers do, without the service.
Phase run_in_process(const tigris::host::LoadedPlan &plan, const std::vector<uint8_t> &input, int runs, int threads,
                     std::atomic<int> &bad) {
    std::atomic<int> next{0};
    std::vector<double> cpu(threads, 0.0);
    const auto t0 = Clock::now();
    std::vector<std::thread> ts;
    for (int k = 0; k < threads; ++k)
        ts.emplace_back([&, k] {
            const double c0 = thread_cpu_seconds();
            tigris::host::RunScratch scratch;
            const tigris::host::Bytes in[] = {{input.data(), input.size()}};
            while (next.fetch_add(1) < runs)
                if (!tigris::host::run_loaded(plan, in, {}, scratch).ok()) bad.fetch_add(1);
            cpu[k] = thread_cpu_seconds() - c0;
        });
    for (auto &t : ts) t.join();
    Phase p;
    p.n = runs;
    p.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
    for (double c : cpu) p.cpu_s += c;
    return p;
}

// Samples the server's threads and memory while the load runs.
class PeakWatch {
public:
    explicit PeakWatch(pid_t pid) : pid_(pid), t_([this] {
        while (!stop_) {
            const Usage u = tigris_load::usage_of(pid_);
            peak_.threads = std::max(peak_.threads, u.threads);
            peak_.fds = std::max(peak_.fds, u.fds);
            peak_.rss_kib = std::max(peak_.rss_kib, u.rss_kib);
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }) {}
    Usage stop() {
        stop_ = true;
        t_.join();
        return peak_;
    }

private:
    pid_t pid_;
    std::atomic<bool> stop_{false};
    Usage peak_;
    std::thread t_;
};

std::string str(const std::vector<uint8_t> &b) { return std::string(b.begin(), b.end()); }

}  // namespace

int main(int argc, char **argv) {
    int clients = 200, calls = 50, rounds = 10, channels = 4, parallel = 0;
    double min_ratio = 0.9;
    std::string name = "linebuf_s8_conv_sig_chain_v5.pattern";
    std::string cli = TIGRIS_CLI_PATH;
    // Stated bounds (docs/service.md). Growth from the end of the first round
    // (the server at its working size) to the end, idle both times; and the
    // end against the server as started, before any call.
    size_t max_thread_growth = 4, max_fd_growth = 0, max_rss_growth_mib = 16;
    size_t max_threads_over_idle = 8, max_rss_over_idle_mib = 64;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--clients") clients = std::stoi(v);
        else if (a == "--calls") calls = std::stoi(v);
        else if (a == "--case") name = v;
        else if (a == "--rounds") rounds = std::stoi(v);
        else if (a == "--channels") channels = std::stoi(v);
        else if (a == "--parallel") parallel = std::stoi(v);
        else if (a == "--min-ratio") min_ratio = std::stod(v);
        else if (a == "--server") cli = v;
        else if (a == "--max-rss-growth-mib") max_rss_growth_mib = std::stoul(v);
        else if (a == "--max-rss-over-idle-mib") max_rss_over_idle_mib = std::stoul(v);
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    rounds = std::max(1, std::min(rounds, calls));
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // rounds show up as they end
    if (!tigris_test::shared_available()) {
        std::printf("SKIP: shared corpus not found at %s\n", tigris_test::shared_dir().c_str());
        return 0;
    }
    const auto dir = tigris_test::shared_dir() / "corpus";
    const auto plan = tigris_test::read_file(dir / (name + ".tgrs"));
    const auto input = tigris_test::read_file(dir / (name + ".input.bin"));
    const auto want = tigris_test::read_file(dir / (name + ".expected.bin"));
    tigris::host::RunResult refusal;
    const auto loaded = tigris::host::LoadedPlan::load(plan, &refusal);
    if (!loaded) {
        std::printf("FAIL: %s\n", refusal.error.c_str());
        return 1;
    }
    {
        tigris::host::RunScratch s;
        const tigris::host::Bytes in[] = {{input.data(), input.size()}};
        const auto r = tigris::host::run_loaded(*loaded, in, {}, s);
        if (!r.ok() || r.outputs != want) {
            std::printf("FAIL: the in-process run does not give the expected outputs (%s)\n", r.error.c_str());
            return 1;
        }
    }
    const int cores = (int)std::max(1u, std::thread::hardware_concurrency());

    std::vector<std::string> serve_args = {"--max-concurrent-runs", std::to_string(clients), "--max-threads",
                                           std::to_string(clients + 32)};
    if (parallel > 0) serve_args.insert(serve_args.end(), {"--max-parallel-runs", std::to_string(parallel)});
    tigris_load::ServeProcess srv(cli, serve_args);
    const pid_t pid = srv.pid();
    const Usage idle = tigris_load::usage_of(pid);

    tigris::v1::RunRequest req;
    req.set_plan(str(plan));
    req.add_inputs(str(input));
    tigris_load::LoadClient client("127.0.0.1:" + std::to_string(srv.port()), channels, req, str(want));

    // Warm-up: one call per client, so the server's threads, connections and
    // caches exist before the "before" figures are taken.
    const tigris_load::LoadResult warm_calls = client.run(clients, 1);
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const Usage warm = tigris_load::usage_of(pid);

    Usage base = warm;  // replaced by the figures after round 1 when there are more rounds
    std::atomic<int> bad_local{0};
    Phase local, served;
    double server_cpu = 0, client_cpu = 0, round_min = 1e9, round_max = 0;
    tigris_load::LoadResult load;
    load.failures = warm_calls.failures;
    load.wrong = warm_calls.wrong;
    load.first_errors = warm_calls.first_errors;
    std::printf("grpc load: %s, %d clients x %d calls, %d rounds, %d channels, server pid %d\n", name.c_str(), clients,
                calls, rounds, channels, (int)pid);
    PeakWatch watch(pid);
    for (int r = 0; r < rounds; ++r) {
        const int calls_r = calls / rounds + (r < calls % rounds ? 1 : 0);
        const Phase l = run_in_process(*loaded, input, clients * calls_r, cores, bad_local);
        const double s0 = tigris_load::cpu_seconds_of(pid), c0 = tigris_load::own_cpu_seconds();
        tigris_load::LoadResult lr = client.run(clients, calls_r);
        const double s1 = tigris_load::cpu_seconds_of(pid), c1 = tigris_load::own_cpu_seconds();
        local.n += l.n;
        local.wall_s += l.wall_s;
        local.cpu_s += l.cpu_s;
        served.n += lr.calls;
        served.wall_s += lr.wall_s;
        server_cpu += s1 - s0;
        client_cpu += c1 - c0;
        const double round_ratio = (l.cpu_s / l.n) / ((s1 - s0) / lr.calls);
        round_min = std::min(round_min, round_ratio);
        round_max = std::max(round_max, round_ratio);
        load.failures += lr.failures;
        load.wrong += lr.wrong;
        for (auto &e : lr.first_errors)
            if (load.first_errors.size() < 5) load.first_errors.push_back(e);
        load.latency_ms.insert(load.latency_ms.end(), lr.latency_ms.begin(), lr.latency_ms.end());
        if (r == 0 && rounds > 1) {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            base = tigris_load::usage_of(pid);
        }
        std::printf("  round %d: in-process %.1f runs/s (%.3f ms CPU/run), served %.1f calls/s (server %.3f, client "
                    "%.3f ms CPU/call): wall ratio %.3f, CPU ratio %.3f; server rss %zu KiB\n",
                    r + 1, l.n / l.wall_s, 1e3 * l.cpu_s / l.n, lr.calls / lr.wall_s, 1e3 * (s1 - s0) / lr.calls,
                    1e3 * (c1 - c0) / lr.calls, (lr.calls / lr.wall_s) / (l.n / l.wall_s),
                    (l.cpu_s / l.n) / ((s1 - s0) / lr.calls), tigris_load::usage_of(pid).rss_kib);
    }
    const Usage peak = watch.stop();
    std::this_thread::sleep_for(std::chrono::seconds(2));  // let gRPC retire idle threads
    const Usage end = tigris_load::usage_of(pid);
    const std::string log_before_stop = srv.log();
    const int exit_status = srv.stop();

    // The server logs each Run's worker CPU (run_cpu_ms): the plan lookup,
    // run and outputs. The rest of its CPU per call is gRPC's.
    size_t ok_lines = 0;
    double run_cpu_ms = 0;
    for (size_t at = 0; (at = log_before_stop.find("rpc=Run status=OK", at)) != std::string::npos; ++at) {
        ++ok_lines;
        const size_t eol = log_before_stop.find('\n', at);
        const size_t k = log_before_stop.find("run_cpu_ms=", at);
        if (k != std::string::npos && k < eol) run_cpu_ms += std::atof(log_before_stop.c_str() + k + 11);
    }
    const size_t calls_made = (size_t)warm_calls.calls + served.n;

    const double local_rate = local.n / local.wall_s, rate = served.n / served.wall_s;
    const double local_cpu = local.cpu_s / local.n, srv_cpu = server_cpu / served.n, cl_cpu = client_cpu / served.n;
    const double wall_ratio = rate / local_rate;
    const double cpu_ratio = local_cpu / srv_cpu;             // the service on the cores it has
    const double cpu_ratio_all = local_cpu / (srv_cpu + cl_cpu);  // and the load generator on them too
    std::printf("  calls %d (+%d warm-up), failures %d, wrong outputs %d, in-process failures %d\n", served.n,
                warm_calls.calls, load.failures, load.wrong, bad_local.load());
    for (const auto &e : load.first_errors) std::printf("    error: %s\n", e.c_str());
    std::printf("  wall: served %.1f calls/s vs in-process %.1f runs/s (%d threads): ratio %.3f\n", rate, local_rate,
                cores, wall_ratio);
    // Per call over every logged call (warm-up included, which the server's
    // CPU figure is not): close enough to split the server's CPU.
    const double run_cpu = run_cpu_ms / 1e3 / (double)std::max<size_t>(1, ok_lines);
    std::printf("  CPU per call: in-process %.3f ms, server %.3f ms (worker's run %.3f ms, the rest %.3f ms), client "
                "%.3f ms\n",
                1e3 * local_cpu, 1e3 * srv_cpu, 1e3 * run_cpu, 1e3 * (srv_cpu - run_cpu), 1e3 * cl_cpu);
    std::printf("  CPU ratio: service %.3f (gated, min %.2f; rounds %.3f to %.3f); service + load generator %.3f\n",
                cpu_ratio, min_ratio, round_min, round_max, cpu_ratio_all);
    std::printf("  latency p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", pct(load.latency_ms, 0.50),
                pct(load.latency_ms, 0.99), pct(load.latency_ms, 1.0));
    auto line = [](const char *what, const Usage &u) {
        std::printf("  server %-5s threads %3zu, open files %3zu, rss %7zu KiB\n", what, u.threads, u.fds, u.rss_kib);
    };
    line("idle", idle);
    line("warm", warm);
    line(rounds > 1 ? "base" : "base=warm", base);
    line("end", end);
    line("peak", peak);
    // Open files: the server's own plus one per client connection.
    const bool threads_ok = end.threads <= base.threads + max_thread_growth &&
                            end.threads <= idle.threads + max_threads_over_idle;
    const bool fds_ok = end.fds <= base.fds + max_fd_growth && end.fds <= idle.fds + (size_t)channels;
    const bool rss_ok = end.rss_kib <= base.rss_kib + max_rss_growth_mib * 1024 &&
                        end.rss_kib <= idle.rss_kib + max_rss_over_idle_mib * 1024;
    std::printf("  bounds base -> end: threads +%zu, open files +%zu, rss +%zu MiB; idle -> end: threads +%zu, open "
                "files +%d, rss +%zu MiB: threads %s, open files %s, rss %s\n",
                max_thread_growth, max_fd_growth, max_rss_growth_mib, max_threads_over_idle, channels,
                max_rss_over_idle_mib, threads_ok ? "ok" : "EXCEEDED", fds_ok ? "ok" : "EXCEEDED",
                rss_ok ? "ok" : "EXCEEDED");
    std::printf("  server log: %zu lines rpc=Run status=OK for %zu calls; exit status after SIGTERM %d\n", ok_lines,
                calls_made, exit_status);
    const bool ok = load.failures == 0 && load.wrong == 0 && bad_local == 0 && cpu_ratio >= min_ratio && threads_ok &&
                    fds_ok && rss_ok && ok_lines == calls_made && exit_status == 0;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
