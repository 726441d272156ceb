/*
 * arm_common.h - what the accelerated Cortex-M int8 kernels share: the
 * answer a kernel gives when it does not take a shape (TA_FALLBACK: the
 * dispatcher then runs the int8 reference), the scratch area prepare()
 * reserved, the requantisation parameters of an op's output, and the
 * per-op entry points with their scratch-size twins.
 *
 * Every kernel here must produce the int8 reference's bytes exactly, so the
 * arithmetic is the reference's (../s8/fixedpoint.h): wrapping int32
 * accumulation (SMLAD and VMLADAVA wrap the same way), TFLite's
 * MultiplyByQuantizedMultiplier, zero point, act clamp.
 *
 * Instruction sets: ARMv7E-M DSP (__ARM_FEATURE_DSP: M4, M7, and M55 too)
 * is the baseline; with MVE (__ARM_FEATURE_MVE, M55) the conv family uses
 * Helium vectors instead.
 */
#ifndef TIGRIS_ARM_COMMON_H
#define TIGRIS_ARM_COMMON_H

#include "../kernel_common.h"
#include "../s8/fixedpoint.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#    include <arm_acle.h>
#    define TA_DSP 1
#else
#    define TA_DSP 0
#endif
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#    include <arm_mve.h>
#    define TA_MVE 1
#else
#    define TA_MVE 0
#endif

/* For the small helpers of the hot loops: GCC 12 stops inlining them into
 * the large specialised conv loops (which then pay a call, spills and
 * reloads per 2x2 pass). */
#define TA_INLINE static inline __attribute__((always_inline))

/* A kernel's answer "not this shape": the dispatcher runs the reference,
 * which also reports any error the plan holds. */
#define TA_FALLBACK 1

/* Scratch of the prepared context: NULL/0 when prepare() was not called for
 * this mem (kernels that need scratch then fall back). */
uint8_t *ta_scratch(const tigris_mem_t *mem, uint32_t need);

/* Rounds scratch sizes so every kernel's area starts word aligned. */
static inline uint32_t ta_round16(uint64_t v) {
    v = (v + 15u) & ~(uint64_t)15u;
    return v > 0xFFFFFFF0u ? 0xFFFFFFF0u : (uint32_t)v;
}

/* The output requantisation of a conv-family op: multiplier/shift arrays
 * read with stride 0 (one channel) or 1 (per channel). */
typedef struct {
    const int32_t *mult, *shift;
    uint32_t step;
    int32_t zp_out, act_min, act_max;
} ta_requant_t;

static const int32_t ta_unit_mult = 1, ta_zero_shift = 0;

/* Requantisation of output tensor `out` for `channels` channels; -1 when the
 * per-channel record is shorter than that (the reference refuses it too). */
static inline int ta_requant_init(const tigris_plan_t *plan, const tigris_op_t *op, const tigris_tensor_t *out,
                                  int32_t channels, ta_requant_t *rq) {
    const tigris_quant_param_t *q = tigris_tensor_quant(plan, out);
    rq->zp_out = tk_zero_point(plan, out);
    rq->act_min = op->act_min;
    rq->act_max = op->act_max;
    if (!q || !plan->quant_data) {
        rq->mult = &ta_unit_mult;
        rq->shift = &ta_zero_shift;
        rq->step = 0;
        return 0;
    }
    if (q->num_channels > 1 && q->num_channels < channels) return -1;
    rq->mult = tigris_quant_multipliers(plan, q);
    rq->shift = tigris_quant_shifts(plan, q);
    rq->step = q->num_channels > 1 ? 1u : 0u;
    return 0;
}

/* fx_mbqm with one SMULL and no branches on the product: gemmlowp's
 * saturating rounding doubling high multiply is floor((a*m + 2^30) / 2^31)
 * for every a, m except a = m = INT32_MIN (saturates). For negative
 * products that equals the reference's truncating form
 * (a*m + 1 - 2^30) / 2^31, since ceil(n / d) = floor((n + d - 1) / d).
 * The parity image checks the two against each other. */
static inline int32_t ta_mbqm(int32_t x, int32_t m, int32_t shift) {
    int32_t l = shift > 0 ? shift : 0, r = shift > 0 ? 0 : -shift;
    if (l > 31) l = 31;
    int32_t a = (int32_t)((uint32_t)x << l), p;
    if (a == INT32_MIN && m == INT32_MIN)
        p = INT32_MAX;
    else
        p = (int32_t)(((int64_t)a * m + (1 << 30)) >> 31);
    return fx_rdbpot(p, r);
}

