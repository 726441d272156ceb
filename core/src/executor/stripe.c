/*
 * stripe.c - one stage computed in horizontal bands of its output rows,
 * each band reading only the input rows it needs (docs/runtime-semantics.md R2.7.1).
 */
#include "executor_internal.h"

#include <string.h>

static const int32_t *shape_of(const tigris_plan_t *plan, uint16_t t) {
    return tigris_tensor_shape(plan, &plan->tensors[t]);
}

int tx_stage_stripe_ok(const tigris_plan_t *plan, const tigris_stage_t *st, int rank) {
    const uint16_t *ops = tigris_stage_ops(plan, st);
    uint32_t k, nconv1d = 0, nbinary = 0, nspatial = 0;
    if (st->chain_len >= 2) return 0;
    for (k = 0; k < st->ops_count; k++) {
        const tigris_op_t *op = &plan->ops[ops[k]];
        uint8_t ty = op->op_type;
        if (rank == 3) {
            if (ty == TIGRIS_OP_CONV1D) nconv1d++;
            else if (tigris__op_is_binary(ty)) nbinary++;
            else if (!tigris__op_is_unary(ty)) return 0;
        } else if (rank == 4) {
            if (!tigris__op_bands_by_height(plan, op)) return 0;
            if (tigris__op_is_stripe_spatial(ty)) nspatial++;
        } else {
            return 0;
        }
    }
    if (rank == 3) return nconv1d <= 1 && !(nconv1d == 1 && nbinary > 0);
    return nspatial <= 1;
}

typedef struct {
    tx_run_t *r;
    const tigris_stage_t *st;
    int32_t spatial_pos; /* op position of the spatial op, -1 when none */
    const tigris_op_t *sop;
    int resize;
    int32_t stride, effk, pad_top;
    int32_t h_in, w_in, h_out, w_out;
} stripe_t;

static uint32_t rows_bytes(const tigris_plan_t *plan, uint16_t t, uint32_t rows) {
    uint32_t h = (uint32_t)shape_of(plan, t)[1];
    if (h == 0) return UINT32_MAX;
    return tx_aligned(tx_sat_mul(plan->tensors[t].size_bytes / h, rows < h ? rows : h));
}

/* Input rows for e output rows (step 5). */
static uint32_t input_extent(const stripe_t *sp, uint32_t e) {
    if (sp->spatial_pos < 0) return e;
    if (sp->resize) {
        /* Integer bound on the source rows a resize reads: the exact rules
         * need float coordinates, which not every target has. */
        uint32_t v = tx_sat_add(tx_sat_mul(e ? e - 1 : 0, (uint32_t)sp->h_in), (uint32_t)sp->h_out - 1) /
                     (uint32_t)sp->h_out;
        v = tx_sat_add(v, 5);
        return v > (uint32_t)sp->h_in ? (uint32_t)sp->h_in : v;
    }
    return (e - 1) * (uint32_t)sp->stride + (uint32_t)sp->effk;
}

static uint32_t working_set(const stripe_t *sp, uint32_t e) {
    const tigris_plan_t *plan = sp->r->plan;
    const uint16_t *in = tigris_stage_inputs(plan, sp->st), *ops = tigris_stage_ops(plan, sp->st);
    uint32_t E = input_extent(sp, e), total = 0, k, q;
    for (k = 0; k < sp->st->inputs_count; k++) total = tx_sat_add(total, rows_bytes(plan, in[k], E));
    for (k = 0; k < sp->st->ops_count; k++) {
        const tigris_op_t *op = &plan->ops[ops[k]];
        const uint16_t *outs = tigris_op_outputs(plan, op);
        uint32_t x = (sp->spatial_pos >= 0 && (int32_t)k >= sp->spatial_pos) ? e : E;
        for (q = 0; q < op->num_outputs; q++) total = tx_sat_add(total, rows_bytes(plan, outs[q], x));
    }
    return total;
}

