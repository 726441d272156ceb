// Op cases for the movement family: Transpose (29), Split (35), the MOVEMENT
// operators 66-72 and the older shape ops Concat (13), Pad (14), Flatten (16),
// Reshape (17). Each is a one-op revision-10 plan, float (route f32) and
// int8 (route s8), with its expected output worked out by hand in comments.
#include "op_cases.h"

using tigris_test::bytes_of;
using tigris_test::le_i32;
using tigris_test::OpCase;
using tigris_test::PlanBuilder;

namespace {

// One-op plan scaffolding: int8 tensors all share one encoding (0.5, -3).
struct Mv {
    PlanBuilder b{10};
    bool s8;
    int q = -1;
    explicit Mv(bool int8) : s8(int8) {
        // Room for every tensor at once: these cases test the kernels, not
        // banding (an untiled Transpose that does not fit would be banded).
        b.budget = 4096;
        if (s8) q = b.add_quant(0.5f, -3);
    }
    uint16_t in(const std::string &n, std::vector<int32_t> shape) {
        return b.add_tensor(n, s8 ? TIGRIS_DTYPE_INT8 : TIGRIS_DTYPE_FLOAT32, shape, TIGRIS_TENSOR_MODEL_INPUT, q);
    }
    uint16_t out(const std::string &n, std::vector<int32_t> shape) {
        return b.add_tensor(n, s8 ? TIGRIS_DTYPE_INT8 : TIGRIS_DTYPE_FLOAT32, shape, TIGRIS_TENSOR_MODEL_OUTPUT, q);
    }
    uint16_t idx_in(const std::string &n, std::vector<int32_t> shape) {
        return b.add_tensor(n, TIGRIS_DTYPE_INT32, shape, TIGRIS_TENSOR_MODEL_INPUT);
    }
    uint16_t op(uint8_t type, std::vector<uint16_t> ins, std::vector<uint16_t> outs) {
        uint16_t o = b.add_op(type, ins, outs, "mv");
        b.add_stage({o}, ins, outs);
        return o;
    }
    OpCase finish(const std::string &name, uint8_t opcode) {
        return OpCase{name, opcode, s8 ? "s8" : "f32", b.build(), {}, {}};
    }
};

std::vector<uint8_t> f32(const std::vector<float> &v) { return bytes_of(v); }
std::vector<uint8_t> s8(const std::vector<int8_t> &v) { return bytes_of(v); }
std::vector<uint8_t> i32(const std::vector<int32_t> &v) { return bytes_of(v); }
std::vector<uint8_t> cat(std::vector<uint8_t> a, const std::vector<uint8_t> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

// ---- Transpose ----

// x[2,3] = [[1,2,3],[4,5,6]] with perm [1,0] -> [[1,4],[2,5],[3,6]].
TIGRIS_OP_CASE(transpose_f32) {
    Mv m(false);
    uint16_t x = m.in("x", {2, 3}), y = m.out("y", {3, 2});
    uint16_t op = m.op(TIGRIS_OP_TRANSPOSE, {x}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_TRANSPOSE_PERM, {1, 0});
    OpCase c = m.finish("transpose_f32", TIGRIS_OP_TRANSPOSE);
    c.input = f32({1, 2, 3, 4, 5, 6});
    c.expected = f32({1, 4, 2, 5, 3, 6});
    return c;
}

// x[2,2,3] perm [0,2,1]: each of the two 2x3 matrices transposed.
TIGRIS_OP_CASE(transpose_s8) {
    Mv m(true);
    uint16_t x = m.in("x", {2, 2, 3}), y = m.out("y", {2, 3, 2});
    uint16_t op = m.op(TIGRIS_OP_TRANSPOSE, {x}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_TRANSPOSE_PERM, {0, 2, 1});
    OpCase c = m.finish("transpose_s8", TIGRIS_OP_TRANSPOSE);
    c.input = s8({1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6});
    c.expected = s8({1, 4, 2, 5, 3, 6, -1, -4, -2, -5, -3, -6});
    return c;
}

// ---- Split ----

// x[2,3] split on axis 1 into [2,1] and [2,2]: columns {0} and {1,2}.
TIGRIS_OP_CASE(split_f32) {
    Mv m(false);
    uint16_t x = m.in("x", {2, 3}), a = m.out("a", {2, 1}), b = m.out("b", {2, 2});
    uint16_t op = m.op(TIGRIS_OP_SPLIT, {x}, {a, b});
    m.b.ops[op].spatial.kernel_h = 1;
    OpCase c = m.finish("split_f32", TIGRIS_OP_SPLIT);
    c.input = f32({1, 2, 3, 4, 5, 6});
    c.expected = cat(f32({1, 4}), f32({2, 3, 5, 6}));
    return c;
}

// x[4,2] split on axis 0 (outermost) into rows {0} and {1,2,3}.
TIGRIS_OP_CASE(split_s8) {
    Mv m(true);
    uint16_t x = m.in("x", {4, 2}), a = m.out("a", {1, 2}), b = m.out("b", {3, 2});
    uint16_t op = m.op(TIGRIS_OP_SPLIT, {x}, {a, b});
    m.b.ops[op].spatial.kernel_h = 0;
    OpCase c = m.finish("split_s8", TIGRIS_OP_SPLIT);
    c.input = s8({1, 2, 3, 4, 5, 6, 7, 8});
    c.expected = cat(s8({1, 2}), s8({3, 4, 5, 6, 7, 8}));
    return c;
}

// ---- Gather ----

// x[3,2] rows {10,11},{20,21},{30,31}; constant indices [2,0] on axis 0.
TIGRIS_OP_CASE(gather_f32) {
    Mv m(false);
    uint16_t x = m.in("x", {3, 2}), y = m.out("y", {2, 2});
    uint16_t op = m.op(TIGRIS_OP_GATHER, {x}, {y});
    m.b.ops[op].weight = m.b.add_i32_weight("idx", {2, 0});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({0, 0, 1, 2}));
    OpCase c = m.finish("gather_f32", TIGRIS_OP_GATHER);
    c.input = f32({10, 11, 20, 21, 30, 31});
    c.expected = f32({30, 31, 10, 11});
    return c;
}

// x[2,3] = [[1,2,3],[4,5,6]], runtime int32 indices {2,0} on axis 1 -> [[3,1],[6,4]].
TIGRIS_OP_CASE(gather_s8) {
    Mv m(true);
    uint16_t x = m.in("x", {2, 3}), i = m.idx_in("i", {2}), y = m.out("y", {2, 2});
    uint16_t op = m.op(TIGRIS_OP_GATHER, {x, i}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({1, 0, 1, 2}));
    OpCase c = m.finish("gather_s8", TIGRIS_OP_GATHER);
    c.input = cat(s8({1, 2, 3, 4, 5, 6}), i32({2, 0}));
    c.expected = s8({3, 1, 6, 4});
    return c;
}

// ---- GatherND ----

// x[2,2] = [[1,2],[3,4]], index pairs (1,0) and (0,1) -> {3, 2}.
TIGRIS_OP_CASE(gather_nd_f32) {
    Mv m(false);
    uint16_t x = m.in("x", {2, 2}), y = m.out("y", {2});
    uint16_t op = m.op(TIGRIS_OP_GATHER_ND, {x}, {y});
    m.b.ops[op].weight = m.b.add_i32_weight("idx", {1, 0, 0, 1});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({2, 2, 2}));
    OpCase c = m.finish("gather_nd_f32", TIGRIS_OP_GATHER_ND);
    c.input = f32({1, 2, 3, 4});
    c.expected = f32({3, 2});
    return c;
}

