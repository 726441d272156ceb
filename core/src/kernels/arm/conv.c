/*
 * conv.c - accelerated int8 Conv2D (and its scratch twin).
 *
 * Routing (ta_conv): every int8 conv the reference accepts runs here
 * (a multiplier of INT32_MIN or missing scratch: the reference); the
 * variant only changes where an output pixel's column (its kh*kw*ic window
 * in OHWI order) comes from:
 *   - 1x1: the input pixel itself, read in place (no copy), and an im2col
 *     column of zero points for a pixel that falls in the padding;
 *   - window rows of whole 4-byte blocks (DSP): widened straight from the
 *     input (widen_window), padding rows as zero pairs;
 *   - generic (any kernel, stride, dilation, padding): im2col into scratch,
 *     padding taps filled with the input zero point (they then add
 *     (zp - zp) * w = 0, the reference's skipped taps).
 * Columns are multiplied against OC weight rows:
 *   - DSP (M4/M7): each column widened once to 16-bit pairs (-zp_in added),
 *     then two pixels x two output channels per pass (ta_q15_dot_2x2), a
 *     last odd pixel one x four (ta_q15_dot_1x4), requantisation from a
 *     per-call channel table; small weight sets widened to pairs once per
 *     call (widen_weights) so the passes need no SXTB16
 *     (ta_q15w_dot_2x2); other rows of k % 4 != 0 copied zero-padded per
 *     call (pad_rows) so no scalar tail runs per output;
 *   - MVE (M55): the zero point folded in through per-channel weight sums,
 *     four outputs requantised per vector; weight sets up to 8 KiB copied
 *     per call zero-padded to 16-byte blocks (pad_run: every block
 *     unpredicated, two pixels per weight load), else one pixel x four
 *     output channels over the raw rows (ta_mve_dot_1x4, tail predicated).
 * Scratch (conv_scratch_bytes): DSP two int8 columns, their widened pairs,
 * the channel table and the weight copy (widened or padded rows); MVE per
 * channel its start value and requantisation parameters (16 bytes), plus
 * two padded columns and the padded weight copy (pad_run) or one column.
 */
#include "conv_args.h"
#include "dot_dsp.h"
#include "dot_mve.h"
#include "requant_mve.h"

/* Word-at-a-time copy and fill for im2col: the taps are short (ic bytes,
 * or kw * ic) and a library call per tap costs more than the copy. */
static inline void col_copy(int8_t *dst, const int8_t *src, size_t n) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint32_t v = ta_ld32(src + i);
        memcpy(dst + i, &v, 4);
    }
    for (; i < n; i++) dst[i] = src[i];
}

static inline void col_fill(int8_t *dst, int zp, size_t n) {
    uint32_t v = 0x01010101u * (uint8_t)zp;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) memcpy(dst + i, &v, 4);
    for (; i < n; i++) dst[i] = (int8_t)zp;
}

/* Fill col with the window of output pixel (n, oh, ow). */
TA_INLINE void im2col(const ta_conv_args_t *a, int32_t n, int32_t oh, int32_t ow, int8_t *col) {
    const tk_geom_t *g = &a->g;
    int32_t ybase = ta_in_row0(g, oh), xbase = ow * g->sw - g->pl;
    size_t tap = (size_t)g->ic, row = (size_t)g->kw * tap;
    int zp = (int)(int8_t)a->zp_in;
    int row_inside = g->dw == 1 && xbase >= 0 && xbase + g->kw <= g->iw;
    if (row_inside && ybase >= 0 && ybase + (g->kh - 1) * g->dh < g->ih) {
        /* The whole window inside the input (most pixels): one address,
         * then a fixed step of dh input rows per window row. For short
         * windows (3x3x3: 9-byte rows) the per-row address arithmetic
         * otherwise costs as much as the copy. */
        const int8_t *src = ta_in_px(a, n, ybase, xbase);
        size_t step = (size_t)g->dh * (size_t)g->iw * tap;
        for (int32_t kh = 0; kh < g->kh; kh++, col += row, src += step) col_copy(col, src, row);
        return;
    }
    for (int32_t kh = 0; kh < g->kh; kh++, col += row) {
        int32_t iy = ybase + kh * g->dh;
        if (iy < 0 || iy >= g->ih) {
            col_fill(col, zp, row);
        } else if (row_inside) {
            col_copy(col, ta_in_px(a, n, iy, xbase), row);
        } else {
            for (int32_t kw = 0; kw < g->kw; kw++) {
                int32_t ix = xbase + kw * g->dw;
                if (ix < 0 || ix >= g->iw)
                    col_fill(col + (size_t)kw * tap, zp, tap);
                else
                    col_copy(col + (size_t)kw * tap, ta_in_px(a, n, iy, ix), tap);
            }
        }
    }
}

/* Column of pixel (n, oh, ow): in place for a 1x1 kernel whose tap is
 * inside the input, else im2col into buf. */
TA_INLINE const int8_t *column(const ta_conv_args_t *a, int one_by_one, int32_t n, int32_t oh, int32_t ow, int8_t *buf) {
    const tk_geom_t *g = &a->g;
    if (one_by_one) {
        int32_t iy = ta_in_row0(g, oh), ix = ow * g->sw - g->pl;
        if (iy >= 0 && iy < g->ih && ix >= 0 && ix < g->iw) return ta_in_px(a, n, iy, ix);
    }
    im2col(a, n, oh, ow, buf);
    return buf;
}

#if TA_MVE

/* Per call, in scratch: for each group of four output channels, four
 * vectors: start values (bias - zp_in * sum(w), the accumulator each raw dot
 * product is added to), multipliers, left shifts, negated right shifts.
 * Channels past the last whole group keep only their start value. */
typedef struct {
    const int32_t *p; /* [group][4][4], then start values of the rest */
} mve_work_t;

/* Channel oc's lane in its group's four vectors: start value, multiplier,
 * left shift, negated right shift (both paths' layout). */
static inline void mve_lane(const ta_conv_args_t *a, int32_t oc, int32_t start, int32_t *p) {
    int32_t *g = p + 16 * (oc / 4), lane = oc % 4;
    uint32_t q = (uint32_t)oc * a->rq.step;
    int32_t sh = a->rq.shift[q];
    g[lane] = start;
    g[4 + lane] = a->rq.mult[q];
    g[8 + lane] = sh > 0 ? (sh > 31 ? 31 : sh) : 0;
    g[12 + lane] = sh > 0 ? 0 : (sh < -31 ? -31 : sh);
}

static void mve_prep(const ta_conv_args_t *a, int32_t k, int32_t *p) {
    int32_t noc = a->g.oc, groups = noc / 4;
    for (int32_t oc = 0; oc < noc; oc++) {
        int32_t s = ta_mve_sum(a->w + (size_t)oc * k, k);
        int32_t start = fx_wsub(ta_bias(a, oc), fx_wmul(a->zp_in, s));
        if (oc >= 4 * groups) {
            p[16 * groups + (oc - 4 * groups)] = start;
            continue;
        }
        mve_lane(a, oc, start, p);
    }
}

/* One pixel: all output channels of column c into y. */
TA_INLINE void mve_pixel(const ta_conv_args_t *a, const int8_t *c, int32_t k, const int32_t *p, int8_t *y) {
    int32_t oc = 0, noc = a->g.oc;
    for (; oc + 4 <= noc; oc += 4, p += 16) {
        int32_t acc[4] = {p[0], p[1], p[2], p[3]};
        ta_mve_dot_1x4(c, a->w + (size_t)oc * k, k, k, acc);
        vstrbq_s32(y + oc, ta_rq_apply4(&a->rq, vld1q_s32(acc), vld1q_s32(p + 4), vld1q_s32(p + 8), vld1q_s32(p + 12)));
    }
    for (int32_t j = 0; oc < noc; oc++, j++)
        y[oc] = ta_requant(&a->rq, oc, ta_mve_dot(c, a->w + (size_t)oc * k, k, p[j]));
}

