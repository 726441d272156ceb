// Loader checks of the state section and of subgraphs / control flow
// (docs/format.md P11, P12; P13.2 steps 5, 9, 10, 19).
#include <gtest/gtest.h>

#include "plan_builder.h"

using namespace tigris_test;

namespace {

// y = relu(x + s), and s' = x + s written back: entry {s -> s'}.
PlanBuilder state_update(uint32_t rev = 10) {
    PlanBuilder b(rev);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t s = b.add_tensor("s", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_STATE);
    uint16_t sn = b.add_tensor("s.next", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_STATE);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t o0 = b.add_op(TIGRIS_OP_ADD, {x, s}, {sn});
    uint16_t o1 = b.add_op(TIGRIS_OP_RELU, {sn}, {y});
    b.add_stage({o0, o1}, {x, s}, {sn, y});
    b.add_state(s, sn, le_f32({1, 2, 3, 4}));
    return b;
}

// y = (x + s1) + s2 with two read-only variables.
PlanBuilder two_states(uint32_t rev = 10) {
    PlanBuilder b(rev);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t s1 = b.add_tensor("s1", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_STATE);
    uint16_t s2 = b.add_tensor("s2", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_STATE);
    uint16_t t = b.add_tensor("t", TIGRIS_DTYPE_FLOAT32, {1, 4});
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t o0 = b.add_op(TIGRIS_OP_ADD, {x, s1}, {t});
    uint16_t o1 = b.add_op(TIGRIS_OP_ADD, {t, s2}, {y});
    b.add_stage({o0, o1}, {x, s1, s2}, {y});
    b.add_state(s1);
    b.add_state(s2);
    return b;
}

}  // namespace

TEST(LoaderState, BaselinesLoad) {
    EXPECT_LOAD(state_update().build(), TIGRIS_OK);
    EXPECT_LOAD(two_states().build(), TIGRIS_OK);
    EXPECT_LOAD(state_update(11).build(), TIGRIS_OK);
}

TEST(LoaderState, LoadedPlanExposesStateBuffer) {
    PlanBuilder b = two_states();
    std::vector<uint8_t> bytes = b.build();
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    EXPECT_EQ(plan.num_state, 2);
    EXPECT_EQ(plan.state_bytes, 32u);  // two 16-byte variables, laid out in order
    ASSERT_NE(plan.state_entries, nullptr);
    EXPECT_EQ(plan.state_entries[1].offset, 16u);
}

