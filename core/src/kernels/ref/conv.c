/*
 * conv.c - float32 convolution family: Conv2D (OHWI weights), depthwise
 * (HWC weights, channel multiplier) and fully connected ([OC, IC]).
 */
#include "../kernel_common.h"

static float act_f32(uint8_t act, float v) {
    if (act == TIGRIS_ACT_RELU || act == TIGRIS_ACT_RELU6) v = v < 0.0f ? 0.0f : v;
    if (act == TIGRIS_ACT_RELU6 && v > 6.0f) v = 6.0f;
    return v;
}

/* Conv2D whose kernel rows are short (kw * ic <= CONV_CHUNK taps: the
 * small-channel layers where a loop over ic alone is mostly overhead)
 * computes output channels CONV_LANES at a time. Each lane block's weights
 * are first copied, transposed to [tap][lane], into a small stack buffer, so
 * the innermost loop is CONV_LANES independent multiply-adds on adjacent
 * floats: gcc and clang turn it into one SIMD multiply and one add (SSE2,
 * wasm simd128, NEON), and elsewhere it is still a tight loop that loads each
 * x value once for four channels. Every lane keeps the runtime's documented
 * accumulation order (bias, then taps in kh, kw, ic order, one rounding per
 * add), so the results are bit-for-bit those of conv_plain below. Taps are
 * taken whole kernel rows at a time, as many rows as fit the buffer; between
 * chunks a lane's partial sum waits, exact, in the output element it is for. */
#define CONV_LANES 4
#define CONV_CHUNK 64 /* taps per chunk: 64 x 4 floats = 1 KiB of stack */

static void conv_block(const tk_geom_t *gp, const float *x, float *y, const float *wt, const float *bias4,
                       int32_t oc0, int32_t lanes, int32_t r0, int32_t r1, uint8_t act) {
    const tk_geom_t g = *gp; /* a local copy: stores to y cannot change it */
    const int32_t ic = g.ic, kwic = g.kw * ic;
    const int first = r0 == 0, last = r1 == g.kh;
    for (int32_t n = 0; n < g.n; n++) {
        for (int32_t oh = 0; oh < g.oh; oh++) {
            int32_t orow = oh + g.out_row0;
            int32_t ybase = orow * g.sh - g.pt - g.in_row_shift;
            int32_t khlo, khhi;
            tk_taps(ybase, g.kh, g.dh, g.ih, &khlo, &khhi);
            if (khlo < r0) khlo = r0; /* only this chunk's kernel rows */
            if (khhi > r1) khhi = r1;
            float *yrow = y + ((size_t)n * g.out_rows + orow) * g.ow * g.oc + oc0;
            for (int32_t ow = 0; ow < g.ow; ow++) {
                int32_t xbase = ow * g.sw - g.pl;
                int32_t kwlo, kwhi;
                tk_taps(xbase, g.kw, g.dw, g.iw, &kwlo, &kwhi);
                float *yp = yrow + (size_t)ow * g.oc;
                /* s[] starts from one plain array, ends in one, and every loop
                 * over it runs to the constant CONV_LANES, so it can live in
                 * one vector register: with per-lane conditional starts and
                 * stores clang's SLP vectoriser judged it not worth it and the
                 * wasm build stayed scalar. */
                float s[CONV_LANES], part[CONV_LANES] = {0};
                if (!first)
                    for (int32_t j = 0; j < lanes; j++) part[j] = yp[j];
                const float *init = first ? bias4 : part;
                for (int32_t j = 0; j < CONV_LANES; j++) s[j] = init[j];
                for (int32_t kh = khlo; kh < khhi; kh++) {
                    const float *xrow = x + ((size_t)n * g.in_rows + (ybase + kh * g.dh)) * g.iw * ic;
                    const float *wrow = wt + (size_t)(kh - r0) * kwic * CONV_LANES;
                    for (int32_t kw = kwlo; kw < kwhi; kw++) {
                        const float *xp = xrow + (size_t)(xbase + kw * g.dw) * ic;
                        const float *wp = wrow + (size_t)kw * ic * CONV_LANES;
                        for (int32_t c = 0; c < ic; c++) {
                            float xv = xp[c];
                            for (int32_t j = 0; j < CONV_LANES; j++) s[j] += xv * wp[c * CONV_LANES + j];
                        }
                    }
                }
                if (last)
                    for (int32_t j = 0; j < CONV_LANES; j++) s[j] = act_f32(act, s[j]);
                /* all four lanes are stored, through part[] for a short last block */
                float *dst = lanes == CONV_LANES ? yp : part;
                for (int32_t j = 0; j < CONV_LANES; j++) dst[j] = s[j];
                for (int32_t j = 0; dst == part && j < lanes; j++) yp[j] = part[j];
            }
        }
    }
}

