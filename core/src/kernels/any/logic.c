/*
 * logic.c - the byte-level half of comparisons, logic and select, shared
 * by both dispatch tables: the operand resolution of comparisons / logic /
 * select (runtime inputs or one constant via CONSTANT_OPERAND, broadcast to
 * the output, band aware), and LogicalAnd/Or/Not and SelectV2, which only
 * move bytes. The int8 comparisons, Cast and AddN are in s8/logic.c, the
 * float ones in ref/logic.c.

 */
#include "../kernel_common.h"

/* ---- Shared operand resolution ---- */

int tk_any_operands(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                    uint32_t arity, const uint8_t *in_dtype, uint8_t out_dtype, tk_view_t *out, uint8_t **y,
                    uint32_t *count, tk_operand_t *opnd) {
    if (!plan || !op || !mem || arity < 1 || arity > 3 || op->num_outputs != 1) return -1;
    int32_t oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, oi, out) || out->t->dtype != out_dtype || out->rank < 1) return -1;
    uint8_t *yb = (uint8_t *)tk_buf(mem, oi);
    if (!yb) return -1;
    uint32_t oc, ooff;
    if (tk_band_span(mem, out, 1, &oc, &ooff)) return -1;
    *count = oc;
    *y = yb + (size_t)ooff * out->esize;

    uint8_t alen = 0;
    const uint8_t *attr = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_CONSTANT_OPERAND, &alen);
    int32_t const_pos = -1;
    if (attr) {
        if (alen < 4 || attr[0] >= arity || attr[1] != 0 || op->num_inputs != arity - 1u) return -1;
        if (alen != 4 && alen != 4u + 4u * (uint32_t)out->rank) return -1;
        const_pos = attr[0];
    } else if (op->num_inputs != arity) {
        return -1;
    }

    uint32_t next_rt = 0;
    for (uint32_t k = 0; k < arity; k++) {
        tk_operand_t *o = &opnd[k];
        o->quant = NULL;
        uint32_t es = tigris_dtype_size(in_dtype[k]);
        if (es == 0) return -1;
        if ((int32_t)k == const_pos) {
            if (tk_constant_operand(plan, op, alen > 4 ? attr + 4 : NULL, es, mem, out, o)) return -1;
            uint16_t qi = (uint16_t)(attr[2] | (attr[3] << 8));
            if (qi != TIGRIS_NONE16) {
                if (!plan->quant_params || qi >= plan->num_quant_params) return -1;
                o->quant = &plan->quant_params[qi];
            }
            if (in_dtype[k] == TIGRIS_DTYPE_INT8 && !o->quant) return -1;
        } else if (tk_runtime_operand(plan, op, mem, next_rt++, in_dtype[k], out, oc, o)) {
            return -1;
        }
    }
    return tk_operands_band_ok(mem, out, opnd, arity);
}

/* ---- Logic and select (bool bytes: non-zero is true) ---- */

enum { LG_AND, LG_OR };

static int logical_binary(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                          int which) {
    const uint8_t dt[2] = {TIGRIS_DTYPE_BOOL, TIGRIS_DTYPE_BOOL};
    tk_view_t out;
    tk_operand_t o[2];
    uint8_t *y;
    uint32_t n;
    if (tk_any_operands(plan, op, op_index, mem, 2, dt, TIGRIS_DTYPE_BOOL, &out, &y, &n, o)) return -1;
    for (uint32_t i = 0; i < n; i++) {
        int a = o[0].p[tk_operand_at(&out, &o[0], i)] != 0;
        int b = o[1].p[tk_operand_at(&out, &o[1], i)] != 0;
        y[i] = (uint8_t)(which == LG_AND ? (a && b) : (a || b));
    }
    return 0;
}

int tk_any_logical_and(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return logical_binary(plan, op, op_index, mem, LG_AND);
}

int tk_any_logical_or(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return logical_binary(plan, op, op_index, mem, LG_OR);
}

int tk_any_logical_not(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t xv, yv;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (op->num_inputs != 1 || op->num_outputs != 1) return -1;
    if (tk_view(plan, ii, &xv) || tk_view(plan, oi, &yv)) return -1;
    if (xv.t->dtype != TIGRIS_DTYPE_BOOL || yv.t->dtype != TIGRIS_DTYPE_BOOL || xv.numel != yv.numel) return -1;
    uint32_t xc, xo, yc, yo;
    if (tk_band_span(mem, &xv, 0, &xc, &xo) || tk_band_span(mem, &yv, 1, &yc, &yo) || xc != yc) return -1;
    const uint8_t *x = (const uint8_t *)tk_buf(mem, ii);
    uint8_t *y = (uint8_t *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    x += xo;
    y += yo;
    for (uint32_t i = 0; i < yc; i++) y[i] = (uint8_t)(x[i] == 0);
    return 0;
}

int tk_any_select_v2(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    int32_t oi = tk_out_idx(plan, op, 0);
    if (oi < 0) return -1;
    uint8_t d = plan->tensors[oi].dtype;
    if (d != TIGRIS_DTYPE_FLOAT32 && d != TIGRIS_DTYPE_INT8) return -1;
    const uint8_t dt[3] = {TIGRIS_DTYPE_BOOL, d, d};
    tk_view_t out;
    tk_operand_t o[3];
    uint8_t *y;
    uint32_t n;
    if (tk_any_operands(plan, op, op_index, mem, 3, dt, d, &out, &y, &n, o)) return -1;
    uint32_t es = out.esize;
    for (uint32_t i = 0; i < n; i++) {
        const tk_operand_t *src = o[0].p[tk_operand_at(&out, &o[0], i)] ? &o[1] : &o[2];
        memcpy(y + (size_t)i * es, src->p + (size_t)tk_operand_at(&out, src, i) * es, es);
    }
    return 0;
}
