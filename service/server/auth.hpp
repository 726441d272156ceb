// auth.hpp - the server's credentials: TLS from Security's PEM strings, and
// the bearer-token check that runs before any handler sees a call.
#pragma once

#include <grpcpp/security/server_credentials.h>

#include <memory>
#include <string>

#include "tigris_server/server.hpp"

namespace tigris::server {

// Plaintext when security has no certificate, else TLS (client certificates
// required and verified when client_ca_pem is set); with tokens, a token
// check on every call but health checking (tokens without TLS: local
// connections only). Throws std::runtime_error on an incomplete setting (a
// certificate without a key, a client CA without TLS, tokens over plaintext
// off loopback).
std::shared_ptr<grpc::ServerCredentials> server_credentials(const Security &security, const std::string &address,
                                                            const LogFn &log);

}  // namespace tigris::server