static void conv_blocked(const tk_geom_t *g, const float *x, float *y, const float *w, const uint8_t *bias,
                         uint8_t act) {
    const int32_t kwic = g->kw * g->ic, taps = g->kh * kwic;
    const int32_t rows = kwic > 0 ? CONV_CHUNK / kwic : g->kh; /* kernel rows per chunk, >= 1 */
    float wt[CONV_CHUNK * CONV_LANES];
    for (int32_t oc0 = 0; oc0 < g->oc; oc0 += CONV_LANES) {
        int32_t lanes = g->oc - oc0 < CONV_LANES ? g->oc - oc0 : CONV_LANES;
        float bias4[CONV_LANES] = {0};
        if (bias) memcpy(bias4, bias + 4u * (uint32_t)oc0, 4u * (uint32_t)lanes);
        for (int32_t r0 = 0; r0 < g->kh; r0 += rows) {
            int32_t r1 = g->kh - r0 < rows ? g->kh : r0 + rows;
            /* unused lanes of the last block compute on zero weights and are never stored */
            for (int32_t t = r0 * kwic; t < r1 * kwic; t++)
                for (int32_t j = 0; j < CONV_LANES; j++)
                    wt[(t - r0 * kwic) * CONV_LANES + j] =
                        j < lanes ? w[(size_t)(oc0 + j) * (size_t)taps + (size_t)t] : 0.0f;
            conv_block(g, x, y, wt, bias4, oc0, lanes, r0, r1, act);
        }
    }
}

/* One output channel at a time: depthwise, and Conv2D with kernel rows too
 * long for conv_blocked's buffer. The bias is summed first so that results
 * follow the runtime's documented accumulation order (bias, then taps in kh,
 * kw, ic order). */
static void conv_plain(const tk_geom_t *gp, const float *x, float *y, const float *w, const uint8_t *bias,
                       int depthwise, int32_t mult, uint8_t act) {
    const tk_geom_t g = *gp;
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
                float *yp = y + (((size_t)n * g.out_rows + orow) * g.ow + ow) * g.oc;
                for (int32_t oc = 0; oc < g.oc; oc++) {
                    float sum = 0.0f;
                    if (bias) memcpy(&sum, bias + 4u * (uint32_t)oc, 4);
                    for (int32_t kh = khlo; kh < khhi; kh++) {
                        int32_t iy = ybase + kh * g.dh;
                        for (int32_t kw = kwlo; kw < kwhi; kw++) {
                            int32_t ix = xbase + kw * g.dw;
                            const float *xp = x + (((size_t)n * g.in_rows + iy) * g.iw + ix) * g.ic;
                            if (depthwise) {
                                sum += xp[oc / mult] * w[((size_t)kh * g.kw + kw) * g.oc + oc];
                            } else {
                                const float *wp = w + (((size_t)oc * g.kh + kh) * g.kw + kw) * g.ic;
                                for (int32_t ic = 0; ic < g.ic; ic++) sum += xp[ic] * wp[ic];
                            }
                        }
                    }
                    yp[oc] = act_f32(act, sum);
                }
            }
        }
    }
}

/* Runs the checked operands of a Conv2D / DepthwiseConv2D. */
static void conv_run(const tigris_op_t *op, const tk_conv_args_t *a, int depthwise) {
    const tk_geom_t *g = &a->g;
    if (!depthwise && (uint64_t)g->kw * (uint64_t)g->ic <= CONV_CHUNK)
        conv_blocked(g, (const float *)a->x, (float *)a->y, (const float *)a->w, a->bias, op->fused_act);
    else
        conv_plain(g, (const float *)a->x, (float *)a->y, (const float *)a->w, a->bias, depthwise, a->mult,
                   op->fused_act);
}

