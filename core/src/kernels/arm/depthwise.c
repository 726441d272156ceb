/*
 * depthwise.c - accelerated int8 depthwise conv (and its scratch twin).
 *
 * Routing (ta_depthwise):
 *   - channel multiplier 1 (every MobileNet-style depthwise), or a multiple
 *     of the channel group (4 on DSP, 8 on MVE: each group then reads one
 *     input channel, broadcast; e.g. a one-channel input layer): the kernel
 *     below, any kernel size, stride, dilation, padding, band or tile;
 *   - other channel multipliers: the int8 reference.
 * Each output pixel walks its in-image taps (tk_taps, as the reference does,
 * so padding taps are skipped, not zero-filled) for a group of channels at
 * a time, accumulators kept in registers:
 *   - DSP: four channels per word, widened with SXTAB16 (-zp_in added) and
 *     multiplied lane by lane with SMLABB/SMLATT against weights repacked
 *     once per call into 16-bit pairs (scratch), branch-free requantisation
 *     from a per-call channel table;
 *   - MVE: eight channels as 16-bit lanes, (x - zp_in) * w widened to
 *     32 bits (VMULLB/VMULLT) and summed in two vectors of even and odd
 *     channels, requantised four at a time with parameters laid out per
 *     call in the same even/odd order, narrowed back with VMOVNB/VMOVNT.
 * Scratch: DSP 16 bytes per channel plus 8 per tap and group of four
 * channels; MVE 16 bytes per channel.
 */
#include "conv_args.h"
#include "dot_dsp.h"
#include "requant_mve.h"

/* Rows and columns of the taps of pixel (oh, ow) inside the input band:
 * the first input row/column of its window and the in-image tap ranges. */
typedef struct {
    int32_t iy0, ix0, khlo, khhi, kwlo, kwhi;
} ta_taps_t;

/* Scalar channel (the tail of a group loop). */
static int8_t channel_scalar(const ta_conv_args_t *a, const ta_taps_t *t, int32_t n, int32_t c) {
    const tk_geom_t *g = &a->g;
    uint32_t acc = (uint32_t)ta_bias(a, c);
    for (int32_t kh = t->khlo; kh < t->khhi; kh++)
        for (int32_t kw = t->kwlo; kw < t->kwhi; kw++) {
            const int8_t *xp = ta_in_px(a, n, t->iy0 + kh * g->dh, t->ix0 + kw * g->dw);
            acc += (uint32_t)(((int32_t)xp[c / a->mult] - a->zp_in) *
                              (int32_t)a->w[((size_t)kh * g->kw + kw) * g->oc + c]);
        }
    return ta_requant(&a->rq, c, (int32_t)acc);
}

#if TA_MVE

/* Per call, in scratch: for each group of eight channels, the start values
 * and requantisation parameters of its even and odd channels as eight
 * vectors (bias, multiplier, left shift, negated right shift; even lanes
 * then odd), the layout the two accumulators of a group come out in. */
typedef struct {
    const int32_t *params; /* [group][8][4] */
    int32_t groups;
} dw_work_t;

static int dw_prep(const ta_conv_args_t *a, int32_t *pp, int32_t groups) {
    for (int32_t gi = 0; gi < groups; gi++, pp += 32)
        for (int32_t i = 0; i < 8; i++) {
            int32_t c = 8 * gi + i, lane = (i & 1) * 4 + i / 2;
            uint32_t q = (uint32_t)c * a->rq.step;
            int32_t m = a->rq.mult[q], sh = a->rq.shift[q];
            if (m == INT32_MIN) return -1;
            pp[lane] = ta_bias(a, c);
            pp[8 + lane] = m;
            pp[16 + lane] = sh > 0 ? (sh > 31 ? 31 : sh) : 0;
            pp[24 + lane] = sh > 0 ? 0 : (sh < -31 ? -31 : sh);
        }
    return 0;
}

/* `bcast` (multiplier a multiple of eight) is a constant at each call, so
 * the inner loop has no test. */
