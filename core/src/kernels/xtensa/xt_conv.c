/*
 * xt_conv.c - Conv2D and FullyConnected for lx106, bit-exact with the int8
 * reference (s8/conv.c): the same geometry (tk_geom: whole tensor, height
 * band with roll offsets, or 2-D tile), the same wrapping int32 sums and the
 * same MultiplyByQuantizedMultiplier, done in 32-bit arithmetic.
 *
 * Variants, picked per op by xt_conv():
 *  - pointwise: 1x1, stride 1, no tap in the padding: each output pixel is
 *    one input pixel, computed like a fully connected row;
 *  - generic: for each output pixel the receptive field is gathered once as
 *    int16 x - zp_in (0 for taps in the padding) in the weights' (kh, kw, ic)
 *    order, then every output channel is one inner product (xt_dot.h).
 * Scratch: requantisation pairs per output channel and one int16 patch.
 */
#include "xt_dot.h"

typedef struct {
    tk_view_t iv, ov;
    int32_t ii, oi;
    const int8_t *w;
    const uint8_t *bias;
    xt_rq_t *rq;
    int32_t zp_in, zp_out, lo, hi;
} xt_conv_args_t;

static const int8_t *conv_weights(const tigris_plan_t *plan, const tigris_op_t *op, uint64_t count, int32_t oc,
                                  const uint8_t **bias) {
    *bias = NULL;
    if (count > 0x7FFFFFFFu) return NULL;
    if (op->bias_idx != TIGRIS_NONE16) {
        *bias = (const uint8_t *)tk_weight(plan, op->bias_idx, (uint32_t)oc * 4u);
        if (!*bias) return NULL;
    }
    return (const int8_t *)tk_weight(plan, op->weight_idx, (uint32_t)count);
}

/* 1x1 stride-1 conv whose pixels all lie inside the input: no gathering. */
static void conv_pointwise(const tk_geom_t *g, const xt_conv_args_t *a, const int8_t *x, int8_t *y, int16_t *patch) {
    for (int32_t n = 0; n < g->n; n++) {
        for (int32_t oh = 0; oh < g->oh; oh++) {
            int32_t orow = oh + g->out_row0;
            int32_t iy = orow - g->in_row_shift;
            const int8_t *xp = x + ((size_t)n * g->in_rows + iy) * g->iw * g->ic;
            int8_t *yp = y + ((size_t)n * g->out_rows + orow) * g->ow * g->oc;
            for (int32_t ow = 0; ow < g->ow; ow++) {
                uint32_t sx = xt_offset_row(patch, xp, g->ic, a->zp_in);
                xt_rows(patch, sx, a->w, g->ic, g->oc, a->bias, a->rq, a->zp_out, a->lo, a->hi, yp);
                xp += g->ic;
                yp += g->oc;
            }
        }
    }
}

/* Any kernel size, stride, dilation and padding: gather, then inner products. */
static void conv_generic(const tk_geom_t *g, const xt_conv_args_t *a, const int8_t *x, int8_t *y, int16_t *patch) {
    const int32_t kwic = g->kw * g->ic, k_all = g->kh * kwic;
    for (int32_t n = 0; n < g->n; n++) {
        for (int32_t oh = 0; oh < g->oh; oh++) {
            int32_t orow = oh + g->out_row0;
            int32_t ybase = orow * g->sh - g->pt - g->in_row_shift;
            int32_t khlo, khhi;
            xt_taps(ybase, g->kh, g->dh, g->ih, &khlo, &khhi);
            int8_t *yp = y + ((size_t)n * g->out_rows + orow) * g->ow * g->oc;
            for (int32_t ow = 0; ow < g->ow; ow++) {
                int32_t xbase = ow * g->sw - g->pl;
                int32_t kwlo, kwhi;
                xt_taps(xbase, g->kw, g->dw, g->iw, &kwlo, &kwhi);
                uint32_t sx = 0;
                if (khlo > 0) memset(patch, 0, (size_t)khlo * kwic * sizeof(int16_t));
                for (int32_t kh = khlo; kh < khhi; kh++) {
                    int16_t *pr = patch + (size_t)kh * kwic;
                    int32_t iy = ybase + kh * g->dh;
                    const int8_t *xr = x + (((size_t)n * g->in_rows + iy) * g->iw) * g->ic;
                    if (kwlo > 0) memset(pr, 0, (size_t)kwlo * g->ic * sizeof(int16_t));
                    if (g->dw == 1) {
                        /* adjacent taps are adjacent pixels: one run */
                        sx += xt_offset_row(pr + (size_t)kwlo * g->ic, xr + (size_t)(xbase + kwlo) * g->ic,
                                            (kwhi - kwlo) * g->ic, a->zp_in);
                    } else {
                        for (int32_t kw = kwlo; kw < kwhi; kw++)
                            sx += xt_offset_row(pr + (size_t)kw * g->ic, xr + (size_t)(xbase + kw * g->dw) * g->ic,
                                                g->ic, a->zp_in);
                    }
                    if (kwhi < g->kw)
                        memset(pr + (size_t)kwhi * g->ic, 0, (size_t)(g->kw - kwhi) * g->ic * sizeof(int16_t));
                }
                if (khhi < g->kh)
                    memset(patch + (size_t)khhi * kwic, 0, (size_t)(g->kh - khhi) * kwic * sizeof(int16_t));
                xt_rows(patch, sx, a->w, k_all, g->oc, a->bias, a->rq, a->zp_out, a->lo, a->hi,
                        yp + (size_t)ow * g->oc);
            }
        }
    }
}

