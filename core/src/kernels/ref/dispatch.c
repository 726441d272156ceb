/*
 * dispatch.c - the float32 reference dispatcher: one routing table indexed
 * by opcode is the single place that shows which float kernels exist.
 * Opcodes without an entry return -1 (the executor reports a kernel error).
 */
#include "tigris_kernels.h"

#include "../kernel_common.h"

static const tk_kernel_fn f32_routes[TIGRIS_OP_MAX_KNOWN + 1] = {
    [TIGRIS_OP_CONV] = tk_f32_conv,
    [TIGRIS_OP_DEPTHWISE] = tk_f32_depthwise,
    [TIGRIS_OP_RELU] = tk_f32_relu,
    [TIGRIS_OP_RELU6] = tk_f32_relu6,
    [TIGRIS_OP_MAX_POOL] = tk_f32_max_pool,
    [TIGRIS_OP_AVG_POOL] = tk_f32_avg_pool,
    [TIGRIS_OP_ADD] = tk_f32_add,
    [TIGRIS_OP_MUL] = tk_f32_mul,
    [TIGRIS_OP_FULLY_CONN] = tk_f32_fully_connected,
    [TIGRIS_OP_SOFTMAX] = tk_f32_softmax,
    [TIGRIS_OP_SIGMOID] = tk_f32_sigmoid,
    [TIGRIS_OP_CONCAT] = tk_any_concat,
    [TIGRIS_OP_PAD] = tk_any_pad,
    [TIGRIS_OP_GLOBAL_AVG] = tk_f32_global_avg,
    [TIGRIS_OP_FLATTEN] = tk_any_reshape,
    [TIGRIS_OP_RESHAPE] = tk_any_reshape,
    [TIGRIS_OP_SUB] = tk_f32_sub,
    [TIGRIS_OP_TANH] = tk_f32_tanh,
    [TIGRIS_OP_LEAKY_RELU] = tk_f32_leaky_relu,
    [TIGRIS_OP_REDUCE_MEAN] = tk_f32_reduce_mean,

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
    [TIGRIS_OP_SVDF] = tk_f32_svdf,
    [TIGRIS_OP_LSTM] = tk_f32_lstm,
    [TIGRIS_OP_DETECTION_POSTPROCESS] = tk_f32_detection_postprocess,
    /* <<< recurrent */
};

int tigris_dispatch_kernel(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                           tigris_mem_t *mem, void *user_ctx) {
    (void)user_ctx;
    if (!plan || !op || !mem || !mem->tensor_ptrs) return -1;
    if (op->op_type > TIGRIS_OP_MAX_KNOWN || !f32_routes[op->op_type]) return -1;
    return f32_routes[op->op_type](plan, op, op_index, mem);
}
