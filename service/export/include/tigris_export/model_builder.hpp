// model_builder.hpp - a TFLite model assembled in memory and written with the
// project's own writer: the oracle's seeded model generator and the example
// model the build compiles for the viewer are made with it.
// Option tables are set field by field with the schema's field ids, as the
// writer stores them (see docs/tflm-arena.md A10 for the ids it knows).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tigris_tflite/model.hpp"

namespace tigris::exporter {

namespace tfl = tigris::tflite;

struct Quant {
    std::vector<float> scale;  // empty: not quantized; one per channel for per-channel weights
    std::vector<int64_t> zero_point;
    int32_t dim = 0;
    static Quant per_tensor(float s, int64_t zp) { return {{s}, {zp}, 0}; }
};

// Builtin operator codes and BuiltinOptions union members the generator
// writes (numbers from TFLite's schema).
namespace op {
enum : int32_t {
    kAdd = 0, kAveragePool2D = 1, kConcatenation = 2, kConv2D = 3, kDepthwiseConv2D = 4, kDequantize = 6,
    kFullyConnected = 9, kLogistic = 14, kMaxPool2D = 17, kMul = 18, kRelu = 19, kRelu6 = 21, kReshape = 22,
    kSoftmax = 25, kTanh = 28, kPad = 34, kMean = 40, kSub = 41, kMaximum = 55, kMinimum = 57, kPadV2 = 60,
    kSlice = 65, kLeakyRelu = 98, kAbs = 101, kQuantize = 114, kHardSwish = 117,
    kFloor = 8, kL2Normalization = 11, kDiv = 42, kSqueeze = 43, kExp = 47, kLogSoftmax = 50, kNeg = 59,
    kSin = 66, kExpandDims = 70, kLog = 73, kSum = 74, kSqrt = 75, kRsqrt = 76, kReduceMax = 82,
    kReduceMin = 89, kFloorDiv = 90, kSquare = 92, kFloorMod = 95, kSquaredDifference = 99, kCeil = 104,
    kCos = 108, kElu = 111, kRound = 116,
    kDepthToSpace = 5, kResizeBilinear = 23, kSpaceToDepth = 26, kGather = 36, kTranspose = 39,
    kStridedSlice = 45, kSplit = 49, kPrelu = 54, kTransposeConv = 67, kPack = 83, kUnpack = 88,
    kResizeNearestNeighbor = 97, kSplitV = 102, kSelectV2 = 123, kSvdf = 27,
    kLess = 58, kGreater = 61, kGreaterEqual = 62, kLessEqual = 63, kEqual = 71, kIf = 118, kWhile = 119,
};
}
namespace opt {
enum : uint8_t {
    kConv2D = 1, kDepthwise = 2, kPool2D = 5, kFullyConnected = 8, kSoftmax = 9, kConcatenation = 10, kAdd = 11,
    kReshape = 17, kMul = 21, kPad = 22, kReducer = 27, kSub = 28, kDequantize = 38, kMaximumMinimum = 39,
    kPadV2 = 43, kSlice = 48, kLeakyRelu = 75, kAbs = 78, kQuantize = 89, kHardSwish = 91,
    kL2Norm = 12, kDiv = 29, kSqueeze = 30, kExp = 33, kLogSoftmax = 36, kNeg = 42, kExpandDims = 52,
    kFloorDiv = 65, kSquare = 66, kFloorMod = 72, kSquaredDifference = 76, kCos = 84,
    kResizeBilinear = 15, kSpaceToDepth = 19, kGather = 23, kTranspose = 26, kStridedSlice = 32, kSplit = 35,
    kTransposeConv = 49, kPack = 59, kUnpack = 64, kResizeNearestNeighbor = 74, kSplitV = 79,
    kDepthToSpace = 94, kSelectV2 = 98, kSvdf = 6,
    kLess = 41, kGreater = 44, kGreaterEqual = 45, kLessEqual = 46, kEqual = 53, kIf = 92, kWhile = 93,
};
}

class ModelBuilder {
public:
    ModelBuilder();

    // A runtime tensor (no data) or a constant (data given, little-endian).
    int32_t tensor(tfl::TensorType type, std::vector<int32_t> shape, Quant q = {}, std::vector<uint8_t> data = {});
    int32_t const_i32(std::vector<int32_t> shape, const std::vector<int32_t> &v, Quant q = {});
    int32_t const_i8(std::vector<int32_t> shape, const std::vector<int8_t> &v, Quant q);
    int32_t const_f32(std::vector<int32_t> shape, const std::vector<float> &v);
    // Marks a runtime tensor as a variable (state an operator keeps, e.g. SVDF's).
    void variable(int32_t id);

    // An operator with an option table of union type `options` (0: none).
    tfl::Operator &op(int32_t builtin, std::vector<int32_t> inputs, std::vector<int32_t> outputs,
                      uint8_t options = 0);
    // Option fields of the last operator, by schema field id.
    void opt_i8(uint16_t id, int8_t v) { field(id, 1, static_cast<uint8_t>(v)); }
    void opt_bool(uint16_t id, bool v) { field(id, 1, v ? 1u : 0u); }
    void opt_i32(uint16_t id, int32_t v) { field(id, 4, static_cast<uint32_t>(v)); }
    void opt_f32(uint16_t id, float v);
    void opt_ints(uint16_t id, std::vector<int32_t> v);

    // Tensors, operators and io() go to the current subgraph (0 at first).
    // add_subgraph() appends an empty one and makes it current (IF / WHILE
    // graphs); use_subgraph() selects one.
    size_t add_subgraph();
    void use_subgraph(size_t k);
    size_t current_subgraph() const { return cur_; }

    void io(std::vector<int32_t> inputs, std::vector<int32_t> outputs);
    const tfl::Tensor &t(int32_t id) const { return m_.subgraphs[cur_].tensors.at(static_cast<size_t>(id)); }
    const tfl::Model &model() const { return m_; }
    std::vector<uint8_t> write() const;

private:
    void field(uint16_t id, uint8_t width, uint64_t bits);
    uint32_t opcode(int32_t builtin);
    tfl::Model m_;
    size_t cur_ = 0;
};

}  // namespace tigris::exporter
