/*
 * op_checks.c - the operator-semantics pass: int32 producers over the whole
 * plan first, then each operator in table order through fused activation,
 * dtype signature and its family's rules (docs/format.md P5.5, P5.6, P8.1,
 * P9, P10, P14). The first broken rule decides the error.
 */
#include "op_checks.h"

/* Same definition as tigris_plan_data_dtype(), kept here so this pass does
 * not depend on the loader's exported helpers. */
static uint8_t tg_plan_dtype(const tigris_plan_t *plan) {
    for (uint32_t t = 0; t < plan->header->num_tensors; t++) {
        const tigris_tensor_t *tt = &plan->tensors[t];
        if (tt->dtype == TIGRIS_DTYPE_INT8 && !(tt->flags & TIGRIS_TENSOR_CONSTANT)) return TIGRIS_DTYPE_INT8;
    }
    return TIGRIS_DTYPE_FLOAT32;
}

static tigris_error_t tg_check_fused_act(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    TG_REQUIRE(op->_pad1 == 0);
    TG_REQUIRE(op->fused_act <= TIGRIS_ACT_RELU6);
    if (op->fused_act != TIGRIS_ACT_NONE) {
        switch (op->op_type) {
        case TIGRIS_OP_CONV:
        case TIGRIS_OP_DEPTHWISE:
        case TIGRIS_OP_FULLY_CONN:
        case TIGRIS_OP_CONV1D:
        case TIGRIS_OP_ADD:
            break;
        case TIGRIS_OP_SVDF:
            /* The int8 SVDF kernel has no activation stage. */
            TG_REQUIRE(op->num_inputs >= 1 && tg_in(c, 0)->dtype == TIGRIS_DTYPE_FLOAT32);
            break;
        default:
            return TIGRIS_ERR_BAD_OPERATOR;
        }
    }
    if (c->plan_dtype == TIGRIS_DTYPE_INT8) TG_REQUIRE(op->act_min <= op->act_max);
    return TIGRIS_OK;
}

static tigris_error_t tg_check_family(const tg_op_ctx_t *c) {
    switch (c->op->op_type) {
    case TIGRIS_OP_CONV:
    case TIGRIS_OP_DEPTHWISE:
    case TIGRIS_OP_CONV1D:
    case TIGRIS_OP_CONV_TRANSPOSE:
    case TIGRIS_OP_FULLY_CONN:
    case TIGRIS_OP_MAX_POOL:
    case TIGRIS_OP_AVG_POOL:
    case TIGRIS_OP_L2_POOL:
    case TIGRIS_OP_GLOBAL_AVG:
    case TIGRIS_OP_GLOBAL_MAX:
    case TIGRIS_OP_MATMUL:
        return tg_check_conv(c);
    case TIGRIS_OP_ADD:
    case TIGRIS_OP_SUB:
    case TIGRIS_OP_MUL:
    case TIGRIS_OP_DIV:
    case TIGRIS_OP_SQUARED_DIFFERENCE:
    case TIGRIS_OP_MAXIMUM:
    case TIGRIS_OP_MINIMUM:
    case TIGRIS_OP_FLOOR_DIV:
    case TIGRIS_OP_FLOOR_MOD:
    case TIGRIS_OP_PRELU:
    case TIGRIS_OP_EQUAL:
    case TIGRIS_OP_LESS:
    case TIGRIS_OP_LESS_EQUAL:
    case TIGRIS_OP_GREATER:
    case TIGRIS_OP_GREATER_EQUAL:
    case TIGRIS_OP_LOGICAL_AND:
    case TIGRIS_OP_LOGICAL_OR:
    case TIGRIS_OP_SELECT_V2:
        return tg_check_binary(c);
    case TIGRIS_OP_CAST:
    case TIGRIS_OP_ADD_N:
    case TIGRIS_OP_LOGICAL_NOT:
        return tg_check_nary(c);
    case TIGRIS_OP_FLATTEN:
    case TIGRIS_OP_RESHAPE:
    case TIGRIS_OP_TRANSPOSE:
    case TIGRIS_OP_PAD:
    case TIGRIS_OP_CONCAT:
    case TIGRIS_OP_SPLIT:
    case TIGRIS_OP_RESIZE:
    case TIGRIS_OP_RESIZE_LINEAR:
        return tg_check_shape(c);
    case TIGRIS_OP_REDUCE_MEAN:
    case TIGRIS_OP_REDUCE_MAX:
    case TIGRIS_OP_REDUCE_MIN:
    case TIGRIS_OP_REDUCE_SUM:
    case TIGRIS_OP_REDUCE_ALL:
    case TIGRIS_OP_ARG_MAX:
    case TIGRIS_OP_ARG_MIN:
    case TIGRIS_OP_CUMSUM:
        return tg_check_reduce(c);
    case TIGRIS_OP_GATHER:
    case TIGRIS_OP_GATHER_ND:
    case TIGRIS_OP_STRIDED_SLICE:
    case TIGRIS_OP_MIRROR_PAD:
    case TIGRIS_OP_REVERSE_V2:
    case TIGRIS_OP_EMBEDDING_LOOKUP:
    case TIGRIS_OP_DYNAMIC_UPDATE_SLICE:
        return tg_check_movement(c);
    case TIGRIS_OP_SVDF:
    case TIGRIS_OP_LSTM:
        return tg_check_recurrent(c);
    case TIGRIS_OP_DETECTION_POSTPROCESS:
        return tg_check_detection(c);
    case TIGRIS_OP_IF:
    case TIGRIS_OP_WHILE:
        return tg_check_control(c);
    default:
        /* Everything else with a signature is a one-in, one-out unary op. */
        return tg_check_unary(c);
    }
}

tigris_error_t tigris__loader_check_operators(const tigris_plan_t *plan) {
    if (!plan || !plan->header) return TIGRIS_ERR_NULL;
    tigris_error_t err = tg_check_int32_producers(plan);
    if (err != TIGRIS_OK) return err;

    tg_op_ctx_t c;
    memset(&c, 0, sizeof c);
    c.plan = plan;
    c.plan_dtype = tg_plan_dtype(plan);
    for (uint32_t i = 0; i < plan->header->num_ops; i++) {
        tg_signature_t sig;
        c.op = &plan->ops[i];
        c.index = (uint16_t)i;
        c.in = tigris_op_inputs(plan, c.op);
        c.out = tigris_op_outputs(plan, c.op);
        c.d = c.plan_dtype;
        if (!tg_signature(c.op->op_type, &sig)) return TIGRIS_ERR_BAD_OPERATOR;
        /* Structural checks promise >= 1 of each; the families rely on it. */
        if (c.op->num_inputs == 0 || c.op->num_outputs == 0) return TIGRIS_ERR_BAD_OPERATOR;
        if ((err = tg_check_fused_act(&c)) != TIGRIS_OK) return err;
        if ((err = tg_check_signature(&c)) != TIGRIS_OK) return err;
        if ((err = tg_check_family(&c)) != TIGRIS_OK) return err;
    }
    return TIGRIS_OK;
}
