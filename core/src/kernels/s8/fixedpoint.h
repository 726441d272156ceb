/*
 * fixedpoint.h - the integer arithmetic TFLite's int8 reference kernels are
 * built on (gemmlowp's fixed-point helpers and TFLite's multiplier
 * derivations), written so that the results are bit-identical to them.
 *
 * Everything here is integer-only: the int8 kernels must build for targets
 * without floating point (xtensa-lx106). Where TFLite derives a parameter
 * from a float scale in double precision, the derivation below works on the
 * scale's IEEE-754 bits and reproduces the double result exactly.
 *
 * Signed overflow is avoided by doing wrapping steps in uint32_t; no 64-bit
 * division is used (lx106 has no helper for it).
 */
#ifndef TIGRIS_S8_FIXEDPOINT_H
#define TIGRIS_S8_FIXEDPOINT_H

#include <stdint.h>

static inline int32_t fx_wadd(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline int32_t fx_wsub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
static inline int32_t fx_wmul(int32_t a, int32_t b) { return (int32_t)((uint32_t)a * (uint32_t)b); }

static inline int32_t fx_clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* Truncating division of a 64-bit value by 2^31 without a division. */
static inline int64_t fx_div_2p31(int64_t v) {
    return v >= 0 ? (int64_t)((uint64_t)v >> 31) : -(int64_t)((uint64_t)(-v) >> 31);
}

/* Saturating rounding doubling high multiply. */
static inline int32_t fx_srdhm(int32_t a, int32_t b) {
    if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
    int64_t p = (int64_t)a * (int64_t)b;
    int64_t nudge = p >= 0 ? (1 << 30) : (1 - (1 << 30));
    return (int32_t)fx_div_2p31(p + nudge);
}

/* Rounding divide by 2^e, ties away from zero (gemmlowp). */
static inline int32_t fx_rdbpot(int32_t x, int32_t e) {
    if (e <= 0) return x;
    if (e > 31) e = 31;
    uint32_t mask = (e == 31) ? 0x7FFFFFFFu : ((1u << e) - 1u);
    uint32_t rem = (uint32_t)x & mask;
    uint32_t threshold = (mask >> 1) + (x < 0 ? 1u : 0u);
    int32_t q = x >> e; /* arithmetic shift: floor */
    return q + (rem > threshold ? 1 : 0);
}

/* TFLite's MultiplyByQuantizedMultiplier (double rounding). */
static inline int32_t fx_mbqm(int32_t x, int32_t m, int32_t shift) {
    int32_t l = shift > 0 ? shift : 0;
    /* Shifts come from the plan's quant records; fx_rdbpot saturates at 31
     * anyway, so saturate before negating (INT32_MIN has no negation). */
    int32_t r = shift > 0 ? 0 : shift < -31 ? 31 : -shift;
    if (l > 31) l = 31;
    return fx_rdbpot(fx_srdhm((int32_t)((uint32_t)x << l), m), r);
}

/* Saturating multiply by 2^e for e >= 0 (gemmlowp SaturatingRoundingMultiplyByPOT). */
static inline int32_t fx_sat_shl(int32_t x, int32_t e) {
    if (e <= 0) return x;
    int32_t threshold = (int32_t)((1u << (31 - e)) - 1u);
    if (x > threshold) return INT32_MAX;
    if (x < -threshold) return INT32_MIN;
    return (int32_t)((uint32_t)x << e);
}

/* gemmlowp RoundingHalfSum for int32. */
static inline int32_t fx_half_sum(int32_t a, int32_t b) {
    int64_t s = (int64_t)a + (int64_t)b;
    s += s >= 0 ? 1 : -1;
    /* truncating /2 */
    return (int32_t)(s >= 0 ? s >> 1 : -((-s) >> 1));
}

/* exp(x) for x <= 0 in Q(int_bits).(31-int_bits), result in Q0.31.
 * gemmlowp exp_on_negative_values. */
static inline int32_t fx_exp_small(int32_t a) {
    /* exp on [-1/4, 0): Taylor series around -1/8, Q0.31 in and out. */
    const int32_t c_term = 1895147668; /* exp(-1/8) */
    const int32_t c_third = 715827883; /* 1/3 */
    int32_t x = fx_wadd(a, 1 << 28);
    int32_t x2 = fx_srdhm(x, x);
    int32_t x3 = fx_srdhm(x2, x);
    int32_t x4 = fx_srdhm(x2, x2);
    int32_t x4_4 = fx_rdbpot(x4, 2);
    int32_t poly = fx_rdbpot(fx_wadd(fx_srdhm(fx_wadd(x4_4, x3), c_third), x2), 1);
    return fx_wadd(c_term, fx_srdhm(c_term, fx_wadd(x, poly)));
}

static inline int32_t fx_exp_on_negative(int32_t a, int32_t int_bits) {
    static const int32_t barrel[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242};
    int32_t frac_bits = 31 - int_bits;
    int32_t quarter = (int32_t)(1u << (frac_bits - 2));
    int32_t mask = quarter - 1;
    int32_t a_mod = fx_wsub(a & mask, quarter);
    int32_t result = fx_exp_small(fx_sat_shl(a_mod, int_bits));
    int32_t remainder = fx_wsub(a_mod, a);
    for (int32_t k = 0; k < 7; k++) {
        int32_t exponent = k - 2;
        if (int_bits > exponent) {
            int32_t bit = frac_bits + exponent;
            if ((uint32_t)remainder & (1u << bit)) result = fx_srdhm(result, barrel[k]);
        }
    }
    if (int_bits > 5) {
        int32_t clamp = -(int32_t)(1u << (36 - int_bits));
        if (a < clamp) result = 0;
    }
    if (a == 0) result = INT32_MAX;
    return result;
}

/* Newton-Raphson 1/(1+x) step shared by logistic and tanh; input Q0.31 in
 * (0, 1), returns the Q2.29 estimate of 1/(1+x)... scaled as gemmlowp does. */
static inline int32_t fx_nr_one_over_one_plus(int32_t half_den) {
    const int32_t c48_17 = 1515870810;
    const int32_t cneg32_17 = -1010580540;
    int32_t x = fx_wadd(c48_17, fx_srdhm(half_den, cneg32_17));
    for (int i = 0; i < 3; i++) {
        int32_t hdx = fx_srdhm(half_den, x);
        int32_t one_minus = fx_wsub(1 << 29, hdx);
        x = fx_wadd(x, fx_sat_shl(fx_srdhm(x, one_minus), 2));
    }
    return x;
}

/* gemmlowp logistic: Q(int_bits) input, Q0.31 output. */
static inline int32_t fx_logistic(int32_t a, int32_t int_bits) {
    if (a == 0) return 1 << 30;
    int32_t abs_a = a > 0 ? a : -a;
    int32_t e = fx_exp_on_negative(-abs_a, int_bits);
    int32_t half_den = fx_half_sum(e, INT32_MAX);
    int32_t x = fx_nr_one_over_one_plus(half_den);
    /* ExactMulByPot<-1> then Rescale to Q0: a saturating doubling. */
    int32_t pos = fx_sat_shl(x, 1);
    return a > 0 ? pos : fx_wsub(INT32_MAX, pos);
}

/* gemmlowp tanh: Q(int_bits) input, Q0.31 output. */
static inline int32_t fx_tanh(int32_t a, int32_t int_bits) {
    if (a == 0) return 0;
    int32_t n = a < 0 ? a : -a;
    /* ExactMulByPot<1>: same raw value read with one more integer bit. */
    int32_t e = fx_exp_on_negative(n, int_bits + 1);
    int32_t half_den = fx_half_sum(e, INT32_MAX);
    int32_t x = fx_nr_one_over_one_plus(half_den);
    int32_t t = fx_sat_shl(fx_wsub(x, 1 << 29), 2);
    return a < 0 ? -t : t;
}

/* 1/sqrt(v) of a positive integer as a Q0.31 multiplier and an exponent,
 * the way TFLite's int8 Rsqrt and L2Normalization derive it: v is scaled by
 * powers of four into [2^26, 2^29), then five Newton steps
 * x <- 1.5·x - (v/2)·x^3 run in Q3.28, and the result is multiplied by
 * sqrt(2)/2. *shift is the exponent such that
 * 1/sqrt(v) ~= inv · 2^(*shift) / 2^31 · (reverse_shift sign applied by the
 * caller as TFLite does: the returned shift is multiplied by reverse_shift).
 * v <= 1 gives (INT32_MAX, 0). */
static inline void fx_inv_sqrt(int32_t v, int32_t reverse_shift, int32_t *inv, int32_t *shift) {
    if (v <= 1) {
        *inv = INT32_MAX;
        *shift = 0;
        return;
    }
    int32_t sh = 11;
    while (v >= (1 << 29)) {
        v /= 4;
        sh++;
    }
    int32_t lz = 0;
    for (uint32_t u = (uint32_t)v; !(u & 0x80000000u); u <<= 1) lz++;
    const int32_t pairs = (lz - 1) / 2 - 1; /* keep one bit pair of headroom */
    sh -= pairs;
    v = (int32_t)((uint32_t)v << (2 * pairs));
    /* Q3.28 values: one = 2^28, 1.5 = 2^28 + 2^27. */
    const int32_t x_in = v >> 1;
    const int32_t half_in = fx_rdbpot(x_in, 1);
    const int32_t three_halves = (1 << 28) + (1 << 27);
    int32_t x = 1 << 28;
    for (int i = 0; i < 5; i++) {
        /* x^3 in Q9.22, rescaled to Q3.28 (saturating shift by 6). */
        int32_t x3 = fx_sat_shl(fx_srdhm(fx_srdhm(x, x), x), 6);
        /* both products are Q6.25; their difference goes back to Q3.28. */
        int32_t d = fx_wsub(fx_srdhm(three_halves, x), fx_srdhm(half_in, x3));
        x = fx_sat_shl(d, 3);
    }
    x = fx_srdhm(x, 1518500250); /* sqrt(2)/2 in Q0.31 */
    if (sh < 0) {
        x = (int32_t)((uint32_t)x << -sh);
        sh = 0;
    }
    *inv = x;
    *shift = sh * reverse_shift;
}

/* ---- Multiplier derivation without floating point ----
 *
 * A positive finite float is m·2^e with m a 24-bit integer. TFLite computes
 * ratios of such values in double, rounds once to 53 bits, then QuantizeMultiplier
 * rounds the frexp fraction to 31 bits (ties away). fx_qm_ratio reproduces
 * both roundings from the exact integer quotient. */

typedef struct {
    uint64_t m; /* integer mantissa (0 = zero) */
    int32_t e;  /* value = m · 2^e */
} fx_real_t;

/* Decode a float's bits; returns -1 for negative, NaN, infinity. */
static inline int fx_from_float_bits(uint32_t bits, fx_real_t *r) {
    uint32_t exp = (bits >> 23) & 0xFFu;
    uint32_t frac = bits & 0x7FFFFFu;
    if (bits >> 31) return (bits & 0x7FFFFFFFu) ? -1 : (r->m = 0, r->e = 0, 0);
    if (exp == 0xFFu) return -1;
    if (exp == 0) {
        r->m = frac;
        r->e = -149;
    } else {
        r->m = frac | 0x800000u;
        r->e = (int32_t)exp - 150;
    }
    return 0;
}

/* Product of two values (exact: at most 48 significant bits). */
static inline fx_real_t fx_mul_real(fx_real_t a, fx_real_t b) {
    fx_real_t r;
    r.m = a.m * b.m;
    r.e = a.e + b.e;
    return r;
}

static inline int fx_bitlen64(uint64_t v) {
    int n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

/* a >= b for non-negative values. */
static inline int fx_real_ge(fx_real_t a, fx_real_t b) {
    if (b.m == 0) return 1;
    if (a.m == 0) return 0;
    int la = fx_bitlen64(a.m), lb = fx_bitlen64(b.m);
    if (a.e + la != b.e + lb) return a.e + la > b.e + lb;
    return (a.m << (64 - la)) >= (b.m << (64 - lb));
}

/* Round a value to `bits` significant bits, ties to even (IEEE rounding). */
static inline fx_real_t fx_round_bits(fx_real_t v, int bits) {
    int n = fx_bitlen64(v.m);
    if (n <= bits) return v;
    int drop = n - bits;
    uint64_t keep = v.m >> drop;
    uint64_t rest = v.m & ((((uint64_t)1) << drop) - 1u);
    uint64_t half = ((uint64_t)1) << (drop - 1);
    if (rest > half || (rest == half && (keep & 1u))) keep++;
    v.m = keep;
    v.e += drop;
    if (fx_bitlen64(v.m) > bits) {
        v.m >>= 1;
        v.e += 1;
    }
    return v;
}

/* num / den rounded to `bits` (<= 60) significant bits, ties to even: the
 * quotient a float (24) or double (53) division produces. den must not be 0. */
static inline fx_real_t fx_div_round(fx_real_t num, fx_real_t den, int bits) {
    fx_real_t r = {0, 0};
    if (num.m == 0) return r;
    /* Normalise both mantissas to 61 bits so the quotient lies in [1, 2)
     * after at most one extra shift of the numerator. */
    int nb = fx_bitlen64(num.m), db = fx_bitlen64(den.m);
    uint64_t n = num.m << (61 - nb), d = den.m << (61 - db);
    int32_t e = num.e - (61 - nb) - den.e + (61 - db);
    if (n < d) {
        n <<= 1;
        e -= 1;
    }
    /* Long division: bits + 1 quotient bits (one for rounding) plus sticky. */
    uint64_t q = 0, rem = n;
    for (int i = 0; i <= bits; i++) {
        q <<= 1;
        if (rem >= d) {
            rem -= d;
            q |= 1;
        }
        rem <<= 1;
    }
    uint64_t qb = q >> 1;
    if ((q & 1) && (rem != 0 || (qb & 1))) qb++;
    r.m = qb;
    r.e = e - (bits - 1);
    if (fx_bitlen64(r.m) > bits) {
        r.m >>= 1;
        r.e += 1;
    }
    return r;
}

/* TFLite's QuantizeMultiplier of a value: frexp fraction times 2^31 rounded
 * half away from zero; shifts below -31 give (0, 0). */
static inline void fx_qm_value(fx_real_t v, int32_t *mult, int32_t *shift) {
    if (v.m == 0) {
        *mult = 0;
        *shift = 0;
        return;
    }
    int nb = fx_bitlen64(v.m);
    int32_t fexp = v.e + nb; /* v = (m / 2^nb) · 2^fexp */
    uint64_t m31;
    if (nb <= 31) {
        m31 = v.m << (31 - nb);
    } else {
        m31 = v.m >> (nb - 31);
        if ((v.m >> (nb - 32)) & 1u) m31++;
    }
    if (m31 == (1ull << 31)) {
        m31 >>= 1;
        fexp += 1;
    }
    if (fexp < -31) {
        *mult = 0;
        *shift = 0;
        return;
    }
    *mult = (int32_t)m31;
    *shift = fexp;
}

/* QuantizeMultiplier(num / den as a double): multiplier and shift. A zero
 * numerator gives (0, 0). Returns -1 when den is zero. */
static inline int fx_qm_ratio(fx_real_t num, fx_real_t den, int32_t *mult, int32_t *shift) {
    if (den.m == 0) return -1;
    fx_qm_value(fx_div_round(num, den, 53), mult, shift);
    return 0;
}

/* Unsigned 64-bit division by shift and subtract (lx106 has no helper). */
static inline uint64_t fx_udiv64(uint64_t n, uint64_t d, uint64_t *rem) {
    uint64_t q = 0, r = 0;
    for (int i = 63; i >= 0; i--) {
        r = (r << 1) | ((n >> i) & 1u);
        if (r >= d) {
            r -= d;
            q |= (uint64_t)1 << i;
        }
    }
    if (rem) *rem = r;
    return q;
}

/* round_half_away(v · a / b) for a, b positive reals, saturated to
 * [-2^24, 2^24]: the value a double computation rounds to (the double
 * quotient cannot cross a half-way point the exact one does not reach). */
static inline int32_t fx_scale_round(int32_t v, fx_real_t a, fx_real_t b) {
    if (v == 0 || a.m == 0 || b.m == 0) return 0;
    uint64_t n = (uint64_t)(v < 0 ? -(int64_t)v : v) * a.m; /* < 2^57 */
    uint64_t d = b.m;
    int32_t k = a.e - b.e;
    const int32_t cap = 1 << 24;
    /* Keep n and d below 2^62 while moving the power of two onto one side. */
    while (k > 0) {
        if (n >> 61) return v < 0 ? -cap : cap;
        n <<= 1;
        k--;
    }
    while (k < 0) {
        if (d >> 61) return 0;
        d <<= 1;
        k++;
    }
    uint64_t r;
    uint64_t q = fx_udiv64(n, d, &r);
    if (r >= d - r) q++; /* ties away from zero */
    if (q > (uint64_t)cap) q = (uint64_t)cap;
    return v < 0 ? -(int32_t)q : (int32_t)q;
}

#endif /* TIGRIS_S8_FIXEDPOINT_H */
