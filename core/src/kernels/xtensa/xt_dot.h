/*
 * xt_dot.h - the inner product both Conv and FullyConnected run: int16
 * activations already offset by the input zero point (x' = x - zp_in, 0 for
 * padding) against two rows of int8 weights at once.
 *
 * lx106 has no sign-extending byte load, so each signed weight byte would
 * cost a load and two shifts. Instead four weights come in one word, XOR
 * 0x80808080 turns every byte into w + 128 (unsigned), and one EXTUI picks
 * each out: sum x'·w = sum x'·(w + 128) - 128·sum x'. The caller knows
 * sum x' once per row of activations. All sums wrap in 32 bits like the
 * reference's, so the regrouping is exact.
 */
#ifndef TIGRIS_XT_DOT_H
#define TIGRIS_XT_DOT_H

#include "xt_internal.h"

/* a0 += sum x[k]·(w0[k]+128), a1 += sum x[k]·(w1[k]+128), k < n. */
static inline void xt_dot2(const int16_t *x, const int8_t *w0, const int8_t *w1, int32_t n, uint32_t *a0,
                           uint32_t *a1) {
    uint32_t s0 = 0, s1 = 0;
    int32_t k = 0;
    if ((((uintptr_t)w0 | (uintptr_t)w1) & 3u) == 0) {
        const uint32_t flip = 0x80808080u;
        for (; k + 4 <= n; k += 4) {
            uint32_t u0 = xt_ld_w4(w0 + k) ^ flip;
            uint32_t u1 = xt_ld_w4(w1 + k) ^ flip;
            int32_t x0 = x[k], x1 = x[k + 1], x2 = x[k + 2], x3 = x[k + 3];
            s0 += (uint32_t)(x0 * (int32_t)(u0 & 0xFFu)) + (uint32_t)(x1 * (int32_t)((u0 >> 8) & 0xFFu)) +
                  (uint32_t)(x2 * (int32_t)((u0 >> 16) & 0xFFu)) + (uint32_t)(x3 * (int32_t)(u0 >> 24));
            s1 += (uint32_t)(x0 * (int32_t)(u1 & 0xFFu)) + (uint32_t)(x1 * (int32_t)((u1 >> 8) & 0xFFu)) +
                  (uint32_t)(x2 * (int32_t)((u1 >> 16) & 0xFFu)) + (uint32_t)(x3 * (int32_t)(u1 >> 24));
        }
    }
    for (; k < n; k++) {
        int32_t xv = x[k];
        s0 += (uint32_t)(xv * (int32_t)((uint8_t)w0[k] ^ 0x80u));
        s1 += (uint32_t)(xv * (int32_t)((uint8_t)w1[k] ^ 0x80u));
    }
    *a0 += s0;
    *a1 += s1;
}

/* One row: a0 += sum x[k]·(w0[k]+128). */
static inline void xt_dot1(const int16_t *x, const int8_t *w0, int32_t n, uint32_t *a0) {
    uint32_t s0 = 0;
    int32_t k = 0;
    if (((uintptr_t)w0 & 3u) == 0) {
        for (; k + 4 <= n; k += 4) {
            uint32_t u0 = xt_ld_w4(w0 + k) ^ 0x80808080u;
            s0 += (uint32_t)(x[k] * (int32_t)(u0 & 0xFFu)) + (uint32_t)(x[k + 1] * (int32_t)((u0 >> 8) & 0xFFu)) +
                  (uint32_t)(x[k + 2] * (int32_t)((u0 >> 16) & 0xFFu)) + (uint32_t)(x[k + 3] * (int32_t)(u0 >> 24));
        }
    }
    for (; k < n; k++) s0 += (uint32_t)(x[k] * (int32_t)((uint8_t)w0[k] ^ 0x80u));
    *a0 += s0;
}

/* x'[k] = src[k] - zp for k < n; returns sum x' (wrapping). */
static inline uint32_t xt_offset_row(int16_t *dst, const int8_t *src, int32_t n, int32_t zp) {
    uint32_t s = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t v = (int32_t)src[k] - zp;
        dst[k] = (int16_t)v;
        s += (uint32_t)v;
    }
    return s;
}

/* Rows [0, oc) of w (row length n) against x' (sum sx), bias, requantised
 * into y[0..oc). */
static inline void xt_rows(const int16_t *x, uint32_t sx, const int8_t *w, int32_t n, int32_t oc, const uint8_t *bias,
                           const xt_rq_t *rq, int32_t zp_out, int32_t lo, int32_t hi, int8_t *y) {
    uint32_t corr = 0u - (sx << 7); /* -128·sum x' */
    int32_t o = 0;
    for (; o + 2 <= oc; o += 2) {
        uint32_t a0 = corr, a1 = corr;
        xt_dot2(x, w + (size_t)o * (size_t)n, w + (size_t)(o + 1) * (size_t)n, n, &a0, &a1);
        if (bias) {
            a0 += (uint32_t)tk_ld_i32(bias, (uint32_t)o);
            a1 += (uint32_t)tk_ld_i32(bias, (uint32_t)o + 1u);
        }
        y[o] = xt_out(xt_mbqm((int32_t)a0, &rq[o]), zp_out, lo, hi);
        y[o + 1] = xt_out(xt_mbqm((int32_t)a1, &rq[o + 1]), zp_out, lo, hi);
    }
    if (o < oc) {
        uint32_t a0 = corr;
        xt_dot1(x, w + (size_t)o * (size_t)n, n, &a0);
        if (bias) a0 += (uint32_t)tk_ld_i32(bias, (uint32_t)o);
        y[o] = xt_out(xt_mbqm((int32_t)a0, &rq[o]), zp_out, lo, hi);
    }
}

#endif /* TIGRIS_XT_DOT_H */