/* The padded path (every kernel but a 1x1 with k % 16 != 0, which reads
 * its columns in place on the generic path; weight copy up to PAD_CAP
 * bytes): the weight rows are copied once per call zero-padded to
 * kp = k rounded up to 16, the four rows of each channel group interleaved
 * block by block (one pointer walks them), and the channel count rounded
 * up to 4 with zero rows. The im2col columns have the same kp bytes: the
 * bytes past k meet zero weights, so they add nothing, and every block
 * runs unpredicated. */
#define PAD_CAP 8192u

static int pad_path(int32_t k, int32_t oc, int one_by_one) {
    uint64_t kp = ((uint64_t)k + 15u) & ~(uint64_t)15u, ocp = ((uint64_t)oc + 3u) & ~(uint64_t)3u;
    return (!one_by_one || k % 16 == 0) && kp * ocp <= PAD_CAP;
}

/* Start values and requantisation vectors for ocp channels (phantom
 * channels past oc get zeros; their outputs are never stored), and the
 * interleaved padded weight copy wp. */
static void pad_prep(const ta_conv_args_t *a, int32_t k, int32_t kp, int32_t ocp, int32_t *p, int8_t *wp) {
    int32_t noc = a->g.oc, nb = kp / 16;
    memset(p, 0, (size_t)ocp * 16u);
    if (noc != ocp) memset(wp + (size_t)(noc / 4) * (size_t)nb * 64u, 0, (size_t)nb * 64u); /* phantom rows */
    for (int32_t oc = 0; oc < noc; oc++) {
        const int8_t *w = a->w + (size_t)oc * k;
        int32_t start = fx_wsub(ta_bias(a, oc), fx_wmul(a->zp_in, ta_mve_sum(w, k)));
        mve_lane(a, oc, start, p);
        const int32_t lane = oc % 4;
        int8_t *dst = wp + (size_t)(oc / 4) * (size_t)nb * 64u + (size_t)lane * 16u;
        /* Whole blocks, then the last one loaded under a predicate: its
         * lanes past k load as zero, which is the padding. */
        int32_t b = 0;
        for (; 16 * b + 16 <= k; b++, dst += 64) vst1q_s8(dst, vld1q_s8(w + 16 * b));
        if (b < nb) vst1q_s8(dst, vldrbq_z_s8(w + 16 * b, vctp8q((uint32_t)(k - 16 * b))));
    }
}

/* len bytes from src (or of zp when src is NULL) to dst: whole 16-byte
 * blocks, then one predicated block. Window runs here are short (ic or
 * kw*ic bytes), so one or two vector moves replace a byte loop. */
TA_INLINE int8_t *pad_run_copy(int8_t *dst, const int8_t *src, int8x16_t zp, int32_t len) {
    int32_t i = 0;
    for (; i + 16 <= len; i += 16) vst1q_s8(dst + i, src ? vld1q_s8(src + i) : zp);
    if (i < len) {
        mve_pred16_t p = vctp8q((uint32_t)(len - i));
        vstrbq_p_s8(dst + i, src ? vldrbq_z_s8(src + i, p) : zp, p);
    }
    return dst + len;
}

/* im2col of pixel (n, oh, ow) into col (k bytes; the padded tail is left
 * alone), padding taps filled with zp_in like im2col. */
static void pad_col(const ta_conv_args_t *a, int32_t n, int32_t oh, int32_t ow, int8_t *col) {
    const tk_geom_t *g = &a->g;
    int32_t ybase = ta_in_row0(g, oh), xbase = ow * g->sw - g->pl;
    int32_t ic = g->ic, row = g->kw * ic;
    int8x16_t zp = vdupq_n_s8((int8_t)a->zp_in);
    int row_inside = g->dw == 1 && xbase >= 0 && xbase + g->kw <= g->iw;
    if (row_inside && ybase >= 0 && ybase + (g->kh - 1) * g->dh < g->ih) {
        /* The window inside the input (most pixels): one address, a fixed
         * step per window row, and for rows of up to 16 bytes (3x3x3: 9)
         * one predicated load and store each. */
        const int8_t *src = ta_in_px(a, n, ybase, xbase);
        size_t step = (size_t)g->dh * (size_t)g->iw * (size_t)ic;
        if (row <= 16) {
            mve_pred16_t p = vctp8q((uint32_t)row);
            for (int32_t kh = 0; kh < g->kh; kh++, col += row, src += step)
                vstrbq_p_s8(col, vldrbq_z_s8(src, p), p);
        } else {
            for (int32_t kh = 0; kh < g->kh; kh++, src += step) col = pad_run_copy(col, src, zp, row);
        }
        return;
    }
    for (int32_t kh = 0; kh < g->kh; kh++) {
        int32_t iy = ybase + kh * g->dh;
        if (iy < 0 || iy >= g->ih) {
            col = pad_run_copy(col, NULL, zp, row);
        } else if (row_inside) {
            col = pad_run_copy(col, ta_in_px(a, n, iy, xbase), zp, row);
        } else {
            for (int32_t kw = 0; kw < g->kw; kw++) {
                int32_t ix = xbase + kw * g->dw;
                col = pad_run_copy(col, ix < 0 || ix >= g->iw ? NULL : ta_in_px(a, n, iy, ix), zp, ic);
            }
        }
    }
}

/* Raw sums of column c against one interleaved group of four rows (nb
 * blocks), as a vector of the four channels. One pixel at a time: with two
 * pixels (eight scalar accumulators) GCC 12 spilled them every block. */
TA_INLINE int32x4_t pad_dot_1x4(const int8_t *c, const int8_t *w, int32_t nb) {
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int32_t b = 0; b < nb; b++, c += 16, w += 64) {
        int8x16_t x = vld1q_s8(c);
        a0 = vmladavaq_s8(a0, x, vld1q_s8(w));
        a1 = vmladavaq_s8(a1, x, vld1q_s8(w + 16));
        a2 = vmladavaq_s8(a2, x, vld1q_s8(w + 32));
        a3 = vmladavaq_s8(a3, x, vld1q_s8(w + 48));
    }
    int32x4_t r = vdupq_n_s32(a0);
    r = vsetq_lane_s32(a1, r, 1);
    r = vsetq_lane_s32(a2, r, 2);
    return vsetq_lane_s32(a3, r, 3);
}

/* Two columns against one group when nb is a compile-time 1 or 2 (k up to
 * 32): unrolled, the eight accumulators and up to four column vectors stay
 * in registers, and each weight load feeds two VMLADAVAs. */
TA_INLINE void pad_dot_2x4(const int8_t *c0, const int8_t *c1, const int8_t *w, int32_t nb, int32x4_t *s0,
                           int32x4_t *s1) {
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
    for (int32_t b = 0; b < nb; b++) {
        int8x16_t x0 = vld1q_s8(c0 + 16 * b), x1 = vld1q_s8(c1 + 16 * b);
        const int8_t *wb = w + 64 * b;
        int8x16_t v = vld1q_s8(wb);
        a0 = vmladavaq_s8(a0, x0, v);
        b0 = vmladavaq_s8(b0, x1, v);
        v = vld1q_s8(wb + 16);
        a1 = vmladavaq_s8(a1, x0, v);
        b1 = vmladavaq_s8(b1, x1, v);
        v = vld1q_s8(wb + 32);
        a2 = vmladavaq_s8(a2, x0, v);
        b2 = vmladavaq_s8(b2, x1, v);
        v = vld1q_s8(wb + 48);
        a3 = vmladavaq_s8(a3, x0, v);
        b3 = vmladavaq_s8(b3, x1, v);
    }
    int32x4_t r = vdupq_n_s32(a0), t = vdupq_n_s32(b0);
    r = vsetq_lane_s32(a1, r, 1);
    r = vsetq_lane_s32(a2, r, 2);
    *s0 = vsetq_lane_s32(a3, r, 3);
    t = vsetq_lane_s32(b1, t, 1);
    t = vsetq_lane_s32(b2, t, 2);
    *s1 = vsetq_lane_s32(b3, t, 3);
}

