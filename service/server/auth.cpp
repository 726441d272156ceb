// auth.cpp - TLS credentials and the bearer-token check of `tigris serve`.
// The check is an AuthMetadataProcessor rather than a server interceptor:
// gRPC's interceptors cannot end a call with a status of their own, while a
// processor's refusal is the call's status (UNAUTHENTICATED / PERMISSION_DENIED)
// and no handler, admission counter or run slot is touched.
#include "auth.hpp"

#include "tigris_server/security.hpp"

#include <grpcpp/security/auth_metadata_processor.h>

#include <cctype>
#include <stdexcept>
#include <string_view>

namespace tigris::server {
namespace {

// Same time whatever the first differing byte, so response timing does not
// tell a client how much of a token it guessed right.
bool equal_constant_time(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

// "Bearer " in any case (RFC 6750 takes the scheme name case-insensitively).
bool is_bearer(std::string_view v) {
    constexpr std::string_view kBearer = "bearer ";
    if (v.size() < kBearer.size()) return false;
    for (size_t i = 0; i < kBearer.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(v[i])) != kBearer[i]) return false;
    return true;
}

class TokenCheck final : public grpc::AuthMetadataProcessor {
public:
    TokenCheck(std::vector<std::string> tokens, LogFn log) : tokens_(std::move(tokens)), log_(std::move(log)) {}

    // The check is a few string compares: run it on the call's own thread
    // (the default, blocking, hands every call to a separate thread pool).
    bool IsBlocking() const override { return false; }

    grpc::Status Process(const InputMetadata &md, grpc::AuthContext *, OutputMetadata *consumed,
                         OutputMetadata *) override {
        const auto path_it = md.find(":path");
        const std::string_view path =
            path_it == md.end() ? std::string_view() : std::string_view(path_it->second.data(), path_it->second.size());
        // Health checking stays open: load balancers and orchestrators probe
        // it without credentials, and it tells nothing about plans.
        if (path.substr(0, kHealth.size()) == kHealth) return grpc::Status::OK;
        const auto auth = md.find("authorization");
        if (auth == md.end()) return refuse(path, grpc::StatusCode::UNAUTHENTICATED, "missing bearer token");
        const std::string_view value(auth->second.data(), auth->second.size());
        if (!is_bearer(value))
            return refuse(path, grpc::StatusCode::UNAUTHENTICATED, "authorization is not a bearer token");
        const std::string_view token = value.substr(7);
        bool known = false;
        for (const auto &t : tokens_) known |= equal_constant_time(token, t);  // no early exit: same time for each
        if (!known) return refuse(path, grpc::StatusCode::PERMISSION_DENIED, "unknown bearer token");
        // The handlers have no use for the token; keep it out of their metadata.
        consumed->insert({"authorization", std::string(value)});
        return grpc::Status::OK;
    }

private:
    static constexpr std::string_view kHealth = "/grpc.health.v1.Health/";

    grpc::Status refuse(std::string_view path, grpc::StatusCode code, const std::string &why) {
        // The refused call never reaches a handler, so it gets its log line here.
        if (log_)
            log_("rpc=" + std::string(path) + " status=" +
                 (code == grpc::StatusCode::UNAUTHENTICATED ? "UNAUTHENTICATED" : "PERMISSION_DENIED") + " error=\"" +
                 why + "\"");
        return grpc::Status(code, why);
    }

    std::vector<std::string> tokens_;
    LogFn log_;
};

}  // namespace

std::shared_ptr<grpc::ServerCredentials> server_credentials(const Security &security, const std::string &address,
                                                            const LogFn &log) {
    if (security.cert_pem.empty() != security.key_pem.empty())
        throw std::runtime_error("TLS needs both a certificate and its key");
    if (!security.client_ca_pem.empty() && security.cert_pem.empty())
        throw std::runtime_error("client certificate verification needs TLS (a server certificate and key)");
    std::shared_ptr<grpc::ServerCredentials> creds;
    if (security.cert_pem.empty() && security.tokens.empty()) {
        creds = grpc::InsecureServerCredentials();
    } else if (security.cert_pem.empty()) {
        // gRPC's insecure credentials take no metadata processor. Its local
        // credentials do: plaintext on the wire (plaintext clients connect
        // as before), and they accept only peers on this machine. Tokens
        // over plaintext to another machine would be readable on the way,
        // so that combination is not offered.
        if (!is_local_address(address))
            throw std::runtime_error("bearer tokens on a non-loopback address need TLS (--tls-cert and --tls-key)");
        creds = grpc::experimental::LocalServerCredentials(address.rfind("unix", 0) == 0 ? UDS : LOCAL_TCP);
    } else {
        grpc::SslServerCredentialsOptions opts(
            security.client_ca_pem.empty() ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
                                           : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
        opts.pem_root_certs = security.client_ca_pem;
        opts.pem_key_cert_pairs.push_back({security.key_pem, security.cert_pem});
        creds = grpc::SslServerCredentials(opts);
    }
    if (!security.tokens.empty()) creds->SetAuthMetadataProcessor(std::make_shared<TokenCheck>(security.tokens, log));
    return creds;
}

}  // namespace tigris::server
