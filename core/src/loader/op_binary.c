/*
 * op_binary.c - elementwise binary operators, comparisons, logic and select
 * (docs/format.md P14.3, P14.3.1, P14.10; kinds 7, 9 and 13 of P10.1).
 */
#include "op_checks.h"

static int tg_is_compare(uint8_t t) {
    return t >= TIGRIS_OP_EQUAL && t <= TIGRIS_OP_GREATER_EQUAL;
}

static int tg_is_logic(uint8_t t) {
    return t == TIGRIS_OP_LOGICAL_AND || t == TIGRIS_OP_LOGICAL_OR;
}

/* Ops with an int8 kernel; the rest of the arithmetic family is float only. */
static int tg_has_int8_kernel(uint8_t t) {
    switch (t) {
    case TIGRIS_OP_FLOOR_DIV:
    case TIGRIS_OP_FLOOR_MOD:
        return 0;
    default:
        return 1;
    }
}

/* Dtype of operand position pos (before shifting) for this op. */
static uint8_t tg_operand_dtype(const tg_op_ctx_t *c, uint32_t pos) {
    uint8_t t = c->op->op_type;
    if (tg_is_logic(t)) return TIGRIS_DTYPE_BOOL;
    if (t == TIGRIS_OP_SELECT_V2 && pos == 0) return TIGRIS_DTYPE_BOOL;
    return c->d;
}

static const tigris_quant_param_t *tg_quant_at(const tg_op_ctx_t *c, uint16_t qidx) {
    if (qidx == TIGRIS_NONE16 || !c->plan->quant_params || qidx >= c->plan->num_quant_params) return NULL;
    return &c->plan->quant_params[qidx];
}

static int tg_qp_same(const tigris_quant_param_t *a, const tigris_quant_param_t *b) {
    return a && b && tg_scale_bits(a) == tg_scale_bits(b) && a->zero_point == b->zero_point;
}

/* Broadcast readers of the kernels: general strided reads (tk_operand_at)
 * up to rank 6, TFLite's own broadcast limit; larger outputs need dense or
 * periodic operands. The accelerated backends take dense or periodic
 * operands only and hand the rest to the reference kernels. */
static int tg_operand_fits(const tg_op_ctx_t *c, const tg_dim_t *s, uint32_t r, const tg_dim_t *ys, uint32_t yr) {
    (void)c;
    if (!tg_broadcasts(s, r, ys, yr)) return 0;
    return yr <= 6u || tg_periodic(s, r, ys, yr);
}

/* Short constant forms: one element, one per last-axis element, one per output element. */
static int tg_short_form(const tg_op_ctx_t *c, int64_t size, uint32_t e) {
    const tigris_tensor_t *y = tg_out(c, 0);
    uint64_t last = y->ndim ? (uint32_t)tg_shape(c, y)[y->ndim - 1] : 1u;
    uint64_t s = (uint64_t)size;
    return s == e || s == tg_mul(last, e) || s == tg_mul(tg_elems(c, y), e);
}

static tigris_error_t tg_check_constant_operand(const tg_op_ctx_t *c, const uint8_t *co, uint32_t len,
                                                const tigris_quant_param_t **cq) {
    const tigris_op_t *op = c->op;
    uint32_t arity = op->op_type == TIGRIS_OP_SELECT_V2 ? 3u : 2u;
    const tigris_tensor_t *y = tg_out(c, 0);
    const tg_dim_t *ys = tg_shape(c, y);
    *cq = NULL;
    /* docs/format.md P10.1 payload validity. */
    TG_REQUIRE(len == 4 || (len > 4 && (len - 4u) % 4u == 0));
    TG_REQUIRE(co[0] <= arity - 1u && co[1] == 0);
    uint16_t qidx = tg_rd_u16(co + 2);
    /* docs/format.md P14.3.1 */
    TG_REQUIRE(op->num_inputs == arity - 1u);
    int64_t size = tg_weight_size(c, op->weight_idx);
    TG_REQUIRE(size >= 0);
    uint8_t cdt = tg_operand_dtype(c, co[0]);
    uint32_t e = tg_esize(cdt);
    if (cdt == TIGRIS_DTYPE_INT8) {
        *cq = tg_quant_at(c, qidx);
        TG_REQUIRE(*cq && (*cq)->num_channels == 1);
    } else {
        TG_REQUIRE(qidx == TIGRIS_NONE16);
    }
    if (len == 4) {
        TG_REQUIRE(tg_short_form(c, size, e));
        return TIGRIS_OK;
    }
    uint32_t k = (len - 4u) / 4u;
    TG_REQUIRE(k == y->ndim);
    int32_t shape[63]; /* (255 - 4) / 4 */
    uint64_t n = 1;
    for (uint32_t i = 0; i < k; i++) {
        shape[i] = tg_rd_i32(co + 4 + 4 * i);
        TG_REQUIRE(shape[i] > 0);
        n = tg_mul(n, (uint32_t)shape[i]);
    }
    TG_REQUIRE((uint64_t)size == tg_mul(n, e));
    TG_REQUIRE(tg_operand_fits(c, shape, k, ys, y->ndim));
    return TIGRIS_OK;
}

static tigris_error_t tg_check_binary_requant(const tg_op_ctx_t *c) {
    uint32_t len;
    const uint8_t *p = tg_attr(c, TIGRIS_ATTR_BINARY_REQUANT, &len);
    if (!p) return TIGRIS_OK;
    TG_REQUIRE(len == 24);
    for (uint32_t i = 0; i < 3; i++) {
        int32_t m = tg_rd_i32(p + 8 * i), s = tg_rd_i32(p + 8 * i + 4);
        TG_REQUIRE(m >= 0 && s >= -31 && s <= 31);
    }
    return TIGRIS_OK;
}

