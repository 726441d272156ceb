// bench_grpc_load.cpp - load on `tigris serve`'s service over loopback:
//
//   tigris_grpc_load [--clients 200] [--calls 50] [--case linebuf_s8_conv_sig_chain_v5.pattern]
//
// Starts the service in this process on a free loopback port, measures the
// in-process rate of the same run (host library, one thread per core), then
// lets N clients (one channel each, one thread each) make M Run calls each.
// Prints failures, throughput against the in-process rate, p50/p99 latency,
// and the process's threads, open files and resident memory before and after
// (channels closed). Exits 1 when a call failed, the ratio is below --min-ratio
// (default 0.9) or a resource grew beyond its stated bound.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "shared_data.h"
#include "tigris/v1/tigris.grpc.pb.h"
#include "tigris_host/run.hpp"
#include "tigris_server/server.hpp"

namespace {

using Clock = std::chrono::steady_clock;

size_t count_dir(const char *path) {
    size_t n = 0;
    if (DIR *d = opendir(path)) {
        while (dirent *e = readdir(d))
            if (e->d_name[0] != '.') ++n;
        closedir(d);
    }
    return n;
}

size_t rss_kib() {
    std::ifstream f("/proc/self/statm");
    size_t pages = 0, resident = 0;
    f >> pages >> resident;
    return resident * (size_t)sysconf(_SC_PAGESIZE) / 1024;
}

struct Usage {
    size_t threads, fds, rss;
};
Usage usage() { return {count_dir("/proc/self/task"), count_dir("/proc/self/fd"), rss_kib()}; }

double pct(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, (size_t)(p * (double)(v.size() - 1) + 0.5))];
}

}  // namespace

int main(int argc, char **argv) {
    int clients = 200, calls = 50;
    double min_ratio = 0.9;
    std::string name = "linebuf_s8_conv_sig_chain_v5.pattern";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--clients") clients = std::atoi(argv[i + 1]);
        else if (a == "--calls") calls = std::atoi(argv[i + 1]);
        else if (a == "--case") name = argv[i + 1];
        else if (a == "--min-ratio") min_ratio = std::atof(argv[i + 1]);
    }
    if (!tigris_test::shared_available()) {
        std::printf("SKIP: shared corpus not found at %s\n", tigris_test::shared_dir().c_str());
        return 0;
    }
    const auto plan = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (name + ".tgrs"));
    const auto input = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (name + ".input.bin"));
    const auto want = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (name + ".expected.bin"));

    // In-process rate: the host library on every core, as many runs as the load.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const int total = clients * calls;
    std::atomic<int> next{0};
    auto t0 = Clock::now();
    {
        std::vector<std::thread> ts;
        for (unsigned c = 0; c < cores; ++c)
            ts.emplace_back([&] {
                while (next.fetch_add(1) < total) tigris::host::run_plan(plan, input);
            });
        for (auto &t : ts) t.join();
    }
    const double local_rate = total / std::chrono::duration<double>(Clock::now() - t0).count();

    tigris::server::Limits lim;
    lim.max_concurrent_runs = clients;  // this test measures throughput, not refusals
    lim.max_threads = 4 * clients;
    auto srv = tigris::server::start_grpc("127.0.0.1:0", lim, nullptr);
    const std::string target = "127.0.0.1:" + std::to_string(srv->port);
    const Usage before = usage();

    tigris::v1::RunRequest req;
    req.set_plan(std::string(plan.begin(), plan.end()));
    req.add_inputs(std::string(input.begin(), input.end()));
    const std::string expected(want.begin(), want.end());
    std::atomic<int> failures{0}, wrong{0};
    std::vector<std::vector<double>> lat(clients);
    t0 = Clock::now();
    {
        std::vector<std::thread> ts;
        for (int c = 0; c < clients; ++c)
            ts.emplace_back([&, c] {
                auto stub = tigris::v1::Tigris::NewStub(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
                for (int k = 0; k < calls; ++k) {
                    tigris::v1::RunResponse resp;
                    grpc::ClientContext ctx;
                    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
                    const auto s = Clock::now();
                    const grpc::Status st = stub->Run(&ctx, req, &resp);
                    lat[c].push_back(std::chrono::duration<double, std::milli>(Clock::now() - s).count());
                    if (!st.ok()) {
                        if (failures.fetch_add(1) < 5) std::fprintf(stderr, "call failed: %s\n", st.error_message().c_str());
                    } else if (resp.outputs_size() != 1 || resp.outputs(0) != expected) {
                        wrong.fetch_add(1);
                    }
                }
            });
        for (auto &t : ts) t.join();
    }
    const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    // Let gRPC retire idle threads and closed connections.
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const Usage after = usage();
    srv->shutdown(1000);

    std::vector<double> all;
    for (auto &v : lat) all.insert(all.end(), v.begin(), v.end());
    const double rate = total / secs, ratio = rate / local_rate;
    // Stated bounds: threads back within the service's quota of the idle
    // count, at most 16 more open files, at most 64 MiB more resident memory.
    const bool threads_ok = after.threads <= before.threads + (size_t)lim.max_threads;
    const bool fds_ok = after.fds <= before.fds + 16;
    const bool rss_ok = after.rss <= before.rss + 64 * 1024;
    std::printf("grpc load: %s, %d clients x %d calls = %d Run calls in %.2f s\n", name.c_str(), clients, calls, total, secs);
    std::printf("  failures %d, wrong outputs %d\n", failures.load(), wrong.load());
    std::printf("  throughput %.1f calls/s vs in-process %.1f runs/s (%u threads): ratio %.3f (min %.2f)\n", rate,
                local_rate, cores, ratio, min_ratio);
    std::printf("  latency p50 %.2f ms, p99 %.2f ms\n", pct(all, 0.50), pct(all, 0.99));
    std::printf("  threads %zu -> %zu, open files %zu -> %zu, rss %zu -> %zu KiB\n", before.threads, after.threads,
                before.fds, after.fds, before.rss, after.rss);
    const bool ok = failures == 0 && wrong == 0 && ratio >= min_ratio && threads_ok && fds_ok && rss_ok;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
