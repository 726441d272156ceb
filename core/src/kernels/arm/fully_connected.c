/*
 * fully_connected.c - accelerated int8 FullyConnected (and its scratch twin).
 *
 * Routing (ta_fully_connected): every int8 FC the reference accepts (rank 1
 * or >= 2 output, batch rows or a ROWS band of them); shapes it refuses go
 * to the reference, which reports them. Each batch row is a column against
 * the [OC, IC] weight rows:
 *   - DSP: rows widened once to 16-bit pairs (-zp_in added, in scratch),
 *     then two batch rows x two output channels per pass (ta_q15_dot_2x2);
 *     a single row one x two channels (ta_q15_dot_1x2: LDRD weight loads,
 *     so only when the rows are word aligned and k % 4 == 0), else one x
 *     four (ta_q15_dot_1x4, LDR, any alignment, scalar k % 4 tail);
 *   - MVE: one row x four channels per pass, the weight sums that fold in
 *     the input zero point accumulated in the same loop, four outputs
 *     requantised per vector.
 * Scratch: DSP 16 bytes per four inputs (two widened rows) and 16 per
 * output channel (bias and requantisation prepared once); MVE none.
 */
#include "dot_dsp.h"
#include "dot_mve.h"
#include "requant_mve.h"

typedef struct {
    const int8_t *x, *w;
    int8_t *y;
    const uint8_t *bias;
    int32_t nb, ic, oc, zp_in;
    ta_requant_t rq;
} fc_args_t;

/* The reference's checks, in its order; TA_FALLBACK on any refusal. */
static int fc_args(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, fc_args_t *a) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return TA_FALLBACK;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return TA_FALLBACK;
    if (tk_fc_geom(&iv, &ov, mem, &a->nb, &a->ic, &a->oc)) return TA_FALLBACK;
    uint64_t wcount = (uint64_t)a->oc * (uint64_t)a->ic;
    if (wcount > 0x7FFFFFFFu) return TA_FALLBACK;
    a->w = (const int8_t *)tk_weight(plan, op->weight_idx, (uint32_t)wcount);
    a->bias = NULL;
    if (op->bias_idx != TIGRIS_NONE16) {
        a->bias = (const uint8_t *)tk_weight(plan, op->bias_idx, (uint32_t)a->oc * 4u);
        if (!a->bias) return TA_FALLBACK;
    }
    if (ta_requant_init(plan, op, ov.t, a->oc, &a->rq)) return TA_FALLBACK;
    a->x = (const int8_t *)tk_buf(mem, ii);
    a->y = (int8_t *)tk_buf(mem, oi);
    if (!a->w || !a->x || !a->y) return TA_FALLBACK;
    a->zp_in = tk_zero_point(plan, iv.t);
    return 0;
}

/* Scratch bytes: DSP widens two rows, 16 bytes per block of four, plus the
 * channel table; MVE none. */
static uint64_t fc_scratch_bytes(int32_t ic, int32_t oc) {
    return TA_MVE ? 0u : 16u * ((uint64_t)ic / 4u) + sizeof(ta_chq_t) * (uint64_t)oc;
}

static int32_t fc_bias(const fc_args_t *a, int32_t o) { return a->bias ? tk_ld_i32(a->bias, (uint32_t)o) : 0; }

#if TA_MVE

/* Two weight rows w0, w0 + k against row x: raw dot products d and weight
 * sums s in one pass. Two rows, not four: four dot products and four sums
 * plus five pointers were more than GCC 12 kept in registers (it spilled
 * and reloaded them every block, 39 instructions per 64 MACs instead of
 * 13); two rows need 7 per 32. */
__attribute__((noinline)) static void row_x2(const int8_t *x, const int8_t *w0, int32_t k, int32_t d[2], int32_t s[2]) {
    const int8_t *w1 = w0 + k;
    int32_t d0 = 0, d1 = 0, s0 = 0, s1 = 0, i = k;
    /* Whole 16-byte blocks unpredicated, the tail once under VCTP8 (see
     * dot_mve.h); pointers walked so the loads post-increment. */
    for (; i >= 16; i -= 16, x += 16, w0 += 16, w1 += 16) {
        int8x16_t xv = vld1q_s8(x), v0 = vld1q_s8(w0), v1 = vld1q_s8(w1);
        d0 = vmladavaq_s8(d0, xv, v0);
        s0 = vaddvaq_s8(s0, v0);
        d1 = vmladavaq_s8(d1, xv, v1);
        s1 = vaddvaq_s8(s1, v1);
    }
    if (i > 0) {
        mve_pred16_t p = vctp8q((uint32_t)i);
        int8x16_t xv = vldrbq_z_s8(x, p), v0 = vldrbq_z_s8(w0, p), v1 = vldrbq_z_s8(w1, p);
        d0 = vmladavaq_p_s8(d0, xv, v0, p);
        s0 = vaddvaq_p_s8(s0, v0, p);
        d1 = vmladavaq_p_s8(d1, xv, v1, p);
        s1 = vaddvaq_p_s8(s1, v1, p);
    }
    d[0] = d0;
    d[1] = d1;
    s[0] = s0;
    s[1] = s1;
}

