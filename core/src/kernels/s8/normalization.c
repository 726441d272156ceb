/*
 * normalization.c - int8 normalisations over the last stored axis.
 *
 * L2Normalization and LogSoftmax are TFLite's integer reference algorithms
 * (reference_integer_ops): the inverse square root of the row's sum of
 * squares, and the fixed-point exp / log of the log-sum-exp, with every
 * prepare-time parameter derived from the scales' bits by integer
 * arithmetic. LayerNorm has no int8 builtin in TFLite; runtime-semantics
 * docs/runtime-semantics.md R4.3.28 defines it with float statistics on dequantised values, so that
 * kernel exists only in builds with the float family (TIGRIS_ENABLE_F32)
 * and refuses otherwise.
 *
 * Under a band the executor hands whole rows of the last axis (as for
 * Softmax): each kernel walks the band's rows.
 */
#include "../kernel_common.h"
#include "fixedpoint.h"

#if TIGRIS_ENABLE_F32
#include <math.h>
#endif

typedef struct {
    const int8_t *x;
    int8_t *y;
    uint32_t rows, depth;
    const tigris_tensor_t *ti, *to;
} s8_rows_t;

/* The band's rows of the int8 input and output; both need a quant record. */
static int rows_setup(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, s8_rows_t *r) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (op->num_inputs != 1 || op->num_outputs != 1) return -1;
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8 || iv.numel != ov.numel ||
        iv.rank < 1 || ov.rank < 1 || iv.dim[iv.rank - 1] != ov.dim[ov.rank - 1])
        return -1;
    if (!tigris_tensor_quant(plan, iv.t) || !tigris_tensor_quant(plan, ov.t)) return -1;
    uint32_t ci, co, offi, offo;
    if (tk_band_span(mem, &iv, 0, &ci, &offi) || tk_band_span(mem, &ov, 1, &co, &offo) || ci != co) return -1;
    uint32_t depth = (uint32_t)iv.dim[iv.rank - 1];
    if (ci % depth) return -1;
    const int8_t *x = (const int8_t *)tk_buf(mem, ii);
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    r->x = x + offi;
    r->y = y + offo;
    r->rows = ci / depth;
    r->depth = depth;
    r->ti = iv.t;
    r->to = ov.t;
    return 0;
}

#define SCALE_1_16 0x3D800000u  /* LogSoftmax output scale */
#define SCALE_1_128 0x3C000000u /* L2Normalization output scale */

static int out_encoding_is(const tigris_plan_t *plan, const tigris_tensor_t *t, uint32_t scale_bits, int32_t zp) {
    const tigris_quant_param_t *q = tigris_tensor_quant(plan, t);
    return q && tk_scale_bits(plan, t) == scale_bits && q->zero_point == zp;
}

/* ---- L2Normalization ----
 *
 * Per row: acc = sum (x - zp)^2, (inv, shift) = inverse square root of acc
 * with reverse shift -1, then each element is
 * MultiplyByQuantizedMultiplier(x - zp, inv, shift + 7) clamped to int8:
 * the output is in units of 1/128 (output encoding (1/128, 0) required).
 * TFLite accumulates in int32; a sum above INT32_MAX is refused here. */
int tk_s8_l2_norm(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    s8_rows_t r;
    if (rows_setup(plan, op, mem, &r)) return -1;
    if (!out_encoding_is(plan, r.to, SCALE_1_128, 0)) return -1;
    const int32_t zp = tk_zero_point(plan, r.ti);
    for (uint32_t row = 0; row < r.rows; row++) {
        const int8_t *x = r.x + (size_t)row * r.depth;
        int8_t *y = r.y + (size_t)row * r.depth;
        uint64_t acc = 0;
        for (uint32_t k = 0; k < r.depth; k++) {
            int32_t d = (int32_t)x[k] - zp;
            acc += (uint64_t)(d * d);
        }
        if (acc > (uint64_t)INT32_MAX) return -1;
        int32_t inv, shift;
        fx_inv_sqrt((int32_t)acc, -1, &inv, &shift);
        for (uint32_t k = 0; k < r.depth; k++) {
            int32_t v = fx_mbqm((int32_t)x[k] - zp, inv, shift + 7);
            y[k] = (int8_t)fx_clamp(v, -128, 127);
        }
    }
    return 0;
}

/* ---- LogSoftmax ---- */

static int32_t clz32(uint32_t v) {
    int32_t n = 0;
    if (!v) return 32;
    while (!(v & 0x80000000u)) {
        v <<= 1;
        n++;
    }
    return n;
}

static int32_t sat_add32(int32_t a, int32_t b) {
    int64_t s = (int64_t)a + (int64_t)b;
    return s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : (int32_t)s);
}

static int32_t sat_sub32(int32_t a, int32_t b) {
    int64_t s = (int64_t)a - (int64_t)b;
    return s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : (int32_t)s);
}

/* 1/(1+x) for x in [0, 1) in Q0.31 (gemmlowp's Newton division). */
static int32_t recip_one_plus(int32_t x) {
    return fx_sat_shl(fx_nr_one_over_one_plus(fx_half_sum(x, INT32_MAX)), 1);
}

