/*
 * dot_mve.h - int8 dot products on Helium (M55): sixteen int8 products
 * summed into a 32-bit scalar per VMLADAVA, tails predicated (VCTP8).
 *
 * These sums are raw (sum of x * w); the kernels fold the input zero point
 * in afterwards as -zp_in * sum(w), which is the same int32 value modulo
 * 2^32 as the reference's sum of (x - zp_in) * w. Padding taps hold zp_in,
 * so they contribute (zp_in - zp_in) * w = 0 like the reference's skipped taps.
 */
#ifndef TIGRIS_ARM_DOT_MVE_H
#define TIGRIS_ARM_DOT_MVE_H

#include "arm_common.h"

#if TA_MVE

/* Full sixteen-byte blocks run unpredicated and the tail once under a
 * VCTP8 predicate: GCC 12 spills and reloads the predicate register when
 * every iteration is predicated. */

/* acc + sum_k c[k] * w[k]. */
static inline int32_t ta_mve_dot(const int8_t *c, const int8_t *w, int32_t k, int32_t acc) {
    int32_t i = 0;
    for (; i + 16 <= k; i += 16) acc = vmladavaq_s8(acc, vld1q_s8(c + i), vld1q_s8(w + i));
    if (i < k) {
        mve_pred16_t p = vctp8q((uint32_t)(k - i));
        acc = vmladavaq_p_s8(acc, vldrbq_z_s8(c + i, p), vldrbq_z_s8(w + i, p), p);
    }
    return acc;
}

/* acc[o] += sum_k c[k] * w[o * ws + k] for four weight rows: one activation
 * load feeds four VMLADAVAs. */
static inline void ta_mve_dot_1x4(const int8_t *c, const int8_t *w, int32_t ws, int32_t k, int32_t acc[4]) {
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    const int8_t *w1 = w + ws, *w2 = w1 + ws, *w3 = w2 + ws;
    int32_t i = 0;
    for (; i + 16 <= k; i += 16) {
        int8x16_t x = vld1q_s8(c + i);
        a0 = vmladavaq_s8(a0, x, vld1q_s8(w + i));
        a1 = vmladavaq_s8(a1, x, vld1q_s8(w1 + i));
        a2 = vmladavaq_s8(a2, x, vld1q_s8(w2 + i));
        a3 = vmladavaq_s8(a3, x, vld1q_s8(w3 + i));
    }
    if (i < k) {
        mve_pred16_t p = vctp8q((uint32_t)(k - i));
        int8x16_t x = vldrbq_z_s8(c + i, p);
        a0 = vmladavaq_p_s8(a0, x, vldrbq_z_s8(w + i, p), p);
        a1 = vmladavaq_p_s8(a1, x, vldrbq_z_s8(w1 + i, p), p);
        a2 = vmladavaq_p_s8(a2, x, vldrbq_z_s8(w2 + i, p), p);
        a3 = vmladavaq_p_s8(a3, x, vldrbq_z_s8(w3 + i, p), p);
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/* sum_k w[k]. */
static inline int32_t ta_mve_sum(const int8_t *w, int32_t k) {
    int32_t acc = 0, i = 0;
    for (; i + 16 <= k; i += 16) acc = vaddvaq_s8(acc, vld1q_s8(w + i));
    if (i < k) {
        mve_pred16_t p = vctp8q((uint32_t)(k - i));
        acc = vaddvaq_p_s8(acc, vldrbq_z_s8(w + i, p), p);
    }
    return acc;
}

#endif /* TA_MVE */

#endif /* TIGRIS_ARM_DOT_MVE_H */
