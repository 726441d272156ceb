/*
 * by_input.c - a global average pool walked along its input rows into an
 * accumulator (docs/runtime-semantics.md R2.7.3).
 */
#include "executor_internal.h"

#include <string.h>

int tx_stage_input_driven(const tigris_plan_t *plan, const tigris_stage_t *st) {
    const tigris_op_t *op;
    const int32_t *si, *so;
    uint16_t ti, to;
    if (st->ops_count != 1 || st->inputs_count != 1 || st->outputs_count != 1) return 0;
    op = &plan->ops[tigris_stage_ops(plan, st)[0]];
    if (op->op_type != TIGRIS_OP_GLOBAL_AVG || op->num_inputs != 1 || op->num_outputs != 1) return 0;
    ti = tigris_op_inputs(plan, op)[0];
    to = tigris_op_outputs(plan, op)[0];
    if (ti != tigris_stage_inputs(plan, st)[0] || to != tigris_stage_outputs(plan, st)[0]) return 0;
    if (plan->tensors[ti].ndim != 4 || plan->tensors[to].ndim != 4) return 0;
    si = tigris_tensor_shape(plan, &plan->tensors[ti]);
    so = tigris_tensor_shape(plan, &plan->tensors[to]);
    return si[1] > 1 && so[0] == si[0] && so[1] == 1 && so[2] == 1 && so[3] == si[3];
}

/* Largest band of input rows whose packed copy plus the whole (1x1) output
 * fit what the accumulator left of the capacity. */
static uint32_t band_rows(const tigris_plan_t *plan, uint16_t ti, uint16_t to, uint32_t room) {
    uint32_t h = tx_tensor_rows(plan, ti), row = plan->tensors[ti].size_bytes / h;
    uint32_t outb = tx_aligned(plan->tensors[to].size_bytes), lo = 0, hi = h;
    if (outb > room) return 0;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (tx_sat_add(tx_aligned(tx_sat_mul(row, mid)), outb) <= room) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

tigris_exec_error_t tx_run_by_input(tx_run_t *r, uint16_t s, uint32_t capacity) {
    const tigris_plan_t *plan = r->plan;
    tigris_mem_t *mem = r->mem;
    const tigris_stage_t *st = &plan->stages[s];
    uint16_t ti, to, oi;
    const int32_t *si;
    uint32_t acc_bytes, acc_off, b, h, start, saved_reserved = mem->fast_reserved;
    void *slow_out;

    if (!tx_stage_input_driven(plan, st)) return TIGRIS_EXEC_ERR_TILE;
    oi = tigris_stage_ops(plan, st)[0];
    ti = tigris_stage_inputs(plan, st)[0];
    to = tigris_stage_outputs(plan, st)[0];
    si = tigris_tensor_shape(plan, &plan->tensors[ti]);
    h = (uint32_t)si[1];

    if (tx_place_slow(r, to) != 0) return TIGRIS_EXEC_ERR_MEM;
    slow_out = mem->tensor_ptrs[to];

    /* int32 sums (int8) and float sums are both 4 bytes per (n, c). */
    acc_bytes = tx_aligned(tx_sat_mul(tx_sat_mul((uint32_t)si[0], (uint32_t)si[3]), 4));
    if (acc_bytes > mem->fast_size - mem->fast_used || acc_bytes > capacity) return TIGRIS_EXEC_ERR_MEM;
    if (tigris__mem_bump_fast(mem, acc_bytes, &acc_off) != TIGRIS_MEM_OK) return TIGRIS_EXEC_ERR_MEM;
    mem->fast_reserved = mem->fast_used;
    capacity -= acc_bytes;

    b = band_rows(plan, ti, to, capacity);
    if (b == 0) {
        mem->fast_reserved = saved_reserved;
        tigris__mem_reset_fast(mem);
        /* Not one input row fits beside the accumulator: arena exhaustion. */
        return TIGRIS_EXEC_ERR_MEM;
    }

    r->saved_in[0] = mem->tensor_ptrs[ti];
    for (start = 0; start < h; start += b) {
        uint32_t end = start + b > h ? h : start + b;
        tigris_tile_ctx_t *tc = &mem->tile;
        tigris_exec_error_t err;
        r->stats->total_tiles++;
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_TILE_BEGIN, TIGRIS_TRACE_POOL_NONE, TIGRIS_TRACE_NONE16,
                          (uint16_t)(start / b), 0, 0, 0, (int32_t)start, (int32_t)end, -1, -1);
        memset(tc, 0, sizeof *tc);
        tc->active = 1;
        tc->in_h = (int32_t)(end - start);
        tc->out_h = 1;
        tc->in_w = si[2];
        tc->out_w = 1;
        tc->in_row_origin = (int32_t)start;
        tc->reduce_first = start == 0;
        tc->reduce_last = end == h;
        tc->reduce_acc = mem->fast_base + acc_off;
        mem->tensor_ptrs[ti] = r->saved_in[0];
        if (tigris__mem_load_tile(mem, plan, ti, (int32_t)start, (int32_t)end) != TIGRIS_MEM_OK)
            return TIGRIS_EXEC_ERR_MEM;
        mem->tensor_ptrs[to] = NULL;
        if (tigris__mem_alloc_fast(mem, to, plan->tensors[to].size_bytes) != TIGRIS_MEM_OK)
            return TIGRIS_EXEC_ERR_MEM;
        err = tx_call_op(r, oi);
        if (err != TIGRIS_EXEC_OK) return err;
        if (end == h && tigris__mem_spill_tile(mem, plan, to, (uint8_t *)slow_out, 0, 1) != TIGRIS_MEM_OK)
            return TIGRIS_EXEC_ERR_MEM;
        tigris__mem_reset_fast(mem);
    }
    tx_clear_tile(mem);
    mem->tensor_ptrs[ti] = r->saved_in[0];
    mem->tensor_ptrs[to] = slow_out;
    mem->fast_reserved = saved_reserved;
    tigris__mem_reset_fast(mem);
    return TIGRIS_EXEC_OK;
}