/* Requantise the four sums of group q (start values added) and store the
 * valid lanes at y. */
/* The loop's operands as locals: output stores are int8 and may alias
 * anything, so GCC reloads whatever it reads through a pointer (geometry,
 * requantisation bounds) after each store. */
typedef struct {
    int32_t noc, kh, kw, sw, pl, iw, ih, ic, dh, row, nb;
    size_t step;                /* input bytes between window rows */
    mve_pred16_t tail, rp;      /* last channel group's lanes; a window row's bytes */
    int32x4_t zp, lo, hi;       /* output zero point, act bounds */
    int8x16_t zp8;              /* input zero point (padding taps) */
    const int32_t *p;           /* per-group start values and requantisation */
    const int8_t *wp;           /* interleaved padded weights */
} pad_k_t;

/* Requantise the four sums of group q (start values added) and store the
 * valid lanes at y (ta_rq_apply4 with the bounds held in registers). */
TA_INLINE void pad_store(const pad_k_t *K, int32x4_t s, const int32_t *q, int8_t *y, int whole) {
    int32x4_t nr = vld1q_s32(q + 12);
    int32x4_t r = vqrdmulhq_s32(vshlq_s32(vaddq_s32(s, vld1q_s32(q)), vld1q_s32(q + 8)), vld1q_s32(q + 4));
    r = vrshlq_s32(vqaddq_s32(r, vshrq_n_s32(vandq_s32(r, nr), 31)), nr);
    r = vminq_s32(vmaxq_s32(vaddq_s32(r, K->zp), K->lo), K->hi);
    if (whole)
        vstrbq_s32(y, r);
    else
        vstrbq_p_s32(y, r, K->tail);
}

/* All channels of one pixel (column c) into y. */
TA_INLINE void pad_pixel1(const pad_k_t *K, const int8_t *c, int8_t *y) {
    const int32_t *q = K->p;
    const int8_t *w = K->wp;
    for (int32_t oc = 0; oc < K->noc; oc += 4, q += 16, w += (size_t)K->nb * 64u)
        pad_store(K, pad_dot_1x4(c, w, K->nb), q, y + oc, oc + 4 <= K->noc);
}

/* All channels of two pixels (columns c0, c1) into y0, y1. */
TA_INLINE void pad_pixel2(const pad_k_t *K, const int8_t *c0, const int8_t *c1, int8_t *y0, int8_t *y1) {
    const int32_t *q = K->p;
    const int8_t *w = K->wp;
    for (int32_t oc = 0; oc < K->noc; oc += 4, q += 16, w += (size_t)K->nb * 64u) {
        int32x4_t s0, s1;
        if (K->nb == 1 || K->nb == 2) {
            pad_dot_2x4(c0, c1, w, K->nb, &s0, &s1);
        } else {
            s0 = pad_dot_1x4(c0, w, K->nb);
            s1 = pad_dot_1x4(c1, w, K->nb);
        }
        int whole = oc + 4 <= K->noc;
        pad_store(K, s0, q, y0 + oc, whole);
        pad_store(K, s1, q, y1 + oc, whole);
    }
}

/* One window row of K->row bytes from src (or zp when src is NULL);
 * small: a compile-time row <= 16 (one predicated move). */
TA_INLINE void pad_row(const pad_k_t *K, int small, int8_t *c, const int8_t *src) {
    if (small)
        vstrbq_p_s8(c, src ? vldrbq_z_s8(src, K->rp) : K->zp8, K->rp);
    else
        pad_run_copy(c, src, K->zp8, K->row);
}

/* A window inside the input across but cut at the top or bottom (dilation
 * 1 across): in-image rows moved, the others zp-filled. Out of line, it
 * keeps the common loop's code as it was. */
__attribute__((noinline)) static void pad_col_tb(const pad_k_t *K, const int8_t *img, int32_t yb, int32_t xb,
                                                  int8_t *col) {
    size_t line = (size_t)K->iw * (size_t)K->ic;
    for (int32_t kh = 0, iy = yb; kh < K->kh; kh++, col += K->row, iy += K->dh)
        pad_row(K, K->row <= 16, col, iy >= 0 && iy < K->ih ? img + (size_t)iy * line + (size_t)xb * (size_t)K->ic : NULL);
}

/* Column of pixel (n, oh, ow). rows: the input row of the window's first
 * row (column 0) when the window rows are all inside the input, else NULL.
 * direct (a 1x1 kernel, k a multiple of 16): the input pixel itself when
 * inside. fast (dilation 1 across): a window inside the input is kh row
 * moves; img (windows cut at the top or bottom only): pad_col_tb;
 * anything else (cut at the left or right, dilated across) pad_col.
 * rows is computed once per output row: an address computed per pixel
 * made GCC compile this loop worse (3x3x3 8.81 -> 8.22). */
TA_INLINE const int8_t *pad_column(const ta_conv_args_t *a, const pad_k_t *K, int direct, int small, const int8_t *rows,
                                   const int8_t *img, int32_t yb, int32_t n, int32_t oh, int32_t ow, int8_t *col) {
    int32_t xb = ow * K->sw - K->pl;
    if (rows && xb >= 0 && xb + K->kw <= K->iw) {
        const int8_t *src = rows + (size_t)xb * (size_t)K->ic;
        if (direct) return src;
        int8_t *c = col;
        for (int32_t kh = 0; kh < K->kh; kh++, c += K->row, src += K->step) pad_row(K, small, c, src);
        return col;
    }
    if (img && xb >= 0 && xb + K->kw <= K->iw) {
        pad_col_tb(K, img, yb, xb, col);
        return col;
    }
    pad_col(a, n, oh, ow, col);
    return col;
}

TA_INLINE void pad_loop(const ta_conv_args_t *a, int direct, int small, const int32_t *p, const int8_t *wp, int32_t nb, int8_t *c0,
                        int8_t *c1) {
    const tk_geom_t *g = &a->g;
    pad_k_t K;
    K.noc = g->oc, K.kh = g->kh, K.kw = g->kw, K.sw = g->sw, K.pl = g->pl, K.iw = g->iw, K.ic = g->ic;
    K.ih = g->ih, K.dh = g->dh;
    K.row = g->kw * g->ic, K.nb = nb, K.p = p, K.wp = wp;
    K.step = (size_t)g->dh * (size_t)g->iw * (size_t)g->ic;
    K.tail = vctp32q((uint32_t)(g->oc & 3));
    K.rp = vctp8q((uint32_t)(K.row < 16 ? K.row : 16));
    K.zp8 = vdupq_n_s8((int8_t)a->zp_in);
    K.zp = vdupq_n_s32(a->rq.zp_out), K.lo = vdupq_n_s32(a->rq.act_min), K.hi = vdupq_n_s32(a->rq.act_max);
    int fast = direct || g->dw == 1;
    int32_t noh = g->oh, now = g->ow, nn = g->n, span = (g->kh - 1) * g->dh;
    size_t line = (size_t)g->iw * (size_t)g->ic;
    for (int32_t n = 0; n < nn; n++) {
        const int8_t *img = ta_in_px(a, n, 0, 0);
        for (int32_t oh = 0; oh < noh; oh++) {
            int32_t yb = ta_in_row0(g, oh);
            const int8_t *rows = fast && yb >= 0 && yb + span < K.ih ? img + (size_t)yb * line : NULL;
            const int8_t *tb = !direct && fast && !rows ? img : NULL; /* windows cut at the top or bottom */
            int8_t *y = ta_out_px(a, n, oh, 0);
            int32_t ow = 0;
            for (; ow + 2 <= now; ow += 2, y += 2 * K.noc) {
                const int8_t *x0 = pad_column(a, &K, direct, small, rows, tb, yb, n, oh, ow, c0);
                const int8_t *x1 = pad_column(a, &K, direct, small, rows, tb, yb, n, oh, ow + 1, c1);
                pad_pixel2(&K, x0, x1, y, y + K.noc);
            }
            if (ow < now) pad_pixel1(&K, pad_column(a, &K, direct, small, rows, tb, yb, n, oh, ow, c0), y);
        }
    }
}

