/*
 * resize.c - int8 Resize (nearest) and ResizeLinear (docs/runtime-semantics.md R4.3
 * item 29, R4.7).
 *
 * Nearest: the source index the float rules give (float32 ratio, product,
 * floor / roundf), reproduced exactly with integer arithmetic on the
 * ratio's rounded mantissa (fixedpoint.h's fx_div_round / fx_round_bits
 * round as IEEE single precision does); byte copy, or passthrough
 * requantisation (round half away of (q - zp_in)·s_in/s_out, derived from
 * the scale bits) when the encodings differ.
 *
 * Linear with equal quantisation: TFLite's 10-bit integer path on raw
 * values. Linear with different quantisation is defined in float (bilinear
 * of dequantised values): that branch exists only with TIGRIS_ENABLE_F32.
 *
 * Under a height stripe, output rows are mapped through their global index
 * (out_row_origin) and source rows are read relative to in_row_origin.
 */
#include "../kernel_common.h"
#include "fixedpoint.h"

#if TIGRIS_ENABLE_F32
#include <math.h>
#endif

typedef struct {
    tk_view_t iv, ov;
    const int8_t *x;
    int8_t *y;
    int32_t n, ih, iw, oh, ow, c;
    int32_t band_in, band_out, out0, in0;
    int32_t mode;
    int has_scales;
    uint32_t scale_bits[2]; /* RESIZE_SCALES (h, w) */
} rz8_t;

static int rz8_setup(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                     int32_t max_mode, rz8_t *r) {
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &r->iv) || tk_view(plan, oi, &r->ov)) return -1;
    if (r->iv.t->dtype != TIGRIS_DTYPE_INT8 || r->ov.t->dtype != TIGRIS_DTYPE_INT8) return -1;
    if (r->iv.rank != 4 || r->ov.rank != 4 || r->iv.dim[0] != r->ov.dim[0] || r->iv.dim[3] != r->ov.dim[3]) return -1;
    r->n = r->iv.dim[0];
    r->ih = r->iv.dim[1];
    r->iw = r->iv.dim[2];
    r->oh = r->ov.dim[1];
    r->ow = r->ov.dim[2];
    r->c = r->iv.dim[3];
    /* Extents below 2^21 keep 1024·extent and every float-exact integer in range. */
    if (r->ih >= (1 << 21) || r->iw >= (1 << 21) || r->oh >= (1 << 21) || r->ow >= (1 << 21)) return -1;
    r->mode = op->spatial.kernel_h;
    if (r->mode > max_mode) return -1;
    uint8_t len = 0;
    const uint8_t *sc = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_RESIZE_SCALES, &len);
    r->has_scales = sc != NULL && r->mode != 2;
    r->scale_bits[0] = r->scale_bits[1] = 0;
    if (sc) {
        if (len != 8) return -1;
        memcpy(r->scale_bits, sc, 8);
        for (int k = 0; k < 2; k++) {
            fx_real_t v;
            if (fx_from_float_bits(r->scale_bits[k], &v) || v.m == 0) return -1;
        }
    }
    if (tk_resize_band(mem, r->ih, r->oh, &r->band_in, &r->band_out, &r->in0, &r->out0)) return -1;
    r->x = (const int8_t *)tk_buf(mem, ii);
    r->y = (int8_t *)tk_buf(mem, oi);
    return r->x && r->y ? 0 : -1;
}

static int same_quant(const tigris_plan_t *plan, const tigris_tensor_t *a, const tigris_tensor_t *b) {
    const tigris_quant_param_t *qa = tigris_tensor_quant(plan, a), *qb = tigris_tensor_quant(plan, b);
    if (!qa || !qb) return 1;
    return tk_scale_bits(plan, a) == tk_scale_bits(plan, b) && qa->zero_point == qb->zero_point;
}

/* ---- Nearest: float32 coordinates in exact integer form ---- */

