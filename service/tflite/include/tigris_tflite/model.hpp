// model.hpp - a TFLite model as read from its flatbuffer: only the parts that
// import (and export) need, copied out so nothing points into the file bytes
// except buffer spans, which refer to the caller's file image.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace tigris::tflite {

// Every refusal of a malformed or unsupported file is one of these; the
// message names what was wrong and where (byte offset or table path).
class ReadError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class TensorType : int8_t {
    Float32 = 0, Float16 = 1, Int32 = 2, UInt8 = 3, Int64 = 4, String = 5, Bool = 6,
    Int16 = 7, Complex64 = 8, Int8 = 9, Int4 = 17,
};

// Builtin operator codes the reader knows by name (the rest keep their number).
enum BuiltinOp : int32_t {
    kAdd = 0, kAveragePool2D = 1, kConcatenation = 2, kConv2D = 3, kDepthwiseConv2D = 4,
    kDequantize = 6, kFullyConnected = 9, kLogistic = 14, kMaxPool2D = 17, kMul = 18,
    kRelu = 19, kRelu6 = 21, kReshape = 22, kSoftmax = 25, kSvdf = 27, kTanh = 28, kPad = 34,
    kMean = 40, kSub = 41, kMaximum = 55, kMinimum = 57, kPadV2 = 60, kSlice = 65,
    kLeakyRelu = 98, kAbs = 101, kQuantize = 114, kHardSwish = 117, kCustom = 32,
    kFloor = 8, kL2Normalization = 11, kDiv = 42, kSqueeze = 43, kExp = 47, kLogSoftmax = 50,
    kNeg = 59, kSin = 66, kExpandDims = 70, kLog = 73, kSum = 74, kSqrt = 75, kRsqrt = 76,
    kReduceMax = 82, kReduceMin = 89, kFloorDiv = 90, kSquare = 92, kFloorMod = 95,
    kSquaredDifference = 99, kCeil = 104, kCos = 108, kElu = 111, kRound = 116,
    kDepthToSpace = 5, kResizeBilinear = 23, kSpaceToDepth = 26, kGather = 36, kTranspose = 39,
    kStridedSlice = 45, kSplit = 49, kPrelu = 54, kSelect = 64, kTransposeConv = 67, kPack = 83,
    kUnpack = 88, kResizeNearestNeighbor = 97, kSplitV = 102, kSelectV2 = 123, kReduceProd = 81,
    kLess = 58, kGreater = 61, kGreaterEqual = 62, kLessEqual = 63, kEqual = 71, kNotEqual = 72,
    kUnidirectionalSequenceLstm = 44, kIf = 118, kWhile = 119,
};

struct OperatorCode {
    int32_t builtin = 0;       // max(deprecated_builtin_code, builtin_code)
    std::string custom_name;   // set when builtin == kCustom
    int32_t version = 1;
};

struct Quantization {
    std::vector<float> min, max;  // kept for the writer; TFLM ignores them
    std::vector<float> scale;
    std::vector<int64_t> zero_point;
    int32_t quantized_dimension = 0;
    // TFLM treats a tensor as quantized only when both vectors are non-empty.
    bool present() const { return !scale.empty() && !zero_point.empty(); }
};

struct Tensor {
    std::string name;
    TensorType type = TensorType::Float32;
    std::vector<int32_t> shape;
    uint32_t buffer = 0;
    Quantization quant;
    bool is_variable = false;
    bool has_external_buffer = false;  // field 10 set: data lives outside the file
    bool has_sparsity = false;
    std::optional<std::vector<int32_t>> shape_signature;  // -1 marks a dynamic dimension
    bool has_rank = false;
};

// The union of the option fields of the operators we lower. Fields not
// carried by an operator's option table keep TFLite's schema defaults.
struct Options {
    uint8_t union_type = 0;      // builtin_options_type as stored (0 = no table)
    int8_t padding = 0;          // SAME = 0, VALID = 1
    int32_t stride_w = 0, stride_h = 0;
    int32_t dilation_w = 1, dilation_h = 1;
    int32_t filter_w = 0, filter_h = 0;
    int32_t depth_multiplier = 0;
    int8_t fused_activation = 0;  // NONE 0, RELU 1, RELU_N1_TO_1 2, RELU6 3, TANH 4
    int32_t axis = 0;             // CONCATENATION
    float beta = 0.0f;            // SOFTMAX
    float alpha = 0.0f;           // LEAKY_RELU
    int32_t rank = 0;             // SVDF
    bool keep_num_dims = false;   // FULLY_CONNECTED
    int8_t weights_format = 0;    // FULLY_CONNECTED (0 = DEFAULT)
    bool keep_dims = false;       // MEAN
    std::optional<std::vector<int32_t>> new_shape;  // RESHAPE (table or field may be absent)
    // IF: then / else subgraph; WHILE: cond / body subgraph (indices as stored, checked by the lowering).
    int32_t subgraph_a = 0, subgraph_b = 0;
};

