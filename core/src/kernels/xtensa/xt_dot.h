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

/* The word loops below in lx106 assembly: GCC keeps too few of these
 * accumulators in registers (16 in all, a1 the stack) and spills in the
 * inner loop. Each pass reads four weights per row; one EXTUI per weight,
 * one MULL and one ADD per product. Host builds run the C twins. */
#if defined(__XTENSA__)
/* Kept out of line: inlined into a large caller the asm cannot get its
 * registers. n4 > 0 groups of four: 1 pixel x 2 rows (w0, w1 word-aligned). */
static __attribute__((noinline)) void xt_dot2_words(const int16_t *x, const int8_t *w0, const int8_t *w1, int32_t n4, uint32_t *a0,
                                 uint32_t *a1) {
    uint32_t s0 = *a0, s1 = *a1, flip = 0x80808080u, u0, u1, xv, t;
    const int8_t *wend = w0 + 4 * n4;
    __asm__ volatile(
        "1:\n"
        "l32i %[u0], %[w0], 0\n"
        "l32i %[u1], %[w1], 0\n"
        "xor %[u0], %[u0], %[flip]\n"
        "xor %[u1], %[u1], %[flip]\n"
        ".irp b, 0, 1, 2, 3\n"
        "l16si %[xv], %[x], 2*\\b\n"
        "extui %[t], %[u0], 8*\\b, 8\n"
        "mull %[t], %[t], %[xv]\n"
        "add %[s0], %[s0], %[t]\n"
        "extui %[t], %[u1], 8*\\b, 8\n"
        "mull %[t], %[t], %[xv]\n"
        "add %[s1], %[s1], %[t]\n"
        ".endr\n"
        "addi %[x], %[x], 8\n"
        "addi %[w0], %[w0], 4\n"
        "addi %[w1], %[w1], 4\n"
        "bne %[w0], %[wend], 1b\n"
        : [s0] "+r"(s0), [s1] "+r"(s1), [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [u0] "=&r"(u0), [u1] "=&r"(u1),
          [xv] "=&r"(xv), [t] "=&r"(t)
        : [flip] "r"(flip), [wend] "r"(wend)
        : "memory");
    *a0 = s0;
    *a1 = s1;
}

/* n4 > 0 groups of four: 2 interleaved pixels (x[2k], x[2k+1]) x 2 rows;
 * a[0..3] = (pixel 0, row 0), (pixel 0, row 1), (pixel 1, row 0), (pixel 1, row 1).
 * The flip constant is read from memory: every register is taken. */
static __attribute__((noinline)) void xt_dot22_words(const int16_t *x, const int8_t *w0, const int8_t *w1, int32_t n4,
                                                     uint32_t *a) {
    uint32_t s00 = a[0], s01 = a[1], s10 = a[2], s11 = a[3];
    uint32_t flip = 0x80808080u, u0, u1, xa, xb, t, p;
    const int8_t *wend = w0 + 4 * n4;
    __asm__ volatile(
        "1:\n"
        "l32i %[u0], %[w0], 0\n"
        "l32i %[u1], %[w1], 0\n"
        "l32i %[t], %[fm]\n"
        "xor %[u0], %[u0], %[t]\n"
        "xor %[u1], %[u1], %[t]\n"
        ".irp b, 0, 1, 2, 3\n"
        "l16si %[xa], %[x], 4*\\b\n"
        "l16si %[xb], %[x], 4*\\b+2\n"
        "extui %[t], %[u0], 8*\\b, 8\n"
        "mull %[p], %[t], %[xa]\n"
        "add %[s00], %[s00], %[p]\n"
        "mull %[t], %[t], %[xb]\n"
        "add %[s10], %[s10], %[t]\n"
        "extui %[t], %[u1], 8*\\b, 8\n"
        "mull %[p], %[t], %[xa]\n"
        "add %[s01], %[s01], %[p]\n"
        "mull %[t], %[t], %[xb]\n"
        "add %[s11], %[s11], %[t]\n"
        ".endr\n"
        "addi %[x], %[x], 16\n"
        "addi %[w0], %[w0], 4\n"
        "addi %[w1], %[w1], 4\n"
        "bne %[w0], %[wend], 1b\n"
        : [s00] "+r"(s00), [s01] "+r"(s01), [s10] "+r"(s10), [s11] "+r"(s11), [x] "+r"(x), [w0] "+r"(w0),
          [w1] "+r"(w1), [u0] "=&r"(u0), [u1] "=&r"(u1), [xa] "=&r"(xa), [xb] "=&r"(xb), [t] "=&r"(t), [p] "=&r"(p)
        : [fm] "m"(flip), [wend] "r"(wend)
        : "memory");
    a[0] = s00;
    a[1] = s01;
    a[2] = s10;
    a[3] = s11;
}
#else
static inline void xt_dot2_words(const int16_t *x, const int8_t *w0, const int8_t *w1, int32_t n4, uint32_t *a0,
                                 uint32_t *a1) {
    uint32_t s0 = *a0, s1 = *a1;
    for (int32_t g = 0; g < n4; g++, x += 4, w0 += 4, w1 += 4) {
        uint32_t u0 = xt_ld_w4(w0) ^ 0x80808080u, u1 = xt_ld_w4(w1) ^ 0x80808080u;
        for (int b = 0; b < 4; b++) {
            s0 += (uint32_t)(x[b] * (int32_t)((u0 >> (8 * b)) & 0xFFu));
            s1 += (uint32_t)(x[b] * (int32_t)((u1 >> (8 * b)) & 0xFFu));
        }
    }
    *a0 = s0;
    *a1 = s1;
}

static inline void xt_dot22_words(const int16_t *x, const int8_t *w0, const int8_t *w1, int32_t n4, uint32_t *a) {
    for (int32_t g = 0; g < n4; g++, x += 8, w0 += 4, w1 += 4) {
        uint32_t u0 = xt_ld_w4(w0) ^ 0x80808080u, u1 = xt_ld_w4(w1) ^ 0x80808080u;
        for (int b = 0; b < 4; b++) {
            int32_t v0 = (int32_t)((u0 >> (8 * b)) & 0xFFu), v1 = (int32_t)((u1 >> (8 * b)) & 0xFFu);
            a[0] += (uint32_t)(x[2 * b] * v0);
            a[1] += (uint32_t)(x[2 * b] * v1);
            a[2] += (uint32_t)(x[2 * b + 1] * v0);
            a[3] += (uint32_t)(x[2 * b + 1] * v1);
        }
    }
}
#endif

/* a0 += sum x[k]·(w0[k]+128), a1 += sum x[k]·(w1[k]+128), k < n. */
static inline void xt_dot2(const int16_t *x, const int8_t *w0, const int8_t *w1, int32_t n, uint32_t *a0,
                           uint32_t *a1) {
    int32_t k = 0;
    if ((((uintptr_t)w0 | (uintptr_t)w1) & 3u) == 0 && n >= 4) {
        xt_dot2_words(x, w0, w1, n >> 2, a0, a1);
        k = n & ~3;
    }
    uint32_t s0 = 0, s1 = 0;
    for (; k < n; k++) {
        int32_t xv = x[k];
        s0 += (uint32_t)(xv * (int32_t)((uint8_t)w0[k] ^ 0x80u));
        s1 += (uint32_t)(xv * (int32_t)((uint8_t)w1[k] ^ 0x80u));
    }
    *a0 += s0;
    *a1 += s1;
}

/* Two interleaved pixels x[2k], x[2k+1] against rows w0, w1 (see xt_dot22_words). */
static inline void xt_dot22(const int16_t *x, const int8_t *w0, const int8_t *w1, int32_t n, uint32_t a[4]) {
    int32_t k = 0;
    if ((((uintptr_t)w0 | (uintptr_t)w1) & 3u) == 0 && n >= 4) {
        xt_dot22_words(x, w0, w1, n >> 2, a);
        k = n & ~3;
    }
    for (; k < n; k++) {
        int32_t xa = x[2 * k], xb = x[2 * k + 1];
        int32_t v0 = (int32_t)((uint8_t)w0[k] ^ 0x80u), v1 = (int32_t)((uint8_t)w1[k] ^ 0x80u);
        a[0] += (uint32_t)(xa * v0);
        a[1] += (uint32_t)(xa * v1);
        a[2] += (uint32_t)(xb * v0);
        a[3] += (uint32_t)(xb * v1);
    }
}

/* x'[k] = src[k] - zp for k < n into dst[k·stride]; returns sum x' (wrapping). */
static inline uint32_t xt_offset_row(int16_t *dst, const int8_t *src, int32_t n, int32_t zp, int32_t stride) {
    uint32_t s = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t v = (int32_t)src[k] - zp;
        dst[k * stride] = (int16_t)v;
        s += (uint32_t)v;
    }
    return s;
}

