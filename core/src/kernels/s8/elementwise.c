/*
 * elementwise.c - int8 elementwise binary operators with broadcasting and
 * one constant operand, following TFLite's integer reference kernels:
 *  - Add/Sub: operands shifted left by 20 bits, each rescaled to twice the
 *    larger input scale, summed, rescaled to the output; multipliers from the
 *    BINARY_REQUANT attribute when the plan has one, otherwise derived from
 *    the scales exactly as TFLite does in double precision.
 *  - Mul: (a - za)(b - zb) rescaled by sa·sb/sy.
 *  - Div: quotient through a fixed-point reciprocal of (b - zb).
 *  - SquaredDifference: operands shifted left by 7 and rescaled to twice the
 *    larger scale, the difference squared and rescaled.
 *  - Maximum/Minimum: raw comparison (identical quantisation required).
 *  - PRelu: two multipliers, s_in/s_out and s_in·s_alpha/s_out.
 * (docs/runtime-semantics.md R4.1, R4.3 items 8-12 and 23.)
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
        int32_t xa = (int32_t)((const int8_t *)b.a[0].p)[tk_operand_at(&b.out, &b.a[0], i)] - za;
        int32_t xb = (int32_t)((const int8_t *)b.a[1].p)[tk_operand_at(&b.out, &b.a[1], i)] - zb;
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

/* ---- TFLite's element-wise helpers (docs/runtime-semantics.md R4.1) ---- */

/* Elementwise multiplier of num/den formed in double: QuantizeMultiplier,
 * valid only with a shift of at most 30. */
static int em_ratio(fx_real_t num, fx_real_t den, int32_t *m, int32_t *s) {
    if (den.m == 0) return -1;
    fx_qm_value(fx_div_round(num, den, 53), m, s);
    return *s > 30 ? -1 : 0;
}

/* EM(v, m, s): saturating left shift, doubling high multiply, rounding
 * right shift (nothing is left beyond 31 bits). */
static int32_t em(int32_t v, int32_t m, int32_t s) {
    int32_t l = s > 0 ? s : 0, r = s > 0 ? 0 : -s;
    int32_t p = fx_srdhm(fx_sat_shl(v, l), m);
    if (r > 31) return 0;
    return fx_rdbpot(p, r);
}

/* Elementwise requantize to int8 around zp: -1 when the shift lies outside
 * [-31, 30] or v·2^s does not fit 32 bits. */
static int em_requant(int32_t v, int32_t m, int32_t s, int32_t zp, int32_t *q) {
    if (s < -31 || s > 30) return -1;
    if (s > 0) {
        int32_t lim = (int32_t)(1u << (31 - s));
        if (v >= lim || v < -lim) return -1;
    }
    int32_t r = em(v, m, s);
    *q = r > 127 - zp ? 127 : (r < -128 - zp ? -128 : r + zp);
    return 0;
}

static int32_t clz32(uint32_t u) {
    if (!u) return 32;
    int32_t n = 0;
    while (!(u & 0x80000000u)) {
        u <<= 1;
        n++;
    }
    return n;
}

/* Rounding divide by 2^e (ties away from zero) of a 32-bit value for any
 * e >= 0, as a 64-bit shift would do it: beyond 31 bits only the sign is left. */
static int32_t rdbpot_wide(int32_t x, int32_t e) {
    if (e <= 31) return fx_rdbpot(x, e);
    if (e >= 63) return 0;
    uint64_t mask = ((uint64_t)1 << e) - 1u;
    uint64_t rem = (uint64_t)(int64_t)x & mask;
    uint64_t threshold = (mask >> 1) + (x < 0 ? 1u : 0u);
    int32_t q = x < 0 ? -1 : 0; /* floor(x / 2^e): |x| <= 2^31 < 2^e */
    return q + (rem > threshold ? 1 : 0);
}

/* 0 when a positive value (already rounded to 24 bits) is a normal float. */
static int f32_normal(fx_real_t v) {
    if (v.m == 0) return -1;
    int32_t top = v.e + fx_bitlen64(v.m); /* v in [2^(top-1), 2^top) */
    return (top - 1 < -126 || top > 128) ? -1 : 0;
}

static int same_quant(const tigris_quant_param_t *a, const tigris_quant_param_t *b) {
    if (!a || !b) return 0;
    uint32_t x, y;
    memcpy(&x, &a->scale, 4);
    memcpy(&y, &b->scale, 4);
    return x == y && a->zero_point == b->zero_point;
}

/* Output scale and zero point of an int8 binary op. */
static int output_quant(const tigris_plan_t *plan, const tk_binary_t *b, fx_real_t *sy, int32_t *zy) {
    if (!tigris_tensor_quant(plan, b->out.t)) return -1;
    if (fx_from_float_bits(tk_scale_bits(plan, b->out.t), sy) || sy->m == 0) return -1;
    *zy = tk_zero_point(plan, b->out.t);
    return 0;
}

static int32_t in_a(const tk_binary_t *b, uint32_t i) {
    return ((const int8_t *)b->a[0].p)[tk_operand_at(&b->out, &b->a[0], i)];
}

static int32_t in_b(const tk_binary_t *b, uint32_t i) {
    return ((const int8_t *)b->a[1].p)[tk_operand_at(&b->out, &b->a[1], i)];
}

/* TFLite's int8 Div. The multiplier is QuantizeMultiplier of
 * sa / (sb·sy) evaluated in float (two roundings to 24 bits); per element
 * (b - zb) is inverted with the gemmlowp 1/(1+x) Newton iteration after
 * normalising it to [1, 2), the signed numerator is shifted up by its
 * headroom, multiplied by that reciprocal, and the remaining power of two
 * is divided out with rounding. (b - zb) == 0 is a kernel error. */
