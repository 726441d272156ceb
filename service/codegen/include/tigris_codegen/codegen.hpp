// codegen.hpp - `tigris codegen`: a standalone C harness for one plan and one
// kernel backend (docs/codegen.md). The CLI and the Codegen RPC both call
// generate(); only the CLI writes files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tigris::codegen {

enum class Backend { S8, TigrisArm, CmsisNn, TigrisXtensa, EspNn };

std::optional<Backend> parse_backend(std::string_view name);
std::string_view backend_name(Backend b);
// "s8, tigris-arm, cmsis-nn, tigris-xtensa, esp-nn": for messages.
std::string backend_list();

// What went wrong; the CLI maps each kind to its own exit code, the RPC all
// of them to INVALID_ARGUMENT.
enum class ErrorKind { None, BadPlan, BadBackend, BadName, PlanNotForBackend };

struct Options {
    std::string backend = "s8";
    std::string name = "model";  // prefix of every generated file and C symbol
    std::string plan_label;      // shown in the files' comments (a file name, never a path)
};

struct GeneratedFile {
    std::string name;  // relative to the output directory
    std::string text;
};

struct Result {
    ErrorKind error = ErrorKind::None;
    std::string message;  // phrased for the user; empty when ok
    std::vector<GeneratedFile> files;
    bool ok() const { return error == ErrorKind::None; }
};

Result generate(std::span<const uint8_t> plan, const Options &opt);

// Why `name` cannot prefix the harness's C symbols, or nullopt when it can.
std::optional<std::string> check_name(const std::string &name);

// Creates `dir` if needed and writes the files; an error message on failure.
std::optional<std::string> write_files(const std::filesystem::path &dir, const std::vector<GeneratedFile> &files);

}  // namespace tigris::codegen