static tigris_error_t tg_check_comparison(const tg_op_ctx_t *c, const tigris_quant_param_t *cq) {
    uint32_t len;
    const uint8_t *p = tg_attr(c, TIGRIS_ATTR_COMPARISON_REQUANT, &len);
    if (c->d != TIGRIS_DTYPE_INT8) {
        TG_REQUIRE(p == NULL);
        return TIGRIS_OK;
    }
    TG_REQUIRE(p != NULL);
    TG_REQUIRE(len == 20 && tg_rd_i32(p) == 8);
    for (uint32_t i = 0; i < 2; i++) {
        int32_t m = tg_rd_i32(p + 4 + 8 * i), s = tg_rd_i32(p + 8 + 8 * i);
        TG_REQUIRE(m >= 0 && s >= -31 && s <= 0);
    }
    /* The requantization maps each operand onto a common scale below 1. */
    for (uint32_t i = 0; i < c->op->num_inputs; i++) {
        const tigris_quant_param_t *q = tg_quant(c, tg_in(c, i));
        TG_REQUIRE(q && tg_f32_positive(tg_scale_bits(q)) && tg_f32_cmp(tg_scale_bits(q), 0x3F800000u) < 0);
    }
    if (c->op->weight_idx != TIGRIS_NONE16 && cq)
        TG_REQUIRE(tg_f32_positive(tg_scale_bits(cq)) && tg_f32_cmp(tg_scale_bits(cq), 0x3F800000u) < 0);
    return TIGRIS_OK;
}

tigris_error_t tg_check_binary(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    uint8_t t = op->op_type;
    uint32_t arity = t == TIGRIS_OP_SELECT_V2 ? 3u : 2u;
    TG_REQUIRE(op->num_outputs == 1 && op->bias_idx == TIGRIS_NONE16);
    const tigris_tensor_t *y = tg_out(c, 0);
    const tg_dim_t *ys = tg_shape(c, y);

    uint32_t len;
    const uint8_t *co = tg_attr(c, TIGRIS_ATTR_CONSTANT_OPERAND, &len);
    const tigris_quant_param_t *cq = NULL;
    if (co) {
        tigris_error_t err = tg_check_constant_operand(c, co, len, &cq);
        if (err != TIGRIS_OK) return err;
    } else if (op->num_inputs == arity) {
        TG_REQUIRE(op->weight_idx == TIGRIS_NONE16);
    } else {
        /* The writer's one attribute-less constant: a short-form second
         * operand of a float Add or Mul. */
        TG_REQUIRE(op->num_inputs == arity - 1u && (t == TIGRIS_OP_ADD || t == TIGRIS_OP_MUL));
        TG_REQUIRE(c->d == TIGRIS_DTYPE_FLOAT32);
        int64_t size = tg_weight_size(c, op->weight_idx);
        TG_REQUIRE(size >= 0 && tg_short_form(c, size, 4));
    }

    if (tg_is_compare(t) || tg_is_logic(t) || t == TIGRIS_OP_SELECT_V2) TG_REQUIRE(y->ndim <= 8);
    for (uint32_t i = 0; i < op->num_inputs; i++) {
        const tigris_tensor_t *x = tg_in(c, i);
        TG_REQUIRE(tg_operand_fits(c, tg_shape(c, x), x->ndim, ys, y->ndim));
    }

    if (t == TIGRIS_OP_ADD || t == TIGRIS_OP_SUB) {
        tigris_error_t err = tg_check_binary_requant(c);
        if (err != TIGRIS_OK) return err;
    }
    if (t == TIGRIS_OP_PRELU) {
        TG_REQUIRE(co && co[0] == 1 && op->num_inputs == 1);
        TG_REQUIRE(y->ndim >= 1 && y->ndim <= 4 && tg_same_shape(c, tg_in(c, 0), y));
    }
    if (tg_is_compare(t)) return tg_check_comparison(c, cq);
    if (tg_is_logic(t)) return TIGRIS_OK;

    if (c->d != TIGRIS_DTYPE_INT8) return TIGRIS_OK;
    if (t == TIGRIS_OP_SELECT_V2) {
        /* Values are copied, never requantized: they share the output's encoding. */
        const tigris_quant_param_t *qy = tg_quant(c, y);
        TG_REQUIRE(qy != NULL);
        for (uint32_t i = 0; i < op->num_inputs; i++) {
            const tigris_tensor_t *x = tg_in(c, i);
            if (x->dtype == TIGRIS_DTYPE_INT8) TG_REQUIRE(tg_qp_same(tg_quant(c, x), qy));
        }
        if (cq) TG_REQUIRE(tg_qp_same(cq, qy));
        return TIGRIS_OK;
    }
    TG_REQUIRE(tg_has_int8_kernel(t));
    TG_REQUIRE(tg_has_quant(c, y));
    for (uint32_t i = 0; i < op->num_inputs; i++) TG_REQUIRE(tg_has_quant(c, tg_in(c, i)));
    if (t == TIGRIS_OP_MAXIMUM || t == TIGRIS_OP_MINIMUM) {
        const tigris_quant_param_t *qy = tg_quant(c, y);
        for (uint32_t i = 0; i < op->num_inputs; i++) TG_REQUIRE(tg_qp_same(tg_quant(c, tg_in(c, i)), qy));
        if (cq) TG_REQUIRE(tg_qp_same(cq, qy));
    }
    return TIGRIS_OK;
}
