/*
 * op_conv.c - convolution family, fully connected, pools and MatMul
 * (docs/format.md P8.1 constant sizes, P9 channel fit, P14.1, P14.2).
 */
#include "op_checks.h"

static int tg_no_constants(const tg_op_ctx_t *c) {
    return c->op->weight_idx == TIGRIS_NONE16 && c->op->bias_idx == TIGRIS_NONE16;
}

/* Optional bias: one 4-byte value (int32 or float32) per output channel. */
static int tg_bias_ok(const tg_op_ctx_t *c, uint64_t oc) {
    int64_t b = tg_weight_size(c, c->op->bias_idx);
    return b < 0 || (uint64_t)b == tg_mul(oc, 4u);
}

/* int8 weight-bearing ops: both activations carry their encoding, and the
 * output's requantization arrays hold one or OC channels. */
static int tg_int8_channels_ok(const tg_op_ctx_t *c, uint64_t oc) {
    if (c->d != TIGRIS_DTYPE_INT8) return 1;
    const tigris_quant_param_t *qi = tg_quant(c, tg_in(c, 0));
    const tigris_quant_param_t *qo = tg_quant(c, tg_out(c, 0));
    if (!qi || !qo) return 0;
    return qo->num_channels == 1 || (uint64_t)qo->num_channels == oc;
}

static tigris_error_t tg_check_conv2d(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    const tigris_spatial_t *sp = &op->spatial;
    TG_REQUIRE(op->num_inputs == 1 && op->num_outputs == 1);
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(x->ndim == 4 && y->ndim == 4);
    const tg_dim_t *xs = tg_shape(c, x), *ys = tg_shape(c, y);
    TG_REQUIRE(xs[0] == ys[0]);
    uint64_t ic = (uint32_t)xs[3], oc = (uint32_t)ys[3];
    uint64_t e = tg_esize(c->d);
    int64_t w = tg_weight_size(c, op->weight_idx);
    TG_REQUIRE(w >= 0);
    if (op->op_type == TIGRIS_OP_CONV_TRANSPOSE) {
        TG_REQUIRE(sp->kernel_h > 0 && sp->kernel_w > 0 && sp->stride_h > 0 && sp->stride_w > 0);
        TG_REQUIRE(sp->group == 1 && sp->dilation_h <= 1 && sp->dilation_w <= 1);
        /* Output padding is folded into the stored output shape, so there
         * is no forward size rule to apply. */
        TG_REQUIRE((uint64_t)w == tg_mul3(tg_mul(oc, sp->kernel_h), tg_mul(sp->kernel_w, ic), e));
    } else {
        TG_REQUIRE(tg_window_ok(xs[1], ys[1], sp->kernel_h, sp->stride_h, sp->pad_top, sp->pad_bottom,
                                sp->dilation_h));
        TG_REQUIRE(tg_window_ok(xs[2], ys[2], sp->kernel_w, sp->stride_w, sp->pad_left, sp->pad_right,
                                sp->dilation_w));
        if (op->op_type == TIGRIS_OP_CONV) {
            TG_REQUIRE(sp->group == 1);
            TG_REQUIRE((uint64_t)w == tg_mul3(tg_mul(sp->kernel_h, sp->kernel_w), tg_mul(ic, oc), e));
        } else {
            TG_REQUIRE(sp->group == ic && (uint32_t)oc % (uint32_t)ic == 0);
            TG_REQUIRE((uint64_t)w == tg_mul3(tg_mul(sp->kernel_h, sp->kernel_w), oc, e));
        }
    }
    TG_REQUIRE(tg_bias_ok(c, oc));
    TG_REQUIRE(tg_int8_channels_ok(c, oc));
    return TIGRIS_OK;
}

static tigris_error_t tg_check_conv1d(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    const tigris_spatial_t *sp = &op->spatial;
    TG_REQUIRE(op->num_inputs == 1 && op->num_outputs == 1);
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(x->ndim == 3 && y->ndim == 3);
    const tg_dim_t *xs = tg_shape(c, x), *ys = tg_shape(c, y);
    TG_REQUIRE(xs[0] == ys[0] && sp->group == 1);
    TG_REQUIRE(tg_window_ok(xs[1], ys[1], sp->kernel_h, sp->stride_h, sp->pad_top, sp->pad_bottom, sp->dilation_h));
    uint64_t ic = (uint32_t)xs[2], oc = (uint32_t)ys[2];
    int64_t w = tg_weight_size(c, op->weight_idx);
    TG_REQUIRE(w >= 0 && (uint64_t)w == tg_mul3(tg_mul(oc, sp->kernel_h), ic, tg_esize(c->d)));
    TG_REQUIRE(tg_bias_ok(c, oc));
    TG_REQUIRE(tg_int8_channels_ok(c, oc));
    return TIGRIS_OK;
}

