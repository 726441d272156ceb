/*
 * chain.c - consecutive stages run band by band without their intermediate
 * tensors ever reaching slow memory, optionally with line buffers that keep
 * the rows neighbouring bands share (docs/runtime-semantics.md R2.8).
 */
#include "executor_internal.h"

#include <string.h>

typedef struct {
    tx_run_t *r;
    uint16_t head, len;
    uint32_t stride_words; /* int32 per member record */
    int line_buffered;
    uint32_t h_last; /* output rows of the last member */
} chain_t;

static int32_t *member(const chain_t *c, uint32_t m) {
    return c->r->chain_i32 + m * c->stride_words;
}

static int32_t *spatial_slot(const chain_t *c, uint32_t m, uint32_t j) {
    return member(c, m) + TX_MEMBER_I32 + j * TX_SPATIAL_I32;
}

static const int32_t *shape_of(const tigris_plan_t *plan, uint16_t t) {
    return tigris_tensor_shape(plan, &plan->tensors[t]);
}

/* Bytes of one row (axis 1) of a rank-4 tensor, batches included. */
static uint32_t row_bytes(const tigris_plan_t *plan, uint16_t t) {
    const int32_t *sh = shape_of(plan, t);
    if (sh[1] <= 0) return 0;
    return plan->tensors[t].size_bytes / (uint32_t)sh[1];
}

/* Step 2: validate members and compose their geometry. */
static tigris_exec_error_t describe(chain_t *c) {
    const tigris_plan_t *plan = c->r->plan;
    uint32_t m, k;
    for (m = 0; m < c->len; m++) {
        const tigris_stage_t *st = &plan->stages[c->head + m];
        const uint16_t *ops = tigris_stage_ops(plan, st);
        int32_t *rec = member(c, m);
        int32_t stride = 1, effk = 1, pad = 0, n = 0;
        memset(rec, 0, TX_MEMBER_I32 * sizeof(int32_t));
        for (k = 0; k < st->ops_count; k++) {
            const tigris_op_t *op = &plan->ops[ops[k]];
            uint8_t ty = op->op_type;
            if (!tigris__op_bands_by_height(plan, op) || ty == TIGRIS_OP_CONV_TRANSPOSE || ty == TIGRIS_OP_RESIZE ||
                ty == TIGRIS_OP_RESIZE_LINEAR)
                return TIGRIS_EXEC_ERR_TILE;
            if (ty == TIGRIS_OP_CONCAT) rec[TXM_HAS_CAT] = 1;
            if (tigris__op_is_spatial_h(ty)) {
                int32_t *sp;
                int32_t ek = (int32_t)tx_eff_k(op->spatial.kernel_h, op->spatial.dilation_h);
                int32_t sh = op->spatial.stride_h ? op->spatial.stride_h : 1;
                uint16_t tin = tigris_op_inputs(plan, op)[0], tout = tigris_op_outputs(plan, op)[0];
                if ((uint32_t)n >= c->r->lim.spatial) return TIGRIS_EXEC_ERR_WORKSPACE;
                if (op->num_inputs < 1 || op->num_outputs < 1 || plan->tensors[tin].ndim != 4 ||
                    plan->tensors[tout].ndim != 4)
                    return TIGRIS_EXEC_ERR_TILE;
                sp = spatial_slot(c, m, (uint32_t)n);
                memset(sp, 0, TX_SPATIAL_I32 * sizeof(int32_t));
                sp[TXS_OP] = ops[k];
                sp[TXS_EK] = ek;
                sp[TXS_STRIDE] = sh;
                sp[TXS_PT] = op->spatial.pad_top;
                sp[TXS_HFULL] = shape_of(plan, tin)[1];
                effk += (ek - 1) * stride;
                pad += op->spatial.pad_top * stride;
                stride *= sh;
                if (stride > 0x10000 || effk > 0x1000000) return TIGRIS_EXEC_ERR_TILE;
                n++;
            }
        }
        rec[TXM_NSPATIAL] = n;
        rec[TXM_STRIDE] = stride;
        rec[TXM_EFFK] = effk;
        rec[TXM_PAD] = pad;
    }
    return TIGRIS_EXEC_OK;
}

/* Rows an op output is sized for at band height h (steps 4 and 6): the
 * band back-propagated to the member's input, then forward through each
 * spatial op. Calls visit(output tensor, rows) for every rank-4 op output
 * and returns the rows of the first-stage input. */