/* The float32 ratio of docs/runtime-semantics.md R4.7 as a value m·2^e (24-bit mantissa). */
static fx_real_t rz8_ratio(int32_t in, int32_t out, int32_t mode, int has_scale, uint32_t scale_bits) {
    fx_real_t num = {(uint64_t)in, 0}, den = {(uint64_t)out, 0};
    if (mode == 2 && out > 1) {
        num.m = (uint64_t)(in - 1);
        den.m = (uint64_t)(out - 1);
    } else if (has_scale) {
        fx_real_t one = {1, 0};
        fx_from_float_bits(scale_bits, &den);
        num = one;
    }
    return fx_div_round(num, den, 24);
}

/* floor (or round half away when `round`) of a non-negative m·2^e, saturated. */
static int32_t rz8_to_int(fx_real_t v, int round) {
    if (v.m == 0) return 0;
    if (v.e >= 0) {
        if (v.e > 30 || (v.m << v.e) > 0x7FFFFFFFu) return 0x7FFFFFFF;
        return (int32_t)(v.m << v.e);
    }
    int32_t sh = -v.e;
    if (sh > 62) return 0;
    uint64_t q = (v.m + (round ? ((uint64_t)1 << (sh - 1)) : 0u)) >> sh;
    return q > 0x7FFFFFFFu ? 0x7FFFFFFF : (int32_t)q;
}

static int32_t rz8_nearest(int32_t i, fx_real_t ratio, int32_t mode, int32_t in) {
    fx_real_t p = {(uint64_t)i, 0};
    if (mode == 3) {
        p.m = 2u * (uint64_t)i + 1u;
        p.e = -1;
    }
    fx_real_t pos = fx_round_bits(fx_mul_real(p, ratio), 24);
    int32_t idx = rz8_to_int(pos, mode == 2);
    return idx > in - 1 ? in - 1 : idx;
}

int tk_s8_resize_nearest(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    rz8_t r;
    if (rz8_setup(plan, op, op_index, mem, 3, &r)) return -1;
    fx_real_t rh = rz8_ratio(r.ih, r.oh, r.mode, r.has_scales, r.scale_bits[0]);
    fx_real_t rw = rz8_ratio(r.iw, r.ow, r.mode, r.has_scales, r.scale_bits[1]);
    int same = same_quant(plan, r.iv.t, r.ov.t);
    fx_real_t si = {0, 0}, so = {0, 0};
    int32_t zi = tk_zero_point(plan, r.iv.t), zo = tk_zero_point(plan, r.ov.t);
    if (!same && (fx_from_float_bits(tk_scale_bits(plan, r.iv.t), &si) ||
                  fx_from_float_bits(tk_scale_bits(plan, r.ov.t), &so) || so.m == 0))
        return -1;
    for (int32_t b = 0; b < r.n; b++)
        for (int32_t oh = 0; oh < r.band_out; oh++) {
            int32_t sy = rz8_nearest(oh + r.out0, rh, r.mode, r.ih) - r.in0;
            if (sy < 0 || sy >= r.band_in) return -1;
            for (int32_t ow = 0; ow < r.ow; ow++) {
                int32_t sx = rz8_nearest(ow, rw, r.mode, r.iw);
                const int8_t *xp = r.x + (((size_t)b * r.band_in + sy) * r.iw + sx) * r.c;
                int8_t *yp = r.y + (((size_t)b * r.band_out + oh) * r.ow + ow) * r.c;
                if (same) {
                    memcpy(yp, xp, (size_t)r.c);
                } else {
                    for (int32_t ch = 0; ch < r.c; ch++)
                        yp[ch] = (int8_t)fx_clamp(fx_scale_round((int32_t)xp[ch] - zi, si, so) + zo, -128, 127);
                }
            }
        }
    return 0;
}

/* ---- Linear, equal quantisation: TFLite's 10-bit integer path ---- */

/* scale10 of one axis: the rounded integer ratio, or floor(1024/scale + 0.5)
 * evaluated as float32 operations for an explicit scale. */
