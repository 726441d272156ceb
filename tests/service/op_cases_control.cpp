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
