// Export and Analyze over a real loopback connection: the rewritten model
// and its report, each status code, and the same figures as the library.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <nlohmann/json.hpp>

#include "shared_data.h"
#include "tigris/v1/tigris.grpc.pb.h"
#include "tigris_export/export.hpp"
#include "tigris_server/server.hpp"

namespace {

namespace v1 = tigris::v1;

struct ExportFixture {
    std::unique_ptr<tigris::server::GrpcServer> srv;
    std::unique_ptr<v1::Tigris::Stub> stub;
    ExportFixture() {
        srv = tigris::server::start_grpc("127.0.0.1:0", {}, nullptr);
        grpc::ChannelArguments args;
        args.SetMaxReceiveMessageSize(-1);
        stub = v1::Tigris::NewStub(grpc::CreateCustomChannel("127.0.0.1:" + std::to_string(srv->port),
                                                             grpc::InsecureChannelCredentials(), args));
    }
};

std::string model(const char *name) {
    const auto b = tigris_test::read_file(tigris_test::shared_dir() / "models" / name);
    return std::string(b.begin(), b.end());
}

}  // namespace

TEST(GrpcExport, ExportReturnsTheModelTheLibraryWrites) {
    TIGRIS_REQUIRE_SHARED();
    ExportFixture f;
    v1::ExportRequest req;
    req.set_model(model("vww_96_int8.tflite"));
    req.set_target("lp64");
    v1::ExportResponse resp;
    grpc::ClientContext c;
    const grpc::Status st = f.stub->Export(&c, req, &resp);
    ASSERT_TRUE(st.ok()) << st.error_message();
    const std::string &m = req.model();
    const auto lib = tigris::exporter::export_model({reinterpret_cast<const uint8_t *>(m.data()), m.size()},
                                                    tigris::exporter::Target::Lp64);
    ASSERT_TRUE(lib.written);
    EXPECT_EQ(resp.model(), std::string(lib.bytes.begin(), lib.bytes.end()));
    const auto j = nlohmann::json::parse(resp.report_json());
    EXPECT_EQ(j["target"], "lp64");
    EXPECT_EQ(j["total_change_bytes"], lib.total_change());

    // A budget below the best total: FAILED_PRECONDITION, no model.
    req.set_arena_budget(static_cast<uint32_t>(lib.after.total() - 1));
    grpc::ClientContext c2;
    v1::ExportResponse r2;
    const grpc::Status st2 = f.stub->Export(&c2, req, &r2);
    EXPECT_EQ(st2.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_NE(st2.error_message().find("exceeds the arena budget"), std::string::npos) << st2.error_message();
    req.set_arena_budget(static_cast<uint32_t>(lib.after.total()));
    grpc::ClientContext c3;
    EXPECT_TRUE(f.stub->Export(&c3, req, &r2).ok());
}

TEST(GrpcExport, ExportStatusCodes) {
    TIGRIS_REQUIRE_SHARED();
    ExportFixture f;
    struct Case {
        std::string model, target;
        grpc::StatusCode code;
        std::string message;
    } cases[] = {
        {model("kws_ref_model.tflite"), "", grpc::StatusCode::FAILED_PRECONDITION,
         "no model written: no rewrite lowers the arena"},
        {model("keyword_scrambled_8bit.tflite"), "", grpc::StatusCode::INVALID_ARGUMENT,
         "no model written: TFLite Micro's scratch buffers for SVDF are not modeled"},
        {"garbage", "", grpc::StatusCode::INVALID_ARGUMENT, ""},
        {model("vww_96_int8.tflite"), "riscv", grpc::StatusCode::INVALID_ARGUMENT,
         "no model written: unknown target \"riscv\" (arm-none-eabi, ilp32 or lp64)"},
    };
    for (const Case &k : cases) {
        v1::ExportRequest req;
        req.set_model(k.model);
        req.set_target(k.target);
        v1::ExportResponse resp;
        grpc::ClientContext c;
        const grpc::Status st = f.stub->Export(&c, req, &resp);
        EXPECT_EQ(st.error_code(), k.code) << st.error_message();
        if (!k.message.empty()) EXPECT_EQ(st.error_message(), k.message);
        EXPECT_TRUE(resp.model().empty());
    }
}

TEST(GrpcExport, AnalyzeReportsTheTwoRows) {
    TIGRIS_REQUIRE_SHARED();
    ExportFixture f;
    v1::AnalyzeRequest req;
    req.set_model(model("vww_96_int8.tflite"));
    v1::AnalyzeResponse resp;
    grpc::ClientContext c;
    ASSERT_TRUE(f.stub->Analyze(&c, req, &resp).ok());
    const auto j = nlohmann::json::parse(resp.report_json());
    EXPECT_EQ(j["operators"], 31);
    EXPECT_EQ(j["tflite_micro"]["arena"]["head_bytes"], 73728);
    EXPECT_TRUE(j["tflite_micro"]["export"]["written"].get<bool>());

    req.set_model(model("kws_ref_model.tflite"));
    grpc::ClientContext c2;
    ASSERT_TRUE(f.stub->Analyze(&c2, req, &resp).ok());
    EXPECT_EQ(nlohmann::json::parse(resp.report_json())["tflite_micro"]["export"]["reason"], "no rewrite lowers the arena");

    req.set_model("garbage");
    grpc::ClientContext c3;
    EXPECT_EQ(f.stub->Analyze(&c3, req, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}
