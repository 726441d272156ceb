// lower_movement.cpp - TFLite operators that move bytes, lowered onto the
// runtime's movement operators (docs/import.md, "Movement"):
//   TRANSPOSE                      -> TRANSPOSE (TRANSPOSE_PERM)
//   STRIDED_SLICE                  -> STRIDED_SLICE (MOVEMENT start, end, step, shrink)
//   GATHER                         -> GATHER (MOVEMENT axis, batch_dims, index shape)
//   SPLIT, SPLIT_V, UNPACK         -> SPLIT (+ a RESHAPE per output for UNPACK)
//   PACK                           -> RESHAPE views + CONCAT on the middle axis of a rank-3 view
//   DEPTH_TO_SPACE, SPACE_TO_DEPTH -> RESHAPE, a rank-4 TRANSPOSE, RESHAPE
//   RESIZE_NEAREST_NEIGHBOR        -> RESIZE (coordinate mode in kernel_h)
//   RESIZE_BILINEAR                -> RESIZE_LINEAR
//   SELECT_V2                      -> SELECT_V2
// TFLite copies the raw int8 bytes in all of them (resize-bilinear computes on
// raw values too), so each is lowered only when input and output share one
// encoding; the runtime would requantize otherwise.
#include <algorithm>
#include <numeric>

#include "lowering.hpp"
#include "tigris.h"

namespace tigris::import::detail {

namespace {

int64_t product(const std::vector<int32_t> &s, size_t from, size_t to) {
    int64_t n = 1;
    for (size_t k = from; k < to && k < s.size(); ++k) n *= s[k];
    return n;
}

// TFLite's normalisation of a possibly negative axis of a rank-`rank` tensor.
int64_t norm_axis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }

}  // namespace

int64_t Lowering::option(const tfl::Operator &op, uint16_t id, int64_t dflt) {
    for (const tfl::OptionField &f : op.option_fields) {
        if (f.id != id || f.kind != tfl::OptionField::kScalar) continue;
        switch (f.width) {
        case 1: return (int64_t)(int8_t)(uint8_t)f.bits;
        case 4: return (int64_t)(int32_t)(uint32_t)f.bits;
        default: return (int64_t)f.bits;
        }
    }
    return dflt;
}

uint16_t Lowering::scratch(const std::string &name, uint16_t like, std::vector<int32_t> shape) {
    const pf::Tensor &l = b.tensors[like];
    const uint8_t dt = l.dtype;
    const int q = l.quant;
    return b.add_tensor(name, dt, std::move(shape), 0, q);
}

uint16_t Lowering::push(uint8_t type, const std::string &name, std::vector<uint16_t> ins, std::vector<uint16_t> outs) {
    pf::Op o;
    o.name = name;
    o.type = type;
    o.inputs = std::move(ins);
    o.outputs = std::move(outs);
    b.ops.push_back(o);
    return (uint16_t)(b.ops.size() - 1);
}

uint16_t Lowering::view(uint16_t from, std::vector<int32_t> shape, const std::string &name) {
    if (b.tensors[from].shape == shape) return from;
    const uint16_t v = scratch(name, from, std::move(shape));
    push(TIGRIS_OP_RESHAPE, name, {from}, {v});
    return v;
}

uint16_t Lowering::transposed(uint16_t from, const std::vector<uint8_t> &perm, const std::string &name, size_t i) {
    need_attributes(i, "TRANSPOSE_PERM");
    const std::vector<int32_t> &xs = b.tensors[from].shape;
    std::vector<int32_t> ys;
    for (uint8_t p : perm) ys.push_back(xs.at(p));
    const uint16_t y = scratch(name, from, ys);
    const uint16_t at = push(TIGRIS_OP_TRANSPOSE, name, {from}, {y});
    b.add_attribute(at, TIGRIS_ATTR_TRANSPOSE_PERM, perm);
    return y;
}

