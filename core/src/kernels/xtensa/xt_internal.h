/*
 * xt_internal.h - what the lx106 kernels share: the scratch they carve from
 * the backend's reservation, the per-channel requantisation in 32-bit
 * arithmetic, and the kernel entry points the dispatcher routes to.
 *
 * Every kernel here returns 0 when it computed the op and XT_DECLINE when
 * it does not take it (a shape it has no variant for, an inconsistent record,
 * too little scratch): the dispatcher then runs the int8 reference, which
 * also decides whether the op is valid at all and reports errors. A kernel
 * checks everything before it writes any output.
 */
#ifndef TIGRIS_XT_INTERNAL_H
#define TIGRIS_XT_INTERNAL_H

#include "../kernel_common.h"
#include "../s8/fixedpoint.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the lx106 kernels read int8 weights four at a time in little-endian order"
#endif

#define XT_DECLINE 1

/* ---- Scratch: bump allocation inside the backend's reservation ---- */

typedef struct {
    uint8_t *base;
    uint32_t size;
    uint32_t used;
} xt_scratch_t;

/* bytes rounded up to 16 from the scratch, or NULL when it does not fit (or,
 * with base NULL, only counts: sizing for prepare). */
static inline void *xt_take(xt_scratch_t *s, uint64_t bytes) {
    uint64_t b = (bytes + 15u) & ~(uint64_t)15u;
    if (b > 0x7FFFFFFFu || b > (uint64_t)s->size - s->used) {
        s->used = UINT32_MAX;
        s->size = 0;
        return NULL;
    }
    void *p = s->base ? s->base + s->used : (void *)s; /* non-NULL when only counting */
    s->used += (uint32_t)b;
    return p;
}

/* ---- Requantisation without 64-bit arithmetic ----
 *
 * TFLite's MultiplyByQuantizedMultiplier: x << l, the saturating rounding
 * doubling high multiply by m, a rounding right shift by r. The high multiply
 * is floor((x·m + 2^30) / 2^31) for every pair but INT32_MIN·INT32_MIN (the
 * gemmlowp nudge rounds half up on both signs); with x and m split into
 * 16-bit halves that value is 2·xh·mh plus the floored sum of the cross
 * products' top parts and the carries out of their low 15 bits, all exact in
 * wrapping 32-bit arithmetic because the result fits int32. m == INT32_MIN
 * never reaches here (the kernel declines), so no saturation is needed. */
typedef struct {
    int32_t mh;     /* m >> 16 (arithmetic) */
    int32_t ml;     /* m & 0xFFFF */
    uint32_t mask;  /* (1 << r) - 1 */
    uint32_t bias;  /* the channel's bias (0 without one), aligned for one load */
    uint8_t l, r;   /* left shift (<= 31), right shift (<= 31) */
    uint8_t _pad[2];
} xt_rq_t;

static inline int32_t xt_srdhm(int32_t x, int32_t mh, int32_t ml) {
    int32_t xh = x >> 16;
    int32_t xl = (int32_t)((uint32_t)x & 0xFFFFu);
    int32_t hl = xh * ml; /* |.| < 2^31 */
    int32_t lh = xl * mh;
    uint32_t ll = (uint32_t)xl * (uint32_t)ml;
    uint32_t lo = ((uint32_t)hl & 0x7FFFu) + ((uint32_t)lh & 0x7FFFu) + (ll >> 16) + 0x4000u;
    uint32_t v = 2u * (uint32_t)(xh * mh) + (uint32_t)(hl >> 15) + (uint32_t)(lh >> 15) + (lo >> 15);
    return (int32_t)v;
}

/* Rounding divide by 2^r, ties away from zero (gemmlowp), r <= 31. */
static inline int32_t xt_rdbpot(int32_t v, uint32_t r, uint32_t mask) {
    uint32_t rem = (uint32_t)v & mask;
    uint32_t thr = (mask >> 1) + ((uint32_t)v >> 31);
    return (v >> r) + (rem > thr ? 1 : 0);
}

