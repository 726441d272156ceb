/*
 * transpose.c - a layout conversion moved in bands (docs/runtime-semantics.md R2.7.4). The
 * permutation swaps two adjacent axis groups, so the tensor is a stack of
 * `batch` matrices of rows x cols items of `elem` bytes each; a band is a run
 * of rows or of columns of every matrix.
 *
 * Kernel contract on a band (mem->tile, transposed_tile = 1): the input
 * buffer holds [transpose_outer][in_h][in_w] items, the output buffer gets
 * [transpose_outer][out_h][out_w] = [outer][in_w][in_h]; transpose_block is
 * the number of elements that travel together as one item.
 */
#include "executor_internal.h"

#include <string.h>

typedef struct {
    uint32_t batch, rows, cols, block, elem; /* elem: bytes of one item */
} tr_geom_t;

static uint32_t prod(const int32_t *sh, uint32_t a, uint32_t b) {
    uint32_t p = 1, k;
    for (k = a; k < b; k++) p = sh[k] > 0 ? tx_sat_mul(p, (uint32_t)sh[k]) : 0;
    return p;
}

static int geometry(const tigris_plan_t *plan, const tigris_stage_t *st, tr_geom_t *g) {
    const tigris_op_t *op;
    uint16_t oi, ti, to;
    const uint8_t *perm;
    const int32_t *sh;
    uint8_t len = 0;
    uint32_t r, s, a, b, j, n;
    if (st->ops_count != 1 || st->inputs_count != 1 || st->outputs_count != 1 || st->chain_len >= 2) return -1;
    oi = tigris_stage_ops(plan, st)[0];
    op = &plan->ops[oi];
    if (op->op_type != TIGRIS_OP_TRANSPOSE || op->num_inputs != 1 || op->num_outputs != 1) return -1;
    ti = tigris_op_inputs(plan, op)[0];
    to = tigris_op_outputs(plan, op)[0];
    if (ti != tigris_stage_inputs(plan, st)[0] || to != tigris_stage_outputs(plan, st)[0]) return -1;
    r = plan->tensors[ti].ndim;
    if (plan->tensors[to].ndim != r || plan->tensors[ti].size_bytes != plan->tensors[to].size_bytes) return -1;
    perm = tigris_op_attribute_data(plan, oi, TIGRIS_ATTR_TRANSPOSE_PERM, &len);
    if (!perm || len != r) return -1;
    /* [prefix][A][B][suffix] -> [prefix][B][A][suffix] */
    for (s = 0; s < r && perm[s] == s; s++) {}
    if (s >= r || perm[s] <= s || perm[s] >= r) return -1;
    a = perm[s] - s;
    for (b = 0; s + b < r && perm[s + b] == s + a + b; b++) {}
    if (b == 0 || s + a + b > r) return -1;
    for (j = 0; j < a; j++)
        if (perm[s + b + j] != s + j) return -1;
    for (j = s + a + b; j < r; j++)
        if (perm[j] != j) return -1;
    sh = tigris_tensor_shape(plan, &plan->tensors[ti]);
    g->batch = prod(sh, 0, s);
    g->rows = prod(sh, s, s + a);
    g->cols = prod(sh, s + a, s + a + b);
    g->block = prod(sh, s + a + b, r);
    n = tx_sat_mul(tx_sat_mul(g->batch, g->rows), g->cols);
    if (n == 0 || n == UINT32_MAX || g->block == 0 || plan->tensors[ti].size_bytes % n != 0) return -1;
    g->elem = plan->tensors[ti].size_bytes / n;
    return 0;
}

int tx_stage_transposed(const tigris_plan_t *plan, const tigris_stage_t *st, uint16_t s) {
    tr_geom_t g;
    (void)s;
    return geometry(plan, st, &g) == 0;
}

static uint32_t pool_off(const tigris_mem_t *mem, const void *p) {
    if (tigris__mem_in_fast(mem, p)) return (uint32_t)((const uint8_t *)p - mem->fast_base);
    if (tigris__mem_in_slow(mem, p)) return (uint32_t)((const uint8_t *)p - mem->slow_base);
    return 0;
}