/* acc -> int8 exactly as the reference's requant_out. */
static inline int8_t ta_requant(const ta_requant_t *rq, int32_t ch, int32_t acc) {
    uint32_t c = (uint32_t)ch * rq->step;
    int32_t q = fx_wadd(ta_mbqm(acc, rq->mult[c], rq->shift[c]), rq->zp_out);
    return (int8_t)fx_clamp(q, rq->act_min, rq->act_max);
}

/* One output channel prepared once per call: its bias (0 without one), the
 * multiplier, the left shift and right shift fx_mbqm derives from the
 * shift, and the right shift's remainder mask (2^rsh - 1). */
typedef struct {
    int32_t bias, mult;
    uint16_t lsh, rsh;
    uint32_t mask;
} ta_chq_t;

/* Fill p[0..channels) from rq and the int32 bias bytes (or NULL); -1 when a
 * multiplier is INT32_MIN (the one value whose saturating product
 * ta_requant_fast leaves out: such plans go to the reference). */
static inline int ta_requant_prep(const ta_requant_t *rq, const uint8_t *bias, int32_t channels, ta_chq_t *p) {
    for (int32_t c = 0; c < channels; c++) {
        uint32_t i = (uint32_t)c * rq->step;
        int32_t m = rq->mult[i], s = rq->shift[i];
        if (m == INT32_MIN) return -1;
        p[c].bias = bias ? tk_ld_i32(bias, (uint32_t)c) : 0;
        p[c].mult = m;
        p[c].lsh = (uint16_t)(s > 0 ? (s > 31 ? 31 : s) : 0);
        p[c].rsh = (uint16_t)(s > 0 ? 0 : (-s > 31 ? 31 : -s));
        p[c].mask = ((uint32_t)1 << p[c].rsh) - 1u;
    }
    return 0;
}

/* ta_requant with prepared parameters and no branches: SMULL, the doubling
 * high half with its 2^30 nudge, the rounding shift with ties away from
 * zero (fx_rdbpot, written for any r in [0, 31]), zero point and clamp. */
TA_INLINE int8_t ta_requant_fast(const ta_requant_t *rq, const ta_chq_t *p, int32_t acc) {
    int32_t a = (int32_t)((uint32_t)acc << p->lsh);
    int32_t h = (int32_t)(((int64_t)a * p->mult + (1 << 30)) >> 31);
    uint32_t rem = (uint32_t)h & p->mask, thr = (p->mask >> 1) + ((uint32_t)h >> 31);
    int32_t q = fx_wadd((h >> p->rsh) + (rem > thr), rq->zp_out);
    q = q < rq->act_min ? rq->act_min : q;
    return (int8_t)(q > rq->act_max ? rq->act_max : q);
}

/* 1 when every prepared channel has no left shift and the act bounds are
 * the whole int8 range: then ta_requant_simple applies. */
static inline int ta_requant_is_simple(const ta_requant_t *rq, const ta_chq_t *p, int32_t channels) {
    if (rq->act_min != -128 || rq->act_max != 127) return 0;
    for (int32_t c = 0; c < channels; c++)
        if (p[c].lsh) return 0;
    return 1;
}

/* ta_requant_fast for that common case: no left shift, and the clamp is a
 * saturation to 8 bits (SSAT). */
TA_INLINE int8_t ta_requant_simple(const ta_requant_t *rq, const ta_chq_t *p, int32_t acc) {
    int32_t h = (int32_t)(((int64_t)acc * p->mult + (1 << 30)) >> 31);
    uint32_t rem = (uint32_t)h & p->mask, thr = (p->mask >> 1) + ((uint32_t)h >> 31);
    int32_t q = fx_wadd((h >> p->rsh) + (rem > thr), rq->zp_out);
#if TA_DSP
    return (int8_t)__ssat(q, 8);
#else
    return (int8_t)fx_clamp(q, -128, 127);
#endif
}

#if TA_DSP
/* ta_requant_simple when the accumulator arrives doubled (acc2 = 2 * acc,
 * exact: conv's "doubled" mode proves |acc| < 2^30 per call, widens the
 * weights as 2 * w and starts from 2 * bias). Then gemmlowp's doubling high
 * multiply floor((acc * m + 2^30) / 2^31) is floor((acc2 * m + 2^31) / 2^32),
 * one SMMULR; its result h has |h| < 2^30. The rounding shift by r >= 1
 * with ties away from zero is floor((h + 2^(r-1) - (h < 0)) / 2^r), and the
 * zero point joins as zp * 2^r (r <= 22: no overflow), so p->mask holds
 * nudge = 2^(r-1) + zp * 2^r (ta_requant_dbl_prep). */