static int32_t rz8_scale10(int32_t in, int32_t out, int32_t mode, int has_scale, uint32_t scale_bits) {
    if (has_scale) {
        fx_real_t s = {1, 0}, k = {1024, 0};
        fx_from_float_bits(scale_bits, &s);
        fx_real_t q = fx_div_round(k, s, 24);
        /* q + 0.5 exactly, then rounded to single precision. */
        fx_real_t t;
        if (q.e >= -1) {
            if (q.e > 30) return 0x7FFFFFFF;
            t.m = (q.m << (q.e + 1)) + 1u;
            t.e = -1;
        } else {
            if (-1 - q.e > 62) return 0;
            t.m = q.m + ((uint64_t)1 << (-1 - q.e));
            t.e = q.e;
        }
        return rz8_to_int(fx_round_bits(t, 24), 0);
    }
    int32_t ie = in, oe = out;
    if (mode == 2 && out > 1) {
        ie = in - 1;
        oe = out - 1;
    }
    return (int32_t)(((uint32_t)ie * 1024u + (uint32_t)oe / 2u) / (uint32_t)oe);
}

/* Source rows lo/hi and the 10-bit fraction d of output index i. */
static int rz8_linear10(int32_t i, int32_t scale10, int32_t mode, int32_t in, int32_t *lo, int32_t *hi, int32_t *d) {
    int64_t p = (int64_t)i * scale10 + (mode == 0 ? scale10 / 2 - 512 : 0);
    if (p > 0x7FFFFC00 || p < -0x7FFFFFFF) return -1;
    int32_t pos = (int32_t)p;
    int32_t l = pos / 1024, h = (pos + 1023) / 1024;
    if (l < 0) l = 0;
    if (h > in - 1) h = in - 1;
    if (l > in - 1 || h < 0) return -1;
    *lo = l;
    *hi = h;
    *d = pos - 1024 * l;
    return 0;
}

static int32_t rz8_round20(int32_t v) {
    /* (v ± 2^19) / 2^20 truncating, the sign of v choosing the offset. */
    if (v > 0) return (int32_t)(((uint32_t)v + (1u << 19)) >> 20);
    uint32_t a = (uint32_t)(-(int64_t)v) + (1u << 19);
    return -(int32_t)(a >> 20);
}

#if TIGRIS_ENABLE_F32
/* Different quantisation: float bilinear of dequantised values (docs/runtime-semantics.md R4.7 linear
 * float coordinates), roundf(·/s_out) + zp_out. */
static void rz8_linear_f(int32_t i, float ratio, int32_t mode, int32_t in, int32_t *lo, int32_t *hi, float *w) {
    float pos = mode == 0 ? ((float)i + 0.5f) * ratio - 0.5f : (float)i * ratio;
    float fl = floorf(pos), ce = ceilf(pos);
    int32_t l = fl < 0.0f ? 0 : (int32_t)fl;
    int32_t h = ce > (float)(in - 1) ? in - 1 : (int32_t)ce;
    if (l > in - 1) l = in - 1;
    if (h < 0) h = 0;
    *lo = l;
    *hi = h;
    *w = pos - (float)l;
}

static float rz8_ratio_f(int32_t in, int32_t out, int32_t mode, int has_scale, uint32_t scale_bits) {
    if (mode == 2) return out > 1 ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
    if (has_scale) {
        float s;
        memcpy(&s, &scale_bits, 4);
        return 1.0f / s;
    }
    return (float)in / (float)out;
}

