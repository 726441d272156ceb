/*
 * requant_mve.h - MultiplyByQuantizedMultiplier on four int32 lanes (M55).
 *
 * Bit-identical to fx_mbqm: VQRDMULH is gemmlowp's saturating rounding
 * doubling high multiply (gemmlowp's own NEON path uses its twin VQRDMULH),
 * and the rounding right shift with ties away from zero is gemmlowp's
 * fixup (subtract one from negative values, saturating) followed by a
 * rounding shift (ties up). Shifts are clamped to 31 as fx_mbqm clamps them.
 */
#ifndef TIGRIS_ARM_REQUANT_MVE_H
#define TIGRIS_ARM_REQUANT_MVE_H

#include "arm_common.h"

#if TA_MVE

/* Multipliers and shifts of channels ch..ch+3 as vectors. */
static inline void ta_rq_load4(const ta_requant_t *rq, int32_t ch, int32x4_t *m, int32x4_t *l, int32x4_t *negr) {
    int32x4_t s;
    if (rq->step) {
        *m = vld1q_s32(rq->mult + ch);
        s = vld1q_s32(rq->shift + ch);
    } else {
        *m = vdupq_n_s32(rq->mult[0]);
        s = vdupq_n_s32(rq->shift[0]);
    }
    int32x4_t zero = vdupq_n_s32(0), c31 = vdupq_n_s32(31);
    *l = vminq_s32(vmaxq_s32(s, zero), c31);
    *negr = vnegq_s32(vminq_s32(vmaxq_s32(vnegq_s32(s), zero), c31));
}

/* Four accumulators -> four requantised, clamped int32 values. */
static inline int32x4_t ta_rq_apply4(const ta_requant_t *rq, int32x4_t acc, int32x4_t m, int32x4_t l, int32x4_t negr) {
    int32x4_t p = vqrdmulhq_s32(vshlq_s32(acc, l), m);
    int32x4_t fix = vshrq_n_s32(vandq_s32(p, negr), 31);
    p = vrshlq_s32(vqaddq_s32(p, fix), negr);
    p = vaddq_n_s32(p, rq->zp_out);
    return vminq_s32(vmaxq_s32(p, vdupq_n_s32(rq->act_min)), vdupq_n_s32(rq->act_max));
}

#endif /* TA_MVE */

#endif /* TIGRIS_ARM_REQUANT_MVE_H */
