/*
 * hw.c - one stage computed in 2-D tiles of its output (docs/runtime-semantics.md R2.7.2): the
 * stripe machinery with the column axis cut the same way as the row axis.
 */
#include "executor_internal.h"

#include <string.h>

typedef struct {
    tx_run_t *r;
    const tigris_stage_t *st;
    int32_t spatial_pos; /* op position of the one spatial op, -1 when none */
    const tigris_op_t *sop;
    int32_t sh, sw, ekh, ekw, pt, pl;
    int32_t h_in, w_in, h_out, w_out;
} hw_t;

static const int32_t *shape_of(const tigris_plan_t *plan, uint16_t t) {
    return tigris_tensor_shape(plan, &plan->tensors[t]);
}

/* Bytes of an h x w window of rank-4 tensor t, all batches and channels. */
static uint32_t rect_bytes(const tigris_plan_t *plan, uint16_t t, uint32_t h, uint32_t w) {
    const int32_t *s = shape_of(plan, t);
    uint32_t hw = tx_sat_mul((uint32_t)s[1], (uint32_t)s[2]);
    if (hw == 0 || hw == UINT32_MAX) return UINT32_MAX;
    if (h > (uint32_t)s[1]) h = (uint32_t)s[1];
    if (w > (uint32_t)s[2]) w = (uint32_t)s[2];
    return tx_sat_mul(plan->tensors[t].size_bytes / hw, tx_sat_mul(h, w));
}

/* Input span of output span [o0, o1) on one axis (docs/runtime-semantics.md R2.6.2), clamped, with
 * the effective pads. */
static void in_span(int32_t o0, int32_t o1, int32_t s, int32_t ek, int32_t p, int32_t full, int32_t *i0,
                    int32_t *i1, int32_t *pb, int32_t *pe) {
    *i0 = o0 * s - p;
    *i1 = (o1 - 1) * s - p + ek;
    *pb = *pe = 0;
    if (*i0 < 0) {
        *pb = -*i0;
        *i0 = 0;
    }
    if (*i1 > full) {
        *pe = *i1 - full;
        *i1 = full;
    }
}

/* Rows and columns tensor t is cut to on a tile: the input window for
 * tensors of the input's extent, the output window for the output's, the
 * whole for a 1x1 broadcast operand. */
static int window_of(const hw_t *g, uint16_t t, const int32_t in_win[4], const int32_t out_win[4], int32_t w[4]) {
    const int32_t *s = shape_of(g->r->plan, t);
    if (g->r->plan->tensors[t].ndim != 4) return -1;
    if (s[1] == g->h_in && s[2] == g->w_in) memcpy(w, in_win, 4 * sizeof(int32_t));
    else if (s[1] == g->h_out && s[2] == g->w_out) memcpy(w, out_win, 4 * sizeof(int32_t));
    else if (s[1] == 1 && s[2] == 1) w[0] = 0, w[1] = 1, w[2] = 0, w[3] = 1;
    else return -1;
    return 0;
}

static uint32_t interior_cost(const hw_t *g, uint32_t th, uint32_t tw) {
    const tigris_plan_t *plan = g->r->plan;
    const uint16_t *in = tigris_stage_inputs(plan, g->st), *ops = tigris_stage_ops(plan, g->st);
    uint32_t ih = (th - 1) * (uint32_t)g->sh + (uint32_t)g->ekh, iw = (tw - 1) * (uint32_t)g->sw + (uint32_t)g->ekw;
    uint32_t total = 0, k, q;
    if (ih > (uint32_t)g->h_in) ih = (uint32_t)g->h_in;
    if (iw > (uint32_t)g->w_in) iw = (uint32_t)g->w_in;
    for (k = 0; k < g->st->inputs_count; k++) total = tx_sat_add(total, tx_aligned(rect_bytes(plan, in[k], ih, iw)));
    for (k = 0; k < g->st->ops_count; k++) {
        const tigris_op_t *op = &plan->ops[ops[k]];
        int after = g->spatial_pos >= 0 && (int32_t)k >= g->spatial_pos;
        for (q = 0; q < op->num_outputs; q++)
            total = tx_sat_add(total, tx_aligned(rect_bytes(plan, tigris_op_outputs(plan, op)[q], after ? th : ih,
                                                            after ? tw : iw)));
    }
    return total;
}