bool Lowering::lower_self_pushing(const tfl::Operator &op, size_t i, int32_t builtin) {
    switch (builtin) {
    case tfl::kTranspose: lower_transpose(op, i); return true;
    case tfl::kStridedSlice: lower_strided_slice(op, i); return true;
    case tfl::kGather: lower_gather(op, i); return true;
    case tfl::kSplit:
    case tfl::kSplitV:
    case tfl::kUnpack: lower_split(op, i, builtin); return true;
    case tfl::kPack: lower_pack(op, i); return true;
    case tfl::kDepthToSpace: lower_space_depth(op, i, true); return true;
    case tfl::kSpaceToDepth: lower_space_depth(op, i, false); return true;
    case tfl::kResizeNearestNeighbor: lower_resize(op, i, false); return true;
    case tfl::kResizeBilinear: lower_resize(op, i, true); return true;
    case tfl::kSelectV2: lower_select(op, i); return true;
    case tfl::kTransposeConv: lower_transpose_conv(op, i); return true;
    default: return false;
    }
}

// A runtime data input of a movement operator: constants are not lowered
// (TFLite's converter folds movements of constants away).
static void need_runtime(const Lowering &L, int32_t x, size_t i) {
    if (x < 0 || L.is_const(x))
        refuse(RefusalKind::UnsupportedOperator, L.who(i) + ": a constant data input is not lowered");
}

void Lowering::lower_transpose(const tfl::Operator &op, size_t i) {
    const std::string w = who(i);
    if (op.inputs.size() != 2 || op.outputs.size() != 1) refuse(RefusalKind::InvalidModel, w + ": needs input, perm and one output");
    const int32_t x = op.inputs[0], out = op.outputs[0];
    need_runtime(*this, x, i);
    const auto perm = const_ints(op.inputs[1], "perm", i);
    const size_t r = t(x).shape.size();
    if (r < 1 || r > 6) refuse(RefusalKind::UnsupportedAttribute, w + ": rank " + std::to_string(r) + " (1 to 6 are lowered)");
    if (perm.size() != r) refuse(RefusalKind::InvalidModel, w + ": perm must have one entry per input axis");
    std::vector<uint8_t> p;
    std::vector<bool> seen(r, false);
    for (int64_t a : perm) {
        const int64_t n = norm_axis(a, (int64_t)r);
        if (n < 0 || n >= (int64_t)r || seen[(size_t)n]) refuse(RefusalKind::InvalidModel, w + ": perm is not a permutation");
        seen[(size_t)n] = true;
        p.push_back((uint8_t)n);
    }
    require_same_encoding(x, out, i);
    need_attributes(i, "TRANSPOSE_PERM");
    const uint16_t px = tensor(x), py = tensor(out);
    const uint16_t at = push(TIGRIS_OP_TRANSPOSE, t(out).name, {px}, {py});
    b.add_attribute(at, TIGRIS_ATTR_TRANSPOSE_PERM, p);
}

