/*
 * conv.c - int8 convolution family, bit-exact with TFLite's per-channel
 * reference kernels: int32 accumulation of (x - zp_in)·w over the taps inside
 * the input (padding contributes nothing), bias, MultiplyByQuantizedMultiplier
 * with the output record's multiplier/shift, output zero point, then the
 * op's act_min/act_max clamp.
 */
#include "../kernel_common.h"
#include "fixedpoint.h"

typedef struct {
    const tigris_tensor_t *out;
    int32_t zp_in, zp_out;
} s8_io_t;

static int32_t requant_out(const tigris_plan_t *plan, const tigris_op_t *op, const s8_io_t *io, int32_t ch,
                           int32_t acc, int *err) {
    int32_t m, s;
    if (tk_requant(plan, io->out, ch, &m, &s)) {
        *err = 1;
        return 0;
    }
    int32_t q = fx_wadd(fx_mbqm(acc, m, s), io->zp_out);
    return fx_clamp(q, op->act_min, op->act_max);
}

/* Small-channel convolutions (kh*kw*ic up to S8_CHUNK taps, which is where
 * the ic loop below is too short for a compiler to vectorise) compute output
 * channels S8_LANES at a time: the block's weights are copied, transposed to
 * [tap][lane] and widened to int32, into a stack buffer, so the innermost
 * loop is S8_LANES independent int32 multiply-adds on adjacent values (one
 * SIMD multiply and add under gcc and clang). The sums are the same wrapping
 * int32 sums of the same products, so the bytes are the same. */
#define S8_LANES 4
#define S8_CHUNK 64 /* taps: 64 x 4 int32 = 1 KiB of stack */
/* The ic loop below is an integer sum, which clang's loop vectoriser may
 * reorder, and it would: across ic, with gathered weights, three times
 * slower in wasm than leaving it to the lane loop. Other compilers ignore
 * the hint (gcc vectorises the lane loop by itself). */
#if defined(__clang__)
#define S8_KEEP_IC_LOOP_SCALAR _Pragma("clang loop vectorize(disable)")
#else
#define S8_KEEP_IC_LOOP_SCALAR
#endif

static int conv_blocked(const tigris_plan_t *plan, const tigris_op_t *op, const tk_geom_t *g, const int8_t *x,
                        int8_t *y, const int8_t *w, const uint8_t *bias, const s8_io_t *io) {
    const int32_t kwic = g->kw * g->ic, taps = g->kh * kwic;
    int32_t wt[S8_CHUNK * S8_LANES];
    for (int32_t oc0 = 0; oc0 < g->oc; oc0 += S8_LANES) {
        int32_t lanes = g->oc - oc0 < S8_LANES ? g->oc - oc0 : S8_LANES;
        int32_t m[S8_LANES], sh[S8_LANES];
        uint32_t b[S8_LANES];
        for (int32_t j = 0; j < lanes; j++) {
            if (tk_requant(plan, io->out, oc0 + j, &m[j], &sh[j])) return -1;
            b[j] = bias ? (uint32_t)tk_ld_i32(bias, (uint32_t)(oc0 + j)) : 0u;
        }
        /* unused lanes of the last block multiply zero weights and are never stored */
        for (int32_t t = 0; t < taps; t++)
            for (int32_t j = 0; j < S8_LANES; j++)
                wt[t * S8_LANES + j] = j < lanes ? (int32_t)w[(size_t)(oc0 + j) * (size_t)taps + (size_t)t] : 0;
        for (int32_t n = 0; n < g->n; n++) {
            for (int32_t oh = 0; oh < g->oh; oh++) {
                int32_t orow = oh + g->out_row0;
                int32_t ybase = orow * g->sh - g->pt - g->in_row_shift;
                int32_t khlo, khhi;
                tk_taps(ybase, g->kh, g->dh, g->ih, &khlo, &khhi);
                for (int32_t ow = 0; ow < g->ow; ow++) {
                    int32_t xbase = ow * g->sw - g->pl;
                    int32_t kwlo, kwhi;
                    tk_taps(xbase, g->kw, g->dw, g->iw, &kwlo, &kwhi);
                    uint32_t acc[S8_LANES] = {0}; /* wrapping int32 sums, as TFLite's */
                    for (int32_t kh = khlo; kh < khhi; kh++) {
                        int32_t iy = ybase + kh * g->dh;
                        for (int32_t kw = kwlo; kw < kwhi; kw++) {
                            int32_t ix = xbase + kw * g->dw;
                            const int8_t *xp = x + (((size_t)n * g->in_rows + iy) * g->iw + ix) * g->ic;
                            const int32_t *wp = wt + (size_t)(kh * kwic + kw * g->ic) * S8_LANES;
                            S8_KEEP_IC_LOOP_SCALAR
                            for (int32_t c = 0; c < g->ic; c++) {
                                int32_t xv = (int32_t)xp[c] - io->zp_in;
                                for (int32_t j = 0; j < S8_LANES; j++)
                                    acc[j] += (uint32_t)xv * (uint32_t)wp[c * S8_LANES + j];
                            }
                        }
                    }
                    int8_t *yp = y + (((size_t)n * g->out_rows + orow) * g->ow + ow) * g->oc + oc0;
                    for (int32_t j = 0; j < lanes; j++) {
                        int32_t q = fx_wadd(fx_mbqm((int32_t)(acc[j] + b[j]), m[j], sh[j]), io->zp_out);
                        yp[j] = (int8_t)fx_clamp(q, op->act_min, op->act_max);
                    }
                }
            }
        }
    }
    return 0;
}

