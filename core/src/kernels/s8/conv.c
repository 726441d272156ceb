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

static int conv_like(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int depthwise) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return -1;
    tk_geom_t g;
    if (tk_geom(op, mem, &iv, &ov, &g)) return -1;
    int32_t mult = 1;
    uint64_t wcount;
    if (depthwise) {
        if (g.oc % g.ic) return -1;
        mult = g.oc / g.ic;
        wcount = (uint64_t)g.kh * (uint64_t)g.kw * (uint64_t)g.oc;
    } else {
        wcount = (uint64_t)g.oc * (uint64_t)g.kh * (uint64_t)g.kw * (uint64_t)g.ic;
    }
    if (wcount > 0x7FFFFFFFu) return -1;
    const int8_t *w = (const int8_t *)tk_weight(plan, op->weight_idx, (uint32_t)wcount);
    const uint8_t *bias = NULL;
    if (op->bias_idx != TIGRIS_NONE16) {
        bias = (const uint8_t *)tk_weight(plan, op->bias_idx, (uint32_t)g.oc * 4u);
        if (!bias) return -1;
    }
    const tigris_quant_param_t *oq = tigris_tensor_quant(plan, ov.t);
    if (oq && oq->num_channels > 1 && oq->num_channels < g.oc) return -1;
    const int8_t *x = (const int8_t *)tk_buf(mem, ii);
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!w || !x || !y) return -1;
    s8_io_t io = {ov.t, tk_zero_point(plan, iv.t), tk_zero_point(plan, ov.t)};
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
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return -1;
    int32_t nb, oc;
    if (ov.rank >= 2) {
        nb = ov.dim[0];
        oc = ov.dim[1];
    } else if (ov.rank == 1) {
        nb = 1;
        oc = ov.dim[0];
    } else {
        return -1;
    }
    if (iv.numel % (uint32_t)nb) return -1;
    int32_t ic = (int32_t)(iv.numel / (uint32_t)nb);
    if (mem->tile.active && mem->tile.row_tiled) {
        if (mem->tile.out_h <= 0 || mem->tile.out_h > nb) return -1;
        nb = mem->tile.out_h;
    }
    uint64_t wcount = (uint64_t)oc * (uint64_t)ic;
    if (wcount > 0x7FFFFFFFu) return -1;
    const int8_t *w = (const int8_t *)tk_weight(plan, op->weight_idx, (uint32_t)wcount);
    const uint8_t *bias = NULL;
    if (op->bias_idx != TIGRIS_NONE16) {
        bias = (const uint8_t *)tk_weight(plan, op->bias_idx, (uint32_t)oc * 4u);
        if (!bias) return -1;
    }
    const tigris_quant_param_t *oq = tigris_tensor_quant(plan, ov.t);
    if (oq && oq->num_channels > 1 && oq->num_channels < oc) return -1;
    const int8_t *x = (const int8_t *)tk_buf(mem, ii);
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!w || !x || !y) return -1;
    s8_io_t io = {ov.t, tk_zero_point(plan, iv.t), tk_zero_point(plan, ov.t)};
    int err = 0;
    for (int32_t b = 0; b < nb; b++) {
        const int8_t *xp = x + (size_t)b * ic;
        for (int32_t o = 0; o < oc; o++) {
            const int8_t *wp = w + (size_t)o * ic;
            uint32_t acc = 0;
            for (int32_t k = 0; k < ic; k++) acc += (uint32_t)(((int32_t)xp[k] - io.zp_in) * (int32_t)wp[k]);
            if (bias) acc += (uint32_t)tk_ld_i32(bias, (uint32_t)o);
            y[(size_t)b * oc + o] = (int8_t)requant_out(plan, op, &io, o, (int32_t)acc, &err);
        }
    }
    return err ? -1 : 0;
}
