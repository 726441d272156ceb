/*
 * normalization.c - float32 normalisations over the last stored axis:
 * LayerNorm (population variance, eps from EPSILON, float scale and
 * optional bias), LogSoftmax (x - max - log(sum exp(x - max))) and
 * L2Normalization (x / max(sqrt(sum x^2), eps), 0 when the norm is 0).
 * Under a band the executor hands whole rows of the last axis, so each
 * kernel walks the band's rows like Softmax does.
 */
#include <math.h>

#include "../kernel_common.h"

typedef struct {
    const float *x;
    float *y;
    uint32_t rows, depth;
} f32_rows_t;

/* The band's rows of the input and output (whole last-axis rows). */
static int rows_setup(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, f32_rows_t *r) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (op->num_inputs != 1 || op->num_outputs != 1) return -1;
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_FLOAT32 || ov.t->dtype != TIGRIS_DTYPE_FLOAT32 || iv.numel != ov.numel ||
        iv.rank < 1 || ov.rank < 1 || iv.dim[iv.rank - 1] != ov.dim[ov.rank - 1])
        return -1;
    uint32_t ci, co, offi, offo;
    if (tk_band_span(mem, &iv, 0, &ci, &offi) || tk_band_span(mem, &ov, 1, &co, &offo) || ci != co) return -1;
    uint32_t depth = (uint32_t)iv.dim[iv.rank - 1];
    if (ci % depth) return -1;
    const float *x = (const float *)tk_buf(mem, ii);
    float *y = (float *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    r->x = x + offi;
    r->y = y + offo;
    r->rows = ci / depth;
    r->depth = depth;
    return 0;
}

/* EPSILON attribute as a float; -1 when absent, short, not finite or
 * negative (zero only when allow_zero). */
static int read_epsilon(const tigris_plan_t *plan, uint16_t op_index, int allow_zero, float *eps) {
    uint8_t len = 0;
    const uint8_t *p = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_EPSILON, &len);
    if (!p || len < 4) return -1;
    float e;
    memcpy(&e, p, 4);
    if (!isfinite(e) || e < 0.0f || (e == 0.0f && !allow_zero)) return -1;
    *eps = e;
    return 0;
}

static float ld_f32(const void *p, uint32_t i) {
    float v;
    memcpy(&v, (const uint8_t *)p + 4u * i, 4);
    return v;
}

/* y = (x - mean) · (1 / sqrt(var + eps)) · scale + bias per row. */
int tk_f32_layer_norm(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    f32_rows_t r;
    float eps;
    if (rows_setup(plan, op, mem, &r) || read_epsilon(plan, op_index, 0, &eps)) return -1;
    const void *scale = tk_weight(plan, op->weight_idx, 4u * r.depth);
    const void *bias = NULL;
    if (!scale) return -1;
    if (op->bias_idx != TIGRIS_NONE16) {
        bias = tk_weight(plan, op->bias_idx, 4u * r.depth);
        if (!bias) return -1;
    }
    const float n = (float)r.depth;
    for (uint32_t row = 0; row < r.rows; row++) {
        const float *x = r.x + (size_t)row * r.depth;
        float *y = r.y + (size_t)row * r.depth;
        float sum = 0.0f;
        for (uint32_t k = 0; k < r.depth; k++) sum += x[k];
        const float mean = sum / n;
        float sq = 0.0f;
        for (uint32_t k = 0; k < r.depth; k++) {
            const float d = x[k] - mean;
            sq += d * d;
        }
        const float inv = 1.0f / sqrtf(sq / n + eps);
        for (uint32_t k = 0; k < r.depth; k++) {
            float v = (x[k] - mean) * inv * ld_f32(scale, k);
            if (bias) v += ld_f32(bias, k);
            y[k] = v;
        }
    }
    return 0;
}

/* y = x - max - log(sum exp(x - max)); the sum is formed before any
 * output is written, so the output may share the input's buffer. */
int tk_f32_log_softmax(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    f32_rows_t r;
    if (rows_setup(plan, op, mem, &r)) return -1;
    for (uint32_t row = 0; row < r.rows; row++) {
        const float *x = r.x + (size_t)row * r.depth;
        float *y = r.y + (size_t)row * r.depth;
        float mx = x[0];
        for (uint32_t k = 1; k < r.depth; k++)
            if (x[k] > mx) mx = x[k];
        float sum = 0.0f;
        for (uint32_t k = 0; k < r.depth; k++) sum += expf(x[k] - mx);
        const float log_sum = logf(sum);
        for (uint32_t k = 0; k < r.depth; k++) y[k] = x[k] - mx - log_sum;
    }
    return 0;
}

/* y = x / max(sqrt(sum x^2), eps); a zero norm (eps 0, all-zero row)
 * gives zeros. */
int tk_f32_l2_norm(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    f32_rows_t r;
    float eps;
    if (rows_setup(plan, op, mem, &r) || read_epsilon(plan, op_index, 1, &eps)) return -1;
    for (uint32_t row = 0; row < r.rows; row++) {
        const float *x = r.x + (size_t)row * r.depth;
        float *y = r.y + (size_t)row * r.depth;
        float sq = 0.0f;
        for (uint32_t k = 0; k < r.depth; k++) sq += x[k] * x[k];
        float norm = sqrtf(sq);
        if (norm < eps) norm = eps;
        for (uint32_t k = 0; k < r.depth; k++) y[k] = norm == 0.0f ? 0.0f : x[k] / norm;
    }
    return 0;
}
