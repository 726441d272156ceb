// export_rpc.cpp - Export and Analyze: `tigris export --json` and `tigris
// analyze --json` over gRPC (proto/tigris/v1/tigris.proto documents the
// status codes; docs/export.md the search and the reasons).
#include "export_rpc.hpp"

#include "tigris_export/export.hpp"

namespace tigris::server {

using grpc::Status;
using grpc::StatusCode;

Status export_rpc(const v1::ExportRequest &req, v1::ExportResponse *resp) {
    const std::string name = req.target().empty() ? "arm-none-eabi" : req.target();
    const auto target = exporter::parse_target(name);
    if (!target)
        return Status(StatusCode::INVALID_ARGUMENT,
                      "no model written: unknown target \"" + name + "\" (arm-none-eabi, ilp32 or lp64)");
    const std::string &b = req.model();
    const exporter::ExportResult r =
        exporter::export_model({reinterpret_cast<const uint8_t *>(b.data()), b.size()}, *target);
    if (!r.written)
        return Status(r.reason_is_no_rewrite ? StatusCode::FAILED_PRECONDITION : StatusCode::INVALID_ARGUMENT,
                      "no model written: " + r.reason);
    if (req.arena_budget() && r.after.total() > static_cast<int64_t>(req.arena_budget()))
        return Status(StatusCode::FAILED_PRECONDITION,
                      "no model written: the lowest TFLite Micro arena, " + std::to_string(r.after.total()) +
                          " bytes, exceeds the arena budget of " + std::to_string(req.arena_budget()) + " bytes");
    resp->set_model(std::string(r.bytes.begin(), r.bytes.end()));
    resp->set_report_json(exporter::export_json(r).dump());
    return Status::OK;
}

Status analyze_rpc(const v1::AnalyzeRequest &req, v1::AnalyzeResponse *resp) {
    const std::string &b = req.model();
    const std::span<const uint8_t> file(reinterpret_cast<const uint8_t *>(b.data()), b.size());
    size_t ops = 0;
    try {
        const tflite::Model m = tflite::read_model(file);
        ops = m.subgraphs.empty() ? 0 : m.subgraphs[0].operators.size();
    } catch (const tflite::ReadError &e) {
        return Status(StatusCode::INVALID_ARGUMENT, std::string("not a readable TFLite model: ") + e.what());
    }
    nlohmann::json j;
    j["operators"] = ops;
    j["tflite_micro"] = exporter::analyze_json(exporter::analyze_model(file));
    resp->set_report_json(j.dump());
    return Status::OK;
}

}  // namespace tigris::server
