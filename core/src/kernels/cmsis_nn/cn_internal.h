/*
 * cn_internal.h - what the CMSIS-NN adapter's op files share
 * (docs/kernels-cmsis-nn.md). The adapter is glue only: it reads an op's
 * operands the way the int8 reference does, checks that Arm's CMSIS-NN
 * takes exactly that variant, and calls the library; any other variant
 * answers CN_FALLBACK and the dispatcher runs the int8 reference
 * (tigris_dispatch_kernel_s8). CMSIS-NN requantises like TFLite (gemmlowp's
 * doubling high multiply and rounding shift), as the reference does, so the
 * bytes are the reference's.
 *
 * Scratch: each routed op has a sizing twin (cn_*_scratch) returning the
 * bytes it needs in the adapter's reservation for the whole-tensor shapes:
 * a parameter area (the per-channel multiplier, shift and bias arrays
 * CMSIS-NN takes, expanded from a per-tensor record or copied so they are
 * aligned) followed by the buffer CMSIS-NN's own *_get_buffer_size()
 * function asks for.
 */
#ifndef TIGRIS_CMSIS_NN_INTERNAL_H
#define TIGRIS_CMSIS_NN_INTERNAL_H

#include "../kernel_common.h"
#include "../s8/fixedpoint.h"

#include "arm_nnfunctions.h"

/* Not this variant: the dispatcher runs the int8 reference. */
#define CN_FALLBACK 1

static inline uint32_t cn_round16(uint64_t v) {
    v = (v + 15u) & ~(uint64_t)15u;
    return v > 0x7FFFFFF0u ? 0x7FFFFFF0u : (uint32_t)v;
}

/* The prepared reservation for this mem when it holds at least `need`
 * bytes; NULL otherwise (the op then falls back). */
uint8_t *cn_scratch(const tigris_mem_t *mem, uint32_t need);

/* Counts the ops CMSIS-NN computed (for the parity image). */
void cn_count_vendor_call(void);

/* Per-channel parameters in the scratch's parameter area: multipliers,
 * shifts and biases of `channels` output channels. */
typedef struct {
    int32_t *mult, *shift, *bias;
} cn_params_t;

static inline uint32_t cn_params_bytes(int32_t channels) { return cn_round16((uint64_t)channels * 12u); }

/* Fill p (laid out at the start of `area`) from the output's quantisation
 * record (per channel, or one value for all: expanded) and the int32 bias
 * bytes or NULL (zeros). CN_FALLBACK for what CMSIS-NN's requantisation
 * does not compute as the reference does: a multiplier of INT32_MIN (the
 * saturating doubling product) or a shift outside [-31, 31] (the reference
 * clamps it, CMSIS-NN would shift by it). */
static inline int cn_params_fill(const tigris_plan_t *plan, const tigris_tensor_t *out, const uint8_t *bias,
                                 int32_t channels, uint8_t *area, cn_params_t *p) {
    const tigris_quant_param_t *q = tigris_tensor_quant(plan, out);
    const int32_t *m = NULL, *s = NULL;
    uint32_t step = 0;
    if (q && plan->quant_data) {
        if (q->num_channels > 1 && q->num_channels < channels) return CN_FALLBACK;
        m = tigris_quant_multipliers(plan, q);
        s = tigris_quant_shifts(plan, q);
        if (!m || !s) return CN_FALLBACK;
        step = q->num_channels > 1 ? 1u : 0u;
    }
    p->mult = (int32_t *)(void *)area;
    p->shift = p->mult + channels;
    p->bias = p->shift + channels;
    for (int32_t c = 0; c < channels; c++) {
        int32_t mc = 1, sc = 0;
        if (m) {
            memcpy(&mc, m + (uint32_t)c * step, 4);
            memcpy(&sc, s + (uint32_t)c * step, 4);
        }
        if (mc == INT32_MIN || sc > 31 || sc < -31) return CN_FALLBACK;
        p->mult[c] = mc;
        p->shift[c] = sc;
        p->bias[c] = bias ? tk_ld_i32(bias, (uint32_t)c) : 0;
    }
    return 0;
}

/* Output zero point and act bounds as CMSIS-NN takes them (int8 range). */
static inline int cn_out_ok(int32_t zp_out, int32_t act_min, int32_t act_max) {
    return zp_out >= -128 && zp_out <= 127 && act_min >= -128 && act_max <= 127 && act_min <= act_max;
}

/* A windowed op's band as CMSIS-NN sees it: CMSIS-NN has one top and one
 * left pad (bottom and right follow from the input extent), writes its
 * output from the first row of the given pointer, and reads batches
 * back to back. The band's first output row (roll offset) and input row
 * shift fold into the top pad; a negative pad, or a roll offset with
 * several batches (rows of a batch no longer contiguous), is not taken. */
typedef struct {
    cmsis_nn_dims in, out;
    int32_t pad_h, pad_w;
    size_t out_offset; /* bytes before the first output row */
} cn_window_t;

static inline int cn_window(const tk_geom_t *g, cn_window_t *w) {
    int64_t pad_h = (int64_t)g->pt + g->in_row_shift - (int64_t)g->out_row0 * g->sh;
    if (pad_h < 0 || pad_h > 0x7FFF || g->pl < 0 || g->pl > 0x7FFF) return CN_FALLBACK;
    if (g->out_row0 && g->n != 1) return CN_FALLBACK;
    w->in = (cmsis_nn_dims){g->n, g->in_rows, g->iw, g->ic};
    w->out = (cmsis_nn_dims){g->n, g->oh, g->ow, g->oc};
    w->pad_h = (int32_t)pad_h;
    w->pad_w = g->pl;
    w->out_offset = (size_t)g->out_row0 * (size_t)g->ow * (size_t)g->oc;
    return 0;
}

/* The whole-tensor geometry of a windowed op (no band), for sizing. */
static inline int cn_whole_geom(const tigris_plan_t *plan, const tigris_op_t *op, tk_geom_t *g) {
    tk_view_t iv, ov;
    tigris_mem_t none;
    memset(&none, 0, sizeof none);
    if (tk_view(plan, tk_in_idx(plan, op, 0), &iv) || tk_view(plan, tk_out_idx(plan, op, 0), &ov)) return -1;
    return tk_geom(op, &none, &iv, &ov, g);
}

/* ---- Per-op entry points (0, -1, or CN_FALLBACK) and sizing twins ---- */
int cn_conv(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
uint32_t cn_conv_scratch(const tigris_plan_t *plan, const tigris_op_t *op);
int cn_depthwise(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
uint32_t cn_depthwise_scratch(const tigris_plan_t *plan, const tigris_op_t *op);
int cn_fully_connected(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
uint32_t cn_fully_connected_scratch(const tigris_plan_t *plan, const tigris_op_t *op);
int cn_max_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
uint32_t cn_max_pool_scratch(const tigris_plan_t *plan, const tigris_op_t *op);
int cn_avg_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
uint32_t cn_avg_pool_scratch(const tigris_plan_t *plan, const tigris_op_t *op);
int cn_add(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
uint32_t cn_add_scratch(const tigris_plan_t *plan, const tigris_op_t *op);

/* The adapter's own counter of ops CMSIS-NN computed since the last
 * prepare (tests: which cases ran the vendor code). */
uint32_t tigris_cmsis_nn_vendor_calls(void);

#endif /* TIGRIS_CMSIS_NN_INTERNAL_H */
