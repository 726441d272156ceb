/*
 * logic.c - int8 comparisons (TFLite's scheme: each operand (x - zp) shifted
 * left by 8 and rescaled by its COMPARISON_REQUANT multiplier, then compared),
 * Cast from bool (docs/runtime-semantics.md R4.6) and AddN (R4.3 item 31).
 * Integer only: the one scale-derived value Cast needs, roundf(1/scale), is
 * computed from the scale's bits. The byte-level operand resolution they
 * share with the float kernels is in any/logic.c.
 */
#include "../kernel_common.h"
#include "fixedpoint.h"

enum { CMP_EQ, CMP_LT, CMP_LE, CMP_GT, CMP_GE };

/* Dtype of the op's data operands: its first runtime input's (a constant
 * operand carries the same dtype), or 0. */
static uint8_t data_dtype(const tigris_plan_t *plan, const tigris_op_t *op) {
    int32_t ii = tk_in_idx(plan, op, 0);
    return ii < 0 ? 0 : plan->tensors[ii].dtype;
}

static int s8_compare(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                      int which) {
    uint8_t d = data_dtype(plan, op);
    if (d == TIGRIS_DTYPE_FLOAT32) {
        /* A comparison inside a float section of an int8 plan: its bool
         * output routes it here, its operands to the float kernel. */
#if TIGRIS_ENABLE_F32
        switch (which) {
        case CMP_EQ: return tk_f32_equal(plan, op, op_index, mem);
        case CMP_LT: return tk_f32_less(plan, op, op_index, mem);
        case CMP_LE: return tk_f32_less_equal(plan, op, op_index, mem);
        case CMP_GT: return tk_f32_greater(plan, op, op_index, mem);
        default: return tk_f32_greater_equal(plan, op, op_index, mem);
        }
#else
        return -1;
#endif
    }
    if (d != TIGRIS_DTYPE_INT8) return -1;
    const uint8_t dt[2] = {TIGRIS_DTYPE_INT8, TIGRIS_DTYPE_INT8};
    tk_view_t out;
    tk_operand_t o[2];
    uint8_t *y;
    uint32_t n;
    if (tk_any_operands(plan, op, op_index, mem, 2, dt, TIGRIS_DTYPE_BOOL, &out, &y, &n, o)) return -1;
    uint8_t len = 0;
    const uint8_t *rq = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_COMPARISON_REQUANT, &len);
    if (!rq || len != 20 || tk_ld_i32(rq, 0) != 8) return -1;
    int32_t m[2], s[2], zp[2];
    for (int k = 0; k < 2; k++) {
        m[k] = tk_ld_i32(rq, 1u + 2u * (uint32_t)k);
        s[k] = tk_ld_i32(rq, 2u + 2u * (uint32_t)k);
        if (m[k] < 0 || s[k] < -31 || s[k] > 0 || !o[k].quant) return -1;
        zp[k] = fx_clamp(o[k].quant->zero_point, -128, 127);
    }
    for (uint32_t i = 0; i < n; i++) {
        int32_t xa = (int32_t)((const int8_t *)o[0].p)[tk_operand_at(&out, &o[0], i)] - zp[0];
        int32_t xb = (int32_t)((const int8_t *)o[1].p)[tk_operand_at(&out, &o[1], i)] - zp[1];
        int32_t a = fx_mbqm(xa * 256, m[0], s[0]);
        int32_t b = fx_mbqm(xb * 256, m[1], s[1]);
        int r;
        switch (which) {
        case CMP_EQ: r = a == b; break;
        case CMP_LT: r = a < b; break;
        case CMP_LE: r = a <= b; break;
        case CMP_GT: r = a > b; break;
        default: r = a >= b; break;
        }
        y[i] = (uint8_t)r;
    }
    return 0;
}

int tk_s8_equal(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return s8_compare(plan, op, op_index, mem, CMP_EQ);
}

int tk_s8_less(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return s8_compare(plan, op, op_index, mem, CMP_LT);
}

int tk_s8_less_equal(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return s8_compare(plan, op, op_index, mem, CMP_LE);
}

int tk_s8_greater(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return s8_compare(plan, op, op_index, mem, CMP_GT);
}

int tk_s8_greater_equal(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return s8_compare(plan, op, op_index, mem, CMP_GE);
}

/* The int8 code of "true": min(127, roundf(1.0f / scale) + zp), 127 when the
 * float quotient exceeds 255. The quotient is the float division's (24 bits,
 * ties to even), then rounded half away from zero like roundf. */
static int cast_true_code(uint32_t scale_bits, int32_t zp, int32_t *code) {
    fx_real_t s, one = {1, 0}, lim = {255, 0};
    if (fx_from_float_bits(scale_bits, &s) || s.m == 0) return -1;
    fx_real_t q = fx_div_round(one, s, 24);
    if (!fx_real_ge(lim, q)) {
        *code = 127;
        return 0;
    }
    int32_t r;
    if (q.e >= 0) {
        r = (int32_t)(q.m << q.e); /* q <= 255 */
    } else if (-q.e > 62) {
        r = 0;
    } else {
        int32_t sh = -q.e;
        r = (int32_t)((q.m + ((uint64_t)1 << (sh - 1))) >> sh);
    }
    r += zp;
    *code = r > 127 ? 127 : r;
    return 0;
}