/* Kept out of line: inlined into conv_run it changed how GCC compiled the
 * other paths (1x1 and 3x3x16 lost a sixth). */
__attribute__((noinline)) static void pad_run(const ta_conv_args_t *a, int32_t k, uint8_t *scratch) {
    const tk_geom_t *g = &a->g;
    int32_t kp = (k + 15) & ~15, nb = kp / 16, ocp = (g->oc + 3) & ~3;
    int32_t *p = (int32_t *)(void *)scratch;
    int8_t *c0 = (int8_t *)(scratch + (size_t)ocp * 16u), *c1 = c0 + kp;
    int8_t *wp = c1 + kp;
    pad_prep(a, k, kp, ocp, p, wp);
    memset(c0, 0, 2u * (size_t)kp);
    /* nb as a constant where the two-pixel pass unrolls; one-move rows. */
    int small = g->kw * g->ic <= 16;
    if (g->kh == 1 && g->kw == 1 && kp == k)
        pad_loop(a, 1, 0, p, wp, nb, c0, c1);
    else if (small && nb == 1)
        pad_loop(a, 0, 1, p, wp, 1, c0, c1);
    else if (small && nb == 2)
        pad_loop(a, 0, 1, p, wp, 2, c0, c1);
    else if (small)
        pad_loop(a, 0, 1, p, wp, nb, c0, c1);
    else
        pad_loop(a, 0, 0, p, wp, nb, c0, c1);
}

static uint64_t pad_scratch_bytes(int32_t k, int32_t oc) {
    uint64_t kp = ((uint64_t)k + 15u) & ~(uint64_t)15u, ocp = ((uint64_t)oc + 3u) & ~(uint64_t)3u;
    return ocp * 16u + 2u * kp + ocp * kp;
}

static void gen_run(const ta_conv_args_t *a, int one_by_one, int32_t k, uint8_t *scratch);

static int conv_run(const ta_conv_args_t *a, int one_by_one, uint8_t *scratch) {
    const tk_geom_t *g = &a->g;
    int32_t k = g->kh * g->kw * g->ic;
    if (pad_path(k, g->oc, one_by_one)) {
        pad_run(a, k, scratch);
        return 0;
    }
    gen_run(a, one_by_one, k, scratch);
    return 0;
}

/* The generic path: one pixel x four channels over the raw int8 rows. */
TA_INLINE void gen_loop(const ta_conv_args_t *a, int one_by_one, int32_t k, const int32_t *p, int8_t *col) {
    const tk_geom_t *g = &a->g;
    for (int32_t n = 0; n < g->n; n++)
        for (int32_t oh = 0; oh < g->oh; oh++)
            for (int32_t ow = 0; ow < g->ow; ow++)
                mve_pixel(a, column(a, one_by_one, n, oh, ow, col), k, p, ta_out_px(a, n, oh, ow));
}

/* Out of line like pad_run; one_by_one as a constant in each copy of the
 * loop. */
__attribute__((noinline)) static void gen_run(const ta_conv_args_t *args, int one_by_one, int32_t k, uint8_t *scratch) {
    /* A local copy whose address stays here: the int8 output stores then
     * cannot alias it, so GCC keeps its fields in registers instead of
     * reloading them after each store (a tenth of the 1x1 loop). */
    ta_conv_args_t copy = *args;
    const ta_conv_args_t *a = &copy;
    int32_t *p = (int32_t *)(void *)scratch;
    int8_t *col = (int8_t *)(scratch + (size_t)a->g.oc * 16u);
    mve_prep(a, k, p);
    if (one_by_one)
        gen_loop(a, 1, k, p, col);
    else
        gen_loop(a, 0, k, p, col);
}

/* Padded path: its vectors, two columns and the weight copy; otherwise
 * the per-group vectors (16 bytes per channel) and one column. */
static uint64_t conv_scratch_bytes(int32_t k, int32_t oc, int one_by_one) {
    if (pad_path(k, oc, one_by_one)) return pad_scratch_bytes(k, oc);
    return (uint64_t)oc * 16u + (uint64_t)k;
}

#else /* DSP */

/* Scratch: two int8 columns, then the widened q15 blocks (two columns
 * interleaved, or one). */
typedef struct {
    int8_t *col[2];
    int32_t *q15; /* [block][4]: slot 0 (words 0-1) and slot 1 (words 2-3) */
    const ta_chq_t *ch; /* per output channel: bias and requantisation */
    const int8_t *w;    /* weight rows, k apart: the plan's, or padded copies */
    const int32_t *wq;  /* or weight rows widened to pairs (wq_row), NULL */
    int32_t k, blocks;
    uint32_t off;
} dsp_work_t;

/* Widened weight row oc of noc (layout in dot_dsp.h: pairs interleaved per
 * block, a last odd row alone): its first word; *ws = words per block. */
static inline int32_t *wq_row(int32_t *wq, int32_t noc, int32_t blocks, int32_t oc, int32_t *ws) {
    int32_t pairs = noc / 2;
    *ws = oc < 2 * pairs ? 4 : 2;
    return wq + (size_t)(oc / 2) * 4u * (size_t)blocks + (oc < 2 * pairs ? 2 * (oc & 1) : 0);
}

/* The doubled form's two encodings (mode 2: SMMULR, mode 3: SMMLAR, see
 * ta_requant_dbl_mla; each is fewer instructions in a different loop). */
#define TA_RQ_DBL(p, acc) (simple == 3 ? ta_requant_dbl_mla((p), (acc)) : ta_requant_dbl((p), (acc)))

/* Requantise acc for channel oc (`simple` is a constant in every
 * specialised copy, see conv_run: 0 general, 1 simple, 2 doubled
 * accumulators); the channel's bias (doubled too in mode 2). */
#define RQ(oc, acc)                                                                             \
    (simple >= 2 && (wk->ch[oc].lsh & TA_CHQ_DBL) ? TA_RQ_DBL(&wk->ch[oc], (acc))               \
     : simple                                     ? ta_requant_simple(&a->rq, &wk->ch[oc], (acc)) \
                                                  : ta_requant_fast(&a->rq, &wk->ch[oc], (acc)))
#define BIAS(oc) (wk->ch[oc].bias)

/* Two pixels (widened, pair layout) x every widened weight row: whole
 * blocks, no tail. Pointers walk the row pairs and the channel table so the
 * loop keeps little state (GCC spilled the indexed form's addresses every
 * pass); `quad` (a constant: blocks % 4 == 0) drops the odd-block tests. */
