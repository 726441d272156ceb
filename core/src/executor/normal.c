/*
 * normal.c - a stage run whole: inputs loaded into fast, ops in order with
 * outputs bump-allocated (overflowing to slow when fast is exhausted), stage
 * outputs spilled (docs/runtime-semantics.md R2.5).
 */
#include "executor_internal.h"

/* Output allocation ladder of docs/runtime-semantics.md R1.9: fast, fast after compaction, slow. */
static tigris_exec_error_t alloc_output(tx_run_t *r, uint16_t t) {
    tigris_mem_t *mem = r->mem;
    uint32_t size = r->plan->tensors[t].size_bytes;
    if (tigris__mem_alloc_fast(mem, t, size) == TIGRIS_MEM_OK) return TIGRIS_EXEC_OK;
    tigris__mem_compact_fast(mem, r->plan);
    if (tigris__mem_alloc_fast(mem, t, size) == TIGRIS_MEM_OK) return TIGRIS_EXEC_OK;
    if (tigris_mem_alloc_slow(mem, t, size) != TIGRIS_MEM_OK) return TIGRIS_EXEC_ERR_MEM;
    r->stats->slow_overflow_count++;
    r->stats->slow_overflow_bytes += size;
    return TIGRIS_EXEC_OK;
}

/* last_use per tensor the stage's ops read, with in-place reshape groups
 * sharing the group's latest use. */
static void compute_last_use(tx_run_t *r, const tigris_stage_t *st) {
    const tigris_plan_t *plan = r->plan;
    const uint16_t *ops = tigris_stage_ops(plan, st), *out = tigris_stage_outputs(plan, st);
    uint16_t *lu = r->last_use;
    uint32_t p, k;
    for (p = 0; p < st->ops_count; p++) {
        const tigris_op_t *op = &plan->ops[ops[p]];
        const uint16_t *oi = tigris_op_inputs(plan, op), *oo = tigris_op_outputs(plan, op);
        for (k = 0; k < op->num_inputs; k++) lu[oi[k]] = 0;
        for (k = 0; k < op->num_outputs; k++) lu[oo[k]] = 0;
    }
    for (p = 0; p < st->ops_count; p++) {
        const tigris_op_t *op = &plan->ops[ops[p]];
        const uint16_t *oi = tigris_op_inputs(plan, op);
        for (k = 0; k < op->num_inputs; k++) lu[oi[k]] = (uint16_t)p;
    }
    for (k = 0; k < st->outputs_count; k++) lu[out[k]] = TX_NEVER;
    for (p = st->ops_count; p-- > 0;) {
        const tigris_op_t *op = &plan->ops[ops[p]];
        if (tx_pure_reinterpret(plan, op)) {
            uint16_t a = tigris_op_inputs(plan, op)[0], b = tigris_op_outputs(plan, op)[0];
            uint16_t v = (lu[a] == TX_NEVER || lu[b] == TX_NEVER) ? TX_NEVER : (lu[a] > lu[b] ? lu[a] : lu[b]);
            lu[a] = v;
            lu[b] = v;
        }
    }
}

static void clear_alias_group(tx_run_t *r, const tigris_stage_t *st, void *p) {
    const tigris_plan_t *plan = r->plan;
    const uint16_t *ops = tigris_stage_ops(plan, st);
    uint32_t q, k;
    for (q = 0; q < st->ops_count; q++) {
        const tigris_op_t *op = &plan->ops[ops[q]];
        const uint16_t *oo = tigris_op_outputs(plan, op);
        for (k = 0; k < op->num_outputs; k++)
            if (r->mem->tensor_ptrs[oo[k]] == p) r->mem->tensor_ptrs[oo[k]] = NULL;
    }
}

static int is_stage_output(const tigris_plan_t *plan, const tigris_stage_t *st, uint16_t t) {
    const uint16_t *out = tigris_stage_outputs(plan, st);
    uint32_t k;
    for (k = 0; k < st->outputs_count; k++)
        if (out[k] == t) return 1;
    return 0;
}