// x[2,3], depth-1 indices [[1],[0]] pick whole rows: row 1 then row 0.
TIGRIS_OP_CASE(gather_nd_s8) {
    Mv m(true);
    uint16_t x = m.in("x", {2, 3}), y = m.out("y", {2, 3});
    uint16_t op = m.op(TIGRIS_OP_GATHER_ND, {x}, {y});
    m.b.ops[op].weight = m.b.add_i32_weight("idx", {1, 0});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({2, 2, 1}));
    OpCase c = m.finish("gather_nd_s8", TIGRIS_OP_GATHER_ND);
    c.input = s8({1, 2, 3, 4, 5, 6});
    c.expected = s8({4, 5, 6, 1, 2, 3});
    return c;
}

// ---- StridedSlice ----

// x[6] = 0..5, (start 1, end 6, step 2) -> {1, 3, 5}.
TIGRIS_OP_CASE(strided_slice_f32) {
    Mv m(false);
    uint16_t x = m.in("x", {6}), y = m.out("y", {3});
    uint16_t op = m.op(TIGRIS_OP_STRIDED_SLICE, {x}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({1, 6, 2}));
    OpCase c = m.finish("strided_slice_f32", TIGRIS_OP_STRIDED_SLICE);
    c.input = f32({0, 1, 2, 3, 4, 5});
    c.expected = f32({1, 3, 5});
    return c;
}