static inline __attribute__((always_inline)) void pixel_mve(const ta_conv_args_t *a, const dw_work_t *wk,
                                                           const ta_taps_t *t, int32_t n, int8_t *y, int bcast) {
    const tk_geom_t *g = &a->g;
    const size_t xs_w = (size_t)g->dw * g->ic, xs_h = (size_t)g->dh * g->iw * g->ic;
    const size_t ws_w = (size_t)g->oc, ws_h = (size_t)g->kw * g->oc;
    const int16_t zp = (int16_t)a->zp_in;
    const int8_t *x0 = ta_in_px(a, n, t->iy0 + t->khlo * g->dh, t->ix0 + t->kwlo * g->dw);
    const int8_t *w0 = a->w + ((size_t)t->khlo * g->kw + t->kwlo) * g->oc;
    const int32_t *pp = wk->params;
    int32_t c = 0;
    for (int32_t gi = 0; gi < wk->groups; gi++, c += 8, pp += 32) {
        int32x4_t ev = vld1q_s32(pp), od = vld1q_s32(pp + 4);
        const int8_t *xr = x0 + c / a->mult, *wr = w0 + c;
        for (int32_t kh = t->khlo; kh < t->khhi; kh++, xr += xs_h, wr += ws_h) {
            const int8_t *xp = xr, *wp = wr;
            for (int32_t kw = t->kwlo; kw < t->kwhi; kw++, xp += xs_w, wp += ws_w) {
                /* Multiplier 1: eight input channels; a multiple of eight:
                 * the group's one input channel in every lane. */
                int16x8_t x = bcast ? vdupq_n_s16((int16_t)(*xp - zp)) : vsubq_n_s16(vldrbq_s16(xp), zp);
                int16x8_t w = vldrbq_s16(wp);
                ev = vaddq_s32(ev, vmullbq_int_s16(x, w));
                od = vaddq_s32(od, vmulltq_int_s16(x, w));
            }
        }
        /* ev holds channels c, c+2, c+4, c+6 and od the odd ones: requantise
         * each, then narrow them back into channel order (VMOVNB/VMOVNT). */
        int32x4_t re = ta_rq_apply4(&a->rq, ev, vld1q_s32(pp + 8), vld1q_s32(pp + 16), vld1q_s32(pp + 24));
        int32x4_t ro = ta_rq_apply4(&a->rq, od, vld1q_s32(pp + 12), vld1q_s32(pp + 20), vld1q_s32(pp + 28));
        int16x8_t v = vmovnbq_s32(vdupq_n_s16(0), re);
        vstrbq_s16(y + c, vmovntq_s32(v, ro));
    }
    for (; c < g->oc; c++) y[c] = channel_scalar(a, t, n, c);
}

/* Eight vectors of four per group of eight channels. */
static uint64_t dw_scratch_bytes(int32_t taps, int32_t oc) {
    (void)taps;
    return 128u * (uint64_t)(oc / 8);
}

#else /* DSP */

/* Per call, in scratch: the channel table (bias, requantisation) and the
 * weights of each group of four channels repacked tap by tap as the two
 * 16-bit pair words SMLABB/SMLATT take, (w_c, w_c+2) and (w_c+1, w_c+3),
 * so a tap costs one LDRD of weights. */
typedef struct {
    const ta_chq_t *ch;
    const int32_t *wq; /* [group][tap][2] */
    int32_t taps, groups;
} dw_work_t;

/* A 16-bit pair word (lo, hi). */
static inline int32_t dw_pair(int32_t lo, int32_t hi) {
    return (int32_t)((uint32_t)(uint16_t)lo | ((uint32_t)(uint16_t)hi << 16));
}

/* `k` is 2 in the doubled form (ta_requant_dbl_prep: accumulators of 2 * x
 * * w from a doubled bias), 1 otherwise; 2 * w still fits a 16-bit lane. */
