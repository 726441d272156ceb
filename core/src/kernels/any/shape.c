/*
 * shape.c - data movement shared by both dtypes: Reshape/Flatten, Concat and
 * Pad work on bytes; int8 adds the re-encoding TFLite applies when the input
 * and output quantisation differ. Compiled with the int8 kernels; a
 * float-only build takes the same code through ref/shape.c.
 */
#include "../kernel_common.h"
#include "../s8/fixedpoint.h"

static int same_encoding(const tigris_plan_t *plan, const tigris_tensor_t *a, const tigris_tensor_t *b) {
    if (a->dtype != TIGRIS_DTYPE_INT8) return 1;
    const tigris_quant_param_t *qa = tigris_tensor_quant(plan, a), *qb = tigris_tensor_quant(plan, b);
    if (!qa || !qb) return 1;
    return tk_scale_bits(plan, a) == tk_scale_bits(plan, b) && qa->zero_point == qb->zero_point;
}

/* round((q - zp_in) · s_in / s_out) + zp_out, clamped to int8. */
static int requant_bytes(const tigris_plan_t *plan, const tigris_tensor_t *ti, const tigris_tensor_t *to,
                         const int8_t *x, int8_t *y, uint32_t n) {
    fx_real_t si, so;
    if (fx_from_float_bits(tk_scale_bits(plan, ti), &si) || fx_from_float_bits(tk_scale_bits(plan, to), &so) ||
        so.m == 0)
        return -1;
    int32_t zi = tk_zero_point(plan, ti), zo = tk_zero_point(plan, to);
    for (uint32_t i = 0; i < n; i++)
        y[i] = (int8_t)fx_clamp(fx_scale_round((int32_t)x[i] - zi, si, so) + zo, -128, 127);
    return 0;
}

int tk_any_reshape(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != ov.t->dtype || iv.numel != ov.numel) return -1;
    uint32_t ci, co, offi, offo;
    if (tk_band_span(mem, &iv, 0, &ci, &offi) || tk_band_span(mem, &ov, 1, &co, &offo) || ci != co) return -1;
    const uint8_t *x = (const uint8_t *)tk_buf(mem, ii);
    uint8_t *y = (uint8_t *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    x += (size_t)offi * iv.esize;
    y += (size_t)offo * ov.esize;
    if (!same_encoding(plan, iv.t, ov.t))
        return requant_bytes(plan, iv.t, ov.t, (const int8_t *)x, (int8_t *)y, ci);
    if (x != y) memmove(y, x, (size_t)ci * iv.esize);
    return 0;
}

/* Concatenation along a stored axis; a float plan may place a constant part
 * (weight_idx) first along the last axis. Under a band only the last axis
 * can be joined, since each input then holds the same rows. */
int tk_any_concat(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t ov;
    int32_t oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, oi, &ov) || ov.rank < 1) return -1;
    int32_t axis = op->spatial.kernel_h;
    if (ov.rank == 4 && axis == 0) axis = 3; /* the old meaning of 0 at rank 4 */
    if (axis < 0 || axis >= ov.rank) return -1;
    if (mem->tile.active && axis != ov.rank - 1) return -1;
    uint32_t es = ov.esize;
    uint32_t inner = 1;
    for (int32_t k = axis + 1; k < ov.rank; k++) inner *= (uint32_t)ov.dim[k];
    uint32_t oc, ooff;
    if (tk_band_span(mem, &ov, 1, &oc, &ooff)) return -1;
    uint32_t out_chunk = (uint32_t)ov.dim[axis] * inner;
    if (oc % out_chunk) return -1;
    uint32_t outer = oc / out_chunk;
    uint8_t *y = (uint8_t *)tk_buf(mem, oi);
    if (!y || op->num_inputs < 1) return -1;
    y += (size_t)ooff * es;
    /* Extent along the axis covered by inputs, then the constant's share. */
    uint32_t covered = 0;
    for (uint32_t k = 0; k < op->num_inputs; k++) {
        tk_view_t iv;
        if (tk_view(plan, tk_in_idx(plan, op, k), &iv) || iv.rank != ov.rank || iv.t->dtype != ov.t->dtype)
            return -1;
        for (int32_t d = 0; d < ov.rank; d++)
            if (d != axis && iv.dim[d] != ov.dim[d]) return -1;
        covered += (uint32_t)iv.dim[axis];
    }
    if (covered > (uint32_t)ov.dim[axis]) return -1;
    uint32_t pos = 0; /* element offset within one output chunk */
    uint32_t const_ext = (uint32_t)ov.dim[axis] - covered;
    if (const_ext) {
        if (ov.t->dtype == TIGRIS_DTYPE_INT8 || axis != ov.rank - 1) return -1;
        uint32_t part = const_ext * inner;
        const uint8_t *c = (const uint8_t *)tk_weight(plan, op->weight_idx, part * es);
        if (!c) return -1;
        /* The constant covers one chunk per outer position of the whole
         * tensor; a band starts at its own outer positions. */
        uint32_t outer_total = ov.numel / out_chunk;
        uint32_t first = ooff / out_chunk;
        if (plan->weight_entries[op->weight_idx].size_bytes == part * es * outer_total) {
            for (uint32_t o = 0; o < outer; o++)
                memcpy(y + ((size_t)o * out_chunk) * es, c + ((size_t)(first + o) * part) * es, (size_t)part * es);
        } else {
            for (uint32_t o = 0; o < outer; o++) memcpy(y + ((size_t)o * out_chunk) * es, c, (size_t)part * es);
        }
        pos = part;
    } else if (op->weight_idx != TIGRIS_NONE16) {
        return -1;
    }
    for (uint32_t k = 0; k < op->num_inputs; k++) {
        tk_view_t iv;
        int32_t ii = tk_in_idx(plan, op, k);
        if (tk_view(plan, ii, &iv)) return -1;
        uint32_t chunk = (uint32_t)iv.dim[axis] * inner;
        uint32_t ic, ioff;
        if (tk_band_span(mem, &iv, 0, &ic, &ioff) || ic != outer * chunk) return -1;
        const uint8_t *x = (const uint8_t *)tk_buf(mem, ii);
        if (!x) return -1;
        x += (size_t)ioff * es;
        int requant = !same_encoding(plan, iv.t, ov.t);
        for (uint32_t o = 0; o < outer; o++) {
            const uint8_t *src = x + (size_t)o * chunk * es;
            uint8_t *dst = y + ((size_t)o * out_chunk + pos) * es;
            if (requant) {
                if (requant_bytes(plan, iv.t, ov.t, (const int8_t *)src, (int8_t *)dst, chunk)) return -1;
            } else {
                memcpy(dst, src, (size_t)chunk * es);
            }
        }
        pos += chunk;
    }
    return 0;
}

