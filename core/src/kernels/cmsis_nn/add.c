/*
 * add.c - int8 Add through CMSIS-NN's arm_elementwise_add_s8.
 *
 * Both are TFLite's Add: each operand (v - zp) << 20 rescaled, summed, the
 * sum rescaled to the output. The parameters are derived as the reference
 * derives them (s8/elementwise.c: the BINARY_REQUANT attribute, or the exact
 * derivation from the scales).
 * Taken: both operands dense (the output's shape), whole tensor or band.
 * Fallback to the reference: any broadcast or constant operand, a multiplier
 * of INT32_MIN or a shift beyond +-31, an output zero point outside int8.
 */
#include "cn_internal.h"

typedef struct {
    int32_t za, zb, zy, ma, sha, mb, shb, my, shy, lo, hi;
} cn_add_params_t;

static int operand_quant(const tk_operand_t *o, fx_real_t *s, int32_t *zp) {
    if (!o->quant) return -1;
    uint32_t bits;
    memcpy(&bits, &o->quant->scale, 4);
    if (fx_from_float_bits(bits, s) || s->m == 0) return -1;
    *zp = fx_clamp(o->quant->zero_point, -128, 127);
    return 0;
}

static int add_params(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, const tk_binary_t *b,
                      cn_add_params_t *p) {
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

static int rq_ok(int32_t m, int32_t s) { return m != INT32_MIN && s >= -31 && s <= 31; }

int cn_add(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_binary_t b;
    cn_add_params_t p;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, &b)) return CN_FALLBACK;
    if (b.a[0].kind != TK_OPND_DENSE || b.a[1].kind != TK_OPND_DENSE) return CN_FALLBACK;
    if (add_params(plan, op, op_index, &b, &p)) return CN_FALLBACK;
    if (!rq_ok(p.ma, p.sha) || !rq_ok(p.mb, p.shb) || !rq_ok(p.my, p.shy)) return CN_FALLBACK;
    if (!cn_out_ok(p.zy, p.lo, p.hi) || b.count > 0x7FFFFFFFu) return CN_FALLBACK;
    arm_cmsis_nn_status st =
        arm_elementwise_add_s8((const int8_t *)b.a[0].p, (const int8_t *)b.a[1].p, -p.za, p.ma, p.sha, -p.zb, p.mb,
                               p.shb, 20, (int8_t *)b.y, p.zy, p.my, p.shy, p.lo, p.hi, (int32_t)b.count);
    return st == ARM_CMSIS_NN_SUCCESS ? 0 : CN_FALLBACK;
}

uint32_t cn_add_scratch(const tigris_plan_t *plan, const tigris_op_t *op) {
    (void)plan;
    (void)op;
    return 0;
}
