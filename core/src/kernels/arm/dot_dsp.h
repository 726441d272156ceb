/*
 * dot_dsp.h - int8 dot products on ARMv7E-M DSP (M4, M7).
 *
 * Activations are widened once per column to 16-bit pairs with -zp_in added
 * (SXTAB16): per block of four values, word 0 holds (x0, x2) and word 1
 * (x1, x3), the lanes SXTB16 gives a weight word and the same word rotated
 * by 8. SMLAD then multiplies matching pairs and adds both products, so a
 * weight word costs one load and two extends for two (or four) SMLADs and a
 * column word is one load. Sums wrap in 32 bits like the reference's.
 *
 * Columns are stored as blocks of `stride` words: 2 for one column, 4 for
 * two columns interleaved (block b: column 0's two words, then column 1's),
 * so a 2x2 pass reads both columns with one pointer. Only whole blocks of
 * four are widened; the k % 4 tail is done in scalar code from the int8
 * column by the callers (ta_tail).
 */
#ifndef TIGRIS_ARM_DOT_DSP_H
#define TIGRIS_ARM_DOT_DSP_H

#include "arm_common.h"

#if TA_DSP

/* -zp in both 16-bit lanes, for SXTAB16. */
static inline uint32_t ta_lane_offset(int32_t zp) {
    uint32_t n = (uint32_t)(-zp) & 0xFFFFu;
    return n | (n << 16);
}

/* Widen `blocks` blocks of four int8 values of src (minus zp) into dst,
 * `stride` words apart. */
static inline void ta_q15_widen(const int8_t *src, int32_t blocks, uint32_t off, int32_t *dst, int32_t stride) {
    for (int32_t b = 0; b < blocks; b++, src += 4, dst += stride) {
        uint32_t v = ta_ld32(src);
        dst[0] = __sxtab16((int32_t)off, (int32_t)v);
        dst[1] = ta_sxtab16_ror8((int32_t)off, v);
    }
}

/* Two interleaved columns (cp, stride 4) x two weight rows (w, w + ws):
 * acc = {c0.w0, c0.w1, c1.w0, c1.w1}. */
static inline void ta_q15_dot_2x2(const int32_t *cp, const int8_t *w, int32_t ws, int32_t blocks, int32_t acc[4]) {
    int32_t a00 = acc[0], a01 = acc[1], a10 = acc[2], a11 = acc[3];
    const int32_t *end = cp + 4 * blocks;
    while (cp != end) {
        uint32_t wa = ta_ld32(w), wb = ta_ld32(w + ws);
        w += 4;
        int32_t wae = __sxtb16((int32_t)wa), wao = ta_sxtb16_ror8(wa);
        int32_t wbe = __sxtb16((int32_t)wb), wbo = ta_sxtb16_ror8(wb);
        int32_t x0 = cp[0], x1 = cp[1];
        a00 = __smlad(x0, wae, a00);
        a00 = __smlad(x1, wao, a00);
        a01 = __smlad(x0, wbe, a01);
        a01 = __smlad(x1, wbo, a01);
        x0 = cp[2];
        x1 = cp[3];
        cp += 4;
        a10 = __smlad(x0, wae, a10);
        a10 = __smlad(x1, wao, a10);
        a11 = __smlad(x0, wbe, a11);
        a11 = __smlad(x1, wbo, a11);
    }
    acc[0] = a00;
    acc[1] = a01;
    acc[2] = a10;
    acc[3] = a11;
}

/* One column (cp, stride 2) x four weight rows w + o * ws. */
static inline void ta_q15_dot_1x4(const int32_t *cp, const int8_t *w, int32_t ws, int32_t blocks, int32_t acc[4]) {
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    const int32_t *end = cp + 2 * blocks;
    while (cp != end) {
        int32_t x0 = cp[0], x1 = cp[1];
        cp += 2;
        uint32_t v = ta_ld32(w);
        a0 = __smlad(x0, __sxtb16((int32_t)v), a0);
        a0 = __smlad(x1, ta_sxtb16_ror8(v), a0);
        v = ta_ld32(w + ws);
        a1 = __smlad(x0, __sxtb16((int32_t)v), a1);
        a1 = __smlad(x1, ta_sxtb16_ror8(v), a1);
        v = ta_ld32(w + 2 * ws);
        a2 = __smlad(x0, __sxtb16((int32_t)v), a2);
        a2 = __smlad(x1, ta_sxtb16_ror8(v), a2);
        v = ta_ld32(w + 3 * ws);
        a3 = __smlad(x0, __sxtb16((int32_t)v), a3);
        a3 = __smlad(x1, ta_sxtb16_ror8(v), a3);
        w += 4;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

/* One column (cp, `stride` words per block) x one weight row. */
static inline int32_t ta_q15_dot_1x1(const int32_t *cp, int32_t stride, const int8_t *w, int32_t blocks, int32_t a0) {
    for (int32_t b = 0; b < blocks; b++, cp += stride, w += 4) {
        uint32_t v = ta_ld32(w);
        a0 = __smlad(cp[0], __sxtb16((int32_t)v), a0);
        a0 = __smlad(cp[1], ta_sxtb16_ror8(v), a0);
    }
    return a0;
}

#endif /* TA_DSP */

/* acc + sum over k in [from, k) of (c[k] - zp) * w[k]: the tail after the
 * whole blocks. */
static inline int32_t ta_tail(const int8_t *c, const int8_t *w, int32_t from, int32_t k, int32_t zp, int32_t acc) {
    for (int32_t i = from; i < k; i++) acc = (int32_t)((uint32_t)acc + (uint32_t)(((int32_t)c[i] - zp) * w[i]));
    return acc;
}

#endif /* TIGRIS_ARM_DOT_DSP_H */