/* Constant padding (PADS: leading, trailing per stored axis). The fill is
 * the op's one-element weight, else the output zero point (int8) or 0.0. */
int tk_any_pad(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != ov.t->dtype || iv.rank != ov.rank || mem->tile.active) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_FLOAT32 && iv.t->dtype != TIGRIS_DTYPE_INT8) return -1;
    if (!same_encoding(plan, iv.t, ov.t)) return -1;
    uint8_t len = 0;
    const uint8_t *pads = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_PADS, &len);
    if (!pads || len != 8u * (uint32_t)iv.rank) return -1;
    int32_t lead[TK_MAX_RANK];
    for (int32_t k = 0; k < iv.rank; k++) {
        lead[k] = tk_ld_i32(pads, 2u * (uint32_t)k);
        int32_t trail = tk_ld_i32(pads, 2u * (uint32_t)k + 1u);
        if (lead[k] < 0 || trail < 0 || (int64_t)iv.dim[k] + lead[k] + trail != ov.dim[k]) return -1;
    }
    const uint8_t *x = (const uint8_t *)tk_buf(mem, ii);
    uint8_t *y = (uint8_t *)tk_buf(mem, oi);
    if (!x || !y || x == y) return -1;
    uint32_t es = ov.esize;
    uint8_t fill[4] = {0, 0, 0, 0};
    if (op->weight_idx != TIGRIS_NONE16) {
        const uint8_t *f = (const uint8_t *)tk_weight(plan, op->weight_idx, es);
        if (!f) return -1;
        memcpy(fill, f, es);
    } else if (ov.t->dtype == TIGRIS_DTYPE_INT8) {
        fill[0] = (uint8_t)(int8_t)tk_zero_point(plan, ov.t);
    }
    for (uint32_t i = 0; i < ov.numel; i++) memcpy(y + (size_t)i * es, fill, es);
    /* Copy each innermost run of the input to its padded position. */
    int32_t r = iv.rank;
    uint32_t run = (uint32_t)iv.dim[r - 1];
    uint32_t runs = iv.numel / run;
    for (uint32_t q = 0; q < runs; q++) {
        uint32_t rem = q, off = 0, mul = 1;
        /* output offset of the run: coordinates of axes 0..r-2 plus leads */
        uint32_t coord[TK_MAX_RANK];
        for (int32_t k = r - 2; k >= 0; k--) {
            coord[k] = rem % (uint32_t)iv.dim[k];
            rem /= (uint32_t)iv.dim[k];
        }
        mul = (uint32_t)ov.dim[r - 1];
        off = (uint32_t)lead[r - 1];
        for (int32_t k = r - 2; k >= 0; k--) {
            off += (coord[k] + (uint32_t)lead[k]) * mul;
            mul *= (uint32_t)ov.dim[k];
        }
        memcpy(y + (size_t)off * es, x + (size_t)q * run * es, (size_t)run * es);
    }
    return 0;
}
