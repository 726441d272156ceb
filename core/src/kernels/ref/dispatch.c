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
    [TIGRIS_OP_ABS] = tk_f32_abs,
    [TIGRIS_OP_RSQRT] = tk_f32_rsqrt,
    [TIGRIS_OP_NEG] = tk_f32_neg,
    [TIGRIS_OP_EXP] = tk_f32_exp,
    [TIGRIS_OP_LOG] = tk_f32_log,
    [TIGRIS_OP_SQRT] = tk_f32_sqrt,
    [TIGRIS_OP_SQUARE] = tk_f32_square,
    [TIGRIS_OP_FLOOR] = tk_f32_floor,
    [TIGRIS_OP_CEIL] = tk_f32_ceil,
    [TIGRIS_OP_ROUND] = tk_f32_round,
    [TIGRIS_OP_SIN] = tk_f32_sin,
    [TIGRIS_OP_COS] = tk_f32_cos,
    [TIGRIS_OP_ERF] = tk_f32_erf,
    [TIGRIS_OP_HARDSWISH] = tk_f32_hardswish,
    [TIGRIS_OP_ELU] = tk_f32_elu,
    /* <<< unary */

    /* >>> normalization (normalization: normalization.c) */
    [TIGRIS_OP_LAYER_NORM] = tk_f32_layer_norm,
    [TIGRIS_OP_LOG_SOFTMAX] = tk_f32_log_softmax,
    [TIGRIS_OP_L2_NORMALIZATION] = tk_f32_l2_norm,
    /* <<< normalization */

    /* >>> reduce (reductions, scans, arg-min/max: reduce.c) */
    [TIGRIS_OP_REDUCE_MAX] = tk_f32_reduce_max,
    [TIGRIS_OP_REDUCE_MIN] = tk_f32_reduce_min,
    [TIGRIS_OP_REDUCE_SUM] = tk_f32_reduce_sum,
    [TIGRIS_OP_CUMSUM] = tk_f32_cumsum,
    [TIGRIS_OP_ARG_MAX] = tk_f32_arg_max,
    [TIGRIS_OP_ARG_MIN] = tk_f32_arg_min,
    [TIGRIS_OP_REDUCE_ALL] = tk_any_reduce_all,
    /* <<< reduce */

    /* >>> binary (elementwise binary: elementwise.c) */
    [TIGRIS_OP_DIV] = tk_f32_div,
    [TIGRIS_OP_SQUARED_DIFFERENCE] = tk_f32_squared_difference,
    [TIGRIS_OP_MAXIMUM] = tk_f32_maximum,
    [TIGRIS_OP_MINIMUM] = tk_f32_minimum,
    [TIGRIS_OP_FLOOR_DIV] = tk_f32_floor_div,
    [TIGRIS_OP_FLOOR_MOD] = tk_f32_floor_mod,
    [TIGRIS_OP_PRELU] = tk_f32_prelu,
    /* <<< binary */

    /* >>> logic (comparison, logic, select, cast, add-n: logic.c) */
    [TIGRIS_OP_EQUAL] = tk_f32_equal,
    [TIGRIS_OP_LESS] = tk_f32_less,
    [TIGRIS_OP_LESS_EQUAL] = tk_f32_less_equal,
    [TIGRIS_OP_GREATER] = tk_f32_greater,
    [TIGRIS_OP_GREATER_EQUAL] = tk_f32_greater_equal,
    [TIGRIS_OP_LOGICAL_AND] = tk_any_logical_and,
    [TIGRIS_OP_LOGICAL_OR] = tk_any_logical_or,
    [TIGRIS_OP_LOGICAL_NOT] = tk_any_logical_not,
    [TIGRIS_OP_SELECT_V2] = tk_any_select_v2,
    [TIGRIS_OP_CAST] = tk_f32_cast,
    [TIGRIS_OP_ADD_N] = tk_f32_add_n,
    /* <<< logic */

    /* >>> spatial (conv family, pools, resize: conv.c, pool.c, resize.c) */
    [TIGRIS_OP_CONV_TRANSPOSE] = tk_f32_conv_transpose,
    [TIGRIS_OP_MATMUL] = tk_f32_matmul,
    [TIGRIS_OP_RESIZE] = tk_f32_resize_nearest,
    [TIGRIS_OP_GLOBAL_MAX] = tk_f32_global_max,
    [TIGRIS_OP_CONV1D] = tk_f32_conv1d,
    [TIGRIS_OP_RESIZE_LINEAR] = tk_f32_resize_linear,
    [TIGRIS_OP_L2_POOL] = tk_f32_l2_pool,
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
