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
 * Both run output pixels in pairs (two gathered fields interleaved), so each
 * weight word loaded serves four products (two pixels, two channels).
 * Scratch: requantisation pairs per output channel and two int16 patches.
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

/* 1x1 stride-1 conv whose pixels all lie inside the input: no gathering.
 * Pixels go in pairs (xt_rows22) so each weight word serves two. */
static void conv_pointwise(const tk_geom_t *g, const xt_conv_args_t *a, const int8_t *x, int8_t *y, int16_t *patch) {
    const int32_t ic = g->ic, oc = g->oc;
    for (int32_t n = 0; n < g->n; n++) {
        for (int32_t oh = 0; oh < g->oh; oh++) {
            int32_t orow = oh + g->out_row0;
            int32_t iy = orow - g->in_row_shift;
            const int8_t *xp = x + ((size_t)n * g->in_rows + iy) * g->iw * ic;
            int8_t *yp = y + ((size_t)n * g->out_rows + orow) * g->ow * oc;
            int32_t ow = 0;
            for (; ow + 2 <= g->ow; ow += 2, xp += 2 * ic, yp += 2 * oc) {
                uint32_t sa = xt_offset_row(patch, xp, ic, a->zp_in, 2);
                uint32_t sb = xt_offset_row(patch + 1, xp + ic, ic, a->zp_in, 2);
                xt_rows22(patch, sa, sb, a->w, ic, oc, a->rq, a->zp_out, a->lo, a->hi, yp, yp + oc);
            }
            if (ow < g->ow) {
                uint32_t sx = xt_offset_row(patch, xp, ic, a->zp_in, 1);
                xt_rows(patch, sx, a->w, ic, oc, a->rq, a->zp_out, a->lo, a->hi, yp);
            }
        }
    }
}

/* The receptive field of output column ow (rows khlo..khhi of the kernel
 * inside the input, the rest padding) as x - zp_in into dst[k·stride] in the
 * weights' (kh, kw, ic) order; returns its sum. */
static uint32_t gather(const tk_geom_t *g, const xt_conv_args_t *a, const int8_t *xn, int32_t ybase, int32_t khlo,
                       int32_t khhi, int32_t ow, int16_t *dst, int32_t stride) {
    const int32_t ic = g->ic, kwic = g->kw * ic;
    int32_t xbase = ow * g->sw - g->pl;
    int32_t kwlo, kwhi;
    xt_taps(xbase, g->kw, g->dw, g->iw, &kwlo, &kwhi);
    uint32_t sx = 0;
    xt_zero_row(dst, khlo * kwic, stride);
    for (int32_t kh = khlo; kh < khhi; kh++) {
        int16_t *pr = dst + (size_t)kh * kwic * stride;
        const int8_t *xr = xn + ((size_t)(ybase + kh * g->dh) * g->iw) * ic;
        xt_zero_row(pr, kwlo * ic, stride);
        if (g->dw == 1) {
            /* adjacent taps are adjacent pixels: one run */
            sx += xt_offset_row(pr + (size_t)kwlo * ic * stride, xr + (size_t)(xbase + kwlo) * ic, (kwhi - kwlo) * ic,
                                a->zp_in, stride);
        } else {
            for (int32_t kw = kwlo; kw < kwhi; kw++)
                sx += xt_offset_row(pr + (size_t)kw * ic * stride, xr + (size_t)(xbase + kw * g->dw) * ic, ic,
                                    a->zp_in, stride);
        }
        xt_zero_row(pr + (size_t)kwhi * ic * stride, (g->kw - kwhi) * ic, stride);
    }
    xt_zero_row(dst + (size_t)khhi * kwic * stride, (g->kh - khhi) * kwic, stride);
    return sx;
}

/* Any kernel size, stride, dilation and padding: gather two output pixels
 * interleaved, then inner products. */