static inline __attribute__((always_inline)) void pair_rows(const ta_conv_args_t *a, const dsp_work_t *wk, int8_t *y0,
                                                            int8_t *y1, int simple, int quad) {
    const int32_t *wr = wk->wq;
    const ta_chq_t *ch = wk->ch;
    int32_t blocks = wk->blocks, noc = a->g.oc;
    int8_t *e0 = y0 + (noc & ~1);
#define RQP(p, acc)                                 \
    (simple >= 2 && dbl ? TA_RQ_DBL((p), (acc)) \
     : simple           ? ta_requant_simple(&a->rq, (p), (acc)) \
                        : ta_requant_fast(&a->rq, (p), (acc)))
    for (; y0 < e0; y0 += 2, y1 += 2, ch += 2, wr += 4 * blocks) {
        int32_t acc[4] = {ch[0].bias, ch[1].bias, ch[0].bias, ch[1].bias};
        if (quad)
            ta_q15w_dot_2x2_q(wk->q15, wr, blocks, acc);
        else
            ta_q15w_dot_2x2(wk->q15, wr, blocks, acc);
        /* One test per pair: both channels or neither are doubled. The
         * channel entries are copied first: the byte stores could alias
         * them, and GCC would reload them for the second pixel. */
        ta_chq_t q0 = ch[0], q1 = ch[1];
        if (simple >= 2 && (q0.lsh & TA_CHQ_DBL)) {
            const int dbl = 1;
            y0[0] = RQP(&q0, acc[0]);
            y0[1] = RQP(&q1, acc[1]);
            y1[0] = RQP(&q0, acc[2]);
            y1[1] = RQP(&q1, acc[3]);
        } else {
            const int dbl = 0;
            y0[0] = RQP(&q0, acc[0]);
            y0[1] = RQP(&q1, acc[1]);
            y1[0] = RQP(&q0, acc[2]);
            y1[1] = RQP(&q1, acc[3]);
        }
    }
    if (noc & 1) {
        const int dbl = simple >= 2 && (ch->lsh & TA_CHQ_DBL);
        y0[0] = RQP(ch, ta_q15w_dot_1x1(wk->q15, 4, wr, 2, blocks, ch->bias));
        y1[0] = RQP(ch, ta_q15w_dot_1x1(wk->q15 + 2, 4, wr, 2, blocks, ch->bias));
    }
#undef RQP
}

/* Two pixels, already widened into the pair layout, against every output
 * channel; c0, c1 are their int8 columns for the k % 4 tail (unused, and
 * possibly NULL, when k is a multiple of four). */
static inline __attribute__((always_inline)) void dsp_pixel_pair(const ta_conv_args_t *a, const dsp_work_t *wk,
                                                                 const int8_t *c0, const int8_t *c1, int8_t *y0,
                                                                 int8_t *y1, int simple) {
    int32_t k = wk->k, kb = wk->blocks * 4, oc = 0, noc = a->g.oc;
    if (wk->wq) {
        if ((wk->blocks & 3) == 0)
            pair_rows(a, wk, y0, y1, simple, 1);
        else
            pair_rows(a, wk, y0, y1, simple, 0);
        return;
    }
    for (; oc + 2 <= noc; oc += 2) {
        const int8_t *w0 = wk->w + (size_t)oc * k, *w1 = w0 + k;
        int32_t b0 = BIAS(oc), b1 = BIAS(oc + 1);
        int32_t acc[4] = {b0, b1, b0, b1};
        if (wk->wq) /* widened rows: whole blocks, no tail */
            ta_q15w_dot_2x2(wk->q15, wk->wq + (size_t)oc * 2u * (size_t)wk->blocks, wk->blocks, acc);
        else
            ta_q15_dot_2x2(wk->q15, w0, k, wk->blocks, acc);
        if (kb < k) {
            acc[0] = ta_tail(c0, w0, kb, k, a->zp_in, acc[0]);
            acc[1] = ta_tail(c0, w1, kb, k, a->zp_in, acc[1]);
            acc[2] = ta_tail(c1, w0, kb, k, a->zp_in, acc[2]);
            acc[3] = ta_tail(c1, w1, kb, k, a->zp_in, acc[3]);
        }
        y0[oc] = RQ(oc, acc[0]);
        y0[oc + 1] = RQ(oc + 1, acc[1]);
        y1[oc] = RQ(oc, acc[2]);
        y1[oc + 1] = RQ(oc + 1, acc[3]);
    }
    if (oc < noc && wk->wq) {
        int32_t ws;
        const int32_t *wr = wq_row((int32_t *)(uintptr_t)wk->wq, noc, wk->blocks, oc, &ws);
        y0[oc] = RQ(oc, ta_q15w_dot_1x1(wk->q15, 4, wr, ws, wk->blocks, BIAS(oc)));
        y1[oc] = RQ(oc, ta_q15w_dot_1x1(wk->q15 + 2, 4, wr, ws, wk->blocks, BIAS(oc)));
    } else if (oc < noc) {
        const int8_t *w0 = wk->w + (size_t)oc * k;
        int32_t b = BIAS(oc);
        int32_t r0 = ta_tail(c0, w0, kb, k, a->zp_in, ta_q15_dot_1x1(wk->q15, 4, w0, wk->blocks, b));
        int32_t r1 = ta_tail(c1, w0, kb, k, a->zp_in, ta_q15_dot_1x1(wk->q15 + 2, 4, w0, wk->blocks, b));
        y0[oc] = RQ(oc, r0);
        y1[oc] = RQ(oc, r1);
    }
}

/* A last, unpaired pixel (widened into slot 0 of the pair layout): four
 * output channels per pass after moving its words to the one-column layout. */
static void dsp_pixel(const ta_conv_args_t *a, const dsp_work_t *wk, const int8_t *c0, int8_t *y0, int simple) {
    int32_t k = wk->k, kb = wk->blocks * 4, oc = 0, noc = a->g.oc;
    for (int32_t b = 0; b < wk->blocks; b++) {
        wk->q15[2 * b] = wk->q15[4 * b];
        wk->q15[2 * b + 1] = wk->q15[4 * b + 1];
    }
    if (wk->wq) {
        for (; oc < noc; oc++) {
            int32_t ws;
            const int32_t *wr = wq_row((int32_t *)(uintptr_t)wk->wq, noc, wk->blocks, oc, &ws);
            y0[oc] = RQ(oc, ta_q15w_dot_1x1(wk->q15, 2, wr, ws, wk->blocks, BIAS(oc)));
        }
        return;
    }
    for (; oc + 4 <= noc; oc += 4) {
        const int8_t *w0 = wk->w + (size_t)oc * k;
        int32_t acc[4] = {BIAS(oc), BIAS(oc + 1), BIAS(oc + 2), BIAS(oc + 3)};
        ta_q15_dot_1x4(wk->q15, w0, k, wk->blocks, acc);
        for (int32_t j = 0; j < 4; j++) y0[oc + j] = RQ(oc + j, ta_tail(c0, w0 + (size_t)j * k, kb, k, a->zp_in, acc[j]));
    }
    for (; oc < noc; oc++) {
        const int8_t *w0 = wk->w + (size_t)oc * k;
        y0[oc] = RQ(oc, ta_tail(c0, w0, kb, k, a->zp_in, ta_q15_dot_1x1(wk->q15, 2, w0, wk->blocks, BIAS(oc))));
    }
}

#undef RQ
#undef BIAS

/* Widen pixel (n, oh, ow)'s window straight from the input into q15 blocks
 * at dst (`stride` words per block), skipping the int8 column: rows inside
 * the input are widened in place, rows in the padding become zero pairs
 * ((zp - zp) * w = 0), rows cut by the left/right padding are assembled in
 * `tmp` first. Needs kw * ic to be a multiple of four. */
