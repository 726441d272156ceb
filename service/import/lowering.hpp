// lowering.hpp - the state of one TFLite -> `.tgrs` lowering, shared by the
// files that lower operator families (private to service/import):
//   lower.cpp          tensors, quantization, windows, the operator switch,
//                      import_model()
//   lower_data.cpp     SLICE, PAD/PADV2, CONCATENATION, in-graph QUANTIZE
//   lower_binary.cpp   ADD/SUB/MUL/MAXIMUM/MINIMUM with a constant operand,
//                      LEAKY_RELU's alpha, encodings TFLite copies unchanged
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tigris_import/lower.hpp"
#include "tigris_import/quant.hpp"
#include "tigris_planfile/plan_builder.hpp"
#include "tigris_tflite/model.hpp"

namespace tigris::import::detail {

namespace tfl = tigris::tflite;
namespace pf = tigris::planfile;

[[noreturn]] void refuse(RefusalKind k, const std::string &msg);

struct Lowering {
    const tfl::Model &m;
    const tfl::SubGraph &sg;
    const Options &opt;
    pf::PlanBuilder b;
    Report report;
    std::map<int32_t, uint16_t> tensor_of;  // TFLite tensor -> plan tensor
    std::map<int32_t, int32_t> alias;       // folded boundary: TFLite tensor -> the one it stands for
    std::map<int32_t, uint8_t> iface;       // TFLite tensor -> declared interface dtype

    Lowering(const tfl::Model &model, const Options &o) : m(model), sg(model.subgraphs.at(0)), opt(o), b(o.schema) {}

    const tfl::Tensor &t(int32_t i) const { return sg.tensors.at((size_t)i); }
    std::span<const uint8_t> data(int32_t i) const;
    bool is_const(int32_t i) const { return i >= 0 && !t(i).is_variable && !data(i).empty(); }
    std::string who(size_t op_index) const;
    int32_t resolve(int32_t i) const;

    // The integers of a constant int32 or int64 tensor (SLICE begin/size,
    // PAD paddings); refuses any other type or a runtime tensor.
    std::vector<int64_t> const_ints(int32_t i, const std::string &what, size_t op_index) const;
    // True when both int8 tensors carry the very same scale and zero point
    // (float tensors: always true).
    bool same_encoding(int32_t a, int32_t b_) const;

    // ---- plan records ----
    void fold_boundaries();
    int quant_for(int32_t i, const std::vector<Multiplier> &mult);
    uint16_t tensor(int32_t i, const std::vector<Multiplier> &mult = {});
    uint16_t weight(int32_t i);
    void need_attributes(size_t op_index, const char *what) const;  // refuses schemas below 8

    // ---- operator pieces (lower.cpp) ----
    void act_bounds(pf::Op &o, int32_t out);
    void windowed(pf::Op &o, const tfl::Operator &op, int32_t kh, int32_t kw, int32_t in, int32_t out, size_t i);
    void lower_op(size_t i);

    // ---- families in their own files ----
    // Each fills o (and adds attributes for plan operator index `at`) and
    // leaves in `rt` the runtime inputs the plan operator reads, in order.
    void lower_slice(pf::Op &o, const tfl::Operator &op, std::vector<int32_t> &rt, size_t i, uint16_t at);
    void lower_pad(pf::Op &o, const tfl::Operator &op, std::vector<int32_t> &rt, size_t i, uint16_t at);
    void lower_concat(pf::Op &o, const tfl::Operator &op, std::vector<int32_t> &rt, size_t i);
    std::vector<Multiplier> lower_requantize(pf::Op &o, std::vector<int32_t> &rt, int32_t out, size_t i);
    void lower_binary(pf::Op &o, const tfl::Operator &op, std::vector<int32_t> &rt, size_t i, uint16_t at);
    void lower_leaky_relu(const tfl::Operator &op, size_t i, uint16_t at);
    // Operators TFLite runs on the raw int8 bytes (pools, reshape, slice,
    // pad, concatenation, maximum/minimum) would be requantized by the plan's
    // kernels when encodings differ: refuse that instead of diverging.
    void require_same_encoding(int32_t in, int32_t out, size_t i) const;
};

// Little-endian payload helpers for attributes.
void put_i32(std::vector<uint8_t> &v, int32_t x);
void put_u16(std::vector<uint8_t> &v, uint16_t x);

}  // namespace tigris::import::detail
