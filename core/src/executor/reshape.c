/*
 * reshape.c - a reshape moved in row bands without a kernel (docs/runtime-semantics.md R2.7.7).
 * In the view the mode search picks, input rows [a, b) hold exactly the bytes
 * of output rows [a*w_in/w_out, b*w_in/w_out) of each block, so a band is a
 * copy of `blocks` runs at the same offsets on both sides.
 */
#include "executor_internal.h"

#include <string.h>

typedef struct {
    uint32_t blocks, rows, width;
} rs_view_t;

static int own_order(const tigris_tensor_t *t) {
    return t->ndim == 2 || (t->flags & TIGRIS_TENSOR_LINEAR);
}

static int view_at(const tigris_plan_t *plan, uint16_t t, uint32_t ax, rs_view_t *v) {
    const tigris_tensor_t *tt = &plan->tensors[t];
    const int32_t *sh = tigris_tensor_shape(plan, tt);
    uint32_t k;
    if (ax >= tt->ndim) return -1;
    v->blocks = 1;
    v->width = 1;
    for (k = 0; k < tt->ndim; k++) {
        if (sh[k] <= 0) return -1;
        if (k < ax) v->blocks = tx_sat_mul(v->blocks, (uint32_t)sh[k]);
        else if (k > ax) v->width = tx_sat_mul(v->width, (uint32_t)sh[k]);
    }
    v->rows = (uint32_t)sh[ax];
    return 0;
}

static uint32_t first_non_unit(const tigris_plan_t *plan, uint16_t t) {
    const tigris_tensor_t *tt = &plan->tensors[t];
    const int32_t *sh = tigris_tensor_shape(plan, tt);
    uint32_t k;
    for (k = 0; k < tt->ndim; k++)
        if (sh[k] != 1) return k;
    return tt->ndim;
}

/* The first mode whose views line up (0 = axis ndim-2, 1 = axis 1, 2 = first non-unit). */
static int find_view(const tigris_plan_t *plan, uint16_t ti, uint16_t to, rs_view_t *vi, rs_view_t *vo) {
    const tigris_tensor_t *a = &plan->tensors[ti], *b = &plan->tensors[to];
    int mode;
    for (mode = own_order(a) ? 0 : 1; mode <= 2; mode++) {
        uint32_t ai, ao;
        if (mode == 0) {
            ai = (uint32_t)a->ndim - 2;
            ao = (uint32_t)b->ndim - 2;
        } else if (mode == 1) {
            ai = ao = 1;
        } else {
            ai = first_non_unit(plan, ti);
            ao = first_non_unit(plan, to);
        }
        if (view_at(plan, ti, ai, vi) != 0 || view_at(plan, to, ao, vo) != 0) continue;
        if (vi->blocks != vo->blocks || vi->rows < 2) continue;
        if (tx_sat_mul(vi->rows, vi->width) != tx_sat_mul(vo->rows, vo->width)) continue;
        if (tx_sat_mul(vi->rows, vi->width) == UINT32_MAX) continue;
        return 0;
    }
    return -1;
}

static uint32_t pool_off(const tigris_mem_t *mem, const void *p) {
    if (tigris__mem_in_fast(mem, p)) return (uint32_t)((const uint8_t *)p - mem->fast_base);
    if (tigris__mem_in_slow(mem, p)) return (uint32_t)((const uint8_t *)p - mem->slow_base);
    return 0;
}