static void widen_window(const ta_conv_args_t *a, const dsp_work_t *wk, int32_t n, int32_t oh, int32_t ow,
                         int32_t *dst, int8_t *tmp) {
    const tk_geom_t *g = &a->g;
    int32_t ybase = ta_in_row0(g, oh), xbase = ow * g->sw - g->pl;
    size_t tap = (size_t)g->ic;
    int32_t row = g->kw * g->ic, rb = row / 4;
    int zp = (int)(int8_t)a->zp_in;
    int row_inside = g->dw == 1 && xbase >= 0 && xbase + g->kw <= g->iw;
    for (int32_t kh = 0; kh < g->kh; kh++, dst += 4 * rb) {
        int32_t iy = ybase + kh * g->dh;
        if (iy < 0 || iy >= g->ih) {
            for (int32_t b = 0; b < rb; b++) dst[4 * b] = dst[4 * b + 1] = 0;
            continue;
        }
        const int8_t *src = ta_in_px(a, n, iy, xbase);
        if (!row_inside) {
            for (int32_t kw = 0; kw < g->kw; kw++) {
                int32_t ix = xbase + kw * g->dw;
                if (ix < 0 || ix >= g->iw)
                    col_fill(tmp + (size_t)kw * tap, zp, tap);
                else
                    col_copy(tmp + (size_t)kw * tap, ta_in_px(a, n, iy, ix), tap);
            }
            src = tmp;
        }
        ta_q15_widen(src, rb, wk->off, dst, 4);
    }
}

/* The split column layout (widened weights, k % 4 != 0, dw == 1): a window
 * row of R = kw * ic bytes is R / 4 whole blocks widened straight from the
 * input, and the rows' last R % 4 bytes are gathered, in row order, into
 * the final blocks (zp-padded; the weights, permuted once per call by
 * split_row, hold zeros there). For a 3x3x3 window: six blocks by SXTAB16
 * from three unaligned rows, one block of three gathered bytes, and no
 * int8 im2col at all for pixels inside the input. */
static inline int32_t *split_widen(const int8_t *src, size_t step, int32_t kh, int32_t rb, int32_t left, uint32_t off,
                                   int32_t *dst, int8_t *gather) {
    int8_t *gp = gather;
    for (int32_t r = 0; r < kh; r++, src += step) {
        ta_q15_widen(src, rb, off, dst, 4);
        dst += 4 * rb;
        for (int32_t j = 0; j < left; j++) *gp++ = src[4 * rb + j];
    }
    ta_q15_widen(gather, ((int32_t)(gp - gather) + 3) / 4, off, dst, 4);
    return dst;
}

/* split_widen for the commonest short window, three rows of nine bytes
 * (3x3 over three channels: a first layer), straight-line: six blocks by
 * unaligned word loads, the three last bytes and the zero point packed into
 * the seventh (zpw holds zp in its top byte). */
TA_INLINE void split_widen_3x9(const int8_t *src, size_t step, uint32_t off, uint32_t zpw, int32_t *dst) {
    const int8_t *s1 = src + step, *s2 = s1 + step;
    uint32_t v;
#define TA_W1(d, p)                                      \
    v = ta_ld32(p);                                      \
    (d)[0] = __sxtab16((int32_t)off, (int32_t)v);        \
    (d)[1] = ta_sxtab16_ror8((int32_t)off, v);
    TA_W1(dst, src)
    TA_W1(dst + 4, src + 4)
    TA_W1(dst + 8, s1)
    TA_W1(dst + 12, s1 + 4)
    TA_W1(dst + 16, s2)
    TA_W1(dst + 20, s2 + 4)
#undef TA_W1
    v = (uint32_t)(uint8_t)src[8] | ((uint32_t)(uint8_t)s1[8] << 8) | ((uint32_t)(uint8_t)s2[8] << 16) | zpw;
    dst[24] = __sxtab16((int32_t)off, (int32_t)v);
    dst[25] = ta_sxtab16_ror8((int32_t)off, v);
}

/* im2col for the split layout's edge windows (dw == 1, so a window row's
 * in-image taps are one contiguous run): per window row, zp before the run,
 * the run copied, zp after; rows outside the input all zp. Cheaper than the
 * general im2col's per-tap tests for the short rows this layout serves. */
static void split_edge(const ta_conv_args_t *a, int32_t n, int32_t ybase, int32_t xbase, int8_t *col) {
    const tk_geom_t *g = &a->g;
    int32_t row = g->kw * g->ic;
    int32_t t0 = xbase < 0 ? -xbase : 0, t1 = g->iw - xbase < g->kw ? g->iw - xbase : g->kw;
    if (t1 < t0) t1 = t0;
    int32_t b0 = t0 * g->ic, b1 = t1 * g->ic;
    /* zp everywhere by word stores first, then the in-image runs. */
    col_fill(col, (int)(int8_t)a->zp_in, (size_t)g->kh * (size_t)row);
    for (int32_t r = 0; r < g->kh; r++, col += row) {
        int32_t iy = ybase + r * g->dh;
        if (iy < 0 || iy >= g->ih) continue;
        const int8_t *s = ta_in_px(a, n, iy, 0);
        ptrdiff_t o = (ptrdiff_t)xbase * g->ic; /* s[o + j] is inside for b0 <= j < b1 */
        for (int32_t j = b0; j < b1; j++) col[j] = s[o + j];
    }
}

/* Pixel (n, oh, ow) into slot dst in the split layout: from the input when
 * the window is inside it, else from an im2col column (col, zp-filled). */
static inline void split_pixel(const ta_conv_args_t *a, const dsp_work_t *wk, int32_t n, int32_t oh, int32_t ow,
                               int32_t *dst) {
    const tk_geom_t *g = &a->g;
    int32_t ybase = ta_in_row0(g, oh), xbase = ow * g->sw - g->pl;
    int32_t row = g->kw * g->ic;
    if (ybase >= 0 && ybase + (g->kh - 1) * g->dh < g->ih && xbase >= 0 && xbase + g->kw <= g->iw) {
        if (g->kh == 3 && row == 9) {
            split_widen_3x9(ta_in_px(a, n, ybase, xbase), (size_t)g->dh * (size_t)g->iw * 3u, wk->off,
                            (uint32_t)(uint8_t)a->zp_in << 24, dst);
            return;
        }
        split_widen(ta_in_px(a, n, ybase, xbase), (size_t)g->dh * (size_t)g->iw * (size_t)g->ic, g->kh, row / 4,
                    row % 4, wk->off, dst, wk->col[1]);
    } else {
        split_edge(a, n, ybase, xbase, wk->col[0]);
        if (g->kh == 3 && row == 9) {
            split_widen_3x9(wk->col[0], 9u, wk->off, (uint32_t)(uint8_t)a->zp_in << 24, dst);
            return;
        }
        split_widen(wk->col[0], (size_t)row, g->kh, row / 4, row % 4, wk->off, dst, wk->col[1]);
    }
}

/* Weight row w (k = kh * row taps, OHWI) into the split layout at t
 * (kp bytes, zeros past the gathered bytes). */
static void split_row(const int8_t *w, int32_t kh, int32_t row, int32_t kp, int8_t *t) {
    int32_t rb = row / 4, left = row % 4, whole = 4 * rb;
    int8_t *gp = t + (size_t)kh * (size_t)whole;
    memset(t, 0, (size_t)kp);
    for (int32_t r = 0; r < kh; r++, w += row) {
        memcpy(t + (size_t)r * (size_t)whole, w, (size_t)whole);
        for (int32_t j = 0; j < left; j++) *gp++ = w[whole + j];
    }
}

/* dsp_conv_loop for the split layout (widened weights): addresses walk
 * each output row (input row pointer, window column, output pixel) instead
 * of being derived per pixel, and windows inside the input widen straight
 * from it; the rest go through split_pixel (im2col). */