typedef int (*visit_fn)(chain_t *c, uint16_t t, uint32_t rows, void *ctx);

static int interior_walk(chain_t *c, uint32_t h, visit_fn visit, void *ctx, uint32_t *first_in) {
    const tigris_plan_t *plan = c->r->plan;
    uint32_t m, k, s_out = h;
    /* back-propagate into each member's TXM_R1 (its input rows) */
    for (m = c->len; m-- > 0;) {
        int32_t *rec = member(c, m);
        uint32_t s_in = tx_sat_add(tx_sat_mul(s_out, (uint32_t)rec[TXM_STRIDE]),
                                   rec[TXM_EFFK] > rec[TXM_STRIDE] ? (uint32_t)(rec[TXM_EFFK] - rec[TXM_STRIDE]) : 0u);
        if (s_in > 0x7FFFFFFFu) return -1;
        rec[TXM_R1] = (int32_t)s_in;
        s_out = (uint32_t)s_in;
    }
    *first_in = s_out;
    for (m = 0; m < c->len; m++) {
        const tigris_stage_t *st = &plan->stages[c->head + m];
        const uint16_t *ops = tigris_stage_ops(plan, st);
        int32_t x = member(c, m)[TXM_R1];
        for (k = 0; k < st->ops_count; k++) {
            const tigris_op_t *op = &plan->ops[ops[k]];
            const uint16_t *outs = tigris_op_outputs(plan, op);
            uint32_t j;
            if (tigris__op_is_spatial_h(op->op_type)) {
                int32_t ek = (int32_t)tx_eff_k(op->spatial.kernel_h, op->spatial.dilation_h);
                int32_t sh = op->spatial.stride_h ? op->spatial.stride_h : 1;
                x = (x + op->spatial.pad_top - ek) / sh + 1;
                if (x < 1) x = 1;
            }
            for (j = 0; j < op->num_outputs; j++) {
                if (visit && visit(c, outs[j], (uint32_t)x, ctx) != 0) return -1;
            }
        }
    }
    return 0;
}

typedef struct {
    uint32_t total;
} cost_t;

static int add_cost(chain_t *c, uint16_t t, uint32_t rows, void *ctx) {
    cost_t *k = (cost_t *)ctx;
    if (c->r->plan->tensors[t].ndim != 4) return 0;
    k->total = tx_sat_add(k->total, tx_aligned(tx_sat_mul(row_bytes(c->r->plan, t), rows)));
    return 0;
}

static uint32_t chain_cost(chain_t *c, uint32_t h) {
    const tigris_plan_t *plan = c->r->plan;
    const tigris_stage_t *st = &plan->stages[c->head];
    const uint16_t *in = tigris_stage_inputs(plan, st);
    cost_t k;
    uint32_t first_in, i;
    k.total = 0;
    if (interior_walk(c, h, add_cost, &k, &first_in) != 0) return UINT32_MAX;
    for (i = 0; i < st->inputs_count; i++) {
        if (plan->tensors[in[i]].ndim != 4) continue;
        k.total = tx_sat_add(k.total, tx_aligned(tx_sat_mul(row_bytes(plan, in[i]), first_in)));
    }
    return k.total;
}

/* Step 6: a line buffer per op output, sized once for the interior band. */
static int alloc_line_buffer(chain_t *c, uint16_t t, uint32_t rows, void *ctx) {
    const tigris_plan_t *plan = c->r->plan;
    uint32_t bytes;
    (void)ctx;
    if (plan->tensors[t].ndim == 4) {
        uint32_t h = (uint32_t)shape_of(plan, t)[1];
        bytes = tx_sat_mul(row_bytes(plan, t), rows < h ? rows : h);
    } else {
        bytes = plan->tensors[t].size_bytes;
    }
    if (tigris__mem_alloc_fast(c->r->mem, t, bytes) != TIGRIS_MEM_OK) return -1;
    c->r->row0[t] = -1;
    c->r->row1[t] = -1;
    return 0;
}

/* Capacity rows of an op output's line buffer at band height h. */
typedef struct {
    uint16_t t;
    uint32_t rows;
} find_t;

static int find_rows(chain_t *c, uint16_t t, uint32_t rows, void *ctx) {
    find_t *f = (find_t *)ctx;
    (void)c;
    if (t == f->t) f->rows = rows;
    return 0;
}

