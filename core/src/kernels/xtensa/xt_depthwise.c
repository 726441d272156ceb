/*
 * xt_depthwise.c - DepthwiseConv2D for lx106, bit-exact with the int8
 * reference (s8/conv.c, depthwise branch): weights [kh, kw, oc], output
 * channel c reads input channel c / multiplier, same geometry and bands.
 *
 * Per output pixel the kh·kw tap addresses are resolved once; taps in the
 * padding point at a row of zp_in bytes, whose x - zp_in is 0, so every
 * pixel (border or interior) runs the same straight loop. With
 * u = x + 128 (the byte XOR 0x80) a tap contributes (u - c0)·w where
 * c0 = zp_in + 128, and sum (u - c0)·w = sum u·w - c0·sum w: the second term
 * and the bias are folded once per dispatch into a per-channel start value.
 * The weights are widened to int16 once per dispatch so the inner loop does
 * no sign extension.
 *
 * Variants: multiplier 1 with channels a multiple of 4 and word-aligned
 * activations reads four channels per load (3x3 fully unrolled, other sizes
 * looped); anything else runs one channel at a time.
 */
#include "xt_internal.h"

typedef struct {
    const int8_t *const *taps; /* [kt] */
    const int16_t *w16;        /* word path: [oc/4][kt][4]; byte path: [oc][kt] */
    const uint32_t *start;     /* [oc] bias - c0·sum w */
    const xt_rq_t *rq;
    int32_t kt, oc, mult, zp_out, lo, hi;
} xt_dw_t;

/* Four channels c..c+3 (word path) over kt taps. */
static inline void dw_group4(const xt_dw_t *d, int32_t c, int32_t kt, int8_t *yp) {
    uint32_t a0 = d->start[c], a1 = d->start[c + 1], a2 = d->start[c + 2], a3 = d->start[c + 3];
    const int16_t *wp = d->w16 + (size_t)c * (size_t)kt;
    for (int32_t t = 0; t < kt; t++) {
        uint32_t u = xt_ld_w4(d->taps[t] + c) ^ 0x80808080u;
        a0 += (uint32_t)((int32_t)(u & 0xFFu) * wp[0]);
        a1 += (uint32_t)((int32_t)((u >> 8) & 0xFFu) * wp[1]);
        a2 += (uint32_t)((int32_t)((u >> 16) & 0xFFu) * wp[2]);
        a3 += (uint32_t)((int32_t)(u >> 24) * wp[3]);
        wp += 4;
    }
    yp[c] = xt_out(xt_mbqm((int32_t)a0, &d->rq[c]), d->zp_out, d->lo, d->hi);
    yp[c + 1] = xt_out(xt_mbqm((int32_t)a1, &d->rq[c + 1]), d->zp_out, d->lo, d->hi);
    yp[c + 2] = xt_out(xt_mbqm((int32_t)a2, &d->rq[c + 2]), d->zp_out, d->lo, d->hi);
    yp[c + 3] = xt_out(xt_mbqm((int32_t)a3, &d->rq[c + 3]), d->zp_out, d->lo, d->hi);
}

static void dw_pixel_words(const xt_dw_t *d, int8_t *yp) {
    if (d->kt == 9) {
        for (int32_t c = 0; c < d->oc; c += 4) dw_group4(d, c, 9, yp); /* 3x3: constant trip count, unrolled */
    } else {
        for (int32_t c = 0; c < d->oc; c += 4) dw_group4(d, c, d->kt, yp);
    }
}

static void dw_pixel_bytes(const xt_dw_t *d, int8_t *yp) {
    int32_t c = 0;
    for (int32_t ci = 0; c < d->oc; ci++) {
        for (int32_t j = 0; j < d->mult; j++, c++) {
            uint32_t a = d->start[c];
            const int16_t *wp = d->w16 + (size_t)c * (size_t)d->kt;
            for (int32_t t = 0; t < d->kt; t++)
                a += (uint32_t)((int32_t)((uint8_t)d->taps[t][ci] ^ 0x80u) * wp[t]);
            yp[c] = xt_out(xt_mbqm((int32_t)a, &d->rq[c]), d->zp_out, d->lo, d->hi);
        }
    }
}