// STRIDED_SLICE(x, begin, end, strides): TFLite Micro's start and stop per
// axis (negative indices wrap once, then clamp; a begin/end mask takes the
// whole extent in the stride's direction; a shrunk axis keeps one element)
// become the plan's normalised (start, end, step) and shrink mask.
void Lowering::lower_strided_slice(const tfl::Operator &op, size_t i) {
    const std::string w = who(i);
    if (op.inputs.size() != 4 || op.outputs.size() != 1)
        refuse(RefusalKind::InvalidModel, w + ": needs input, begin, end, strides and one output");
    const int32_t x = op.inputs[0], out = op.outputs[0];
    need_runtime(*this, x, i);
    const auto &xs = t(x).shape;
    const size_t r = xs.size();
    if (r < 1 || r > 4) refuse(RefusalKind::UnsupportedAttribute, w + ": rank " + std::to_string(r) + " (1 to 4 are lowered)");
    const auto begin = const_ints(op.inputs[1], "begin", i), end = const_ints(op.inputs[2], "end", i),
               strides = const_ints(op.inputs[3], "strides", i);
    if (begin.size() != r || end.size() != r || strides.size() != r)
        refuse(RefusalKind::UnsupportedAttribute, w + ": begin, end and strides must have one entry per input axis");
    const int64_t begin_mask = option(op, 0), end_mask = option(op, 1), ellipsis = option(op, 2),
                  new_axis = option(op, 3), shrink = option(op, 4), offset = option(op, 5);
    if (ellipsis || new_axis)
        refuse(RefusalKind::UnsupportedAttribute, w + ": ellipsis and new-axis masks are not lowered");
    if (offset) refuse(RefusalKind::UnsupportedAttribute, w + ": the offset option is not lowered");
    if (shrink < 0 || (shrink >> r) != 0) refuse(RefusalKind::InvalidModel, w + ": shrink mask names an axis past the rank");
    need_attributes(i, "MOVEMENT");
    std::vector<uint8_t> payload;
    std::vector<int32_t> ys;
    for (size_t a = 0; a < r; ++a) {
        const int64_t dim = xs[a], step = strides[a];
        if (step == 0 || step < INT32_MIN || step > INT32_MAX) refuse(RefusalKind::InvalidModel, w + ": a stride of 0");
        const bool shrunk = (shrink >> a) & 1;
        if (shrunk && step < 0)
            refuse(RefusalKind::UnsupportedAttribute, w + ": a shrunk axis with a negative stride is not lowered");
        auto clampi = [&](int64_t v) { return step > 0 ? std::clamp<int64_t>(v, 0, dim) : std::clamp<int64_t>(v, -1, dim - 1); };
        int64_t s = (begin_mask >> a) & 1 ? (step > 0 ? 0 : dim - 1) : begin[a];
        if (!((begin_mask >> a) & 1)) s = clampi(s < 0 ? s + dim : s);
        int64_t e;
        if (shrunk) e = s + 1;
        else if ((end_mask >> a) & 1) e = step > 0 ? dim : -1;
        else e = clampi(end[a] < 0 ? end[a] + dim : end[a]);
        const int64_t span = step > 0 ? e - s : s - e, mag = step > 0 ? step : -step;
        const int64_t n = span <= 0 ? 0 : (span + mag - 1) / mag;
        if (n == 0) refuse(RefusalKind::UnsupportedAttribute, w + ": an empty slice on axis " + std::to_string(a));
        if (!shrunk) ys.push_back((int32_t)n);
        put_i32(payload, (int32_t)s);
        put_i32(payload, (int32_t)e);
        put_i32(payload, (int32_t)(shrunk ? 1 : step));
    }
    if (ys.empty()) refuse(RefusalKind::UnsupportedAttribute, w + ": every axis shrunk (a scalar output) is not lowered");
    if (ys != t(out).shape) refuse(RefusalKind::InvalidModel, w + ": the output shape is not the slice's");
    if (shrink) put_i32(payload, (int32_t)shrink);
    require_same_encoding(x, out, i);
    const uint16_t px = tensor(x), py = tensor(out);
    const uint16_t at = push(TIGRIS_OP_STRIDED_SLICE, t(out).name, {px}, {py});
    b.add_attribute(at, TIGRIS_ATTR_MOVEMENT, payload);
}

// GATHER(params, indices): indices a constant (the operator's weight, as
// int32) or a runtime int32 tensor (second input).
void Lowering::lower_gather(const tfl::Operator &op, size_t i) {
    const std::string w = who(i);
    if (op.inputs.size() != 2 || op.outputs.size() != 1) refuse(RefusalKind::InvalidModel, w + ": needs params, indices and one output");
    const int32_t x = op.inputs[0], idx = op.inputs[1], out = op.outputs[0];
    need_runtime(*this, x, i);
    if (idx < 0) refuse(RefusalKind::InvalidModel, w + ": no indices");
    const auto &xs = t(x).shape;
    const int64_t rank = (int64_t)xs.size();
    std::vector<int32_t> is = t(idx).shape;
    const int64_t ir = (int64_t)is.size();
    const int64_t axis = norm_axis(option(op, 0), rank), batch = norm_axis(option(op, 1), ir);
    if (rank < 1 || rank > 6) refuse(RefusalKind::UnsupportedAttribute, w + ": rank " + std::to_string(rank) + " (1 to 6 are lowered)");
    if (axis < 0 || axis >= rank || batch < 0 || batch > axis || batch > ir)
        refuse(RefusalKind::InvalidModel, w + ": axis or batch_dims out of range");
    // A scalar index into a rank-1 tensor gives a scalar, which the plan
    // stores as shape [1]: the same gather with one index of shape [1].
    int64_t irr = ir;
    if (t(out).shape.empty() && ir == 0) {
        is = {1};
        irr = 1;
    }
    if (3 + ir > 19) refuse(RefusalKind::UnsupportedAttribute, w + ": indices of rank above 16");
    need_attributes(i, "MOVEMENT");
    std::vector<uint8_t> payload;
    put_i32(payload, (int32_t)axis);
    put_i32(payload, (int32_t)batch);
    put_i32(payload, (int32_t)irr);
    for (int32_t d : is) put_i32(payload, d);
    require_same_encoding(x, out, i);
    pf::Op o;
    o.name = t(out).name;
    o.type = TIGRIS_OP_GATHER;
    o.inputs = {tensor(x)};
    if (is_const(idx)) {
        // TFLite Micro refuses an index outside the axis at run time; a model
        // it would not run is not lowered either.
        std::vector<int32_t> v;
        for (int64_t k : const_ints(idx, "indices", i)) {
            if (k < 0 || k >= xs[(size_t)axis])
                refuse(RefusalKind::InvalidModel, w + ": index " + std::to_string(k) + " outside the axis");
            v.push_back((int32_t)k);
        }
        o.weight = b.add_i32_weight(t(idx).name, v);
    } else {
        if (t(idx).type != tfl::TensorType::Int32)
            refuse(RefusalKind::UnsupportedDtype, w + ": runtime indices must be int32");
        o.inputs.push_back(tensor(idx));
    }
    o.outputs = {tensor(out)};
    b.ops.push_back(o);
    b.add_attribute((uint16_t)(b.ops.size() - 1), TIGRIS_ATTR_MOVEMENT, payload);
}

