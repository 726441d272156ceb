// lower_reduce.cpp - MEAN, SUM, REDUCE_MAX and REDUCE_MIN over any set of axes.
//
// The runtime reduces one axis of a rank-3 tensor (REDUCE_* with AXES),
// while TFLite's reductions take any axis set and reduce over all of them at
// once (int8 MEAN/SUM: QuantizedMeanOrSum with the count of every reduced
// element; MAX/MIN: raw comparisons in one encoding).
// Axes of extent 1 change nothing, so when the reduced axes of extent above 1
// are adjacent the input is viewed as [outer, reduced, inner]: an identity
// RESHAPE to that rank-3 view, the one-axis reduction (keep dims), and a
// RESHAPE to TFLite's output shape. Both reshapes are pure reinterpretations
// the executor runs in place, and the reduction sees the same elements and
// count as TFLite's, so the bytes are the same. Other axis sets are first
// transposed so that the reduced axes are adjacent.
#include <algorithm>
#include <set>

#include "lowering.hpp"
#include "tigris.h"

namespace tigris::import::detail {

void Lowering::lower_reduce(const tfl::Operator &op, size_t i, uint8_t type) {
    const std::string w = who(i);
    if (op.inputs.size() != 2 || op.inputs[0] < 0 || op.inputs[1] < 0 || op.outputs.size() != 1)
        refuse(RefusalKind::InvalidModel, w + ": needs an input, constant axes and one output");
    const int32_t x = op.inputs[0], out = op.outputs[0];
    if (is_const(x)) refuse(RefusalKind::UnsupportedOperator, w + ": a constant input is not lowered");
    const auto &xs = t(x).shape;
    const int64_t rank = (int64_t)xs.size();
    if (rank < 1 || rank > 6) refuse(RefusalKind::UnsupportedAttribute, w + ": rank " + std::to_string(rank));
    std::set<int64_t> axes;
    for (int64_t a : const_ints(op.inputs[1], "axes", i)) {
        if (a < -rank || a >= rank) refuse(RefusalKind::InvalidModel, w + ": axis " + std::to_string(a) + " out of range");
        axes.insert(a < 0 ? a + rank : a);
    }
    if (axes.empty()) refuse(RefusalKind::UnsupportedAttribute, w + ": an empty axis list is not lowered");
    need_attributes(i, "AXES");
    if (type == TIGRIS_OP_REDUCE_MAX || type == TIGRIS_OP_REDUCE_MIN) require_same_encoding(x, out, i);
    // [outer, reduced, inner] over the axes of extent above 1.
    int64_t outer = 1, reduced = 1, inner = 1;
    int phase = 0;  // 0: before the reduced run, 1: inside it, 2: after it
    bool adjacent = true;
    for (int64_t a = 0; a < rank; ++a) {
        const int64_t d = xs[(size_t)a];
        if (d == 1) continue;
        const bool r = axes.count(a) > 0;
        if (r && phase == 2) adjacent = false;
        if (r) phase = 1;
        else if (phase == 1) phase = 2;
        (phase == 0 ? outer : phase == 1 ? reduced : inner) *= d;
    }
    uint16_t px = tensor(x);
    const uint16_t py = tensor(out);
    if (!adjacent) {
        // The kept axes first, then the reduced ones, each in their order: a
        // TRANSPOSE makes the reduced axes one trailing run. The reduction
        // sees the same elements (int8 sums are exact in any order; float32
        // ones are within the oracle's bound), and the kept axes keep their
        // order, so the output bytes are TFLite's.
        std::vector<uint8_t> perm;
        for (int64_t a = 0; a < rank; ++a)
            if (!axes.count(a)) perm.push_back((uint8_t)a);
        for (int64_t a = 0; a < rank; ++a)
            if (axes.count(a)) perm.push_back((uint8_t)a);
        px = transposed(px, perm, t(out).name + "/reduce_order", i);
        outer = reduced = 1;
        inner = 1;
        for (int64_t a = 0; a < rank; ++a) (axes.count(a) ? reduced : outer) *= xs[(size_t)a];
    }
    if (outer > INT32_MAX || reduced > INT32_MAX || inner > INT32_MAX)
        refuse(RefusalKind::InvalidModel, w + ": tensor too large");
    // Copies: add_tensor may move the tensor table.
    const pf::Tensor tx = b.tensors[px], ty = b.tensors[py];
    const std::string base = t(out).name;
    const uint16_t view_in = b.add_tensor(base + "/mean_in", tx.dtype, {(int32_t)outer, (int32_t)reduced, (int32_t)inner},
                                          0, tx.quant);
    const uint16_t view_out = b.add_tensor(base + "/mean_out", ty.dtype, {(int32_t)outer, 1, (int32_t)inner}, 0, ty.quant);
    pf::Op to3;
    to3.name = base + "/mean_view";
    to3.type = TIGRIS_OP_RESHAPE;
    to3.inputs = {px};
    to3.outputs = {view_in};
    b.ops.push_back(to3);
    pf::Op mean;
    mean.name = base;
    mean.type = type;
    mean.inputs = {view_in};
    mean.outputs = {view_out};
    b.ops.push_back(mean);
    b.add_attribute((uint16_t)(b.ops.size() - 1), TIGRIS_ATTR_AXES, {1});
    pf::Op back;
    back.name = base + "/mean_shape";
    back.type = TIGRIS_OP_RESHAPE;
    back.inputs = {view_out};
    back.outputs = {py};
    b.ops.push_back(back);
}

}  // namespace tigris::import::detail
