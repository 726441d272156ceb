// tigris_client.cpp - call a running `tigris serve` from C++:
//
//   tigris_example_client [--tls-ca CA.pem] [--token TOKEN] 127.0.0.1:50051 PLAN.tgrs [INPUT.bin]
//
// Inspects the plan, runs it on INPUT.bin (or zeros of the right size) and
// prints the output sizes and fast-arena peak. --tls-ca: TLS, trusting the
// server's certificate if this CA signed it; --token: the bearer token of a
// server started with --token-file (docs/service.md). Links tigris_proto only.
#include <grpcpp/grpcpp.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

#include "tigris/v1/tigris.grpc.pb.h"

static std::string slurp(const char *path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

int main(int argc, char **argv) {
    std::string tls_ca, token;
    std::vector<char *> pos{argv[0]};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--tls-ca" || a == "--token") && i + 1 < argc)
            (a == "--tls-ca" ? tls_ca : token) = argv[++i];
        else
            pos.push_back(argv[i]);
    }
    argc = static_cast<int>(pos.size());
    argv = pos.data();
    if (argc < 3) {
        std::cerr << "usage: " << argv[0] << " [--tls-ca CA.pem] [--token TOKEN] HOST:PORT PLAN.tgrs [INPUT.bin]\n";
        return 1;
    }
    std::shared_ptr<grpc::ChannelCredentials> creds = grpc::InsecureChannelCredentials();
    if (!tls_ca.empty()) {
        grpc::SslCredentialsOptions o;
        o.pem_root_certs = slurp(tls_ca.c_str());
        creds = grpc::SslCredentials(o);
    }
    auto stub = tigris::v1::Tigris::NewStub(grpc::CreateChannel(argv[1], creds));
    tigris::v1::InspectRequest ireq;
    ireq.set_plan(slurp(argv[2]));
    tigris::v1::InspectResponse info;
    grpc::ClientContext ictx;
    // Per-call metadata rather than gRPC's call credentials, which are never
    // sent over plaintext (a token on a loopback server without TLS).
    if (!token.empty()) ictx.AddMetadata("authorization", "Bearer " + token);
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
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
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
