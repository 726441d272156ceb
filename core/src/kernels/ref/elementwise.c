/*
 * elementwise.c - float32 elementwise binary operators with broadcasting
 * (and one constant operand): Add, Sub, Mul, Div, SquaredDifference,
 * Maximum, Minimum, FloorDiv, FloorMod and PRelu (docs/runtime-semantics.md R4.4,
 * R4.5). A fused Relu/Relu6 is applied when the op carries one (the loader
 * allows it on Add only).
 */
#include <math.h>

#include "../kernel_common.h"

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQDIFF, OP_MAX, OP_MIN, OP_FLOOR_DIV, OP_FLOOR_MOD, OP_PRELU };

/* One element; returns -1 for a FloorDiv by zero. */
static int apply(int which, float x0, float x1, float *r) {
    switch (which) {
    case OP_ADD: *r = x0 + x1; return 0;
    case OP_SUB: *r = x0 - x1; return 0;
    case OP_MUL: *r = x0 * x1; return 0;
    case OP_DIV: *r = x0 / x1; return 0;
    case OP_SQDIFF: {
        float d = x0 - x1;
        *r = d * d;
        return 0;
    }
    /* These forms fix what a NaN operand gives (docs/runtime-semantics.md R4.5). */
    case OP_MAX: *r = x0 < x1 ? x1 : x0; return 0;
    case OP_MIN: *r = x1 < x0 ? x1 : x0; return 0;
    case OP_FLOOR_DIV:
        if (x1 == 0.0f) return -1;
        *r = floorf(x0 / x1);
        return 0;
    case OP_FLOOR_MOD: {
        /* Truncated remainder moved onto the divisor's side of zero. */
        float m = fmodf(x0, x1);
        if (m != 0.0f && ((x1 < 0.0f) != (m < 0.0f))) m += x1;
        *r = m;
        return 0;
    }
    case OP_PRELU: *r = x0 >= 0.0f ? x0 : x0 * x1; return 0;
    default: return -1;
    }
}

static int binary(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                  int which) {
    tk_binary_t b;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_FLOAT32, &b)) return -1;
    float *y = (float *)b.y;
    for (uint32_t i = 0; i < b.count; i++) {
        float x0, x1, r;
        memcpy(&x0, b.a[0].p + 4u * tk_operand_at(&b.out, &b.a[0], i), 4);
        memcpy(&x1, b.a[1].p + 4u * tk_operand_at(&b.out, &b.a[1], i), 4);
        if (apply(which, x0, x1, &r)) return -1;
        if (op->fused_act == TIGRIS_ACT_RELU || op->fused_act == TIGRIS_ACT_RELU6) r = r < 0.0f ? 0.0f : r;
        if (op->fused_act == TIGRIS_ACT_RELU6 && r > 6.0f) r = 6.0f;
        y[i] = r;
    }
    return 0;
}

int tk_f32_add(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_ADD);
}

int tk_f32_sub(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_SUB);
}

int tk_f32_mul(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_MUL);
}

int tk_f32_div(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_DIV);
}

int tk_f32_squared_difference(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                              tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_SQDIFF);
}

int tk_f32_maximum(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_MAX);
}

int tk_f32_minimum(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_MIN);
}

int tk_f32_floor_div(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_FLOOR_DIV);
}

int tk_f32_floor_mod(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_FLOOR_MOD);
}

int tk_f32_prelu(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_PRELU);
}
