/*
 * pool.c - accelerated int8 MaxPool and AveragePool (and the scratch twin).
 *
 * Routing (ta_max_pool, ta_avg_pool):
 *   - input and output with the same scale and zero point (what TFLite
 *     pooling produces): the kernels below, any window, stride, dilation,
 *     padding, band or tile;
 *   - differing encodings (a requantising pool): the int8 reference.
 * Each output pixel walks its in-image taps (tk_taps) with channels in
 * registers:
 *   - max: four channels per word (SSUB8 sets the lane flags, SEL keeps the
 *     larger bytes) on DSP, sixteen per VMAX on MVE, starting from -128 as
 *     the reference does;
 *   - average: two 16-bit lane sums per word (SXTAB16) while the window has
 *     at most 256 taps (|sum| <= 128 * 256 fits 16 bits), else int32 sums;
 *     then the reference's division rounding half away from zero.
 * Both clamp to the op's act bounds. No scratch is needed.
 */
#include "arm_common.h"

static int same_quant(const tigris_plan_t *plan, const tigris_tensor_t *a, const tigris_tensor_t *b) {
    const tigris_quant_param_t *qa = tigris_tensor_quant(plan, a), *qb = tigris_tensor_quant(plan, b);
    if (!qa || !qb) return 1;
    return tk_scale_bits(plan, a) == tk_scale_bits(plan, b) && qa->zero_point == qb->zero_point;
}

typedef struct {
    tk_geom_t g;
    const int8_t *x;
    int8_t *y;
} pool_args_t;

static int pool_args(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, pool_args_t *a) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return TA_FALLBACK;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return TA_FALLBACK;
    if (tk_geom(op, mem, &iv, &ov, &a->g) || a->g.ic != a->g.oc) return TA_FALLBACK;
    if (!same_quant(plan, iv.t, ov.t)) return TA_FALLBACK;
    a->x = (const int8_t *)tk_buf(mem, ii);
    a->y = (int8_t *)tk_buf(mem, oi);
    return a->x && a->y ? 0 : TA_FALLBACK;
}

static int32_t div_round_away(int32_t v, int32_t c) { return v > 0 ? (v + c / 2) / c : (v - c / 2) / c; }

/* Taps of one output pixel: first tap address, counts and steps. */
typedef struct {
    const int8_t *first;
    int32_t rows, cols;
    size_t step_w, step_h;
} taps_t;

static void pixel_taps(const pool_args_t *a, int32_t n, int32_t oh, int32_t ow, taps_t *t) {
    const tk_geom_t *g = &a->g;
    int32_t iy0 = (oh + g->out_row0) * g->sh - g->pt - g->in_row_shift, ix0 = ow * g->sw - g->pl;
    int32_t khlo, khhi, kwlo, kwhi;
    tk_taps(iy0, g->kh, g->dh, g->ih, &khlo, &khhi);
    tk_taps(ix0, g->kw, g->dw, g->iw, &kwlo, &kwhi);
    t->rows = khhi - khlo;
    t->cols = kwhi - kwlo;
    t->step_w = (size_t)g->dw * g->ic;
    t->step_h = (size_t)g->dh * g->iw * g->ic;
    t->first = a->x;
    if (t->rows > 0 && t->cols > 0)
        t->first = a->x + (((size_t)n * g->in_rows + iy0 + khlo * g->dh) * g->iw + ix0 + kwlo * g->dw) * g->ic;
}

static int8_t max_scalar(const taps_t *t, int32_t c) {
    int32_t m = -128;
    const int8_t *r = t->first + c;
    for (int32_t i = 0; i < t->rows; i++, r += t->step_h)
        for (int32_t j = 0; j < t->cols; j++)
            if (r[(size_t)j * t->step_w] > m) m = r[(size_t)j * t->step_w];
    return (int8_t)m;
}