// SPLIT(axis, x), SPLIT_V(x, sizes, axis), UNPACK(x): one SPLIT along the
// axis (kernel_h, 0 = outermost); UNPACK's pieces keep the axis as extent 1
// and are then reshaped to drop it. One piece is a plain RESHAPE.
void Lowering::lower_split(const tfl::Operator &op, size_t i, int32_t builtin) {
    const std::string w = who(i);
    int32_t x = -1;
    int64_t axis = 0;
    if (builtin == tfl::kSplit) {
        if (op.inputs.size() != 2) refuse(RefusalKind::InvalidModel, w + ": needs axis and input");
        x = op.inputs[1];
        const auto a = const_ints(op.inputs[0], "axis", i);
        if (a.size() != 1) refuse(RefusalKind::InvalidModel, w + ": axis must be one value");
        axis = a[0];
    } else if (builtin == tfl::kSplitV) {
        if (op.inputs.size() != 3) refuse(RefusalKind::InvalidModel, w + ": needs input, sizes and axis");
        x = op.inputs[0];
        const auto a = const_ints(op.inputs[2], "axis", i);
        if (a.size() != 1) refuse(RefusalKind::InvalidModel, w + ": axis must be one value");
        axis = a[0];
    } else {
        if (op.inputs.size() != 1) refuse(RefusalKind::InvalidModel, w + ": needs one input");
        x = op.inputs[0];
        axis = option(op, 1);
    }
    need_runtime(*this, x, i);
    const auto &xs = t(x).shape;
    const int64_t rank = (int64_t)xs.size();
    axis = norm_axis(axis, rank);
    if (rank < 1 || axis < 0 || axis >= rank) refuse(RefusalKind::InvalidModel, w + ": axis out of range");
    if (op.outputs.empty() || op.outputs.size() > 255) refuse(RefusalKind::UnsupportedAttribute, w + ": 1 to 255 outputs are lowered");
    for (int32_t y : op.outputs) {
        if (y < 0) refuse(RefusalKind::InvalidModel, w + ": an omitted output");
        require_same_encoding(x, y, i);
    }
    const uint16_t px = tensor(x);
    std::vector<uint16_t> pieces;
    for (size_t k = 0; k < op.outputs.size(); ++k) {
        const int32_t y = op.outputs[k];
        if (builtin != tfl::kUnpack) {
            if ((int64_t)t(y).shape.size() != rank) refuse(RefusalKind::InvalidModel, w + ": an output of another rank");
            pieces.push_back(tensor(y));
            continue;
        }
        std::vector<int32_t> s = xs;
        s[(size_t)axis] = 1;
        std::vector<int32_t> want = xs;
        want.erase(want.begin() + axis);
        if (t(y).shape != want && !(want.empty() && t(y).shape.empty()))
            refuse(RefusalKind::InvalidModel, w + ": an output is not the input without the axis");
        pieces.push_back(op.outputs.size() == 1 ? px : scratch(t(y).name + "/piece", px, s));
    }
    if (op.outputs.size() == 1) {
        // One piece: the bytes are the input's.
        push(TIGRIS_OP_RESHAPE, t(op.outputs[0]).name, {px}, {tensor(op.outputs[0])});
        return;
    }
    const uint16_t at = push(TIGRIS_OP_SPLIT, t(op.outputs[0]).name, {px}, pieces);
    b.ops[at].spatial.kernel_h = (uint8_t)axis;
    if (builtin == tfl::kUnpack)
        for (size_t k = 0; k < op.outputs.size(); ++k)
            push(TIGRIS_OP_RESHAPE, t(op.outputs[k]).name, {pieces[k]}, {tensor(op.outputs[k])});
}