/* Natural log of v >= 1 given raw in Q(in_bits).(31 - in_bits), as TFLite's
 * log_x_for_x_greater_than_or_equal_to_1 computes it: the input is
 * normalised two ways (by its own headroom and after a multiply by
 * sqrt(1/2)) so the mantissa r lies in [sqrt(1/2), 1); the exponent part
 * (adjusted by a quarter) times ln 2 is added to a rational approximation of
 * log(r) around 2^(-1/4). The sum is accumulated with out_bits + 1 integer
 * bits and returned in Q(out_bits).(31 - out_bits). */
static int32_t log_ge1(int32_t raw, int32_t in_bits, int32_t out_bits) {
    const int32_t acc_bits = out_bits + 1;
    const int32_t ln2 = 1488522236;          /* ln 2, Q0.31 */
    const int32_t fourth_root_half = 1805811301; /* 2^(-1/4) */
    const int32_t root_half = 1518500250;    /* 2^(-1/2) */
    const int32_t quarter = 536870912;       /* 1/4 */
    const int32_t alpha_n = 117049297, alpha_d = 127690142, alpha_i = 1057819769, alpha_f = 638450708;
    const int32_t quarter_acc = fx_rdbpot(quarter, acc_bits);

    /* Normalisation a: shift out the headroom, then scale by sqrt(1/2). */
    const int32_t hr_a = clz32((uint32_t)raw);
    const int32_t r_a = fx_sat_shl(fx_srdhm(fx_sat_shl(raw, hr_a - 1), root_half), 1);
    const int32_t e_a = sat_add32(fx_sat_shl(in_bits - hr_a, 31 - acc_bits), quarter_acc);
    /* Normalisation b: headroom of raw·sqrt(1/2). */
    const int32_t hr_b = clz32((uint32_t)fx_srdhm(raw, root_half)) - 1;
    const int32_t r_b = fx_sat_shl(raw, hr_b);
    const int32_t e_b = sat_sub32(fx_sat_shl(in_bits - hr_b, 31 - acc_bits), quarter_acc);

    const int32_t m = r_a < r_b ? r_a : r_b;
    const int32_t e = e_a > e_b ? e_a : e_b;

    const int32_t p = fx_half_sum(m, fourth_root_half);
    int32_t q = fx_wsub(m, fourth_root_half);
    q = fx_wadd(q, q);
    const int32_t q2 = fx_srdhm(q, q);
    const int32_t num = fx_wadd(fx_srdhm(q, m), fx_srdhm(fx_srdhm(q, q2), alpha_n));
    const int32_t inner = fx_wadd(fx_wadd(alpha_i, q), fx_srdhm(alpha_d, q2));
    const int32_t den_minus_one = fx_wadd(fx_srdhm(p, inner), fx_srdhm(alpha_f, q));
    const int32_t recip = recip_one_plus(den_minus_one);

    const int32_t acc = fx_wadd(fx_srdhm(e, ln2), fx_srdhm(fx_rdbpot(num, acc_bits), recip));
    return fx_sat_shl(acc, acc_bits - out_bits);
}

/* TFLite's int8 LogSoftmax (beta 1). Prepare: the softmax input scaling
 * s_in·2^26 (capped at 2^31 - 1) as a multiplier above one (m, l), which
 * TFLite requires to exceed 1; the reverse scaling 2^(31 - l) / m as a
 * multiplier below one (rm, rs); diff_min = -floor(31·2^26 / 2^l). Per row:
 * the Q12.19 sum of exp(x - max) over x - max >= diff_min, its log in Q5.26,
 * a threshold from the log rescaled back to input units, and
 * out = RDBPOT(scaled diff - log, 22) + 127 above it, -128 below. */