TA_INLINE int8_t ta_requant_dbl(const ta_chq_t *p, int32_t acc2) {
    int32_t h;
    __asm__("smmulr %0, %1, %2" : "=r"(h) : "r"(acc2), "r"(p->mult));
    int32_t t = (int32_t)((uint32_t)h + p->mask + (uint32_t)(h >> 31));
    return (int8_t)__ssat(t >> p->rsh, 8);
}

/* ta_requant_dbl with the nudge added by the multiply itself: SMMLAR
 * gives p->mask + h in one instruction, and the sign of acc2 stands for
 * h's in the tie correction. That needs m >= 0 (ta_requant_dbl_prep
 * requires it): then acc2 * m < 0 whenever h < 0, and where the two signs
 * differ h is 0 and subtracting 1 from 2^(r-1) + zp * 2^r (r >= 1) leaves
 * the quotient zp unchanged. */
TA_INLINE int8_t ta_requant_dbl_mla(const ta_chq_t *p, int32_t acc2) {
    int32_t t;
    __asm__("smmlar %0, %1, %2, %3" : "=r"(t) : "r"(acc2), "r"(p->mult), "r"(p->mask));
    t += acc2 >> 31;
    return (int8_t)__ssat(t >> p->rsh, 8);
}

/* Marks a channel of ta_requant_dbl_prep's doubled form in ta_chq_t.lsh
 * (only ever set on channels without a left shift, in calls whose
 * requantisation is simple). */
#define TA_CHQ_DBL 0x8000u

/* Turn prepared channels (ta_requant_prep, all simple) into the doubled
 * form where they qualify: 1 <= r <= 22, m >= 0 and |bias| + xmax * wabs[c] < 2^30,
 * where xmax bounds |x - zp_in| and wabs[c] is channel c's sum of |w|.
 * Channels go by pairs (2c, 2c + 1; a last odd one alone), both or
 * neither, as conv's 2x2 passes take them: such a channel gets its bias
 * doubled, the nudge in mask and TA_CHQ_DBL in lsh. Returns how many
 * channels were turned. */
static inline int32_t ta_requant_dbl_prep(const ta_requant_t *rq, ta_chq_t *p, int32_t channels, int32_t xmax,
                                          const uint32_t *wabs) {
    int32_t turned = 0;
    if (rq->zp_out < -128 || rq->zp_out > 127) return 0;
    for (int32_t c0 = 0; c0 < channels; c0 += 2) {
        int32_t c1 = c0 + 2 < channels ? c0 + 2 : channels, ok = 1;
        for (int32_t c = c0; c < c1; c++) {
            int64_t b = p[c].bias < 0 ? -(int64_t)p[c].bias : (int64_t)p[c].bias;
            if (p[c].lsh || p[c].rsh < 1 || p[c].rsh > 22 || p[c].mult < 0) ok = 0;
            if (b + (int64_t)xmax * wabs[c] >= ((int64_t)1 << 30)) ok = 0;
        }
        for (int32_t c = c0; ok && c < c1; c++, turned++) {
            p[c].bias = (int32_t)((uint32_t)p[c].bias * 2u);
            p[c].mask = ((uint32_t)1 << (p[c].rsh - 1)) + (uint32_t)rq->zp_out * ((uint32_t)1 << p[c].rsh);
            p[c].lsh = TA_CHQ_DBL;
        }
    }
    return turned;
}
#endif

/* Unaligned 32-bit load (activations and weights carry no alignment). */
static inline uint32_t ta_ld32(const void *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

#if TA_DSP
/* SXTB16 / SXTAB16 of a word rotated by 8, in one instruction (the
 * instruction's own rotate; GCC 12 emits a separate ROR for the intrinsic
 * of a rotated value). */
static inline int32_t ta_sxtb16_ror8(uint32_t x) {
    int32_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
    return r;
}
static inline int32_t ta_sxtab16_ror8(int32_t a, uint32_t x) {
    int32_t r;
    __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(x));
    return r;
}
#endif

/* ---- Per-op accelerated entry points (0, -1, or TA_FALLBACK) and their
 *      scratch-size twins (bytes the op needs in the reservation) ---- */
int ta_conv(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
uint32_t ta_conv_scratch(const tigris_plan_t *plan, const tigris_op_t *op);
int ta_depthwise(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
uint32_t ta_depthwise_scratch(const tigris_plan_t *plan, const tigris_op_t *op);
int ta_fully_connected(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
uint32_t ta_fully_connected_scratch(const tigris_plan_t *plan, const tigris_op_t *op);
int ta_max_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
int ta_avg_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
uint32_t ta_pool_scratch(const tigris_plan_t *plan, const tigris_op_t *op);
int ta_add(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
uint32_t ta_add_scratch(const tigris_plan_t *plan, const tigris_op_t *op);

#endif /* TIGRIS_ARM_COMMON_H */
