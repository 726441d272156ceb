/*
 * elementwise.c - int8 Add/Sub (TFLite's scheme: operands shifted left by
 * 20 bits, each rescaled to twice the larger input scale, summed, then
 * rescaled to the output) and Mul ((a - za)(b - zb) rescaled by
 * sa·sb/sy), with broadcasting and one constant operand. Multipliers come
 * from the BINARY_REQUANT attribute when the plan has one, otherwise they
 * are derived from the scales exactly as TFLite does in double precision.
 */
#include "../kernel_common.h"
#include "fixedpoint.h"

enum { OP_ADD, OP_SUB, OP_MUL };

static int operand_quant(const tk_operand_t *o, fx_real_t *s, int32_t *zp) {
    if (!o->quant) return -1;
    uint32_t bits;
    memcpy(&bits, &o->quant->scale, 4);
    if (fx_from_float_bits(bits, s) || s->m == 0) return -1;
    *zp = fx_clamp(o->quant->zero_point, -128, 127);
    return 0;
}

static int binary(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                  int which) {
    tk_binary_t b;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, &b)) return -1;
    fx_real_t sa, sb, sy;
    int32_t za, zb, zy;
    if (operand_quant(&b.a[0], &sa, &za) || operand_quant(&b.a[1], &sb, &zb)) return -1;
    const tigris_quant_param_t *qy = tigris_tensor_quant(plan, b.out.t);
    if (!qy || fx_from_float_bits(tk_scale_bits(plan, b.out.t), &sy) || sy.m == 0) return -1;
    zy = tk_zero_point(plan, b.out.t);
    int32_t lo = -128, hi = 127;
    if (op->fused_act != TIGRIS_ACT_NONE) {
        lo = op->act_min;
        hi = op->act_max;
    }
    int32_t ma = 0, sha = 0, mb = 0, shb = 0, my = 0, shy = 0;
    if (which == OP_MUL) {
        if (fx_qm_ratio(fx_mul_real(sa, sb), sy, &my, &shy)) return -1;
    } else {
        uint8_t len = 0;
        const uint8_t *rq = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_BINARY_REQUANT, &len);
        if (rq) {
            if (len != 24) return -1;
            ma = tk_ld_i32(rq, 0);
            sha = tk_ld_i32(rq, 1);
            mb = tk_ld_i32(rq, 2);
            shb = tk_ld_i32(rq, 3);
            my = tk_ld_i32(rq, 4);
            shy = tk_ld_i32(rq, 5);
        } else {
            /* twice the larger scale: exact, one more power of two. */
            fx_real_t twice = fx_real_ge(sa, sb) ? sa : sb;
            twice.e += 1;
            fx_real_t den = sy;
            den.e += 20;
            if (fx_qm_ratio(sa, twice, &ma, &sha) || fx_qm_ratio(sb, twice, &mb, &shb) ||
                fx_qm_ratio(twice, den, &my, &shy))
                return -1;
        }
    }
    int8_t *y = (int8_t *)b.y;
    for (uint32_t i = 0; i < b.count; i++) {
        int32_t xa = (int32_t)((const int8_t *)b.a[0].p)[tk_operand_at(&b, &b.a[0], i)] - za;
        int32_t xb = (int32_t)((const int8_t *)b.a[1].p)[tk_operand_at(&b, &b.a[1], i)] - zb;
        int32_t q;
        if (which == OP_MUL) {
            q = fx_wadd(fx_mbqm(xa * xb, my, shy), zy);
        } else {
            int32_t A = fx_mbqm(xa * (1 << 20), ma, sha);
            int32_t B = fx_mbqm(xb * (1 << 20), mb, shb);
            int32_t S = which == OP_ADD ? fx_wadd(A, B) : fx_wsub(A, B);
            q = fx_wadd(fx_mbqm(S, my, shy), zy);
        }
        y[i] = (int8_t)fx_clamp(q, lo, hi);
    }
    return 0;
}

int tk_s8_add(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_ADD);
}

int tk_s8_sub(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_SUB);
}

int tk_s8_mul(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return binary(plan, op, op_index, mem, OP_MUL);
}