/* int8 dot product of n values: x·w in wrapping int32. Chunks of 16 with a
 * fixed trip count, so that compilers vectorise them even at -O2 (GCC's
 * cheap cost model wants a known count); the rest one by one. The sum of
 * the same products in another order is the same wrapping int32 sum. */
/* dot_s8 that also returns Σw (one pass over the weights, for kernels that
 * have nowhere to keep Σw between calls). */
static uint32_t dot_sum_s8(const int8_t *x, const int8_t *w, int32_t n, uint32_t *wsum) {
    uint32_t acc = 0, ws = 0;
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        int32_t part = 0, wpart = 0;
        for (int32_t k = 0; k < 16; k++) {
            part += (int32_t)x[i + k] * (int32_t)w[i + k];
            wpart += (int32_t)w[i + k];
        }
        acc += (uint32_t)part;
        ws += (uint32_t)wpart;
    }
    for (; i < n; i++) {
        acc += (uint32_t)((int32_t)x[i] * (int32_t)w[i]);
        ws += (uint32_t)(int32_t)w[i];
    }
    *wsum = ws;
    return acc;
}

static uint32_t dot_s8(const int8_t *x, const int8_t *w, int32_t n) {
    uint32_t acc = 0;
    int32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        int32_t part = 0;
        for (int32_t k = 0; k < 16; k++) part += (int32_t)x[i + k] * (int32_t)w[i + k];
        acc += (uint32_t)part;
    }
    for (; i < n; i++) acc += (uint32_t)((int32_t)x[i] * (int32_t)w[i]);
    return acc;
}

/* Wider convolutions: Σ(x − zp)·w is computed as Σx·w − zp·Σw (equal in
 * wrapping int32 arithmetic), so the inner loop is a plain int8 dot
 * product. Σw over the whole window is computed once per output channel;
 * where the window is cut by the input's edge, over the taps inside it.
 * Output channels go S8_OCB at a time so their multipliers, biases and
 * weight sums live on the stack. */
