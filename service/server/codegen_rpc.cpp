// codegen_rpc.cpp - Codegen: the files `tigris codegen` writes, returned in
// the response instead. Every refusal is the caller's input, so every one is
// INVALID_ARGUMENT with the CLI's message (docs/codegen.md).
#include "codegen_rpc.hpp"

#include <new>

#include "tigris_codegen/codegen.hpp"

namespace tigris::server {

grpc::Status codegen_rpc(const v1::CodegenRequest &req, v1::CodegenResponse *resp) {
    codegen::Options opt;
    if (!req.backend().empty()) opt.backend = req.backend();
    if (!req.name().empty()) opt.name = req.name();
    const std::string &b = req.plan();
    codegen::Result r;
    try {
        r = codegen::generate({reinterpret_cast<const uint8_t *>(b.data()), b.size()}, opt);
    } catch (const std::bad_alloc &) {
        // The text is about six times the plan: a server limit, not the caller's error.
        return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, "out of memory generating the harness");
    }
    if (!r.ok()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, r.message);
    for (const codegen::GeneratedFile &f : r.files) {
        v1::GeneratedFile *out = resp->add_files();
        out->set_name(f.name);
        out->set_content(f.text);
    }
    return grpc::Status::OK;
}

}  // namespace tigris::server
