// Loader checks of tensor records and the model interface
// (docs/format.md P4.1, P4.2, P4.4, P4.5; limit P13.3).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "plan_builder.h"

using namespace tigris_test;

// docs/format.md P4.4 step 1: name string valid.
TEST(LoaderTensors, NameStringOutsideStrings) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().tensor(1), 0xFFFF);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P4.4 step 1: shape range inside the shape pool.
TEST(LoaderTensors, ShapeOffsetOutsideShapePool) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().tensor(1) + 8, 6);  // 8 dims in the pool: [6, 10) does not fit
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderTensors, RankRunsPastShapePool) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u8(bytes, b.layout().tensor(1) + 10, 200);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P4.4 step 2: quant index NONE16 or < num_quant_params.
TEST(LoaderTensors, QuantIndexWithoutQuantSection) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.tensors[0].quant = 0;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderTensors, QuantIndexOutOfRange) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    b.tensors[1].quant = 2;  // two records
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P4.4 step 3 / P4.2: unknown flag bits.
TEST(LoaderTensors, UnknownFlagBits) {
    for (uint8_t bit : {0x20, 0x40, 0x80}) {
        PlanBuilder b = PlanBuilder::minimal_float(9);
        b.tensors[1].flags |= bit;
        SCOPED_TRACE(bit);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
    }
}

// docs/format.md P4.2: STATE never combined with CONSTANT / MODEL_INPUT / MODEL_OUTPUT.
TEST(LoaderTensors, StateCombinedWithConstant) {
    PlanBuilder b = PlanBuilder::state_add(10);
    b.tensors[1].flags |= TIGRIS_TENSOR_CONSTANT;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, StateCombinedWithModelOutput) {
    PlanBuilder b = PlanBuilder::state_add(10);
    b.tensors[1].flags |= TIGRIS_TENSOR_MODEL_OUTPUT;
    b.auto_model_io = false;
    b.model_inputs = {0};
    b.model_outputs = {2, 1};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

// docs/format.md P4.4 step 3: float32, int32 and bool tensors carry no quant param.
TEST(LoaderTensors, FloatTensorWithQuantParam) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    b.add_quant(0.5f, 0);
    b.tensors[1].quant = 0;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, BoolTensorWithQuantParam) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.add_quant(0.5f, 0);
    b.tensors[0].quant = 0;  // the condition
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, Int32TensorWithQuantParam) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.add_quant(0.5f, 0);
    b.add_tensor("idx", TIGRIS_DTYPE_INT32, {4}, 0, 0);
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

// docs/format.md P4.4 step 4: iface_dtype rules.
TEST(LoaderTensors, IfaceDtypeBelowV6) {
    PlanBuilder b = PlanBuilder::int8_conv(5);
    b.tensors[0].iface_dtype = TIGRIS_DTYPE_FLOAT32;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, IfaceDtypeAcceptedFromV6) {
    for (uint8_t d : {TIGRIS_DTYPE_FLOAT32, TIGRIS_DTYPE_UINT8}) {
        PlanBuilder b = PlanBuilder::int8_conv(6);
        b.tensors[0].iface_dtype = d;
        b.tensors[1].iface_dtype = d;
        SCOPED_TRACE((int)d);
        EXPECT_LOAD(b.build(), TIGRIS_OK);
    }
}

TEST(LoaderTensors, IfaceDtypeOnNonBoundaryTensor) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    b.add_tensor("inner", TIGRIS_DTYPE_INT8, {4}, 0, 0);
    b.tensors.back().iface_dtype = TIGRIS_DTYPE_FLOAT32;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, IfaceDtypeSameAsDtype) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    b.tensors[0].iface_dtype = TIGRIS_DTYPE_INT8;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, IfaceDtypeUnsupportedPair) {
    struct Case {
        bool int8;
        uint8_t iface;
    };
    for (Case c : {Case{true, TIGRIS_DTYPE_INT64}, Case{true, TIGRIS_DTYPE_INT16}, Case{true, TIGRIS_DTYPE_BOOL},
                   Case{false, TIGRIS_DTYPE_INT8}, Case{false, TIGRIS_DTYPE_UINT8}, Case{false, TIGRIS_DTYPE_INT64},
                   Case{true, 4}, Case{true, 200}}) {
        PlanBuilder b = c.int8 ? PlanBuilder::int8_conv(9) : PlanBuilder::float_conv(9);
        b.tensors[0].iface_dtype = c.iface;
        SCOPED_TRACE(std::to_string(c.int8) + " -> " + std::to_string(c.iface));
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
    }
}

TEST(LoaderTensors, IfaceFloatOnInt8WithoutQuantParam) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    b.tensors[0].quant = -1;
    b.tensors[0].iface_dtype = TIGRIS_DTYPE_FLOAT32;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

// docs/format.md P4.4 step 5: dims > 0 and element count within 32 bits.
TEST(LoaderTensors, ZeroDim) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.tensors[1].shape = {1, 0, 4, 2};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, NegativeDim) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.tensors[1].shape = {1, -4, 4, 2};
    b.tensors[1].size_override = 128;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, ElementCountOverflows32Bits) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.tensors[1].shape = {65536, 65536, 1, 2};  // 2^33 elements
    b.tensors[1].size_override = 0;              // what a 32-bit product times 4 would wrap to
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

// docs/format.md P4.4 step 6 / P4.1: stored dtype allowed.
TEST(LoaderTensors, DtypeNotStorable) {
    for (uint8_t d : {0, 2, 4, 7, 8, 10, 11, 16, 255}) {
        PlanBuilder b = PlanBuilder::minimal_float(9);
        b.tensors[1].dtype = d;
        b.tensors[1].size_override = 32;
        SCOPED_TRACE((int)d);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
    }
}

