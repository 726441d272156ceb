// support.hpp - what `tigris import` can lower, decided before any plan is
// written so that a refusal never leaves a file behind.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
    UnsupportedAttribute,  // an operator option the lowering has no form for
    BadOption,             // an import option out of range or impossible for this model
    InvalidModel,          // shapes or quantization the lowered plan cannot carry
};

struct Refusal {
    RefusalKind kind;
    std::string message;  // names the operator (and its index) or the tensor
};

// Stable kebab-case name of a refusal kind, used in JSON reports and tests.
const char *refusal_name(RefusalKind k);

// True for a QUANTIZE or DEQUANTIZE that reads a model input or writes a
// model output: such a conversion becomes the plan's declared interface
// dtype (float32 around an int8 tensor, docs/format.md P4.5), not an operator;
// the lowering refuses the dtype pairs the interface cannot declare.
// A QUANTIZE from int8 to int8 is never a boundary conversion: it is
// TFLite's Requantize and lowers to an operator wherever it stands.
// Other conversions inside the graph are refused.
bool is_boundary_conversion(const tflite::Model &m, size_t op_index, size_t subgraph = 0);

// The TiGrIS opcode (tigris_op_type_t) an operator lowers to, or nullopt
// (also for a boundary conversion, which lowers to no operator). An int8 ->
// int8 QUANTIZE lowers to DEPTHWISE (a 1x1 with unit weights: the plan's
// per-channel requantization is exactly TFLite's Requantize).
std::optional<uint8_t> lowered_opcode(const tflite::Model &m, size_t op_index, size_t subgraph = 0);

// First reason the model cannot be imported, or nullopt when it can.
std::optional<Refusal> check_importable(const tflite::Model &m);

// The plan opcode a TFLite builtin code maps to one for one (its operators
// may still be refused for their options or dtypes), or nullopt.
std::optional<uint8_t> direct_opcode(int32_t builtin);

// How import treats one TFLite builtin (builtin_table.cpp).
struct BuiltinSupport {
    int32_t code = 0;
    std::string name;
    uint8_t opcode = 0;          // the plan operator it lowers to (0: none, or see note)
    bool refused = false;        // never lowered
    uint8_t runtime_opcode = 0;  // refused ones: the runtime operator that exists, 0 when none
    std::string note;            // conditions, or the reason for a refusal
};
// Every builtin of TFLite's schema, in code order.
std::vector<BuiltinSupport> builtin_support();

}  // namespace tigris::import
