/*
 * op_shape.c - shape and data-layout operators: Reshape, Flatten, Transpose,
 * Pad, Concat, Split, Resize (docs/format.md P14.5; kinds 1, 5, 10).
 */
#include "op_checks.h"

static int tg_no_constants(const tg_op_ctx_t *c) {
    return c->op->weight_idx == TIGRIS_NONE16 && c->op->bias_idx == TIGRIS_NONE16;
}

static tigris_error_t tg_check_transpose(const tg_op_ctx_t *c) {
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(x->dtype == y->dtype && x->size_bytes == y->size_bytes);
    uint32_t len;
    const uint8_t *perm = tg_attr(c, TIGRIS_ATTR_TRANSPOSE_PERM, &len);
    TG_REQUIRE(perm && len == x->ndim && len == y->ndim);
    const tg_dim_t *xs = tg_shape(c, x), *ys = tg_shape(c, y);
    uint8_t seen[255];
    memset(seen, 0, sizeof seen);
    for (uint32_t i = 0; i < len; i++) {
        TG_REQUIRE(perm[i] < len && !seen[perm[i]]);
        seen[perm[i]] = 1;
        TG_REQUIRE(ys[i] == xs[perm[i]]);
    }
    return TIGRIS_OK;
}

static tigris_error_t tg_check_pad(const tg_op_ctx_t *c) {
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(c->op->bias_idx == TIGRIS_NONE16);
    TG_REQUIRE(x->ndim == y->ndim);
    if (c->d == TIGRIS_DTYPE_INT8) TG_REQUIRE(tg_same_encoding(c, x, y));
    int64_t fill = tg_weight_size(c, c->op->weight_idx);
    TG_REQUIRE(fill < 0 || (uint64_t)fill == tg_esize(c->d));
    uint32_t len;
    const uint8_t *p = tg_attr(c, TIGRIS_ATTR_PADS, &len);
    TG_REQUIRE(p != NULL);
    uint32_t rank = x->ndim;
    TG_REQUIRE(rank >= 1 && len == 8u * rank);
    TG_REQUIRE(((uint32_t)(p - c->plan->op_attribute_data) & 3u) == 0);
    const tg_dim_t *xs = tg_shape(c, x), *ys = tg_shape(c, y);
    for (uint32_t a = 0; a < rank; a++) {
        int32_t lead = tg_rd_i32(p + 8 * a), trail = tg_rd_i32(p + 8 * a + 4);
        TG_REQUIRE(lead >= 0 && trail >= 0);
        TG_REQUIRE((int64_t)xs[a] + lead + trail == (int64_t)ys[a]);
    }
    return TIGRIS_OK;
}

static tigris_error_t tg_check_concat(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    const tigris_tensor_t *y = tg_out(c, 0);
    TG_REQUIRE(op->bias_idx == TIGRIS_NONE16);
    uint32_t rank = y->ndim;
    TG_REQUIRE(rank >= 1 && rank <= 6);
    uint32_t axis = op->spatial.kernel_h;
    /* Rank 4 keeps the old meaning of 0 (the channel axis, as plans before
     * other ranks were allowed wrote it); elsewhere 0 is the outermost axis. */
    if (rank == 4 && axis == 0) axis = 3;
    TG_REQUIRE(axis <= rank - 1);
    const tg_dim_t *ys = tg_shape(c, y);
    uint64_t sum = 0, in_bytes = 0;
    for (uint32_t i = 0; i < op->num_inputs; i++) {
        const tigris_tensor_t *x = tg_in(c, i);
        TG_REQUIRE(x->ndim == rank);
        const tg_dim_t *xs = tg_shape(c, x);
        for (uint32_t a = 0; a < rank; a++)
            if (a != axis) TG_REQUIRE(xs[a] == ys[a]);
        sum += (uint32_t)xs[axis];
        in_bytes += x->size_bytes;
    }
    int64_t lead = tg_weight_size(c, op->weight_idx);
    if (lead < 0) {
        TG_REQUIRE(sum == (uint32_t)ys[axis]);
    } else {
        /* A constant leading part fills exactly what the inputs leave. */
        TG_REQUIRE(axis == rank - 1 && sum < (uint32_t)ys[axis]);
        TG_REQUIRE(in_bytes + (uint64_t)lead == y->size_bytes);
    }
    return TIGRIS_OK;
}

