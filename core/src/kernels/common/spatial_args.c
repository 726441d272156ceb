/*
 * spatial_args.c - the operands of Conv2D, DepthwiseConv2D, FullyConnected
 * and the windowed pools, parsed and checked once: the float32 and int8 reference kernels (and the
 * accelerated backends) start from the same struct, so a plan one of them
 * accepts is a plan every one of them reads the same way.
 */
#include "../kernel_common.h"

/* Bytes of one weight or input element of a data dtype the spatial kernels
 * take; 0 for any other. */
static uint32_t data_esize(uint8_t dtype) {
    return dtype == TIGRIS_DTYPE_FLOAT32 ? 4u : dtype == TIGRIS_DTYPE_INT8 ? 1u : 0u;
}

/* Weights of `count` elements and a bias of `oc` words; -1 when either is
 * missing or shorter than that, or the weights do not fit 31 bits. */
static int weights_and_bias(const tigris_plan_t *plan, const tigris_op_t *op, uint64_t count, uint32_t esize,
                            int32_t oc, const void **w, const uint8_t **bias) {
    uint64_t bytes = count * esize;
    if (bytes > 0x7FFFFFFFu) return -1;
    *w = tk_weight(plan, op->weight_idx, (uint32_t)bytes);
    *bias = NULL;
    if (op->bias_idx != TIGRIS_NONE16) {
        *bias = (const uint8_t *)tk_weight(plan, op->bias_idx, (uint32_t)oc * 4u);
        if (!*bias) return -1;
    }
    return *w ? 0 : -1;
}

/* An int8 output's per-channel record must have a pair for every channel. */
static int channels_covered(const tigris_plan_t *plan, const tigris_tensor_t *out, int32_t oc) {
    if (out->dtype != TIGRIS_DTYPE_INT8) return 0;
    const tigris_quant_param_t *q = tigris_tensor_quant(plan, out);
    return q && q->num_channels > 1 && q->num_channels < oc ? -1 : 0;
}

int tk_conv_args_views(const tigris_plan_t *plan, const tigris_op_t *op, const tigris_mem_t *mem, int32_t ii,
                       int32_t oi, const tk_view_t *iv, const tk_view_t *ov, int depthwise, tk_conv_args_t *a) {
    uint32_t es = data_esize(iv->t->dtype);
    uint64_t count;
    a->in = *iv;
    a->out = *ov;
    if (!es || tk_geom(op, mem, &a->in, &a->out, &a->g)) return -1;
    const tk_geom_t *g = &a->g;
    a->mult = 1;
    if (depthwise) {
        if (g->oc % g->ic) return -1;
        a->mult = g->oc / g->ic;
        count = (uint64_t)g->kh * (uint64_t)g->kw * (uint64_t)g->oc;
    } else {
        count = (uint64_t)g->oc * (uint64_t)g->kh * (uint64_t)g->kw * (uint64_t)g->ic;
    }
    if (weights_and_bias(plan, op, count, es, g->oc, &a->w, &a->bias)) return -1;
    if (channels_covered(plan, ov->t, g->oc)) return -1;
    a->x = tk_buf(mem, ii);
    a->y = tk_buf(mem, oi);
    return a->x && a->y ? 0 : -1;
}

int tk_conv_args(const tigris_plan_t *plan, const tigris_op_t *op, const tigris_mem_t *mem, uint8_t dtype,
                 int depthwise, tk_conv_args_t *a) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != dtype || ov.t->dtype != dtype) return -1;
    return tk_conv_args_views(plan, op, mem, ii, oi, &iv, &ov, depthwise, a);
}

int tk_fc_args(const tigris_plan_t *plan, const tigris_op_t *op, const tigris_mem_t *mem, uint8_t dtype,
               tk_fc_args_t *a) {
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    uint32_t es = data_esize(dtype);
    if (!es || tk_view(plan, ii, &a->in) || tk_view(plan, oi, &a->out)) return -1;
    if (a->in.t->dtype != dtype || a->out.t->dtype != dtype) return -1;
    if (tk_fc_geom(&a->in, &a->out, mem, &a->nb, &a->ic, &a->oc)) return -1;
    if (weights_and_bias(plan, op, (uint64_t)a->oc * (uint64_t)a->ic, es, a->oc, &a->w, &a->bias)) return -1;
    if (channels_covered(plan, a->out.t, a->oc)) return -1;
    a->x = tk_buf(mem, ii);
    a->y = tk_buf(mem, oi);
    return a->x && a->y ? 0 : -1;
}

int tk_pool_args(const tigris_plan_t *plan, const tigris_op_t *op, const tigris_mem_t *mem, uint8_t dtype,
                 tk_pool_args_t *a) {
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &a->in) || tk_view(plan, oi, &a->out)) return -1;
    if (a->in.t->dtype != dtype || a->out.t->dtype != dtype) return -1;
    if (tk_geom(op, mem, &a->in, &a->out, &a->g) || a->g.ic != a->g.oc) return -1;
    a->x = tk_buf(mem, ii);
    a->y = tk_buf(mem, oi);
    return a->x && a->y ? 0 : -1;
}
