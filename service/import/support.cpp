// support.cpp - the import refusal rules (issue 5, "Refuse ... what cannot
// be lowered"), checked in the order a user would fix them: file structure,
// then operators, then tensor types.
#include "tigris_import/support.hpp"

#include <algorithm>

#include "tigris.h"

namespace tigris::import {
namespace tfl = tigris::tflite;

const char *refusal_name(RefusalKind k) {
    switch (k) {
    case RefusalKind::SeveralSubgraphs: return "several-subgraphs";
    case RefusalKind::ExternalBuffer: return "external-buffer";
    case RefusalKind::CustomOperator: return "custom-operator";
    case RefusalKind::UnsupportedOperator: return "unsupported-operator";
    case RefusalKind::Int16Tensor: return "int16-tensor";
    case RefusalKind::Int4Tensor: return "int4-tensor";
    case RefusalKind::UnsupportedDtype: return "unsupported-dtype";
    case RefusalKind::SparseTensor: return "sparse-tensor";
    case RefusalKind::UnsupportedAttribute: return "unsupported-attribute";
    case RefusalKind::BadOption: return "bad-option";
    case RefusalKind::InvalidModel: return "invalid-model";
    }
    return "unknown";
}

namespace {

bool contains(const std::vector<int32_t> &v, int32_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::optional<uint8_t> direct(int32_t code) {  // direct_opcode(), below
    switch (code) {
    case tfl::kAdd: return TIGRIS_OP_ADD;
    case tfl::kAveragePool2D: return TIGRIS_OP_AVG_POOL;
    case tfl::kConcatenation: return TIGRIS_OP_CONCAT;
    case tfl::kConv2D: return TIGRIS_OP_CONV;
    case tfl::kDepthwiseConv2D: return TIGRIS_OP_DEPTHWISE;
    case tfl::kFullyConnected: return TIGRIS_OP_FULLY_CONN;
    case tfl::kLogistic: return TIGRIS_OP_SIGMOID;
    case tfl::kMaxPool2D: return TIGRIS_OP_MAX_POOL;
    case tfl::kMul: return TIGRIS_OP_MUL;
    case tfl::kRelu: return TIGRIS_OP_RELU;
    case tfl::kRelu6: return TIGRIS_OP_RELU6;
    case tfl::kReshape: return TIGRIS_OP_RESHAPE;
    case tfl::kSoftmax: return TIGRIS_OP_SOFTMAX;
    case tfl::kSvdf: return TIGRIS_OP_SVDF;
    case tfl::kTanh: return TIGRIS_OP_TANH;
    case tfl::kPad: return TIGRIS_OP_PAD;
    case tfl::kPadV2: return TIGRIS_OP_PAD;
    case tfl::kMean: return TIGRIS_OP_REDUCE_MEAN;
    case tfl::kSub: return TIGRIS_OP_SUB;
    case tfl::kMaximum: return TIGRIS_OP_MAXIMUM;
    case tfl::kMinimum: return TIGRIS_OP_MINIMUM;
    case tfl::kLeakyRelu: return TIGRIS_OP_LEAKY_RELU;
    case tfl::kAbs: return TIGRIS_OP_ABS;
    case tfl::kHardSwish: return TIGRIS_OP_HARDSWISH;
    case tfl::kSlice: return TIGRIS_OP_STRIDED_SLICE;
    case tfl::kFloor: return TIGRIS_OP_FLOOR;
    case tfl::kL2Normalization: return TIGRIS_OP_L2_NORMALIZATION;
    case tfl::kDiv: return TIGRIS_OP_DIV;
    case tfl::kSqueeze: return TIGRIS_OP_RESHAPE;     // a reshape that drops axes of extent 1
    case tfl::kExpandDims: return TIGRIS_OP_RESHAPE;  // a reshape that adds one
    case tfl::kExp: return TIGRIS_OP_EXP;
    case tfl::kLogSoftmax: return TIGRIS_OP_LOG_SOFTMAX;
    case tfl::kNeg: return TIGRIS_OP_NEG;
    case tfl::kSin: return TIGRIS_OP_SIN;
    case tfl::kCos: return TIGRIS_OP_COS;
    case tfl::kLog: return TIGRIS_OP_LOG;
    case tfl::kSqrt: return TIGRIS_OP_SQRT;
    case tfl::kRsqrt: return TIGRIS_OP_RSQRT;
    case tfl::kSquare: return TIGRIS_OP_SQUARE;
    case tfl::kCeil: return TIGRIS_OP_CEIL;
    case tfl::kRound: return TIGRIS_OP_ROUND;
    case tfl::kElu: return TIGRIS_OP_ELU;
    case tfl::kSum: return TIGRIS_OP_REDUCE_SUM;
    case tfl::kReduceMax: return TIGRIS_OP_REDUCE_MAX;
    case tfl::kReduceMin: return TIGRIS_OP_REDUCE_MIN;
    case tfl::kFloorDiv: return TIGRIS_OP_FLOOR_DIV;
    case tfl::kFloorMod: return TIGRIS_OP_FLOOR_MOD;
    case tfl::kSquaredDifference: return TIGRIS_OP_SQUARED_DIFFERENCE;
    // Movements and the transposed convolution (lower_movement.cpp, lower_tconv.cpp).
    case tfl::kTranspose: return TIGRIS_OP_TRANSPOSE;
    case tfl::kStridedSlice: return TIGRIS_OP_STRIDED_SLICE;
    case tfl::kGather: return TIGRIS_OP_GATHER;
    case tfl::kSplit: return TIGRIS_OP_SPLIT;
    case tfl::kSplitV: return TIGRIS_OP_SPLIT;
    case tfl::kUnpack: return TIGRIS_OP_SPLIT;              // pieces of extent 1, then reshaped
    case tfl::kPack: return TIGRIS_OP_CONCAT;               // a concatenation on a new axis
    case tfl::kDepthToSpace: return TIGRIS_OP_TRANSPOSE;    // a rank-4 view swap
    case tfl::kSpaceToDepth: return TIGRIS_OP_TRANSPOSE;
    case tfl::kResizeNearestNeighbor: return TIGRIS_OP_RESIZE;
    case tfl::kResizeBilinear: return TIGRIS_OP_RESIZE_LINEAR;
    case tfl::kPrelu: return TIGRIS_OP_PRELU;
    case tfl::kSelectV2: return TIGRIS_OP_SELECT_V2;
    case tfl::kTransposeConv: return TIGRIS_OP_CONV_TRANSPOSE;
    // Comparisons (a bool output) and control flow (lower_control.cpp).
    case tfl::kLess: return TIGRIS_OP_LESS;
    case tfl::kLessEqual: return TIGRIS_OP_LESS_EQUAL;
    case tfl::kGreater: return TIGRIS_OP_GREATER;
    case tfl::kGreaterEqual: return TIGRIS_OP_GREATER_EQUAL;
    case tfl::kEqual: return TIGRIS_OP_EQUAL;
    case tfl::kIf: return TIGRIS_OP_IF;
    case tfl::kWhile: return TIGRIS_OP_WHILE;
    default: return std::nullopt;
    }
}

// A QUANTIZE from int8 to int8: TFLite's Requantize, which the plan runs as
// a 1x1 depthwise convolution with unit weights (lower_data.cpp).
bool is_requantize(const tfl::Model &m, const tfl::Operator &op, size_t sub) {
    const tfl::SubGraph &sg = m.subgraphs.at(sub);
    if (m.operator_codes.at(op.opcode_index).builtin != tfl::kQuantize) return false;
    if (op.inputs.size() != 1 || op.outputs.size() != 1 || op.inputs[0] < 0 || op.outputs[0] < 0) return false;
    return sg.tensors.at((size_t)op.inputs[0]).type == tfl::TensorType::Int8 &&
           sg.tensors.at((size_t)op.outputs[0]).type == tfl::TensorType::Int8;
}

}  // namespace

std::optional<uint8_t> direct_opcode(int32_t builtin) { return direct(builtin); }

bool is_boundary_conversion(const tfl::Model &m, size_t op_index, size_t sub) {
    // Only the model's own inputs and outputs have interface dtypes.
    if (sub != 0) return false;
    const tfl::SubGraph &sg = m.subgraphs.at(0);
    const tfl::Operator &op = sg.operators.at(op_index);
    const tfl::OperatorCode &code = m.operator_codes.at(op.opcode_index);
    if (op.inputs.size() != 1 || op.outputs.size() != 1) return false;
    if (code.builtin != tfl::kQuantize && code.builtin != tfl::kDequantize) return false;
    if (is_requantize(m, op, 0)) return false;
    return contains(sg.inputs, op.inputs[0]) || contains(sg.outputs, op.outputs[0]);
}

std::optional<uint8_t> lowered_opcode(const tfl::Model &m, size_t op_index, size_t sub) {
    const tfl::SubGraph &sg = m.subgraphs.at(sub);
    const tfl::Operator &op = sg.operators.at(op_index);
    const tfl::OperatorCode &code = m.operator_codes.at(op.opcode_index);
    if (code.builtin == tfl::kCustom)
        return code.custom_name == "TFLite_Detection_PostProcess" ? std::optional<uint8_t>(TIGRIS_OP_DETECTION_POSTPROCESS)
                                                                  : std::nullopt;
    if (is_requantize(m, op, sub)) return TIGRIS_OP_DEPTHWISE;
    if (code.builtin == tfl::kQuantize || code.builtin == tfl::kDequantize) return std::nullopt;
    return direct(code.builtin);
}

std::optional<Refusal> check_importable(const tfl::Model &m) {
    if (m.subgraphs.empty()) return Refusal{RefusalKind::InvalidModel, "the model has no subgraph"};
    if (m.subgraphs.size() > TIGRIS_MAX_SUBGRAPHS)
        return Refusal{RefusalKind::SeveralSubgraphs,
                       "the model has " + std::to_string(m.subgraphs.size()) + " subgraphs; a plan holds at most " +
                           std::to_string(TIGRIS_MAX_SUBGRAPHS)};
    // Every subgraph but the first must be a branch, condition or body of an
    // IF or WHILE: those are the only graphs a plan can run.
    std::vector<bool> used(m.subgraphs.size(), false);
    for (const tfl::SubGraph &g : m.subgraphs)
        for (const tfl::Operator &op : g.operators) {
            const int32_t b = m.operator_codes.at(op.opcode_index).builtin;
            if (b != tfl::kIf && b != tfl::kWhile) continue;
            for (int32_t k : {op.options.subgraph_a, op.options.subgraph_b})
                if (k > 0 && (size_t)k < used.size()) used[(size_t)k] = true;
        }
    for (size_t k = 1; k < m.subgraphs.size(); ++k)
        if (!used[k])
            return Refusal{RefusalKind::SeveralSubgraphs,
                           "subgraph " + std::to_string(k) +
                               " is run by no IF or WHILE; only the main subgraph and the graphs of control-flow "
                               "operators are lowered"};
    if (m.has_external_buffer_tables)
        return Refusal{RefusalKind::ExternalBuffer, "the model declares external buffer groups"};
    for (size_t i = 0; i < m.buffers.size(); ++i)
        if (m.buffers[i].external())
            return Refusal{RefusalKind::ExternalBuffer,
                           "buffer " + std::to_string(i) + " keeps its data outside the flatbuffer (offset/size form)"};
    for (size_t g = 0; g < m.subgraphs.size(); ++g) {
        const tfl::SubGraph &sg = m.subgraphs[g];
        const std::string where = g == 0 ? "" : "subgraph " + std::to_string(g) + " ";
        for (size_t i = 0; i < sg.operators.size(); ++i) {
            const tfl::OperatorCode &code = m.operator_codes[sg.operators[i].opcode_index];
            if (code.builtin == tfl::kCustom && code.custom_name != "TFLite_Detection_PostProcess")
                return Refusal{RefusalKind::CustomOperator,
                               where + "operator " + std::to_string(i) + " is the custom operator \"" +
                                   code.custom_name + "\" (only TFLite_Detection_PostProcess is lowered)"};
            if (!lowered_opcode(m, i, g) && !is_boundary_conversion(m, i, g)) {
                std::string why;
                if (code.builtin == tfl::kQuantize || code.builtin == tfl::kDequantize)
                    why = " inside the graph (only int8 -> int8 requantization and conversions of a model input or "
                          "output are lowered)";
                return Refusal{RefusalKind::UnsupportedOperator,
                               where + "operator " + std::to_string(i) + " " + tfl::builtin_name(code.builtin) + why +
                                   " is not supported"};
            }
        }
        for (size_t i = 0; i < sg.tensors.size(); ++i) {
            const tfl::Tensor &t = sg.tensors[i];
            std::string who = where + "tensor " + std::to_string(i) + (t.name.empty() ? "" : " \"" + t.name + "\"");
            if (t.has_external_buffer) return Refusal{RefusalKind::ExternalBuffer, who + " uses an external buffer"};
            if (t.has_sparsity) return Refusal{RefusalKind::SparseTensor, who + " is sparse"};
            switch (t.type) {
            case tfl::TensorType::Float32:
            case tfl::TensorType::Int8:
            case tfl::TensorType::UInt8:
            case tfl::TensorType::Int32:
            case tfl::TensorType::Int64:
            case tfl::TensorType::Bool: break;
            case tfl::TensorType::Int16: return Refusal{RefusalKind::Int16Tensor, who + " is INT16"};
            case tfl::TensorType::Int4: return Refusal{RefusalKind::Int4Tensor, who + " is INT4"};
            default: return Refusal{RefusalKind::UnsupportedDtype, who + " has type " + tfl::tensor_type_name(t.type)};
            }
        }
    }
    return std::nullopt;
}

}  // namespace tigris::import
