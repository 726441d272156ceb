/*
 * cn_conv_args.h - a conv or depthwise op's operands read and checked as the
 * reference's conv_core reads them (s8/conv.c): whole tensors or the band in
 * mem->tile (tk_geom), weights OHWI for conv and [KH, KW, OC] for
 * depthwise, optional int32 bias, per-tensor input zero point.
 */
#ifndef TIGRIS_CMSIS_NN_CONV_ARGS_H
#define TIGRIS_CMSIS_NN_CONV_ARGS_H

#include "cn_internal.h"

typedef struct {
    tk_geom_t g;
    const tigris_tensor_t *out;
    const int8_t *x, *w;
    int8_t *y;
    const uint8_t *bias; /* int32 per output channel, unaligned, or NULL */
    int32_t zp_in, zp_out, mult;
} cn_conv_args_t;

/* mem NULL: the whole-tensor shapes (sizing), no buffers. */
static inline int cn_conv_args(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int depthwise,
                               cn_conv_args_t *a) {
    tk_view_t iv, ov;
    tigris_mem_t none;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return CN_FALLBACK;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return CN_FALLBACK;
    if (!mem) memset(&none, 0, sizeof none);
    if (tk_geom(op, mem ? mem : &none, &iv, &ov, &a->g)) return CN_FALLBACK;
    const tk_geom_t *g = &a->g;
    uint64_t wcount;
    a->mult = 1;
    if (depthwise) {
        if (g->oc % g->ic) return CN_FALLBACK;
        a->mult = g->oc / g->ic;
        wcount = (uint64_t)g->kh * (uint64_t)g->kw * (uint64_t)g->oc;
    } else {
        wcount = (uint64_t)g->oc * (uint64_t)g->kh * (uint64_t)g->kw * (uint64_t)g->ic;
    }
    if (wcount > 0x7FFFFFFFu) return CN_FALLBACK;
    a->out = ov.t;
    a->w = (const int8_t *)tk_weight(plan, op->weight_idx, (uint32_t)wcount);
    a->bias = NULL;
    if (op->bias_idx != TIGRIS_NONE16) {
        a->bias = (const uint8_t *)tk_weight(plan, op->bias_idx, (uint32_t)g->oc * 4u);
        if (!a->bias) return CN_FALLBACK;
    }
    a->zp_in = tk_zero_point(plan, iv.t);
    a->zp_out = tk_zero_point(plan, ov.t);
    if (a->zp_in < -128 || a->zp_in > 127 || !cn_out_ok(a->zp_out, op->act_min, op->act_max)) return CN_FALLBACK;
    if (g->sh > 0x7FFF || g->sw > 0x7FFF || g->dh > 0x7FFF || g->dw > 0x7FFF) return CN_FALLBACK;
    a->x = NULL;
    a->y = NULL;
    if (mem) {
        a->x = (const int8_t *)tk_buf(mem, ii);
        a->y = (int8_t *)tk_buf(mem, oi);
        if (!a->w || !a->x || !a->y) return CN_FALLBACK;
    }
    return 0;
}

/* arm_convolve_wrapper_s8 sends a 1x1 kernel without top/left pad to its
 * 1x1 kernels and a one-row input with a one-row kernel to its 1xN kernel;
 * both assume TFLite's padding, under which no window reaches past the
 * input (1x1) or there is one output row without top pad (1xN). The
 * reference computes windows in the bottom/right padding as well, so such
 * ops are not taken. (The general kernel checks every tap.) Depthwise with
 * one input channel is run as a conv by CMSIS-NN, so it is checked too. */
static inline int cn_conv_paths_ok(const tk_geom_t *g, const cn_window_t *w) {
    if (g->kh == 1 && g->kw == 1 && g->dh == 1 && g->dw == 1 && w->pad_h == 0 && w->pad_w == 0 &&
        ((int64_t)(g->oh - 1) * g->sh >= g->in_rows || (int64_t)(g->ow - 1) * g->sw >= g->iw))
        return 0;
    if (w->in.h == 1 && g->kh == 1 && (g->oh != 1 || w->pad_h != 0)) return 0;
    return 1;
}

#endif /* TIGRIS_CMSIS_NN_CONV_ARGS_H */