// x[2,4] = [[1,2,3,4],[5,6,7,8]]: row 1 shrunk away, columns 3 and 1
// (start 3, end -1, step -2) -> {8, 6}.
TIGRIS_OP_CASE(strided_slice_s8) {
    Mv m(true);
    uint16_t x = m.in("x", {2, 4}), y = m.out("y", {2});
    uint16_t op = m.op(TIGRIS_OP_STRIDED_SLICE, {x}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({1, 2, 1, 3, -1, -2, 1}));
    OpCase c = m.finish("strided_slice_s8", TIGRIS_OP_STRIDED_SLICE);
    c.input = s8({1, 2, 3, 4, 5, 6, 7, 8});
    c.expected = s8({8, 6});
    return c;
}

// ---- MirrorPad ----

// [1,2,3] reflected by 2 on each side (edge not repeated) -> 3 2 | 1 2 3 | 2 1.
TIGRIS_OP_CASE(mirror_pad_f32) {
    Mv m(false);
    uint16_t x = m.in("x", {3}), y = m.out("y", {7});
    uint16_t op = m.op(TIGRIS_OP_MIRROR_PAD, {x}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({0, 2, 2}));
    OpCase c = m.finish("mirror_pad_f32", TIGRIS_OP_MIRROR_PAD);
    c.input = f32({1, 2, 3});
    c.expected = f32({3, 2, 1, 2, 3, 2, 1});
    return c;
}

// [[1,2],[3,4]] symmetric, one row above and one column right (edges
// repeated) -> [[1,2,2],[1,2,2],[3,4,4]].
TIGRIS_OP_CASE(mirror_pad_s8) {
    Mv m(true);
    uint16_t x = m.in("x", {2, 2}), y = m.out("y", {3, 3});
    uint16_t op = m.op(TIGRIS_OP_MIRROR_PAD, {x}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({1, 1, 0, 0, 1}));
    OpCase c = m.finish("mirror_pad_s8", TIGRIS_OP_MIRROR_PAD);
    c.input = s8({1, 2, 3, 4});
    c.expected = s8({1, 2, 2, 1, 2, 2, 3, 4, 4});
    return c;
}

// ---- ReverseV2 ----

// x[2,3], mask bit 1 (the last axis) -> each row reversed.
TIGRIS_OP_CASE(reverse_v2_f32) {
    Mv m(false);
    uint16_t x = m.in("x", {2, 3}), y = m.out("y", {2, 3});
    uint16_t op = m.op(TIGRIS_OP_REVERSE_V2, {x}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({2}));
    OpCase c = m.finish("reverse_v2_f32", TIGRIS_OP_REVERSE_V2);
    c.input = f32({1, 2, 3, 4, 5, 6});
    c.expected = f32({3, 2, 1, 6, 5, 4});
    return c;
}

// x[2,3], mask bit 0 (the outermost axis) -> rows swapped.
TIGRIS_OP_CASE(reverse_v2_s8) {
    Mv m(true);
    uint16_t x = m.in("x", {2, 3}), y = m.out("y", {2, 3});
    uint16_t op = m.op(TIGRIS_OP_REVERSE_V2, {x}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({1}));
    OpCase c = m.finish("reverse_v2_s8", TIGRIS_OP_REVERSE_V2);
    c.input = s8({1, 2, 3, 4, 5, 6});
    c.expected = s8({4, 5, 6, 1, 2, 3});
    return c;
}

