// names.hpp - the one place that turns core enum values into names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tigris::host {

// "CONV", "DEPTHWISE", ... as the TIGRIS_OP_* enum spells them; "UNKNOWN" for
// 255, "OP(<n>)" for a value no revision assigns.
std::string op_type_name(uint8_t type);
// Inverse of op_type_name for the named opcodes (1..89 and 255).
std::optional<uint8_t> op_type_from_name(const std::string &name);

// "TIGRIS_OK", "TIGRIS_ERR_BAD_VERSION", ...; "TIGRIS_ERR(<n>)" otherwise.
std::string error_name(int code);

// "float32", "uint8", "int8", "int16", "int32", "int64", "bool"; "dtype(<n>)".
std::string dtype_name(uint8_t dtype);

// "NONE", "STRIPE", "HW", "BY_INPUT", "TRANSPOSE", "ROWS", "RESHAPE",
// "LEADING"; "BAND(<n>)" for values 8..15.
std::string band_kind_name(uint8_t kind);

}  // namespace tigris::host
