/*
 * act16.h - the int16 sigmoid and tanh of TFLite's integer LSTM: a 256-entry
 * table of the logistic function read with linear interpolation on the
 * absolute value, the sign restored by symmetry. Integer only.
 *
 * Input scaling (TFLite's convention): the caller passes a multiplier and a
 * right shift that bring the int16 input to table units, where one table step
 * is 2^9 input units for the sigmoid (1/24 in real terms) and 2^8 for the tanh
 * (tanh(x) = 2·sigmoid(2x) − 1, so a step covers half the real distance).
 * For a Q3.12 input that is multiplier 3, shift 0: 3·2^12 / 2^9 = 24 steps per
 * unit. Outputs are Q0.15.
 */
#ifndef TIGRIS_S8_ACT16_H
#define TIGRIS_S8_ACT16_H

#include <stdint.h>

/* The logistic function at i/24 in 0.16 fixed point, i = 0..255, laid out
 * for linear interpolation. Linear interpolation of a curved function sags
 * between nodes by h^2/8 * f'' (h = 1/24); every node is moved by half of
 * that sag so the error is centred:
 *     t[i] = round(65536 * (s(x) - h^2/16 * s''(x))),  x = i/24,
 *     s''(x) = s(1 - s)(1 - 2s),
 * and the last entry is pinned at 65535 (the top of 0.16). That is the table
 * TFLite's integer sigmoid and tanh interpolate, entry for entry; a plain
 * rounding of 65536 * s(x) differs in 44 entries, so bit-exact results need
 * the corrected values. tests/unit/test_kernels_recurrent_lstm_s8.cpp
 * (SigmoidTableFollowsTheFormula) regenerates every entry from the formula
 * above in double precision and compares. Stored, not computed, because the
 * int8 kernels build without floating point (lx106). */
static const uint16_t act16_sigmoid_table[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688,
    43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409,
    51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110,
    61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
    63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900,
    64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208,
    65221, 65234, 65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
    65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530,
    65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
};

/* (x·mult + half) >> shift in wrapping 32-bit arithmetic (TFLite's int32
 * expression; large power-of-two multipliers can wrap there too). The
 * shift is arithmetic: floor division by 2^shift. */
static inline int32_t act16_scale(int32_t x, int32_t mult, int32_t shift) {
    uint32_t v = (uint32_t)x * (uint32_t)mult;
    if (shift > 0) v += 1u << (shift - 1);
    int32_t s = (int32_t)v;
    return shift > 0 ? s >> shift : s;
}

static inline uint32_t act16_abs(int32_t v) { return v < 0 ? 0u - (uint32_t)v : (uint32_t)v; }

/* Interpolated table value of |v| with frac_bits fraction bits per step,
 * scaled by 2^frac_bits; saturates past the last entry. */
static inline uint32_t act16_lookup(uint32_t a, uint32_t frac_bits, uint32_t saturated) {
    uint32_t i = a >> frac_bits;
    if (i >= 255u) return saturated;
    uint32_t lo = act16_sigmoid_table[i], hi = act16_sigmoid_table[i + 1];
    return (lo << frac_bits) + (a & ((1u << frac_bits) - 1u)) * (hi - lo);
}

/* sigmoid in Q0.15 of an input brought to table units by (mult, shift). */
static inline int16_t act16_sigmoid(int16_t x, int32_t mult, int32_t shift) {
    int32_t v = act16_scale(x, mult, shift);
    uint32_t r = act16_lookup(act16_abs(v), 9, 0x7FFFu << 10);
    /* r is sigmoid(|v|) with 2^25 = 1. Negative inputs use 1 − sigmoid(|v|);
     * both sides round to Q0.15 by adding half of the dropped 10 bits (the
     * negative side's −1 makes its ties go down). */
    r = v >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
    return (int16_t)(r >> 10);
}

/* tanh in Q0.15 of an input brought to table units by (mult, shift). */
static inline int16_t act16_tanh(int16_t x, int32_t mult, int32_t shift) {
    int32_t v = act16_scale(x, mult, shift);
    int32_t r = (int32_t)act16_lookup(act16_abs(v), 8, 0xFFFFu << 8);
    /* r is sigmoid(2|x|) with 2^24 = 1; tanh = 2r − 1, i.e. (r − 2^23) in
     * units of 2^−23, brought to Q0.15 with rounding (+2^7) and the mirrored
     * value for negative inputs. */
    r = v >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
    return (int16_t)(r >> 8);
}

/* TFLite's (multiplier, shift) for an input whose scale is 2^pow, so that
 * mult/2^shift · 2^pow · 3·2^12 lands on table units (the tanh's own factor
 * 2 lives in its 8 fraction bits): pow = −12 gives (3, 0). A power-of-two
 * multiplier 3·2^k is used when the shift would be negative. */
static inline void act16_pow2_params(int32_t pow, int32_t *mult, int32_t *shift) {
    int32_t k = pow + 12;
    if (k >= 0) {
        *mult = (int32_t)(3u << k);
        *shift = 0;
    } else {
        *mult = 3;
        *shift = -k;
    }
}

#endif /* TIGRIS_S8_ACT16_H */