static tigris_error_t tg_check_fc(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    TG_REQUIRE(op->num_inputs == 1 && op->num_outputs == 1);
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(y->ndim == 1 || y->ndim == 2);
    const tg_dim_t *ys = tg_shape(c, y);
    uint32_t batch = y->ndim == 2 ? (uint32_t)ys[0] : 1u;
    uint64_t oc = (uint32_t)ys[y->ndim - 1];
    /* Element counts fit 32 bits (tensor checks): 32-bit modulo suffices. */
    uint32_t n = (uint32_t)tg_elems(c, x);
    TG_REQUIRE(n % batch == 0);
    int64_t w = tg_weight_size(c, op->weight_idx);
    TG_REQUIRE(w >= 0 && (uint64_t)w == tg_mul3(oc, n / batch, tg_esize(c->d)));
    TG_REQUIRE(tg_bias_ok(c, oc));
    TG_REQUIRE(tg_int8_channels_ok(c, oc));
    return TIGRIS_OK;
}

static tigris_error_t tg_check_pool(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    const tigris_spatial_t *sp = &op->spatial;
    TG_REQUIRE(op->num_inputs == 1 && op->num_outputs == 1 && tg_no_constants(c));
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(x->ndim == 4 && y->ndim == 4);
    const tg_dim_t *xs = tg_shape(c, x), *ys = tg_shape(c, y);
    TG_REQUIRE(xs[0] == ys[0] && xs[3] == ys[3]);
    TG_REQUIRE(sp->dilation_h <= 1 && sp->dilation_w <= 1);
    /* A window made only of padding would have no tap to reduce. */
    TG_REQUIRE(sp->pad_top < sp->kernel_h && sp->pad_bottom < sp->kernel_h);
    TG_REQUIRE(sp->pad_left < sp->kernel_w && sp->pad_right < sp->kernel_w);
    TG_REQUIRE(tg_window_ok(xs[1], ys[1], sp->kernel_h, sp->stride_h, sp->pad_top, sp->pad_bottom, 1));
    TG_REQUIRE(tg_window_ok(xs[2], ys[2], sp->kernel_w, sp->stride_w, sp->pad_left, sp->pad_right, 1));
    if (op->op_type == TIGRIS_OP_L2_POOL) TG_REQUIRE(c->d == TIGRIS_DTYPE_FLOAT32);
    if (c->d == TIGRIS_DTYPE_INT8) TG_REQUIRE(tg_has_quant(c, x) && tg_has_quant(c, y));
    return TIGRIS_OK;
}

static tigris_error_t tg_check_global(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    TG_REQUIRE(op->num_inputs == 1 && op->num_outputs == 1 && tg_no_constants(c));
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(x->ndim == 4 && y->ndim == 4);
    const tg_dim_t *xs = tg_shape(c, x), *ys = tg_shape(c, y);
    TG_REQUIRE(ys[0] == xs[0] && ys[1] == 1 && ys[2] == 1 && ys[3] == xs[3]);
    uint32_t len;
    const uint8_t *r = tg_attr(c, TIGRIS_ATTR_POOL_ROUNDING, &len);
    if (r) TG_REQUIRE(len == 1 && r[0] == 1);
    if (c->d == TIGRIS_DTYPE_INT8) TG_REQUIRE(tg_has_quant(c, x) && tg_has_quant(c, y));
    return TIGRIS_OK;
}

static tigris_error_t tg_check_matmul(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    TG_REQUIRE(op->num_inputs == 2 && op->num_outputs == 1 && tg_no_constants(c));
    const tigris_tensor_t *a = tg_in(c, 0), *b = tg_in(c, 1), *y = tg_out(c, 0);
    uint32_t r = a->ndim;
    TG_REQUIRE(r >= 2 && b->ndim == r && y->ndim == r);
    const tg_dim_t *as = tg_shape(c, a), *bs = tg_shape(c, b), *ys = tg_shape(c, y);
    for (uint32_t i = 0; i + 2 < r; i++) TG_REQUIRE(as[i] == bs[i] && as[i] == ys[i]);
    TG_REQUIRE(as[r - 1] == bs[r - 2] && ys[r - 2] == as[r - 2] && ys[r - 1] == bs[r - 1]);
    if (c->d == TIGRIS_DTYPE_INT8) TG_REQUIRE(tg_has_quant(c, a) && tg_has_quant(c, b) && tg_has_quant(c, y));
    return TIGRIS_OK;
}

tigris_error_t tg_check_conv(const tg_op_ctx_t *c) {
    switch (c->op->op_type) {
    case TIGRIS_OP_CONV:
    case TIGRIS_OP_DEPTHWISE:
    case TIGRIS_OP_CONV_TRANSPOSE:
        return tg_check_conv2d(c);
    case TIGRIS_OP_CONV1D:
        return tg_check_conv1d(c);
    case TIGRIS_OP_FULLY_CONN:
        return tg_check_fc(c);
    case TIGRIS_OP_MAX_POOL:
    case TIGRIS_OP_AVG_POOL:
    case TIGRIS_OP_L2_POOL:
        return tg_check_pool(c);
    case TIGRIS_OP_GLOBAL_AVG:
    case TIGRIS_OP_GLOBAL_MAX:
        return tg_check_global(c);
    case TIGRIS_OP_MATMUL:
        return tg_check_matmul(c);
    default:
        return TIGRIS_ERR_BAD_OPERATOR;
    }
}