// docs/format.md P11: refused below v10.
TEST(LoaderState, SectionBelowV10) {
    for (uint32_t rev : {4u, 9u}) {
        SCOPED_TRACE(rev);
        EXPECT_LOAD(PlanBuilder::state_add(rev).build(), TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderState, CountZero) {
    PlanBuilder b = PlanBuilder::state_add(10);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().state_header, 0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderState, ReservedNotZero) {
    PlanBuilder b = PlanBuilder::state_add(10);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().state_header + 2, 1);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderState, EntriesBeyondSection) {
    PlanBuilder b = PlanBuilder::state_add(10);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().state_header, 100);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderState, HeaderDoesNotFit) {
    // The state section (last) cut to 6 bytes: its 8-byte header does not fit.
    PlanBuilder b = PlanBuilder::state_add(10);
    std::vector<uint8_t> bytes = b.build();
    bytes.resize(b.layout().state_header + 6);
    put_u32(bytes, 8, (uint32_t)bytes.size());
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderState, EntryBytesZero) {
    PlanBuilder b = PlanBuilder::state_add(10);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().state_entry(0) + 8, 0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderState, EntryOffsetNotMultipleOf4) {
    PlanBuilder b = PlanBuilder::state_add(10);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().state_header + 4, 24);  // room for [2, 18)
    put_u32(bytes, b.layout().state_entry(0) + 4, 2);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderState, EntryOutsideStateBuffer) {
    PlanBuilder b = PlanBuilder::state_add(10);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().state_header + 4, 12);  // the 16-byte variable no longer fits
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderState, EntryOffsetWrapsAround) {
    PlanBuilder b = PlanBuilder::state_add(10);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().state_entry(0) + 4, 0xFFFFFFF4u);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderState, InitialValueOutsideSection) {
    for (uint32_t init : {30u, 1000u, 0xFFFFFFF8u}) {  // section is 40 bytes; value 16
        PlanBuilder b = PlanBuilder::state_add(10);
        std::vector<uint8_t> bytes = b.build();
        put_u32(bytes, b.layout().state_entry(0) + 12, init);
        SCOPED_TRACE(init);
        EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderState, EntriesOverlapInStateBuffer) {
    PlanBuilder b = two_states();
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().state_entry(1) + 4, 8);  // [8, 24) overlaps [0, 16)
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P11 tensor roles [BAD_TENSOR].
TEST(LoaderState, StateFlaggedTensorWithoutEntry) {
    PlanBuilder b = PlanBuilder::state_add(10);
    b.add_tensor("orphan", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_STATE);
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderState, EntryInputNotStateFlagged) {
    PlanBuilder b = PlanBuilder::state_add(10);
    b.tensors[1].flags = 0;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderState, EntryOutputNotStateFlagged) {
    PlanBuilder b = state_update();
    b.tensors[2].flags = 0;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderState, EntryInputOutOfRange) {
    PlanBuilder b = PlanBuilder::state_add(10);
    b.state[0].input = 99;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderState, EntryOutputOutOfRange) {
    PlanBuilder b = PlanBuilder::state_add(10);
    b.state[0].output = 99;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderState, TensorInTwoEntries) {
    PlanBuilder b = PlanBuilder::state_add(10);
    b.add_state(1);
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderState, EntryBytesDifferFromTensorSize) {
    PlanBuilder b = PlanBuilder::state_add(10);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().state_entry(0) + 8, 8);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderState, InputDtypeNotFloatInt8OrInt16) {
    for (uint8_t d : {TIGRIS_DTYPE_INT32, TIGRIS_DTYPE_BOOL}) {
        PlanBuilder b = PlanBuilder::state_add(10);
        b.tensors[1].dtype = d;
        b.state[0].initial.assign(b.tensor_bytes(1), 0);
        SCOPED_TRACE((int)d);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
    }
}

TEST(LoaderState, OutputShapeDiffers) {
    PlanBuilder b = state_update();
    b.tensors[2].shape = {1, 2, 2};  // same byte size, other shape
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderState, OutputSizeDiffers) {
    PlanBuilder b = state_update();
    b.tensors[2].shape = {1, 8};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderState, OutputLinearFlagDiffers) {
    PlanBuilder b = state_update();
    b.tensors[2].flags |= TIGRIS_TENSOR_LINEAR;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderState, Int8OutputEncodingDiffers) {
    PlanBuilder b = state_update();
    uint16_t q0 = b.add_quant(0.5f, 0), q1 = b.add_quant(0.25f, 0);
    for (auto &t : b.tensors) {
        t.dtype = TIGRIS_DTYPE_INT8;
        t.quant = q0;
    }
    b.tensors[2].quant = q1;
    b.state[0].initial.assign(4, 0);
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

// ---- docs/format.md P12 subgraphs (if_subgraphs: graph 0 = stage 0, then = stage 1, else = stage 2) ----

TEST(LoaderSubgraphs, LoadedPlanExposesGraphs) {
    std::vector<uint8_t> bytes = PlanBuilder::if_subgraphs(10).build();
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    EXPECT_EQ(plan.num_subgraphs, 3);
    EXPECT_EQ(plan.subgraph_depth, 1);
}

TEST(LoaderSubgraphs, SectionBelowV10) {
    EXPECT_LOAD(PlanBuilder::if_subgraphs(9).build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSubgraphs, CountBelowTwo) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().subgraph_header, 1);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSubgraphs, ReservedNotZero) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().subgraph_header + 2, 7);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSubgraphs, RecordsBeyondSection) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().subgraph_header, TIGRIS_MAX_SUBGRAPHS);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P12 / P13.3: the v11 reference reports the graph-count limit as PLAN_LIMITS.
