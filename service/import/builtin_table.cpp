// builtin_table.cpp - how `tigris import` treats every TFLite builtin: the
// plan operator it lowers to, or why it is refused. Printed by
// `tigris import --list-builtins`; docs/import.md holds the same table and a
// test keeps the two equal.
#include <map>

#include "tigris.h"
#include "tigris_import/support.hpp"

namespace tigris::import {
namespace tfl = tigris::tflite;

namespace {

// Builtins the runtime has an operator for but the lowering does not write yet.
const std::map<int32_t, uint8_t> &runtime_has() {
    static const std::map<int32_t, uint8_t> m = {
        {7, TIGRIS_OP_EMBEDDING_LOOKUP},    {12, TIGRIS_OP_L2_POOL},
        {16, TIGRIS_OP_LSTM},               {44, TIGRIS_OP_LSTM},
        {53, TIGRIS_OP_CAST},               {56, TIGRIS_OP_ARG_MAX},
        {64, TIGRIS_OP_SELECT_V2 /* SELECT: its rank-1 condition selects rows, which SELECT_V2 does not */},
        {79, TIGRIS_OP_ARG_MIN},
        {84, TIGRIS_OP_LOGICAL_OR},         {86, TIGRIS_OP_LOGICAL_AND},
        {87, TIGRIS_OP_LOGICAL_NOT},        {100, TIGRIS_OP_MIRROR_PAD},
        {105, TIGRIS_OP_REVERSE_V2},        {106, TIGRIS_OP_ADD_N},
        {107, TIGRIS_OP_GATHER_ND},         {126, TIGRIS_OP_MATMUL},
        {128, TIGRIS_OP_CUMSUM},            {140, TIGRIS_OP_REDUCE_ALL},
        {151, TIGRIS_OP_DYNAMIC_UPDATE_SLICE},
    };
    return m;
}

// What the lowerings of lower_movement.cpp and lower_tconv.cpp accept and refuse.
const char *movement_note(int32_t code) {
    switch (code) {
    case tfl::kTranspose: return "rank 1 to 6, constant perm";
    case tfl::kStridedSlice:
        return "rank 1 to 4, constant begin/end/strides, begin/end/shrink masks (ellipsis and new-axis masks, offset "
               "and a shrunk axis with a negative stride refused)";
    case tfl::kGather: return "constant indices (the weight) or int32 runtime indices, batch_dims";
    case tfl::kSplit:
    case tfl::kSplitV: return "constant axis (and sizes); one piece is a RESHAPE";
    case tfl::kUnpack: return "SPLIT into extent-1 pieces, each RESHAPEd to drop the axis";
    case tfl::kPack: return "inputs viewed [outer, 1, inner], CONCAT on the middle axis, RESHAPE";
    case tfl::kDepthToSpace:
    case tfl::kSpaceToDepth: return "RESHAPE, a rank-4 TRANSPOSE of two axis groups, RESHAPE";
    case tfl::kResizeNearestNeighbor:
    case tfl::kResizeBilinear:
        return "constant size; align_corners / half_pixel_centers as the coordinate mode (both set refused); int8 in one "
               "encoding";
    case tfl::kPrelu: return "constant slope (CONSTANT_OPERAND at position 1)";
    case tfl::kSelectV2: return "runtime operands only (constant operands refused), int8 values in the output's encoding";
    case tfl::kTransposeConv: return "constant weights and bias; fused RELU/RELU6 as a RELU/RELU6 operator after it";
    case tfl::kLess:
    case tfl::kLessEqual:
    case tfl::kGreater:
    case tfl::kGreaterEqual:
    case tfl::kEqual:
        return "float32 or int8 operands (int8: COMPARISON_REQUANT from each operand's scale), a constant operand as "
               "CONSTANT_OPERAND";
    case tfl::kSvdf:
        return "float32: CONSTANTS (feature weights, time weights, bias), SVDF rank, the variable state as a STATE "
               "input and its next value as a STATE output; int8 refused (TFLite Micro's int8 SVDF has int16 time "
               "weights and state: int16-tensor)";
    case tfl::kIf:
        return "then / else subgraphs as plan graphs (SUBGRAPHS); runtime operands of the branches' own form only";
    case tfl::kWhile:
        return "cond / body subgraphs as plan graphs (SUBGRAPHS); runtime loop variables of the graphs' own form only";
    default: return nullptr;
    }
}

}  // namespace

std::vector<BuiltinSupport> builtin_support() {
    std::vector<BuiltinSupport> out;
    for (const tfl::BuiltinInfo &b : tfl::builtins()) {
        BuiltinSupport s;
        s.code = b.code;
        s.name = b.name;
        if (auto op = direct_opcode(b.code)) {
            s.opcode = *op;
            if (b.code == tfl::kSqueeze || b.code == tfl::kExpandDims) s.note = "same bytes, new shape";
            else if (b.code == tfl::kMean || b.code == tfl::kSum || b.code == tfl::kReduceMax || b.code == tfl::kReduceMin)
                s.note = "any axis set: a rank-3 view and one-axis reduction (axes that are not adjacent moved together by a TRANSPOSE first)";
            else if (b.code == tfl::kDiv) s.note = "float32 (int8 refused: its rescaling is not TFLite Micro's yet)";
            else if (b.code == tfl::kRelu6) s.note = "int8: input and output in one encoding (TFLite clamps raw bytes)";
            else if (auto n = movement_note(b.code)) s.note = n;
        } else if (b.code == tfl::kQuantize) {
            s.note = "float32 -> int8 at a model input: the interface dtype; int8 -> int8: DEPTHWISE 1x1 (requantize)";
        } else if (b.code == tfl::kDequantize) {
            s.note = "int8 -> float32 at a model output: the interface dtype; elsewhere refused";
        } else if (b.code == tfl::kCustom) {
            s.opcode = TIGRIS_OP_DETECTION_POSTPROCESS;
            s.note = "TFLite_Detection_PostProcess only; other custom operators refused";
        } else if (auto it = runtime_has().find(b.code); it != runtime_has().end()) {
            s.refused = true;
            s.runtime_opcode = it->second;
            s.note = b.code == tfl::kUnidirectionalSequenceLstm
                         ? "refused: the runtime has the operator, the lowering is not written yet (TFLite Micro's "
                           "int8 LSTM also needs int16 tensors, which import refuses)"
                         : "refused: the runtime has the operator, the lowering is not written yet";
        } else {
            s.refused = true;
            s.note = "refused: no runtime operator";
        }
        out.push_back(s);
    }
    return out;
}

}  // namespace tigris::import
