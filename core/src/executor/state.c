/*
 * state.c - variables kept across runs: read from the caller's state buffer
 * before the first stage, written back after the last (docs/runtime-semantics.md R2.11).
 */
#include "executor_internal.h"

#include <string.h>

size_t tigris_state_required(const tigris_plan_t *plan) {
    if (!plan || plan->num_state == 0) return 0;
    return plan->state_bytes;
}

tigris_exec_error_t tigris_state_init(const tigris_plan_t *plan, void *state, size_t state_size) {
    uint32_t i;
    if (!plan) return TIGRIS_EXEC_ERR_NULL;
    if (plan->num_state == 0 || !plan->state_entries) return TIGRIS_EXEC_OK;
    if (!state || state_size < plan->state_bytes) return TIGRIS_EXEC_ERR_STATE;
    for (i = 0; i < plan->num_state; i++) {
        const tigris_state_entry_t *e = &plan->state_entries[i];
        if (e->offset > plan->state_bytes || e->bytes > plan->state_bytes - e->offset) return TIGRIS_EXEC_ERR_STATE;
        memcpy((uint8_t *)state + e->offset, plan->state_section + e->initial, e->bytes);
    }
    return TIGRIS_EXEC_OK;
}

tigris_exec_error_t tx_state_in(tx_run_t *r, uint8_t *state) {
    const tigris_plan_t *plan = r->plan;
    tigris_mem_t *mem = r->mem;
    uint32_t i;
    if (plan->num_state == 0 || !plan->state_entries) return TIGRIS_EXEC_OK;
    for (i = 0; i < plan->num_state; i++) {
        const tigris_state_entry_t *e = &plan->state_entries[i];
        uint8_t *dst;
        if (e->offset > plan->state_bytes || e->bytes > plan->state_bytes - e->offset ||
            e->bytes > plan->tensors[e->input].size_bytes)
            return TIGRIS_EXEC_ERR_STATE;
        if (tx_place_slow(r, e->input) != 0) return TIGRIS_EXEC_ERR_MEM;
        dst = (uint8_t *)mem->tensor_ptrs[e->input];
        memcpy(dst, state + e->offset, e->bytes);
        r->stats->copy_bytes += e->bytes;
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_COPY, TIGRIS_TRACE_POOL_SLOW, e->input, TIGRIS_TRACE_NONE16,
                          (uint32_t)(dst - mem->slow_base), e->offset, e->bytes, -1, -1, -1, -1);
        if (e->output != TIGRIS_NONE16 && e->output < r->lim.tensors) r->last_consumer[e->output] = TX_NEVER;
    }
    return TIGRIS_EXEC_OK;
}

tigris_exec_error_t tx_state_out(tx_run_t *r, uint8_t *state) {
    const tigris_plan_t *plan = r->plan;
    tigris_mem_t *mem = r->mem;
    uint32_t i;
    if (plan->num_state == 0 || !plan->state_entries) return TIGRIS_EXEC_OK;
    for (i = 0; i < plan->num_state; i++) {
        const tigris_state_entry_t *e = &plan->state_entries[i];
        const uint8_t *src;
        if (e->output == TIGRIS_NONE16) continue;
        src = (const uint8_t *)mem->tensor_ptrs[e->output];
        if (!src) return TIGRIS_EXEC_ERR_MEM;
        if (e->bytes > plan->tensors[e->output].size_bytes) return TIGRIS_EXEC_ERR_STATE;
        memcpy(state + e->offset, src, e->bytes);
        r->stats->copy_bytes += e->bytes;
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_COPY, TIGRIS_TRACE_POOL_NONE, e->output, TIGRIS_TRACE_NONE16, e->offset,
                          tigris__mem_in_slow(mem, src) ? (uint32_t)(src - mem->slow_base) : 0, e->bytes, -1, -1,
                          -1, -1);
    }
    return TIGRIS_EXEC_OK;
}
