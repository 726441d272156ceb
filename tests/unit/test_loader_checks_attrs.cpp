// Loader checks of the operator-attribute section (docs/format.md P10
// general rules, P10.2 kind/operator pairing, P10.3 version gates, P10.4
// mandatory attributes). Payload semantics belong to the operator tests.
#include <gtest/gtest.h>

#include "plan_builder.h"

using namespace tigris_test;

namespace {

// x[1,4,4,2] -> LeakyRelu (ALPHA) -> y.
PlanBuilder leaky(uint32_t rev) {
    PlanBuilder b = PlanBuilder::minimal_float(rev);
    b.ops[0].type = TIGRIS_OP_LEAKY_RELU;
    b.add_attribute(0, TIGRIS_ATTR_ALPHA, le_f32({0.01f}));
    return b;
}

// x -> LeakyRelu -> t -> LeakyRelu -> y in one stage.
PlanBuilder two_leaky(uint32_t rev) {
    PlanBuilder b(rev);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t t = b.add_tensor("t", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2});
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t o0 = b.add_op(TIGRIS_OP_LEAKY_RELU, {x}, {t});
    uint16_t o1 = b.add_op(TIGRIS_OP_LEAKY_RELU, {t}, {y});
    b.add_attribute(o0, TIGRIS_ATTR_ALPHA, le_f32({0.01f}));
    b.add_attribute(o1, TIGRIS_ATTR_ALPHA, le_f32({0.02f}));
    b.add_stage({o0, o1}, {x}, {y});
    return b;
}

// x[1,2,4,3] -> Transpose(perm 0,3,1,2) -> y[1,3,2,4].
PlanBuilder transpose(uint32_t rev, bool with_perm = true) {
    PlanBuilder b(rev);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 2, 4, 3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 3, 2, 4}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t o = b.add_op(TIGRIS_OP_TRANSPOSE, {x}, {y});
    if (with_perm) b.add_attribute(o, TIGRIS_ATTR_TRANSPOSE_PERM, {0, 3, 1, 2});
    b.add_stage({o}, {x}, {y});
    return b;
}

// x[1,4,4,2] -> LeakyRelu -> t -> Pad(H and W by 1) -> y[1,6,6,2].
PlanBuilder leaky_pad(uint32_t rev) {
    PlanBuilder b(rev);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t t = b.add_tensor("t", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2});
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 6, 6, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t o0 = b.add_op(TIGRIS_OP_LEAKY_RELU, {x}, {t});
    uint16_t o1 = b.add_op(TIGRIS_OP_PAD, {t}, {y});
    b.add_attribute(o0, TIGRIS_ATTR_ALPHA, le_f32({0.01f}));
    b.add_attribute(o1, TIGRIS_ATTR_PADS, le_i32({0, 0, 1, 1, 1, 1, 0, 0}));
    b.add_stage({o0, o1}, {x}, {y});
    return b;
}

// x, x2 [1,4] -> Add -> y.
PlanBuilder add2(uint32_t rev) {
    PlanBuilder b(rev);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t x2 = b.add_tensor("x2", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t o = b.add_op(TIGRIS_OP_ADD, {x, x2}, {y});
    b.add_stage({o}, {x, x2}, {y});
    return b;
}

}  // namespace

TEST(LoaderAttrs, BaselinesLoad) {
    EXPECT_LOAD(leaky(8).build(), TIGRIS_OK);
    EXPECT_LOAD(two_leaky(9).build(), TIGRIS_OK);
    EXPECT_LOAD(transpose(4).build(), TIGRIS_OK);
    EXPECT_LOAD(transpose(11).build(), TIGRIS_OK);
    EXPECT_LOAD(leaky_pad(9).build(), TIGRIS_OK);
    EXPECT_LOAD(add2(9).build(), TIGRIS_OK);
}

