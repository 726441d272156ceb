// grpc_load_client.hpp - many Run calls in flight from one thread: each
// simulated client issues its next call when the previous one returns, over
// a few shared channels (HTTP/2 connections), driven by a completion queue.
// This is how a CI front end fans calls out; it keeps the load generator's
// own CPU cost small and visible (it runs in a process of its own).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tigris/v1/tigris.grpc.pb.h"

namespace tigris_load {

struct LoadResult {
    int calls = 0, failures = 0, wrong = 0;
    std::vector<std::string> first_errors;  // up to 5
    std::vector<double> latency_ms;        // per call
    double wall_s = 0;
};

class LoadClient {
public:
    // `expected`: every model output concatenated, as the corpus stores it.
    LoadClient(const std::string &target, int channels, tigris::v1::RunRequest request, std::string expected);
    ~LoadClient();
    // `clients` calls in flight at once, each client making `calls_each`
    // calls in turn; returns when all have finished.
    LoadResult run(int clients, int calls_each);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tigris_load