// ---- EmbeddingLookup ----

// table[3,2] rows {10,11},{20,21},{30,31}; ids {1,1,0}.
TIGRIS_OP_CASE(embedding_lookup_f32) {
    Mv m(false);
    uint16_t x = m.in("table", {3, 2}), y = m.out("y", {3, 2});
    uint16_t op = m.op(TIGRIS_OP_EMBEDDING_LOOKUP, {x}, {y});
    m.b.ops[op].weight = m.b.add_i32_weight("ids", {1, 1, 0});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({0, 0, 1, 3}));
    OpCase c = m.finish("embedding_lookup_f32", TIGRIS_OP_EMBEDDING_LOOKUP);
    c.input = f32({10, 11, 20, 21, 30, 31});
    c.expected = f32({20, 21, 20, 21, 10, 11});
    return c;
}

// table[3,2] = {1..6}, runtime ids {2,0} -> rows {5,6},{1,2}.
TIGRIS_OP_CASE(embedding_lookup_s8) {
    Mv m(true);
    uint16_t x = m.in("table", {3, 2}), i = m.idx_in("ids", {2}), y = m.out("y", {2, 2});
    uint16_t op = m.op(TIGRIS_OP_EMBEDDING_LOOKUP, {x, i}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({0, 0, 1, 2}));
    OpCase c = m.finish("embedding_lookup_s8", TIGRIS_OP_EMBEDDING_LOOKUP);
    c.input = cat(s8({1, 2, 3, 4, 5, 6}), i32({2, 0}));
    c.expected = s8({5, 6, 1, 2});
    return c;
}

// ---- DynamicUpdateSlice ----

