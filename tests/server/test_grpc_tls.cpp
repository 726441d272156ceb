// The service off loopback (docs/service.md, "Leaving loopback"), over real
// loopback connections: TLS with and without client certificates, the bearer
// token check and its status codes, health open without a token, plaintext
// clients refused by a TLS server. The CA and certificates are made by the
// openssl command for each test process and removed at its end.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <unistd.h>

#include "grpc/health/v1/health.grpc.pb.h"
#include "tigris/v1/tigris.grpc.pb.h"
#include "tigris_server/security.hpp"
#include "tigris_server/server.hpp"

namespace {

namespace v1 = tigris::v1;
namespace fs = std::filesystem;

std::string slurp(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A throw-away CA, a server certificate for 127.0.0.1 / localhost and a
// client certificate, all signed by the CA; a second CA nobody else uses.
struct Pki {
    fs::path dir;
    std::string ca, server_cert, server_key, client_cert, client_key, other_ca;
    std::string error;  // set when openssl failed

    Pki() {
        std::string tmpl = (fs::temp_directory_path() / "tigris_tls_XXXXXX").string();
        if (!mkdtemp(tmpl.data())) {
            error = "mkdtemp failed";
            return;
        }
        dir = tmpl;
        // P-256 keys: quick to make, and gRPC's TLS takes them.
        const std::string key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
        const std::string script =
            "cd '" + dir.string() + "' && "
            "openssl req -x509 " + key + " -keyout ca.key -out ca.crt -days 2 -subj /CN=tigris-test-ca"
            " -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign && "
            "openssl req -x509 " + key + " -keyout other.key -out other.crt -days 2 -subj /CN=tigris-other-ca"
            " -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign && "
            "printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nextendedKeyUsage=serverAuth\\n' > server.ext && "
            "printf 'extendedKeyUsage=clientAuth\\n' > client.ext && "
            "openssl req " + key + " -keyout server.key -out server.csr -subj /CN=localhost && "
            "openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2"
            " -extfile server.ext -out server.crt && "
            "openssl req " + key + " -keyout client.key -out client.csr -subj /CN=tigris-test-client && "
            "openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2"
            " -extfile client.ext -out client.crt";
        if (std::system(("(" + script + ") > openssl.log 2>&1").c_str()) != 0) {
            error = "openssl failed: " + slurp(dir / "openssl.log");
            return;
        }
        ca = slurp(dir / "ca.crt");
        other_ca = slurp(dir / "other.crt");
        server_cert = slurp(dir / "server.crt");
        server_key = slurp(dir / "server.key");
        client_cert = slurp(dir / "client.crt");
        client_key = slurp(dir / "client.key");
    }
    ~Pki() {
        std::error_code ec;
        if (!dir.empty()) fs::remove_all(dir, ec);
    }
};

Pki &pki() {
    static Pki p;  // made once per test process, removed at exit
    return p;
}

#define REQUIRE_PKI() ASSERT_TRUE(pki().error.empty()) << pki().error

// A server on a free loopback port with the given security, its log kept.
struct Server {
    std::mutex mu;
    std::vector<std::string> log;
    std::unique_ptr<tigris::server::GrpcServer> srv;

    explicit Server(const tigris::server::Security &sec) {
        srv = tigris::server::start_grpc("127.0.0.1:0", {}, [this](const std::string &l) {
            std::lock_guard<std::mutex> lock(mu);
            log.push_back(l);
        }, sec);
    }
    std::string target() const { return "127.0.0.1:" + std::to_string(srv->port); }
    std::string joined() {
        std::lock_guard<std::mutex> lock(mu);
        std::string s;
        for (auto &l : log) s += l + "\n";
        return s;
    }
};

tigris::server::Security tls(bool verify_clients, std::vector<std::string> tokens = {}) {
    tigris::server::Security s;
    s.cert_pem = pki().server_cert;
    s.key_pem = pki().server_key;
    if (verify_clients) s.client_ca_pem = pki().ca;
    s.tokens = std::move(tokens);
    return s;
}

std::shared_ptr<grpc::ChannelCredentials> client_tls(bool with_cert, const std::string &root = pki().ca) {
    grpc::SslCredentialsOptions o;
    o.pem_root_certs = root;
    if (with_cert) {
        o.pem_private_key = pki().client_key;
        o.pem_cert_chain = pki().client_cert;
    }
    return grpc::SslCredentials(o);
}

// One ListTargets call (cheap, touches no plan) with an optional
// authorization value; a short deadline so a refused connection fails fast.
grpc::Status list_targets(const std::string &target, std::shared_ptr<grpc::ChannelCredentials> creds,
                          const std::string &authorization = "") {
    auto stub = v1::Tigris::NewStub(grpc::CreateChannel(target, std::move(creds)));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    if (!authorization.empty()) ctx.AddMetadata("authorization", authorization);
    v1::ListTargetsRequest req;
    v1::ListTargetsResponse resp;
    return stub->ListTargets(&ctx, req, &resp);
}

TEST(GrpcTls, ClientCertAndTokenAreServed) {
    REQUIRE_PKI();
    Server s(tls(true, {"tok-one", "tok-two"}));
    auto st = list_targets(s.target(), client_tls(true), "Bearer tok-one");
    EXPECT_TRUE(st.ok()) << st.error_code() << " " << st.error_message();
    st = list_targets(s.target(), client_tls(true), "bearer tok-two");  // the scheme's case does not matter
    EXPECT_TRUE(st.ok()) << st.error_code() << " " << st.error_message();
}

TEST(GrpcTls, NoClientCertIsRefusedWhenClientsAreVerified) {
    REQUIRE_PKI();
    Server s(tls(true, {"tok-one"}));
    EXPECT_EQ(list_targets(s.target(), client_tls(false), "Bearer tok-one").error_code(),
              grpc::StatusCode::UNAVAILABLE);
}

TEST(GrpcTls, ClientCertFromAnotherCaIsRefused) {
    REQUIRE_PKI();
    Server s(tls(true));
    // The client trusts the server (right root) but shows no certificate of
    // the server's client CA: the other CA's own certificate is no client cert.
    grpc::SslCredentialsOptions o;
    o.pem_root_certs = pki().ca;
    o.pem_private_key = slurp(pki().dir / "other.key");
    o.pem_cert_chain = pki().other_ca;
    EXPECT_EQ(list_targets(s.target(), grpc::SslCredentials(o)).error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST(GrpcTls, ServerNotSignedByTheClientsRootIsRefused) {
    REQUIRE_PKI();
    Server s(tls(false));
    EXPECT_EQ(list_targets(s.target(), client_tls(false, pki().other_ca)).error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST(GrpcTls, MissingTokenIsUnauthenticated) {
    REQUIRE_PKI();
    Server s(tls(true, {"tok-one"}));
    const auto st = list_targets(s.target(), client_tls(true));
    EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAUTHENTICATED) << st.error_message();
    EXPECT_EQ(st.error_message(), "missing bearer token");
    EXPECT_NE(s.joined().find("rpc=/tigris.v1.Tigris/ListTargets status=UNAUTHENTICATED"), std::string::npos)
        << s.joined();
    // Not a bearer token at all: the same code.
    EXPECT_EQ(list_targets(s.target(), client_tls(true), "Basic dG9rLW9uZQ==").error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
}

TEST(GrpcTls, WrongTokenIsPermissionDenied) {
    REQUIRE_PKI();
    Server s(tls(true, {"tok-one"}));
    for (const char *wrong : {"Bearer tok-on", "Bearer tok-onee", "Bearer tok-onf", "Bearer TOK-ONE"}) {
        const auto st = list_targets(s.target(), client_tls(true), wrong);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::PERMISSION_DENIED) << wrong << ": " << st.error_message();
    }
    EXPECT_NE(s.joined().find("status=PERMISSION_DENIED"), std::string::npos) << s.joined();
}

TEST(GrpcTls, HealthNeedsNoToken) {
    REQUIRE_PKI();
    Server s(tls(true, {"tok-one"}));
    auto health = grpc::health::v1::Health::NewStub(grpc::CreateChannel(s.target(), client_tls(true)));
    grpc::ClientContext ctx;
    grpc::health::v1::HealthCheckRequest req;
    grpc::health::v1::HealthCheckResponse resp;
    const auto st = health->Check(&ctx, req, &resp);
    ASSERT_TRUE(st.ok()) << st.error_code() << " " << st.error_message();
    EXPECT_EQ(resp.status(), grpc::health::v1::HealthCheckResponse::SERVING);
}

TEST(GrpcTls, PlaintextClientIsRefusedByATlsServer) {
    REQUIRE_PKI();
    Server s(tls(false));
    EXPECT_EQ(list_targets(s.target(), grpc::InsecureChannelCredentials()).error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST(GrpcTls, TlsWithoutClientVerificationServesAnyClient) {
    REQUIRE_PKI();
    Server s(tls(false));
    const auto st = list_targets(s.target(), client_tls(false));
    EXPECT_TRUE(st.ok()) << st.error_code() << " " << st.error_message();
}

// Tokens without TLS (loopback, or --insecure): the same check.
TEST(GrpcTls, TokensAreCheckedOnPlaintextToo) {
    tigris::server::Security sec;
    sec.tokens = {"tok-one"};
    Server s(sec);
    const auto plain = grpc::InsecureChannelCredentials();
    EXPECT_EQ(list_targets(s.target(), plain).error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(list_targets(s.target(), plain, "Bearer nope").error_code(), grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_TRUE(list_targets(s.target(), plain, "Bearer tok-one").ok());
}

TEST(GrpcTls, IncompleteSettingsAreRefused) {
    REQUIRE_PKI();
    tigris::server::Security cert_only;
    cert_only.cert_pem = pki().server_cert;
    EXPECT_THROW(Server{cert_only}, std::runtime_error);
    tigris::server::Security ca_only;
    ca_only.client_ca_pem = pki().ca;
    EXPECT_THROW(Server{ca_only}, std::runtime_error);
    // Tokens over plaintext to other machines would be readable on the way.
    tigris::server::Security tokens_only;
    tokens_only.tokens = {"tok-one"};
    EXPECT_THROW(tigris::server::start_grpc("0.0.0.0:0", {}, nullptr, tokens_only), std::runtime_error);
}

TEST(Security, LocalAddresses) {
    using tigris::server::is_local_address;
    for (const char *a : {"127.0.0.1:50051", "127.0.0.1:0", "127.1.2.3:1", "[::1]:50051", "localhost:50051",
                          "unix:/tmp/tigris.sock"})
        EXPECT_TRUE(is_local_address(a)) << a;
    for (const char *a : {"0.0.0.0:0", "[::]:50051", "10.0.0.5:50051", "128.0.0.1:1", "example.com:50051",
                          "[::ffff:10.0.0.1]:1", "localhost.example.com:1"})
        EXPECT_FALSE(is_local_address(a)) << a;
}

TEST(Security, TokenFileFormat) {
    const auto t = tigris::server::parse_tokens("# ci tokens\n\n  tok-one  \n\ttok-two\r\n#tok-off\n   \ntok three\n");
    EXPECT_EQ(t, (std::vector<std::string>{"tok-one", "tok-two", "tok three"}));
    EXPECT_TRUE(tigris::server::parse_tokens("# only a comment\n\n").empty());
}

}  // namespace