int tk_s8_cast(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t xv, yv;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (op->num_inputs != 1 || op->num_outputs != 1) return -1;
    if (tk_view(plan, ii, &xv) || tk_view(plan, oi, &yv)) return -1;
    if (yv.t->dtype != TIGRIS_DTYPE_INT8 || xv.numel != yv.numel) return -1;
    if (xv.t->dtype == TIGRIS_DTYPE_FLOAT32) {
        /* Quantize (float section boundary): float math, in the float file. */
#if TIGRIS_ENABLE_F32
        return tk_f32_cast(plan, op, op_index, mem);
#else
        return -1;
#endif
    }
    if (xv.t->dtype != TIGRIS_DTYPE_BOOL) return -1;
    const tigris_quant_param_t *q = tigris_tensor_quant(plan, yv.t);
    if (!q || q->zero_point < -128 || q->zero_point > 127) return -1;
    int32_t zp = q->zero_point, one;
    if (cast_true_code(tk_scale_bits(plan, yv.t), zp, &one)) return -1;
    uint32_t xc, xo, yc, yo;
    if (tk_band_span(mem, &xv, 0, &xc, &xo) || tk_band_span(mem, &yv, 1, &yc, &yo) || xc != yc) return -1;
    const uint8_t *x = (const uint8_t *)tk_buf(mem, ii);
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    x += xo;
    y += yo;
    for (uint32_t i = 0; i < yc; i++) y[i] = (int8_t)(x[i] ? one : zp);
    return 0;
}

#define ADDN_MAX_INPUTS 255

int tk_s8_add_n(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t yv;
    int32_t oi = tk_out_idx(plan, op, 0);
    uint32_t nin = op->num_inputs;
    if (nin < 1 || nin > ADDN_MAX_INPUTS || op->num_outputs != 1) return -1;
    if (tk_view(plan, oi, &yv) || yv.t->dtype != TIGRIS_DTYPE_INT8) return -1;
    const tigris_quant_param_t *qy = tigris_tensor_quant(plan, yv.t);
    if (!qy) return -1;
    uint32_t yc, yo;
    if (tk_band_span(mem, &yv, 1, &yc, &yo)) return -1;
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!y) return -1;
    y += yo;

    /* Every input: same shape and encoding as the first. */
    const tigris_tensor_t *t0 = NULL;
    uint32_t sx_bits = 0;
    int32_t zx = 0;
    for (uint32_t k = 0; k < nin; k++) {
        tk_view_t xv;
        int32_t ii = tk_in_idx(plan, op, k);
        if (tk_view(plan, ii, &xv) || xv.t->dtype != TIGRIS_DTYPE_INT8 || xv.numel != yv.numel) return -1;
        const tigris_quant_param_t *qx = tigris_tensor_quant(plan, xv.t);
        if (!qx || !tk_buf(mem, ii)) return -1;
        uint32_t c, off;
        if (tk_band_span(mem, &xv, 0, &c, &off) || c != yc || off != yo) return -1;
        if (k == 0) {
            t0 = xv.t;
            sx_bits = tk_scale_bits(plan, t0);
            zx = qx->zero_point;
        } else if (tk_scale_bits(plan, xv.t) != sx_bits || qx->zero_point != zx) {
            return -1;
        }
    }
    if (zx < -128 || zx > 127) return -1;
    int32_t zy = tk_zero_point(plan, yv.t);
    fx_real_t sx, sy;
    if (fx_from_float_bits(sx_bits, &sx) || sx.m == 0) return -1;
    if (fx_from_float_bits(tk_scale_bits(plan, yv.t), &sy) || sy.m == 0) return -1;
    /* rescale = 2·s_x / (2^20·s_y), which must lie in (0, 1). */
    fx_real_t num = sx, den = sy;
    num.e += 1;
    den.e += 20;
    if (fx_real_ge(num, den)) return -1;
    int32_t m, s;
    if (fx_qm_ratio(num, den, &m, &s)) return -1;
    /* Worst accumulator magnitude: (|zp| + n·255)·2^19. */
    uint32_t worst = (uint32_t)(zx < 0 ? -zx : zx) + nin * 255u;
    if (worst > (0x7FFFFFFFu >> 19)) return -1;

    for (uint32_t i = 0; i < yc; i++) {
        int32_t acc = -zx * (1 << 19);
        for (uint32_t k = 0; k < nin; k++) {
            const int8_t *x = (const int8_t *)tk_buf(mem, tk_in_idx(plan, op, k)) + yo;
            acc += ((int32_t)x[i] - zx) * (1 << 19);
        }
        int32_t r = fx_mbqm(acc, m, s);
        if (r > 127 - zy) r = 127 - zy;
        if (r < -128 - zy) r = -128 - zy;
        y[i] = (int8_t)(r + zy);
    }
    return 0;
}
