// codegen_rpc.hpp (internal to tigris_server) - the Codegen RPC over
// tigris_codegen; service.cpp adds the log.
#pragma once

#include <grpcpp/grpcpp.h>

#include "tigris/v1/tigris.pb.h"

namespace tigris::server {

grpc::Status codegen_rpc(const tigris::v1::CodegenRequest &req, tigris::v1::CodegenResponse *resp);

}  // namespace tigris::server