tigris_exec_error_t tx_run_transpose(tx_run_t *r, uint16_t s, uint32_t capacity) {
    const tigris_plan_t *plan = r->plan;
    tigris_mem_t *mem = r->mem;
    const tigris_stage_t *st = &plan->stages[s];
    tr_geom_t g;
    uint16_t oi, ti, to;
    uint32_t extent, other, lo, hi, band, start, bt, k;
    int on_cols;
    uint8_t *src, *dst;
    tigris_exec_error_t err;

    if (geometry(plan, st, &g) != 0) return TIGRIS_EXEC_ERR_TILE;
    oi = tigris_stage_ops(plan, st)[0];
    ti = tigris_stage_inputs(plan, st)[0];
    to = tigris_stage_outputs(plan, st)[0];
    if (r->schema >= 9 && st->tile_plan_idx != TIGRIS_NONE16 && st->tile_plan_idx < plan->header->num_tile_plans)
        on_cols = (tigris_stage_tiles(plan, st).flags & TIGRIS_TILE_BAND_ON_COLUMNS) != 0;
    else
        on_cols = g.cols >= g.rows;
    extent = on_cols ? g.cols : g.rows;
    other = on_cols ? g.rows : g.cols;

    src = (uint8_t *)mem->tensor_ptrs[ti];
    if (!src) return TIGRIS_EXEC_ERR_TILE;
    if (tx_place_slow(r, to) != 0) return TIGRIS_EXEC_ERR_MEM;
    dst = (uint8_t *)mem->tensor_ptrs[to];

    lo = 0;
    hi = extent;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        uint32_t one = tx_aligned(tx_sat_mul(tx_sat_mul(g.batch, other), tx_sat_mul(mid, g.elem)));
        if (tx_sat_add(one, one) <= capacity) lo = mid;
        else hi = mid - 1;
    }
    /* Not even a band of one fits: arena exhaustion, not a tiling fault. */
    if (lo == 0) return TIGRIS_EXEC_ERR_MEM;
    band = lo;

    for (start = 0; start < extent; start += band) {
        uint32_t end = start + band > extent ? extent : start + band, n = end - start;
        uint32_t bytes = g.batch * other * n * g.elem;
        tigris_tile_ctx_t *tc = &mem->tile;
        uint8_t *fin, *fout;
        r->stats->total_tiles++;
        if (on_cols)
            TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_TILE_BEGIN, TIGRIS_TRACE_POOL_NONE, TIGRIS_TRACE_NONE16,
                              (uint16_t)(start / band), 0, 0, 0, 0, (int32_t)g.rows, (int32_t)start, (int32_t)end);
        else
            TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_TILE_BEGIN, TIGRIS_TRACE_POOL_NONE, TIGRIS_TRACE_NONE16,
                              (uint16_t)(start / band), 0, 0, 0, (int32_t)start, (int32_t)end, 0, (int32_t)g.cols);
        memset(tc, 0, sizeof *tc);
        tc->active = 1;
        tc->transposed_tile = 1;
        tc->transpose_outer = (int32_t)g.batch;
        tc->transpose_block = (int32_t)g.block;
        tc->in_h = (int32_t)(on_cols ? g.rows : n);
        tc->in_w = (int32_t)(on_cols ? n : g.cols);
        tc->out_h = tc->in_w;
        tc->out_w = tc->in_h;
        tc->in_row_origin = on_cols ? 0 : (int32_t)start;

        mem->tensor_ptrs[ti] = src;
        if (tigris__mem_alloc_fast(mem, ti, bytes) != TIGRIS_MEM_OK) return TIGRIS_EXEC_ERR_MEM;
        fin = (uint8_t *)mem->tensor_ptrs[ti];
        for (bt = 0; bt < g.batch; bt++) {
            const uint8_t *m = src + (size_t)bt * g.rows * g.cols * g.elem;
            uint8_t *p = fin + (size_t)bt * other * n * g.elem;
            if (on_cols) {
                for (k = 0; k < g.rows; k++)
                    memcpy(p + (size_t)k * n * g.elem, m + ((size_t)k * g.cols + start) * g.elem, n * g.elem);
            } else {
                memcpy(p, m + (size_t)start * g.cols * g.elem, n * g.cols * g.elem);
            }
        }
        r->stats->loads_bytes += bytes;
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_LOAD, TIGRIS_TRACE_POOL_FAST, ti, TIGRIS_TRACE_NONE16, pool_off(mem, fin),
                          pool_off(mem, src) + (on_cols ? start : start * g.cols) * g.elem, bytes,
                          on_cols ? 0 : (int32_t)start, on_cols ? (int32_t)g.rows : (int32_t)end,
                          on_cols ? (int32_t)start : 0, on_cols ? (int32_t)end : (int32_t)g.cols);

        if (tigris__mem_alloc_fast(mem, to, bytes) != TIGRIS_MEM_OK) return TIGRIS_EXEC_ERR_MEM;
        fout = (uint8_t *)mem->tensor_ptrs[to];
        err = tx_call_op(r, oi);
        if (err != TIGRIS_EXEC_OK) return err;

        /* The output is [batch][cols][rows]: a column band is contiguous per
         * batch, a row band is a strided run in every output row. */
        for (bt = 0; bt < g.batch; bt++) {
            uint8_t *m = dst + (size_t)bt * g.rows * g.cols * g.elem;
            const uint8_t *p = fout + (size_t)bt * other * n * g.elem;
            if (on_cols) {
                memcpy(m + (size_t)start * g.rows * g.elem, p, n * g.rows * g.elem);
            } else {
                for (k = 0; k < g.cols; k++)
                    memcpy(m + ((size_t)k * g.rows + start) * g.elem, p + (size_t)k * n * g.elem, n * g.elem);
            }
        }
        r->stats->spills_bytes += bytes;
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_SPILL, TIGRIS_TRACE_POOL_SLOW, to, TIGRIS_TRACE_NONE16,
                          pool_off(mem, dst) + (on_cols ? start * g.rows : start) * g.elem, pool_off(mem, fout), bytes,
                          on_cols ? (int32_t)start : 0, on_cols ? (int32_t)end : (int32_t)g.cols,
                          on_cols ? 0 : (int32_t)start, on_cols ? (int32_t)g.rows : (int32_t)end);
        tigris__mem_reset_fast(mem);
    }
    tx_clear_tile(mem);
    mem->tensor_ptrs[ti] = src;
    mem->tensor_ptrs[to] = dst;
    return TIGRIS_EXEC_OK;
}