#define S8_OCB 64
static int conv_wide(const tigris_plan_t *plan, const tigris_op_t *op, const tk_geom_t *g, const int8_t *x,
                     int8_t *y, const int8_t *w, const uint8_t *bias, const s8_io_t *io) {
    const size_t taps = (size_t)g->kh * (size_t)g->kw * (size_t)g->ic;
    for (int32_t oc0 = 0; oc0 < g->oc; oc0 += S8_OCB) {
        const int32_t nb = g->oc - oc0 < S8_OCB ? g->oc - oc0 : S8_OCB;
        int32_t m[S8_OCB], sh[S8_OCB];
        uint32_t b[S8_OCB], wsum[S8_OCB];
        for (int32_t j = 0; j < nb; j++) {
            if (tk_requant(plan, io->out, oc0 + j, &m[j], &sh[j])) return -1;
            b[j] = bias ? (uint32_t)tk_ld_i32(bias, (uint32_t)(oc0 + j)) : 0u;
            const int8_t *wp = w + (size_t)(oc0 + j) * taps;
            uint32_t sum = 0;
            for (size_t t = 0; t < taps; t++) sum += (uint32_t)(int32_t)wp[t];
            wsum[j] = sum;
        }
        for (int32_t n = 0; n < g->n; n++) {
            for (int32_t oh = 0; oh < g->oh; oh++) {
                const int32_t orow = oh + g->out_row0;
                const int32_t ybase = orow * g->sh - g->pt - g->in_row_shift;
                int32_t khlo, khhi;
                tk_taps(ybase, g->kh, g->dh, g->ih, &khlo, &khhi);
                for (int32_t ow = 0; ow < g->ow; ow++) {
                    const int32_t xbase = ow * g->sw - g->pl;
                    int32_t kwlo, kwhi;
                    tk_taps(xbase, g->kw, g->dw, g->iw, &kwlo, &kwhi);
                    const int whole = khlo == 0 && khhi == g->kh && kwlo == 0 && kwhi == g->kw;
                    int8_t *yp = y + (((size_t)n * g->out_rows + orow) * g->ow + ow) * g->oc + oc0;
                    for (int32_t j = 0; j < nb; j++) {
                        const int8_t *wo = w + (size_t)(oc0 + j) * taps;
                        uint32_t acc = 0, ws = whole ? wsum[j] : 0u;
                        for (int32_t kh = khlo; kh < khhi; kh++) {
                            const int32_t iy = ybase + kh * g->dh;
                            for (int32_t kw = kwlo; kw < kwhi; kw++) {
                                const int32_t ix = xbase + kw * g->dw;
                                const int8_t *xp = x + (((size_t)n * g->in_rows + iy) * g->iw + ix) * g->ic;
                                const int8_t *wp = wo + ((size_t)kh * g->kw + kw) * g->ic;
                                if (whole) {
                                    acc += dot_s8(xp, wp, g->ic);
                                } else {
                                    uint32_t part;
                                    acc += dot_sum_s8(xp, wp, g->ic, &part);
                                    ws += part;
                                }
                            }
                        }
                        acc -= (uint32_t)io->zp_in * ws;
                        const int32_t q = fx_wadd(fx_mbqm((int32_t)(acc + b[j]), m[j], sh[j]), io->zp_out);
                        yp[j] = (int8_t)fx_clamp(q, op->act_min, op->act_max);
                    }
                }
            }
        }
    }
    return 0;
}

/* Runs the checked operands of a Conv2D / DepthwiseConv2D. */
static int conv_run(const tigris_plan_t *plan, const tigris_op_t *op, const tk_conv_args_t *a, int depthwise) {
    const tk_geom_t g = a->g;
    const int32_t mult = a->mult;
    const int8_t *w = (const int8_t *)a->w, *x = (const int8_t *)a->x;
    const uint8_t *bias = a->bias;
    int8_t *y = (int8_t *)a->y;
    s8_io_t io = {a->out.t, tk_zero_point(plan, a->in.t), tk_zero_point(plan, a->out.t)};
    if (!depthwise && (uint64_t)g.kh * (uint64_t)g.kw * (uint64_t)g.ic <= S8_CHUNK)
        return conv_blocked(plan, op, &g, x, y, w, bias, &io);
    if (!depthwise) return conv_wide(plan, op, &g, x, y, w, bias, &io);
    int err = 0;
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
                int8_t *yp = y + (((size_t)n * g.out_rows + orow) * g.ow + ow) * g.oc;
                for (int32_t oc = 0; oc < g.oc; oc++) {
                    uint32_t acc = 0; /* wrapping int32 sum, as TFLite's */
                    for (int32_t kh = khlo; kh < khhi; kh++) {
                        int32_t iy = ybase + kh * g.dh;
                        for (int32_t kw = kwlo; kw < kwhi; kw++) {
                            int32_t ix = xbase + kw * g.dw;
                            const int8_t *xp = x + (((size_t)n * g.in_rows + iy) * g.iw + ix) * g.ic;
                            if (depthwise) {
                                int32_t xv = (int32_t)xp[oc / mult] - io.zp_in;
                                acc += (uint32_t)(xv * (int32_t)w[((size_t)kh * g.kw + kw) * g.oc + oc]);
                            } else {
                                const int8_t *wp = w + (((size_t)oc * g.kh + kh) * g.kw + kw) * g.ic;
                                for (int32_t ic = 0; ic < g.ic; ic++)
                                    acc += (uint32_t)(((int32_t)xp[ic] - io.zp_in) * (int32_t)wp[ic]);
                            }
                        }
                    }
                    if (bias) acc += (uint32_t)tk_ld_i32(bias, (uint32_t)oc);
                    yp[oc] = (int8_t)requant_out(plan, op, &io, oc, (int32_t)acc, &err);
                }
            }
        }
    }
    return err ? -1 : 0;
}