static tigris_exec_error_t body(tx_run_t *r, uint16_t s) {
    const tigris_plan_t *plan = r->plan;
    const tigris_stage_t *st = &plan->stages[s];
    tigris_mem_t *mem = r->mem;
    const uint16_t *in = tigris_stage_inputs(plan, st), *out = tigris_stage_outputs(plan, st);
    const uint16_t *ops = tigris_stage_ops(plan, st);
    uint32_t k, p;
    tigris_exec_error_t err;

    compute_last_use(r, st);

    for (k = 0; k < st->inputs_count; k++) {
        uint16_t t = in[k];
        void *prev = mem->tensor_ptrs[t];
        r->saved_in[k] = prev;
        if (prev && tigris__mem_in_fast(mem, prev)) continue; /* already where kernels read it */
        if (tigris__mem_load(mem, t, plan->tensors[t].size_bytes) != TIGRIS_MEM_OK) return TIGRIS_EXEC_ERR_MEM;
    }

    for (p = 0; p < st->ops_count; p++) {
        uint16_t oi = ops[p];
        const tigris_op_t *op = &plan->ops[oi];
        const uint16_t *ins = tigris_op_inputs(plan, op), *outs = tigris_op_outputs(plan, op);
        if (tx_pure_reinterpret(plan, op) && !mem->tensor_ptrs[outs[0]] && mem->tensor_ptrs[ins[0]]) {
            mem->tensor_ptrs[outs[0]] = mem->tensor_ptrs[ins[0]];
        } else {
            for (k = 0; k < op->num_outputs; k++) {
                if (mem->tensor_ptrs[outs[k]]) continue;
                err = alloc_output(r, outs[k]);
                if (err != TIGRIS_EXEC_OK) return err;
            }
            err = tx_call_op(r, oi);
            if (err != TIGRIS_EXEC_OK) return err;
        }
        for (k = 0; k < op->num_inputs; k++) {
            void *ptr = mem->tensor_ptrs[ins[k]];
            if (r->last_use[ins[k]] != p || !ptr) continue;
            mem->tensor_ptrs[ins[k]] = NULL;
            clear_alias_group(r, st, ptr);
        }
    }

    if (r->inplace_at == UINT32_MAX) {
        for (k = 0; k < st->outputs_count; k++) {
            void *ptr = mem->tensor_ptrs[out[k]];
            if (ptr && tigris__mem_in_slow(mem, ptr) &&
                (uint32_t)((uint8_t *)ptr - mem->slow_base) < mem->slow_used)
                continue;
            if (tigris__mem_spill(mem, out[k], plan->tensors[out[k]].size_bytes) != TIGRIS_MEM_OK)
                return TIGRIS_EXEC_ERR_MEM;
        }
    }

    /* Nothing this stage left above the reserve survives the reset; only
     * its inputs and op outputs can be there. */
    for (p = 0; p < st->ops_count; p++) {
        const tigris_op_t *op = &plan->ops[ops[p]];
        const uint16_t *outs = tigris_op_outputs(plan, op);
        for (k = 0; k < op->num_outputs; k++) {
            uint8_t *ptr = (uint8_t *)mem->tensor_ptrs[outs[k]];
            if (!ptr || !tigris__mem_in_fast(mem, ptr)) continue;
            if ((uint32_t)(ptr - mem->fast_base) < mem->fast_reserved) continue;
            if (r->inplace_at != UINT32_MAX && is_stage_output(plan, st, outs[k])) continue;
            mem->tensor_ptrs[outs[k]] = NULL;
        }
    }
    tigris__mem_reset_fast(mem);
    tx_restore_inputs(r, st);
    return TIGRIS_EXEC_OK;
}

tigris_exec_error_t tx_run_normal(tx_run_t *r, uint16_t s) {
    tigris_mem_t *mem = r->mem;
    uint32_t saved_size = mem->fast_size;
    uint32_t cap = tx_stage_limit(r, s, mem->fast_size - mem->fast_reserved);
    tigris_exec_error_t err;
    mem->fast_size = mem->fast_reserved + cap;
    err = body(r, s);
    mem->fast_size = saved_size;
    return err;
}