int xt_depthwise(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, xt_scratch_t *sc) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return XT_DECLINE;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return XT_DECLINE;
    tk_geom_t g;
    if (tk_geom(op, mem, &iv, &ov, &g) || g.oc % g.ic) return XT_DECLINE;
    xt_dw_t d;
    d.mult = g.oc / g.ic;
    d.oc = g.oc;
    uint64_t kt = (uint64_t)g.kh * (uint64_t)g.kw;
    uint64_t wcount = kt * (uint64_t)g.oc;
    if (wcount > 0x7FFFFFFFu) return XT_DECLINE;
    d.kt = (int32_t)kt;
    xt_rq_t *rq = (xt_rq_t *)xt_take(sc, (uint64_t)g.oc * sizeof(xt_rq_t));
    uint32_t *start = (uint32_t *)xt_take(sc, (uint64_t)g.oc * 4u);
    int16_t *w16 = (int16_t *)xt_take(sc, wcount * 2u);
    const int8_t **taps = (const int8_t **)xt_take(sc, kt * sizeof(const int8_t *));
    int8_t *zrow = (int8_t *)xt_take(sc, (uint64_t)g.ic);
    if (!rq || !start || !w16 || !taps || !zrow) return XT_DECLINE;
    if (!sc->base) return 0; /* sizing: weights may be compressed until the stage runs */
    const int8_t *w = (const int8_t *)tk_weight(plan, op->weight_idx, (uint32_t)wcount);
    const uint8_t *bias = NULL;
    if (op->bias_idx != TIGRIS_NONE16) {
        bias = (const uint8_t *)tk_weight(plan, op->bias_idx, (uint32_t)g.oc * 4u);
        if (!bias) return XT_DECLINE;
    }
    if (!w || !xt_quant_channels_ok(plan, ov.t, g.oc)) return XT_DECLINE;
    const int8_t *x = (const int8_t *)tk_buf(mem, ii);
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!x || !y || xt_rq_channels(plan, ov.t, g.oc, NULL, rq)) return XT_DECLINE;
    int32_t zp_in = tk_zero_point(plan, iv.t);
    int words = d.mult == 1 && (g.ic & 3) == 0 && ((uintptr_t)x & 3u) == 0;

    /* Per-dispatch preparation: widened weights in the variant's order,
     * start values, the zero-point row. */
    uint32_t c0 = (uint32_t)(zp_in + 128);
    for (int32_t c = 0; c < g.oc; c++) {
        uint32_t sw = 0;
        for (int32_t t = 0; t < d.kt; t++) {
            int16_t v = w[(size_t)t * g.oc + c];
            size_t at = words ? ((size_t)(c & ~3) * d.kt + (size_t)t * 4u + (c & 3)) : ((size_t)c * d.kt + t);
            w16[at] = v;
            sw += (uint32_t)(int32_t)v;
        }
        start[c] = (bias ? (uint32_t)tk_ld_i32(bias, (uint32_t)c) : 0u) - c0 * sw;
    }
    memset(zrow, (int)(int8_t)zp_in, (size_t)g.ic);
    d.taps = taps;
    d.w16 = w16;
    d.start = start;
    d.rq = rq;
    d.zp_out = tk_zero_point(plan, ov.t);
    d.lo = op->act_min;
    d.hi = op->act_max;

    const size_t row_bytes = (size_t)g.iw * g.ic;
    for (int32_t n = 0; n < g.n; n++) {
        for (int32_t oh = 0; oh < g.oh; oh++) {
            int32_t orow = oh + g.out_row0;
            int32_t ybase = orow * g.sh - g.pt - g.in_row_shift;
            int8_t *yrow = y + ((size_t)n * g.out_rows + orow) * g.ow * g.oc;
            for (int32_t ow = 0; ow < g.ow; ow++) {
                int32_t xbase = ow * g.sw - g.pl;
                const int8_t **tp = taps;
                for (int32_t kh = 0; kh < g.kh; kh++) {
                    int32_t iy = ybase + kh * g.dh;
                    int row_ok = iy >= 0 && iy < g.ih;
                    const int8_t *xr = row_ok ? x + ((size_t)n * g.in_rows + (size_t)iy) * row_bytes : zrow;
                    for (int32_t kw = 0; kw < g.kw; kw++) {
                        int32_t ix = xbase + kw * g.dw;
                        *tp++ = (row_ok && ix >= 0 && ix < g.iw) ? xr + (size_t)ix * g.ic : zrow;
                    }
                }
                int8_t *yp = yrow + (size_t)ow * g.oc;
                if (words)
                    dw_pixel_words(&d, yp);
                else
                    dw_pixel_bytes(&d, yp);
            }
        }
    }
    return 0;
}
