/*
 * activation.c - float32 unary activations (Relu, Relu6, Sigmoid, Tanh,
 * LeakyRelu) and Softmax over the last axis. Unary ops follow the band in
 * mem->tile (row counts and roll offsets); Softmax always sees whole rows.
 */
#include <math.h>

#include "../kernel_common.h"

typedef struct {
    const float *x;
    float *y;
    uint32_t count;
} unary_t;

static int unary_setup(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, unary_t *u) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_FLOAT32 || ov.t->dtype != TIGRIS_DTYPE_FLOAT32 || iv.numel != ov.numel)
        return -1;
    uint32_t ci, co, offi, offo;
    if (tk_band_span(mem, &iv, 0, &ci, &offi) || tk_band_span(mem, &ov, 1, &co, &offo) || ci != co) return -1;
    const float *x = (const float *)tk_buf(mem, ii);
    float *y = (float *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    u->x = x + offi;
    u->y = y + offo;
    u->count = ci;
    return 0;
}

int tk_f32_relu(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    unary_t u;
    if (unary_setup(plan, op, mem, &u)) return -1;
    for (uint32_t i = 0; i < u.count; i++) u.y[i] = u.x[i] < 0.0f ? 0.0f : u.x[i];
    return 0;
}

int tk_f32_relu6(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    unary_t u;
    if (unary_setup(plan, op, mem, &u)) return -1;
    for (uint32_t i = 0; i < u.count; i++) {
        float v = u.x[i];
        u.y[i] = v < 0.0f ? 0.0f : (v > 6.0f ? 6.0f : v);
    }
    return 0;
}

/* TFLite's reference logistic: saturates above the point where the float
 * result rounds to 1, and uses exp(x) directly far below zero. */
int tk_f32_sigmoid(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    unary_t u;
    if (unary_setup(plan, op, mem, &u)) return -1;
    const float upper = 16.619047164916992188f;
    const float lower = -9.0f;
    for (uint32_t i = 0; i < u.count; i++) {
        float v = u.x[i];
        float r;
        if (v > upper)
            r = 1.0f;
        else if (v < lower)
            r = expf(v);
        else
            r = 1.0f / (1.0f + expf(-v));
        u.y[i] = r;
    }
    return 0;
}

int tk_f32_tanh(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    unary_t u;
    if (unary_setup(plan, op, mem, &u)) return -1;
    for (uint32_t i = 0; i < u.count; i++) u.y[i] = tanhf(u.x[i]);
    return 0;
}

int tk_f32_leaky_relu(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    unary_t u;
    if (unary_setup(plan, op, mem, &u)) return -1;
    float alpha = 0.01f;
    uint8_t len = 0;
    const uint8_t *a = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_ALPHA, &len);
    if (a) {
        if (len < 4) return -1;
        memcpy(&alpha, a, 4);
    }
    for (uint32_t i = 0; i < u.count; i++) {
        float v = u.x[i];
        u.y[i] = v > 0.0f ? v : alpha * v;
    }
    return 0;
}

/* Softmax over the last axis; a band only ever holds whole rows. */
int tk_f32_softmax(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_FLOAT32 || ov.t->dtype != TIGRIS_DTYPE_FLOAT32 || iv.numel != ov.numel ||
        iv.rank < 1)
        return -1;
    uint32_t ci, co, offi, offo;
    if (tk_band_span(mem, &iv, 0, &ci, &offi) || tk_band_span(mem, &ov, 1, &co, &offo) || ci != co) return -1;
    uint32_t depth = (uint32_t)iv.dim[iv.rank - 1];
    if (ci % depth) return -1;
    const float *x = (const float *)tk_buf(mem, ii);
    float *y = (float *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    x += offi;
    y += offo;
    for (uint32_t r = 0; r < ci / depth; r++) {
        const float *xr = x + (size_t)r * depth;
        float *yr = y + (size_t)r * depth;
        float mx = xr[0];
        for (uint32_t k = 1; k < depth; k++)
            if (xr[k] > mx) mx = xr[k];
        float sum = 0.0f;
        for (uint32_t k = 0; k < depth; k++) {
            yr[k] = expf(xr[k] - mx);
            sum += yr[k];
        }
        for (uint32_t k = 0; k < depth; k++) yr[k] = yr[k] / sum;
    }
    return 0;
}
