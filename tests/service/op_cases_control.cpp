// Op cases for the executor-level operators If (87) and While (88).
#include "op_cases.h"

using tigris_test::OpCase;
using tigris_test::PlanBuilder;

// If picks the then graph (Relu) for cond = 1: negatives become 0, the
// else graph's Relu6 clamp at 6 is not applied.
TIGRIS_OP_CASE(if_then_f32) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    OpCase c{"if_then_f32", TIGRIS_OP_IF, "f32", b.build(), {}, {}};
    c.input = {1};
    const std::vector<float> x = {-2.0f, 0.5f, 7.0f, -0.25f};
    auto xb = tigris_test::bytes_of(x);
    c.input.insert(c.input.end(), xb.begin(), xb.end());
    c.expected = tigris_test::bytes_of(std::vector<float>{0.0f, 0.5f, 7.0f, 0.0f});
    return c;
}

// The same plan with cond = 0 runs the else graph (Relu6).
TIGRIS_OP_CASE(if_else_f32) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    OpCase c{"if_else_f32", TIGRIS_OP_IF, "f32", b.build(), {}, {}};
    c.input = {0};
    auto xb = tigris_test::bytes_of(std::vector<float>{-2.0f, 0.5f, 7.0f, -0.25f});
    c.input.insert(c.input.end(), xb.begin(), xb.end());
    c.expected = tigris_test::bytes_of(std::vector<float>{0.0f, 0.5f, 6.0f, 0.0f});
    return c;
}

// While with the real kernels: the condition graph computes i < 3.0 (LESS
// against a constant), the body i + 1.0 (ADD of a constant), as in
// ExecutorPaths.WhileLoopsUntilTheConditionFails. 0.5 -> 1.5 -> 2.5 -> 3.5,
// where 3.5 < 3 fails.
TIGRIS_OP_CASE(while_f32) {
    PlanBuilder b(10);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 1}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 1}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t ci = b.add_tensor("cond.i", TIGRIS_DTYPE_FLOAT32, {1, 1});
    uint16_t cv = b.add_tensor("cond.v", TIGRIS_DTYPE_BOOL, {1, 1});
    uint16_t bi = b.add_tensor("body.i", TIGRIS_DTYPE_FLOAT32, {1, 1});
    uint16_t bo = b.add_tensor("body.o", TIGRIS_DTYPE_FLOAT32, {1, 1});
    uint16_t w3 = b.add_float_weight("three", {3.0f});
    uint16_t w1 = b.add_float_weight("one", {1.0f});
    uint16_t op_w = b.add_op(TIGRIS_OP_WHILE, {x}, {y}, "while");
    uint16_t op_c = b.add_op(TIGRIS_OP_LESS, {ci}, {cv}, "less");
    b.ops[op_c].weight = w3;
    b.add_attribute(op_c, TIGRIS_ATTR_CONSTANT_OPERAND, {1, 0, 0xFF, 0xFF});
    uint16_t op_b = b.add_op(TIGRIS_OP_ADD, {bi}, {bo}, "add");
    b.ops[op_b].weight = w1;
    b.add_attribute(op_b, TIGRIS_ATTR_CONSTANT_OPERAND, {1, 0, 0xFF, 0xFF});
    b.add_attribute(op_w, TIGRIS_ATTR_SUBGRAPHS, tigris_test::le_u16({1, 2}));
    b.add_stage({op_w}, {x}, {y});
    b.add_stage({op_c}, {ci}, {cv});
    b.add_stage({op_b}, {bi}, {bo});
    b.add_subgraph(0, 1, {x}, {y});
    b.add_subgraph(1, 1, {ci}, {cv});
    b.add_subgraph(2, 1, {bi}, {bo});
    OpCase c{"while_f32", TIGRIS_OP_WHILE, "f32", b.build(), {}, {}};
    c.input = tigris_test::bytes_of(std::vector<float>{0.5f});
    c.expected = tigris_test::bytes_of(std::vector<float>{3.5f});
    return c;
}