static inline __attribute__((always_inline)) void dsp_split_loop(const ta_conv_args_t *a, dsp_work_t *wk,
                                                                 int simple) {
    const tk_geom_t *g = &a->g;
    int32_t row = g->kw * g->ic, noc = g->oc;
    int fast = g->kh == 3 && row == 9;
    size_t step = (size_t)g->dh * (size_t)g->iw * (size_t)g->ic;
    uint32_t zpw = (uint32_t)(uint8_t)a->zp_in << 24;
    for (int32_t n = 0; n < g->n; n++) {
        int8_t *y0 = NULL;
        int pending = 0;
        for (int32_t oh = 0; oh < g->oh; oh++) {
            int32_t ybase = ta_in_row0(g, oh), xb = -g->pl;
            int rin = ybase >= 0 && ybase + (g->kh - 1) * g->dh < g->ih;
            const int8_t *rp = rin ? ta_in_px(a, n, ybase, 0) : a->x;
            int8_t *y = ta_out_px(a, n, oh, 0);
            for (int32_t ow = 0; ow < g->ow; ow++, xb += g->sw, y += noc) {
                int32_t *slot = wk->q15 + 2 * pending;
                if (rin && xb >= 0 && xb + g->kw <= g->iw) {
                    const int8_t *xp = rp + (size_t)xb * (size_t)g->ic;
                    if (fast)
                        split_widen_3x9(xp, step, wk->off, zpw, slot);
                    else
                        split_widen(xp, step, g->kh, row / 4, row % 4, wk->off, slot, wk->col[1]);
                } else {
                    split_pixel(a, wk, n, oh, ow, slot);
                }
                if (!pending) {
                    y0 = y;
                    pending = 1;
                } else {
                    if ((wk->blocks & 3) == 0)
                        pair_rows(a, wk, y0, y, simple, 1);
                    else
                        pair_rows(a, wk, y0, y, simple, 0);
                    pending = 0;
                }
            }
        }
        if (pending) dsp_pixel(a, wk, NULL, y0, simple);
    }
}

/* 1x1 kernel, widened weights, stride 1, no padding, output as wide as the
 * input and every band row inside it: a batch's pixels are consecutive
 * ic-byte columns of the input and consecutive oc-byte pixels of the
 * output, so pixel pairs are walked by two pointers and widened together
 * (one loop for both columns of the pair layout). */
static int flat_1x1(const ta_conv_args_t *a, const dsp_work_t *wk) {
    const tk_geom_t *g = &a->g;
    return wk->wq && g->kh == 1 && g->kw == 1 && g->sh == 1 && g->sw == 1 && g->pl == 0 && g->ow == g->iw &&
           ta_in_row0(g, 0) >= 0 && ta_in_row0(g, g->oh - 1) < g->ih;
}

static inline __attribute__((always_inline)) void dsp_1x1_loop(const ta_conv_args_t *a, dsp_work_t *wk, int simple) {
    const tk_geom_t *g = &a->g;
    int32_t npx = g->oh * g->ow, ic = g->ic, oc = g->oc, blocks = wk->blocks;
    uint32_t off = wk->off;
    for (int32_t n = 0; n < g->n; n++) {
        const int8_t *x = ta_in_px(a, n, ta_in_row0(g, 0), 0);
        int8_t *y = ta_out_px(a, n, 0, 0);
        int32_t p = 0;
        for (; p + 2 <= npx; p += 2, x += 2 * ic, y += 2 * oc) {
            const int8_t *x1 = x + ic;
            int32_t *q = wk->q15;
            for (int32_t b = 0; b < blocks; b++, q += 4) {
                uint32_t u = ta_ld32(x + 4 * b), v = ta_ld32(x1 + 4 * b);
                q[0] = __sxtab16((int32_t)off, (int32_t)u);
                q[1] = ta_sxtab16_ror8((int32_t)off, u);
                q[2] = __sxtab16((int32_t)off, (int32_t)v);
                q[3] = ta_sxtab16_ror8((int32_t)off, v);
            }
            if ((blocks & 3) == 0)
                pair_rows(a, wk, y, y + oc, simple, 1);
            else
                pair_rows(a, wk, y, y + oc, simple, 0);
        }
        if (p < npx) {
            ta_q15_widen(x, blocks, off, wk->q15, 4);
            dsp_pixel(a, wk, x, y, simple);
        }
    }
}

/* Every output pixel of the band. Pixels are paired in raster order across
 * rows, so odd widths pair too; each is widened into its slot of the pair
 * layout as it comes. Specialised per `simple` (constant at each call). */
static inline __attribute__((always_inline)) void dsp_conv_loop(const ta_conv_args_t *a, dsp_work_t *wk,
                                                                int one_by_one, int direct, int simple) {
    const tk_geom_t *g = &a->g;
    for (int32_t n = 0; n < g->n; n++) {
        const int8_t *c0 = NULL;
        int8_t *y0 = NULL;
        int pending = 0;
        for (int32_t oh = 0; oh < g->oh; oh++)
            for (int32_t ow = 0; ow < g->ow; ow++) {
                int32_t *slot = wk->q15 + 2 * pending;
                const int8_t *c = NULL;
                if (direct) {
                    widen_window(a, wk, n, oh, ow, slot, wk->col[0]);
                } else {
                    c = column(a, one_by_one, n, oh, ow, wk->col[pending]);
                    ta_q15_widen(c, wk->blocks, wk->off, slot, 4);
                }
                int8_t *y = ta_out_px(a, n, oh, ow);
                if (!pending) {
                    c0 = c;
                    y0 = y;
                    pending = 1;
                } else {
                    dsp_pixel_pair(a, wk, c0, c, y0, y, simple);
                    pending = 0;
                }
            }
        if (pending) dsp_pixel(a, wk, c0, y0, simple);
    }
}

/* Weight rows are copied per call into scratch, within this budget:
 *   - widened to 16-bit pairs (2 * oc * kp bytes) when that fits
 *     TA_CONV_WIDEN_MAX (kept below the int8 budget: it adds to the fast
 *     arena every plan with such a conv needs) and the call has at least
 *     TA_CONV_WIDEN_MIN_PX output pixels: the passes then
 *     multiply pairs by pairs (ta_q15w_dot_2x2, 11 instructions per 16
 *     MACs instead of 18) and the widening (about 4 instructions a weight)
 *     is paid back within a few pixels;
 *   - else, for k % 4 != 0, int8 rows zero-padded to whole blocks.
 * Either way rows of k % 4 != 0 become whole blocks and the columns are
 * padded to match (with zp_in, widened to 0), so no scalar tail runs per
 * output. Short rows (a 3x3x3 first layer: k = 27) are where the tail and
 * the in-loop widening cost most. */
#define TA_CONV_PAD_MAX 16384u
#define TA_CONV_WIDEN_MAX 8192u
#define TA_CONV_WIDEN_MIN_PX 16

static int can_widen(int32_t k, int32_t oc) {
    return 2u * (uint64_t)oc * (uint64_t)((k + 3) & ~3) <= TA_CONV_WIDEN_MAX;
}

static int pad_rows(int32_t k, int32_t oc) {
    return k % 4 != 0 && (uint64_t)oc * (uint64_t)((k + 3) & ~3) <= TA_CONV_PAD_MAX;
}

/* Scratch bytes of the weight copy (the larger form that applies). */
static uint64_t wcopy_bytes(int32_t k, int32_t oc) {
    uint64_t n = (uint64_t)oc * (uint64_t)((k + 3) & ~3);
    return can_widen(k, oc) ? 2u * n : pad_rows(k, oc) ? n : 0u;
}

/* Rows of k int8 weights into wq_row's pair layout, blocks of four, zero
 * past k; rows of channels in the doubled form (TA_CHQ_DBL) as 2 * w.
 * With `split` (the op's geometry) each row is first permuted into the
 * split layout (split_row, through tmp). */
