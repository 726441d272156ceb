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

#define XT_ADD_TABLE_MIN 512u /* elements from which the tables pay off */

static int operand_quant(const tk_operand_t *o, fx_real_t *s, int32_t *zp) {
    if (!o->quant) return -1;
    uint32_t bits;
    memcpy(&bits, &o->quant->scale, 4);
    if (fx_from_float_bits(bits, s) || s->m == 0) return -1;
    *zp = fx_clamp(o->quant->zero_point, -128, 127);
    return 0;
}

/* The reference's multipliers: from BINARY_REQUANT, or derived from the
 * scales as TFLite does. */
static int add_params(const tigris_plan_t *plan, uint16_t op_index, fx_real_t sa, fx_real_t sb, fx_real_t sy,
                      int32_t p[6]) {
    uint8_t len = 0;
    const uint8_t *rq = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_BINARY_REQUANT, &len);
    if (rq) {
        if (len != 24) return -1;
        for (uint32_t i = 0; i < 6; i++) p[i] = tk_ld_i32(rq, i);
        return 0;
    }
    fx_real_t twice = fx_real_ge(sa, sb) ? sa : sb;
    twice.e += 1;
    fx_real_t den = sy;
    den.e += 20;
    if (fx_qm_ratio(sa, twice, &p[0], &p[1]) || fx_qm_ratio(sb, twice, &p[2], &p[3]) ||
        fx_qm_ratio(twice, den, &p[4], &p[5]))
        return -1;
    return 0;
}

int xt_add(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
           xt_scratch_t *sc) {
    int32_t *tab = (int32_t *)xt_take(sc, 2u * 256u * 4u);
    if (!tab) return XT_DECLINE;
    if (!sc->base) return 0;
    tk_binary_t b;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, &b)) return XT_DECLINE;
    for (int k = 0; k < 2; k++)
        if (b.a[k].kind == TK_OPND_GENERAL || b.a[k].period == 0) return XT_DECLINE;
    fx_real_t sa, sb, sy;
    int32_t za, zb, zy, p[6];
    if (operand_quant(&b.a[0], &sa, &za) || operand_quant(&b.a[1], &sb, &zb)) return XT_DECLINE;
    const tigris_quant_param_t *qy = tigris_tensor_quant(plan, b.out.t);
    if (!qy || fx_from_float_bits(tk_scale_bits(plan, b.out.t), &sy) || sy.m == 0) return XT_DECLINE;
    zy = tk_zero_point(plan, b.out.t);
    if (add_params(plan, op_index, sa, sb, sy, p)) return XT_DECLINE;
    xt_rq_t qa, qb, qo;
    if (xt_rq_make(p[0], p[1], &qa) || xt_rq_make(p[2], p[3], &qb) || xt_rq_make(p[4], p[5], &qo)) return XT_DECLINE;
    int32_t lo = -128, hi = 127;
    if (op->fused_act != TIGRIS_ACT_NONE) {
        lo = op->act_min;
        hi = op->act_max;
    }
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
