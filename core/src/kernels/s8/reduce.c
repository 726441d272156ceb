/*
 * reduce.c - int8 reductions over one stored axis (AXES attribute), int8
 * CumSum and ArgMax/ArgMin; the layout resolution they share is in
 * any/reduce.c.
 */
#include "../kernel_common.h"
#include "fixedpoint.h"

int tk_s8_reduce_mean(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    uint32_t lay[3];
    const uint8_t *xb;
    uint8_t *yb;
    int32_t axis;
    if (tk_reduce_layout(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, TIGRIS_DTYPE_INT8, 0, lay, &xb, &yb, &axis))
        return -1;
    uint32_t r = lay[1];
    if (r > (1u << 23)) return -1;
    const int8_t *x = (const int8_t *)xb;
    int8_t *y = (int8_t *)yb;
    const tigris_tensor_t *ti = tk_tensor(plan, tigris_op_inputs(plan, op)[0]);
    const tigris_tensor_t *to = tk_tensor(plan, tigris_op_outputs(plan, op)[0]);
    int32_t zi = tk_zero_point(plan, ti), zo = tk_zero_point(plan, to);
    uint32_t sib = tk_scale_bits(plan, ti), sob = tk_scale_bits(plan, to);
    if (!sob) {
        sob = sib;
        zo = zi;
    }
    int32_t m, s;
    if (tk_s8_mean_multiplier(sib, sob, r, &m, &s)) return -1;
    for (uint32_t o = 0; o < lay[0]; o++)
        for (uint32_t i = 0; i < lay[2]; i++) {
            int32_t sum = 0;
            for (uint32_t k = 0; k < r; k++) sum += x[((size_t)o * r + k) * lay[2] + i];
            int32_t q = fx_wadd(fx_mbqm(sum - zi * (int32_t)r, m, s), zo);
            y[(size_t)o * lay[2] + i] = (int8_t)fx_clamp(q, -128, 127);
        }
    return 0;
}

/* Max / Min keep the input encoding: raw compare, init -128 / 127. */
static int s8_reduce_extreme(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                             int is_max) {
    uint32_t lay[3];
    const uint8_t *xb;
    uint8_t *yb;
    int32_t axis;
    if (tk_reduce_layout(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, TIGRIS_DTYPE_INT8, 0, lay, &xb, &yb, &axis))
        return -1;
    const tigris_tensor_t *ti = tk_tensor(plan, tigris_op_inputs(plan, op)[0]);
    const tigris_tensor_t *to = tk_tensor(plan, tigris_op_outputs(plan, op)[0]);
    const tigris_quant_param_t *qi = tigris_tensor_quant(plan, ti), *qo = tigris_tensor_quant(plan, to);
    if (!qi != !qo) return -1;
    if (qi && (tk_scale_bits(plan, ti) != tk_scale_bits(plan, to) || qi->zero_point != qo->zero_point)) return -1;
    const int8_t *x = (const int8_t *)xb;
    int8_t *y = (int8_t *)yb;
    for (uint32_t o = 0; o < lay[0]; o++)
        for (uint32_t i = 0; i < lay[2]; i++) {
            int32_t acc = is_max ? -128 : 127;
            for (uint32_t k = 0; k < lay[1]; k++) {
                int32_t v = x[((size_t)o * lay[1] + k) * lay[2] + i];
                if (is_max ? v > acc : v < acc) acc = v;
            }
            y[(size_t)o * lay[2] + i] = (int8_t)acc;
        }
    return 0;
}

int tk_s8_reduce_max(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return s8_reduce_extreme(plan, op, op_index, mem, 1);
}

int tk_s8_reduce_min(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return s8_reduce_extreme(plan, op, op_index, mem, 0);
}

/* Elementwise multiplier (docs/runtime-semantics.md R4.1): QuantizeMultiplier of
 * s_in/s_out in double; valid only for shifts up to 30. */
static int s8_emult(uint32_t num_bits, fx_real_t num_extra, uint32_t den_bits, fx_real_t den_extra, int32_t *m,
                    int32_t *s) {
    fx_real_t a, b;
    if (fx_from_float_bits(num_bits, &a) || fx_from_float_bits(den_bits, &b) || a.m == 0 || b.m == 0) return -1;
    a = fx_mul_real(a, num_extra);
    b = fx_mul_real(b, den_extra);
    if (fx_qm_ratio(a, b, m, s)) return -1;
    if (*s > 30) return -1;
    return 0;
}

/* Elementwise requantize of v with (m, s) and zero point zp: -1 when the
 * shift is out of range or v·2^max(s,0) overflows int32. */
static int s8_requant(int64_t v, int32_t m, int32_t s, int32_t zp, int8_t *out) {
    if (s < -31 || s > 30 || v > INT32_MAX || v < INT32_MIN) return -1;
    int32_t l = s > 0 ? s : 0, rs = s > 0 ? 0 : -s;
    int64_t sh = v * ((int64_t)1 << l);
    if (sh > INT32_MAX || sh < INT32_MIN) return -1;
    int32_t p = fx_srdhm((int32_t)sh, m);
    int32_t r;
    if (rs > 31) {
        r = 0;
    } else if (rs == 0) {
        r = p;
    } else {
        int32_t mask = (int32_t)((((uint32_t)1) << rs) - 1u);
        int32_t rem = p & mask;
        int32_t thr = (mask >> 1) + (p < 0 ? 1 : 0);
        r = (p >> rs) + (rem > thr ? 1 : 0);
    }
    if (r > 127 - zp) *out = 127;
    else if (r < -128 - zp) *out = -128;
    else *out = (int8_t)(r + zp);
    return 0;
}

static const fx_real_t fx_one = {1, 0};