static void widen_weights(const int8_t *w, int32_t k, int32_t noc, int32_t blocks, const ta_chq_t *ch, int32_t *wq,
                          const tk_geom_t *split, int8_t *tmp) {
    int32_t k0 = k;
    for (int32_t oc = 0; oc < noc; oc++) {
        int32_t scale = (ch[oc].lsh & TA_CHQ_DBL) ? 2 : 1;
        int32_t ws, *d = wq_row(wq, noc, blocks, oc, &ws);
        const int8_t *r = w + (size_t)oc * k0;
        if (split) { /* permuted into the split layout first (kp bytes) */
            split_row(r, split->kh, split->kw * split->ic, 4 * blocks, tmp);
            r = tmp;
            k = 4 * blocks;
        }
        int32_t b = 0;
        /* Whole blocks: SXTB16 gives both pairs, SADD16 doubles them
         * (|2w| <= 256 fits a lane). */
        for (; 4 * b + 4 <= k; b++, d += ws) {
            uint32_t v = ta_ld32(r + 4 * b);
            int32_t e = __sxtb16((int32_t)v), o = ta_sxtb16_ror8(v);
            d[0] = scale == 2 ? __sadd16(e, e) : e;
            d[1] = scale == 2 ? __sadd16(o, o) : o;
        }
        for (; b < blocks; b++, d += ws) {
            int32_t v[4];
            for (int32_t j = 0; j < 4; j++) v[j] = 4 * b + j < k ? scale * r[4 * b + j] : 0;
            d[0] = (int32_t)(((uint32_t)v[0] & 0xFFFFu) | ((uint32_t)v[2] << 16));
            d[1] = (int32_t)(((uint32_t)v[1] & 0xFFFFu) | ((uint32_t)v[3] << 16));
        }
    }
}

/* Per row of k weights, the sum of |w| into s (the accumulator bound of
 * the doubled mode). */
static void wabs_rows(const int8_t *w, int32_t k, int32_t noc, uint32_t *s) {
    for (int32_t oc = 0; oc < noc; oc++, w += k) {
        uint32_t t = 0;
        for (int32_t i = 0; i < k; i++) t += (uint32_t)(w[i] < 0 ? -w[i] : w[i]);
        s[oc] = t;
    }
}

static int conv_run(const ta_conv_args_t *a, int one_by_one, uint8_t *scratch) {
    const tk_geom_t *g = &a->g;
    dsp_work_t wk;
    int32_t k = g->kh * g->kw * g->ic, kp = (k + 3) & ~3;
    uint64_t npx = (uint64_t)g->n * (uint64_t)g->oh * (uint64_t)g->ow;
    int widen = can_widen(k, g->oc) && npx >= TA_CONV_WIDEN_MIN_PX;
    int pad = k % 4 != 0 && (widen || pad_rows(k, g->oc));
    wk.k = pad ? kp : k;
    wk.blocks = wk.k / 4;
    wk.off = ta_lane_offset(a->zp_in);
    size_t colb = (size_t)kp;
    wk.col[0] = (int8_t *)scratch;
    wk.col[1] = (int8_t *)scratch + colb;
    wk.q15 = (int32_t *)(void *)(scratch + 2u * colb);
    ta_chq_t *ch = (ta_chq_t *)(void *)(scratch + 2u * colb + 16u * (size_t)(kp / 4));
    if (ta_requant_prep(&a->rq, a->bias, g->oc, ch)) return TA_FALLBACK;
    wk.ch = ch;
    wk.w = a->w;
    wk.wq = NULL;
    int simple = ta_requant_is_simple(&a->rq, ch, g->oc), split = 0;
    if (widen) {
        int32_t *wq = (int32_t *)(void *)(ch + g->oc);
        /* Doubled form (ta_requant_dbl, one SMMULR): for channel pairs
         * whose accumulators are bounded below 2^30; the per-row sums of
         * |w| go through wq's space first (it is at least 8 * oc bytes). */
        if (simple && a->zp_in >= -128 && a->zp_in <= 127) {
            wabs_rows(a->w, k, g->oc, (uint32_t *)wq);
            if (ta_requant_dbl_prep(&a->rq, ch, g->oc, 128 + (a->zp_in < 0 ? -a->zp_in : a->zp_in),
                                    (uint32_t *)wq) > 0)
                simple = 2;
        }
        split = pad && g->dw == 1;
        widen_weights(a->w, k, g->oc, wk.blocks, ch, wq, split ? g : NULL, wk.col[0]);
        wk.wq = wq;
    }
    if (pad) {
        if (!widen) {
            int8_t *wp = (int8_t *)(ch + g->oc);
            for (int32_t oc = 0; oc < g->oc; oc++) {
                memcpy(wp + (size_t)oc * kp, a->w + (size_t)oc * k, (size_t)k);
                memset(wp + (size_t)oc * kp + k, 0, (size_t)(kp - k));
            }
            wk.w = wp;
        }
        /* im2col writes k bytes: the padding stays zp (widened: 0). */
        memset(wk.col[0] + k, (int)(int8_t)a->zp_in, (size_t)(kp - k));
        memset(wk.col[1] + k, (int)(int8_t)a->zp_in, (size_t)(kp - k));
        /* Split layout: col[1] gathers the rows' last bytes; past them zp. */
        if (split) memset(wk.col[1], (int)(int8_t)a->zp_in, (size_t)kp);
        one_by_one = 0; /* an in-place column has no padding after it */
    }
    /* Window rows of whole blocks widen straight from the input. */
    int direct = !one_by_one && (g->kw * g->ic) % 4 == 0;
    if (flat_1x1(a, &wk)) {
        if (simple == 2)
            dsp_1x1_loop(a, &wk, 2);
        else if (simple)
            dsp_1x1_loop(a, &wk, 1);
        else
            dsp_1x1_loop(a, &wk, 0);
    } else if (split) {
        if (simple == 2)
            dsp_split_loop(a, &wk, 3);
        else if (simple)
            dsp_split_loop(a, &wk, 1);
        else
            dsp_split_loop(a, &wk, 0);
    } else if (simple == 2)
        dsp_conv_loop(a, &wk, one_by_one, direct, 2);
    else if (simple)
        dsp_conv_loop(a, &wk, one_by_one, direct, 1);
    else
        dsp_conv_loop(a, &wk, one_by_one, direct, 0);
    return 0;
}

/* Two int8 columns (word-rounded), 16 bytes per block of four, the
 * channel table, and the weight copy (wcopy_bytes). */
static uint64_t conv_scratch_bytes(int32_t k, int32_t oc, int one_by_one) {
    (void)one_by_one;
    uint64_t kp = ((uint64_t)k + 3u) & ~(uint64_t)3u;
    return 2u * kp + 4u * kp + sizeof(ta_chq_t) * (uint64_t)oc + wcopy_bytes(k, oc);
}

#endif

int ta_conv(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    ta_conv_args_t a;
    if (ta_conv_args(plan, op, mem, 0, &a)) return TA_FALLBACK;
    const tk_geom_t *g = &a.g;
    uint64_t k = (uint64_t)g->kh * (uint64_t)g->kw * (uint64_t)g->ic;
    int one_by_one = g->kh == 1 && g->kw == 1;
    uint8_t *scratch = ta_scratch(mem, ta_round16(conv_scratch_bytes((int32_t)k, g->oc, one_by_one)));
    if (!scratch) return TA_FALLBACK;
    return conv_run(&a, one_by_one, scratch);
}

uint32_t ta_conv_scratch(const tigris_plan_t *plan, const tigris_op_t *op) {
    tk_view_t iv, ov;
    if (tk_view(plan, tk_in_idx(plan, op, 0), &iv) || tk_view(plan, tk_out_idx(plan, op, 0), &ov)) return 0;
    if (iv.rank != 4 || ov.rank != 4) return 0;
    uint64_t k = (uint64_t)op->spatial.kernel_h * op->spatial.kernel_w * (uint64_t)iv.dim[3];
    if (k > 0x7FFFFFFFu) return 0;
    int one_by_one = op->spatial.kernel_h == 1 && op->spatial.kernel_w == 1;
    return ta_round16(conv_scratch_bytes((int32_t)k, ov.dim[3], one_by_one));
}