static int conv_like(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int depthwise) {
    tk_conv_args_t a;
    if (tk_conv_args(plan, op, mem, TIGRIS_DTYPE_INT8, depthwise, &a)) return -1;
    return conv_run(plan, op, &a, depthwise);
}

int tk_s8_conv(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return conv_like(plan, op, mem, 0);
}

int tk_s8_depthwise(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return conv_like(plan, op, mem, 1);
}

int tk_s8_fully_connected(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_fc_args_t a;
    if (tk_fc_args(plan, op, mem, TIGRIS_DTYPE_INT8, &a)) return -1;
    const int32_t nb = a.nb, ic = a.ic, oc = a.oc;
    const int8_t *w = (const int8_t *)a.w, *x = (const int8_t *)a.x;
    const uint8_t *bias = a.bias;
    int8_t *y = (int8_t *)a.y;
    s8_io_t io = {a.out.t, tk_zero_point(plan, a.in.t), tk_zero_point(plan, a.out.t)};
    int err = 0;
    for (int32_t b = 0; b < nb; b++) {
        const int8_t *xp = x + (size_t)b * ic;
        for (int32_t o = 0; o < oc; o++) {
            const int8_t *wp = w + (size_t)o * ic;
            /* Σ(x − zp)·w = Σx·w − zp·Σw in wrapping int32 (see conv_wide). */
            uint32_t ws;
            uint32_t acc = dot_sum_s8(xp, wp, ic, &ws);
            acc -= (uint32_t)io.zp_in * ws;
            if (bias) acc += (uint32_t)tk_ld_i32(bias, (uint32_t)o);
            y[(size_t)b * oc + o] = (int8_t)requant_out(plan, op, &io, o, (int32_t)acc, &err);
        }
    }
    return err ? -1 : 0;
}

/* Conv1D (NLC, weight [OC, K, IC]) as a Conv2D over [N, L, 1, C]. */
int tk_s8_conv1d(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return -1;
    if (iv.rank != 3 || ov.rank != 3) return -1;
    if (mem->tile.active && (mem->tile.width_tiled || mem->tile.in_row_start || mem->tile.out_row_start)) return -1;
    iv.rank = ov.rank = 4;
    iv.dim[3] = iv.dim[2];
    ov.dim[3] = ov.dim[2];
    iv.dim[2] = ov.dim[2] = 1;
    tigris_op_t op2 = *op;
    op2.spatial.kernel_w = 1;
    op2.spatial.stride_w = 1;
    op2.spatial.dilation_w = 1;
    op2.spatial.pad_left = op2.spatial.pad_right = 0;
    tk_conv_args_t a;
    if (tk_conv_args_views(plan, &op2, mem, ii, oi, &iv, &ov, 0, &a)) return -1;
    return conv_run(plan, &op2, &a, 0);
}

/* ConvTranspose in gather form (TFLite's scatter gives the same int32 sums):
 * acc = bias + sum over taps with oh + PT - kh = ih*SH, ow + PL - kw = iw*SW
 * of (x - zp_in)*w, then the per-channel requantisation. Never banded. */
