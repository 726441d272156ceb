// lowering.hpp - the state of one TFLite -> `.tgrs` lowering, shared by the
// files that lower operator families (private to service/import):
//   lower.cpp          tensors, quantization, windows, the operator switch,
//                      import_model()
//   lower_data.cpp     SLICE, PAD/PADV2, CONCATENATION, in-graph QUANTIZE
//   lower_binary.cpp   ADD/SUB/MUL/MAXIMUM/MINIMUM with a constant operand,
//                      LEAKY_RELU's alpha, encodings TFLite copies unchanged
//   lower_reduce.cpp   MEAN, SUM, REDUCE_MAX/MIN over any axis set
//   lower_movement.cpp TRANSPOSE, STRIDED_SLICE, GATHER, SPLIT/SPLIT_V/UNPACK,
//                      PACK, DEPTH_TO_SPACE/SPACE_TO_DEPTH, RESIZE_*, SELECT_V2
//   lower_tconv.cpp    TRANSPOSE_CONV
//   lower_control.cpp  IF and WHILE (their subgraphs), the comparisons
//   lower_recurrent.cpp SVDF and its state
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

// One Lowering per TFLite subgraph; all of them write into one PlanBuilder
// and one Report (plan graph k is TFLite subgraph k, docs/format.md P12).
struct Lowering {
    const tfl::Model &m;
    const size_t sub;  // the TFLite subgraph lowered
    const tfl::SubGraph &sg;
    const Options &opt;
    pf::PlanBuilder &b;
    Report &report;
    std::map<int32_t, uint16_t> tensor_of;  // TFLite tensor -> plan tensor
    std::map<int32_t, int32_t> alias;       // folded boundary: TFLite tensor -> the one it stands for
    std::map<int32_t, uint8_t> iface;       // TFLite tensor -> declared interface dtype

    Lowering(const tfl::Model &model, const Options &o, size_t subgraph, pf::PlanBuilder &builder, Report &rep)
        : m(model), sub(subgraph), sg(model.subgraphs.at(subgraph)), opt(o), b(builder), report(rep) {}

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
    // The plan tensor of model output `out`, made a copy of its own when it
    // is also a model input (a model that is only a conversion).
    uint16_t separate_from_input(int32_t out);

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
    // MEAN, SUM, REDUCE_MAX, REDUCE_MIN (plan opcode `type`): pushes its
    // own operators (lower_reduce.cpp).
    void lower_reduce(const tfl::Operator &op, size_t i, uint8_t type);
    // Operators that push their own plan operators (lower_movement.cpp,
    // lower_tconv.cpp); true when `builtin` was one of them.
    bool lower_self_pushing(const tfl::Operator &op, size_t i, int32_t builtin);
    void lower_transpose(const tfl::Operator &op, size_t i);
    void lower_strided_slice(const tfl::Operator &op, size_t i);
    void lower_gather(const tfl::Operator &op, size_t i);
    void lower_split(const tfl::Operator &op, size_t i, int32_t builtin);
    void lower_pack(const tfl::Operator &op, size_t i);
    void lower_space_depth(const tfl::Operator &op, size_t i, bool to_space);
    void lower_resize(const tfl::Operator &op, size_t i, bool bilinear);
    void lower_select(const tfl::Operator &op, size_t i);
    void lower_transpose_conv(const tfl::Operator &op, size_t i);
    // IF / WHILE (lower_control.cpp): one operator whose SUBGRAPHS attribute
    // names the plan graphs (= TFLite subgraph indices).
    void lower_control(const tfl::Operator &op, size_t i, int32_t builtin);
    // SVDF with its state (lower_recurrent.cpp): pushes its own operator.
    void lower_svdf(const tfl::Operator &op, size_t i);
    // EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL (lower_control.cpp).
    void lower_comparison(pf::Op &o, const tfl::Operator &op, std::vector<int32_t> &rt, size_t i, uint16_t at);

    // ---- helpers for operators that write several plan operators ----
    // The value of an option field as stored (signed), or `dflt` when absent.
    static int64_t option(const tfl::Operator &op, uint16_t id, int64_t dflt = 0);
    // A plan tensor of `shape` with the dtype and encoding of plan tensor `like`.
    uint16_t scratch(const std::string &name, uint16_t like, std::vector<int32_t> shape);
    // Appends a plan operator and returns its index.
    uint16_t push(uint8_t type, const std::string &name, std::vector<uint16_t> ins, std::vector<uint16_t> outs);
    // `from` seen as `shape` (an identity RESHAPE, run in place), or `from` itself when the shape is its own.
    uint16_t view(uint16_t from, std::vector<int32_t> shape, const std::string &name);
    // TRANSPOSE of `from` by `perm` (out[i] = in[perm[i]]) into a new tensor.
    uint16_t transposed(uint16_t from, const std::vector<uint8_t> &perm, const std::string &name, size_t i);

    // Operators TFLite runs on the raw int8 bytes (pools, reshape, slice,
    // pad, concatenation, maximum/minimum) would be requantized by the plan's
    // kernels when encodings differ: refuse that instead of diverging.
    void require_same_encoding(int32_t in, int32_t out, size_t i) const;
};

// Little-endian payload helpers for attributes.
void put_i32(std::vector<uint8_t> &v, int32_t x);
void put_u16(std::vector<uint8_t> &v, uint16_t x);

}  // namespace tigris::import::detail