int tk_s8_reduce_sum(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    uint32_t lay[3];
    const uint8_t *xb;
    uint8_t *yb;
    int32_t axis;
    if (tk_reduce_layout(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, TIGRIS_DTYPE_INT8, 0, lay, &xb, &yb, &axis))
        return -1;
    const tigris_tensor_t *ti = tk_tensor(plan, tigris_op_inputs(plan, op)[0]);
    const tigris_tensor_t *to = tk_tensor(plan, tigris_op_outputs(plan, op)[0]);
    if (!tigris_tensor_quant(plan, ti) || !tigris_tensor_quant(plan, to)) return -1;
    int32_t zi = tk_zero_point(plan, ti), zo = tk_zero_point(plan, to);
    int32_t m, s;
    if (s8_emult(tk_scale_bits(plan, ti), fx_one, tk_scale_bits(plan, to), fx_one, &m, &s)) return -1;
    const int8_t *x = (const int8_t *)xb;
    int8_t *y = (int8_t *)yb;
    uint32_t r = lay[1];
    for (uint32_t o = 0; o < lay[0]; o++)
        for (uint32_t i = 0; i < lay[2]; i++) {
            int64_t sum = 0;
            for (uint32_t k = 0; k < r; k++) sum += x[((size_t)o * r + k) * lay[2] + i];
            if (sum > INT32_MAX || sum < INT32_MIN) return -1;
            if (s8_requant(sum - (int64_t)zi * (int64_t)r, m, s, zo, &y[(size_t)o * lay[2] + i])) return -1;
        }
    return 0;
}

/* TFLite's int8 CumSum: values shifted left by 20, halved (input multiplier
 * 1/2 = 2^30 Q31, shift 0), accumulator seeded with the halved -zp·2^20,
 * output multiplier 2·s_in/(2^20·s_out) (< 1). */
int tk_s8_cumsum(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    uint32_t lay[3];
    const uint8_t *xb;
    uint8_t *yb;
    int32_t axis;
    if (tk_reduce_layout(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, TIGRIS_DTYPE_INT8, 1, lay, &xb, &yb, &axis))
        return -1;
    uint8_t len = 0;
    const uint8_t *opt = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_CUMSUM_OPTIONS, &len);
    if (!opt || len != 2 || opt[0] > 1 || opt[1] > 1) return -1;
    const tigris_tensor_t *ti = tk_tensor(plan, tigris_op_inputs(plan, op)[0]);
    const tigris_tensor_t *to = tk_tensor(plan, tigris_op_outputs(plan, op)[0]);
    if (!tigris_tensor_quant(plan, ti) || !tigris_tensor_quant(plan, to)) return -1;
    int32_t zi = tk_zero_point(plan, ti), zo = tk_zero_point(plan, to);
    const fx_real_t two = {1, 1}, p20 = {1, 20};
    int32_t m, s;
    if (s8_emult(tk_scale_bits(plan, ti), two, tk_scale_bits(plan, to), p20, &m, &s)) return -1;
    if (m <= 0 || s > 0) return -1;
    const int8_t *x = (const int8_t *)xb;
    int8_t *y = (int8_t *)yb;
    uint32_t r = lay[1];
    int excl = opt[0], rev = opt[1];
    for (uint32_t o = 0; o < lay[0]; o++)
        for (uint32_t i = 0; i < lay[2]; i++) {
            int64_t acc = fx_srdhm(-zi * (1 << 20), 1 << 30);
            for (uint32_t j = 0; j < r; j++) {
                uint32_t k = rev ? r - 1u - j : j;
                size_t at = ((size_t)o * r + k) * lay[2] + i;
                int64_t step = fx_srdhm((x[at] - zi) * (1 << 20), 1 << 30);
                int64_t emit = acc;
                acc += step;
                if (acc > INT32_MAX || acc < INT32_MIN) return -1;
                if (!excl) emit = acc;
                if (s8_requant(emit, m, s, zo, &y[at])) return -1;
            }
        }
    return 0;
}

/* ArgMax / ArgMin over int8: dequantisation is monotonic, so raw values
 * compare; the first index wins ties. Float input (a float section of an int8
 * plan: int32 outputs route here) goes to the float kernel. */
static int s8_arg(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                  int is_max) {
    int32_t ii = tk_in_idx(plan, op, 0);
    if (ii >= 0 && plan->tensors[ii].dtype == TIGRIS_DTYPE_FLOAT32) {
#if TIGRIS_ENABLE_F32
        return is_max ? tk_f32_arg_max(plan, op, op_index, mem) : tk_f32_arg_min(plan, op, op_index, mem);
#else
        return -1;
#endif
    }
    uint32_t lay[3];
    const uint8_t *xb;
    uint8_t *y;
    int32_t axis;
    if (tk_reduce_layout(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, TIGRIS_DTYPE_INT32, 2, lay, &xb, &y, &axis))
        return -1;
    const int8_t *x = (const int8_t *)xb;
    for (uint32_t o = 0; o < lay[0]; o++)
        for (uint32_t i = 0; i < lay[2]; i++) {
            int32_t best = x[(size_t)o * lay[1] * lay[2] + i], at = 0;
            for (uint32_t k = 1; k < lay[1]; k++) {
                int32_t v = x[((size_t)o * lay[1] + k) * lay[2] + i];
                if (is_max ? v > best : v < best) {
                    best = v;
                    at = (int32_t)k;
                }
            }
            memcpy(y + 4u * ((size_t)o * lay[2] + i), &at, 4);
        }
    return 0;
}

int tk_s8_arg_max(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return s8_arg(plan, op, op_index, mem, 1);
}

int tk_s8_arg_min(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return s8_arg(plan, op, op_index, mem, 0);
}
