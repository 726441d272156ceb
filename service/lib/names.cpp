// names.cpp - names for core enum values (op types, errors, dtypes, bands).
#include "tigris_host/names.hpp"

#include <array>
#include <string_view>

#include "tigris.h"

namespace tigris::host {
namespace {

// Index = opcode - 1. Spelled as in the TIGRIS_OP_* enum of tigris.h; a test
// reads that header and checks every row.
constexpr std::array<std::string_view, TIGRIS_OP_MAX_KNOWN> kOpNames = {
    "CONV", "DEPTHWISE", "RELU", "RELU6", "MAX_POOL", "AVG_POOL", "ADD", "MUL", "FULLY_CONN",
    "SOFTMAX", "CLIP", "SIGMOID", "CONCAT", "PAD", "GLOBAL_AVG", "FLATTEN", "RESHAPE", "SUB", "DIV",
    "TANH", "LEAKY_RELU", "BATCH_NORM", "INST_NORM", "CONV_TRANSPOSE", "MATMUL", "REDUCE_MEAN",
    "SQUEEZE", "UNSQUEEZE", "TRANSPOSE", "RESIZE", "GLOBAL_MAX", "CONV1D", "LAYER_NORM", "ERF",
    "SPLIT", "RESIZE_LINEAR", "HARDSWISH", "ABS", "RSQRT", "SQUARED_DIFFERENCE", "MAXIMUM",
    "MINIMUM", "NEG", "EXP", "LOG", "SQRT", "SQUARE", "FLOOR", "CEIL", "ROUND", "SIN", "COS",
    "FLOOR_DIV", "FLOOR_MOD", "PRELU", "ELU", "LOG_SOFTMAX", "L2_NORMALIZATION", "L2_POOL",
    "REDUCE_MAX", "REDUCE_MIN", "REDUCE_SUM", "CUMSUM", "ARG_MAX", "ARG_MIN", "GATHER", "GATHER_ND",
    "STRIDED_SLICE", "MIRROR_PAD", "REVERSE_V2", "EMBEDDING_LOOKUP", "DYNAMIC_UPDATE_SLICE",
    "EQUAL", "LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "LOGICAL_AND", "LOGICAL_OR",
    "LOGICAL_NOT", "SELECT_V2", "CAST", "ADD_N", "REDUCE_ALL", "SVDF", "LSTM", "IF", "WHILE",
    "DETECTION_POSTPROCESS",
};

}  // namespace

std::string op_type_name(uint8_t type) {
    if (type >= 1 && type <= TIGRIS_OP_MAX_KNOWN) return std::string(kOpNames[type - 1]);
    if (type == TIGRIS_OP_UNKNOWN) return "UNKNOWN";
    return "OP(" + std::to_string(type) + ")";
}

std::optional<uint8_t> op_type_from_name(const std::string &name) {
    for (size_t i = 0; i < kOpNames.size(); ++i)
        if (kOpNames[i] == name) return static_cast<uint8_t>(i + 1);
    if (name == "UNKNOWN") return static_cast<uint8_t>(TIGRIS_OP_UNKNOWN);
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
    switch (dtype) {
    case TIGRIS_DTYPE_FLOAT32: return "float32";
    case TIGRIS_DTYPE_UINT8: return "uint8";
    case TIGRIS_DTYPE_INT8: return "int8";
    case TIGRIS_DTYPE_INT16: return "int16";
    case TIGRIS_DTYPE_INT32: return "int32";
    case TIGRIS_DTYPE_INT64: return "int64";
    case TIGRIS_DTYPE_BOOL: return "bool";
    }
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