/* Four channels o..o+3 of row x: raw dot products and weight sums (two
 * passes of two rows), then bias - zp_in * sum folded in. */
static void row_x4(const fc_args_t *a, const int8_t *x, int32_t o, int32_t acc[4]) {
    int32_t k = a->ic, d[4], s[4];
    const int8_t *w = a->w + (size_t)o * k;
    row_x2(x, w, k, d, s);
    row_x2(x, w + 2 * (size_t)k, k, d + 2, s + 2);
    for (int j = 0; j < 4; j++) acc[j] = fx_wadd(fx_wsub(d[j], fx_wmul(a->zp_in, s[j])), fc_bias(a, o + j));
}

static int fc_run(const fc_args_t *a, uint8_t *scratch) {
    (void)scratch;
    for (int32_t b = 0; b < a->nb; b++) {
        const int8_t *x = a->x + (size_t)b * a->ic;
        int8_t *y = a->y + (size_t)b * a->oc;
        int32_t o = 0;
        for (; o + 4 <= a->oc; o += 4) {
            int32_t acc[4];
            row_x4(a, x, o, acc);
            int32x4_t m, l, nr;
            ta_rq_load4(&a->rq, o, &m, &l, &nr);
            vstrbq_s32(y + o, ta_rq_apply4(&a->rq, vld1q_s32(acc), m, l, nr));
        }
        for (; o < a->oc; o++) {
            const int8_t *w = a->w + (size_t)o * a->ic;
            int32_t d = ta_mve_dot(x, w, a->ic, 0), s = ta_mve_sum(w, a->ic);
            y[o] = ta_requant(&a->rq, o, fx_wadd(fx_wsub(d, fx_wmul(a->zp_in, s)), fc_bias(a, o)));
        }
    }
    return 0;
}

#else /* DSP */

/* Requantise for channel o (`simple` constant per specialised copy). */
#define RQ(o, acc) (simple ? ta_requant_simple(&a->rq, &ch[o], (acc)) : ta_requant_fast(&a->rq, &ch[o], (acc)))

/* Channel o's requantisation: from the table, or (direct, a single row
 * whose channels are each used once, fc_direct_ok) derived on the spot,
 * which saves filling and rereading the table. */
static inline __attribute__((always_inline)) ta_chq_t fc_ch(const fc_args_t *a, const ta_chq_t *ch, int32_t o,
                                                            int direct) {
    if (!direct) return ch[o];
    uint32_t i = (uint32_t)o * a->rq.step;
    ta_chq_t c;
    c.bias = fc_bias(a, o);
    c.mult = a->rq.mult[i];
    c.lsh = 0;
    c.rsh = (uint16_t)-a->rq.shift[i];
    c.mask = ((uint32_t)1 << c.rsh) - 1u;
    return c;
}

/* Requantise with a channel value (`simple` constant per copy). */
#define RQC(c, acc) (simple ? ta_requant_simple(&a->rq, &(c), (acc)) : ta_requant_fast(&a->rq, &(c), (acc)))

/* Batch row b alone: widened once, then one row x two channels (LDRD,
 * aligned rows without tail) or one x four, then one at a time. */
