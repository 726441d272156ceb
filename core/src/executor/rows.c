/*
 * rows.c - matrix row bands and leading-axis bands (docs/runtime-semantics.md R2.7.5, R2.7.6).
 * Both cut every tensor the stage streams into (batch, rows, row bytes) and
 * move one run of rows per batch; only the axis that counts as "rows" differs.
 */
#include "executor_internal.h"

#include <string.h>

typedef struct {
    uint32_t batch, rows, row_bytes;
} row_view_t;

/* 0 when t has a row view in this mode. */
static int view_of(const tigris_plan_t *plan, uint16_t t, uint8_t mode, uint8_t axis, row_view_t *v) {
    const tigris_tensor_t *tt = &plan->tensors[t];
    const int32_t *sh = tigris_tensor_shape(plan, tt);
    uint32_t k, ax, batch = 1, n;
    if (mode == TIGRIS_ROW_MODE_ROWS) {
        if (tt->ndim == 2) ax = 0;
        else if (tt->ndim > 2 && (tt->flags & TIGRIS_TENSOR_LINEAR)) ax = (uint32_t)tt->ndim - 2;
        else return -1;
    } else {
        if ((uint32_t)axis + 1 >= tt->ndim) return -1;
        ax = axis;
    }
    for (k = 0; k < ax; k++) {
        if (sh[k] <= 0) return -1;
        batch = tx_sat_mul(batch, (uint32_t)sh[k]);
    }
    if (sh[ax] <= 0) return -1;
    n = tx_sat_mul(batch, (uint32_t)sh[ax]);
    if (n == 0 || n == UINT32_MAX || tt->size_bytes % n != 0) return -1;
    v->batch = batch;
    v->rows = (uint32_t)sh[ax];
    v->row_bytes = tt->size_bytes / n;
    return 0;
}

static int same_view(const row_view_t *a, const row_view_t *b) {
    return a->batch == b->batch && a->rows == b->rows && a->row_bytes == b->row_bytes;
}

typedef struct {
    tx_run_t *r;
    const tigris_stage_t *st;
    uint16_t s;
    uint8_t mode, axis;
    uint32_t batch, rows;
    uint32_t whole_mask; /* stage inputs read whole (bit k = input k) */
    int aliased;
} rows_t;

/* Stage input k is read whole: a FullyConnected/MatMul weight-like operand,
 * or an input whose row view differs from the band's. */
static int input_whole(const rows_t *b, uint32_t k) {
    const tigris_plan_t *plan = b->r->plan;
    const uint16_t *in = tigris_stage_inputs(plan, b->st), *ops = tigris_stage_ops(plan, b->st);
    uint16_t t = in[k];
    row_view_t v;
    uint32_t p, q;
    if (view_of(plan, t, b->mode, b->axis, &v) != 0 || v.rows != b->rows || v.batch != b->batch) return 1;
    for (p = 0; p < b->st->ops_count; p++) {
        const tigris_op_t *op = &plan->ops[ops[p]];
        if (op->op_type != TIGRIS_OP_FULLY_CONN && op->op_type != TIGRIS_OP_MATMUL) continue;
        for (q = 1; q < op->num_inputs; q++)
            if (tigris_op_inputs(plan, op)[q] == t) return 1;
    }
    return 0;
}

static uint32_t band_cost(const rows_t *b, uint32_t n) {
    const tigris_plan_t *plan = b->r->plan;
    const uint16_t *in = tigris_stage_inputs(plan, b->st), *ops = tigris_stage_ops(plan, b->st);
    uint32_t total = 0, k, q;
    for (k = 0; k < b->st->inputs_count; k++) {
        uint32_t sz = plan->tensors[in[k]].size_bytes;
        if (!(b->whole_mask & (1u << k))) sz = tx_sat_mul(sz / b->rows, n);
        total = tx_sat_add(total, tx_aligned(sz));
    }
    for (k = 0; k < b->st->ops_count; k++) {
        const tigris_op_t *op = &plan->ops[ops[k]];
        for (q = 0; q < op->num_outputs; q++) {
            uint32_t sz = plan->tensors[tigris_op_outputs(plan, op)[q]].size_bytes;
            total = tx_sat_add(total, tx_aligned(tx_sat_mul(sz / b->rows, n)));
        }
    }
    return total;
}

/* Rows [r0, r1) of every batch between a full tensor and its packed band. */
static void move_band(const row_view_t *v, uint8_t *full, uint8_t *band, uint32_t r0, uint32_t r1, int to_band) {
    uint32_t n, run = (r1 - r0) * v->row_bytes;
    for (n = 0; n < v->batch; n++) {
        uint8_t *f = full + ((size_t)n * v->rows + r0) * v->row_bytes;
        uint8_t *p = band + (size_t)n * run;
        if (to_band) memcpy(p, f, run);
        else memcpy(f, p, run);
    }
}