static void dw_pack(const ta_conv_args_t *a, int32_t *wq, int32_t taps, int32_t groups, int32_t k) {
    for (int32_t gi = 0; gi < groups; gi++)
        for (int32_t t = 0; t < taps; t++, wq += 2) {
            const int8_t *w = a->w + (size_t)t * a->g.oc + 4 * gi;
            wq[0] = dw_pair(k * w[0], k * w[2]);
            wq[1] = dw_pair(k * w[1], k * w[3]);
        }
}

/* Doubled form for every channel of the groups, or for none: the
 * accumulators of a group are bounded by |bias| + (128 + |zp_in|) * sum |w|
 * (per channel sums first computed into `tmp`, 4 * oc bytes). Returns 1
 * when the call runs doubled; 0 leaves `ch` as ta_requant_prep made it. */
static int dw_dbl_prep(const ta_conv_args_t *a, ta_chq_t *ch, int32_t taps, int32_t groups, uint32_t *tmp) {
    const ta_requant_t *rq = &a->rq;
    if (a->zp_in < -128 || a->zp_in > 127 || rq->act_min < -128 || rq->act_max > 127 || groups == 0) return 0;
    for (int32_t c = 0; c < a->g.oc; c++) {
        uint32_t s = 0;
        for (int32_t t = 0; t < taps; t++) {
            int32_t w = a->w[(size_t)t * a->g.oc + c];
            s += (uint32_t)(w < 0 ? -w : w);
        }
        tmp[c] = s;
    }
    ta_requant_dbl_prep(rq, ch, a->g.oc, 128 + (a->zp_in < 0 ? -a->zp_in : a->zp_in), tmp);
    int all = 1;
    for (int32_t c = 0; c < 4 * groups; c++)
        if (!(ch[c].lsh & TA_CHQ_DBL)) all = 0;
    if (all) return 1;
    ta_requant_prep(rq, a->bias, a->g.oc, ch); /* undo: it succeeded once */
    return 0;
}

/* acc[0..3] of channels c..c+3 over `n` taps of one window row: x words
 * `xs` bytes apart, packed weights consecutive. The tap body is assembly
 * (a loop in assembly needs one register more than GCC can give it). */
