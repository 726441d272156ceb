/*
 * activation.c - int8 activations with TFLite's integer algorithms:
 * Relu/Relu6 requantise with the input/output scale ratio and clamp at the
 * quantised 0 and 6; Sigmoid and Tanh are gemmlowp's fixed-point logistic
 * and tanh on a Q4.27 input, with parameters derived from the input scale the
 * way TFLite Micro's Prepare does; Softmax is TFLite's fixed-point softmax
 * (output 1/256, -128). All parameters come from the scales' bits by integer
 * arithmetic: these kernels use no floating point.
 */
#include "../kernel_common.h"
#include "fixedpoint.h"

typedef struct {
    const int8_t *x;
    int8_t *y;
    uint32_t count;
    const tigris_tensor_t *ti, *to;
} s8_unary_t;

static int unary_setup(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, s8_unary_t *u) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8 || iv.numel != ov.numel) return -1;
    uint32_t ci, co, offi, offo;
    if (tk_band_span(mem, &iv, 0, &ci, &offi) || tk_band_span(mem, &ov, 1, &co, &offo) || ci != co) return -1;
    const int8_t *x = (const int8_t *)tk_buf(mem, ii);
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    u->x = x + offi;
    u->y = y + offo;
    u->count = ci;
    u->ti = iv.t;
    u->to = ov.t;
    return 0;
}

/* Relu (six == 0) and Relu6 as TFLite's ReluQuantized. Without quant records
 * the values pass with the clamp at zero point 0. */
static int relu_like(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int six) {
    s8_unary_t u;
    if (unary_setup(plan, op, mem, &u)) return -1;
    int32_t zi = tk_zero_point(plan, u.ti), zo = tk_zero_point(plan, u.to);
    fx_real_t si, so;
    uint32_t sib = tk_scale_bits(plan, u.ti), sob = tk_scale_bits(plan, u.to);
    if (!sib || !sob) {
        sib = sob = 0x3F800000u; /* 1.0: identity rescale */
        zo = zi;
    }
    if (fx_from_float_bits(sib, &si) || fx_from_float_bits(sob, &so) || so.m == 0) return -1;
    int32_t m, s;
    if (fx_qm_ratio(si, so, &m, &s)) return -1;
    int32_t lo = zo > -128 ? zo : -128, hi = 127;
    if (six) {
        fx_real_t six_r = {6, 0};
        int32_t q6 = zo + fx_scale_round(1, six_r, so);
        hi = q6 < 127 ? q6 : 127;
    }
    for (uint32_t i = 0; i < u.count; i++) {
        int32_t v = fx_wadd(zo, fx_mbqm((int32_t)u.x[i] - zi, m, s));
        u.y[i] = (int8_t)fx_clamp(fx_clamp(v, lo, hi), -128, 127);
    }
    return 0;
}

int tk_s8_relu(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return relu_like(plan, op, mem, 0);
}

int tk_s8_relu6(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return relu_like(plan, op, mem, 1);
}

/* TFLite Micro's Prepare for int8 Logistic/Tanh: multiplier and left shift
 * of s_in·2^27 from frexp (exact for a float scale: the 24-bit mantissa
 * shifted to 31 bits), and the input radius floor(15·2^27 / 2^shift). */
static int q4_params(uint32_t scale_bits, int32_t *mult, int32_t *shift, int32_t *radius) {
    fx_real_t s;
    if (fx_from_float_bits(scale_bits, &s) || s.m == 0) return -1;
    int nb = fx_bitlen64(s.m);
    /* s = m·2^e = (m / 2^nb)·2^(e + nb); times 2^27. */
    *mult = (int32_t)(s.m << (31 - nb));
    *shift = s.e + nb + 27;
    int32_t sh = *shift;
    if (sh >= 31) {
        *radius = sh - 27 >= 31 ? 0 : (int32_t)(15u >> (sh - 27));
    } else if (sh >= 0) {
        *radius = (int32_t)(((uint64_t)15 << 27) >> sh);
    } else {
        *radius = INT32_MAX;
    }
    return 0;
}

/* Sigmoid/Tanh output encodings TFLite requires for int8. */
#define SCALE_1_256 0x3B800000u
#define SCALE_1_128 0x3C000000u

static int q4_activation(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int is_tanh) {
    s8_unary_t u;
    if (unary_setup(plan, op, mem, &u)) return -1;
    const tigris_quant_param_t *qo = tigris_tensor_quant(plan, u.to);
    if (!qo || !tigris_tensor_quant(plan, u.ti)) return -1;
    if (is_tanh ? (tk_scale_bits(plan, u.to) != SCALE_1_128 || qo->zero_point != 0)
                : (tk_scale_bits(plan, u.to) != SCALE_1_256 || qo->zero_point != -128))
        return -1;
    int32_t m, sh, radius;
    if (q4_params(tk_scale_bits(plan, u.ti), &m, &sh, &radius)) return -1;
    int32_t zi = tk_zero_point(plan, u.ti);
    for (uint32_t i = 0; i < u.count; i++) {
        int32_t v = (int32_t)u.x[i] - zi;
        int32_t q;
        if (v <= -radius) {
            q = -128;
        } else if (v >= radius) {
            q = 127;
        } else {
            int32_t in_q4 = fx_mbqm(v, m, sh);
            if (is_tanh)
                q = fx_clamp(fx_rdbpot(fx_tanh(in_q4, 4), 24), -128, 127);
            else
                q = fx_clamp(fx_rdbpot(fx_logistic(in_q4, 4), 23) - 128, -128, 127);
        }
        u.y[i] = (int8_t)q;
    }
    return 0;
}

