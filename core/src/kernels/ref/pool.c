/*
 * pool.c - float32 pooling: MaxPool, AveragePool (divides by the taps that
 * fall inside the image, as TFLite does), GlobalAveragePool (also walked
 * along its input in bands with an accumulator, BY_INPUT).
 */
#include <float.h>
#include <math.h>

#include "../kernel_common.h"

#define POOL_AVG 0
#define POOL_MAX 1
#define POOL_L2 2

static float act_f32(uint8_t act, float v) {
    if (act == TIGRIS_ACT_RELU || act == TIGRIS_ACT_RELU6) v = v < 0.0f ? 0.0f : v;
    if (act == TIGRIS_ACT_RELU6 && v > 6.0f) v = 6.0f;
    return v;
}

/* Element (n, iy, ix, c) of the input band. */
static inline size_t pool_at(const tk_geom_t *g, int32_t n, int32_t iy, int32_t ix, int32_t c) {
    return (((size_t)n * g->in_rows + iy) * g->iw + ix) * g->ic + c;
}

static int pool(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int is_max) {
    tk_pool_args_t a;
    if (tk_pool_args(plan, op, mem, TIGRIS_DTYPE_FLOAT32, &a)) return -1;
    const tk_geom_t g = a.g;
    const float *x = (const float *)a.x;
    float *y = (float *)a.y;
    for (int32_t n = 0; n < g.n; n++) {
        for (int32_t oh = 0; oh < g.oh; oh++) {
            int32_t orow = oh + g.out_row0;
            int32_t ybase = orow * g.sh - g.pt - g.in_row_shift;
            int32_t khlo, khhi;
            tk_taps(ybase, g.kh, g.dh, g.ih, &khlo, &khhi);
            for (int32_t ow = 0; ow < g.ow; ow++) {
                int32_t xbase = ow * g.sw - g.pl;
                int32_t kwlo, kwhi;
                tk_taps(xbase, g.kw, g.dw, g.iw, &kwlo, &kwhi);
                int32_t count = (khhi - khlo) * (kwhi - kwlo);
                float *yp = y + (((size_t)n * g.out_rows + orow) * g.ow + ow) * g.oc;
                for (int32_t c = 0; c < g.oc; c++) {
                    /* One window loop per kind, so the kind is tested once per
                     * output, not once per tap (no compiler has to unswitch it). */
                    float acc = 0.0f;
                    if (is_max == POOL_MAX) {
                        acc = -FLT_MAX;
                        for (int32_t kh = khlo; kh < khhi; kh++)
                            for (int32_t kw = kwlo; kw < kwhi; kw++) {
                                float v = x[pool_at(&g, n, ybase + kh * g.dh, xbase + kw * g.dw, c)];
                                if (v > acc) acc = v;
                            }
                    } else if (is_max == POOL_L2) {
                        for (int32_t kh = khlo; kh < khhi; kh++)
                            for (int32_t kw = kwlo; kw < kwhi; kw++) {
                                float v = x[pool_at(&g, n, ybase + kh * g.dh, xbase + kw * g.dw, c)];
                                acc += v * v;
                            }
                    } else {
                        for (int32_t kh = khlo; kh < khhi; kh++)
                            for (int32_t kw = kwlo; kw < kwhi; kw++)
                                acc += x[pool_at(&g, n, ybase + kh * g.dh, xbase + kw * g.dw, c)];
                    }
                    if (is_max == POOL_L2) {
                        if (count == 0) return -1;
                        acc = act_f32(op->fused_act, sqrtf(acc / (float)count));
                    } else if (!is_max) {
                        /* A window entirely in padding has no taps: TFLite
                         * refuses it; the loader's pad < kernel rule prevents it. */
                        if (count == 0) return -1;
                        acc = acc / (float)count;
                    }
                    yp[c] = acc;
                }
            }
        }
    }
    return 0;
}

int tk_f32_max_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return pool(plan, op, mem, 1);
}

int tk_f32_avg_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return pool(plan, op, mem, 0);
}

int tk_f32_global_avg(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_FLOAT32 || ov.t->dtype != TIGRIS_DTYPE_FLOAT32) return -1;
    if (iv.rank != 4 || ov.rank != 4 || ov.dim[0] != iv.dim[0] || ov.dim[3] != iv.dim[3]) return -1;
    if (ov.dim[1] != 1 || ov.dim[2] != 1) return -1;
    int32_t n = iv.dim[0], h = iv.dim[1], w = iv.dim[2], c = iv.dim[3];
    const float *x = (const float *)tk_buf(mem, ii);
    float *y = (float *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    const tigris_tile_ctx_t *tc = &mem->tile;
    int banded = tc->active && tc->reduce_acc;
    int32_t rows = h;
    float *acc = y;
    if (banded) {
        if (tc->in_h <= 0 || tc->in_h > h) return -1;
        rows = tc->in_h;
        acc = (float *)tc->reduce_acc;
    }
    if (!banded || tc->reduce_first)
        for (int32_t i = 0; i < n * c; i++) acc[i] = 0.0f;
    for (int32_t b = 0; b < n; b++)
        for (int32_t r = 0; r < rows; r++)
            for (int32_t col = 0; col < w; col++) {
                const float *xp = x + (((size_t)b * rows + r) * w + col) * c;
                for (int32_t ch = 0; ch < c; ch++) acc[b * c + ch] += xp[ch];
            }
    if (!banded || tc->reduce_last) {
        float hw = (float)h * (float)w;
        for (int32_t i = 0; i < n * c; i++) y[i] = acc[i] / hw;
    }
    return 0;
}

/* L2Pool: sqrtf(sum of squares / in-image taps), then the fused activation. */
int tk_f32_l2_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return pool(plan, op, mem, POOL_L2);
}

/* GlobalMaxPool: per (n, c) the maximum over H·W, starting from the first
 * element. No band path hands it a tile. */
int tk_f32_global_max(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_FLOAT32 || ov.t->dtype != TIGRIS_DTYPE_FLOAT32) return -1;
    if (iv.rank != 4 || ov.rank != 4 || ov.dim[0] != iv.dim[0] || ov.dim[3] != iv.dim[3]) return -1;
    if (ov.dim[1] != 1 || ov.dim[2] != 1 || mem->tile.active) return -1;
    int32_t n = iv.dim[0], hw = iv.dim[1] * iv.dim[2], c = iv.dim[3];
    const float *x = (const float *)tk_buf(mem, ii);
    float *y = (float *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    for (int32_t b = 0; b < n; b++)
        for (int32_t ch = 0; ch < c; ch++) {
            const float *xp = x + (size_t)b * hw * c + ch;
            float m = xp[0];
            for (int32_t i = 1; i < hw; i++)
                if (xp[(size_t)i * c] > m) m = xp[(size_t)i * c];
            y[(size_t)b * c + ch] = m;
        }
    return 0;
}