static tigris_exec_error_t hw_body(hw_t *g, uint16_t s) {
    tx_run_t *r = g->r;
    const tigris_plan_t *plan = r->plan;
    tigris_mem_t *mem = r->mem;
    const tigris_stage_t *st = g->st;
    const uint16_t *in = tigris_stage_inputs(plan, st), *out = tigris_stage_outputs(plan, st);
    const uint16_t *ops = tigris_stage_ops(plan, st);
    tigris_tile_plan_v10_t rec;
    uint32_t k, q, th, tw, nth, ntw, tile;
    tigris_exec_error_t err;

    if (st->inputs_count == 0 || st->outputs_count == 0) return TIGRIS_EXEC_ERR_TILE;
    if (st->outputs_count > r->lim.outputs || st->inputs_count > r->lim.inputs) return TIGRIS_EXEC_ERR_WORKSPACE;
    if (plan->tensors[in[0]].ndim != 4 || plan->tensors[out[0]].ndim != 4) return TIGRIS_EXEC_ERR_TILE;
    if (st->tile_plan_idx == TIGRIS_NONE16 || st->tile_plan_idx >= plan->header->num_tile_plans)
        return TIGRIS_EXEC_ERR_TILE;
    rec = tigris_stage_tiles(plan, st);
    if (rec.tile_height == 0 || rec.tile_width == 0) return TIGRIS_EXEC_ERR_TILE;

    for (k = 0; k < st->ops_count; k++) {
        const tigris_op_t *op = &plan->ops[ops[k]];
        if (tigris__op_is_stripe_spatial(op->op_type)) {
            /* Resize and ConvTranspose need source-coordinate rules this path
             * does not implement; refusing beats a wrong tile. */
            if (g->sop || !tigris__op_is_spatial_h(op->op_type)) return TIGRIS_EXEC_ERR_TILE;
            g->sop = op;
            g->spatial_pos = (int32_t)k;
        } else if (!tigris__op_is_height_tiling(op->op_type) || op->op_type == TIGRIS_OP_CONCAT) {
            return TIGRIS_EXEC_ERR_TILE;
        }
    }
    g->h_in = shape_of(plan, in[0])[1];
    g->w_in = shape_of(plan, in[0])[2];
    g->h_out = shape_of(plan, out[0])[1];
    g->w_out = shape_of(plan, out[0])[2];
    if (g->h_in <= 0 || g->w_in <= 0 || g->h_out <= 0 || g->w_out <= 0) return TIGRIS_EXEC_ERR_TILE;
    g->sh = g->sw = g->ekh = g->ekw = 1;
    g->pt = g->pl = 0;
    if (g->sop) {
        const tigris_spatial_t *sp = &g->sop->spatial;
        g->sh = sp->stride_h ? sp->stride_h : 1;
        g->sw = sp->stride_w ? sp->stride_w : 1;
        g->ekh = (int32_t)tx_eff_k(sp->kernel_h, sp->dilation_h);
        g->ekw = (int32_t)tx_eff_k(sp->kernel_w, sp->dilation_w);
        g->pt = sp->pad_top;
        g->pl = sp->pad_left;
    } else if (g->h_in != g->h_out || g->w_in != g->w_out) {
        return TIGRIS_EXEC_ERR_TILE;
    }
    th = rec.tile_height < (uint32_t)g->h_out ? rec.tile_height : (uint32_t)g->h_out;
    tw = rec.tile_width < (uint32_t)g->w_out ? rec.tile_width : (uint32_t)g->w_out;

    /* Preflight against the whole free arena, not the stage limit (docs/runtime-semantics.md R2.7.2).
     * The record's tile does not fit the arena: arena exhaustion, ERR_MEM. */
    if (interior_cost(g, th, tw) > mem->fast_size - mem->fast_reserved) return TIGRIS_EXEC_ERR_MEM;

    for (k = 0; k < st->outputs_count; k++) {
        if (tx_place_slow(r, out[k]) != 0) return TIGRIS_EXEC_ERR_MEM;
        r->saved_out[k] = mem->tensor_ptrs[out[k]];
    }
    for (k = 0; k < st->inputs_count; k++) r->saved_in[k] = mem->tensor_ptrs[in[k]];

    nth = ((uint32_t)g->h_out + th - 1) / th;
    ntw = ((uint32_t)g->w_out + tw - 1) / tw;
    for (tile = 0; tile < nth * ntw; tile++) {
        uint32_t tr = tile / ntw, tc_ = tile % ntw;
        int32_t ow[4], iw[4], pte = 0, pbe = 0, ple = 0, pre = 0, cur[4];
        tigris_tile_ctx_t *tc = &mem->tile;
        ow[0] = (int32_t)(tr * th);
        ow[1] = (int32_t)((tr + 1) * th) > g->h_out ? g->h_out : (int32_t)((tr + 1) * th);
        ow[2] = (int32_t)(tc_ * tw);
        ow[3] = (int32_t)((tc_ + 1) * tw) > g->w_out ? g->w_out : (int32_t)((tc_ + 1) * tw);
        if (g->sop) {
            in_span(ow[0], ow[1], g->sh, g->ekh, g->pt, g->h_in, &iw[0], &iw[1], &pte, &pbe);
            in_span(ow[2], ow[3], g->sw, g->ekw, g->pl, g->w_in, &iw[2], &iw[3], &ple, &pre);
        } else {
            memcpy(iw, ow, sizeof iw);
        }
        if (iw[1] <= iw[0] || iw[3] <= iw[2]) return TIGRIS_EXEC_ERR_TILE;
        r->stats->total_tiles++;
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_TILE_BEGIN, TIGRIS_TRACE_POOL_NONE, TIGRIS_TRACE_NONE16,
                          (uint16_t)tile, 0, 0, 0, iw[0], iw[1], iw[2], iw[3]);
        memset(tc, 0, sizeof *tc);
        tc->active = 1;
        tc->width_tiled = 1;
        tc->out_row_origin = ow[0];
        tc->in_row_origin = iw[0];

        for (k = 0; k < st->inputs_count; k++) {
            int32_t w[4];
            mem->tensor_ptrs[in[k]] = r->saved_in[k];
            if (window_of(g, in[k], iw, ow, w) != 0) return TIGRIS_EXEC_ERR_TILE;
            if (tigris__mem_load_rect(mem, plan, in[k], w[0], w[1], w[2], w[3]) != TIGRIS_MEM_OK)
                return TIGRIS_EXEC_ERR_MEM;
        }

        memcpy(cur, iw, sizeof cur);
        for (k = 0; k < st->ops_count; k++) {
            const tigris_op_t *op = &plan->ops[ops[k]];
            const uint16_t *outs = tigris_op_outputs(plan, op);
            tc->pad_top = tc->pad_bottom = tc->pad_left = tc->pad_right = 0;
            tc->in_h = cur[1] - cur[0];
            tc->in_w = cur[3] - cur[2];
            if ((int32_t)k == g->spatial_pos) {
                tc->pad_top = pte;
                tc->pad_bottom = pbe;
                tc->pad_left = ple;
                tc->pad_right = pre;
                memcpy(cur, ow, sizeof cur);
            }
            tc->out_h = cur[1] - cur[0];
            tc->out_w = cur[3] - cur[2];
            for (q = 0; q < op->num_outputs; q++) {
                uint16_t t = outs[q];
                if (plan->tensors[t].ndim != 4) return TIGRIS_EXEC_ERR_TILE;
                if (tigris__mem_alloc_fast(mem, t, rect_bytes(plan, t, (uint32_t)tc->out_h, (uint32_t)tc->out_w)) !=
                    TIGRIS_MEM_OK)
                    return TIGRIS_EXEC_ERR_MEM;
            }
            err = tx_call_op(r, ops[k]);
            if (err != TIGRIS_EXEC_OK) return err;
        }

        for (k = 0; k < st->outputs_count; k++) {
            int32_t w[4];
            /* Stage outputs always take the output window, even when the
             * input has the same extent. */
            if (window_of(g, out[k], ow, ow, w) != 0) return TIGRIS_EXEC_ERR_TILE;
            if (tigris__mem_spill_rect(mem, plan, out[k], (uint8_t *)r->saved_out[k], w[0], w[1], w[2], w[3]) !=
                TIGRIS_MEM_OK)
                return TIGRIS_EXEC_ERR_MEM;
        }
        tigris__mem_reset_fast(mem);
    }
    (void)s;
    return TIGRIS_EXEC_OK;
}