int xt_conv(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, xt_scratch_t *sc) {
    xt_conv_args_t a;
    a.ii = tk_in_idx(plan, op, 0);
    a.oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, a.ii, &a.iv) || tk_view(plan, a.oi, &a.ov)) return XT_DECLINE;
    if (a.iv.t->dtype != TIGRIS_DTYPE_INT8 || a.ov.t->dtype != TIGRIS_DTYPE_INT8) return XT_DECLINE;
    tk_geom_t g;
    if (tk_geom(op, mem, &a.iv, &a.ov, &g)) return XT_DECLINE;
    uint64_t k_all = (uint64_t)g.kh * (uint64_t)g.kw * (uint64_t)g.ic;
    a.rq = (xt_rq_t *)xt_take(sc, (uint64_t)g.oc * sizeof(xt_rq_t));
    int16_t *patch = (int16_t *)xt_take(sc, k_all * sizeof(int16_t));
    if (!a.rq || !patch) return XT_DECLINE;
    if (!sc->base) return 0; /* sizing: weights may be compressed until the stage runs */
    a.w = conv_weights(plan, op, (uint64_t)g.oc * k_all, g.oc, &a.bias);
    if (!a.w || !xt_quant_channels_ok(plan, a.ov.t, g.oc)) return XT_DECLINE;
    const int8_t *x = (const int8_t *)tk_buf(mem, a.ii);
    int8_t *y = (int8_t *)tk_buf(mem, a.oi);
    if (!x || !y || xt_rq_channels(plan, a.ov.t, g.oc, a.rq)) return XT_DECLINE;
    a.zp_in = tk_zero_point(plan, a.iv.t);
    a.zp_out = tk_zero_point(plan, a.ov.t);
    a.lo = op->act_min;
    a.hi = op->act_max;
    /* every output pixel reads exactly one input pixel, none in the padding */
    int pointwise = g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.pt == 0 && g.pl == 0 && g.ow <= g.iw &&
                    g.out_row0 - g.in_row_shift >= 0 && g.out_row0 + g.oh - g.in_row_shift <= g.ih;
    if (pointwise)
        conv_pointwise(&g, &a, x, y, patch);
    else
        conv_generic(&g, &a, x, y, patch);
    return 0;
}

/* FullyConnected: the reference's batch/row layout (rank >= 2 output: [nb,
 * oc], rank 1: one row; a row band computes its first out_h rows), each row
 * offset once into int16 and run against every weight row. */
int xt_fully_connected(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, xt_scratch_t *sc) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return XT_DECLINE;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return XT_DECLINE;
    int32_t nb, oc;
    if (ov.rank >= 2) {
        nb = ov.dim[0];
        oc = ov.dim[1];
    } else if (ov.rank == 1) {
        nb = 1;
        oc = ov.dim[0];
    } else {
        return XT_DECLINE;
    }
    if (iv.numel % (uint32_t)nb) return XT_DECLINE;
    int32_t ic = (int32_t)(iv.numel / (uint32_t)nb);
    if (mem->tile.active && mem->tile.row_tiled) {
        if (mem->tile.out_h <= 0 || mem->tile.out_h > nb) return XT_DECLINE;
        nb = mem->tile.out_h;
    }
    xt_rq_t *rq = (xt_rq_t *)xt_take(sc, (uint64_t)oc * sizeof(xt_rq_t));
    int16_t *row = (int16_t *)xt_take(sc, (uint64_t)ic * sizeof(int16_t));
    if (!rq || !row) return XT_DECLINE;
    if (!sc->base) return 0;
    const uint8_t *bias;
    const int8_t *w = conv_weights(plan, op, (uint64_t)oc * (uint64_t)ic, oc, &bias);
    if (!w || !xt_quant_channels_ok(plan, ov.t, oc)) return XT_DECLINE;
    const int8_t *x = (const int8_t *)tk_buf(mem, ii);
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!x || !y || xt_rq_channels(plan, ov.t, oc, rq)) return XT_DECLINE;
    int32_t zp_in = tk_zero_point(plan, iv.t), zp_out = tk_zero_point(plan, ov.t);
    for (int32_t b = 0; b < nb; b++) {
        uint32_t sx = xt_offset_row(row, x + (size_t)b * ic, ic, zp_in);
        xt_rows(row, sx, w, ic, oc, bias, rq, zp_out, op->act_min, op->act_max, y + (size_t)b * oc);
    }
    return 0;
}
