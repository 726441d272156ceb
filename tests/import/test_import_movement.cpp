// The movement lowerings (service/import/lower_movement.cpp, lower_tconv.cpp)
// on small hand-made graphs: what each refuses by name, and a few results
// worked out by hand from TFLite's definition of the operator (the oracle
// sweep checks the rest against TFLite Micro itself).
#include <gtest/gtest.h>

#include <cstdint>

#include "tflite_eval.h"
#include "tigris.h"
#include "tiny_graph.h"
#include "tigris_import/lower.hpp"
#include "tigris_import/support.hpp"

namespace {

namespace tfl = tigris::tflite;
using tigris_test::Q;
using tigris_test::TinyGraph;

std::vector<int8_t> run(const TinyGraph &g, const std::vector<int8_t> &in) {
    std::vector<uint8_t> bytes(in.begin(), in.end());
    const auto r = tigris_test::tflite_evaluate(g.model(), bytes);
    return std::vector<int8_t>(r.outputs.begin(), r.outputs.end());
}

std::string refusal(const TinyGraph &g) {
    tigris::import::Options o;
    o.schema = 11;
    try {
        tigris::import::import_model(g.model(), o);
        return "";
    } catch (const tigris::import::ImportError &e) {
        return tigris::import::refusal_name(e.refusal.kind);
    }
}

std::vector<int8_t> iota(int n) {
    std::vector<int8_t> v;
    for (int i = 0; i < n; ++i) v.push_back((int8_t)i);
    return v;
}

// An option field as a TFLite file stores it (schema field id, width in bytes).
void set_option(tfl::Operator &op, uint16_t id, uint8_t width, int64_t v) {
    op.option_fields.push_back({id, tfl::OptionField::kScalar, width, (uint64_t)v & (width == 1 ? 0xFFu : 0xFFFFFFFFu), {}});
}

const Q q{0.5f, 0};

TEST(ImportMovement, StridedSliceWithANegativeStrideWalksBackwards) {
    TinyGraph g;
    const int32_t x = g.i8("x", {6}, q), y = g.i8("y", {3}, q);
    // begin -1 wraps to 5; end 0 is exclusive; stride -2: 5, 3, 1.
    g.op(tfl::kStridedSlice, {x, g.const_i32("b", {1}, {-1}), g.const_i32("e", {1}, {0}), g.const_i32("s", {1}, {-2})},
         {y});
    g.io({x}, {y});
    EXPECT_EQ(run(g, iota(6)), (std::vector<int8_t>{5, 3, 1}));
}

TEST(ImportMovement, StridedSliceMasksThatAreNotLoweredAreRefusedByName) {
    for (uint16_t field : {2, 3}) {  // ellipsis_mask, new_axis_mask
        TinyGraph g;
        const int32_t x = g.i8("x", {4}, q), y = g.i8("y", {4}, q);
        tfl::Operator &op = g.op(
            tfl::kStridedSlice, {x, g.const_i32("b", {1}, {0}), g.const_i32("e", {1}, {4}), g.const_i32("s", {1}, {1})}, {y});
        set_option(op, field, 4, 1);
        g.io({x}, {y});
        EXPECT_EQ(refusal(g), "unsupported-attribute") << "field " << field;
    }
}

TEST(ImportMovement, TransposeAndDepthToSpaceMoveBytesAsTfliteDefinesThem) {
    {
        TinyGraph g;
        const int32_t x = g.i8("x", {2, 3}, q), y = g.i8("y", {3, 2}, q);
        g.op(tfl::kTranspose, {x, g.const_i32("perm", {2}, {1, 0})}, {y});
        g.io({x}, {y});
        // y[i][j] = x[j][i]: 0 3 | 1 4 | 2 5.
        EXPECT_EQ(run(g, iota(6)), (std::vector<int8_t>{0, 3, 1, 4, 2, 5}));
    }
    {
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 1, 2, 4}, q), y = g.i8("y", {1, 2, 4, 1}, q);
        set_option(g.op(tfl::kDepthToSpace, {x}, {y}), 0, 4, 2);
        g.io({x}, {y});
        // y(0, i, 2w + j, 0) = x(0, 0, w, 2i + j), x(w, c) = 4w + c:
        // row 0: x(0,0) x(0,1) x(1,0) x(1,1) = 0 1 4 5; row 1: 2 3 6 7.
        EXPECT_EQ(run(g, iota(8)), (std::vector<int8_t>{0, 1, 4, 5, 2, 3, 6, 7}));
    }
}

TEST(ImportMovement, ReduceOverAxesThatAreNotAdjacent) {
    TinyGraph g;
    const int32_t x = g.i8("x", {2, 3, 2}, q), y = g.i8("y", {3}, q);
    g.op(tfl::kReduceMax, {x, g.const_i32("axes", {2}, {0, 2})}, {y});
    g.io({x}, {y});
    // x[a][m][c] = 6a + 2m + c; the largest over a and c is 6 + 2m + 1.
    EXPECT_EQ(run(g, iota(12)), (std::vector<int8_t>{7, 9, 11}));
}

TEST(ImportMovement, RefusalsByName) {
    {  // SELECT_V2 with a constant value
        TinyGraph g;
        const int32_t c = g.tensor("c", tfl::TensorType::Bool, {4});
        const int32_t a = g.i8("a", {4}, q), y = g.i8("y", {4}, q);
        g.op(tfl::kSelectV2, {c, a, g.const_i8("k", {4}, q, {1, 2, 3, 4})}, {y});
        g.io({c, a}, {y});
        EXPECT_EQ(refusal(g), "unsupported-operator");
    }
    {  // RESIZE_NEAREST_NEIGHBOR with align_corners and half_pixel_centers
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 2, 2, 1}, q), y = g.i8("y", {1, 4, 4, 1}, q);
        tfl::Operator &op = g.op(tfl::kResizeNearestNeighbor, {x, g.const_i32("size", {2}, {4, 4})}, {y});
        set_option(op, 0, 1, 1);
        set_option(op, 1, 1, 1);
        g.io({x}, {y});
        EXPECT_EQ(refusal(g), "unsupported-attribute");
    }
    {  // TRANSPOSE_CONV with RELU_N1_TO_1 fused (RELU and RELU6 are lowered)
        TinyGraph g;
        const int32_t x = g.i8("x", {1, 2, 2, 1}, q), y = g.i8("y", {1, 4, 4, 1}, q);
        tfl::Operator &op = g.op(tfl::kTransposeConv,
                                 {g.const_i32("shape", {4}, {1, 4, 4, 1}), g.const_i8("w", {1, 2, 2, 1}, q, {1, 1, 1, 1}), x},
                                 {y});
        set_option(op, 1, 4, 2);
        set_option(op, 2, 4, 2);
        set_option(op, 3, 1, 2);  // RELU_N1_TO_1
        g.io({x}, {y});
        EXPECT_EQ(refusal(g), "unsupported-attribute");
    }
    {  // REDUCE_PROD: no runtime operator
        TinyGraph g;
        const int32_t x = g.i8("x", {2, 3}, q), y = g.i8("y", {3}, q);
        g.op(tfl::kReduceProd, {x, g.const_i32("axes", {1}, {0})}, {y});
        g.io({x}, {y});
        EXPECT_EQ(refusal(g), "unsupported-operator");
    }
}

}  // namespace
