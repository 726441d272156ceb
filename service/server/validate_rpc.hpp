// validate_rpc.hpp - the Validate and ListTargets RPCs (emulated devices),
// kept apart from service.cpp, which forwards to them.
#pragma once

#include <grpcpp/grpcpp.h>

#include "tigris/v1/tigris.grpc.pb.h"
#include "tigris_host/emu.hpp"

namespace tigris::server {

// Streams progress updates, then one update per target with done = true,
// bit_exact and the target's JSON result (the fields of `tigris validate
// --json`). All boards' QEMU runs share one fleet per server process.
grpc::Status validate_rpc(grpc::ServerContext *ctx, const tigris::v1::ValidateRequest &req,
                          grpc::ServerWriter<tigris::v1::ValidateUpdate> *writer);

// Several plans x targets x backends; the same updates with plan_index and
// plan_name, each result as it arrives, then one summary message.
grpc::Status validate_matrix_rpc(grpc::ServerContext *ctx, const tigris::v1::ValidateMatrixRequest &req,
                                 grpc::ServerWriter<tigris::v1::ValidateUpdate> *writer);
constexpr size_t kMaxMatrixJobs = 4096;

grpc::Status list_targets_rpc(const tigris::v1::ListTargetsRequest &req, tigris::v1::ListTargetsResponse *resp);

}  // namespace tigris::server