int tk_s8_log_softmax(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    s8_rows_t r;
    if (rows_setup(plan, op, mem, &r)) return -1;
    if (!out_encoding_is(plan, r.to, SCALE_1_16, 127)) return -1;
    fx_real_t s;
    if (fx_from_float_bits(tk_scale_bits(plan, r.ti), &s) || s.m == 0) return -1;
    const int nb = fx_bitlen64(s.m);
    int32_t mult, lshift;
    if (s.e + nb + 26 > 31) {
        mult = INT32_MAX;
        lshift = 31;
    } else {
        mult = (int32_t)(s.m << (31 - nb));
        lshift = s.e + nb + 26;
    }
    /* QuantizeMultiplierGreaterThanOne: the real multiplier must be > 1. */
    if (lshift < 1 || (lshift == 1 && mult == (1 << 30))) return -1;
    const fx_real_t rev_num = {1, 31 - lshift}, rev_den = {(uint64_t)mult, 0};
    int32_t rmult, rshift;
    if (fx_qm_ratio(rev_num, rev_den, &rmult, &rshift) || rmult <= 0 || rshift > 0) return -1;
    const int32_t diff_min = -(int32_t)(((uint64_t)31 << 26) >> lshift);

    for (uint32_t row = 0; row < r.rows; row++) {
        const int8_t *x = r.x + (size_t)row * r.depth;
        int8_t *y = r.y + (size_t)row * r.depth;
        int32_t mx = -128;
        for (uint32_t k = 0; k < r.depth; k++) mx = x[k] > mx ? x[k] : mx;
        int64_t sum = 0;
        for (uint32_t k = 0; k < r.depth; k++) {
            int32_t d = (int32_t)x[k] - mx;
            if (d >= diff_min) sum += fx_rdbpot(fx_exp_on_negative(fx_mbqm(d, mult, lshift), 5), 12);
        }
        if (sum > INT32_MAX) return -1;
        const int32_t log_sum = log_ge1((int32_t)sum, 12, 5);
        if (log_sum < 0) return -1;
        int32_t thr = fx_mbqm(fx_wadd(log_sum, INT32_MIN), rmult, rshift);
        if (thr < diff_min - 1) thr = diff_min - 1;
        /* Recomputed per element: the output may share the input's buffer. */
        for (uint32_t k = 0; k < r.depth; k++) {
            int32_t d = (int32_t)x[k] - mx;
            int32_t q = -128;
            if (d > thr) q = fx_clamp(fx_wadd(fx_rdbpot(fx_wsub(fx_mbqm(d, mult, lshift), log_sum), 22), 127), -128, 127);
            y[k] = (int8_t)q;
        }
    }
    return 0;
}

/* ---- LayerNorm (float statistics; needs the float family) ----
 *
 * docs/runtime-semantics.md R4.3.28: dequantise x with the input encoding, mean and
 * population variance in float, inv = 1 / sqrtf(var + eps), norm =
 * (x - mean)·inv·scale + bias with the float32 weights, then
 * q = roundf(norm / s_out) + zp_out clamped to int8. */
#if TIGRIS_ENABLE_F32
static float ld_f32(const void *p, uint32_t i) {
    float v;
    memcpy(&v, (const uint8_t *)p + 4u * i, 4);
    return v;
}

static int layer_norm_float(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                            tigris_mem_t *mem) {
    s8_rows_t r;
    if (rows_setup(plan, op, mem, &r)) return -1;
    uint8_t len = 0;
    const uint8_t *ea = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_EPSILON, &len);
    if (!ea || len < 4) return -1;
    float eps, s_in, s_out;
    memcpy(&eps, ea, 4);
    if (!isfinite(eps) || !(eps > 0.0f)) return -1;
    const tigris_quant_param_t *qi = tigris_tensor_quant(plan, r.ti), *qo = tigris_tensor_quant(plan, r.to);
    uint32_t bi = tk_scale_bits(plan, r.ti), bo = tk_scale_bits(plan, r.to);
    memcpy(&s_in, &bi, 4);
    memcpy(&s_out, &bo, 4);
    if (!isfinite(s_in) || !isfinite(s_out) || !(s_in > 0.0f) || !(s_out > 0.0f)) return -1;
    if (qi->num_channels > 1 || qo->num_channels > 1) return -1;
    const void *scale = tk_weight(plan, op->weight_idx, 4u * r.depth);
    const void *bias = NULL;
    if (!scale) return -1;
    if (op->bias_idx != TIGRIS_NONE16) {
        bias = tk_weight(plan, op->bias_idx, 4u * r.depth);
        if (!bias) return -1;
    }
    const int32_t zi = tk_zero_point(plan, r.ti), zo = tk_zero_point(plan, r.to);
    const float n = (float)r.depth;
    for (uint32_t row = 0; row < r.rows; row++) {
        const int8_t *x = r.x + (size_t)row * r.depth;
        int8_t *y = r.y + (size_t)row * r.depth;
        float sum = 0.0f;
        for (uint32_t k = 0; k < r.depth; k++) sum += s_in * (float)((int32_t)x[k] - zi);
        const float mean = sum / n;
        float sq = 0.0f;
        for (uint32_t k = 0; k < r.depth; k++) {
            const float d = s_in * (float)((int32_t)x[k] - zi) - mean;
            sq += d * d;
        }
        const float inv = 1.0f / sqrtf(sq / n + eps);
        for (uint32_t k = 0; k < r.depth; k++) {
            float v = (s_in * (float)((int32_t)x[k] - zi) - mean) * inv * ld_f32(scale, k);
            if (bias) v += ld_f32(bias, k);
            float q = roundf(v / s_out);
            /* Clamp in float first: the conversion of a huge or NaN value
             * to int is undefined. */
            int32_t qq;
            if (q >= 255.0f)
                qq = 255;
            else if (q <= -256.0f)
                qq = -256;
            else if (q == q)
                qq = (int32_t)q;
            else
                return -1;
            y[k] = (int8_t)fx_clamp(qq + zo, -128, 127);
        }
    }
    return 0;
}
#endif

int tk_s8_layer_norm(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
#if TIGRIS_ENABLE_F32
    return layer_norm_float(plan, op, op_index, mem);
#else
    (void)plan;
    (void)op;
    (void)op_index;
    (void)mem;
    return -1;
#endif
}
