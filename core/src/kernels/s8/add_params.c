/*
 * add_params.c - see add_params.h.
 */
#include "add_params.h"

#include "fixedpoint.h"

static int operand_quant(const tk_operand_t *o, fx_real_t *s, int32_t *zp) {
    if (!o->quant) return -1;
    uint32_t bits;
    memcpy(&bits, &o->quant->scale, 4);
    if (fx_from_float_bits(bits, s) || s->m == 0) return -1;
    *zp = fx_clamp(o->quant->zero_point, -128, 127);
    return 0;
}

int tk_s8_add_params(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, const tk_binary_t *b,
                     tk_s8_add_t *p) {
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