/* n zeros into dst[k·stride] (taps in the padding). */
static inline void xt_zero_row(int16_t *dst, int32_t n, int32_t stride) {
    for (int32_t k = 0; k < n; k++) dst[k * stride] = 0;
}

/* Rows [0, oc) of w (row length n) against x' (sum sx), plus each channel's
 * bias (in rq), requantised into y[0..oc). */
static inline void xt_rows(const int16_t *x, uint32_t sx, const int8_t *w, int32_t n, int32_t oc, const xt_rq_t *rq,
                           int32_t zp_out, int32_t lo, int32_t hi, int8_t *y) {
    uint32_t corr = 0u - (sx << 7); /* -128·sum x' */
    int32_t o = 0;
    for (; o + 2 <= oc; o += 2) {
        uint32_t a0 = corr + rq[o].bias, a1 = corr + rq[o + 1].bias;
        xt_dot2(x, w + (size_t)o * (size_t)n, w + (size_t)(o + 1) * (size_t)n, n, &a0, &a1);
        y[o] = xt_out(xt_mbqm((int32_t)a0, &rq[o]), zp_out, lo, hi);
        y[o + 1] = xt_out(xt_mbqm((int32_t)a1, &rq[o + 1]), zp_out, lo, hi);
    }
    if (o < oc) {
        uint32_t a0 = corr + rq[o].bias, unused = 0;
        const int8_t *wo = w + (size_t)o * (size_t)n;
        xt_dot2(x, wo, wo, n, &a0, &unused); /* the last odd row, paired with itself */
        y[o] = xt_out(xt_mbqm((int32_t)a0, &rq[o]), zp_out, lo, hi);
    }
}