// docs/format.md P10: count > 0.
TEST(LoaderAttrs, EmptySection) {
    PlanBuilder b = leaky(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().attr_header, 0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderAttrs, RecordsBeyondSection) {
    PlanBuilder b = leaky(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().attr_header, 1000);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P10: strictly ordered by (op_index, type).
TEST(LoaderAttrs, RecordsOutOfOrder) {
    PlanBuilder b = two_leaky(9);
    std::swap(b.attributes[0], b.attributes[1]);
    b.sort_attributes = false;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderAttrs, DuplicateRecord) {
    PlanBuilder b = leaky(9);
    b.add_attribute(0, TIGRIS_ATTR_ALPHA, le_f32({0.5f}));
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P10: payload inside the data pool.
TEST(LoaderAttrs, PayloadOffsetOutsidePool) {
    for (uint32_t off : {1u, 4u, 1000u, 0xFFFFFFFFu}) {
        PlanBuilder b = leaky(9);
        std::vector<uint8_t> bytes = b.build();
        put_u32(bytes, b.layout().attr_record(0) + 4, off);  // pool is 4 bytes (+ padding < 16)
        if (off == 1u) put_u8(bytes, b.layout().attr_record(0) + 3, 255);
        SCOPED_TRACE(off);
        EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderAttrs, PayloadLengthOutsidePool) {
    PlanBuilder b = leaky(9);
    std::vector<uint8_t> bytes = b.build();
    put_u8(bytes, b.layout().attr_record(0) + 3, 255);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P10.3: kinds other than TRANSPOSE_PERM need v8; BINARY_REQUANT needs v9.
TEST(LoaderAttrs, KindAboveOneBelowV8) {
    for (uint32_t rev : {4u, 5u, 6u, 7u}) {
        SCOPED_TRACE(rev);
        EXPECT_LOAD(leaky(rev).build(), TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderAttrs, BinaryRequantBelowV9) {
    PlanBuilder b = add2(8);
    b.add_attribute(0, TIGRIS_ATTR_BINARY_REQUANT, le_i32({1 << 30, -1, 1 << 30, -1, 1 << 30, -1}));
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P10: op_index < num_ops.
TEST(LoaderAttrs, OpIndexOutOfRange) {
    PlanBuilder b = leaky(9);
    b.attributes[0].op = 1;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P10 / P10.2: a kind only on the operators that read it; unknown kinds refused.
TEST(LoaderAttrs, KindOnWrongOperator) {
    struct Case {
        uint8_t kind;
        std::vector<uint8_t> payload;
    };
    for (const Case &c : {Case{TIGRIS_ATTR_ALPHA, le_f32({0.01f})}, Case{TIGRIS_ATTR_EPSILON, le_f32({1e-5f})},
                          Case{TIGRIS_ATTR_TRANSPOSE_PERM, {0, 1, 2, 3}}, Case{TIGRIS_ATTR_AXES, {1}},
                          Case{TIGRIS_ATTR_POOL_ROUNDING, {1}}, Case{TIGRIS_ATTR_SUBGRAPHS, le_u16({1, 2})}}) {
        PlanBuilder b = PlanBuilder::minimal_float(9);  // a Relu
        b.add_attribute(0, c.kind, c.payload);
        SCOPED_TRACE((int)c.kind);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderAttrs, UnknownKind) {
    for (uint8_t kind : {0, 19, 100, 255}) {
        PlanBuilder b = leaky(9);
        b.add_attribute(0, kind, {0, 0, 0, 0});
        SCOPED_TRACE((int)kind);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
    }
}

// docs/format.md P10 PADS: data_offset % 4 == 0.
TEST(LoaderAttrs, PadsPayloadMisaligned) {
    PlanBuilder b = leaky_pad(9);
    std::vector<uint8_t> bytes = b.build();
    // Pool: ALPHA at 0 (4 bytes), PADS at 4 (32 bytes). Offset 2 keeps the
    // payload inside the pool but breaks its alignment.
    ASSERT_EQ(get_u32(bytes, b.layout().attr_record(1) + 4), 4u);
    put_u32(bytes, b.layout().attr_record(1) + 4, 2);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P10.4 mandatory attributes.
TEST(LoaderAttrs, TransposeWithoutPermAndNoSection) {
    EXPECT_LOAD(transpose(9, false).build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderAttrs, TransposeWithoutPermWithSection) {
    PlanBuilder b(9);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 2, 4, 3}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t t = b.add_tensor("t", TIGRIS_DTYPE_FLOAT32, {1, 2, 4, 3});
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 3, 2, 4}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t o0 = b.add_op(TIGRIS_OP_LEAKY_RELU, {x}, {t});
    uint16_t o1 = b.add_op(TIGRIS_OP_TRANSPOSE, {t}, {y});
    b.add_attribute(o0, TIGRIS_ATTR_ALPHA, le_f32({0.01f}));
    b.add_stage({o0, o1}, {x}, {y});
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderAttrs, NormalizationWithoutEpsilon) {
    for (uint8_t t : {TIGRIS_OP_LAYER_NORM, TIGRIS_OP_L2_NORMALIZATION}) {
        PlanBuilder b = PlanBuilder::minimal_float(9);
        b.ops[0].type = t;
        SCOPED_TRACE((int)t);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderAttrs, ReductionWithoutAxes) {
    for (uint8_t t : {TIGRIS_OP_REDUCE_MEAN, TIGRIS_OP_REDUCE_MAX, TIGRIS_OP_REDUCE_MIN, TIGRIS_OP_REDUCE_SUM,
                      TIGRIS_OP_REDUCE_ALL, TIGRIS_OP_ARG_MAX, TIGRIS_OP_ARG_MIN}) {
        PlanBuilder b = PlanBuilder::minimal_float(9);
        b.ops[0].type = t;
        SCOPED_TRACE((int)t);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderAttrs, ReductionWithoutAxesButOtherAttributes) {
    PlanBuilder b = two_leaky(9);
    b.ops[1].type = TIGRIS_OP_REDUCE_MEAN;
    b.attributes.pop_back();
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderAttrs, CumsumWithoutOptions) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.ops[0].type = TIGRIS_OP_CUMSUM;
    b.add_attribute(0, TIGRIS_ATTR_AXES, {1});
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderAttrs, CumsumWithoutAxes) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.ops[0].type = TIGRIS_OP_CUMSUM;
    b.add_attribute(0, TIGRIS_ATTR_CUMSUM_OPTIONS, {0, 0});
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P10: the target operator has >= 1 input and exactly one output (SVDF, LSTM,
// DETECTION_POSTPROCESS, IF and WHILE excepted).
TEST(LoaderAttrs, TargetOperatorWithTwoOutputs) {
    PlanBuilder b = leaky(9);
    uint16_t z = b.add_tensor("z", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    b.ops[0].outputs.push_back(z);
    b.stages[0].outputs.push_back(z);
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderAttrs, TargetOperatorWithoutInputs) {
    PlanBuilder b = leaky(9);
    b.ops[0].inputs.clear();
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}
