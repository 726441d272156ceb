/*
 * pool.c - MaxPool and AveragePool through CMSIS-NN's arm_max_pool_s8 and
 * arm_avgpool_s8 (one call per batch: CMSIS-NN's pools take one image).
 *
 * Taken: input and output with the same scale and zero point (TFLite's int8
 * pools, which CMSIS-NN implements), dilation 1, every output window with at
 * least one in-image tap (CMSIS-NN averages and maxes over those; an empty
 * window has no defined value there), bands as for conv (cn_window).
 * Fallback to the reference: a requantising pool, dilation, an empty window,
 * act bounds outside int8, a negative effective pad or a roll offset with
 * several batches.
 */
#include "cn_internal.h"

typedef struct {
    tk_geom_t g;
    cn_window_t w;
    const int8_t *x;
    int8_t *y;
} cn_pool_args_t;

static int same_quant(const tigris_plan_t *plan, const tigris_tensor_t *a, const tigris_tensor_t *b) {
    const tigris_quant_param_t *qa = tigris_tensor_quant(plan, a), *qb = tigris_tensor_quant(plan, b);
    if (!qa || !qb) return !qa && !qb;
    return tk_scale_bits(plan, a) == tk_scale_bits(plan, b) && qa->zero_point == qb->zero_point;
}

/* Every window of a dimension has a tap: the first starts before the end
 * of the input, the last ends after its start (windows move monotonically). */
static int windows_have_taps(int32_t out, int32_t stride, int32_t pad, int32_t k, int32_t in) {
    if (out <= 0) return 1;
    int64_t first = -(int64_t)pad, last = (int64_t)(out - 1) * stride - pad;
    return first + k > 0 && first < in && last + k > 0 && last < in;
}

static int pool_args(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, cn_pool_args_t *a) {
    tk_view_t iv, ov;
    tigris_mem_t none;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return CN_FALLBACK;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return CN_FALLBACK;
    if (!mem) memset(&none, 0, sizeof none);
    if (tk_geom(op, mem ? mem : &none, &iv, &ov, &a->g) || a->g.ic != a->g.oc) return CN_FALLBACK;
    const tk_geom_t *g = &a->g;
    if (!same_quant(plan, iv.t, ov.t) || g->dh != 1 || g->dw != 1) return CN_FALLBACK;
    if (!cn_out_ok(0, op->act_min, op->act_max) || cn_window(g, &a->w)) return CN_FALLBACK;
    if (g->sh > 0x7FFF || g->sw > 0x7FFF) return CN_FALLBACK;
    if (!windows_have_taps(g->oh, g->sh, a->w.pad_h, g->kh, g->in_rows) ||
        !windows_have_taps(g->ow, g->sw, a->w.pad_w, g->kw, g->iw))
        return CN_FALLBACK;
    a->x = NULL;
    a->y = NULL;
    if (mem) {
        a->x = (const int8_t *)tk_buf(mem, ii);
        a->y = (int8_t *)tk_buf(mem, oi);
        if (!a->x || !a->y) return CN_FALLBACK;
    }
    return 0;
}

static int pool_run(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int is_max) {
    cn_pool_args_t a;
    if (pool_args(plan, op, mem, &a)) return CN_FALLBACK;
    const tk_geom_t *g = &a.g;
    cmsis_nn_context ctx = {NULL, 0};
    if (!is_max) {
        int32_t b = arm_avgpool_s8_get_buffer_size(g->ow, g->ic);
        if (b < 0) return CN_FALLBACK;
        if (b > 0) {
            ctx.buf = cn_scratch(mem, cn_round16((uint32_t)b));
            ctx.size = b;
            if (!ctx.buf) return CN_FALLBACK;
        }
    }
    cmsis_nn_pool_params p = {{g->sw, g->sh}, {a.w.pad_w, a.w.pad_h}, {op->act_min, op->act_max}};
    cmsis_nn_dims in = {1, g->in_rows, g->iw, g->ic}, fd = {1, g->kh, g->kw, 1}, out = {1, g->oh, g->ow, g->oc};
    size_t in_step = (size_t)g->in_rows * g->iw * g->ic, out_step = (size_t)(g->oh + g->out_row0) * g->ow * g->oc;
    for (int32_t n = 0; n < g->n; n++) {
        const int8_t *x = a.x + (size_t)n * in_step;
        int8_t *y = a.y + (size_t)n * out_step + a.w.out_offset;
        arm_cmsis_nn_status st = is_max ? arm_max_pool_s8(&ctx, &p, &in, x, &fd, &out, y)
                                        : arm_avgpool_s8(&ctx, &p, &in, x, &fd, &out, y);
        /* Only the first batch can fail (the same arguments repeat). */
        if (st != ARM_CMSIS_NN_SUCCESS) return n ? -1 : CN_FALLBACK;
    }
    return 0;
}

int cn_max_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return pool_run(plan, op, mem, 1);
}

int cn_avg_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return pool_run(plan, op, mem, 0);
}

uint32_t cn_max_pool_scratch(const tigris_plan_t *plan, const tigris_op_t *op) {
    (void)plan;
    (void)op;
    return 0;
}

uint32_t cn_avg_pool_scratch(const tigris_plan_t *plan, const tigris_op_t *op) {
    cn_pool_args_t a;
    if (pool_args(plan, op, NULL, &a)) return 0;
    int32_t b = arm_avgpool_s8_get_buffer_size(a.g.ow, a.g.ic);
    return b > 0 ? cn_round16((uint32_t)b) : 0;
}
