// names.cpp - names for core enum values (op types, errors, dtypes, bands).
// Op type and dtype names come from the core (tigris_op_type_name, generated
// from its operator table, and tigris_dtype_name).
#include "tigris_host/names.hpp"

#include "tigris.h"

namespace tigris::host {

std::string op_type_name(uint8_t type) {
    if (const char *name = tigris_op_type_name(type)) return name;
    return "OP(" + std::to_string(type) + ")";
}

std::optional<uint8_t> op_type_from_name(const std::string &name) {
    for (uint32_t type = 1; type <= 255; ++type) {
        const char *n = tigris_op_type_name(type);
        if (n && name == n) return static_cast<uint8_t>(type);
    }
    return std::nullopt;
}

std::string error_name(int code) {
    switch (code) {
    case TIGRIS_OK: return "TIGRIS_OK";
    case TIGRIS_ERR_NULL: return "TIGRIS_ERR_NULL";
    case TIGRIS_ERR_TOO_SMALL: return "TIGRIS_ERR_TOO_SMALL";
    case TIGRIS_ERR_BAD_MAGIC: return "TIGRIS_ERR_BAD_MAGIC";
    case TIGRIS_ERR_BAD_VERSION: return "TIGRIS_ERR_BAD_VERSION";
    case TIGRIS_ERR_BAD_SIZE: return "TIGRIS_ERR_BAD_SIZE";
    case TIGRIS_ERR_BAD_SECTION: return "TIGRIS_ERR_BAD_SECTION";
    case TIGRIS_ERR_MISSING_SEC: return "TIGRIS_ERR_MISSING_SEC";
    case TIGRIS_ERR_ENDIAN: return "TIGRIS_ERR_ENDIAN";
    case TIGRIS_ERR_PLAN_LIMITS: return "TIGRIS_ERR_PLAN_LIMITS";
    case TIGRIS_ERR_BAD_TENSOR: return "TIGRIS_ERR_BAD_TENSOR";
    case TIGRIS_ERR_BAD_OPERATOR: return "TIGRIS_ERR_BAD_OPERATOR";
    case TIGRIS_ERR_BAD_INTERFACE: return "TIGRIS_ERR_BAD_INTERFACE";
    case TIGRIS_ERR_KERNEL_DISABLED: return "TIGRIS_ERR_KERNEL_DISABLED";
    case TIGRIS_ERR_MEM: return "TIGRIS_ERR_MEM";
    case TIGRIS_ERR_TENSOR_SLOTS: return "TIGRIS_ERR_TENSOR_SLOTS";
    case TIGRIS_ERR_TILE_FACTS: return "TIGRIS_ERR_TILE_FACTS";
    case TIGRIS_ERR_CHAIN_BAND: return "TIGRIS_ERR_CHAIN_BAND";
    case TIGRIS_ERR_TILE_BAND: return "TIGRIS_ERR_TILE_BAND";
    }
    return "TIGRIS_ERR(" + std::to_string(code) + ")";
}

std::string dtype_name(uint8_t dtype) {
    if (const char *name = tigris_dtype_name(dtype)) return name;
    return "dtype(" + std::to_string(dtype) + ")";
}

std::string band_kind_name(uint8_t kind) {
    switch (kind) {
    case TIGRIS_BAND_KIND_NONE: return "NONE";
    case TIGRIS_BAND_KIND_STRIPE: return "STRIPE";
    case TIGRIS_BAND_KIND_HW: return "HW";
    case TIGRIS_BAND_KIND_BY_INPUT: return "BY_INPUT";
    case TIGRIS_BAND_KIND_TRANSPOSE: return "TRANSPOSE";
    case TIGRIS_BAND_KIND_ROWS: return "ROWS";
    case TIGRIS_BAND_KIND_RESHAPE: return "RESHAPE";
    case TIGRIS_BAND_KIND_LEADING: return "LEADING";
    }
    return "BAND(" + std::to_string(kind) + ")";
}

}  // namespace tigris::host