static inline __attribute__((always_inline)) void fc_row1(const fc_args_t *a, int32_t b, int32_t *q15,
                                                          const ta_chq_t *ch, int simple, int direct) {
    uint32_t off = ta_lane_offset(a->zp_in);
    int32_t k = a->ic, blocks = k / 4, kb = blocks * 4, zp = a->zp_in;
    const int8_t *x0 = a->x + (size_t)b * k;
    int8_t *y0 = a->y + (size_t)b * a->oc;
    ta_q15_widen(x0, blocks, off, q15, 2);
    int32_t o = 0;
    if (ta_q15_dot_1x2_ok(a->w, k)) { /* word-aligned rows, no tail: LDRD pairs of rows */
        const int8_t *w0 = a->w;
        for (; o + 2 <= a->oc; o += 2, w0 += 2 * k) {
            ta_chq_t c0 = fc_ch(a, ch, o, direct), c1 = fc_ch(a, ch, o + 1, direct);
            int32_t acc[2] = {c0.bias, c1.bias};
            ta_q15_dot_1x2(q15, w0, w0 + k, blocks, acc);
            y0[o] = RQC(c0, acc[0]);
            y0[o + 1] = RQC(c1, acc[1]);
        }
    }
    for (; o + 4 <= a->oc; o += 4) {
        const int8_t *w0 = a->w + (size_t)o * k;
        ta_chq_t c[4];
        for (int32_t j = 0; j < 4; j++) c[j] = fc_ch(a, ch, o + j, direct);
        int32_t acc[4] = {c[0].bias, c[1].bias, c[2].bias, c[3].bias};
        ta_q15_dot_1x4(q15, w0, k, blocks, acc);
        for (int32_t j = 0; j < 4; j++) y0[o + j] = RQC(c[j], ta_tail(x0, w0 + (size_t)j * k, kb, k, zp, acc[j]));
    }
    for (; o < a->oc; o++) {
        const int8_t *w0 = a->w + (size_t)o * k;
        ta_chq_t c = fc_ch(a, ch, o, direct);
        y0[o] = RQC(c, ta_tail(x0, w0, kb, k, zp, ta_q15_dot_1x1(q15, 2, w0, blocks, c.bias)));
    }
}

#undef RQC

/* The direct single row on word-aligned rows (ta_q15_dot_1x2_ok) in two
 * loops: every channel pair's raw dot product into acc (scratch), then
 * every channel requantised. One loop doing both kept too many values
 * live around the assembly pass (its twelve registers), so the compiler
 * spilled and reloaded the loop's own state every pair. Bias joins after
 * the dot product: both sums wrap, so the int32 result is the same. */
__attribute__((noinline)) static void fc_row1_split(const fc_args_t *a, int32_t *q15, int32_t *acc) {
    int32_t k = a->ic, blocks = k / 4, oc = a->oc, o = 0;
    ta_q15_widen(a->x, blocks, ta_lane_offset(a->zp_in), q15, 2);
    const int8_t *w0 = a->w;
    if (blocks >= 8 && (blocks & 7) == 0) { /* whole loop turns (k % 32 == 0): no odd-block tests per pair */
        int32_t b8 = blocks & ~7;
        for (; o + 2 <= oc; o += 2, w0 += 2 * k) {
            int32_t t[2] = {0, 0};
            ta_q15_dot_1x2(q15, w0, w0 + k, b8, t);
            acc[o] = t[0];
            acc[o + 1] = t[1];
        }
    }
    for (; o + 2 <= oc; o += 2, w0 += 2 * k) {
        int32_t t[2] = {0, 0};
        ta_q15_dot_1x2(q15, w0, w0 + k, blocks, t);
        acc[o] = t[0];
        acc[o + 1] = t[1];
    }
    if (o < oc) acc[o] = ta_q15_dot_1x1(q15, 2, w0, blocks, 0);
    /* Everything the loop reads in locals: the int8 stores may alias any
     * object, so fields read through `a` would be reloaded every output. */
    const int32_t *mp = a->rq.mult, *sp = a->rq.shift;
    const uint8_t *bias = a->bias;
    uint32_t step = a->rq.step;
    int32_t zp_out = a->rq.zp_out;
    int8_t *y = a->y;
    for (o = 0; o < oc; o++, mp += step, sp += step) {
        uint32_t r = (uint32_t)-*sp, mask = ((uint32_t)1 << r) - 1u;
        int32_t v = (int32_t)((uint32_t)acc[o] + (uint32_t)(bias ? tk_ld_i32(bias, (uint32_t)o) : 0));
        int32_t h = (int32_t)(((int64_t)v * *mp + (1 << 30)) >> 31);
        uint32_t rem = (uint32_t)h & mask, thr = (mask >> 1) + ((uint32_t)h >> 31);
        y[o] = (int8_t)__ssat(fx_wadd((h >> r) + (rem > thr), zp_out), 8);
    }
}

/* 1 when a single row may derive its channels directly (fc_ch): every
 * channel simple (no left shift, right shift <= 31, multiplier not
 * INT32_MIN, which ta_requant_prep refuses) and full int8 act bounds.
 * (The doubled form, one SMMLAR an output on 2 * acc, was tried for these
 * rows and measured no faster on ad01's FC layers, while proving its bound
 * cost a bias pass per call.) */
