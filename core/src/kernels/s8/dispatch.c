/*
 * dispatch.c - the int8 reference dispatcher. Its routing table indexed by
 * opcode is generated from the operator table (the int8 kernels that
 * exist); an op whose tensors are float32
 * (a float section of an int8 plan) goes to the float reference instead.
 * Opcodes without an entry return -1.
 */
#include "tigris_kernels.h"

#include "../kernel_common.h"

/* The `s8` column of the operator table (../../ops.def). */
static const tk_kernel_fn s8_routes[TIGRIS_OP_MAX_KNOWN + 1] = {
#define KERNEL(fn) tk_##fn
#define NO_KERNEL NULL
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) [value] = s8,
#include "../../ops.def"
#undef KERNEL
#undef NO_KERNEL
};

/* The dtype that decides the route: the first output's, which for every
 * float-section op is float32 (a Dequantize boundary produces it). */
static int is_float_op(const tigris_plan_t *plan, const tigris_op_t *op) {
    int32_t o = tk_out_idx(plan, op, 0);
    if (o < 0) return 0;
    return plan->tensors[o].dtype == TIGRIS_DTYPE_FLOAT32;
}

int tigris_dispatch_kernel_s8(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                              tigris_mem_t *mem, void *user_ctx) {
    if (!plan || !op || !mem || !mem->tensor_ptrs) return -1;
    if (is_float_op(plan, op)) {
#if TIGRIS_ENABLE_F32
        return tigris_dispatch_kernel(plan, op, op_index, mem, user_ctx);
#else
        /* Without float kernels the loader admits float tensors only in
         * byte-level ops (data movement), whose entries below serve every
         * dtype; any other float op finds an int8 kernel that refuses it. */
#endif
    }
    (void)user_ctx;
    if (op->op_type > TIGRIS_OP_MAX_KNOWN || !s8_routes[op->op_type]) return -1;
    return s8_routes[op->op_type](plan, op, op_index, mem);
}