// PACK(x0, ..., xn) on `axis`: every input seen as [outer, 1, inner], one
// CONCAT on the middle axis of the rank-3 view [outer, n, inner], which has
// the bytes of the packed output, then a RESHAPE to TFLite's shape. (The
// rank-3 view sidesteps the plan's rank-4 axis-0 convention of CONCAT.)
void Lowering::lower_pack(const tfl::Operator &op, size_t i) {
    const std::string w = who(i);
    if (op.inputs.empty() || op.outputs.size() != 1) refuse(RefusalKind::InvalidModel, w + ": needs inputs and one output");
    if (op.inputs.size() > 255) refuse(RefusalKind::UnsupportedAttribute, w + ": more than 255 inputs");
    const int32_t out = op.outputs[0];
    const auto &s0 = t(op.inputs[0]).shape;
    const int64_t rank = (int64_t)s0.size();
    const int64_t axis = norm_axis(option(op, 1), rank + 1);
    if (axis < 0 || axis > rank) refuse(RefusalKind::InvalidModel, w + ": axis out of range");
    for (int32_t x : op.inputs) {
        need_runtime(*this, x, i);
        if (t(x).shape != s0) refuse(RefusalKind::InvalidModel, w + ": inputs of different shapes");
        require_same_encoding(x, out, i);
    }
    const int64_t outer = product(s0, 0, (size_t)axis), inner = product(s0, (size_t)axis, s0.size());
    if (outer > INT32_MAX || inner > INT32_MAX) refuse(RefusalKind::InvalidModel, w + ": tensor too large");
    const int32_t n = (int32_t)op.inputs.size();
    const std::string base = t(out).name;
    std::vector<uint16_t> parts;
    for (size_t k = 0; k < op.inputs.size(); ++k)
        parts.push_back(view(tensor(op.inputs[k]), {(int32_t)outer, 1, (int32_t)inner}, base + "/pack_in" + std::to_string(k)));
    const uint16_t py = tensor(out);
    const uint16_t cat = scratch(base + "/pack", py, {(int32_t)outer, n, (int32_t)inner});
    const uint16_t at = push(TIGRIS_OP_CONCAT, base + "/pack", parts, {cat});
    b.ops[at].spatial.kernel_h = 1;
    push(TIGRIS_OP_RESHAPE, base, {cat}, {py});
}

// DEPTH_TO_SPACE / SPACE_TO_DEPTH with block b on [N,H,W,C]: both are one
// swap of two adjacent axis groups in a rank-4 view (TFLite's channel order
// is (row in block, column in block, channel)):
//   depth-to-space [N·H, W, b, b·C'] -> [N·H, b, W, b·C'],
//   space-to-depth [N·H', b, W', b·C] -> [N·H', W', b, b·C].
void Lowering::lower_space_depth(const tfl::Operator &op, size_t i, bool to_space) {
    const std::string w = who(i);
    if (op.inputs.size() != 1 || op.outputs.size() != 1) refuse(RefusalKind::InvalidModel, w + ": needs one input and one output");
    const int32_t x = op.inputs[0], out = op.outputs[0];
    need_runtime(*this, x, i);
    const auto &xs = t(x).shape, &ys = t(out).shape;
    const int64_t bs = option(op, 0);
    if (xs.size() != 4 || ys.size() != 4) refuse(RefusalKind::InvalidModel, w + ": input and output must be rank 4");
    if (bs < 1 || bs > 0xFFFF) refuse(RefusalKind::InvalidModel, w + ": block size out of range");
    const int32_t bl = (int32_t)bs;
    std::vector<int32_t> want;
    if (to_space) {
        if (xs[3] % (bl * bl)) refuse(RefusalKind::InvalidModel, w + ": channels not divisible by block²");
        want = {xs[0], xs[1] * bl, xs[2] * bl, xs[3] / (bl * bl)};
    } else {
        if (xs[1] % bl || xs[2] % bl) refuse(RefusalKind::InvalidModel, w + ": height or width not divisible by the block");
        want = {xs[0], xs[1] / bl, xs[2] / bl, xs[3] * bl * bl};
    }
    if (ys != want) refuse(RefusalKind::InvalidModel, w + ": the output shape is not the rearrangement's");
    require_same_encoding(x, out, i);
    const std::string base = t(out).name;
    const uint16_t px = tensor(x), py = tensor(out);
    const std::vector<int32_t> in_view = to_space ? std::vector<int32_t>{xs[0] * xs[1], xs[2], bl, bl * ys[3]}
                                                  : std::vector<int32_t>{xs[0] * ys[1], bl, ys[2], bl * xs[3]};
    const uint16_t v = view(px, in_view, base + "/blocks");
    const uint16_t tr = transposed(v, {0, 2, 1, 3}, base + "/moved", i);
    push(TIGRIS_OP_RESHAPE, base, {tr}, {py});
}