/* Input rows of output rows [o0, o1), with the effective pads (docs/runtime-semantics.md R2.6.2). */
static void input_rows(const stripe_t *sp, int32_t o0, int32_t o1, int32_t *i0, int32_t *i1, int32_t *pte,
                       int32_t *pbe) {
    *pte = 0;
    *pbe = 0;
    if (sp->spatial_pos < 0) {
        *i0 = o0;
        *i1 = o1;
        return;
    }
    if (sp->resize) {
        uint32_t lo = tx_sat_mul((uint32_t)o0, (uint32_t)sp->h_in) / (uint32_t)sp->h_out;
        uint32_t hi = tx_sat_add(tx_sat_mul((uint32_t)o1, (uint32_t)sp->h_in), (uint32_t)sp->h_out - 1) /
                      (uint32_t)sp->h_out;
        hi = tx_sat_add(hi, 2);
        *i0 = lo < 2 ? 0 : (int32_t)(lo - 2);
        *i1 = hi > (uint32_t)sp->h_in ? sp->h_in : (int32_t)hi;
        return;
    }
    *i0 = o0 * sp->stride - sp->pad_top;
    *i1 = (o1 - 1) * sp->stride - sp->pad_top + sp->effk;
    if (*i0 < 0) {
        *pte = -*i0;
        *i0 = 0;
    }
    if (*i1 > sp->h_in) {
        *pbe = *i1 - sp->h_in;
        *i1 = sp->h_in;
    }
}

static int is_stage_output(const tigris_plan_t *plan, const tigris_stage_t *st, uint16_t t) {
    const uint16_t *out = tigris_stage_outputs(plan, st);
    uint32_t k;
    for (k = 0; k < st->outputs_count; k++)
        if (out[k] == t) return 1;
    return 0;
}

static int all_rank34(const tigris_plan_t *plan, const tigris_stage_t *st) {
    const uint16_t *in = tigris_stage_inputs(plan, st), *ops = tigris_stage_ops(plan, st);
    uint32_t k, q;
    for (k = 0; k < st->inputs_count; k++) {
        uint8_t nd = plan->tensors[in[k]].ndim;
        if (nd != 3 && nd != 4) return 0;
    }
    for (k = 0; k < st->ops_count; k++) {
        const tigris_op_t *op = &plan->ops[ops[k]];
        for (q = 0; q < op->num_outputs; q++) {
            uint8_t nd = plan->tensors[tigris_op_outputs(plan, op)[q]].ndim;
            if (nd != 3 && nd != 4) return 0;
        }
    }
    return 1;
}