static uint32_t pool_off(const tigris_mem_t *mem, const void *p) {
    if (tigris__mem_in_fast(mem, p)) return (uint32_t)((const uint8_t *)p - mem->fast_base);
    if (tigris__mem_in_slow(mem, p)) return (uint32_t)((const uint8_t *)p - mem->slow_base);
    return 0;
}

static int is_stage_output(const tigris_plan_t *plan, const tigris_stage_t *st, uint16_t t) {
    const uint16_t *out = tigris_stage_outputs(plan, st);
    uint32_t k;
    for (k = 0; k < st->outputs_count; k++)
        if (out[k] == t) return 1;
    return 0;
}

static tigris_exec_error_t rows_body(rows_t *b, uint32_t cap) {
    tx_run_t *r = b->r;
    const tigris_plan_t *plan = r->plan;
    tigris_mem_t *mem = r->mem;
    const tigris_stage_t *st = b->st;
    const uint16_t *in = tigris_stage_inputs(plan, st), *out = tigris_stage_outputs(plan, st);
    const uint16_t *ops = tigris_stage_ops(plan, st);
    row_view_t ov, v;
    uint32_t k, lo, hi, band, start;
    tigris_exec_error_t err;

    if (st->chain_len >= 2 || st->outputs_count == 0 || st->ops_count == 0) return TIGRIS_EXEC_ERR_TILE;
    if (st->outputs_count > r->lim.outputs || st->inputs_count > r->lim.inputs) return TIGRIS_EXEC_ERR_WORKSPACE;
    if (st->inputs_count > 32) return TIGRIS_EXEC_ERR_TILE;
    if (view_of(plan, out[0], b->mode, b->axis, &ov) != 0 || ov.rows < 2) return TIGRIS_EXEC_ERR_TILE;
    b->batch = ov.batch;
    b->rows = ov.rows;
    for (k = 0; k < st->ops_count; k++) {
        const tigris_op_t *op = &plan->ops[ops[k]];
        if (op->num_outputs != 1) return TIGRIS_EXEC_ERR_TILE;
        if (view_of(plan, tigris_op_outputs(plan, op)[0], b->mode, b->axis, &v) != 0 || v.rows != b->rows ||
            v.batch != b->batch)
            return TIGRIS_EXEC_ERR_TILE;
    }
    b->whole_mask = 0;
    for (k = 0; k < st->inputs_count; k++)
        if (input_whole(b, k)) b->whole_mask |= 1u << k;

    /* Output placement: in place of a dying, same-shaped slow input, else whole in slow. */
    b->aliased = 0;
    if (b->mode == TIGRIS_ROW_MODE_ROWS && st->inputs_count == 1 && st->outputs_count == 1 &&
        r->last_consumer[in[0]] == b->s && !(plan->tensors[in[0]].flags & TIGRIS_TENSOR_MODEL_INPUT) &&
        plan->tensors[in[0]].size_bytes == plan->tensors[out[0]].size_bytes && !(b->whole_mask & 1u) &&
        view_of(plan, in[0], b->mode, b->axis, &v) == 0 && same_view(&v, &ov) && mem->tensor_ptrs[in[0]] &&
        tigris__mem_in_slow(mem, mem->tensor_ptrs[in[0]])) {
        r->saved_out[0] = mem->tensor_ptrs[in[0]];
        b->aliased = 1;
    } else {
        for (k = 0; k < st->outputs_count; k++) {
            if (tx_place_slow(r, out[k]) != 0) return TIGRIS_EXEC_ERR_MEM;
            r->saved_out[k] = mem->tensor_ptrs[out[k]];
        }
    }

    lo = 0;
    hi = b->rows;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (band_cost(b, mid) <= cap) lo = mid;
        else hi = mid - 1;
    }
    /* Not even one row fits: arena exhaustion, not a tiling fault. */
    if (lo == 0) return TIGRIS_EXEC_ERR_MEM;
    band = lo;

    for (k = 0; k < st->inputs_count; k++) r->saved_in[k] = mem->tensor_ptrs[in[k]];

    for (start = 0; start < b->rows; start += band) {
        uint32_t end = start + band > b->rows ? b->rows : start + band, n = end - start;
        tigris_tile_ctx_t *tc = &mem->tile;
        r->stats->total_tiles++;
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_TILE_BEGIN, TIGRIS_TRACE_POOL_NONE, TIGRIS_TRACE_NONE16,
                          (uint16_t)(start / band), 0, 0, 0, (int32_t)start, (int32_t)end, -1, -1);
        memset(tc, 0, sizeof *tc);
        tc->active = 1;
        tc->row_tiled = b->mode;
        tc->in_h = tc->out_h = (int32_t)n;
        tc->in_w = tc->out_w = 1;
        tc->in_row_origin = tc->out_row_origin = (int32_t)start;

        for (k = 0; k < st->inputs_count; k++) {
            uint16_t t = in[k];
            uint8_t *dst;
            mem->tensor_ptrs[t] = r->saved_in[k];
            if (b->whole_mask & (1u << k)) continue;
            if (!r->saved_in[k] || view_of(plan, t, b->mode, b->axis, &v) != 0) return TIGRIS_EXEC_ERR_TILE;
            if (tigris__mem_alloc_fast(mem, t, tx_sat_mul(v.batch, n * v.row_bytes)) != TIGRIS_MEM_OK)
                return TIGRIS_EXEC_ERR_MEM;
            dst = (uint8_t *)mem->tensor_ptrs[t];
            move_band(&v, (uint8_t *)r->saved_in[k], dst, start, end, 1);
            if (r->stats) r->stats->loads_bytes += v.batch * n * v.row_bytes;
            TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_LOAD, TIGRIS_TRACE_POOL_FAST, t, TIGRIS_TRACE_NONE16,
                              pool_off(mem, dst), pool_off(mem, r->saved_in[k]) + start * v.row_bytes,
                              v.batch * n * v.row_bytes, (int32_t)start, (int32_t)end, -1, -1);
        }

        for (k = 0; k < st->ops_count; k++) {
            const tigris_op_t *op = &plan->ops[ops[k]];
            uint16_t t = tigris_op_outputs(plan, op)[0];
            (void)view_of(plan, t, b->mode, b->axis, &v);
            if (tigris__mem_alloc_fast(mem, t, tx_sat_mul(v.batch, n * v.row_bytes)) != TIGRIS_MEM_OK)
                return TIGRIS_EXEC_ERR_MEM;
            err = tx_call_op(r, ops[k]);
            if (err != TIGRIS_EXEC_OK) return err;
        }

        for (k = 0; k < st->outputs_count; k++) {
            uint16_t t = out[k];
            uint8_t *src = (uint8_t *)mem->tensor_ptrs[t];
            if (!src) return TIGRIS_EXEC_ERR_TILE;
            (void)view_of(plan, t, b->mode, b->axis, &v);
            move_band(&v, (uint8_t *)r->saved_out[k], src, start, end, 0);
            if (r->stats) r->stats->spills_bytes += v.batch * n * v.row_bytes;
            TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_SPILL, TIGRIS_TRACE_POOL_SLOW, t, TIGRIS_TRACE_NONE16,
                              pool_off(mem, r->saved_out[k]) + start * v.row_bytes, pool_off(mem, src),
                              v.batch * n * v.row_bytes, (int32_t)start, (int32_t)end, -1, -1);
        }
        tigris__mem_reset_fast(mem);
    }
    return TIGRIS_EXEC_OK;
}

