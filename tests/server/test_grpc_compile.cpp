// Compile over a real loopback connection: the plan the library writes, the
// analysis, and a status for every bad request (never UNKNOWN or INTERNAL).
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <nlohmann/json.hpp>

#include "shared_data.h"
#include "tigris/v1/tigris.grpc.pb.h"
#include "tigris_compile/compile.hpp"
#include "tigris_server/server.hpp"

namespace {

namespace v1 = tigris::v1;

struct CompileFixture {
    std::unique_ptr<tigris::server::GrpcServer> srv;
    std::unique_ptr<v1::Tigris::Stub> stub;
    CompileFixture() {
        srv = tigris::server::start_grpc("127.0.0.1:0", {}, nullptr);
        grpc::ChannelArguments args;
        args.SetMaxReceiveMessageSize(-1);
        stub = v1::Tigris::NewStub(grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(srv->port),
                                                             grpc::InsecureChannelCredentials(), args));
    }
    grpc::Status call(const v1::CompileRequest &req, v1::CompileResponse *resp) {
        grpc::ClientContext c;
        return stub->Compile(&c, req, resp);
    }
};

std::string model(const char *name) {
    const auto b = tigris_test::read_file(tigris_test::shared_dir() / "models" / name);
    return std::string(b.begin(), b.end());
}

}  // namespace

TEST(GrpcCompile, ReturnsTheLibrarysPlanAndAnalysis) {
    TIGRIS_REQUIRE_SHARED();
    CompileFixture f;
    v1::CompileRequest req;
    req.set_model(model("vww_96_int8.tflite"));
    req.set_fast_budget(16384);
    v1::CompileResponse resp;
    const grpc::Status st = f.call(req, &resp);
    ASSERT_TRUE(st.ok()) << st.error_message();
    const std::string &m = req.model();
    tigris::compile::Options o;
    o.fast_budget = 16384;
    const auto lib = tigris::compile::compile_model(
        tigris::tflite::read_model({reinterpret_cast<const uint8_t *>(m.data()), m.size()}), o);
    EXPECT_EQ(resp.plan(), std::string(lib.plan.begin(), lib.plan.end()));
    const auto j = nlohmann::json::parse(resp.report_json());
    EXPECT_EQ(j["fast_arena_required"], lib.report.fast_required);
    EXPECT_TRUE(resp.analysis_json().empty());

    req.set_analyze(true);
    req.add_analyze_budgets(8192);
    v1::CompileResponse r2;
    ASSERT_TRUE(f.call(req, &r2).ok());
    const auto a = nlohmann::json::parse(r2.analysis_json());
    EXPECT_TRUE(a["fits"].get<bool>());
    EXPECT_GT(a["floor"]["bytes"].get<uint32_t>(), 0u);
    EXPECT_LE(a["floor"]["bytes"].get<uint32_t>(), 8192u);
    EXPECT_FALSE(r2.plan().empty());
}

TEST(GrpcCompile, BadRequestsGetTheirStatus) {
    TIGRIS_REQUIRE_SHARED();
    CompileFixture f;
    v1::CompileResponse resp;
    v1::CompileRequest req;
    req.set_model(model("kws_ref_model.tflite"));
    EXPECT_EQ(f.call(req, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);  // no budget
    req.set_fast_budget(1024);
    const grpc::Status below = f.call(req, &resp);
    EXPECT_EQ(below.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_NE(below.error_message().find("minimum execution unit is"), std::string::npos) << below.error_message();
    req.set_fast_budget(65536);
    req.set_slow_budget(16);
    req.set_fast_budget(8192);  // stripes spill whole tensors to slow: 16 bytes cannot hold them
    EXPECT_EQ(f.call(req, &resp).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    req.set_slow_budget(0);
    req.set_lz4(true);
    req.set_xip(true);
    EXPECT_EQ(f.call(req, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    req.set_lz4(false);
    req.set_xip(false);
    req.set_analyze(true);
    req.add_analyze_budgets(0);
    EXPECT_EQ(f.call(req, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    req.clear_analyze_budgets();
    req.set_analyze(false);
    req.set_model("garbage");
    EXPECT_EQ(f.call(req, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    req.set_model(model("keyword_scrambled_8bit.tflite"));
    const grpc::Status refused = f.call(req, &resp);
    EXPECT_EQ(refused.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(refused.error_message().find("int16-tensor"), std::string::npos);
}