// if_subgraphs plus extra one-Relu graphs, so that every record fits its
// section and only the count is wrong.
TEST(LoaderSubgraphs, CountAboveBuildLimit) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    while (b.subgraphs.size() < (size_t)TIGRIS_MAX_SUBGRAPHS + 1) {
        const std::string n = "g" + std::to_string(b.subgraphs.size());
        uint16_t in = b.add_tensor(n + ".in", TIGRIS_DTYPE_FLOAT32, {1, 4});
        uint16_t out = b.add_tensor(n + ".out", TIGRIS_DTYPE_FLOAT32, {1, 4});
        uint16_t op = b.add_op(TIGRIS_OP_RELU, {in}, {out});
        uint16_t st = b.add_stage({op}, {in}, {out});
        b.add_subgraph(st, 1, {in}, {out});
    }
    EXPECT_LOAD(b.build(), TIGRIS_ERR_PLAN_LIMITS);
    b.subgraphs.pop_back();  // exactly at the limit: the unreferenced graph is dropped with its stage
    b.stages.pop_back();
    b.ops.pop_back();
    b.tensors.pop_back();
    b.tensors.pop_back();
    EXPECT_LOAD(b.build(), TIGRIS_OK);
}

TEST(LoaderSubgraphs, MainGraphNotAtStageZero) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.subgraphs[0].first_stage = 1;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSubgraphs, GapBetweenGraphs) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.subgraphs[2].first_stage = 3;
    b.subgraphs[2].num_stages = 0;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSubgraphs, EmptyNonMainGraph) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.subgraphs[1].num_stages = 0;
    b.subgraphs[2].first_stage = 1;
    b.subgraphs[2].num_stages = 2;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSubgraphs, GraphsDoNotCoverAllStages) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.subgraphs.pop_back();  // stage 2 in no graph
    b.attributes[0].bytes = le_u16({1, 1});
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSubgraphs, GraphsRunPastStageTable) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.subgraphs[2].num_stages = 2;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSubgraphs, IoListOutsideIndexPool) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().subgraph_record(1) + 4, 0xFFF0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSubgraphs, IoTensorOutOfRange) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.subgraphs[1].inputs = {99};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSubgraphs, MainGraphIoDiffersFromModelIo) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.subgraphs[0].inputs = {1, 0};  // model inputs are {0, 1}
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
    PlanBuilder c = PlanBuilder::if_subgraphs(10);
    c.subgraphs[0].outputs = {};
    EXPECT_LOAD(c.build(), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSubgraphs, TensorRangesOverlap) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    // The then-branch reads the main graph's x directly.
    b.ops[1].inputs = {1};
    b.stages[1].inputs = {1};
    b.subgraphs[1].inputs = {1};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

TEST(LoaderSubgraphs, BranchTensorFlaggedModelOutput) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.tensors[6].flags = TIGRIS_TENSOR_MODEL_OUTPUT;  // else.out
    b.subgraphs[0].outputs = {2, 6};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
}

// docs/format.md P12 IF placement and form [BAD_OPERATOR].
TEST(LoaderSubgraphs, IfWithoutSubgraphSection) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.subgraphs.clear();
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderSubgraphs, IfWithTilePlan) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.stages[0].tile = b.add_tile(TilePlan{});
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderSubgraphs, IfWithoutSubgraphsAttribute) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.attributes.clear();
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderSubgraphs, IfSubgraphsAttributeNotFourBytes) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.attributes[0].bytes = le_u16({1});
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderSubgraphs, IfBranchIndexOutOfRange) {
    for (auto pair : {std::vector<uint16_t>{0, 2}, std::vector<uint16_t>{1, 3}, std::vector<uint16_t>{1, 0xFFFF}}) {
        PlanBuilder b = PlanBuilder::if_subgraphs(10);
        b.attributes[0].bytes = le_u16(pair);
        SCOPED_TRACE(pair[0] * 100000 + pair[1]);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
    }
}