/* Two pixels at once: x interleaved (xt_dot22), sums sxa, sxb, outputs to
 * ya[0..oc) and yb[0..oc). An odd last row runs as a pair with itself. */
static inline void xt_rows22(const int16_t *x, uint32_t sxa, uint32_t sxb, const int8_t *w, int32_t n, int32_t oc,
                             const xt_rq_t *rq, int32_t zp_out, int32_t lo, int32_t hi, int8_t *ya, int8_t *yb) {
    uint32_t ca = 0u - (sxa << 7), cb = 0u - (sxb << 7);
    for (int32_t o = 0; o < oc; o += 2) {
        int32_t o1 = o + 1 < oc ? o + 1 : o;
        uint32_t b0 = rq[o].bias, b1 = rq[o1].bias;
        uint32_t a[4] = {ca + b0, ca + b1, cb + b0, cb + b1};
        xt_dot22(x, w + (size_t)o * (size_t)n, w + (size_t)o1 * (size_t)n, n, a);
        ya[o] = xt_out(xt_mbqm((int32_t)a[0], &rq[o]), zp_out, lo, hi);
        yb[o] = xt_out(xt_mbqm((int32_t)a[2], &rq[o]), zp_out, lo, hi);
        if (o1 != o) {
            ya[o1] = xt_out(xt_mbqm((int32_t)a[1], &rq[o1]), zp_out, lo, hi);
            yb[o1] = xt_out(xt_mbqm((int32_t)a[3], &rq[o1]), zp_out, lo, hi);
        }
    }
}

#endif /* TIGRIS_XT_DOT_H */