int tk_s8_conv_transpose(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    if (mem->tile.active) return -1;
    tk_conv_args_t a;
    if (tk_conv_args(plan, op, mem, TIGRIS_DTYPE_INT8, 0, &a)) return -1;
    const tk_geom_t g = a.g;
    if (g.dh != 1 || g.dw != 1) return -1;
    const int8_t *w = (const int8_t *)a.w, *x = (const int8_t *)a.x;
    const uint8_t *bias = a.bias;
    int8_t *y = (int8_t *)a.y;
    s8_io_t io = {a.out.t, tk_zero_point(plan, a.in.t), tk_zero_point(plan, a.out.t)};
    int err = 0;
    for (int32_t n = 0; n < g.n; n++)
        for (int32_t oh = 0; oh < g.oh; oh++)
            for (int32_t ow = 0; ow < g.ow; ow++) {
                int8_t *yp = y + (((size_t)n * g.oh + oh) * g.ow + ow) * g.oc;
                for (int32_t oc = 0; oc < g.oc; oc++) {
                    uint32_t acc = bias ? (uint32_t)tk_ld_i32(bias, (uint32_t)oc) : 0u;
                    for (int32_t kh = 0; kh < g.kh; kh++) {
                        int32_t nh = oh + g.pt - kh;
                        if (nh < 0 || nh % g.sh || nh / g.sh >= g.ih) continue;
                        int32_t ih = nh / g.sh;
                        for (int32_t kw = 0; kw < g.kw; kw++) {
                            int32_t nw = ow + g.pl - kw;
                            if (nw < 0 || nw % g.sw || nw / g.sw >= g.iw) continue;
                            int32_t iw = nw / g.sw;
                            const int8_t *xp = x + (((size_t)n * g.ih + ih) * g.iw + iw) * g.ic;
                            const int8_t *wp = w + (((size_t)oc * g.kh + kh) * g.kw + kw) * g.ic;
                            for (int32_t ic = 0; ic < g.ic; ic++)
                                acc += (uint32_t)(((int32_t)xp[ic] - io.zp_in) * (int32_t)wp[ic]);
                        }
                    }
                    yp[oc] = (int8_t)requant_out(plan, op, &io, oc, (int32_t)acc, &err);
                }
            }
    return err ? -1 : 0;
}

/* MatMul of two int8 activations: acc = sum (a - za)(b - zb), requantised
 * with the output record's channel-0 multiplier (the effective sa*sb/sy),
 * output zero point, act clamp. A ROWS band hands over out_h rows of M per
 * batch; B is read whole. */
int tk_s8_matmul(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    if (op->num_inputs != 2) return -1;
    tk_view_t av, bv, yv;
    int32_t ia = tk_in_idx(plan, op, 0), ib = tk_in_idx(plan, op, 1), iy = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ia, &av) || tk_view(plan, ib, &bv) || tk_view(plan, iy, &yv)) return -1;
    if (av.t->dtype != TIGRIS_DTYPE_INT8 || bv.t->dtype != TIGRIS_DTYPE_INT8 || yv.t->dtype != TIGRIS_DTYPE_INT8)
        return -1;
    int32_t r = av.rank;
    if (r < 2 || bv.rank != r || yv.rank != r) return -1;
    uint32_t batch = 1;
    for (int32_t i = 0; i + 2 < r; i++) {
        if (av.dim[i] != bv.dim[i] || av.dim[i] != yv.dim[i]) return -1;
        batch *= (uint32_t)av.dim[i];
    }
    int32_t m = av.dim[r - 2], k = av.dim[r - 1], n = bv.dim[r - 1];
    if (bv.dim[r - 2] != k || yv.dim[r - 2] != m || yv.dim[r - 1] != n) return -1;
    const tigris_tile_ctx_t *tc = &mem->tile;
    if (tc->active) {
        if (tc->row_tiled != TIGRIS_ROW_MODE_ROWS || tc->out_h <= 0 || tc->out_h > m) return -1;
        if (tc->in_row_start || tc->out_row_start) return -1;
        m = tc->out_h;
    }
    int32_t mult, shift;
    if (tk_requant(plan, yv.t, 0, &mult, &shift)) return -1;
    int32_t za = tk_zero_point(plan, av.t), zb = tk_zero_point(plan, bv.t), zy = tk_zero_point(plan, yv.t);
    const int8_t *a = (const int8_t *)tk_buf(mem, ia), *b = (const int8_t *)tk_buf(mem, ib);
    int8_t *y = (int8_t *)tk_buf(mem, iy);
    if (!a || !b || !y) return -1;
    for (uint32_t t = 0; t < batch; t++) {
        const int8_t *ap = a + (size_t)t * m * k, *bp = b + (size_t)t * k * n;
        int8_t *yp = y + (size_t)t * m * n;
        for (int32_t i = 0; i < m; i++)
            for (int32_t j = 0; j < n; j++) {
                uint32_t acc = 0;
                for (int32_t q = 0; q < k; q++)
                    acc += (uint32_t)(((int32_t)ap[(size_t)i * k + q] - za) * ((int32_t)bp[(size_t)q * n + j] - zb));
                int32_t v = fx_wadd(fx_mbqm((int32_t)acc, mult, shift), zy);
                yp[(size_t)i * n + j] = (int8_t)fx_clamp(v, op->act_min, op->act_max);
            }
    }
    return 0;
}
