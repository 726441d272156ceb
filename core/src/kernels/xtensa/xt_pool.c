/*
 * xt_pool.c - MaxPool and AveragePool for lx106, bit-exact with the int8
 * reference (s8/pool.c) when input and output share one encoding (the
 * plans' case; other encodings go to the reference). Channels are the inner
 * loop with the window's rows and columns resolved once per output pixel
 * (MaxPool four channels per word when the channel count allows);
 * the average's rounded division by the tap count (lx106 has no divide
 * instruction, and the quotient has at most 8 bits) is an unrolled
 * shift-and-subtract.
 */
#include "xt_internal.h"

static int same_quant(const tigris_plan_t *plan, const tigris_tensor_t *a, const tigris_tensor_t *b) {
    const tigris_quant_param_t *qa = tigris_tensor_quant(plan, a), *qb = tigris_tensor_quant(plan, b);
    if (!qa || !qb) return 1;
    return tk_scale_bits(plan, a) == tk_scale_bits(plan, b) && qa->zero_point == qb->zero_point;
}

/* floor(n / c) for 0 <= n <= 255·c + c - 1 (an 8-bit quotient), c >= 1. */
static inline uint32_t div_small(uint32_t n, uint32_t c) {
    uint32_t q = 0;
#define XT_DIV_STEP(b)                        \
    if (n >= (c << (b))) {                    \
        n -= c << (b);                        \
        q |= 1u << (b);                       \
    }
    XT_DIV_STEP(7) XT_DIV_STEP(6) XT_DIV_STEP(5) XT_DIV_STEP(4)
    XT_DIV_STEP(3) XT_DIV_STEP(2) XT_DIV_STEP(1) XT_DIV_STEP(0)
#undef XT_DIV_STEP
    return q;
}

/* The reference's v > 0 ? (v + c/2)/c : (v - c/2)/c with |v| <= 128·c. */
static inline int32_t div_round_away(int32_t v, uint32_t c) {
    uint32_t h = c >> 1;
    return v > 0 ? (int32_t)div_small((uint32_t)v + h, c) : -(int32_t)div_small((uint32_t)(-v) + h, c);
}

/* Per byte lane the larger of two words of unsigned bytes (SWAR, Hacker's
 * Delight): bit 7 of ge is lane x >= lane y, from the top bits where they
 * differ and from (x | 0x80) - (y & 0x7F) (no borrow leaves a lane) where
 * they agree; the lane mask is then 0xFF or 0x00 and picks x or y. */
static inline uint32_t swar_max_u8(uint32_t x, uint32_t y) {
    const uint32_t H = 0x80808080u;
    uint32_t d = x ^ y;
    uint32_t t = (x | H) - (y & ~H);
    uint32_t ge = ((x & ~y) | (~d & t)) & H;
    uint32_t mask = (ge - (ge >> 7)) | ge;
    return y ^ (d & mask);
}

/* MaxPool, four channels per word: int8 x XOR 0x80 orders like unsigned
 * bytes, so the running maxima are kept as such words (start 0 = -128). */
static void max_pool_words(const tk_geom_t *g, const int8_t *x, int8_t *y, uint32_t *acc, int32_t amin, int32_t amax) {
    const int32_t C = g->oc, G = C / 4;
    const size_t row_bytes = (size_t)g->iw * C;
    const int full = amin <= -128 && amax >= 127;
    for (int32_t n = 0; n < g->n; n++) {
        for (int32_t oh = 0; oh < g->oh; oh++) {
            int32_t orow = oh + g->out_row0;
            int32_t ybase = orow * g->sh - g->pt - g->in_row_shift;
            int32_t khlo, khhi;
            xt_taps(ybase, g->kh, g->dh, g->ih, &khlo, &khhi);
            int8_t *yp = y + ((size_t)n * g->out_rows + orow) * g->ow * C;
            for (int32_t ow = 0; ow < g->ow; ow++, yp += C) {
                int32_t xbase = ow * g->sw - g->pl;
                int32_t kwlo, kwhi;
                xt_taps(xbase, g->kw, g->dw, g->iw, &kwlo, &kwhi);
                for (int32_t k = 0; k < G; k++) acc[k] = 0;
                for (int32_t kh = khlo; kh < khhi; kh++) {
                    const int8_t *xr = x + ((size_t)n * g->in_rows + (size_t)(ybase + kh * g->dh)) * row_bytes;
                    for (int32_t kw = kwlo; kw < kwhi; kw++) {
                        const int8_t *xp = xr + (size_t)(xbase + kw * g->dw) * C;
                        for (int32_t k = 0; k < G; k++) acc[k] = swar_max_u8(acc[k], xt_ld_w4(xp + 4 * k) ^ 0x80808080u);
                    }
                }
                for (int32_t k = 0; k < G; k++) {
                    uint32_t v = acc[k] ^ 0x80808080u;
                    if (full) {
                        memcpy(yp + 4 * k, &v, 4);
                    } else {
                        for (int32_t b = 0; b < 4; b++)
                            yp[4 * k + b] = (int8_t)fx_clamp((int8_t)(uint8_t)(v >> (8 * b)), amin, amax);
                    }
                }
            }
        }
    }
}

