// support.hpp - what `tigris import` can lower, decided before any plan is
// written so that a refusal never leaves a file behind.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tigris_tflite/model.hpp"

namespace tigris::import {

enum class RefusalKind {
    SeveralSubgraphs,
    ExternalBuffer,
    CustomOperator,
    UnsupportedOperator,
    Int16Tensor,
    Int4Tensor,
    UnsupportedDtype,
    SparseTensor,
};

struct Refusal {
    RefusalKind kind;
    std::string message;  // names the operator (and its index) or the tensor
};

// Stable kebab-case name of a refusal kind, used in JSON reports and tests.
const char *refusal_name(RefusalKind k);

// The TiGrIS opcode (tigris_op_type_t) an operator lowers to, or nullopt.
// QUANTIZE and DEQUANTIZE lower to CAST only where they read a model input
// or write a model output (the format's boundary conversion); elsewhere they
// are requantizations the format has no operator for.
std::optional<uint8_t> lowered_opcode(const tflite::Model &m, size_t op_index);

// First reason the model cannot be imported, or nullopt when it can.
std::optional<Refusal> check_importable(const tflite::Model &m);

}  // namespace tigris::import
