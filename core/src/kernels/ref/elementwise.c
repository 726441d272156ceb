/*
 * elementwise.c - float32 Add, Sub and Mul with broadcasting (and one
 * constant operand); Add carries an optional fused Relu/Relu6.
 */
#include "../kernel_common.h"

enum { OP_ADD, OP_SUB, OP_MUL };

static int binary(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                  int which) {
    tk_binary_t b;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_FLOAT32, &b)) return -1;
    float *y = (float *)b.y;
    for (uint32_t i = 0; i < b.count; i++) {
        float x0, x1;
        memcpy(&x0, b.a[0].p + 4u * tk_operand_at(&b, &b.a[0], i), 4);
        memcpy(&x1, b.a[1].p + 4u * tk_operand_at(&b, &b.a[1], i), 4);
        float r = which == OP_ADD ? x0 + x1 : (which == OP_SUB ? x0 - x1 : x0 * x1);
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