TEST(LoaderTensors, Int16OnlyOnStateTensors) {
    PlanBuilder b = PlanBuilder::state_add(10);
    b.add_tensor("i16", TIGRIS_DTYPE_INT16, {4});
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, Int16RefusedBelowV10) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.add_tensor("i16", TIGRIS_DTYPE_INT16, {4});
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

// docs/format.md P4.4 step 6: size_bytes exact.
TEST(LoaderTensors, SizeBytesNotProductTimesElementSize) {
    for (int64_t size : {127, 129, 0, 32, 512}) {
        PlanBuilder b = PlanBuilder::minimal_float(9);
        b.tensors[1].size_override = size;  // exact is 1*4*4*2*4 = 128
        SCOPED_TRACE(size);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
    }
}

TEST(LoaderTensors, ScalarTensorHasOneElement) {
    // ndim 0 is a scalar of one element: 4 bytes for float32, not 0.
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.add_tensor("scalar", TIGRIS_DTYPE_FLOAT32, {});
    b.tensors.back().size_override = 0;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

// docs/format.md P4.4 step 7: int8 quant scale finite > 0, zero point in int8 range.
TEST(LoaderTensors, Int8ScaleNotPositiveFinite) {
    for (float s : {0.0f, -0.5f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                    -std::numeric_limits<float>::infinity()}) {
        PlanBuilder b = PlanBuilder::int8_conv(9);
        b.quant[0].scale = s;
        b.quant[0].multipliers = {1 << 30};
        b.quant[0].shifts = {0};
        SCOPED_TRACE(s);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
    }
}

TEST(LoaderTensors, Int8ZeroPointOutOfRange) {
    for (int32_t zp : {128, -129, 1000, INT32_MIN}) {
        PlanBuilder b = PlanBuilder::int8_conv(9);
        b.quant[0].zero_point = zp;
        SCOPED_TRACE(zp);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
    }
}

TEST(LoaderTensors, Int8ZeroPointAtRangeEnds) {
    for (int32_t zp : {127, -128}) {
        PlanBuilder b = PlanBuilder::int8_conv(9);
        b.quant[0].zero_point = zp;
        SCOPED_TRACE(zp);
        EXPECT_LOAD(b.build(), TIGRIS_OK);
    }
}

// docs/format.md P4.4 step 8 / P13.3: num_tensors > TIGRIS_MAX_TENSORS -> PLAN_LIMITS, reported by load_ex.
TEST(LoaderTensors, TensorCountAboveBuildLimit) {
    PlanBuilder b(9);
    const int n = TIGRIS_MAX_TENSORS + 1;
    std::vector<uint16_t> ops;
    b.add_tensor("t0", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    for (int i = 1; i < n; ++i) {
        b.add_tensor("t" + std::to_string(i), TIGRIS_DTYPE_FLOAT32, {1, 4},
                     i == n - 1 ? TIGRIS_TENSOR_MODEL_OUTPUT : 0);
        ops.push_back(b.add_op(TIGRIS_OP_RELU, {(uint16_t)(i - 1)}, {(uint16_t)i}));
    }
    b.add_stage(ops, {0}, {(uint16_t)(n - 1)});
    std::vector<uint8_t> bytes = b.build();
    tigris_plan_limits_t req{};
    EXPECT_EQ(err_name(load_plan(bytes, &req)), err_name(TIGRIS_ERR_PLAN_LIMITS));
    EXPECT_EQ(req.tensors, (uint32_t)n);
}

TEST(LoaderTensors, TensorCountAtBuildLimitLoads) {
    PlanBuilder b(9);
    const int n = TIGRIS_MAX_TENSORS;
    std::vector<uint16_t> ops;
    b.add_tensor("t0", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    for (int i = 1; i < n; ++i) {
        b.add_tensor("t" + std::to_string(i), TIGRIS_DTYPE_FLOAT32, {1, 4},
                     i == n - 1 ? TIGRIS_TENSOR_MODEL_OUTPUT : 0);
        ops.push_back(b.add_op(TIGRIS_OP_RELU, {(uint16_t)(i - 1)}, {(uint16_t)i}));
    }
    b.add_stage(ops, {0}, {(uint16_t)(n - 1)});
    tigris_plan_limits_t req{};
    EXPECT_EQ(err_name(load_plan(b.build(), &req)), err_name(TIGRIS_OK));
    EXPECT_EQ(req.tensors, (uint32_t)n);
}

// docs/format.md P4.5: flagged iff listed.
TEST(LoaderTensors, ModelInputFlagButNotListed) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.auto_model_io = false;
    b.model_outputs = {1};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, ModelOutputListedButNotFlagged) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.auto_model_io = false;
    b.model_inputs = {0};
    b.model_outputs = {1};
    b.tensors[1].flags = 0;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, InputListedAsOutput) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.auto_model_io = false;
    b.model_inputs = {0};
    b.model_outputs = {0};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, StateTensorListedAsModelInput) {
    PlanBuilder b = PlanBuilder::state_add(10);
    b.auto_model_io = false;
    b.model_inputs = {0, 1};
    b.model_outputs = {2};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

// docs/format.md P4.2 / P15.1: STATE (0x10) only in a v10+ plan that has a state section.
TEST(LoaderTensors, StateFlagBelowV10) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.add_tensor("s", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_STATE);
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderTensors, StateFlagWithoutStateSection) {
    PlanBuilder b = PlanBuilder::minimal_float(10);
    b.add_tensor("s", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_STATE);
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}
