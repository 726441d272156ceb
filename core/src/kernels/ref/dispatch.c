/*
 * dispatch.c - the float32 reference dispatcher: a routing table indexed
 * by opcode, generated from the operator table, which is the single place
 * that shows which float kernels exist. Opcodes without an entry return -1
 * (the executor reports a kernel error).
 */
#include "tigris_kernels.h"

#include "../kernel_common.h"

/* The `ref` column of the operator table (../../ops.def). */
static const tk_kernel_fn f32_routes[TIGRIS_OP_MAX_KNOWN + 1] = {
#define KERNEL(fn) tk_##fn
#define NO_KERNEL NULL
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) [value] = ref,
#include "../../ops.def"
#undef KERNEL
#undef NO_KERNEL
};

int tigris_dispatch_kernel(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                           tigris_mem_t *mem, void *user_ctx) {
    (void)user_ctx;
    if (!plan || !op || !mem || !mem->tensor_ptrs) return -1;
    if (op->op_type > TIGRIS_OP_MAX_KNOWN || !f32_routes[op->op_type]) return -1;
    return f32_routes[op->op_type](plan, op, op_index, mem);
}
