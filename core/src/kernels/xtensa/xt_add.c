/*
 * xt_add.c - int8 Add for lx106, bit-exact with the reference
 * (s8/elementwise.c): each operand (x - z) << 20 is rescaled to twice the
 * larger input scale, the two are summed and rescaled to the output.
 *
 * Operands the same shape as the output, or periodic broadcasts (a suffix of
 * the output's shape: bias-like constants), walk with running indices
 * instead of the reference's per-element modulo; general broadcasts go to
 * the reference. An operand's rescaled value depends only on its int8 byte,
 * so for longer runs both are tabulated once (256 entries each) and an
 * element costs two table reads and one requantisation.
 */
#include "xt_internal.h"
#include "../s8/add_params.h"

#define XT_ADD_TABLE_MIN 512u /* elements from which the tables pay off */

int xt_add(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
           xt_scratch_t *sc) {
    int32_t *tab = (int32_t *)xt_take(sc, 2u * 256u * 4u);
    if (!tab) return XT_DECLINE;
    if (!sc->base) return 0;
    tk_binary_t b;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, &b)) return XT_DECLINE;
    for (int k = 0; k < 2; k++)
        if (b.a[k].kind == TK_OPND_GENERAL || b.a[k].period == 0) return XT_DECLINE;
    tk_s8_add_t p;
    if (tk_s8_add_params(plan, op, op_index, &b, &p)) return XT_DECLINE;
    xt_rq_t qa, qb, qo;
    if (xt_rq_make(p.ma, p.sha, &qa) || xt_rq_make(p.mb, p.shb, &qb) || xt_rq_make(p.my, p.shy, &qo))
        return XT_DECLINE;
    const int32_t za = p.za, zb = p.zb, zy = p.zy, lo = p.lo, hi = p.hi;
    const int8_t *pa = (const int8_t *)b.a[0].p, *pb = (const int8_t *)b.a[1].p;
    /* DENSE operands run over the band like a period as long as it. */
    uint32_t per_a = b.a[0].kind == TK_OPND_DENSE ? b.count : b.a[0].period;
    uint32_t per_b = b.a[1].kind == TK_OPND_DENSE ? b.count : b.a[1].period;
    int8_t *y = (int8_t *)b.y;
    uint32_t ja = 0, jb = 0;
    if (b.count >= XT_ADD_TABLE_MIN) {
        int32_t *ta = tab + 128, *tb = tab + 256 + 128; /* indexed by the signed byte */
        for (int32_t v = -128; v < 128; v++) {
            ta[v] = xt_mbqm((v - za) * (1 << 20), &qa);
            tb[v] = xt_mbqm((v - zb) * (1 << 20), &qb);
        }
        for (uint32_t i = 0; i < b.count; i++) {
            int32_t s = fx_wadd(ta[pa[ja]], tb[pb[jb]]);
            y[i] = xt_out(xt_mbqm(s, &qo), zy, lo, hi);
            if (++ja == per_a) ja = 0;
            if (++jb == per_b) jb = 0;
        }
    } else {
        for (uint32_t i = 0; i < b.count; i++) {
            int32_t A = xt_mbqm((pa[ja] - za) * (1 << 20), &qa);
            int32_t B = xt_mbqm((pb[jb] - zb) * (1 << 20), &qb);
            y[i] = xt_out(xt_mbqm(fx_wadd(A, B), &qo), zy, lo, hi);
            if (++ja == per_a) ja = 0;
            if (++jb == per_b) jb = 0;
        }
    }
    return 0;
}