/* Step 7: output rows [o0, o1) of the last member back to the first. */
static void back_propagate(chain_t *c, int32_t o0, int32_t o1) {
    uint32_t m;
    for (m = c->len; m-- > 0;) {
        int32_t *rec = member(c, m);
        int32_t n = rec[TXM_NSPATIAL], j;
        rec[TXM_OUT0] = o0;
        rec[TXM_OUT1] = o1;
        rec[TXM_CLAMPED] = 0;
        for (j = n; j-- > 0;) {
            int32_t *sp = spatial_slot(c, m, (uint32_t)j);
            int32_t i0 = o0 * sp[TXS_STRIDE] - sp[TXS_PT];
            int32_t i1 = (o1 - 1) * sp[TXS_STRIDE] - sp[TXS_PT] + sp[TXS_EK];
            int32_t pte = i0 < 0 ? -i0 : 0;
            int32_t pbe = i1 > sp[TXS_HFULL] ? i1 - sp[TXS_HFULL] : 0;
            if (i0 < 0) i0 = 0;
            if (i1 > sp[TXS_HFULL]) i1 = sp[TXS_HFULL];
            sp[TXS_O0] = o0;
            sp[TXS_O1] = o1;
            sp[TXS_I0] = i0;
            sp[TXS_I1] = i1;
            sp[TXS_PTE] = pte;
            sp[TXS_PBE] = pbe;
            sp[TXS_IN_H] = i1 - i0;
            sp[TXS_OUT_H] = o1 - o0;
            if (pte > 0 || pbe > 0) rec[TXM_CLAMPED] = 1;
            o0 = i0;
            o1 = i1;
        }
        rec[TXM_IN0] = o0;
        rec[TXM_IN1] = o1;
    }
}

static int is_last_output(const tigris_plan_t *plan, const tigris_stage_t *last, uint16_t t) {
    const uint16_t *out = tigris_stage_outputs(plan, last);
    uint32_t k;
    for (k = 0; k < last->outputs_count; k++)
        if (out[k] == t) return 1;
    return 0;
}

/* Step 10: point a wider operand of a binary op at the op's first row. */
static tigris_exec_error_t offset_operands(chain_t *c, const tigris_op_t *op, int32_t r0, int32_t r1,
                                          void **saved, uint32_t *nsaved) {
    const tigris_plan_t *plan = c->r->plan;
    tigris_mem_t *mem = c->r->mem;
    const uint16_t *ins = tigris_op_inputs(plan, op);
    uint32_t k;
    *nsaved = 0;
    if (!tigris__op_is_binary(op->op_type) || op->num_inputs != 2) return TIGRIS_EXEC_OK;
    for (k = 0; k < 2; k++) {
        uint16_t t = ins[k];
        const tigris_tensor_t *tt = &plan->tensors[t];
        const int32_t *sh = shape_of(plan, t);
        saved[k] = mem->tensor_ptrs[t];
        if (tt->ndim != 4 || (tt->flags & TIGRIS_TENSOR_LINEAR) || sh[0] != 1 || sh[1] <= 1) continue;
        if (c->r->row0[t] < 0 || !mem->tensor_ptrs[t]) continue;
        if (c->r->row0[t] == r0 && c->r->row1[t] == r1) continue;
        if (c->r->row0[t] > r0 || c->r->row1[t] < r1) return TIGRIS_EXEC_ERR_TILE;
        mem->tensor_ptrs[t] = (uint8_t *)mem->tensor_ptrs[t] + (uint32_t)(r0 - c->r->row0[t]) * row_bytes(plan, t);
    }
    *nsaved = 2;
    return TIGRIS_EXEC_OK;
}

