/*
 * depthwise.c - accelerated int8 depthwise conv (and its scratch twin).
 *
 * Routing (ta_depthwise):
 *   - channel multiplier 1 (every MobileNet-style depthwise): the kernel
 *     below, any kernel size, stride, dilation, padding, band or tile;
 *   - channel multiplier > 1: the int8 reference.
 * Each output pixel walks its in-image taps (tk_taps, as the reference does,
 * so padding taps are skipped, not zero-filled) for a group of channels at
 * a time, accumulators kept in registers:
 *   - DSP: four channels per word, widened with SXTAB16 (-zp_in added) and
 *     multiplied lane by lane with SMLABB/SMLATT;
 *   - MVE: eight channels as 16-bit lanes, (x - zp_in) * w widened to
 *     32 bits (VMULLB/VMULLT) and summed in two vectors of even and odd
 *     channels, requantised four at a time.
 * No scratch is needed.
 */
#include "conv_args.h"
#include "dot_dsp.h"
#include "requant_mve.h"

/* Rows and columns of the taps of pixel (oh, ow) inside the input band. */
typedef struct {
    int32_t iy0, ix0, khlo, khhi, kwlo, kwhi;
} ta_taps_t;

static void pixel_taps(const tk_geom_t *g, int32_t oh, int32_t ow, ta_taps_t *t) {
    t->iy0 = ta_in_row0(g, oh);
    t->ix0 = ow * g->sw - g->pl;
    tk_taps(t->iy0, g->kh, g->dh, g->ih, &t->khlo, &t->khhi);
    tk_taps(t->ix0, g->kw, g->dw, g->iw, &t->kwlo, &t->kwhi);
}

/* Scalar channel (the tail of a group loop). */
static int8_t channel_scalar(const ta_conv_args_t *a, const ta_taps_t *t, int32_t n, int32_t c) {
    const tk_geom_t *g = &a->g;
    uint32_t acc = (uint32_t)ta_bias(a, c);
    for (int32_t kh = t->khlo; kh < t->khhi; kh++)
        for (int32_t kw = t->kwlo; kw < t->kwhi; kw++) {
            const int8_t *xp = ta_in_px(a, n, t->iy0 + kh * g->dh, t->ix0 + kw * g->dw);
            acc += (uint32_t)(((int32_t)xp[c] - a->zp_in) * (int32_t)a->w[((size_t)kh * g->kw + kw) * g->oc + c]);
        }
    return ta_requant(&a->rq, c, (int32_t)acc);
}

#if TA_MVE

static void pixel(const ta_conv_args_t *a, const ta_taps_t *t, int32_t n, int8_t *y) {
    const tk_geom_t *g = &a->g;
    const size_t xs_w = (size_t)g->dw * g->ic, xs_h = (size_t)g->dh * g->iw * g->ic;
    const size_t ws_w = (size_t)g->oc, ws_h = (size_t)g->kw * g->oc;
    int32_t c = 0;
    for (; c + 8 <= g->oc; c += 8) {
        int32x4_t ev = vdupq_n_s32(0), od = vdupq_n_s32(0);
        const int8_t *xr = ta_in_px(a, n, t->iy0 + t->khlo * g->dh, t->ix0 + t->kwlo * g->dw) + c;
        const int8_t *wr = a->w + ((size_t)t->khlo * g->kw + t->kwlo) * g->oc + c;
        for (int32_t kh = t->khlo; kh < t->khhi; kh++, xr += xs_h, wr += ws_h) {
            const int8_t *xp = xr, *wp = wr;
            for (int32_t kw = t->kwlo; kw < t->kwhi; kw++, xp += xs_w, wp += ws_w) {
                int16x8_t x = vsubq_n_s16(vldrbq_s16(xp), (int16_t)a->zp_in), w = vldrbq_s16(wp);
                ev = vaddq_s32(ev, vmullbq_int_s16(x, w));
                od = vaddq_s32(od, vmulltq_int_s16(x, w));
            }
        }
        /* Lanes of ev are channels c, c+2, c+4, c+6; od the odd ones. */
        int32_t e[4], o[4], s[8];
        vst1q_s32(e, ev);
        vst1q_s32(o, od);
        for (int32_t i = 0; i < 4; i++) {
            s[2 * i] = fx_wadd(e[i], ta_bias(a, c + 2 * i));
            s[2 * i + 1] = fx_wadd(o[i], ta_bias(a, c + 2 * i + 1));
        }
        for (int32_t i = 0; i < 8; i += 4) {
            int32x4_t m, l, nr;
            ta_rq_load4(&a->rq, c + i, &m, &l, &nr);
            vstrbq_s32(y + c + i, ta_rq_apply4(&a->rq, vld1q_s32(s + i), m, l, nr));
        }
    }
    for (; c < g->oc; c++) y[c] = channel_scalar(a, t, n, c);
}

