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
    [TIGRIS_OP_ABS] = tk_s8_abs,
    [TIGRIS_OP_RSQRT] = tk_s8_rsqrt,
    [TIGRIS_OP_HARDSWISH] = tk_s8_hardswish,
    [TIGRIS_OP_ELU] = tk_s8_elu,
    [TIGRIS_OP_ERF] = tk_s8_erf,
    /* <<< unary */

    /* >>> normalization (normalization: normalization.c) */
    [TIGRIS_OP_LAYER_NORM] = tk_s8_layer_norm,
    [TIGRIS_OP_LOG_SOFTMAX] = tk_s8_log_softmax,
    [TIGRIS_OP_L2_NORMALIZATION] = tk_s8_l2_norm,
    /* <<< normalization */

    /* >>> reduce (reductions, scans, arg-min/max: reduce.c) */
    [TIGRIS_OP_REDUCE_MAX] = tk_s8_reduce_max,
    [TIGRIS_OP_REDUCE_MIN] = tk_s8_reduce_min,
    [TIGRIS_OP_REDUCE_SUM] = tk_s8_reduce_sum,
    [TIGRIS_OP_CUMSUM] = tk_s8_cumsum,
    [TIGRIS_OP_ARG_MAX] = tk_s8_arg_max,
    [TIGRIS_OP_ARG_MIN] = tk_s8_arg_min,
    [TIGRIS_OP_REDUCE_ALL] = tk_any_reduce_all,
    /* <<< reduce */

    /* >>> binary (elementwise binary: elementwise.c) */
    [TIGRIS_OP_DIV] = tk_s8_div,
    [TIGRIS_OP_SQUARED_DIFFERENCE] = tk_s8_squared_difference,
    [TIGRIS_OP_MAXIMUM] = tk_s8_maximum,
    [TIGRIS_OP_MINIMUM] = tk_s8_minimum,
    [TIGRIS_OP_PRELU] = tk_s8_prelu,
    /* <<< binary */

    /* >>> logic (comparison, logic, select, cast, add-n: logic.c) */
    [TIGRIS_OP_EQUAL] = tk_s8_equal,
    [TIGRIS_OP_LESS] = tk_s8_less,
    [TIGRIS_OP_LESS_EQUAL] = tk_s8_less_equal,
    [TIGRIS_OP_GREATER] = tk_s8_greater,
    [TIGRIS_OP_GREATER_EQUAL] = tk_s8_greater_equal,
    [TIGRIS_OP_LOGICAL_AND] = tk_any_logical_and,
    [TIGRIS_OP_LOGICAL_OR] = tk_any_logical_or,
    [TIGRIS_OP_LOGICAL_NOT] = tk_any_logical_not,
    [TIGRIS_OP_SELECT_V2] = tk_any_select_v2,
    [TIGRIS_OP_CAST] = tk_s8_cast,
    [TIGRIS_OP_ADD_N] = tk_s8_add_n,
    /* <<< logic */

    /* >>> spatial (conv family, pools, resize: conv.c, pool.c, resize.c) */
    [TIGRIS_OP_CONV_TRANSPOSE] = tk_s8_conv_transpose,
    [TIGRIS_OP_MATMUL] = tk_s8_matmul,
    [TIGRIS_OP_RESIZE] = tk_s8_resize_nearest,
    [TIGRIS_OP_GLOBAL_MAX] = tk_s8_global_max,
    [TIGRIS_OP_CONV1D] = tk_s8_conv1d,
    [TIGRIS_OP_RESIZE_LINEAR] = tk_s8_resize_linear,
    /* <<< spatial */

    /* >>> movement (data movement: movement.c) */
    [TIGRIS_OP_TRANSPOSE] = tk_any_transpose,
    [TIGRIS_OP_SPLIT] = tk_any_split,
    [TIGRIS_OP_GATHER] = tk_any_gather,
    [TIGRIS_OP_GATHER_ND] = tk_any_gather_nd,
    [TIGRIS_OP_STRIDED_SLICE] = tk_any_strided_slice,
    [TIGRIS_OP_MIRROR_PAD] = tk_any_mirror_pad,
    [TIGRIS_OP_REVERSE_V2] = tk_any_reverse,
    [TIGRIS_OP_EMBEDDING_LOOKUP] = tk_any_embedding_lookup,
    [TIGRIS_OP_DYNAMIC_UPDATE_SLICE] = tk_any_dynamic_update_slice,
    /* <<< movement */

    /* >>> recurrent (recurrent and detection: recurrent.c, detection.c) */
    [TIGRIS_OP_SVDF] = tk_s8_svdf,
    [TIGRIS_OP_LSTM] = tk_s8_lstm,
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
        /* Without float kernels the loader admits float tensors only in
         * byte-level ops (data movement), whose entries below serve every
         * dtype; any other float op finds an int8 kernel that refuses it. */
#endif
    }
    (void)user_ctx;
    if (op->op_type > TIGRIS_OP_MAX_KNOWN || !s8_routes[op->op_type]) return -1;
    return s8_routes[op->op_type](plan, op, op_index, mem);
}