int tk_s8_div(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_binary_t b;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, &b)) return -1;
    fx_real_t sa, sb, sy;
    int32_t za, zb, zy;
    if (operand_quant(&b.a[0], &sa, &za) || operand_quant(&b.a[1], &sb, &zb) || output_quant(plan, &b, &sy, &zy))
        return -1;
    fx_real_t den = fx_round_bits(fx_mul_real(sb, sy), 24);
    if (f32_normal(den)) return -1;
    fx_real_t ratio = fx_div_round(sa, den, 24);
    if (f32_normal(ratio)) return -1;
    int32_t m, s;
    fx_qm_value(ratio, &m, &s);
    int32_t lo = -128, hi = 127;
    if (op->fused_act != TIGRIS_ACT_NONE) {
        lo = op->act_min;
        hi = op->act_max;
    }
    int8_t *y = (int8_t *)b.y;
    for (uint32_t i = 0; i < b.count; i++) {
        int32_t num = in_a(&b, i) - za, dv = in_b(&b, i) - zb;
        if (dv == 0) return -1;
        if (dv < 0) {
            num = -num;
            dv = -dv;
        }
        int32_t lz = clz32((uint32_t)dv);
        int32_t rshift = 31 - lz;
        int32_t frac = (int32_t)(((uint32_t)dv << lz) - 0x80000000u); /* dv/2^rshift - 1 in Q0.31 */
        int32_t inv = fx_sat_shl(fx_nr_one_over_one_plus(fx_half_sum(frac, INT32_MAX)), 1);
        int32_t head = clz32((uint32_t)(num >= 0 ? num : ~num)) - 1;
        int32_t quo = fx_srdhm((int32_t)((uint32_t)num << head), inv);
        int32_t e = rshift + head - s;
        if (e < 0) return -1;
        int32_t r = rdbpot_wide(fx_srdhm(quo, m), e);
        int32_t q = r > 127 - zy ? 127 : (r < -128 - zy ? -128 : r + zy);
        y[i] = (int8_t)fx_clamp(q, lo, hi);
    }
    return 0;
}

/* TFLite's int8 SquaredDifference: left shift 7, both operands brought to
 * twice the larger input scale, the difference squared and rescaled by
 * twice² / (2^14·sy). */
int tk_s8_squared_difference(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                             tigris_mem_t *mem) {
    tk_binary_t b;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, &b)) return -1;
    fx_real_t sa, sb, sy;
    int32_t za, zb, zy;
    if (operand_quant(&b.a[0], &sa, &za) || operand_quant(&b.a[1], &sb, &zb) || output_quant(plan, &b, &sy, &zy))
        return -1;
    fx_real_t twice = fx_real_ge(sa, sb) ? sa : sb;
    twice.e += 1;
    fx_real_t den = sy; /* (1 << 14) · sy in float: exact unless it overflows */
    den.e += 14;
    if (den.e + fx_bitlen64(den.m) > 128) return -1;
    int32_t m0, s0, m1, s1, m2, s2;
    if (em_ratio(sa, twice, &m0, &s0) || em_ratio(sb, twice, &m1, &s1) ||
        em_ratio(fx_mul_real(twice, twice), den, &m2, &s2))
        return -1;
    int8_t *y = (int8_t *)b.y;
    for (uint32_t i = 0; i < b.count; i++) {
        int32_t d = em((in_a(&b, i) - za) * 128, m0, s0) - em((in_b(&b, i) - zb) * 128, m1, s1);
        int32_t q;
        if (em_requant(d * d, m2, s2, zy, &q)) return -1;
        y[i] = (int8_t)q;
    }
    return 0;
}

/* Maximum/Minimum: a, b and y share one encoding, so raw values compare. */
static int max_min(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                   int is_max) {
    tk_binary_t b;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, &b)) return -1;
    const tigris_quant_param_t *qy = tigris_tensor_quant(plan, b.out.t);
    if (!same_quant(b.a[0].quant, qy) || !same_quant(b.a[1].quant, qy)) return -1;
    int8_t *y = (int8_t *)b.y;
    for (uint32_t i = 0; i < b.count; i++) {
        int32_t u = in_a(&b, i), v = in_b(&b, i);
        y[i] = (int8_t)(is_max ? (u < v ? v : u) : (v < u ? v : u));
    }
    return 0;
}

int tk_s8_maximum(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return max_min(plan, op, op_index, mem, 1);
}

int tk_s8_minimum(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return max_min(plan, op, op_index, mem, 0);
}

/* TFLite's int8 PRelu: x - zx >= 0 is rescaled by s_in/s_out, the rest as
 * (x - zx)(alpha - zalpha) by s_in·s_alpha/s_out (both ratios in double).
 * The slope is operand 1 (the constant of CONSTANT_OPERAND position 1). */
int tk_s8_prelu(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_binary_t b;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, &b)) return -1;
    fx_real_t sx, sal, sy;
    int32_t zx, zal, zy;
    if (operand_quant(&b.a[0], &sx, &zx) || operand_quant(&b.a[1], &sal, &zal) || output_quant(plan, &b, &sy, &zy))
        return -1;
    int32_t m0, s0, m1, s1;
    if (em_ratio(sx, sy, &m0, &s0) || em_ratio(fx_mul_real(sx, sal), sy, &m1, &s1)) return -1;
    int8_t *y = (int8_t *)b.y;
    for (uint32_t i = 0; i < b.count; i++) {
        int32_t v = in_a(&b, i) - zx, q;
        int bad = v >= 0 ? em_requant(v, m0, s0, zy, &q) : em_requant(v * (in_b(&b, i) - zal), m1, s1, zy, &q);
        if (bad) return -1;
        y[i] = (int8_t)q;
    }
    return 0;
}
