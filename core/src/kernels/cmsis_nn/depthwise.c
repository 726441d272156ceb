/*
 * depthwise.c - DepthwiseConv through CMSIS-NN's
 * arm_depthwise_conv_wrapper_s8 (its 3x3, optimised or generic kernel).
 *
 * Taken: int8 in/out, any channel multiplier, kernel, stride, dilation,
 * padding, batch, per-tensor (expanded) or per-channel requantisation,
 * bands as for conv (cn_window).
 * Fallback to the reference: as for conv (conv.c).
 */
#include "cn_conv_args.h"

static void dw_params(const tigris_op_t *op, const cn_conv_args_t *a, const cn_window_t *w,
                      cmsis_nn_dw_conv_params *p) {
    p->input_offset = -a->zp_in;
    p->output_offset = a->zp_out;
    p->ch_mult = a->mult;
    p->stride = (cmsis_nn_tile){a->g.sw, a->g.sh};
    p->padding = (cmsis_nn_tile){w->pad_w, w->pad_h};
    p->dilation = (cmsis_nn_tile){a->g.dw, a->g.dh};
    p->activation = (cmsis_nn_activation){op->act_min, op->act_max};
}

static uint32_t dw_need(const tigris_op_t *op, const cn_conv_args_t *a, const cn_window_t *w) {
    cmsis_nn_dw_conv_params p;
    dw_params(op, a, w, &p);
    cmsis_nn_dims fd = {1, a->g.kh, a->g.kw, a->g.oc};
    int32_t b = arm_depthwise_conv_wrapper_s8_get_buffer_size(&p, &w->in, &fd, &w->out);
    if (b < 0) return UINT32_MAX;
    return cn_params_bytes(a->g.oc) + cn_round16((uint32_t)b);
}

int cn_depthwise(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    cn_conv_args_t a;
    cn_window_t w;
    if (cn_conv_args(plan, op, mem, 1, &a) || cn_window(&a.g, &w)) return CN_FALLBACK;
    if (a.g.ic == 1 && !cn_conv_paths_ok(&a.g, &w)) return CN_FALLBACK;
    uint32_t need = dw_need(op, &a, &w);
    uint8_t *scratch = need == UINT32_MAX ? NULL : cn_scratch(mem, need);
    if (!scratch) return CN_FALLBACK;
    cn_params_t q;
    if (cn_params_fill(plan, a.out, a.bias, a.g.oc, scratch, &q)) return CN_FALLBACK;
    cmsis_nn_dw_conv_params p;
    dw_params(op, &a, &w, &p);
    uint32_t pb = cn_params_bytes(a.g.oc);
    cmsis_nn_context ctx = {scratch + pb, (int32_t)(need - pb)};
    cmsis_nn_per_channel_quant_params qp = {q.mult, q.shift};
    cmsis_nn_dims fd = {1, a.g.kh, a.g.kw, a.g.oc}, bd = {1, 1, 1, a.g.oc};
    arm_cmsis_nn_status st = arm_depthwise_conv_wrapper_s8(&ctx, &p, &qp, &w.in, a.x, &fd, a.w, &bd, q.bias, &w.out,
                                                           a.y + w.out_offset);
    return st == ARM_CMSIS_NN_SUCCESS ? 0 : CN_FALLBACK;
}

uint32_t cn_depthwise_scratch(const tigris_plan_t *plan, const tigris_op_t *op) {
    cn_conv_args_t a;
    cn_window_t w;
    if (cn_conv_args(plan, op, NULL, 1, &a) || cn_window(&a.g, &w)) return 0;
    if (a.g.ic == 1 && !cn_conv_paths_ok(&a.g, &w)) return 0;
    uint32_t need = dw_need(op, &a, &w);
    return need == UINT32_MAX ? 0 : need;
}