static tigris_exec_error_t stripe_body(stripe_t *sp, uint16_t s, uint32_t cap, int32_t *covered, int *in_place) {
    tx_run_t *r = sp->r;
    const tigris_plan_t *plan = r->plan;
    tigris_mem_t *mem = r->mem;
    const tigris_stage_t *st = sp->st;
    const uint16_t *in = tigris_stage_inputs(plan, st), *out = tigris_stage_outputs(plan, st);
    const uint16_t *ops = tigris_stage_ops(plan, st);
    uint32_t k, q, lo, hi, th, ntiles, tile;
    int32_t band_in = -1;
    tigris_exec_error_t err;

    *in_place = 0;
    for (k = 0; k < st->ops_count; k++) {
        const tigris_op_t *op = &plan->ops[ops[k]];
        if (tigris__op_is_stripe_spatial(op->op_type)) {
            sp->spatial_pos = (int32_t)k;
            sp->sop = op;
            break;
        }
    }
    if (sp->sop && sp->sop->op_type == TIGRIS_OP_CONV_TRANSPOSE) return TIGRIS_EXEC_ERR_TILE;
    if (!all_rank34(plan, st) || st->outputs_count == 0) return TIGRIS_EXEC_ERR_TILE;
    if (st->outputs_count > r->lim.outputs || st->outputs_count > TIGRIS_MAX_STAGE_OUTPUTS)
        return TIGRIS_EXEC_ERR_WORKSPACE;

    for (k = 0; k < st->inputs_count; k++) {
        const tigris_tensor_t *tt = &plan->tensors[in[k]];
        if (tt->ndim == 4 && shape_of(plan, in[k])[1] == 1) continue;
        band_in = (int32_t)k;
        break;
    }
    if (band_in < 0) return TIGRIS_EXEC_ERR_TILE;
    sp->h_in = shape_of(plan, in[band_in])[1];
    sp->w_in = plan->tensors[in[band_in]].ndim == 4 ? shape_of(plan, in[band_in])[2] : 1;
    sp->h_out = shape_of(plan, out[0])[1];
    sp->w_out = plan->tensors[out[0]].ndim == 4 ? shape_of(plan, out[0])[2] : 1;
    if (sp->h_in <= 0 || sp->h_out <= 0) return TIGRIS_EXEC_ERR_TILE;

    sp->stride = 1;
    sp->effk = 1;
    sp->pad_top = 0;
    if (sp->sop) {
        const tigris_spatial_t *g = &sp->sop->spatial;
        if (sp->sop->op_type == TIGRIS_OP_RESIZE || sp->sop->op_type == TIGRIS_OP_RESIZE_LINEAR) {
            sp->resize = 1;
            if (g->stride_h && sp->h_in * g->stride_h != sp->h_out) return TIGRIS_EXEC_ERR_TILE;
            if (g->stride_w && sp->w_in * g->stride_w != sp->w_out) return TIGRIS_EXEC_ERR_TILE;
        } else {
            sp->stride = g->stride_h ? g->stride_h : 1;
            sp->effk = (int32_t)tx_eff_k(g->kernel_h, g->dilation_h);
            sp->pad_top = g->pad_top;
        }
    }

    /* Step 4: outputs whole in slow, or in place of a halo-free input. */
    for (k = 0; k < st->outputs_count; k++) {
        if (tx_place_slow(r, out[k]) == 0) {
            r->saved_out[k] = mem->tensor_ptrs[out[k]];
            continue;
        }
        if (st->inputs_count == 1 && st->outputs_count == 1 && r->last_consumer[in[0]] == s &&
            plan->tensors[in[0]].size_bytes == plan->tensors[out[0]].size_bytes && sp->effk <= sp->stride &&
            !sp->resize && mem->tensor_ptrs[in[0]] && tigris__mem_in_slow(mem, mem->tensor_ptrs[in[0]])) {
            r->saved_out[0] = mem->tensor_ptrs[in[0]];
            *in_place = 1;
            continue;
        }
        return TIGRIS_EXEC_ERR_MEM;
    }

    /* Step 5: the tallest band that fits. */
    lo = 0;
    hi = (uint32_t)sp->h_out;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (working_set(sp, mid) <= cap) lo = mid;
        else hi = mid - 1;
    }
    /* Not even one output row fits: the arena is exhausted, the plan is not at fault. */
    if (lo == 0) return TIGRIS_EXEC_ERR_MEM;
    th = lo;

    for (k = 0; k < st->inputs_count; k++) r->saved_in[k] = mem->tensor_ptrs[in[k]];
    for (k = 0; k < st->outputs_count; k++) covered[k] = 0;

    ntiles = ((uint32_t)sp->h_out + th - 1) / th;
    for (tile = 0; tile < ntiles; tile++) {
        int32_t o0 = (int32_t)(tile * th), o1 = (int32_t)((tile + 1) * th), i0, i1, pte, pbe;
        int32_t c0, c1, cw;
        if (o1 > sp->h_out) o1 = sp->h_out;
        input_rows(sp, o0, o1, &i0, &i1, &pte, &pbe);
        if (i1 <= i0) return TIGRIS_EXEC_ERR_TILE;
        r->stats->total_tiles++;
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_TILE_BEGIN, TIGRIS_TRACE_POOL_NONE, TIGRIS_TRACE_NONE16, (uint16_t)tile,
                          0, 0, 0, i0, i1, -1, -1);
        memset(&mem->tile, 0, sizeof mem->tile);
        mem->tile.active = 1;
        mem->tile.out_row_origin = o0;
        mem->tile.in_row_origin = i0;

        /* Step 7: each input's band. */
        for (k = 0; k < st->inputs_count; k++) {
            uint16_t t = in[k];
            int32_t h = shape_of(plan, t)[1], a, b;
            mem->tensor_ptrs[t] = r->saved_in[k];
            if (plan->tensors[t].ndim == 4 && h == 1) {
                a = 0;
                b = 1;
            } else if (h == sp->h_in) {
                a = i0;
                b = i1;
            } else if (h == sp->h_out) {
                a = o0;
                b = o1;
            } else {
                return TIGRIS_EXEC_ERR_TILE;
            }
            if (tigris__mem_load_tile(mem, plan, t, a, b) != TIGRIS_MEM_OK) return TIGRIS_EXEC_ERR_MEM;
            r->row0[t] = a;
            r->row1[t] = b;
        }

        /* Step 8. */
        c0 = i0;
        c1 = i1;
        cw = sp->w_in;
        for (k = 0; k < st->ops_count; k++) {
            uint16_t oi = ops[k];
            const tigris_op_t *op = &plan->ops[oi];
            const uint16_t *outs = tigris_op_outputs(plan, op);
            int spatial = (int32_t)k == sp->spatial_pos;
            tigris_tile_ctx_t *tc = &mem->tile;
            tc->pad_top = tc->pad_bottom = tc->pad_left = tc->pad_right = 0;
            if (spatial) {
                tc->in_h = c1 - c0;
                tc->out_h = o1 - o0;
                tc->in_w = sp->w_in;
                tc->out_w = sp->w_out;
                if (!sp->resize) {
                    tc->pad_top = pte;
                    tc->pad_bottom = pbe;
                    tc->pad_left = op->spatial.pad_left;
                    tc->pad_right = op->spatial.pad_right;
                }
                c0 = o0;
                c1 = o1;
                cw = sp->w_out;
            } else {
                tc->in_h = tc->out_h = c1 - c0;
                tc->in_w = tc->out_w = cw;
            }
            for (q = 0; q < op->num_outputs; q++) {
                uint16_t t = outs[q];
                uint32_t h = (uint32_t)shape_of(plan, t)[1];
                uint32_t rows = (uint32_t)(c1 - c0);
                if (h == 0) return TIGRIS_EXEC_ERR_TILE;
                if (rows > h) rows = h;
                if (tigris__mem_alloc_fast(mem, t, tx_sat_mul(plan->tensors[t].size_bytes / h, rows)) !=
                    TIGRIS_MEM_OK)
                    return TIGRIS_EXEC_ERR_MEM;
                r->row0[t] = c0;
                r->row1[t] = c0 + (int32_t)rows;
            }
            err = tx_call_op(r, oi);
            if (err != TIGRIS_EXEC_OK) return err;
        }

        /* Step 9. */
        for (k = 0; k < st->outputs_count; k++) {
            uint16_t t = out[k];
            int32_t a = r->row0[t], b = r->row1[t];
            if (a < 0 || b <= a || a > covered[k]) return TIGRIS_EXEC_ERR_TILE;
            if (tigris__mem_spill_tile(mem, plan, t, (uint8_t *)r->saved_out[k], a, b) != TIGRIS_MEM_OK)
                return TIGRIS_EXEC_ERR_MEM;
            if (b > covered[k]) covered[k] = b;
        }
        tigris__mem_reset_fast(mem);
    }

    /* Step 10. */
    for (k = 0; k < st->outputs_count; k++) {
        if (covered[k] != shape_of(plan, out[k])[1]) return TIGRIS_EXEC_ERR_TILE;
    }
    return TIGRIS_EXEC_OK;
}

