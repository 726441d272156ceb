/*
 * add.c - accelerated int8 Add (and its scratch twin).
 *
 * Routing (ta_add):
 *   - both operands dense (same shape as the output, no broadcasting): the
 *     kernels below, whole tensor or band;
 *   - any broadcast or constant operand of another shape: the reference.
 * TFLite's Add rescales each operand, (v - zp) << 20 times its multiplier,
 * sums, and rescales the sum. The first rescale depends on the operand's
 * byte alone, so for large tensors (TA_ADD_LUT_MIN elements and up) it is
 * tabulated once per call for the 256 byte values (two int32 tables in
 * scratch) and each element costs two loads, an add and the output
 * rescale. Smaller tensors do the three rescales per element, which is
 * still the reference's arithmetic without its broadcast indexing.
 */
#include "arm_common.h"
#include "../s8/add_params.h"

#define TA_ADD_LUT_MIN 1024u

static inline int8_t add_out(const tk_s8_add_t *p, int32_t sum) {
    return (int8_t)fx_clamp(fx_wadd(ta_mbqm(sum, p->my, p->shy), p->zy), p->lo, p->hi);
}

/* Per element: the three rescales. */
static void add_direct(const tk_s8_add_t *p, const int8_t *xa, const int8_t *xb, int8_t *y, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        int32_t A = ta_mbqm(((int32_t)xa[i] - p->za) * (1 << 20), p->ma, p->sha);
        int32_t B = ta_mbqm(((int32_t)xb[i] - p->zb) * (1 << 20), p->mb, p->shb);
        y[i] = add_out(p, fx_wadd(A, B));
    }
}

/* Operand rescales from two 256-entry tables indexed by the byte + 128. */
static void add_lut(const tk_s8_add_t *p, const int8_t *xa, const int8_t *xb, int8_t *y, uint32_t count,
                    int32_t *lut) {
    int32_t *la = lut + 128, *lb = lut + 256 + 128;
    for (int32_t v = -128; v < 128; v++) {
        la[v] = ta_mbqm((v - p->za) * (1 << 20), p->ma, p->sha);
        lb[v] = ta_mbqm((v - p->zb) * (1 << 20), p->mb, p->shb);
    }
    for (uint32_t i = 0; i < count; i++) y[i] = add_out(p, fx_wadd(la[xa[i]], lb[xb[i]]));
}

int ta_add(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_binary_t b;
    tk_s8_add_t p;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, &b)) return TA_FALLBACK;
    if (b.a[0].kind != TK_OPND_DENSE || b.a[1].kind != TK_OPND_DENSE) return TA_FALLBACK;
    if (tk_s8_add_params(plan, op, op_index, &b, &p)) return TA_FALLBACK;
    const int8_t *xa = (const int8_t *)b.a[0].p, *xb = (const int8_t *)b.a[1].p;
    int32_t *lut = b.count >= TA_ADD_LUT_MIN ? (int32_t *)ta_scratch(mem, 512u * 4u) : NULL;
    if (lut)
        add_lut(&p, xa, xb, (int8_t *)b.y, b.count, lut);
    else
        add_direct(&p, xa, xb, (int8_t *)b.y, b.count);
    return 0;
}

uint32_t ta_add_scratch(const tigris_plan_t *plan, const tigris_op_t *op) {
    tk_view_t ov;
    if (tk_view(plan, tk_out_idx(plan, op, 0), &ov)) return 0;
    return ov.numel >= TA_ADD_LUT_MIN ? 512u * 4u : 0u;
}
