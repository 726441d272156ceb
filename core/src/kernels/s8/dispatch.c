/*
 * dispatch.c - the int8 reference dispatcher. Its routing table indexed by
 * opcode shows which int8 kernels exist; an op whose tensors are float32
 * (a float section of an int8 plan) goes to the float reference instead.
 * Opcodes without an entry return -1.
 */
#include "tigris_kernels.h"

#include "../kernel_common.h"

static const tk_kernel_fn s8_routes[TIGRIS_OP_MAX_KNOWN + 1] = {
    [TIGRIS_OP_CONV] = tk_s8_conv,
    [TIGRIS_OP_DEPTHWISE] = tk_s8_depthwise,
    [TIGRIS_OP_RELU] = tk_s8_relu,
    [TIGRIS_OP_RELU6] = tk_s8_relu6,
    [TIGRIS_OP_MAX_POOL] = tk_s8_max_pool,
    [TIGRIS_OP_AVG_POOL] = tk_s8_avg_pool,
    [TIGRIS_OP_ADD] = tk_s8_add,
    [TIGRIS_OP_MUL] = tk_s8_mul,
    [TIGRIS_OP_FULLY_CONN] = tk_s8_fully_connected,
    [TIGRIS_OP_SOFTMAX] = tk_s8_softmax,
    [TIGRIS_OP_SIGMOID] = tk_s8_sigmoid,
    [TIGRIS_OP_CONCAT] = tk_any_concat,
    [TIGRIS_OP_PAD] = tk_any_pad,
    [TIGRIS_OP_GLOBAL_AVG] = tk_s8_global_avg,
    [TIGRIS_OP_FLATTEN] = tk_any_reshape,
    [TIGRIS_OP_RESHAPE] = tk_any_reshape,
    [TIGRIS_OP_SUB] = tk_s8_sub,
    [TIGRIS_OP_TANH] = tk_s8_tanh,
    [TIGRIS_OP_LEAKY_RELU] = tk_s8_leaky_relu,
    [TIGRIS_OP_REDUCE_MEAN] = tk_s8_reduce_mean,

    /* >>> unary (unary math and activations: unary.c) */
    /* <<< unary */

    /* >>> normalization (normalization: normalization.c) */
    /* <<< normalization */

    /* >>> reduce (reductions, scans, arg-min/max: reduce.c) */
    /* <<< reduce */

    /* >>> binary (elementwise binary: elementwise.c) */
    /* <<< binary */

    /* >>> logic (comparison, logic, select, cast, add-n: logic.c) */
    /* <<< logic */

    /* >>> spatial (conv family, pools, resize: conv.c, pool.c, resize.c) */
    /* <<< spatial */

    /* >>> movement (data movement: movement.c) */
    /* <<< movement */

    /* >>> recurrent (recurrent and detection: recurrent.c, detection.c) */
    [TIGRIS_OP_SVDF] = tk_s8_svdf,
    /* <<< recurrent */
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
        return -1;
#endif
    }
    (void)user_ctx;
    if (op->op_type > TIGRIS_OP_MAX_KNOWN || !s8_routes[op->op_type]) return -1;
    return s8_routes[op->op_type](plan, op, op_index, mem);
}