static int is_stage_output(const tigris_plan_t *plan, const tigris_stage_t *st, uint16_t t) {
    const uint16_t *out = tigris_stage_outputs(plan, st);
    uint32_t k;
    for (k = 0; k < st->outputs_count; k++)
        if (out[k] == t) return 1;
    return 0;
}

tigris_exec_error_t tx_run_hw(tx_run_t *r, uint16_t s) {
    const tigris_plan_t *plan = r->plan;
    const tigris_stage_t *st = &plan->stages[s];
    const uint16_t *ops = tigris_stage_ops(plan, st), *out = tigris_stage_outputs(plan, st);
    hw_t g;
    uint32_t k, q;
    tigris_exec_error_t err;

    memset(&g, 0, sizeof g);
    g.r = r;
    g.st = st;
    g.spatial_pos = -1;
    err = hw_body(&g, s);
    if (err != TIGRIS_EXEC_OK) return err;

    tx_clear_tile(r->mem);
    tx_restore_inputs(r, st);
    for (k = 0; k < st->ops_count; k++) {
        const tigris_op_t *op = &plan->ops[ops[k]];
        for (q = 0; q < op->num_outputs; q++) {
            uint16_t t = tigris_op_outputs(plan, op)[q];
            if (!is_stage_output(plan, st, t)) r->mem->tensor_ptrs[t] = NULL;
        }
    }
    for (k = 0; k < st->outputs_count; k++) r->mem->tensor_ptrs[out[k]] = r->saved_out[k];
    return TIGRIS_EXEC_OK;
}
