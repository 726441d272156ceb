/*
 * op_nary.c - Cast, AddN and LogicalNot (docs/format.md P14.10); the dtype
 * pairs Cast accepts are decided in op_signature.c.
 */
#include "op_checks.h"

#define TG_I32_MAX 2147483647ll

static tigris_error_t tg_check_cast(const tg_op_ctx_t *c) {
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(tg_same_shape(c, x, y));
    if (y->dtype == TIGRIS_DTYPE_INT8) {
        const tigris_quant_param_t *q = tg_quant(c, y);
        TG_REQUIRE(q && tg_f32_positive(tg_scale_bits(q)) && q->zero_point >= -128 && q->zero_point <= 127);
    }
    return TIGRIS_OK;
}

static tigris_error_t tg_check_add_n(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    const tigris_tensor_t *y = tg_out(c, 0);
    for (uint32_t i = 0; i < op->num_inputs; i++) TG_REQUIRE(tg_same_shape(c, tg_in(c, i), y));
    if (c->d != TIGRIS_DTYPE_INT8) return TIGRIS_OK;
    const tigris_quant_param_t *qx = tg_quant(c, tg_in(c, 0)), *qy = tg_quant(c, y);
    TG_REQUIRE(qx && qy && qy->num_channels == 1);
    for (uint32_t i = 1; i < op->num_inputs; i++) TG_REQUIRE(tg_same_encoding(c, tg_in(c, i), tg_in(c, 0)));
    /* The kernel's rescale 2*s_x / (2^20 * s_y) must lie in (0, 1). */
    TG_REQUIRE(tg_f32_cmp_scaled(tg_scale_bits(qx), tg_scale_bits(qy), 19) < 0);
    /* Worst case of the accumulator: (|zp| + n * 255) * 2^19 within int32. */
    int64_t zp = qx->zero_point < 0 ? -(int64_t)qx->zero_point : qx->zero_point;
    int64_t worst = (zp + (int64_t)op->num_inputs * 255) * ((int64_t)1 << 19);
    TG_REQUIRE(worst <= TG_I32_MAX);
    return TIGRIS_OK;
}

tigris_error_t tg_check_nary(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    TG_REQUIRE(op->num_outputs == 1 && op->weight_idx == TIGRIS_NONE16 && op->bias_idx == TIGRIS_NONE16);
    switch (op->op_type) {
    case TIGRIS_OP_CAST:
        TG_REQUIRE(op->num_inputs == 1);
        return tg_check_cast(c);
    case TIGRIS_OP_LOGICAL_NOT:
        TG_REQUIRE(op->num_inputs == 1 && tg_same_shape(c, tg_in(c, 0), tg_out(c, 0)));
        return TIGRIS_OK;
    case TIGRIS_OP_ADD_N:
        return tg_check_add_n(c);
    default:
        return TIGRIS_ERR_BAD_OPERATOR;
    }
}