int tk_s8_sigmoid(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return q4_activation(plan, op, mem, 0);
}

int tk_s8_tanh(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return q4_activation(plan, op, mem, 1);
}

/* 1/(1+x) for x in [0, 1) in Q0.31 (gemmlowp one_over_one_plus_x_for_x_in_0_1). */
static int32_t one_over_one_plus(int32_t x) {
    return fx_sat_shl(fx_nr_one_over_one_plus(fx_half_sum(x, INT32_MAX)), 1);
}

/* TFLite's int8 Softmax over the last axis (beta 1). */
int tk_s8_softmax(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t iv;
    if (tk_view(plan, tk_in_idx(plan, op, 0), &iv) || iv.rank < 1) return -1;
    s8_unary_t u;
    if (unary_setup(plan, op, mem, &u)) return -1;
    const tigris_quant_param_t *qo = tigris_tensor_quant(plan, u.to);
    if (!qo || !tigris_tensor_quant(plan, u.ti)) return -1;
    if (tk_scale_bits(plan, u.to) != SCALE_1_256 || qo->zero_point != -128) return -1;
    /* PreprocessSoftmaxScaling: s_in·2^26, capped at 2^31 - 1, as a
     * multiplier greater than one. */
    fx_real_t s;
    if (fx_from_float_bits(tk_scale_bits(plan, u.ti), &s) || s.m == 0) return -1;
    int nb = fx_bitlen64(s.m);
    int32_t mult, lshift;
    if (s.e + nb + 26 > 31) {
        mult = INT32_MAX;
        lshift = 31;
    } else {
        mult = (int32_t)(s.m << (31 - nb));
        lshift = s.e + nb + 26;
    }
    if (lshift < 0 || lshift > 30) return -1;
    int32_t diff_min = -(int32_t)(((uint64_t)31 << 26) >> lshift);
    uint32_t depth = (uint32_t)iv.dim[iv.rank - 1];
    if (u.count % depth) return -1;
    for (uint32_t r = 0; r < u.count / depth; r++) {
        const int8_t *x = u.x + (size_t)r * depth;
        int8_t *y = u.y + (size_t)r * depth;
        int32_t mx = -128;
        for (uint32_t k = 0; k < depth; k++) mx = x[k] > mx ? x[k] : mx;
        int32_t sum = 0;
        for (uint32_t k = 0; k < depth; k++) {
            int32_t d = (int32_t)x[k] - mx;
            if (d >= diff_min) {
                int32_t e = fx_exp_on_negative(fx_srdhm((int32_t)((uint32_t)d << lshift), mult), 5);
                sum = fx_wadd(sum, fx_rdbpot(e, 12));
            }
        }
        int32_t hr = 0;
        while (hr < 32 && !(((uint32_t)sum << hr) & 0x80000000u)) hr++;
        int32_t bits_over_unit = 12 - hr;
        int32_t scale = one_over_one_plus((int32_t)(((uint32_t)sum << hr) - 0x80000000u));
        /* Exponents are recomputed rather than stored: the output may
         * share the input's buffer. */
        for (uint32_t k = 0; k < depth; k++) {
            int32_t d = (int32_t)x[k] - mx;
            int32_t q = -128;
            if (d >= diff_min) {
                int32_t e = fx_exp_on_negative(fx_srdhm((int32_t)((uint32_t)d << lshift), mult), 5);
                q = fx_clamp(fx_rdbpot(fx_srdhm(scale, e), bits_over_unit + 23) - 128, -128, 127);
            }
            y[k] = (int8_t)q;
        }
    }
    return 0;
}

/* TFLite's int8 LeakyRelu: two multipliers, s_in/s_out for x >= zp and
 * s_in·alpha/s_out for the rest. TFLite forms both ratios in float before
 * quantising them, so each float operation's rounding is reproduced. */
int tk_s8_leaky_relu(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    s8_unary_t u;
    if (unary_setup(plan, op, mem, &u)) return -1;
    if (!tigris_tensor_quant(plan, u.ti) || !tigris_tensor_quant(plan, u.to)) return -1;
    uint32_t alpha_bits = 0x3C23D70Au; /* 0.01f, the writer's default */
    uint8_t len = 0;
    const uint8_t *a = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_ALPHA, &len);
    if (a) {
        if (len < 4) return -1;
        memcpy(&alpha_bits, a, 4);
    }
    int negative_alpha = (alpha_bits >> 31) != 0;
    fx_real_t si, so, al;
    if (fx_from_float_bits(tk_scale_bits(plan, u.ti), &si) || fx_from_float_bits(tk_scale_bits(plan, u.to), &so) ||
        fx_from_float_bits(alpha_bits & 0x7FFFFFFFu, &al) || so.m == 0 || si.m == 0)
        return -1;
    int32_t mi, shi, ma, sha;
    fx_qm_value(fx_div_round(si, so, 24), &mi, &shi);
    fx_qm_value(fx_div_round(fx_round_bits(fx_mul_real(si, al), 24), so, 24), &ma, &sha);
    if (negative_alpha) ma = -ma;
    int32_t zi = tk_zero_point(plan, u.ti), zo = tk_zero_point(plan, u.to);
    for (uint32_t i = 0; i < u.count; i++) {
        int32_t v = (int32_t)u.x[i] - zi;
        int32_t r = v >= 0 ? fx_mbqm(v, mi, shi) : fx_mbqm(v, ma, sha);
        u.y[i] = (int8_t)fx_clamp(fx_wadd(r, zo), -128, 127);
    }
    return 0;
}
