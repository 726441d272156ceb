// tigris_client.cpp - call a running `tigris serve` from C++:
//
//   tigris_example_client 127.0.0.1:50051 PLAN.tgrs [INPUT.bin]
//
// Inspects the plan, runs it on INPUT.bin (or zeros of the right size) and
// prints the output sizes and fast-arena peak. Links tigris_proto only.
#include <grpcpp/grpcpp.h>

#include <fstream>
#include <iostream>
#include <iterator>

#include "tigris/v1/tigris.grpc.pb.h"

static std::string slurp(const char *path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

int main(int argc, char **argv) {
    if (argc < 3) {
        std::cerr << "usage: " << argv[0] << " HOST:PORT PLAN.tgrs [INPUT.bin]\n";
        return 1;
    }
    auto stub = tigris::v1::Tigris::NewStub(grpc::CreateChannel(argv[1], grpc::InsecureChannelCredentials()));
    tigris::v1::InspectRequest ireq;
    ireq.set_plan(slurp(argv[2]));
    tigris::v1::InspectResponse info;
    grpc::ClientContext ictx;
    grpc::Status st = stub->Inspect(&ictx, ireq, &info);
    if (!st.ok()) {
        std::cerr << "inspect: " << st.error_message() << '\n';
        return 2;
    }
    std::cout << "plan " << info.model_name() << ": schema " << info.schema() << ", " << info.num_ops() << " ops, fast arena "
              << info.fast_arena_required() << " bytes\n";
    tigris::v1::RunRequest req;
    req.set_plan(ireq.plan());
    if (argc > 3)
        req.add_inputs(slurp(argv[3]));
    else
        for (const auto &t : info.inputs()) req.add_inputs(std::string(t.declared_bytes(), '\0'));
    tigris::v1::RunResponse resp;
    grpc::ClientContext ctx;
    st = stub->Run(&ctx, req, &resp);
    if (!st.ok()) {
        std::cerr << "run: " << st.error_message() << '\n';
        return 2;
    }
    std::cout << "outputs:";
    for (const auto &o : resp.outputs()) std::cout << ' ' << o.size() << " B";
    std::cout << "; fast peak " << resp.fast_peak() << " of " << resp.fast_required() << "; " << resp.run_ms() << " ms\n";
    return 0;
}