#else /* DSP */

static void pixel(const ta_conv_args_t *a, const ta_taps_t *t, int32_t n, int8_t *y) {
    const tk_geom_t *g = &a->g;
    const size_t xs_w = (size_t)g->dw * g->ic, xs_h = (size_t)g->dh * g->iw * g->ic;
    const size_t ws_w = (size_t)g->oc, ws_h = (size_t)g->kw * g->oc;
    const int32_t off = (int32_t)ta_lane_offset(a->zp_in);
    int32_t c = 0;
    for (; c + 4 <= g->oc; c += 4) {
        int32_t a0 = ta_bias(a, c), a1 = ta_bias(a, c + 1), a2 = ta_bias(a, c + 2), a3 = ta_bias(a, c + 3);
        const int8_t *xr = ta_in_px(a, n, t->iy0 + t->khlo * g->dh, t->ix0 + t->kwlo * g->dw) + c;
        const int8_t *wr = a->w + ((size_t)t->khlo * g->kw + t->kwlo) * g->oc + c;
        for (int32_t kh = t->khlo; kh < t->khhi; kh++, xr += xs_h, wr += ws_h) {
            const int8_t *xp = xr, *wp = wr;
            for (int32_t kw = t->kwlo; kw < t->kwhi; kw++, xp += xs_w, wp += ws_w) {
                uint32_t xw = ta_ld32(xp), ww = ta_ld32(wp);
                int32_t xe = __sxtab16(off, (int32_t)xw), xo = ta_sxtab16_ror8(off, xw);
                int32_t we = __sxtb16((int32_t)ww), wo = ta_sxtb16_ror8(ww);
                a0 = __smlabb(xe, we, a0);
                a2 = __smlatt(xe, we, a2);
                a1 = __smlabb(xo, wo, a1);
                a3 = __smlatt(xo, wo, a3);
            }
        }
        y[c] = ta_requant(&a->rq, c, a0);
        y[c + 1] = ta_requant(&a->rq, c + 1, a1);
        y[c + 2] = ta_requant(&a->rq, c + 2, a2);
        y[c + 3] = ta_requant(&a->rq, c + 3, a3);
    }
    for (; c < g->oc; c++) y[c] = channel_scalar(a, t, n, c);
}

#endif

int ta_depthwise(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    ta_conv_args_t a;
    if (ta_conv_args(plan, op, mem, 1, &a) || a.mult != 1) return TA_FALLBACK;
    const tk_geom_t *g = &a.g;
    for (int32_t n = 0; n < g->n; n++)
        for (int32_t oh = 0; oh < g->oh; oh++)
            for (int32_t ow = 0; ow < g->ow; ow++) {
                ta_taps_t t;
                pixel_taps(g, oh, ow, &t);
                pixel(&a, &t, n, ta_out_px(&a, n, oh, ow));
            }
    return 0;
}

uint32_t ta_depthwise_scratch(const tigris_plan_t *plan, const tigris_op_t *op) {
    (void)plan;
    (void)op;
    return 0;
}
