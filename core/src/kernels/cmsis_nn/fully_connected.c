/*
 * fully_connected.c - FullyConnected through CMSIS-NN's
 * arm_fully_connected_wrapper_s8 (per-tensor or per-channel).
 *
 * Taken: int8 in/out, any batch or ROWS band. When CMSIS-NN asks for a
 * buffer (MVE: the kernel sums), it is filled per call with
 * arm_vector_sum_s8, as TFLite Micro does at prepare time.
 * Fallback to the reference: a multiplier of INT32_MIN or a shift beyond
 * +-31, a zero point or act bound outside int8.
 */
#include "cn_internal.h"

typedef struct {
    const tigris_tensor_t *out;
    const int8_t *x, *w;
    int8_t *y;
    const uint8_t *bias;
    int32_t nb, ic, oc, zp_in, zp_out;
    int per_channel;
} cn_fc_args_t;

static int fc_args(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, cn_fc_args_t *a) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return CN_FALLBACK;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return CN_FALLBACK;
    if (tk_fc_geom(&iv, &ov, mem, &a->nb, &a->ic, &a->oc)) return CN_FALLBACK;
    uint64_t wcount = (uint64_t)a->oc * (uint64_t)a->ic;
    if (wcount > 0x7FFFFFFFu) return CN_FALLBACK;
    a->out = ov.t;
    a->w = (const int8_t *)tk_weight(plan, op->weight_idx, (uint32_t)wcount);
    a->bias = NULL;
    if (op->bias_idx != TIGRIS_NONE16) {
        a->bias = (const uint8_t *)tk_weight(plan, op->bias_idx, (uint32_t)a->oc * 4u);
        if (!a->bias) return CN_FALLBACK;
    }
    const tigris_quant_param_t *q = tigris_tensor_quant(plan, ov.t);
    a->per_channel = q && plan->quant_data && q->num_channels > 1;
    a->zp_in = tk_zero_point(plan, iv.t);
    a->zp_out = tk_zero_point(plan, ov.t);
    if (a->zp_in < -128 || a->zp_in > 127 || !cn_out_ok(a->zp_out, op->act_min, op->act_max)) return CN_FALLBACK;
    a->x = NULL;
    a->y = NULL;
    if (mem) {
        a->x = (const int8_t *)tk_buf(mem, ii);
        a->y = (int8_t *)tk_buf(mem, oi);
        if (!a->w || !a->x || !a->y) return CN_FALLBACK;
    }
    return 0;
}

static uint32_t fc_vendor_bytes(const cn_fc_args_t *a) {
    cmsis_nn_dims fd = {a->ic, 1, 1, a->oc};
    int32_t b = arm_fully_connected_s8_get_buffer_size(&fd);
    return b < 0 ? UINT32_MAX : cn_round16((uint32_t)b);
}

int cn_fully_connected(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    cn_fc_args_t a;
    if (fc_args(plan, op, mem, &a)) return CN_FALLBACK;
    uint32_t vb = fc_vendor_bytes(&a);
    if (vb == UINT32_MAX) return CN_FALLBACK;
    uint32_t pb = cn_params_bytes(a.oc);
    uint8_t *scratch = cn_scratch(mem, pb + vb);
    if (!scratch) return CN_FALLBACK;
    cn_params_t q;
    if (cn_params_fill(plan, a.out, a.bias, a.oc, scratch, &q)) return CN_FALLBACK;
    cmsis_nn_fc_params p = {-a.zp_in, 0, a.zp_out, {op->act_min, op->act_max}};
    cmsis_nn_context ctx = {vb ? scratch + pb : NULL, (int32_t)vb};
    if (vb) arm_vector_sum_s8((int32_t *)ctx.buf, a.ic, a.oc, a.w, p.input_offset, 0, q.bias);
    cmsis_nn_quant_params qp = {q.mult, q.shift, a.per_channel};
    cmsis_nn_dims in = {a.nb, 1, 1, a.ic}, fd = {a.ic, 1, 1, a.oc}, bd = {1, 1, 1, a.oc}, out = {a.nb, 1, 1, a.oc};
    arm_cmsis_nn_status st = arm_fully_connected_wrapper_s8(&ctx, &p, &qp, &in, a.x, &fd, a.w, &bd, q.bias, &out, a.y);
    return st == ARM_CMSIS_NN_SUCCESS ? 0 : CN_FALLBACK;
}

uint32_t cn_fully_connected_scratch(const tigris_plan_t *plan, const tigris_op_t *op) {
    cn_fc_args_t a;
    if (fc_args(plan, op, NULL, &a)) return 0;
    uint32_t vb = fc_vendor_bytes(&a);
    return vb == UINT32_MAX ? 0 : cn_params_bytes(a.oc) + vb;
}