tigris_exec_error_t tx_run_reshape(tx_run_t *r, uint16_t s) {
    const tigris_plan_t *plan = r->plan;
    tigris_mem_t *mem = r->mem;
    const tigris_stage_t *st = &plan->stages[s];
    tigris_tile_plan_v10_t rec;
    const tigris_tensor_t *a, *b;
    rs_view_t vi, vo;
    uint16_t ti, to;
    uint32_t th, row_bytes, start, tile = 0, blk;
    uint8_t *src, *dst;
    int aliased = 0;

    if (st->ops_count != 1 || st->inputs_count != 1 || st->outputs_count != 1) return TIGRIS_EXEC_ERR_TILE;
    ti = tigris_stage_inputs(plan, st)[0];
    to = tigris_stage_outputs(plan, st)[0];
    a = &plan->tensors[ti];
    b = &plan->tensors[to];
    if (a->size_bytes != b->size_bytes || own_order(a) != own_order(b)) return TIGRIS_EXEC_ERR_TILE;
    if (find_view(plan, ti, to, &vi, &vo) != 0) return TIGRIS_EXEC_ERR_TILE;
    rec = tigris_stage_tiles(plan, st);
    th = rec.tile_height;
    if (!rec.tileable || th == 0 || th > vi.rows || vo.width == 0) return TIGRIS_EXEC_ERR_TILE;
    if ((th * vi.width) % vo.width != 0 || (vi.rows * vi.width) % vo.width != 0) return TIGRIS_EXEC_ERR_TILE;
    if (tx_sat_mul(vi.blocks, vi.rows) == UINT32_MAX || a->size_bytes % (vi.blocks * vi.rows) != 0)
        return TIGRIS_EXEC_ERR_TILE;
    row_bytes = a->size_bytes / (vi.blocks * vi.rows);
    src = (uint8_t *)mem->tensor_ptrs[ti];
    if (!src) return TIGRIS_EXEC_ERR_TILE;

    /* Same placement rule as ROWS: reuse a dying non-model input's slow bytes. */
    if (r->last_consumer[ti] == s && !(a->flags & TIGRIS_TENSOR_MODEL_INPUT) && tigris__mem_in_slow(mem, src)) {
        dst = src;
        aliased = 1;
    } else {
        if (tx_place_slow(r, to) != 0) return TIGRIS_EXEC_ERR_MEM;
        dst = (uint8_t *)mem->tensor_ptrs[to];
    }

    for (start = 0; start < vi.rows; start += th, tile++) {
        uint32_t end = start + th > vi.rows ? vi.rows : start + th, run = (end - start) * row_bytes;
        uint32_t o0 = start * vi.width / vo.width, o1 = end * vi.width / vo.width;
        uint8_t *band;
        r->stats->total_tiles++;
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_TILE_BEGIN, TIGRIS_TRACE_POOL_NONE, TIGRIS_TRACE_NONE16, (uint16_t)tile,
                          0, 0, 0, (int32_t)start, (int32_t)end, -1, -1);
        mem->tensor_ptrs[ti] = src;
        if (tigris__mem_alloc_fast(mem, ti, tx_sat_mul(vi.blocks, run)) != TIGRIS_MEM_OK) {
            mem->tensor_ptrs[ti] = src;
            return TIGRIS_EXEC_ERR_MEM;
        }
        band = (uint8_t *)mem->tensor_ptrs[ti];
        for (blk = 0; blk < vi.blocks; blk++)
            memcpy(band + (size_t)blk * run, src + ((size_t)blk * vi.rows + start) * row_bytes, run);
        r->stats->loads_bytes += vi.blocks * run;
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_LOAD, TIGRIS_TRACE_POOL_FAST, ti, TIGRIS_TRACE_NONE16,
                          pool_off(mem, band), pool_off(mem, src) + start * row_bytes, vi.blocks * run,
                          (int32_t)start, (int32_t)end, -1, -1);
        for (blk = 0; blk < vi.blocks; blk++)
            memcpy(dst + ((size_t)blk * vi.rows + start) * row_bytes, band + (size_t)blk * run, run);
        r->stats->spills_bytes += vi.blocks * run;
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_SPILL, TIGRIS_TRACE_POOL_SLOW, to, TIGRIS_TRACE_NONE16,
                          pool_off(mem, dst) + start * row_bytes, pool_off(mem, band), vi.blocks * run, (int32_t)o0,
                          (int32_t)o1, -1, -1);
        tigris__mem_reset_fast(mem);
    }
    mem->tensor_ptrs[ti] = aliased ? NULL : src;
    mem->tensor_ptrs[to] = dst;
    tx_clear_tile(mem);
    return TIGRIS_EXEC_OK;
}