static int conv_like(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int depthwise) {
    tk_conv_args_t a;
    if (tk_conv_args(plan, op, mem, TIGRIS_DTYPE_FLOAT32, depthwise, &a)) return -1;
    conv_run(op, &a, depthwise);
    return 0;
}

int tk_f32_conv(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return conv_like(plan, op, mem, 0);
}

int tk_f32_depthwise(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return conv_like(plan, op, mem, 1);
}

/* Batches and output features from the output's shape; a row band hands
 * over out_h rows of the batch axis. */
int tk_f32_fully_connected(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                           tigris_mem_t *mem) {
    (void)op_index;
    tk_fc_args_t a;
    if (tk_fc_args(plan, op, mem, TIGRIS_DTYPE_FLOAT32, &a)) return -1;
    const int32_t nb = a.nb, ic = a.ic, oc = a.oc;
    const float *w = (const float *)a.w, *x = (const float *)a.x;
    const uint8_t *bias = a.bias;
    float *y = (float *)a.y;
    for (int32_t b = 0; b < nb; b++) {
        const float *xp = x + (size_t)b * ic;
        for (int32_t o = 0; o < oc; o++) {
            float sum = 0.0f;
            if (bias) memcpy(&sum, bias + 4u * (uint32_t)o, 4);
            const float *wp = w + (size_t)o * ic;
            for (int32_t k = 0; k < ic; k++) sum += xp[k] * wp[k];
            y[(size_t)b * oc + o] = act_f32(op->fused_act, sum);
        }
    }
    return 0;
}

/* Conv1D (NLC, weight [OC, K, IC]) is a Conv2D over [N, L, 1, C] with a
 * 1-wide kernel: the op's length fields are its height fields. */
static int conv1d_views(const tigris_plan_t *plan, const tigris_op_t *op, tk_view_t *iv, tk_view_t *ov,
                        tigris_op_t *op2) {
    if (iv->rank != 3 || ov->rank != 3) return -1;
    iv->rank = ov->rank = 4;
    iv->dim[3] = iv->dim[2];
    ov->dim[3] = ov->dim[2];
    iv->dim[2] = ov->dim[2] = 1;
    *op2 = *op;
    op2->spatial.kernel_w = 1;
    op2->spatial.stride_w = 1;
    op2->spatial.dilation_w = 1;
    op2->spatial.pad_left = op2->spatial.pad_right = 0;
    (void)plan;
    /* A 1-D stripe carries no line-buffer roll offsets (docs/runtime-semantics.md R4.3 item 3). */
    return 0;
}

int tk_f32_conv1d(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t iv, ov;
    tigris_op_t op2;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_FLOAT32 || ov.t->dtype != TIGRIS_DTYPE_FLOAT32) return -1;
    if (conv1d_views(plan, op, &iv, &ov, &op2)) return -1;
    if (mem->tile.active && (mem->tile.width_tiled || mem->tile.in_row_start || mem->tile.out_row_start)) return -1;
    tk_conv_args_t a;
    if (tk_conv_args_views(plan, &op2, mem, ii, oi, &iv, &ov, 0, &a)) return -1;
    conv_run(&op2, &a, 0);
    return 0;
}

/* ConvTranspose in gather form: output (oh, ow) takes input (ih, iw) through
 * tap (kh, kw) when oh + PT - kh = ih·SH (same for width). Taps are visited
 * with kh and kw descending (the order TFLite's scatter adds them) and the
 * bias is added last. The executor never bands it: refused under a tile. */