static tigris_error_t tg_check_split(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    const tigris_tensor_t *x = tg_in(c, 0);
    TG_REQUIRE(op->num_inputs == 1 && op->num_outputs >= 2 && tg_no_constants(c));
    uint32_t rank = x->ndim, axis = op->spatial.kernel_h;
    TG_REQUIRE(axis < rank);
    const tg_dim_t *xs = tg_shape(c, x);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < op->num_outputs; i++) {
        const tigris_tensor_t *y = tg_out(c, i);
        TG_REQUIRE(y->ndim == rank && y->dtype == x->dtype && tg_same_encoding(c, x, y));
        const tg_dim_t *ys = tg_shape(c, y);
        for (uint32_t a = 0; a < rank; a++)
            if (a != axis) TG_REQUIRE(xs[a] == ys[a]);
        sum += (uint32_t)ys[axis];
    }
    TG_REQUIRE(sum == (uint32_t)xs[axis]);
    return TIGRIS_OK;
}

static tigris_error_t tg_check_resize(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    const tigris_spatial_t *sp = &op->spatial;
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(tg_no_constants(c));
    TG_REQUIRE(x->ndim == 4 && y->ndim == 4);
    const tg_dim_t *xs = tg_shape(c, x), *ys = tg_shape(c, y);
    TG_REQUIRE(xs[0] == ys[0] && xs[3] == ys[3]);
    TG_REQUIRE(sp->kernel_h <= (op->op_type == TIGRIS_OP_RESIZE ? 3 : 2));
    if (sp->stride_h) TG_REQUIRE((uint64_t)(uint32_t)xs[1] * sp->stride_h == (uint64_t)(uint32_t)ys[1]);
    if (sp->stride_w) TG_REQUIRE((uint64_t)(uint32_t)xs[2] * sp->stride_w == (uint64_t)(uint32_t)ys[2]);
    uint32_t len;
    const uint8_t *p = tg_attr(c, TIGRIS_ATTR_RESIZE_SCALES, &len);
    if (p) {
        TG_REQUIRE(len == 8);
        for (uint32_t a = 0; a < 2; a++) {
            uint32_t s = tg_rd_u32(p + 4 * a);
            TG_REQUIRE(tg_f32_positive(s));
            TG_REQUIRE(tg_f32_floor_mul((uint32_t)xs[1 + a], s) == (uint64_t)(uint32_t)ys[1 + a]);
        }
    }
    if (op->op_type == TIGRIS_OP_RESIZE_LINEAR && c->d == TIGRIS_DTYPE_INT8)
        TG_REQUIRE(tg_has_quant(c, x) && tg_has_quant(c, y));
    return TIGRIS_OK;
}

tigris_error_t tg_check_shape(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    switch (op->op_type) {
    case TIGRIS_OP_CONCAT:
        TG_REQUIRE(op->num_outputs == 1);
        return tg_check_concat(c);
    case TIGRIS_OP_SPLIT:
        return tg_check_split(c);
    default:
        break;
    }
    TG_REQUIRE(op->num_inputs == 1 && op->num_outputs == 1);
    switch (op->op_type) {
    case TIGRIS_OP_RESHAPE:
    case TIGRIS_OP_FLATTEN:
        TG_REQUIRE(tg_no_constants(c));
        TG_REQUIRE(tg_in(c, 0)->dtype == tg_out(c, 0)->dtype && tg_in(c, 0)->size_bytes == tg_out(c, 0)->size_bytes);
        return TIGRIS_OK;
    case TIGRIS_OP_TRANSPOSE:
        TG_REQUIRE(tg_no_constants(c));
        return tg_check_transpose(c);
    case TIGRIS_OP_PAD:
        return tg_check_pad(c);
    case TIGRIS_OP_RESIZE:
    case TIGRIS_OP_RESIZE_LINEAR:
        return tg_check_resize(c);
    default:
        return TIGRIS_ERR_BAD_OPERATOR;
    }
}