/* Step 8-9 for one member on one tile. */
static tigris_exec_error_t run_member(chain_t *c, uint32_t m, uint32_t tile, uint32_t band_h) {
    tx_run_t *r = c->r;
    const tigris_plan_t *plan = r->plan;
    tigris_mem_t *mem = r->mem;
    const tigris_stage_t *st = &plan->stages[c->head + m];
    const uint16_t *ops = tigris_stage_ops(plan, st);
    int32_t *rec = member(c, m);
    int32_t cr0 = rec[TXM_IN0], cr1 = rec[TXM_IN1];
    int rollable = c->line_buffered && tile > 0 && !rec[TXM_CLAMPED] && !rec[TXM_HAS_CAT];
    uint32_t k, j = 0;
    tigris_exec_error_t err;

    TIGRIS_TRACE_SET_STAGE(mem, c->head + m);
    r->wplan.weight_blob = r->chain_blob[m];
    for (k = 0; k < st->ops_count; k++) {
        uint16_t oi = ops[k];
        const tigris_op_t *op = &plan->ops[oi];
        const uint16_t *ins = tigris_op_inputs(plan, op), *outs = tigris_op_outputs(plan, op);
        int spatial = tigris__op_is_spatial_h(op->op_type);
        int32_t o0 = cr0, o1 = cr1, overlap = 0;
        uint32_t q, nsaved = 0;
        void *saved[2];
        uint16_t t0 = outs[0];
        tigris_tile_ctx_t *tc = &mem->tile;

        memset(tc, 0, sizeof *tc);
        tc->active = 1;
        if (spatial) {
            int32_t *sp = spatial_slot(c, m, j++);
            o0 = sp[TXS_O0];
            o1 = sp[TXS_O1];
            tc->in_h = sp[TXS_IN_H];
            tc->out_h = sp[TXS_OUT_H];
            tc->pad_top = sp[TXS_PTE];
            tc->pad_bottom = sp[TXS_PBE];
            tc->pad_left = op->spatial.pad_left;
            tc->pad_right = op->spatial.pad_right;
            tc->in_w = shape_of(plan, ins[0])[2];
            tc->out_w = shape_of(plan, t0)[2];
            tc->in_row_origin = sp[TXS_I0];
            tc->out_row_origin = o0;
        } else {
            tc->in_h = tc->out_h = cr1 - cr0;
            tc->in_w = tc->out_w = plan->tensors[t0].ndim == 4 ? shape_of(plan, t0)[2] : 1;
            tc->in_row_origin = tc->out_row_origin = cr0;
        }

        for (q = 0; q < op->num_outputs; q++) {
            uint16_t t = outs[q];
            const tigris_tensor_t *tt = &plan->tensors[t];
            if (c->line_buffered) {
                if (tt->ndim == 4) {
                    find_t f;
                    uint32_t dummy;
                    f.t = t;
                    f.rows = 0;
                    if (interior_walk(c, band_h, find_rows, &f, &dummy) != 0) return TIGRIS_EXEC_ERR_TILE;
                    if (f.rows > (uint32_t)shape_of(plan, t)[1]) f.rows = (uint32_t)shape_of(plan, t)[1];
                    if ((uint32_t)(o1 - o0) > f.rows) return TIGRIS_EXEC_ERR_TILE;
                }
                continue;
            }
            if (tt->ndim == 4) {
                if (tigris__mem_alloc_fast(mem, t, tx_sat_mul(row_bytes(plan, t), (uint32_t)(o1 - o0))) !=
                    TIGRIS_MEM_OK)
                    return TIGRIS_EXEC_ERR_MEM;
            } else if (!mem->tensor_ptrs[t]) {
                if (tigris__mem_alloc_fast(mem, t, tt->size_bytes) != TIGRIS_MEM_OK) return TIGRIS_EXEC_ERR_MEM;
            }
        }

        /* Step 9: keep the rows this band shares with the previous one. */
        if (rollable && op->num_outputs == 1 && plan->tensors[t0].ndim == 4 && shape_of(plan, t0)[0] == 1 &&
            r->row0[t0] >= 0 && tc->out_h == o1 - o0) {
            int32_t prev_h = r->row1[t0] - r->row0[t0];
            int32_t this_h = o1 - o0;
            overlap = r->row1[t0] - o0;
            if (overlap > this_h) overlap = this_h;
            if (overlap > prev_h) overlap = prev_h;
            if (overlap < 0) overlap = 0;
            if (overlap > 0) {
                uint32_t rb = row_bytes(plan, t0);
                uint8_t *buf = (uint8_t *)mem->tensor_ptrs[t0];
                uint32_t src_row = (uint32_t)(prev_h - overlap);
                memmove(buf, buf + src_row * rb, (uint32_t)overlap * rb);
                TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_MOVE, TIGRIS_TRACE_POOL_FAST, t0, TIGRIS_TRACE_NONE16,
                                  (uint32_t)(buf - mem->fast_base), (uint32_t)(buf - mem->fast_base) + src_row * rb,
                                  (uint32_t)overlap * rb, o0, o0 + overlap, -1, -1);
                tc->out_row_start = overlap;
                tc->in_row_start = spatial ? 0 : overlap;
                tc->out_h -= overlap;
            }
        }

        err = offset_operands(c, op, cr0, cr1, saved, &nsaved);
        if (err != TIGRIS_EXEC_OK) return err;
        if (!(overlap > 0 && tc->out_h == 0)) {
            err = tx_call_op(r, oi);
            if (err != TIGRIS_EXEC_OK) return err;
        }
        for (q = 0; q < nsaved; q++) mem->tensor_ptrs[ins[q]] = saved[q];
        tc->out_h += overlap;
        tc->out_row_start = 0;
        tc->in_row_start = 0;

        for (q = 0; q < op->num_outputs; q++) {
            if (plan->tensors[outs[q]].ndim == 4) {
                r->row0[outs[q]] = o0;
                r->row1[outs[q]] = o1;
            }
        }
        cr0 = o0;
        cr1 = o1;
    }
    return TIGRIS_EXEC_OK;
}