int tk_f32_conv_transpose(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    if (mem->tile.active) return -1;
    tk_conv_args_t a;
    if (tk_conv_args(plan, op, mem, TIGRIS_DTYPE_FLOAT32, 0, &a)) return -1;
    const tk_geom_t g = a.g;
    if (g.dh != 1 || g.dw != 1) return -1;
    const float *w = (const float *)a.w, *x = (const float *)a.x;
    const uint8_t *bias = a.bias;
    float *y = (float *)a.y;
    for (int32_t n = 0; n < g.n; n++) {
        for (int32_t oh = 0; oh < g.oh; oh++) {
            for (int32_t ow = 0; ow < g.ow; ow++) {
                float *yp = y + (((size_t)n * g.oh + oh) * g.ow + ow) * g.oc;
                for (int32_t oc = 0; oc < g.oc; oc++) {
                    float sum = 0.0f;
                    for (int32_t kh = g.kh - 1; kh >= 0; kh--) {
                        int32_t nh = oh + g.pt - kh;
                        if (nh < 0 || nh % g.sh) continue;
                        int32_t ih = nh / g.sh;
                        if (ih >= g.ih) continue;
                        for (int32_t kw = g.kw - 1; kw >= 0; kw--) {
                            int32_t nw = ow + g.pl - kw;
                            if (nw < 0 || nw % g.sw) continue;
                            int32_t iw = nw / g.sw;
                            if (iw >= g.iw) continue;
                            const float *xp = x + (((size_t)n * g.ih + ih) * g.iw + iw) * g.ic;
                            const float *wp = w + (((size_t)oc * g.kh + kh) * g.kw + kw) * g.ic;
                            for (int32_t ic = 0; ic < g.ic; ic++) sum += xp[ic] * wp[ic];
                        }
                    }
                    if (bias) {
                        float b;
                        memcpy(&b, bias + 4u * (uint32_t)oc, 4);
                        sum += b;
                    }
                    yp[oc] = act_f32(op->fused_act, sum);
                }
            }
        }
    }
    return 0;
}

/* Batch/row geometry of a MatMul [.., M, K]·[.., K, N] -> [.., M, N]
 * (no broadcasting); a ROWS band hands over out_h rows of M per batch. */
typedef struct {
    int32_t ia, ib, iy;
    uint32_t batch;
    int32_t m, k, n;
} mm_geom_t;

static int mm_geom(const tigris_plan_t *plan, const tigris_op_t *op, const tigris_mem_t *mem, uint8_t dtype,
                   mm_geom_t *g, tk_view_t *av, tk_view_t *bv, tk_view_t *yv) {
    if (op->num_inputs != 2) return -1;
    g->ia = tk_in_idx(plan, op, 0);
    g->ib = tk_in_idx(plan, op, 1);
    g->iy = tk_out_idx(plan, op, 0);
    if (tk_view(plan, g->ia, av) || tk_view(plan, g->ib, bv) || tk_view(plan, g->iy, yv)) return -1;
    if (av->t->dtype != dtype || bv->t->dtype != dtype || yv->t->dtype != dtype) return -1;
    int32_t r = av->rank;
    if (r < 2 || bv->rank != r || yv->rank != r) return -1;
    g->batch = 1;
    for (int32_t i = 0; i + 2 < r; i++) {
        if (av->dim[i] != bv->dim[i] || av->dim[i] != yv->dim[i]) return -1;
        g->batch *= (uint32_t)av->dim[i];
    }
    g->m = av->dim[r - 2];
    g->k = av->dim[r - 1];
    g->n = bv->dim[r - 1];
    if (bv->dim[r - 2] != g->k || yv->dim[r - 2] != g->m || yv->dim[r - 1] != g->n) return -1;
    const tigris_tile_ctx_t *tc = &mem->tile;
    if (tc->active) {
        if (tc->row_tiled != TIGRIS_ROW_MODE_ROWS || tc->out_h <= 0 || tc->out_h > g->m) return -1;
        if (tc->in_row_start || tc->out_row_start) return -1;
        g->m = tc->out_h;
    }
    return 0;
}

int tk_f32_matmul(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    mm_geom_t g;
    tk_view_t av, bv, yv;
    if (mm_geom(plan, op, mem, TIGRIS_DTYPE_FLOAT32, &g, &av, &bv, &yv)) return -1;
    const float *a = (const float *)tk_buf(mem, g.ia), *b = (const float *)tk_buf(mem, g.ib);
    float *y = (float *)tk_buf(mem, g.iy);
    if (!a || !b || !y) return -1;
    for (uint32_t t = 0; t < g.batch; t++) {
        const float *ap = a + (size_t)t * g.m * g.k, *bp = b + (size_t)t * g.k * g.n;
        float *yp = y + (size_t)t * g.m * g.n;
        for (int32_t i = 0; i < g.m; i++)
            for (int32_t j = 0; j < g.n; j++) {
                float sum = 0.0f;
                for (int32_t q = 0; q < g.k; q++) sum += ap[(size_t)i * g.k + q] * bp[(size_t)q * g.n + j];
                yp[(size_t)i * g.n + j] = sum;
            }
    }
    return 0;
}
