// security.hpp - the parts of "leaving loopback" (docs/service.md) that
// `tigris serve` needs before it starts the server: which addresses count as
// loopback, and the bearer-token file's format.
#pragma once

#include <string>
#include <vector>

namespace tigris::server {

// True when the gRPC listen address ("HOST:PORT", "[::1]:PORT", "unix:PATH")
// only reaches this machine: 127.0.0.0/8, ::1, "localhost", a unix socket.
// Anything else (0.0.0.0, ::, a LAN address, another host name) is false.
bool is_local_address(const std::string &address);

// The tokens of a token file: one per line, surrounding spaces and tabs
// trimmed; blank lines and lines starting with '#' are skipped.
std::vector<std::string> parse_tokens(const std::string &text);

}  // namespace tigris::server
