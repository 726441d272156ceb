// export_rpc.hpp (internal to tigris_server) - the Export and Analyze RPCs
// over tigris_export; service.cpp adds the concurrency slot and the log.
#pragma once

#include <grpcpp/grpcpp.h>

#include "tigris/v1/tigris.pb.h"

namespace tigris::server {

grpc::Status export_rpc(const tigris::v1::ExportRequest &req, tigris::v1::ExportResponse *resp);
grpc::Status analyze_rpc(const tigris::v1::AnalyzeRequest &req, tigris::v1::AnalyzeResponse *resp);

}  // namespace tigris::server
