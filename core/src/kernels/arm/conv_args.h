/*
 * conv_args.h - the operands of a conv or depthwise op as the accelerated
 * kernels take them, read and checked the way the reference's conv_core
 * reads them (s8/conv.c): whole tensors or the band/tile in mem->tile
 * (tk_geom), weights OHWI for conv and [KH, KW, OC] for depthwise, optional
 * int32 bias, per-tensor input zero point, output requantisation.
 */
#ifndef TIGRIS_ARM_CONV_ARGS_H
#define TIGRIS_ARM_CONV_ARGS_H

#include "arm_common.h"

typedef struct {
    tk_geom_t g;
    const int8_t *x;
    int8_t *y;
    const int8_t *w;
    const uint8_t *bias; /* int32 per output channel, unaligned, or NULL */
    int32_t zp_in;
    int32_t mult;        /* depthwise channel multiplier (1 for conv) */
    ta_requant_t rq;
} ta_conv_args_t;

/* 0 when the op is an int8 conv (depthwise != 0: depthwise) whose operands
 * all check out; TA_FALLBACK otherwise (the reference then decides). */
static inline int ta_conv_args(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int depthwise,
                               ta_conv_args_t *a) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return TA_FALLBACK;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return TA_FALLBACK;
    if (tk_geom(op, mem, &iv, &ov, &a->g)) return TA_FALLBACK;
    const tk_geom_t *g = &a->g;
    uint64_t wcount;
    a->mult = 1;
    if (depthwise) {
        if (g->oc % g->ic) return TA_FALLBACK;
        a->mult = g->oc / g->ic;
        wcount = (uint64_t)g->kh * (uint64_t)g->kw * (uint64_t)g->oc;
    } else {
        wcount = (uint64_t)g->oc * (uint64_t)g->kh * (uint64_t)g->kw * (uint64_t)g->ic;
    }
    if (wcount > 0x7FFFFFFFu) return TA_FALLBACK;
    a->w = (const int8_t *)tk_weight(plan, op->weight_idx, (uint32_t)wcount);
    a->bias = NULL;
    if (op->bias_idx != TIGRIS_NONE16) {
        a->bias = (const uint8_t *)tk_weight(plan, op->bias_idx, (uint32_t)g->oc * 4u);
        if (!a->bias) return TA_FALLBACK;
    }
    if (ta_requant_init(plan, op, ov.t, g->oc, &a->rq)) return TA_FALLBACK;
    a->x = (const int8_t *)tk_buf(mem, ii);
    a->y = (int8_t *)tk_buf(mem, oi);
    if (!a->w || !a->x || !a->y) return TA_FALLBACK;
    a->zp_in = tk_zero_point(plan, iv.t);
    return 0;
}

static inline int32_t ta_bias(const ta_conv_args_t *a, int32_t oc) {
    return a->bias ? tk_ld_i32(a->bias, (uint32_t)oc) : 0;
}

/* Output pixel (n, oh, ow) of the band: first input row/column of its
 * window (band-local) and its output address. */
static inline int32_t ta_in_row0(const tk_geom_t *g, int32_t oh) {
    return (oh + g->out_row0) * g->sh - g->pt - g->in_row_shift;
}

static inline int8_t *ta_out_px(const ta_conv_args_t *a, int32_t n, int32_t oh, int32_t ow) {
    const tk_geom_t *g = &a->g;
    return a->y + (((size_t)n * g->out_rows + oh + g->out_row0) * g->ow + ow) * g->oc;
}

static inline const int8_t *ta_in_px(const ta_conv_args_t *a, int32_t n, int32_t iy, int32_t ix) {
    const tk_geom_t *g = &a->g;
    return a->x + (((size_t)n * g->in_rows + iy) * g->iw + ix) * g->ic;
}

#endif /* TIGRIS_ARM_CONV_ARGS_H */
