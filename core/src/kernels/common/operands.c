/*
 * operands.c - the two operands of a binary op: runtime tensors or one
 * constant, their broadcast layout against the output, and the band of the
 * output to compute. Float and int8 kernels both start here.
 */
#include "../kernel_common.h"

/* Shape of an operand aligned right to the output (rank orank) from dims
 * d of rank r; -1 unless every axis is 1 or the output's extent. */
int tk_operand_layout(const tk_view_t *out, const int32_t *d, int32_t r, tk_operand_t *o) {
    int32_t ar[TK_MAX_RANK];
    if (r > out->rank) return -1;
    for (int32_t k = 0; k < out->rank; k++) ar[k] = 1;
    for (int32_t k = 0; k < r; k++) ar[out->rank - r + k] = d[k];
    int dense = 1;
    for (int32_t k = 0; k < out->rank; k++) {
        if (ar[k] != 1 && ar[k] != out->dim[k]) return -1;
        if (ar[k] != out->dim[k]) dense = 0;
    }
    uint32_t s = 1;
    for (int32_t k = out->rank - 1; k >= 0; k--) {
        o->stride[k] = ar[k] == 1 ? 0 : s;
        s *= (uint32_t)ar[k];
    }
    if (dense) {
        o->kind = TK_OPND_DENSE;
        o->period = s;
        return 0;
    }
    /* Periodic when a suffix matches the output and everything before it is 1. */
    int32_t k = out->rank;
    while (k > 0 && ar[k - 1] == out->dim[k - 1]) k--;
    int periodic = 1;
    for (int32_t j = 0; j < k; j++)
        if (ar[j] != 1) periodic = 0;
    o->kind = periodic ? TK_OPND_PERIODIC : TK_OPND_GENERAL;
    o->period = s;
    return 0;
}

/* A periodic operand is indexed with the band-local element index, which has
 * the residue of the global one only when its period divides one band row
 * (rows start every band, in every batch). 0 when n operands are fine. */
int tk_operands_band_ok(const tigris_mem_t *mem, const tk_view_t *out, const tk_operand_t *o,
                        uint32_t n) {
    if (!mem->tile.active) return 0;
    uint64_t row = 0, outer = 1, total = 0;
    if (tk_band_rows(mem, out, &row, &outer, &total)) return -1;
    for (uint32_t k = 0; k < n; k++)
        if (o[k].kind == TK_OPND_PERIODIC && (o[k].period == 0 || (uint32_t)row % o[k].period != 0)) return -1;
    return 0;
}

int tk_constant_operand(const tigris_plan_t *plan, const tigris_op_t *op, const uint8_t *dims, uint32_t es,
                        const tigris_mem_t *mem, const tk_view_t *out, tk_operand_t *o) {
    if (op->weight_idx == TIGRIS_NONE16 || !plan->weight_entries || !plan->header ||
        op->weight_idx >= plan->header->num_weights)
        return -1;
    uint32_t sz = plan->weight_entries[op->weight_idx].size_bytes;
    int32_t d[TK_MAX_RANK];
    int32_t r;
    if (dims) {
        r = out->rank;
        uint64_t n = 1;
        for (int32_t j = 0; j < r; j++) {
            d[j] = tk_ld_i32(dims, (uint32_t)j);
            if (d[j] <= 0) return -1;
            n *= (uint64_t)d[j];
            if (n > 0x7FFFFFFFu) return -1;
        }
        if (n * es != sz) return -1;
    } else if (sz == es) {
        r = 1;
        d[0] = 1;
    } else if (sz == es * (uint32_t)out->dim[out->rank - 1]) {
        r = 1;
        d[0] = out->dim[out->rank - 1];
    } else if ((uint64_t)sz == (uint64_t)es * out->numel) {
        r = out->rank;
        for (int32_t j = 0; j < r; j++) d[j] = out->dim[j];
    } else {
        return -1;
    }
    o->p = (const uint8_t *)tk_weight(plan, op->weight_idx, sz);
    if (!o->p || tk_operand_layout(out, d, r, o)) return -1;
    /* Under a tile only periodic constants are read (whole), docs/runtime-semantics.md R4.4. */
    return mem->tile.active && o->kind != TK_OPND_PERIODIC ? -1 : 0;
}

int tk_runtime_operand(const tigris_plan_t *plan, const tigris_op_t *op, const tigris_mem_t *mem, uint32_t index,
                       uint8_t dtype, const tk_view_t *out, uint32_t count, tk_operand_t *o) {
    tk_view_t v;
    int32_t ii = tk_in_idx(plan, op, index);
    if (tk_view(plan, ii, &v) || v.t->dtype != dtype) return -1;
    if (tk_operand_layout(out, v.dim, v.rank, o)) return -1;
    o->p = (const uint8_t *)tk_buf(mem, ii);
    if (!o->p) return -1;
    o->quant = tigris_tensor_quant(plan, v.t);
    if (o->kind == TK_OPND_DENSE) {
        uint32_t c, off;
        if (tk_band_span(mem, &v, 0, &c, &off) || c != count) return -1;
        o->p += (size_t)off * v.esize;
    } else if (mem->tile.active && o->kind == TK_OPND_GENERAL) {
        return -1;
    }
    return 0;
}

/* Resolve the two operands of a binary op (runtime tensors, or one constant
 * from weight_idx as CONSTANT_OPERAND or the float short forms), their
 * broadcast layout, and the band of the output to compute. */
int tk_binary_setup(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                    tigris_mem_t *mem, uint8_t dtype, tk_binary_t *b) {
    int32_t oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, oi, &b->out) || b->out.t->dtype != dtype || b->out.rank < 1) return -1;
    b->y = (uint8_t *)tk_buf(mem, oi);
    if (!b->y) return -1;
    uint32_t oc, ooff;
    if (tk_band_span(mem, &b->out, 1, &oc, &ooff)) return -1;
    b->count = oc;
    b->y += (size_t)ooff * b->out.esize;
    uint32_t es = b->out.esize;
    int32_t const_pos = -1;
    uint8_t alen = 0;
    const uint8_t *attr = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_CONSTANT_OPERAND, &alen);
    if (op->num_inputs == 1) {
        if (attr) {
            if (alen < 4 || attr[0] > 1) return -1;
            const_pos = attr[0];
        } else {
            if (dtype != TIGRIS_DTYPE_FLOAT32) return -1;
            const_pos = 1;
        }
    } else if (op->num_inputs != 2 || attr) {
        return -1;
    }
    int32_t next_rt = 0;
    for (int32_t k = 0; k < 2; k++) {
        tk_operand_t *o = &b->a[k];
        o->quant = NULL;
        if (k == const_pos) {
            const int dims = attr && alen >= 4u + 4u * (uint32_t)b->out.rank;
            if (tk_constant_operand(plan, op, dims ? attr + 4 : NULL, es, mem, &b->out, o)) return -1;
            if (attr) {
                uint16_t qi = (uint16_t)(attr[2] | (attr[3] << 8));
                if (qi != TIGRIS_NONE16) {
                    if (!plan->quant_params || qi >= plan->num_quant_params) return -1;
                    o->quant = &plan->quant_params[qi];
                }
            }
        } else if (tk_runtime_operand(plan, op, mem, (uint32_t)next_rt++, dtype, &b->out, oc, o)) {
            return -1;
        }
    }
    return tk_operands_band_ok(mem, &b->out, b->a, 2);
}