static void chain_cleanup(chain_t *c) {
    tx_run_t *r = c->r;
    const tigris_plan_t *plan = r->plan;
    const tigris_stage_t *last = &plan->stages[c->head + c->len - 1];
    uint32_t m, k, q;
    tx_clear_tile(r->mem);
    tx_restore_inputs(r, &plan->stages[c->head]);
    for (m = 0; m < c->len; m++) {
        const tigris_stage_t *st = &plan->stages[c->head + m];
        const uint16_t *ops = tigris_stage_ops(plan, st);
        for (k = 0; k < st->ops_count; k++) {
            const tigris_op_t *op = &plan->ops[ops[k]];
            const uint16_t *outs = tigris_op_outputs(plan, op);
            for (q = 0; q < op->num_outputs; q++) {
                r->row0[outs[q]] = -1;
                r->row1[outs[q]] = -1;
                if (!is_last_output(plan, last, outs[q])) r->mem->tensor_ptrs[outs[q]] = NULL;
            }
        }
    }
}

static tigris_exec_error_t chain_body(chain_t *c) {
    tx_run_t *r = c->r;
    const tigris_plan_t *plan = r->plan;
    tigris_mem_t *mem = r->mem;
    const tigris_stage_t *head = &plan->stages[c->head];
    const tigris_stage_t *last = &plan->stages[c->head + c->len - 1];
    const uint16_t *in = tigris_stage_inputs(plan, head), *lout = tigris_stage_outputs(plan, last);
    uint32_t m, k, cth, lo, hi, h, ntiles, tile;
    tigris_exec_error_t err;

    err = describe(c);
    if (err != TIGRIS_EXEC_OK) return err;

    /* Step 3: every member's weights decoded up front. */
    for (m = 0; m < c->len; m++) {
        if (tx_stage_block(plan, (uint16_t)(c->head + m))) TIGRIS_TRACE_SET_STAGE(mem, c->head + m);
        err = tx_decode_block(r, (uint16_t)(c->head + m), &r->chain_blob[m]);
        if (err != TIGRIS_EXEC_OK) return err;
    }
    if (plan->weight_blocks) mem->fast_reserved = mem->fast_used;

    if (last->outputs_count == 0 || plan->tensors[lout[0]].ndim != 4) return TIGRIS_EXEC_ERR_TILE;
    c->h_last = (uint32_t)shape_of(plan, lout[0])[1];
    if (c->h_last == 0) return TIGRIS_EXEC_ERR_TILE;

    /* Step 4: the largest band up to the compiled height that fits. */
    cth = head->chain_tile_h ? head->chain_tile_h : 1;
    if (cth > c->h_last) cth = c->h_last;
    lo = 0;
    hi = cth;
    {
        uint32_t room = mem->fast_size - mem->fast_reserved;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo + 1) / 2;
            if (chain_cost(c, mid) <= room) lo = mid;
            else hi = mid - 1;
        }
    }
    if (lo == 0) return TIGRIS_EXEC_ERR_MEM;
    h = lo;

    /* Step 5. */
    if (last->outputs_count > r->lim.outputs) return TIGRIS_EXEC_ERR_WORKSPACE;
    for (k = 0; k < last->outputs_count; k++) {
        if (tx_place_slow(r, lout[k]) != 0) return TIGRIS_EXEC_ERR_MEM;
        r->saved_out[k] = mem->tensor_ptrs[lout[k]];
        r->row1[lout[k]] = -1;
    }
    for (k = 0; k < head->inputs_count; k++) r->saved_in[k] = mem->tensor_ptrs[in[k]];

    /* Step 6. */
    if (c->line_buffered) {
        uint32_t dummy;
        if (interior_walk(c, h, alloc_line_buffer, NULL, &dummy) != 0) return TIGRIS_EXEC_ERR_MEM;
        mem->fast_reserved = mem->fast_used;
    }

    ntiles = (c->h_last + h - 1) / h;
    for (tile = 0; tile < ntiles; tile++) {
        int32_t o0 = (int32_t)(tile * h), o1 = (int32_t)((tile + 1) * h);
        int32_t *first;
        if ((uint32_t)o1 > c->h_last) o1 = (int32_t)c->h_last;
        back_propagate(c, o0, o1);
        first = member(c, 0);

        r->stats->total_tiles++;
        TIGRIS_TRACE_SET_STAGE(mem, c->head);
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_TILE_BEGIN, TIGRIS_TRACE_POOL_NONE, TIGRIS_TRACE_NONE16,
                          (uint16_t)tile, 0, 0, 0, first[TXM_IN0], first[TXM_IN1], -1, -1);
        for (k = 0; k < head->inputs_count; k++) {
            uint16_t t = in[k];
            const tigris_tensor_t *tt = &plan->tensors[t];
            mem->tensor_ptrs[t] = r->saved_in[k];
            if (tt->ndim == 4 && shape_of(plan, t)[1] >= first[TXM_IN1] && shape_of(plan, t)[1] > 1) {
                if (tigris__mem_load_tile(mem, plan, t, first[TXM_IN0], first[TXM_IN1]) != TIGRIS_MEM_OK)
                    return TIGRIS_EXEC_ERR_MEM;
                r->row0[t] = first[TXM_IN0];
                r->row1[t] = first[TXM_IN1];
            } else if (tigris__mem_load(mem, t, tt->size_bytes) != TIGRIS_MEM_OK) {
                return TIGRIS_EXEC_ERR_MEM;
            }
        }

        for (m = 0; m < c->len; m++) {
            err = run_member(c, m, tile, h);
            if (err != TIGRIS_EXEC_OK) return err;
        }

        /* Step 11: the last member's band into the slow outputs. */
        for (k = 0; k < last->outputs_count; k++) {
            uint16_t t = lout[k];
            void *fastp = mem->tensor_ptrs[t];
            int32_t a = r->row0[t], b = r->row1[t];
            int32_t covered = tile == 0 ? 0 : (int32_t)(uint32_t)(uintptr_t)r->chain_aux[0];
            (void)covered;
            if (a < 0 || b <= a) return TIGRIS_EXEC_ERR_TILE;
            if (tigris__mem_spill_tile(mem, plan, t, (uint8_t *)r->saved_out[k], a, b) != TIGRIS_MEM_OK)
                return TIGRIS_EXEC_ERR_MEM;
            if (c->line_buffered && tile + 1 < ntiles) mem->tensor_ptrs[t] = fastp;
        }
        /* Coverage: bands must meet without a gap (checked on the last
         * member's first output, which every output shares rows with). */
        {
            int32_t a = r->row0[lout[0]], b = r->row1[lout[0]];
            int32_t prev_end = (int32_t)(intptr_t)r->chain_aux[0];
            if (tile == 0) prev_end = 0;
            if (a > prev_end) return TIGRIS_EXEC_ERR_TILE;
            if (b > prev_end) prev_end = b;
            r->chain_aux[0] = (void *)(intptr_t)prev_end;
        }
        tigris__mem_reset_fast(mem);
    }
    if ((int32_t)(intptr_t)r->chain_aux[0] != (int32_t)c->h_last) return TIGRIS_EXEC_ERR_TILE;
    return TIGRIS_EXEC_OK;
}

tigris_exec_error_t tx_run_chain(tx_run_t *r, uint16_t head) {
    chain_t c;
    tigris_exec_error_t err;
    const tigris_stage_t *st = &r->plan->stages[head];
    c.r = r;
    c.head = head;
    c.len = st->chain_len;
    c.stride_words = TX_MEMBER_I32 + TX_SPATIAL_I32 * r->lim.spatial;
    c.line_buffered = (st->_reserved1 & TIGRIS_STAGE_LINE_BUFFERED) != 0;
    if (c.len > r->lim.chain || (uint32_t)head + c.len > r->plan->header->num_stages) return TIGRIS_EXEC_ERR_TILE;
    err = chain_body(&c);
    if (err == TIGRIS_EXEC_OK) chain_cleanup(&c);
    r->wplan.weight_blob = r->plan->weight_blob;
    return err;
}