tigris_exec_error_t tx_run_stripe(tx_run_t *r, uint16_t s, uint32_t capacity) {
    const tigris_plan_t *plan = r->plan;
    const tigris_stage_t *st = &plan->stages[s];
    const uint16_t *in = tigris_stage_inputs(plan, st), *ops = tigris_stage_ops(plan, st);
    int32_t covered[TIGRIS_MAX_STAGE_OUTPUTS];
    stripe_t sp;
    int in_place = 0;
    uint32_t k, q;
    tigris_exec_error_t err;

    memset(&sp, 0, sizeof sp);
    sp.r = r;
    sp.st = st;
    sp.spatial_pos = -1;
    err = stripe_body(&sp, s, capacity, covered, &in_place);
    if (err != TIGRIS_EXEC_OK) return err;

    tx_clear_tile(r->mem);
    for (k = 0; k < st->inputs_count; k++) {
        r->mem->tensor_ptrs[in[k]] = in_place ? NULL : r->saved_in[k];
        r->row0[in[k]] = r->row1[in[k]] = -1;
    }
    for (k = 0; k < st->ops_count; k++) {
        const tigris_op_t *op = &plan->ops[ops[k]];
        const uint16_t *outs = tigris_op_outputs(plan, op);
        for (q = 0; q < op->num_outputs; q++) {
            r->row0[outs[q]] = r->row1[outs[q]] = -1;
            if (!is_stage_output(plan, st, outs[q])) r->mem->tensor_ptrs[outs[q]] = NULL;
        }
    }
    return TIGRIS_EXEC_OK;
}