// x[3,4] = 0..11, runtime update [[-1,-2],[-3,-4]] at static starts (1,1).
TIGRIS_OP_CASE(dynamic_update_slice_f32) {
    Mv m(false);
    uint16_t x = m.in("x", {3, 4}), u = m.in("u", {2, 2}), y = m.out("y", {3, 4});
    uint16_t op = m.op(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {x, u}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({1, 1, 2, 2}));
    OpCase c = m.finish("dynamic_update_slice_f32", TIGRIS_OP_DYNAMIC_UPDATE_SLICE);
    c.input = cat(f32({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), f32({-1, -2, -3, -4}));
    c.expected = f32({0, 1, 2, 3, 4, -1, -2, 7, 8, -3, -4, 11});
    return c;
}

// x[4] = {1,2,3,4}, constant update {9,8}, runtime start 5 clamped to 4-2 = 2.
TIGRIS_OP_CASE(dynamic_update_slice_s8) {
    Mv m(true);
    uint16_t x = m.in("x", {4}), st = m.idx_in("start", {1}), y = m.out("y", {4});
    uint16_t op = m.op(TIGRIS_OP_DYNAMIC_UPDATE_SLICE, {x, st}, {y});
    m.b.ops[op].weight = m.b.add_weight("update", {9, 8});
    m.b.add_attribute(op, TIGRIS_ATTR_MOVEMENT, le_i32({2}));
    OpCase c = m.finish("dynamic_update_slice_s8", TIGRIS_OP_DYNAMIC_UPDATE_SLICE);
    c.input = cat(s8({1, 2, 3, 4}), i32({5}));
    c.expected = s8({1, 2, 9, 8});
    return c;
}

// ---- Concat ----

// a[1,2,2] and b[1,2,1] joined on axis 2: rows {1,2|5} and {3,4|6}.
TIGRIS_OP_CASE(concat_f32) {
    Mv m(false);
    uint16_t a = m.in("a", {1, 2, 2}), b = m.in("b", {1, 2, 1}), y = m.out("y", {1, 2, 3});
    uint16_t op = m.op(TIGRIS_OP_CONCAT, {a, b}, {y});
    m.b.ops[op].spatial.kernel_h = 2;
    OpCase c = m.finish("concat_f32", TIGRIS_OP_CONCAT);
    c.input = cat(f32({1, 2, 3, 4}), f32({5, 6}));
    c.expected = f32({1, 2, 5, 3, 4, 6});
    return c;
}

// NHWC a[1,1,2,1] and b[1,1,2,2] joined on the channel axis 3.
TIGRIS_OP_CASE(concat_s8) {
    Mv m(true);
    uint16_t a = m.in("a", {1, 1, 2, 1}), b = m.in("b", {1, 1, 2, 2}), y = m.out("y", {1, 1, 2, 3});
    uint16_t op = m.op(TIGRIS_OP_CONCAT, {a, b}, {y});
    m.b.ops[op].spatial.kernel_h = 3;
    OpCase c = m.finish("concat_s8", TIGRIS_OP_CONCAT);
    c.input = cat(s8({1, 2}), s8({3, 4, 5, 6}));
    c.expected = s8({1, 3, 4, 2, 5, 6});
    return c;
}

// ---- Pad ----

// x[1,2,2] padded with one leading row and one trailing column of 0.0.
TIGRIS_OP_CASE(pad_f32) {
    Mv m(false);
    uint16_t x = m.in("x", {1, 2, 2}), y = m.out("y", {1, 3, 3});
    uint16_t op = m.op(TIGRIS_OP_PAD, {x}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_PADS, le_i32({0, 0, 1, 0, 0, 1}));
    OpCase c = m.finish("pad_f32", TIGRIS_OP_PAD);
    c.input = f32({1, 2, 3, 4});
    c.expected = f32({0, 0, 0, 1, 2, 0, 3, 4, 0});
    return c;
}

// int8 x[2,2]: one trailing row and one leading column, filled with the
// zero point -3 (the encoding of 0.0).
TIGRIS_OP_CASE(pad_s8) {
    Mv m(true);
    uint16_t x = m.in("x", {2, 2}), y = m.out("y", {3, 3});
    uint16_t op = m.op(TIGRIS_OP_PAD, {x}, {y});
    m.b.add_attribute(op, TIGRIS_ATTR_PADS, le_i32({0, 1, 1, 0}));
    OpCase c = m.finish("pad_s8", TIGRIS_OP_PAD);
    c.input = s8({1, 2, 3, 4});
    c.expected = s8({-3, 1, 2, -3, 3, 4, -3, -3, -3});
    return c;
}

// ---- Flatten / Reshape: the same bytes under another shape ----

TIGRIS_OP_CASE(flatten_f32) {
    Mv m(false);
    uint16_t x = m.in("x", {1, 2, 3}), y = m.out("y", {1, 6});
    m.op(TIGRIS_OP_FLATTEN, {x}, {y});
    OpCase c = m.finish("flatten_f32", TIGRIS_OP_FLATTEN);
    c.input = f32({1.5f, -2, 3, 4, 5, -6.25f});
    c.expected = c.input;
    return c;
}

TIGRIS_OP_CASE(flatten_s8) {
    Mv m(true);
    uint16_t x = m.in("x", {1, 2, 2, 2}), y = m.out("y", {1, 8});
    m.op(TIGRIS_OP_FLATTEN, {x}, {y});
    OpCase c = m.finish("flatten_s8", TIGRIS_OP_FLATTEN);
    c.input = s8({-128, -1, 0, 1, 2, 3, 64, 127});
    c.expected = c.input;
    return c;
}

TIGRIS_OP_CASE(reshape_f32) {
    Mv m(false);
    uint16_t x = m.in("x", {2, 3}), y = m.out("y", {3, 2});
    m.op(TIGRIS_OP_RESHAPE, {x}, {y});
    OpCase c = m.finish("reshape_f32", TIGRIS_OP_RESHAPE);
    c.input = f32({1, 2, 3, 4, 5, 6});
    c.expected = c.input;
    return c;
}

TIGRIS_OP_CASE(reshape_s8) {
    Mv m(true);
    uint16_t x = m.in("x", {6}), y = m.out("y", {2, 3});
    m.op(TIGRIS_OP_RESHAPE, {x}, {y});
    OpCase c = m.finish("reshape_s8", TIGRIS_OP_RESHAPE);
    c.input = s8({5, -5, 7, -7, 9, -9});
    c.expected = c.input;
    return c;
}