static int rz8_linear_requant(const tigris_plan_t *plan, const rz8_t *r) {
    float si, so;
    uint32_t bi = tk_scale_bits(plan, r->iv.t), bo = tk_scale_bits(plan, r->ov.t);
    memcpy(&si, &bi, 4);
    memcpy(&so, &bo, 4);
    if (!(so > 0.0f)) return -1;
    int32_t zi = tk_zero_point(plan, r->iv.t), zo = tk_zero_point(plan, r->ov.t);
    float rh = rz8_ratio_f(r->ih, r->oh, r->mode, r->has_scales, r->scale_bits[0]);
    float rw = rz8_ratio_f(r->iw, r->ow, r->mode, r->has_scales, r->scale_bits[1]);
    for (int32_t b = 0; b < r->n; b++)
        for (int32_t oh = 0; oh < r->band_out; oh++) {
            int32_t y0, y1;
            float wy;
            rz8_linear_f(oh + r->out0, rh, r->mode, r->ih, &y0, &y1, &wy);
            y0 -= r->in0;
            y1 -= r->in0;
            if (y0 < 0 || y1 < 0 || y0 >= r->band_in || y1 >= r->band_in) return -1;
            for (int32_t ow = 0; ow < r->ow; ow++) {
                int32_t x0, x1;
                float wx;
                rz8_linear_f(ow, rw, r->mode, r->iw, &x0, &x1, &wx);
                const int8_t *row0 = r->x + ((size_t)b * r->band_in + y0) * r->iw * r->c;
                const int8_t *row1 = r->x + ((size_t)b * r->band_in + y1) * r->iw * r->c;
                int8_t *yp = r->y + (((size_t)b * r->band_out + oh) * r->ow + ow) * r->c;
                for (int32_t ch = 0; ch < r->c; ch++) {
                    float r00 = (float)(row0[(size_t)x0 * r->c + ch] - zi);
                    float r10 = (float)(row1[(size_t)x0 * r->c + ch] - zi);
                    float r01 = (float)(row0[(size_t)x1 * r->c + ch] - zi);
                    float r11 = (float)(row1[(size_t)x1 * r->c + ch] - zi);
                    float v = r00 * (1.0f - wy) * (1.0f - wx) + r10 * wy * (1.0f - wx) + r01 * (1.0f - wy) * wx +
                              r11 * wy * wx;
                    float q = roundf(v * si / so) + (float)zo;
                    yp[ch] = (int8_t)(q < -128.0f ? -128 : (q > 127.0f ? 127 : (int32_t)q));
                }
            }
        }
    return 0;
}
#endif

int tk_s8_resize_linear(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    rz8_t r;
    if (rz8_setup(plan, op, op_index, mem, 2, &r)) return -1;
    if (!same_quant(plan, r.iv.t, r.ov.t)) {
#if TIGRIS_ENABLE_F32
        return rz8_linear_requant(plan, &r);
#else
        return -1;
#endif
    }
    int32_t sh = rz8_scale10(r.ih, r.oh, r.mode, r.has_scales, r.scale_bits[0]);
    int32_t sw = rz8_scale10(r.iw, r.ow, r.mode, r.has_scales, r.scale_bits[1]);
    for (int32_t b = 0; b < r.n; b++)
        for (int32_t oh = 0; oh < r.band_out; oh++) {
            int32_t y0, y1, dy;
            if (rz8_linear10(oh + r.out0, sh, r.mode, r.ih, &y0, &y1, &dy)) return -1;
            y0 -= r.in0;
            y1 -= r.in0;
            if (y0 < 0 || y1 < 0 || y0 >= r.band_in || y1 >= r.band_in) return -1;
            const int8_t *row0 = r.x + ((size_t)b * r.band_in + y0) * r.iw * r.c;
            const int8_t *row1 = r.x + ((size_t)b * r.band_in + y1) * r.iw * r.c;
            for (int32_t ow = 0; ow < r.ow; ow++) {
                int32_t x0, x1, dx;
                if (rz8_linear10(ow, sw, r.mode, r.iw, &x0, &x1, &dx)) return -1;
                int8_t *yp = r.y + (((size_t)b * r.band_out + oh) * r.ow + ow) * r.c;
                for (int32_t ch = 0; ch < r.c; ch++) {
                    int32_t r00 = row0[(size_t)x0 * r.c + ch], r10 = row1[(size_t)x0 * r.c + ch];
                    int32_t r01 = row0[(size_t)x1 * r.c + ch], r11 = row1[(size_t)x1 * r.c + ch];
                    int32_t sum = r00 * (1024 - dy) * (1024 - dx) + r10 * dy * (1024 - dx) +
                                  r01 * (1024 - dy) * dx + r11 * dy * dx;
                    yp[ch] = (int8_t)fx_clamp(rz8_round20(sum), -128, 127);
                }
            }
        }
    return 0;
}
