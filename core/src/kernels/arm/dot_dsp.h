/*
 * dot_dsp.h - int8 dot products on ARMv7E-M DSP: four int8 lanes per word,
 * widened to two 16-bit pairs (SXTB16 of the word and of the word rotated
 * by 8: lanes 0,2 and 1,3 — the same pairing on both operands, so SMLAD's
 * pairwise products meet), two multiply-accumulates per SMLAD.
 *
 * The activation side adds -zp_in while widening (SXTAB16), so the sums are
 * the reference's sum of (x - zp_in) * w, wrapping in 32 bits like it.
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

/* acc[c*2 + o] += sum_k (col_c[k] - zp) * w_o[k] for two columns c and two
 * weight rows o of length k: each loaded word feeds two SMLADs. */
static inline void ta_dot_2x2(const int8_t *c0, const int8_t *c1, const int8_t *w0, const int8_t *w1, int32_t k,
                              uint32_t off, int32_t zp, int32_t acc[4]) {
    int32_t a00 = acc[0], a01 = acc[1], a10 = acc[2], a11 = acc[3];
    int32_t i = 0;
    for (; i + 4 <= k; i += 4) {
        uint32_t wa = ta_ld32(w0 + i), wb = ta_ld32(w1 + i);
        int32_t wa_e = (int32_t)__sxtb16((int32_t)wa), wa_o = (int32_t)ta_sxtb16_ror8(wa);
        int32_t wb_e = (int32_t)__sxtb16((int32_t)wb), wb_o = (int32_t)ta_sxtb16_ror8(wb);
        uint32_t x = ta_ld32(c0 + i);
        int32_t x_e = (int32_t)__sxtab16((int32_t)off, (int32_t)x), x_o = (int32_t)ta_sxtab16_ror8((int32_t)off, x);
        a00 = __smlad(x_e, wa_e, a00);
        a00 = __smlad(x_o, wa_o, a00);
        a01 = __smlad(x_e, wb_e, a01);
        a01 = __smlad(x_o, wb_o, a01);
        x = ta_ld32(c1 + i);
        x_e = (int32_t)__sxtab16((int32_t)off, (int32_t)x);
        x_o = (int32_t)ta_sxtab16_ror8((int32_t)off, x);
        a10 = __smlad(x_e, wa_e, a10);
        a10 = __smlad(x_o, wa_o, a10);
        a11 = __smlad(x_e, wb_e, a11);
        a11 = __smlad(x_o, wb_o, a11);
    }
    for (; i < k; i++) {
        int32_t x0 = (int32_t)c0[i] - zp, x1 = (int32_t)c1[i] - zp;
        a00 = (int32_t)((uint32_t)a00 + (uint32_t)(x0 * w0[i]));
        a01 = (int32_t)((uint32_t)a01 + (uint32_t)(x0 * w1[i]));
        a10 = (int32_t)((uint32_t)a10 + (uint32_t)(x1 * w0[i]));
        a11 = (int32_t)((uint32_t)a11 + (uint32_t)(x1 * w1[i]));
    }
    acc[0] = a00;
    acc[1] = a01;
    acc[2] = a10;
    acc[3] = a11;
}

/* One column against two weight rows. */
static inline void ta_dot_1x2(const int8_t *c0, const int8_t *w0, const int8_t *w1, int32_t k, uint32_t off,
                              int32_t zp, int32_t *r0, int32_t *r1) {
    int32_t a0 = *r0, a1 = *r1;
    int32_t i = 0;
    for (; i + 4 <= k; i += 4) {
        uint32_t wa = ta_ld32(w0 + i), wb = ta_ld32(w1 + i), x = ta_ld32(c0 + i);
        int32_t x_e = (int32_t)__sxtab16((int32_t)off, (int32_t)x), x_o = (int32_t)ta_sxtab16_ror8((int32_t)off, x);
        a0 = __smlad(x_e, (int32_t)__sxtb16((int32_t)wa), a0);
        a0 = __smlad(x_o, (int32_t)ta_sxtb16_ror8(wa), a0);
        a1 = __smlad(x_e, (int32_t)__sxtb16((int32_t)wb), a1);
        a1 = __smlad(x_o, (int32_t)ta_sxtb16_ror8(wb), a1);
    }
    for (; i < k; i++) {
        int32_t x0 = (int32_t)c0[i] - zp;
        a0 = (int32_t)((uint32_t)a0 + (uint32_t)(x0 * w0[i]));
        a1 = (int32_t)((uint32_t)a1 + (uint32_t)(x0 * w1[i]));
    }
    *r0 = a0;
    *r1 = a1;
}

/* One column against one weight row. */
static inline int32_t ta_dot_1x1(const int8_t *c0, const int8_t *w0, int32_t k, uint32_t off, int32_t zp,
                                 int32_t a0) {
    int32_t i = 0;
    for (; i + 4 <= k; i += 4) {
        uint32_t wa = ta_ld32(w0 + i), x = ta_ld32(c0 + i);
        a0 = __smlad((int32_t)__sxtab16((int32_t)off, (int32_t)x), (int32_t)__sxtb16((int32_t)wa), a0);
        a0 = __smlad((int32_t)ta_sxtab16_ror8((int32_t)off, x), (int32_t)ta_sxtb16_ror8(wa), a0);
    }
    for (; i < k; i++) a0 = (int32_t)((uint32_t)a0 + (uint32_t)(((int32_t)c0[i] - zp) * w0[i]));
    return a0;
}

#endif /* TA_DSP */

#endif /* TIGRIS_ARM_DOT_DSP_H */
