/*
 * unary.c - int8 elementwise unary kernels: Abs and Rsqrt (TFLite's integer
 * elementwise kernels), HardSwish (TFLite's 16-bit fixed-point algorithm),
 * Elu (TFLite's 256-entry table built from a float function) and Erf (the
 * float table of docs/runtime-semantics.md R4.3.21). Abs, Rsqrt and HardSwish are
 * integer-only: the parameters TFLite derives in float are reproduced from
 * the scales' bits with fixedpoint.h. Elu and Erf need float math and exist
 * only when the float family is built (TIGRIS_ENABLE_F32); otherwise they
 * return -1. All of them are pointwise and follow the band in mem->tile.
 */
#include "../kernel_common.h"
#include "fixedpoint.h"

#if TIGRIS_ENABLE_F32
#include <math.h>
#endif

typedef struct {
    const int8_t *x;
    int8_t *y;
    uint32_t count;
    const tigris_tensor_t *ti, *to;
    int32_t zi, zo;
    uint32_t sib, sob; /* scale bits of input and output */
} un_s8_t;

/* One int8 input, one int8 output of the same element count, both with a
 * quant record, and the band of each. */
static int un_setup(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, un_s8_t *u) {
    tk_view_t iv, ov;
    if (op->num_inputs != 1 || op->num_outputs != 1) return -1;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8 || iv.numel != ov.numel) return -1;
    if (!tigris_tensor_quant(plan, iv.t) || !tigris_tensor_quant(plan, ov.t)) return -1;
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
    u->zi = tk_zero_point(plan, iv.t);
    u->zo = tk_zero_point(plan, ov.t);
    u->sib = tk_scale_bits(plan, iv.t);
    u->sob = tk_scale_bits(plan, ov.t);
    return 0;
}

/* Both scales positive and finite. */
static int un_scales(const un_s8_t *u, fx_real_t *si, fx_real_t *so) {
    if (fx_from_float_bits(u->sib, si) || fx_from_float_bits(u->sob, so) || si->m == 0 || so->m == 0) return -1;
    return 0;
}

/* A float32 operation's result (already rounded to 24 bits) is exact only
 * when it is a normal float: refuse anything that would be subnormal or
 * overflow (no scale a real model carries gets there). */
static int un_normal_f32(fx_real_t v) {
    if (v.m == 0) return -1;
    int32_t top = v.e + fx_bitlen64(v.m) - 1; /* floor(log2 v) */
    return (top < -126 || top > 127) ? -1 : 0;
}

/* float(a / b) as TFLite computes it in float32. */
static int un_fdiv(fx_real_t a, fx_real_t b, fx_real_t *q) {
    *q = fx_div_round(a, b, 24);
    return un_normal_f32(*q);
}

/* TFLM element-wise requantisation step (docs/runtime-semantics.md R4.1 "EM"):
 * saturating left shift, SRDHM, rounding right shift; R > 31 gives 0. */
static int32_t un_em(int32_t v, int32_t m, int32_t s) {
    int32_t l = s > 0 ? s : 0, r = s > 0 ? 0 : -s;
    if (l > 31) l = 31;
    int32_t p = fx_srdhm(fx_sat_shl(v, l), m);
    if (r > 31) return 0;
    return fx_rdbpot(p, r);
}

/* ---- Abs ---- */

/* |x - zp_in|; with equal scales re-centred on zp_out, else rescaled by
 * QuantizeMultiplier(float(s_in / s_out)). */
int tk_s8_abs(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    un_s8_t u;
    fx_real_t si, so, ratio;
    if (un_setup(plan, op, mem, &u) || un_scales(&u, &si, &so)) return -1;
    int rescale = u.sib != u.sob;
    int32_t m = 0, s = 0;
    if (rescale) {
        if (un_fdiv(si, so, &ratio)) return -1;
        fx_qm_value(ratio, &m, &s);
        /* |x - zp| <= 255 must survive the left shift. */
        if (s > 22) return -1;
    }
    for (uint32_t i = 0; i < u.count; i++) {
        int32_t v = (int32_t)u.x[i] - u.zi;
        if (v < 0) v = -v;
        int32_t r = rescale ? un_em(v, m, s) : v;
        u.y[i] = (int8_t)fx_clamp(r + u.zo, -128, 127);
    }
    return 0;
}

/* ---- Rsqrt ---- */