// RESIZE_NEAREST_NEIGHBOR / RESIZE_BILINEAR(x, size): TFLite's
// (align_corners, half_pixel_centers) pair is the plan's coordinate mode
// (docs/runtime-semantics.md R4.7): nearest (F,F) 1, (F,T) 3, (T,F) 2;
// bilinear (F,F) 1, (F,T) 0, (T,F) 2. Both set is refused (TFLite's
// converter never writes it).
void Lowering::lower_resize(const tfl::Operator &op, size_t i, bool bilinear) {
    const std::string w = who(i);
    if (op.inputs.size() != 2 || op.outputs.size() != 1) refuse(RefusalKind::InvalidModel, w + ": needs input, size and one output");
    const int32_t x = op.inputs[0], out = op.outputs[0];
    need_runtime(*this, x, i);
    const auto &xs = t(x).shape, &ys = t(out).shape;
    if (xs.size() != 4 || ys.size() != 4) refuse(RefusalKind::InvalidModel, w + ": input and output must be rank 4");
    const auto size = const_ints(op.inputs[1], "size", i);
    if (size.size() != 2 || size[0] != ys[1] || size[1] != ys[2] || ys[0] != xs[0] || ys[3] != xs[3])
        refuse(RefusalKind::InvalidModel, w + ": the output shape is not [N, size, C]");
    const bool align = option(op, bilinear ? 2 : 0) != 0, half = option(op, bilinear ? 3 : 1) != 0;
    if (align && half) refuse(RefusalKind::UnsupportedAttribute, w + ": align_corners with half_pixel_centers");
    uint8_t mode;
    if (bilinear) mode = align ? 2 : half ? 0 : 1;
    else mode = align ? 2 : half ? 3 : 1;
    require_same_encoding(x, out, i);
    const uint16_t at = push(bilinear ? TIGRIS_OP_RESIZE_LINEAR : TIGRIS_OP_RESIZE, t(out).name, {tensor(x)}, {tensor(out)});
    b.ops[at].spatial.kernel_h = mode;
}

// SELECT_V2(condition, x, y): all three runtime tensors (constant values
// are refused: the plan's SELECT_V2 constant operand is not written yet).
void Lowering::lower_select(const tfl::Operator &op, size_t i) {
    const std::string w = who(i);
    if (op.inputs.size() != 3 || op.outputs.size() != 1) refuse(RefusalKind::InvalidModel, w + ": needs condition, x, y and one output");
    const int32_t out = op.outputs[0];
    for (int32_t x : op.inputs)
        if (x < 0 || is_const(x)) refuse(RefusalKind::UnsupportedOperator, w + ": constant operands are not lowered yet");
    if (t(op.inputs[0]).type != tfl::TensorType::Bool) refuse(RefusalKind::InvalidModel, w + ": the condition must be bool");
    for (size_t k = 1; k < 3; ++k) require_same_encoding(op.inputs[k], out, i);
    if (t(out).shape.size() > 5) refuse(RefusalKind::UnsupportedAttribute, w + ": output rank above 5");
    std::vector<uint16_t> ins;
    for (int32_t x : op.inputs) ins.push_back(tensor(x));
    push(TIGRIS_OP_SELECT_V2, t(out).name, ins, {tensor(out)});
}

}  // namespace tigris::import::detail