static void conv_generic(const tk_geom_t *g, const xt_conv_args_t *a, const int8_t *x, int8_t *y, int16_t *patch) {
    const int32_t k_all = g->kh * g->kw * g->ic, oc = g->oc;
    for (int32_t n = 0; n < g->n; n++) {
        const int8_t *xn = x + (size_t)n * g->in_rows * g->iw * g->ic;
        for (int32_t oh = 0; oh < g->oh; oh++) {
            int32_t orow = oh + g->out_row0;
            int32_t ybase = orow * g->sh - g->pt - g->in_row_shift;
            int32_t khlo, khhi;
            xt_taps(ybase, g->kh, g->dh, g->ih, &khlo, &khhi);
            int8_t *yp = y + ((size_t)n * g->out_rows + orow) * g->ow * oc;
            int32_t ow = 0;
            for (; ow + 2 <= g->ow; ow += 2, yp += 2 * oc) {
                uint32_t sa = gather(g, a, xn, ybase, khlo, khhi, ow, patch, 2);
                uint32_t sb = gather(g, a, xn, ybase, khlo, khhi, ow + 1, patch + 1, 2);
                xt_rows22(patch, sa, sb, a->w, k_all, oc, a->rq, a->zp_out, a->lo, a->hi, yp, yp + oc);
            }
            if (ow < g->ow) {
                uint32_t sx = gather(g, a, xn, ybase, khlo, khhi, ow, patch, 1);
                xt_rows(patch, sx, a->w, k_all, oc, a->rq, a->zp_out, a->lo, a->hi, yp);
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
    int16_t *patch = (int16_t *)xt_take(sc, 2u * k_all * sizeof(int16_t)); /* two pixels */
    if (!a.rq || !patch) return XT_DECLINE;
    if (!sc->base) return 0; /* sizing: weights may be compressed until the stage runs */
    a.w = conv_weights(plan, op, (uint64_t)g.oc * k_all, g.oc, &a.bias);
    if (!a.w || !xt_quant_channels_ok(plan, a.ov.t, g.oc)) return XT_DECLINE;
    const int8_t *x = (const int8_t *)tk_buf(mem, a.ii);
    int8_t *y = (int8_t *)tk_buf(mem, a.oi);
    if (!x || !y || xt_rq_channels(plan, a.ov.t, g.oc, a.bias, a.rq)) return XT_DECLINE;
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
    int32_t nb, ic, oc;
    if (tk_fc_geom(&iv, &ov, mem, &nb, &ic, &oc)) return XT_DECLINE;
    xt_rq_t *rq = (xt_rq_t *)xt_take(sc, (uint64_t)oc * sizeof(xt_rq_t));
    int16_t *row = (int16_t *)xt_take(sc, 2u * (uint64_t)ic * sizeof(int16_t)); /* two rows */
    if (!rq || !row) return XT_DECLINE;
    if (!sc->base) return 0;
    const uint8_t *bias;
    const int8_t *w = conv_weights(plan, op, (uint64_t)oc * (uint64_t)ic, oc, &bias);
    if (!w || !xt_quant_channels_ok(plan, ov.t, oc)) return XT_DECLINE;
    const int8_t *x = (const int8_t *)tk_buf(mem, ii);
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!x || !y || xt_rq_channels(plan, ov.t, oc, bias, rq)) return XT_DECLINE;
    int32_t zp_in = tk_zero_point(plan, iv.t), zp_out = tk_zero_point(plan, ov.t);
    int32_t b = 0;
    for (; b + 2 <= nb; b += 2) {
        uint32_t sa = xt_offset_row(row, x + (size_t)b * ic, ic, zp_in, 2);
        uint32_t sb = xt_offset_row(row + 1, x + (size_t)(b + 1) * ic, ic, zp_in, 2);
        xt_rows22(row, sa, sb, w, ic, oc, rq, zp_out, op->act_min, op->act_max, y + (size_t)b * oc,
                  y + (size_t)(b + 1) * oc);
    }
    if (b < nb) {
        uint32_t sx = xt_offset_row(row, x + (size_t)b * ic, ic, zp_in, 1);
        xt_rows(row, sx, w, ic, oc, rq, zp_out, op->act_min, op->act_max, y + (size_t)b * oc);
    }
    return 0;
}
