// test_codegen_grpc.cpp - the Codegen RPC over a real loopback connection:
// the library's files, its defaults, and INVALID_ARGUMENT for every refusal.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include "shared_data.h"
#include "tigris/v1/tigris.grpc.pb.h"
#include "tigris_codegen/codegen.hpp"
#include "tigris_server/server.hpp"

namespace {

namespace v1 = tigris::v1;

struct Fixture {
    std::unique_ptr<tigris::server::GrpcServer> srv;
    std::unique_ptr<v1::Tigris::Stub> stub;
    Fixture() {
        srv = tigris::server::start_grpc("127.0.0.1:0", {}, nullptr);
        stub = v1::Tigris::NewStub(
            grpc::CreateChannel("127.0.0.1:" + std::to_string(srv->port), grpc::InsecureChannelCredentials()));
    }
    grpc::Status call(const v1::CodegenRequest &req, v1::CodegenResponse *resp) {
        grpc::ClientContext c;
        return stub->Codegen(&c, req, resp);
    }
};

std::string example() {
    const auto b = tigris_test::read_file(TIGRIS_EXAMPLE_PLAN);
    return std::string(b.begin(), b.end());
}

}  // namespace

TEST(GrpcCodegen, ReturnsTheFilesTheLibraryGenerates) {
    Fixture f;
    v1::CodegenRequest req;
    req.set_plan(example());
    req.set_backend("s8");
    req.set_name("ex");
    v1::CodegenResponse resp;
    const grpc::Status st = f.call(req, &resp);
    ASSERT_TRUE(st.ok()) << st.error_message();
    tigris::codegen::Options o;
    o.name = "ex";
    const std::string &p = req.plan();
    const auto lib = tigris::codegen::generate({reinterpret_cast<const uint8_t *>(p.data()), p.size()}, o);
    ASSERT_TRUE(lib.ok());
    ASSERT_EQ(resp.files_size(), static_cast<int>(lib.files.size()));
    for (int i = 0; i < resp.files_size(); i++) {
        EXPECT_EQ(resp.files(i).name(), lib.files[i].name);
        EXPECT_EQ(resp.files(i).content(), lib.files[i].text) << lib.files[i].name;
    }
}

TEST(GrpcCodegen, EmptyBackendAndNameMeanS8AndModel) {
    Fixture f;
    v1::CodegenRequest req;
    req.set_plan(example());
    v1::CodegenResponse resp;
    ASSERT_TRUE(f.call(req, &resp).ok());
    ASSERT_GT(resp.files_size(), 0);
    EXPECT_EQ(resp.files(0).name(), "model.h");
    EXPECT_NE(resp.files(0).content().find("#define MODEL_BACKEND \"s8\""), std::string::npos);
}

TEST(GrpcCodegen, EveryRefusalIsInvalidArgument) {
    Fixture f;
    struct Case {
        std::string plan, backend, name, says;
    } cases[] = {
        {"garbage", "s8", "", "refuses this plan"},
        {"", "s8", "", "refuses this plan"},
        {example(), "arm", "", "unknown backend"},
        {example(), "s8", "no-dashes", "not a C identifier"},
        {example(), "s8", "while", "C keyword"},
        {example(), "esp-nn", "", "runs int8 plans"},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.backend + " " + c.name);
        v1::CodegenRequest req;
        req.set_plan(c.plan);
        req.set_backend(c.backend);
        req.set_name(c.name);
        v1::CodegenResponse resp;
        const grpc::Status st = f.call(req, &resp);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
        EXPECT_NE(st.error_message().find(c.says), std::string::npos) << st.error_message();
        EXPECT_EQ(resp.files_size(), 0);
    }
}
