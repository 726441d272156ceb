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

#define TA_ADD_LUT_MIN 1024u

typedef struct {
    int32_t za, zb, zy, ma, sha, mb, shb, my, shy, lo, hi;
} add_params_t;

static int operand_quant(const tk_operand_t *o, fx_real_t *s, int32_t *zp) {
    if (!o->quant) return -1;
    uint32_t bits;
    memcpy(&bits, &o->quant->scale, 4);
    if (fx_from_float_bits(bits, s) || s->m == 0) return -1;
    *zp = fx_clamp(o->quant->zero_point, -128, 127);
    return 0;
}

/* The reference's parameter derivation (s8/elementwise.c, OP_ADD). */
static int add_params(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, const tk_binary_t *b,
                      add_params_t *p) {
    fx_real_t sa, sb, sy;
    if (operand_quant(&b->a[0], &sa, &p->za) || operand_quant(&b->a[1], &sb, &p->zb)) return -1;
    const tigris_quant_param_t *qy = tigris_tensor_quant(plan, b->out.t);
    if (!qy || fx_from_float_bits(tk_scale_bits(plan, b->out.t), &sy) || sy.m == 0) return -1;
    p->zy = tk_zero_point(plan, b->out.t);
    p->lo = -128;
    p->hi = 127;
    if (op->fused_act != TIGRIS_ACT_NONE) {
        p->lo = op->act_min;
        p->hi = op->act_max;
    }
    uint8_t len = 0;
    const uint8_t *rq = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_BINARY_REQUANT, &len);
    if (rq) {
        if (len != 24) return -1;
        p->ma = tk_ld_i32(rq, 0);
        p->sha = tk_ld_i32(rq, 1);
        p->mb = tk_ld_i32(rq, 2);
        p->shb = tk_ld_i32(rq, 3);
        p->my = tk_ld_i32(rq, 4);
        p->shy = tk_ld_i32(rq, 5);
        return 0;
    }
    fx_real_t twice = fx_real_ge(sa, sb) ? sa : sb;
    twice.e += 1;
    fx_real_t den = sy;
    den.e += 20;
    if (fx_qm_ratio(sa, twice, &p->ma, &p->sha) || fx_qm_ratio(sb, twice, &p->mb, &p->shb) ||
        fx_qm_ratio(twice, den, &p->my, &p->shy))
        return -1;
    return 0;
}

static inline int8_t add_out(const add_params_t *p, int32_t sum) {
    return (int8_t)fx_clamp(fx_wadd(ta_mbqm(sum, p->my, p->shy), p->zy), p->lo, p->hi);
}

/* Per element: the three rescales. */
static void add_direct(const add_params_t *p, const int8_t *xa, const int8_t *xb, int8_t *y, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        int32_t A = ta_mbqm(((int32_t)xa[i] - p->za) * (1 << 20), p->ma, p->sha);
        int32_t B = ta_mbqm(((int32_t)xb[i] - p->zb) * (1 << 20), p->mb, p->shb);
        y[i] = add_out(p, fx_wadd(A, B));
    }
}

/* Operand rescales from two 256-entry tables indexed by the byte + 128. */
static void add_lut(const add_params_t *p, const int8_t *xa, const int8_t *xb, int8_t *y, uint32_t count,
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
    add_params_t p;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, &b)) return TA_FALLBACK;
    if (b.a[0].kind != TK_OPND_DENSE || b.a[1].kind != TK_OPND_DENSE) return TA_FALLBACK;
    if (add_params(plan, op, op_index, &b, &p)) return TA_FALLBACK;
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