static inline int32_t xt_mbqm(int32_t x, const xt_rq_t *q) {
    return xt_rdbpot(xt_srdhm((int32_t)((uint32_t)x << q->l), q->mh, q->ml), q->r, q->mask);
}

/* Parameters of one (multiplier, shift) pair as fx_mbqm reads them; -1 for
 * the pairs it handles outside 32 bits (m == INT32_MIN, shift == INT32_MIN). */
static inline int xt_rq_make(int32_t m, int32_t shift, xt_rq_t *q) {
    if (m == INT32_MIN || shift == INT32_MIN) return -1;
    int32_t l = shift > 0 ? shift : 0;
    int32_t r = shift > 0 ? 0 : -shift;
    if (l > 31) l = 31;
    if (r > 31) r = 31;
    q->mh = m >> 16;
    q->ml = (int32_t)((uint32_t)m & 0xFFFFu);
    q->l = (uint8_t)l;
    q->r = (uint8_t)r;
    q->mask = r == 31 ? 0x7FFFFFFFu : ((1u << r) - 1u);
    q->bias = 0;
    q->_pad[0] = q->_pad[1] = 0;
    return 0;
}

/* Per-channel pairs of output tensor out for oc channels into rq[oc], the
 * way the reference's tk_requant picks them, with the bias (plan bytes,
 * unaligned, or NULL) beside them; -1 when a pair is unusable. */
static inline int xt_rq_channels(const tigris_plan_t *plan, const tigris_tensor_t *out, int32_t oc,
                                 const uint8_t *bias, xt_rq_t *rq) {
    for (int32_t c = 0; c < oc; c++) {
        int32_t m, s;
        if (tk_requant(plan, out, c, &m, &s) || xt_rq_make(m, s, &rq[c])) return -1;
        if (bias) rq[c].bias = (uint32_t)tk_ld_i32(bias, (uint32_t)c);
    }
    return 0;
}

/* tk_taps without its divisions when the dilation is 1 (the usual case):
 * lx106 has no divide instruction, and this runs once per output pixel. */
static inline void xt_taps(int32_t base, int32_t taps, int32_t d, int32_t e, int32_t *lo, int32_t *hi) {
    if (d != 1) {
        tk_taps(base, taps, d, e, lo, hi);
        return;
    }
    int32_t l = base < 0 ? -base : 0, h = e - base;
    if (l > taps) l = taps;
    if (h > taps) h = taps;
    if (h < l) h = l;
    *lo = l;
    *hi = h;
}

/* Output channel count check the reference makes on a per-channel record. */
static inline int xt_quant_channels_ok(const tigris_plan_t *plan, const tigris_tensor_t *out, int32_t oc) {
    const tigris_quant_param_t *oq = tigris_tensor_quant(plan, out);
    return !(oq && oq->num_channels > 1 && oq->num_channels < oc);
}

static inline int8_t xt_out(int32_t v, int32_t zp, int32_t lo, int32_t hi) {
    int32_t q = fx_wadd(v, zp);
    return (int8_t)(q < lo ? lo : (q > hi ? hi : q));
}

/* Four weight bytes of an aligned address as one word. */
static inline uint32_t xt_ld_w4(const int8_t *p) {
    uint32_t v;
    memcpy(&v, __builtin_assume_aligned(p, 4), 4);
    return v;
}

/* ---- Kernels (xt_conv.c, xt_depthwise.c, xt_pool.c, xt_add.c) ----
 * With sc->base NULL a kernel only sizes its scratch from the plan's shapes
 * (prepare) and returns XT_DECLINE when it would never take the op. */
int xt_conv(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, xt_scratch_t *sc);
int xt_fully_connected(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, xt_scratch_t *sc);
int xt_depthwise(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, xt_scratch_t *sc);
int xt_max_pool(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, xt_scratch_t *sc);
int xt_avg_pool(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, xt_scratch_t *sc);
int xt_add(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
           xt_scratch_t *sc);

#endif /* TIGRIS_XT_INTERNAL_H */