static int fc_direct_ok(const ta_requant_t *rq, int32_t channels) {
    if (rq->act_min != -128 || rq->act_max != 127) return 0;
    for (int32_t c = 0; c < channels; c++) {
        uint32_t i = (uint32_t)c * rq->step;
        if (rq->shift[i] > 0 || rq->shift[i] < -31 || rq->mult[i] == INT32_MIN) return 0;
    }
    return 1;
}

/* Rows widened once into scratch (two interleaved, or one), then two rows
 * x two channels (ta_q15_dot_2x2) or one row x four (ta_q15_dot_1x4). */
static inline __attribute__((always_inline)) void fc_rows(const fc_args_t *a, int32_t *q15, const ta_chq_t *ch,
                                                          int simple) {
    uint32_t off = ta_lane_offset(a->zp_in);
    int32_t k = a->ic, blocks = k / 4, kb = blocks * 4, b = 0, zp = a->zp_in;
    for (; b + 2 <= a->nb; b += 2) {
        const int8_t *x0 = a->x + (size_t)b * k, *x1 = x0 + k;
        int8_t *y0 = a->y + (size_t)b * a->oc, *y1 = y0 + a->oc;
        ta_q15_widen(x0, blocks, off, q15, 4);
        ta_q15_widen(x1, blocks, off, q15 + 2, 4);
        int32_t o = 0;
        for (; o + 2 <= a->oc; o += 2) {
            const int8_t *w0 = a->w + (size_t)o * k, *w1 = w0 + k;
            int32_t b0 = ch[o].bias, b1 = ch[o + 1].bias;
            int32_t acc[4] = {b0, b1, b0, b1};
            ta_q15_dot_2x2(q15, w0, k, blocks, acc);
            y0[o] = RQ(o, ta_tail(x0, w0, kb, k, zp, acc[0]));
            y0[o + 1] = RQ(o + 1, ta_tail(x0, w1, kb, k, zp, acc[1]));
            y1[o] = RQ(o, ta_tail(x1, w0, kb, k, zp, acc[2]));
            y1[o + 1] = RQ(o + 1, ta_tail(x1, w1, kb, k, zp, acc[3]));
        }
        if (o < a->oc) {
            const int8_t *w0 = a->w + (size_t)o * k;
            int32_t bs = ch[o].bias;
            y0[o] = RQ(o, ta_tail(x0, w0, kb, k, zp, ta_q15_dot_1x1(q15, 4, w0, blocks, bs)));
            y1[o] = RQ(o, ta_tail(x1, w0, kb, k, zp, ta_q15_dot_1x1(q15 + 2, 4, w0, blocks, bs)));
        }
    }
    if (b < a->nb) fc_row1(a, b, q15, ch, simple, 0);
}

#undef RQ

static int fc_run(const fc_args_t *a, uint8_t *scratch) {
    int32_t *q15 = (int32_t *)(void *)scratch;
    ta_chq_t *ch = (ta_chq_t *)(void *)(scratch + 16u * (size_t)(a->ic / 4));
    if (a->nb == 1 && fc_direct_ok(&a->rq, a->oc)) {
        if (ta_q15_dot_1x2_ok(a->w, a->ic))
            fc_row1_split(a, q15, (int32_t *)(void *)ch);
        else
            fc_row1(a, 0, q15, NULL, 1, 1);
        return 0;
    }
    if (ta_requant_prep(&a->rq, a->bias, a->oc, ch)) return TA_FALLBACK;
    if (ta_requant_is_simple(&a->rq, ch, a->oc))
        fc_rows(a, q15, ch, 1);
    else
        fc_rows(a, q15, ch, 0);
    return 0;
}

#endif

int ta_fully_connected(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    fc_args_t a;
    if (fc_args(plan, op, mem, &a)) return TA_FALLBACK;
    uint8_t *scratch = NULL;
    uint32_t need = ta_round16(fc_scratch_bytes(a.ic, a.oc));
    if (need && !(scratch = ta_scratch(mem, need))) return TA_FALLBACK;
    return fc_run(&a, scratch);
}

uint32_t ta_fully_connected_scratch(const tigris_plan_t *plan, const tigris_op_t *op) {
    tk_view_t iv, ov;
    if (tk_view(plan, tk_in_idx(plan, op, 0), &iv) || tk_view(plan, tk_out_idx(plan, op, 0), &ov)) return 0;
    int32_t nb, ic, oc;
    if (tk_fc_geom(&iv, &ov, NULL, &nb, &ic, &oc)) return 0;
    return ta_round16(fc_scratch_bytes(ic, oc));
}