TEST(LoaderSubgraphs, IfBranchInputCountDiffers) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.subgraphs[1].inputs = {3, 3};  // If has 2 inputs: the branch takes 1
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderSubgraphs, IfBranchOutputCountDiffers) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.subgraphs[2].outputs = {6, 6};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderSubgraphs, IfBranchFormDiffers) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    b.tensors[3].shape = {4};  // then.in / then.out: same bytes, other shape than x / y
    b.tensors[4].shape = {4};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

// ---- WHILE (docs/format.md P12) ----

namespace {
// y = While(x): condition graph 1 = (c > 10), body graph 2 = b + 1, all [1] floats.
// extra_output: a second main-graph output tensor (index 2), not yet used.
PlanBuilder while_loop(bool extra_output = false) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1}, TIGRIS_TENSOR_MODEL_OUTPUT);
    if (extra_output) b.add_tensor("y2", TIGRIS_DTYPE_FLOAT32, {1}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t ci = b.add_tensor("cond.in", TIGRIS_DTYPE_FLOAT32, {1});
    uint16_t co = b.add_tensor("cond.out", TIGRIS_DTYPE_BOOL, {1});
    uint16_t bi = b.add_tensor("body.in", TIGRIS_DTYPE_FLOAT32, {1});
    uint16_t bo = b.add_tensor("body.out", TIGRIS_DTYPE_FLOAT32, {1});
    uint16_t ten = b.add_float_weight("ten", {10.0f});
    uint16_t one = b.add_float_weight("one", {1.0f});
    uint16_t w = b.add_op(TIGRIS_OP_WHILE, {x}, {y}, "while");
    uint16_t g = b.add_op(TIGRIS_OP_GREATER, {ci}, {co}, "cond.greater");
    uint16_t a = b.add_op(TIGRIS_OP_ADD, {bi}, {bo}, "body.add");
    b.ops[g].weight = ten;
    b.ops[a].weight = one;
    b.add_attribute(w, TIGRIS_ATTR_SUBGRAPHS, le_u16({1, 2}));
    b.add_attribute(g, TIGRIS_ATTR_CONSTANT_OPERAND, {1, 0, 0xFF, 0xFF});
    b.add_stage({w}, {x}, {y});
    b.add_stage({g}, {ci}, {co});
    b.add_stage({a}, {bi}, {bo});
    b.add_subgraph(0, 1, {x}, {y});
    b.add_subgraph(1, 1, {ci}, {co});
    b.add_subgraph(2, 1, {bi}, {bo});
    return b;
}
}  // namespace

TEST(LoaderSubgraphs, WhileBaselineLoads) { EXPECT_LOAD(while_loop().build(), TIGRIS_OK); }

TEST(LoaderSubgraphs, WhileConditionEqualsBody) {
    PlanBuilder b = while_loop();
    b.attributes[0].bytes = le_u16({2, 2});
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderSubgraphs, WhileGraphIndexOutOfRange) {
    for (auto pair : {std::vector<uint16_t>{0, 2}, std::vector<uint16_t>{1, 3}}) {
        PlanBuilder b = while_loop();
        b.attributes[0].bytes = le_u16(pair);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
    }
}

TEST(LoaderSubgraphs, WhileOutputCountDiffersFromInputs) {
    PlanBuilder b = while_loop(true);
    b.ops[0].outputs = {1, 2};
    b.stages[0].outputs = {1, 2};
    b.subgraphs[0].outputs = {1, 2};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderSubgraphs, WhileConditionNotBool) {
    PlanBuilder b = while_loop();
    b.subgraphs[1].outputs = {2};  // cond graph "returns" its float input
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderSubgraphs, WhileConditionWithTwoOutputs) {
    PlanBuilder b = while_loop();
    b.subgraphs[1].outputs = {3, 3};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderSubgraphs, WhileBodyOutputCountDiffers) {
    PlanBuilder b = while_loop();
    b.subgraphs[2].outputs = {};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}

TEST(LoaderSubgraphs, WhileBodyFormDiffers) {
    PlanBuilder b = while_loop();
    b.tensors[4].shape = {1, 1};  // body.in: same bytes, other shape than x
    b.tensors[5].shape = {1, 1};
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_OPERATOR);
}