static inline void dw_row(const int8_t *xp, const int32_t *wp, int32_t n, int32_t xs, int32_t off, int32_t acc[4]) {
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    for (int32_t j = 0; j < n; j++) {
        int32_t xw, xe, we, wo;
        __asm__ volatile(
            "ldr     %[xw], [%[xp]]\n\t"
            "add     %[xp], %[xp], %[xs]\n\t"
            "ldrd    %[we], %[wo], [%[wp]], #8\n\t"
            "sxtab16 %[xe], %[off], %[xw]\n\t"
            "sxtab16 %[xw], %[off], %[xw], ror #8\n\t"
            "smlabb  %[a0], %[xe], %[we], %[a0]\n\t"
            "smlatt  %[a2], %[xe], %[we], %[a2]\n\t"
            "smlabb  %[a1], %[xw], %[wo], %[a1]\n\t"
            "smlatt  %[a3], %[xw], %[wo], %[a3]\n\t"
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [xp] "+r"(xp), [wp] "+r"(wp),
              [xw] "=&r"(xw), [xe] "=&r"(xe), [we] "=&r"(we), [wo] "=&r"(wo)
            : [xs] "r"(xs), [off] "r"(off)
            : "memory");
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/* dw_row when the four channels share one input channel (channel
 * multiplier a multiple of four): the input byte is loaded once and put in
 * both 16-bit lanes (x - zp, x - zp). */
static inline void dw_row_bcast(const int8_t *xp, const int32_t *wp, int32_t n, int32_t xs, int32_t off,
                                int32_t acc[4]) {
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    for (int32_t j = 0; j < n; j++) {
        int32_t xw, xe, we, wo;
        __asm__ volatile(
            "ldrb    %[xw], [%[xp]]\n\t"
            "add     %[xp], %[xp], %[xs]\n\t"
            "ldrd    %[we], %[wo], [%[wp]], #8\n\t"
            "orr     %[xw], %[xw], %[xw], lsl #16\n\t"
            "sxtab16 %[xe], %[off], %[xw]\n\t"
            "smlabb  %[a0], %[xe], %[we], %[a0]\n\t"
            "smlatt  %[a2], %[xe], %[we], %[a2]\n\t"
            "smlabb  %[a1], %[xe], %[wo], %[a1]\n\t"
            "smlatt  %[a3], %[xe], %[wo], %[a3]\n\t"
            : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [xp] "+r"(xp), [wp] "+r"(wp),
              [xw] "=&r"(xw), [xe] "=&r"(xe), [we] "=&r"(we), [wo] "=&r"(wo)
            : [xs] "r"(xs), [off] "r"(off)
            : "memory");
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/* Requantisation modes of a call: ta_requant_fast, ta_requant_simple, and
 * the doubled form (one SMMLAR, ta_requant_dbl_mla) with SSAT alone or
 * followed by the act clamp (bounds inside int8, so the SSAT changes
 * nothing the clamp keeps). */
enum { DW_RQ_FAST, DW_RQ_SIMPLE, DW_RQ_DBL, DW_RQ_DBL_CLAMP };

static inline __attribute__((always_inline)) int8_t dw_requant(const ta_requant_t *rq, const ta_chq_t *p, int32_t acc,
                                                               int mode) {
    if (mode == DW_RQ_SIMPLE) return ta_requant_simple(rq, p, acc);
    if (mode == DW_RQ_FAST) return ta_requant_fast(rq, p, acc);
    int32_t q = ta_requant_dbl_mla(p, acc);
    if (mode == DW_RQ_DBL_CLAMP) {
        q = q < rq->act_min ? rq->act_min : q;
        q = q > rq->act_max ? rq->act_max : q;
    }
    return (int8_t)q;
}

/* One tap of dw_row (same registers) as an assembler macro body for the
 * straight-line rows, its input word at `addr` (an addressing mode off the
 * row pointer: no pointer step per tap). */
#define DW_TAP_AT(addr)                             \
    "ldr     %[xw], " addr "\n\t"                   \
    "ldrd    %[we], %[wo], [%[wp]], #8\n\t"         \
    "sxtab16 %[xe], %[off], %[xw]\n\t"              \
    "sxtab16 %[xw], %[off], %[xw], ror #8\n\t"      \
    "smlabb  %[a0], %[xe], %[we], %[a0]\n\t"        \
    "smlatt  %[a2], %[xe], %[we], %[a2]\n\t"        \
    "smlabb  %[a1], %[xw], %[wo], %[a1]\n\t"        \
    "smlatt  %[a3], %[xw], %[wo], %[a3]\n\t"

/* dw_row for a row of exactly three taps (every 3x3 window row inside the
 * image), straight-line, the taps loaded at [x], [x + s] and [x + 2s]
 * (register offset, LSL #1): the row pointer is not stepped at all. For a
 * whole 3x3 window (every interior pixel), three of these in a row.
 * Returns the packed-weight pointer after the row. */
static inline __attribute__((always_inline)) const int32_t *
dw_row3_at(const int8_t *xp, const int32_t *wp, int32_t xs, int32_t off, int32_t *a0, int32_t *a1, int32_t *a2,
           int32_t *a3) {
    int32_t xw, xe, we, wo;
    __asm__ volatile(DW_TAP_AT("[%[xp]]") DW_TAP_AT("[%[xp], %[xs]]") DW_TAP_AT("[%[xp], %[xs], lsl #1]")
                     : [a0] "+r"(*a0), [a1] "+r"(*a1), [a2] "+r"(*a2), [a3] "+r"(*a3), [wp] "+r"(wp),
                       [xw] "=&r"(xw), [xe] "=&r"(xe), [we] "=&r"(we), [wo] "=&r"(wo)
                     : [xp] "r"(xp), [xs] "r"(xs), [off] "r"(off)
                     : "memory");
    return wp;
}

/* dw_row3_at for the two in-image taps of a 3-wide window on the left or
 * right image edge (or a 2-wide window). */
static inline __attribute__((always_inline)) const int32_t *
dw_row2_at(const int8_t *xp, const int32_t *wp, int32_t xs, int32_t off, int32_t *a0, int32_t *a1, int32_t *a2,
           int32_t *a3) {
    int32_t xw, xe, we, wo;
    __asm__ volatile(DW_TAP_AT("[%[xp]]") DW_TAP_AT("[%[xp], %[xs]]")
                     : [a0] "+r"(*a0), [a1] "+r"(*a1), [a2] "+r"(*a2), [a3] "+r"(*a3), [wp] "+r"(wp),
                       [xw] "=&r"(xw), [xe] "=&r"(xe), [we] "=&r"(we), [wo] "=&r"(wo)
                     : [xp] "r"(xp), [xs] "r"(xs), [off] "r"(off)
                     : "memory");
    return wp;
}

/* Window paths of pixel_dsp: channel multiplier a multiple of 4 (one
 * input byte per group), rows of three or two in-image taps of a window
 * at most 3 wide, any other window. */
enum { DW_P_BCAST, DW_P_ROW3, DW_P_ROW2, DW_P_ANY };

/* The group loop of pixel_dsp for one path, from x0 (the first in-image
 * tap of channel 0). */
static inline __attribute__((always_inline)) void dw_groups(const ta_conv_args_t *a, const dw_work_t *wk,
                                                           const ta_taps_t *t, int32_t n, int8_t *y,
                                                           const int8_t *x0, int simple, int path) {
    const tk_geom_t *g = &a->g;
    const int32_t xs_w = g->dw * g->ic;
    const size_t xs_h = (size_t)g->dh * g->iw * g->ic;
    const int32_t off = (int32_t)ta_lane_offset(a->zp_in), cols = t->kwhi - t->kwlo;
    int32_t c = 0;
    for (int32_t gi = 0; gi < wk->groups; gi++, c += 4) {
        const ta_chq_t *ch = wk->ch + c;
        int32_t acc[4] = {ch[0].bias, ch[1].bias, ch[2].bias, ch[3].bias};
        if (path == DW_P_BCAST) {
            if (cols > 0) {
                const int8_t *xr = x0 + c / a->mult;
                const int32_t *wr = wk->wq + ((size_t)gi * wk->taps + (size_t)t->khlo * g->kw + t->kwlo) * 2;
                for (int32_t kh = t->khlo; kh < t->khhi; kh++, xr += xs_h, wr += 2 * g->kw)
                    dw_row_bcast(xr, wr, cols, xs_w, off, acc);
            }
        } else if (path == DW_P_ROW3) {
            /* Whole window rows: the packed weights run on row after row. */
            int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
            const int8_t *xr = x0 + c;
            const int32_t *wr = wk->wq + ((size_t)gi * wk->taps + (size_t)t->khlo * 3) * 2;
            for (int32_t kh = t->khlo; kh < t->khhi; kh++, xr += xs_h)
                wr = dw_row3_at(xr, wr, xs_w, off, &a0, &a1, &a2, &a3);
            acc[0] = a0;
            acc[1] = a1;
            acc[2] = a2;
            acc[3] = a3;
        } else if (path == DW_P_ROW2) {
            /* Edge columns of a 3x3 (or whole rows of a 2-wide window):
             * straight-line pairs, skipping the out-of-image tap's weights. */
            int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
            const int8_t *xr = x0 + c;
            const int32_t skip = 2 * (g->kw - 2);
            const int32_t *wr = wk->wq + ((size_t)gi * wk->taps + (size_t)t->khlo * g->kw + t->kwlo) * 2;
            for (int32_t kh = t->khlo; kh < t->khhi; kh++, xr += xs_h)
                wr = dw_row2_at(xr, wr, xs_w, off, &a0, &a1, &a2, &a3) + skip;
            acc[0] = a0;
            acc[1] = a1;
            acc[2] = a2;
            acc[3] = a3;
        } else if (cols > 0) {
            const int8_t *xr = x0 + c;
            const int32_t *wr = wk->wq + ((size_t)gi * wk->taps + (size_t)t->khlo * g->kw + t->kwlo) * 2;
            for (int32_t kh = t->khlo; kh < t->khhi; kh++, xr += xs_h, wr += 2 * g->kw)
                dw_row(xr, wr, cols, xs_w, off, acc);
        }
        for (int32_t j = 0; j < 4; j++)
            y[c + j] = dw_requant(&a->rq, &ch[j], acc[j], simple);
    }
    for (; c < g->oc; c++) y[c] = channel_scalar(a, t, n, c);
}

/* `simple` (a DW_RQ_ mode) is a constant at each call (see ta_depthwise),
 * so the requantisations are specialised copies, not a branch per output. */
static inline __attribute__((always_inline)) void pixel_dsp(const ta_conv_args_t *a, const dw_work_t *wk,
                                                           const ta_taps_t *t, int32_t n, int8_t *y, int simple) {
    const tk_geom_t *g = &a->g;
    const int32_t xs_w = g->dw * g->ic;
    const size_t xs_h = (size_t)g->dh * g->iw * g->ic;
    const int32_t off = (int32_t)ta_lane_offset(a->zp_in), cols = t->kwhi - t->kwlo;
    const int8_t *x0 = ta_in_px(a, n, t->iy0 + t->khlo * g->dh, t->ix0 + t->kwlo * g->dw);
    int32_t c = 0;
    if (a->mult == 1 && cols == 3 && g->kw == 3 && t->khhi - t->khlo == 3) {
        /* A whole 3x3 window (every interior pixel): the path is chosen
         * once per pixel and the group loop keeps only its pointers live. */
        const ta_chq_t *ch = wk->ch;
        const int32_t *wr = wk->wq + (size_t)t->khlo * 3 * 2;
        const int8_t *xr = x0;
        for (int32_t gi = 0; gi < wk->groups; gi++, c += 4, ch += 4, xr += 4, wr += 2 * wk->taps) {
            int32_t a0 = ch[0].bias, a1 = ch[1].bias, a2 = ch[2].bias, a3 = ch[3].bias;
            const int32_t *wp = dw_row3_at(xr, wr, xs_w, off, &a0, &a1, &a2, &a3);
            wp = dw_row3_at(xr + xs_h, wp, xs_w, off, &a0, &a1, &a2, &a3);
            dw_row3_at(xr + 2 * xs_h, wp, xs_w, off, &a0, &a1, &a2, &a3);
            y[c] = dw_requant(&a->rq, &ch[0], a0, simple);
            y[c + 1] = dw_requant(&a->rq, &ch[1], a1, simple);
            y[c + 2] = dw_requant(&a->rq, &ch[2], a2, simple);
            y[c + 3] = dw_requant(&a->rq, &ch[3], a3, simple);
        }
        for (; c < g->oc; c++) y[c] = channel_scalar(a, t, n, c);
        return;
    }
    /* The other paths, each with its own group loop (`path` a constant in
     * each copy of dw_groups). */
    if (a->mult != 1)
        dw_groups(a, wk, t, n, y, x0, simple, DW_P_BCAST);
    else if (cols == 3 && g->kw == 3)
        dw_groups(a, wk, t, n, y, x0, simple, DW_P_ROW3);
    else if (cols == 2 && g->kw <= 3)
        dw_groups(a, wk, t, n, y, x0, simple, DW_P_ROW2);
    else
        dw_groups(a, wk, t, n, y, x0, simple, DW_P_ANY);
}

/* Channel table, then the packed weights: 16 bytes per channel, 8 per tap
 * and group of four. */
static uint64_t dw_scratch_bytes(int32_t taps, int32_t oc) {
    return 16u * (uint64_t)oc + 8u * (uint64_t)taps * (uint64_t)(oc / 4);
}

#endif

int ta_depthwise(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    ta_conv_args_t a;
    if (ta_conv_args(plan, op, mem, 1, &a)) return TA_FALLBACK;
    /* Channel multiplier 1, or every channel group sharing one input channel
     * (a multiple of the group: 8 on MVE, 4 on DSP; e.g. a one-channel
     * first layer lowered to depthwise). */
    if (a.mult != 1 && a.mult % (TA_MVE ? 8 : 4) != 0) return TA_FALLBACK;
    const tk_geom_t *g = &a.g;
    dw_work_t work;
    int32_t taps = g->kh * g->kw;
    uint32_t need = ta_round16(dw_scratch_bytes(taps, g->oc));
    uint8_t *scratch = ta_scratch(mem, need);
    if (need && !scratch) return TA_FALLBACK;
#if TA_MVE
    work.groups = g->oc / 8;
    work.params = (const int32_t *)(void *)scratch;
    if (dw_prep(&a, (int32_t *)(void *)scratch, work.groups)) return TA_FALLBACK;
#else
    ta_chq_t *ch = (ta_chq_t *)(void *)scratch;
    int32_t *wq = (int32_t *)(void *)(scratch + 16u * (size_t)g->oc);
    if (ta_requant_prep(&a.rq, a.bias, g->oc, ch)) return TA_FALLBACK;
    work.ch = ch;
    work.wq = wq;
    work.taps = taps;
    work.groups = g->oc / 4;
    int simple = ta_requant_is_simple(&a.rq, ch, g->oc) ? DW_RQ_SIMPLE : DW_RQ_FAST;
    /* The per-channel |w| sums borrow the packed weights' space. */
    int dbl = 8u * (uint64_t)taps * (uint64_t)work.groups >= 4u * (uint64_t)g->oc &&
              dw_dbl_prep(&a, ch, taps, work.groups, (uint32_t *)(void *)wq);
    if (dbl) simple = simple == DW_RQ_SIMPLE ? DW_RQ_DBL : DW_RQ_DBL_CLAMP;
    dw_pack(&a, wq, taps, work.groups, dbl ? 2 : 1);
#endif
    /* The window rows depend on the output row only, the output address
     * steps by oc: both kept out of the pixel loop. */
    const int32_t last_ix0 = g->iw - 1 - (g->kw - 1) * g->dw;
    for (int32_t n = 0; n < g->n; n++)
        for (int32_t oh = 0; oh < g->oh; oh++) {
            ta_taps_t t;
            t.iy0 = ta_in_row0(g, oh);
            tk_taps(t.iy0, g->kh, g->dh, g->ih, &t.khlo, &t.khhi);
            int8_t *y = ta_out_px(&a, n, oh, 0);
            for (int32_t ow = 0; ow < g->ow; ow++, y += g->oc) {
                t.ix0 = ow * g->sw - g->pl;
                if (t.ix0 >= 0 && t.ix0 <= last_ix0) {
                    t.kwlo = 0; /* the whole window row is in the image */
                    t.kwhi = g->kw;
                } else {
                    tk_taps(t.ix0, g->kw, g->dw, g->iw, &t.kwlo, &t.kwhi);
                }
#if TA_MVE
                if (a.mult == 1)
                    pixel_mve(&a, &work, &t, n, y, 0);
                else
                    pixel_mve(&a, &work, &t, n, y, 1);
#else
                if (simple == DW_RQ_DBL)
                    pixel_dsp(&a, &work, &t, n, y, DW_RQ_DBL);
                else if (simple == DW_RQ_DBL_CLAMP)
                    pixel_dsp(&a, &work, &t, n, y, DW_RQ_DBL_CLAMP);
                else if (simple == DW_RQ_SIMPLE)
                    pixel_dsp(&a, &work, &t, n, y, DW_RQ_SIMPLE);
                else
                    pixel_dsp(&a, &work, &t, n, y, DW_RQ_FAST);
#endif
            }
        }
    return 0;
}

uint32_t ta_depthwise_scratch(const tigris_plan_t *plan, const tigris_op_t *op) {
    tk_view_t ov;
    if (tk_view(plan, tk_out_idx(plan, op, 0), &ov) || ov.rank != 4) return 0;
    return ta_round16(dw_scratch_bytes((int32_t)op->spatial.kernel_h * op->spatial.kernel_w, ov.dim[3]));
}
