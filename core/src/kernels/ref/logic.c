/*
 * logic.c - float32 comparisons (IEEE comparisons to bool bytes 0/1, with
 * broadcasting and one constant operand), Cast to float32 (bool -> 0.0/1.0;
 * in an int8 plan also int8 -> float32, Dequantize) and float32 -> int8
 * (Quantize, which the int8 Cast hands over here because it needs float
 * math), and AddN (0.0, then the inputs added in order).
 *
 * The byte-level ops (LogicalAnd/Or/Not, SelectV2) and the operand
 * resolution live in any/logic.c, compiled in every configuration.
 */
#include <math.h>

#include "../kernel_common.h"


enum { CMP_EQ, CMP_LT, CMP_LE, CMP_GT, CMP_GE };

static int f32_compare(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                       int which) {
    const uint8_t dt[2] = {TIGRIS_DTYPE_FLOAT32, TIGRIS_DTYPE_FLOAT32};
    tk_view_t out;
    tk_operand_t o[2];
    uint8_t *y;
    uint32_t n;
    if (tk_any_operands(plan, op, op_index, mem, 2, dt, TIGRIS_DTYPE_BOOL, &out, &y, &n, o)) return -1;
    for (uint32_t i = 0; i < n; i++) {
        float a, b;
        memcpy(&a, o[0].p + 4u * tk_operand_at(&out, &o[0], i), 4);
        memcpy(&b, o[1].p + 4u * tk_operand_at(&out, &o[1], i), 4);
        int r;
        switch (which) {
        case CMP_EQ: r = a == b; break;
        case CMP_LT: r = a < b; break;
        case CMP_LE: r = a <= b; break;
        case CMP_GT: r = a > b; break;
        default: r = a >= b; break;
        }
        y[i] = (uint8_t)r;
    }
    return 0;
}

int tk_f32_equal(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return f32_compare(plan, op, op_index, mem, CMP_EQ);
}

int tk_f32_less(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return f32_compare(plan, op, op_index, mem, CMP_LT);
}

int tk_f32_less_equal(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return f32_compare(plan, op, op_index, mem, CMP_LE);
}

int tk_f32_greater(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return f32_compare(plan, op, op_index, mem, CMP_GT);
}

int tk_f32_greater_equal(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return f32_compare(plan, op, op_index, mem, CMP_GE);
}

int tk_f32_cast(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t xv, yv;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (op->num_inputs != 1 || op->num_outputs != 1) return -1;
    if (tk_view(plan, ii, &xv) || tk_view(plan, oi, &yv) || xv.numel != yv.numel) return -1;
    uint8_t xd = xv.t->dtype, yd = yv.t->dtype;
    uint32_t xc, xo, yc, yo;
    if (tk_band_span(mem, &xv, 0, &xc, &xo) || tk_band_span(mem, &yv, 1, &yc, &yo) || xc != yc) return -1;
    const uint8_t *x = (const uint8_t *)tk_buf(mem, ii);
    uint8_t *y = (uint8_t *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    x += (size_t)xo * xv.esize;
    y += (size_t)yo * yv.esize;
    if (yd == TIGRIS_DTYPE_FLOAT32 && xd == TIGRIS_DTYPE_BOOL) {
        for (uint32_t i = 0; i < yc; i++) {
            float v = x[i] ? 1.0f : 0.0f;
            memcpy(y + 4u * i, &v, 4);
        }
        return 0;
    }
    if (yd == TIGRIS_DTYPE_FLOAT32 && xd == TIGRIS_DTYPE_INT8) {
        /* Dequantize: scale · (q - zp); the product is exact in double, so
         * one float rounding as TFLite's double computation. */
        const tigris_quant_param_t *q = tigris_tensor_quant(plan, xv.t);
        if (!q) return -1;
        float s = q->scale;
        int32_t zp = q->zero_point;
        for (uint32_t i = 0; i < yc; i++) {
            float v = s * (float)((int32_t)(int8_t)x[i] - zp);
            memcpy(y + 4u * i, &v, 4);
        }
        return 0;
    }
    if (yd == TIGRIS_DTYPE_INT8 && xd == TIGRIS_DTYPE_FLOAT32) {
        /* Quantize: roundf(x / scale) + zp, clamped to int8. */
        const tigris_quant_param_t *q = tigris_tensor_quant(plan, yv.t);
        if (!q) return -1;
        float s = q->scale;
        int32_t zp = q->zero_point;
        if (!(s > 0.0f) || isinf(s) || zp < -128 || zp > 127) return -1;
        for (uint32_t i = 0; i < yc; i++) {
            float v;
            memcpy(&v, x + 4u * i, 4);
            float r = roundf(v / s);
            int32_t c;
            if (r != r) c = zp; /* NaN */
            else if (r > 255.0f) c = 127;
            else if (r < -255.0f) c = -128;
            else c = (int32_t)r + zp;
            y[i] = (uint8_t)(int8_t)(c < -128 ? -128 : (c > 127 ? 127 : c));
        }
        return 0;
    }
    return -1;
}

#define ADDN_MAX_INPUTS 255

int tk_f32_add_n(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t yv;
    int32_t oi = tk_out_idx(plan, op, 0);
    uint32_t nin = op->num_inputs;
    if (nin < 1 || nin > ADDN_MAX_INPUTS || op->num_outputs != 1) return -1;
    if (tk_view(plan, oi, &yv) || yv.t->dtype != TIGRIS_DTYPE_FLOAT32) return -1;
    uint32_t yc, yo;
    if (tk_band_span(mem, &yv, 1, &yc, &yo)) return -1;
    uint8_t *y = (uint8_t *)tk_buf(mem, oi);
    if (!y) return -1;
    y += (size_t)yo * 4u;
    for (uint32_t k = 0; k < nin; k++) {
        tk_view_t xv;
        int32_t ii = tk_in_idx(plan, op, k);
        if (tk_view(plan, ii, &xv) || xv.t->dtype != TIGRIS_DTYPE_FLOAT32 || xv.numel != yv.numel) return -1;
        uint32_t c, off;
        if (!tk_buf(mem, ii) || tk_band_span(mem, &xv, 0, &c, &off) || c != yc || off != yo) return -1;
    }
    for (uint32_t i = 0; i < yc; i++) {
        float acc = 0.0f;
        for (uint32_t k = 0; k < nin; k++) {
            const uint8_t *x = (const uint8_t *)tk_buf(mem, tk_in_idx(plan, op, k)) + (size_t)yo * 4u;
            float v;
            memcpy(&v, x + 4u * i, 4);
            acc += v;
        }
        memcpy(y + 4u * i, &acc, 4);
    }
    return 0;
}