static void max_pixel(const taps_t *t, int32_t channels, int8_t lo, int8_t hi, int8_t *y) {
    int32_t c = 0;
#if TA_MVE
    for (; c + 16 <= channels; c += 16) {
        int8x16_t m = vdupq_n_s8(-128);
        const int8_t *r = t->first + c;
        for (int32_t i = 0; i < t->rows; i++, r += t->step_h)
            for (int32_t j = 0; j < t->cols; j++) m = vmaxq_s8(m, vld1q_s8(r + (size_t)j * t->step_w));
        vst1q_s8(y + c, vminq_s8(vmaxq_s8(m, vdupq_n_s8(lo)), vdupq_n_s8(hi)));
    }
#endif
    const uint32_t lo4 = 0x01010101u * (uint8_t)lo, hi4 = 0x01010101u * (uint8_t)hi;
    for (; c + 4 <= channels; c += 4) {
        uint32_t m = 0x80808080u;
        const int8_t *r = t->first + c;
        for (int32_t i = 0; i < t->rows; i++, r += t->step_h)
            for (int32_t j = 0; j < t->cols; j++) {
                uint32_t v = ta_ld32(r + (size_t)j * t->step_w);
                (void)__ssub8((int32_t)v, (int32_t)m);
                m = __sel(v, m);
            }
        (void)__ssub8((int32_t)m, (int32_t)lo4);
        m = __sel(m, lo4);
        (void)__ssub8((int32_t)hi4, (int32_t)m);
        m = __sel(m, hi4);
        memcpy(y + c, &m, 4);
    }
    for (; c < channels; c++) y[c] = (int8_t)fx_clamp(max_scalar(t, c), lo, hi);
}

static int8_t avg_out(int32_t sum, int32_t count, int8_t lo, int8_t hi) {
    return (int8_t)fx_clamp(div_round_away(sum, count), lo, hi);
}

static void avg_pixel(const taps_t *t, int32_t channels, int8_t lo, int8_t hi, int8_t *y) {
    int32_t count = t->rows * t->cols, c = 0;
    if (count <= 256) {
        for (; c + 4 <= channels; c += 4) {
            int32_t e = 0, o = 0; /* lanes: channels c, c+2 and c+1, c+3 */
            const int8_t *r = t->first + c;
            for (int32_t i = 0; i < t->rows; i++, r += t->step_h)
                for (int32_t j = 0; j < t->cols; j++) {
                    uint32_t v = ta_ld32(r + (size_t)j * t->step_w);
                    e = __sxtab16(e, (int32_t)v);
                    o = ta_sxtab16_ror8(o, v);
                }
            y[c] = avg_out((int16_t)(e & 0xFFFF), count, lo, hi);
            y[c + 2] = avg_out((int16_t)((uint32_t)e >> 16), count, lo, hi);
            y[c + 1] = avg_out((int16_t)(o & 0xFFFF), count, lo, hi);
            y[c + 3] = avg_out((int16_t)((uint32_t)o >> 16), count, lo, hi);
        }
    }
    for (; c < channels; c++) {
        int32_t s = 0;
        const int8_t *r = t->first + c;
        for (int32_t i = 0; i < t->rows; i++, r += t->step_h)
            for (int32_t j = 0; j < t->cols; j++) s += r[(size_t)j * t->step_w];
        y[c] = avg_out(s, count, lo, hi);
    }
}

static int pool_run(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int is_max) {
    pool_args_t a;
    if (pool_args(plan, op, mem, &a)) return TA_FALLBACK;
    const tk_geom_t *g = &a.g;
    /* The reference refuses an average over no taps: find one before writing. */
    if (!is_max)
        for (int32_t oh = 0; oh < g->oh; oh++)
            for (int32_t ow = 0; ow < g->ow; ow++) {
                taps_t t;
                pixel_taps(&a, 0, oh, ow, &t);
                if (t.rows * t.cols == 0) return TA_FALLBACK;
            }
    for (int32_t n = 0; n < g->n; n++)
        for (int32_t oh = 0; oh < g->oh; oh++)
            for (int32_t ow = 0; ow < g->ow; ow++) {
                taps_t t;
                pixel_taps(&a, n, oh, ow, &t);
                int8_t *y = a.y + (((size_t)n * g->out_rows + oh + g->out_row0) * g->ow + ow) * g->oc;
                if (is_max)
                    max_pixel(&t, g->oc, op->act_min, op->act_max, y);
                else
                    avg_pixel(&t, g->oc, op->act_min, op->act_max, y);
            }
    return 0;
}

int ta_max_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return pool_run(plan, op, mem, 1);
}

int ta_avg_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return pool_run(plan, op, mem, 0);
}

uint32_t ta_pool_scratch(const tigris_plan_t *plan, const tigris_op_t *op) {
    (void)plan;
    (void)op;
    return 0;
}
