// Loader checks of operator records (docs/format.md P5 record rules,
// P5.1 opcode acceptance, P5.4 structural checks).
#include <gtest/gtest.h>

#include "plan_builder.h"

using namespace tigris_test;

// docs/format.md P5.4: name string valid.
TEST(LoaderOps, NameStringOutsideStrings) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().op(0), 0x10000);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P5.4: input and output lists inside the index pool.
TEST(LoaderOps, InputListOutsideIndexPool) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().op(0) + 8, 0xFFF0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderOps, OutputListOutsideIndexPool) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().op(0) + 10, 8);  // the pool has 8 elements (7 + padding)
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderOps, InputCountRunsPastIndexPool) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u8(bytes, b.layout().op(0) + 5, 250);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P5.4: every listed tensor index < num_tensors.
TEST(LoaderOps, InputTensorIndexOutOfRange) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.ops[0].inputs = {2};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderOps, OutputTensorIndexOutOfRange) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.ops[0].outputs = {0xFFFF};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P5.3 / P5.4: weight and bias indices NONE16 or < num_weights.
TEST(LoaderOps, WeightIndexOutOfRange) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    b.ops[0].weight = 2;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderOps, BiasIndexOutOfRange) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    b.ops[0].bias = 0x7FFF;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderOps, WeightIndexWithoutWeights) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.ops[0].weight = 0;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P5.4: v2-v4 stage byte must be < num_stages.
TEST(LoaderOps, V4StageByteBeyondStageCount) {
    PlanBuilder b = PlanBuilder::minimal_float(4);
    b.ops[0].stage_byte = 1;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P5 record: fused_act > 2 -> BAD_OPERATOR.
TEST(LoaderOps, FusedActivationAboveRelu6) {
    for (uint8_t act : {3, 4, 255}) {
        PlanBuilder b = PlanBuilder::float_conv(9);
        b.ops[0].fused_act = act;
        SCOPED_TRACE((int)act);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
    }
}

// docs/format.md P5 record: _pad1 must be 0.
TEST(LoaderOps, PaddingByteNotZero) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u8(bytes, b.layout().op(0) + 37, 1);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_OPERATOR);
}

// docs/format.md P5.1: an opcode the runtime does not know is refused for v4+ plans.
TEST(LoaderOps, UnknownOpcode) {
    for (uint8_t t : {0, 90, 100, 200, 254, 255}) {
        PlanBuilder b = PlanBuilder::minimal_float(9);
        b.ops[0].type = t;
        SCOPED_TRACE((int)t);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
    }
}

TEST(LoaderOps, UnknownOpcodeAtV4) {
    PlanBuilder b = PlanBuilder::minimal_float(4);
    b.ops[0].type = 90;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

// docs/format.md P5.1: ids without a validation arm are refused (the compiler lowers them).
TEST(LoaderOps, OpcodesWithoutValidationArm) {
    for (uint8_t t : {TIGRIS_OP_CLIP, TIGRIS_OP_BATCH_NORM, TIGRIS_OP_INST_NORM, TIGRIS_OP_SQUEEZE,
                      TIGRIS_OP_UNSQUEEZE}) {
        PlanBuilder b = PlanBuilder::minimal_float(9);
        b.ops[0].type = t;
        if (t == TIGRIS_OP_CLIP) b.add_attribute(0, TIGRIS_ATTR_CLIP_BOUNDS, le_f32({0.0f, 6.0f}));
        SCOPED_TRACE((int)t);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
    }
}

// docs/format.md P13.2: operator structure (step 11) is checked before stages (step 16).
TEST(LoaderOps, StructureIsCheckedBeforeSchedule) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.ops[0].inputs = {7};
    b.stages[0].ops = {};  // also an unscheduled op
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
    PlanBuilder c = PlanBuilder::minimal_float(9);
    c.ops[0].type = 200;   // semantic failure (BAD_OPERATOR) ...
    c.stages[0].ops = {};  // ... loses to the schedule (BAD_SECTION)
    EXPECT_LOAD(c.build(), TIGRIS_ERR_BAD_SECTION);
}