static int pool(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, xt_scratch_t *sc, int is_max) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return XT_DECLINE;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return XT_DECLINE;
    tk_geom_t g;
    if (tk_geom(op, mem, &iv, &ov, &g) || g.ic != g.oc) return XT_DECLINE;
    if (!same_quant(plan, iv.t, ov.t)) return XT_DECLINE;
    /* 2^31 / 128 taps keep every sum exact; the reference's windows are
     * at most 255 x 255 anyway. */
    if ((int64_t)g.kh * g.kw > (1 << 23)) return XT_DECLINE;
    int32_t *acc = (int32_t *)xt_take(sc, (uint64_t)g.oc * 4u);
    if (!acc) return XT_DECLINE;
    if (!sc->base) return 0;
    const int8_t *x = (const int8_t *)tk_buf(mem, ii);
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!x || !y) return XT_DECLINE;
    if (!is_max) {
        /* An empty window is an error in the reference: leave it to it
         * before anything is written. */
        for (int32_t oh = 0; oh < g.oh; oh++) {
            int32_t lo, hi;
            xt_taps((oh + g.out_row0) * g.sh - g.pt - g.in_row_shift, g.kh, g.dh, g.ih, &lo, &hi);
            if (lo == hi) return XT_DECLINE;
        }
        for (int32_t ow = 0; ow < g.ow; ow++) {
            int32_t lo, hi;
            xt_taps(ow * g.sw - g.pl, g.kw, g.dw, g.iw, &lo, &hi);
            if (lo == hi) return XT_DECLINE;
        }
    }
    const int32_t C = g.oc, amin = op->act_min, amax = op->act_max;
    if (is_max && (C & 3) == 0 && ((uintptr_t)x & 3u) == 0) {
        max_pool_words(&g, x, y, (uint32_t *)acc, amin, amax);
        return 0;
    }
    const size_t row_bytes = (size_t)g.iw * C;
    for (int32_t n = 0; n < g.n; n++) {
        for (int32_t oh = 0; oh < g.oh; oh++) {
            int32_t orow = oh + g.out_row0;
            int32_t ybase = orow * g.sh - g.pt - g.in_row_shift;
            int32_t khlo, khhi;
            xt_taps(ybase, g.kh, g.dh, g.ih, &khlo, &khhi);
            int8_t *yp = y + ((size_t)n * g.out_rows + orow) * g.ow * C;
            for (int32_t ow = 0; ow < g.ow; ow++, yp += C) {
                int32_t xbase = ow * g.sw - g.pl;
                int32_t kwlo, kwhi;
                xt_taps(xbase, g.kw, g.dw, g.iw, &kwlo, &kwhi);
                int32_t init = is_max ? -128 : 0;
                for (int32_t c = 0; c < C; c++) acc[c] = init;
                for (int32_t kh = khlo; kh < khhi; kh++) {
                    const int8_t *xr = x + ((size_t)n * g.in_rows + (size_t)(ybase + kh * g.dh)) * row_bytes;
                    for (int32_t kw = kwlo; kw < kwhi; kw++) {
                        const int8_t *xp = xr + (size_t)(xbase + kw * g.dw) * C;
                        if (is_max) {
                            for (int32_t c = 0; c < C; c++) {
                                int32_t v = xp[c];
                                if (v > acc[c]) acc[c] = v;
                            }
                        } else {
                            for (int32_t c = 0; c < C; c++) acc[c] += xp[c];
                        }
                    }
                }
                if (is_max) {
                    for (int32_t c = 0; c < C; c++) yp[c] = (int8_t)fx_clamp(acc[c], amin, amax);
                } else {
                    uint32_t count = (uint32_t)((khhi - khlo) * (kwhi - kwlo));
                    for (int32_t c = 0; c < C; c++)
                        yp[c] = (int8_t)fx_clamp(div_round_away(acc[c], count), amin, amax);
                }
            }
        }
    }
    return 0;
}

int xt_max_pool(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, xt_scratch_t *sc) {
    return pool(plan, op, mem, sc, 1);
}

int xt_avg_pool(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, xt_scratch_t *sc) {
    return pool(plan, op, mem, sc, 0);
}