// One field of a builtin option table exactly as stored, so a writer can put
// back every field the file set (and only those). Scalars keep their raw
// little-endian bits and width; the one vector kind in the option tables we
// carry is [int] (RESHAPE's new_shape).
struct OptionField {
    enum Kind : uint8_t { kScalar, kIntVector };
    uint16_t id = 0;
    Kind kind = kScalar;
    uint8_t width = 0;         // 1, 4 or 8 bytes (kScalar)
    uint64_t bits = 0;         // kScalar value, zero-extended
    std::vector<int32_t> ints; // kIntVector
    bool operator==(const OptionField &) const = default;
};

struct Operator {
    uint32_t opcode_index = 0;
    std::vector<int32_t> inputs;   // -1 = omitted optional input
    std::vector<int32_t> outputs;
    std::vector<int32_t> intermediates;
    Options options;
    // The option table as stored: whether it is present and each field it
    // sets (ids of the schema subset in reader.cpp, option_schema).
    bool has_option_table = false;
    std::vector<OptionField> option_fields;
    bool has_custom_options = false;
    std::span<const uint8_t> custom_options;
    int8_t custom_options_format = 0;
};

struct SubGraph {
    std::string name;
    std::vector<Tensor> tensors;
    std::vector<int32_t> inputs;
    std::vector<int32_t> outputs;
    std::vector<Operator> operators;
};

struct Buffer {
    std::span<const uint8_t> data;  // inside the file image passed to read_model, or into `owned`
    uint64_t offset = 0, size = 0;  // the >2 GB form: data outside the flatbuffer
    // Set for buffers a rewrite creates (SLICE begins, PAD amounts): `data`
    // points into it, and copies of the model share it.
    std::shared_ptr<const std::vector<uint8_t>> owned;
    bool external() const { return offset != 0 || size != 0; }
};

struct Metadata {
    std::string name;
    uint32_t buffer = 0;  // index into Model.buffers (checked)
};

struct TensorMap {
    std::string name;
    uint32_t tensor_index = 0;  // into the signature's subgraph (checked)
};

struct SignatureDef {
    std::vector<TensorMap> inputs, outputs;
    std::string signature_key;
    uint32_t subgraph_index = 0;  // checked
};

struct Model {
    uint32_t version = 0;
    std::string description;
    std::vector<OperatorCode> operator_codes;
    std::vector<SubGraph> subgraphs;
    std::vector<Buffer> buffers;
    std::vector<Metadata> metadata;
    std::vector<SignatureDef> signature_defs;
    bool has_external_buffer_tables = false;  // Model fields 8/9 present
    // Parts of the file this struct does not hold, one sentence each, in file
    // order ("the Tensor table sets field 6, which is not supported", option
    // tables of unknown types, quantization details, buffers stored outside
    // the FlatBuffer). Import ignores them; the writer (tigris_export) and
    // export refuse a model that has any, so nothing is dropped silently.
    std::vector<std::string> uncarried;
};

// Reads and checks a whole file image. Every offset is bounds-checked; every
// cross reference (opcode index, tensor index, buffer index) is validated so
// later stages may index without checks. Throws ReadError. The returned spans
// point into `file`, which must outlive the model.
Model read_model(std::span<const uint8_t> file);

// "CONV_2D", "FULLY_CONNECTED", ...; "BUILTIN_<n>" for codes TFLite's schema
// does not name (builtins.cpp).
std::string builtin_name(int32_t code);

// Every builtin code of TFLite's schema with its name, in code order.
struct BuiltinInfo {
    int32_t code;
    const char *name;
};
const std::vector<BuiltinInfo> &builtins();
const char *tensor_type_name(TensorType t);

}  // namespace tigris::tflite
