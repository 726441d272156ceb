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

/* The bias is summed first so that results follow the runtime's documented
 * accumulation order (bias, then taps in kh, kw, ic order). */
static int conv_like(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int depthwise) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_FLOAT32 || ov.t->dtype != TIGRIS_DTYPE_FLOAT32) return -1;
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
    if (wcount * 4u > 0xFFFFFFFFu) return -1;
    const float *w = (const float *)tk_weight(plan, op->weight_idx, (uint32_t)(wcount * 4u));
    const uint8_t *bias = NULL;
    if (op->bias_idx != TIGRIS_NONE16) {
        bias = (const uint8_t *)tk_weight(plan, op->bias_idx, (uint32_t)g.oc * 4u);
        if (!bias) return -1;
    }
    const float *x = (const float *)tk_buf(mem, ii);
    float *y = (float *)tk_buf(mem, oi);
    if (!w || !x || !y) return -1;
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
                    yp[oc] = act_f32(op->fused_act, sum);
                }
            }
        }
    }
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
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_FLOAT32 || ov.t->dtype != TIGRIS_DTYPE_FLOAT32) return -1;
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
    uint64_t wbytes = (uint64_t)oc * (uint64_t)ic * 4u;
    if (wbytes > 0xFFFFFFFFu) return -1;
    const float *w = (const float *)tk_weight(plan, op->weight_idx, (uint32_t)wbytes);
    const uint8_t *bias = NULL;
    if (op->bias_idx != TIGRIS_NONE16) {
        bias = (const uint8_t *)tk_weight(plan, op->bias_idx, (uint32_t)oc * 4u);
        if (!bias) return -1;
    }
    const float *x = (const float *)tk_buf(mem, ii);
    float *y = (float *)tk_buf(mem, oi);
    if (!w || !x || !y) return -1;
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
