/*
 * op_reduce.c - reductions, CumSum, ArgMax/ArgMin (docs/format.md P14.6;
 * kinds 6 and 11 of P10.1).
 */
#include "op_checks.h"

/* AXES payload validity, then the single axis every kernel here supports. */
static tigris_error_t tg_single_axis(const tg_op_ctx_t *c, uint32_t rank, uint32_t *axis) {
    uint32_t len;
    const uint8_t *p = tg_attr(c, TIGRIS_ATTR_AXES, &len);
    TG_REQUIRE(p && len >= 1 && len <= rank);
    for (uint32_t i = 0; i < len; i++) {
        TG_REQUIRE(p[i] < rank);
        if (i) TG_REQUIRE(p[i] > p[i - 1]);
    }
    TG_REQUIRE(len == 1);
    *axis = p[0];
    return TIGRIS_OK;
}

/* keepdims (same rank, axis of extent 1) or the axis dropped. */
static int tg_reduced_shape_ok(const tg_op_ctx_t *c, const tigris_tensor_t *x, const tigris_tensor_t *y,
                               uint32_t axis) {
    const tg_dim_t *xs = tg_shape(c, x), *ys = tg_shape(c, y);
    uint32_t r = x->ndim;
    if (y->ndim == r) {
        for (uint32_t a = 0; a < r; a++)
            if (ys[a] != (a == axis ? 1 : xs[a])) return 0;
        return 1;
    }
    if (y->ndim + 1u != r) return 0;
    for (uint32_t a = 0, b = 0; a < r; a++) {
        if (a == axis) continue;
        if (ys[b++] != xs[a]) return 0;
    }
    return 1;
}

tigris_error_t tg_check_reduce(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    uint8_t t = op->op_type;
    TG_REQUIRE(op->num_inputs == 1 && op->num_outputs == 1);
    TG_REQUIRE(op->weight_idx == TIGRIS_NONE16 && op->bias_idx == TIGRIS_NONE16);
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    uint32_t axis = 0;
    tigris_error_t err;

    if (t == TIGRIS_OP_ARG_MAX || t == TIGRIS_OP_ARG_MIN) {
        TG_REQUIRE(x->ndim >= 1 && x->ndim <= 6);
        if ((err = tg_single_axis(c, x->ndim, &axis)) != TIGRIS_OK) return err;
        TG_REQUIRE(tg_reduced_shape_ok(c, x, y, axis));
        return TIGRIS_OK;
    }
    TG_REQUIRE(x->ndim == 3);
    if ((err = tg_single_axis(c, x->ndim, &axis)) != TIGRIS_OK) return err;
    if (c->d == TIGRIS_DTYPE_INT8 && t != TIGRIS_OP_REDUCE_ALL)
        TG_REQUIRE(tg_has_quant(c, x) && tg_has_quant(c, y));

    if (t == TIGRIS_OP_CUMSUM) {
        TG_REQUIRE(tg_same_shape(c, x, y));
        uint32_t len;
        const uint8_t *p = tg_attr(c, TIGRIS_ATTR_CUMSUM_OPTIONS, &len);
        TG_REQUIRE(p && len == 2 && p[0] <= 1 && p[1] <= 1);
        if (c->d == TIGRIS_DTYPE_INT8)
            TG_REQUIRE(tg_f32_cmp_scaled(tg_scale_bits(tg_quant(c, x)), tg_scale_bits(tg_quant(c, y)), 19) < 0);
        return TIGRIS_OK;
    }
    TG_REQUIRE(tg_reduced_shape_ok(c, x, y, axis));
    if (c->d == TIGRIS_DTYPE_INT8 && (t == TIGRIS_OP_REDUCE_MAX || t == TIGRIS_OP_REDUCE_MIN))
        TG_REQUIRE(tg_same_encoding(c, x, y));
    return TIGRIS_OK;
}