/* Integer square root of n (floor), bit by bit. */
static uint64_t un_isqrt64(uint64_t n) {
    uint64_t r = 0, bit = (uint64_t)1 << 62;
    while (bit > n) bit >>= 2;
    while (bit) {
        if (n >= r + bit) {
            n -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r;
}

/* sqrtf of a positive value given exactly: the correctly rounded float. */
static int un_fsqrt(fx_real_t v, fx_real_t *out) {
    uint64_t m = v.m;
    int32_t e = v.e;
    if (e & 1) {
        m <<= 1;
        e -= 1;
    }
    /* Scale by an even power of two to 61-62 bits: the root has 31 bits. */
    int32_t k = 0;
    while (fx_bitlen64(m) < 61) {
        m <<= 2;
        k += 1;
    }
    uint64_t r = un_isqrt64(m);
    fx_real_t t;
    /* A sticky half marks an inexact root; no rounding boundary of the
     * 24-bit result lies strictly between r and r + 1. */
    t.m = (r << 1) | (r * r != m ? 1u : 0u);
    t.e = e / 2 - k - 1;
    *out = fx_round_bits(t, 24);
    return un_normal_f32(*out);
}

#define UN_RSQRT_SHIFT 20 /* TFLite's extra shift that keeps 1/sqrt(v) an integer */

/* TFLite's int8 Rsqrt: multiplier QuantizeMultiplier(1 / (sqrtf(s_in) ·
 * s_out)) in float32; per element v = x - zp_in (negative: error, 0: 127),
 * 1/sqrt(v) from fx_inv_sqrt, w = EM(1, inv, shift + 20), then
 * EM(w, m, s - 20) + zp_out. */
int tk_s8_rsqrt(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    un_s8_t u;
    fx_real_t si, so, root, prod, scale;
    if (un_setup(plan, op, mem, &u) || un_scales(&u, &si, &so)) return -1;
    if (un_fsqrt(si, &root)) return -1;
    prod = fx_round_bits(fx_mul_real(root, so), 24);
    if (un_normal_f32(prod)) return -1;
    fx_real_t one = {1, 0};
    if (un_fdiv(one, prod, &scale)) return -1;
    int32_t m, s;
    fx_qm_value(scale, &m, &s);
    if (s > 30) return -1;
    for (uint32_t i = 0; i < u.count; i++) {
        int32_t v = (int32_t)u.x[i] - u.zi;
        if (v < 0) return -1;
        int32_t q;
        if (v == 0) {
            q = 127;
        } else {
            int32_t inv, ish;
            fx_inv_sqrt(v, -1, &inv, &ish);
            int32_t w = un_em(1, inv, ish + UN_RSQRT_SHIFT);
            q = fx_clamp(fx_wadd(un_em(w, m, s - UN_RSQRT_SHIFT), u.zo), -128, 127);
        }
        u.y[i] = (int8_t)q;
    }
    return 0;
}

/* ---- HardSwish (TFLite's int16 fixed-point algorithm) ---- */

/* TFLite's DownScaleInt32ToInt16Multiplier: round the Q0.31 multiplier to
 * Q0.15, saturating near the top. */
static int16_t un_down16(int32_t m) {
    if (m >= INT32_MAX - (1 << 15)) return INT16_MAX;
    return (int16_t)((m + (1 << 15)) >> 16);
}

/* gemmlowp SaturatingRoundingDoublingHighMul on int16. */
static int16_t un_srdhm16(int16_t a, int16_t b) {
    if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
    int32_t p = (int32_t)a * (int32_t)b;
    int32_t nudge = p >= 0 ? (1 << 14) : (1 - (1 << 14));
    return (int16_t)((p + nudge) / (1 << 15));
}

/* Doubling high multiply without rounding (truncating division). */
static int16_t un_sdhm16(int16_t a, int16_t b) {
    if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
    return (int16_t)(((int32_t)a * (int32_t)b) / (1 << 15));
}

/* value · 2^amount saturated to int16 (amount >= 0). */
static int16_t un_sat_shl16(int16_t v, int32_t amount) {
    if (v == 0 || amount <= 0) return v;
    if (amount >= 16) return v > 0 ? INT16_MAX : INT16_MIN;
    int32_t r = (int32_t)v * (1 << amount);
    return (int16_t)fx_clamp(r, INT16_MIN, INT16_MAX);
}

/* gemmlowp RoundingDivideByPOT on the int16 type (0 <= e <= 31): the mask
 * is computed in 16 bits, as the int16 instantiation does. */
static int16_t un_rdbpot16(int16_t x, int32_t e) {
    if (e <= 0) return x;
    int32_t mask = (int32_t)(int16_t)(uint16_t)((e >= 16) ? 0xFFFFu : ((1u << e) - 1u));
    int32_t rem = (int32_t)(int16_t)(uint16_t)((uint32_t)(int32_t)x & (uint32_t)mask);
    int32_t thr = (mask >> 1) + (x < 0 ? 1 : 0);
    int32_t q = (int32_t)x >> (e > 31 ? 31 : e);
    return (int16_t)(q + (rem > thr ? 1 : 0));
}

typedef struct {
    int16_t out_m16, relu_m16;
    int32_t out_exp, relu_exp;
} un_hswish_t;

/* TFLite's HardSwish Prepare in exact integer arithmetic: hires scale
 * s_in/128; output multiplier float(hires / s_out), reluish multiplier
 * float(hires / (3/32768)), each QuantizeMultiplier'd and rounded to 16
 * bits; the output exponent must not be positive. */
static int un_hswish_params(uint32_t sib, uint32_t sob, un_hswish_t *p) {
    fx_real_t si, so, q;
    if (fx_from_float_bits(sib, &si) || fx_from_float_bits(sob, &so) || si.m == 0 || so.m == 0) return -1;
    fx_real_t hires = si;
    hires.e -= 7; /* times 1/128: exact unless the float result is subnormal */
    if (un_normal_f32(hires)) return -1;
    int32_t m;
    if (un_fdiv(hires, so, &q)) return -1;
    fx_qm_value(q, &m, &p->out_exp);
    if (p->out_exp > 0) return -1;
    p->out_m16 = un_down16(m);
    fx_real_t reluish_scale = {3, -15};
    if (un_fdiv(hires, reluish_scale, &q)) return -1;
    fx_qm_value(q, &m, &p->relu_exp);
    p->relu_m16 = un_down16(m);
    return 0;
}

static int8_t un_hswish_one(const un_hswish_t *p, int32_t x, int32_t zi, int32_t zo) {
    int16_t v = (int16_t)(x - zi);
    int16_t hires = (int16_t)(v * (1 << 7));
    int16_t preshift = un_srdhm16(hires, p->out_m16);
    int16_t rv = hires;
    if (p->relu_exp > 0) rv = un_sat_shl16(rv, p->relu_exp - 1);
    rv = un_srdhm16(rv, p->relu_m16);
    if (p->relu_exp > 0) rv = un_sat_shl16(rv, 1);
    if (p->relu_exp < 0) rv = un_rdbpot16(rv, -p->relu_exp);
    rv = (int16_t)(((int32_t)rv + (1 << 15)) >> 1); /* [-1, 1] -> [0, 1] */
    int16_t outv = un_rdbpot16(un_sdhm16(rv, preshift), -p->out_exp);
    outv = (int16_t)(uint16_t)(uint32_t)((int32_t)outv + zo); /* int16 addition, as TFLite */
    return (int8_t)fx_clamp(outv, -128, 127);
}

int tk_s8_hardswish(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    un_s8_t u;
    un_hswish_t p;
    if (un_setup(plan, op, mem, &u) || un_hswish_params(u.sib, u.sob, &p)) return -1;
    /* One entry per input value: the algorithm is a function of x alone. */
    int8_t lut[256];
    for (int32_t x = -128; x <= 127; x++) lut[(uint8_t)(int8_t)x] = un_hswish_one(&p, x, u.zi, u.zo);
    for (uint32_t i = 0; i < u.count; i++) u.y[i] = lut[(uint8_t)u.x[i]];
    return 0;
}

/* ---- Elu and Erf: tables built from float functions ---- */

#if TIGRIS_ENABLE_F32
static float un_bits_f32(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static int8_t un_sat_f(float r) {
    if (!(r > -128.0f)) return -128; /* also NaN */
    if (r > 127.0f) return 127;
    return (int8_t)(int32_t)r;
}
#endif

/* TFLite's Elu table: real = s_in·(x − zp_in) in float, f = real < 0 ?
 * expf(real) − 1 : real, q = roundf(f · (1/s_out)) + zp_out (float add,
 * truncating conversion), clamped. */
int tk_s8_elu(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
#if TIGRIS_ENABLE_F32
    un_s8_t u;
    fx_real_t si, so;
    if (un_setup(plan, op, mem, &u) || un_scales(&u, &si, &so)) return -1;
    const float s_in = un_bits_f32(u.sib), inv_out = 1.0f / un_bits_f32(u.sob);
    int8_t lut[256];
    for (int32_t x = -128; x <= 127; x++) {
        float real = s_in * (float)(x - u.zi);
        float f = real < 0.0f ? expf(real) - 1.0f : real;
        lut[(uint8_t)(int8_t)x] = un_sat_f(roundf(f * inv_out) + (float)u.zo);
    }
    for (uint32_t i = 0; i < u.count; i++) u.y[i] = lut[(uint8_t)u.x[i]];
    return 0;
#else
    (void)plan;
    (void)op;
    (void)mem;
    return -1;
#endif
}

/* docs/runtime-semantics.md R4.3.21 Erf table: q = roundf(erff(s_in·(x − zp_in)) /
 * s_out) + zp_out, clamped (TFLite has no int8 Erf kernel). */
int tk_s8_erf(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
#if TIGRIS_ENABLE_F32
    un_s8_t u;
    fx_real_t si, so;
    if (un_setup(plan, op, mem, &u) || un_scales(&u, &si, &so)) return -1;
    const float s_in = un_bits_f32(u.sib), s_out = un_bits_f32(u.sob);
    int8_t lut[256];
    for (int32_t x = -128; x <= 127; x++) {
        float f = erff(s_in * (float)(x - u.zi));
        lut[(uint8_t)(int8_t)x] = un_sat_f(roundf(f / s_out) + (float)u.zo);
    }
    for (uint32_t i = 0; i < u.count; i++) u.y[i] = lut[(uint8_t)u.x[i]];
    return 0;
#else
    (void)plan;
    (void)op;
    (void)mem;
    return -1;
#endif
}