tigris_exec_error_t tx_run_rows(tx_run_t *r, uint16_t s, uint32_t capacity, uint8_t mode, uint8_t lead_axis) {
    const tigris_plan_t *plan = r->plan;
    const tigris_stage_t *st = &plan->stages[s];
    const uint16_t *in = tigris_stage_inputs(plan, st), *out = tigris_stage_outputs(plan, st);
    const uint16_t *ops = tigris_stage_ops(plan, st);
    rows_t b;
    uint32_t k;
    tigris_exec_error_t err;

    memset(&b, 0, sizeof b);
    b.r = r;
    b.st = st;
    b.s = s;
    b.mode = mode;
    b.axis = lead_axis;
    err = rows_body(&b, capacity);
    if (err != TIGRIS_EXEC_OK) return err;

    tx_clear_tile(r->mem);
    tx_restore_inputs(r, st);
    if (b.aliased) r->mem->tensor_ptrs[in[0]] = NULL;
    for (k = 0; k < st->ops_count; k++) {
        uint16_t t = tigris_op_outputs(plan, &plan->ops[ops[k]])[0];
        if (!is_stage_output(plan, st, t)) r->mem->tensor_ptrs[t] = NULL;
    }
    for (k = 0; k < st->outputs_count; k++) r->mem->tensor_ptrs[out[k]] = r->saved_out[k];
    return TIGRIS_EXEC_OK;
}
