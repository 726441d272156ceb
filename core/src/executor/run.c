/*
 * run.c - executor entry points: argument checks, workspace carve-up, the
 * up-front arena check, run prologue and epilogue (docs/runtime-semantics.md R2.1, R2.2, R2.3).
 */
#include "executor_internal.h"

#include <string.h>

#define TX_ALIGN_OF_PTR ((size_t)_Alignof(void *))
#define TX_ALIGN_OF_I32 ((size_t)_Alignof(int32_t))
#define TX_ALIGN_OF_U16 ((size_t)_Alignof(uint16_t))

/* Limits the plan itself needs; 0 when the chain table is inconsistent
 * (a chain running past the stage table). */
int tx_plan_limits(const tigris_plan_t *plan, tx_limits_t *out) {
    return tigris__workspace_limits(plan, out);
}

/* The formula shared with tigris_executor_workspace_required(); the limits
 * are within TIGRIS_MAX_* here, so size_t does not overflow. */
size_t tx_workspace_bytes(const tx_limits_t *lim) {
    return TIGRIS_WORKSPACE_BYTES_((size_t)lim->inputs, (size_t)lim->outputs, (size_t)lim->chain,
                                   (size_t)lim->spatial, (size_t)lim->tensors);
}

static uint8_t *align_ptr(uint8_t *p, size_t a) {
    uintptr_t v = (uintptr_t)p;
    return p + ((a - (v & (a - 1))) & (a - 1));
}

/* Carve the caller's buffer into the run's arrays, in the order the size
 * formula counts them (pointers, int32, uint16). */
static void carve(tx_run_t *r, void *ws) {
    uint8_t *p = align_ptr((uint8_t *)ws, TX_ALIGN_OF_PTR);
    void **pp = (void **)(void *)p;
    int32_t *ip;
    uint16_t *up;
    r->saved_in = pp;
    pp += r->lim.inputs;
    r->saved_out = pp;
    pp += r->lim.outputs;
    r->chain_blob = (const uint8_t **)pp;
    pp += r->lim.chain;
    r->chain_aux = pp;
    pp += r->lim.chain;
    ip = (int32_t *)(void *)align_ptr((uint8_t *)pp, TX_ALIGN_OF_I32);
    r->chain_i32 = ip;
    ip += (14u + 13u * r->lim.spatial) * r->lim.chain;
    r->row0 = ip;
    ip += r->lim.tensors;
    r->row1 = ip;
    ip += r->lim.tensors;
    up = (uint16_t *)(void *)align_ptr((uint8_t *)ip, TX_ALIGN_OF_U16);
    r->last_consumer = up;
    up += r->lim.tensors;
    r->last_use = up;
    up += r->lim.tensors;
    r->misc = up;
    up += 4;
    r->frames = up;
}

/* Fill level the up-front check measures from. For inputs read in place it
 * is the start of the weight room left directly below the lowest input,
 * provided that room is free; otherwise the fill level on entry. */
static uint32_t run_floor(const tigris_plan_t *plan, const tigris_mem_t *mem, uint32_t *weights_at) {
    uint32_t i, lowest = UINT32_MAX, room;
    *weights_at = UINT32_MAX;
    if (!tigris__plan_reads_inputs_in_place(plan) || plan->header->num_model_inputs == 0) return mem->fast_used;
    for (i = 0; i < plan->header->num_model_inputs; i++) {
        uint16_t t = plan->model_inputs[i];
        const uint8_t *p = (const uint8_t *)mem->tensor_ptrs[t];
        uint32_t off;
        if (!p || !tigris__mem_in_fast(mem, p)) return mem->fast_used;
        off = (uint32_t)(p - mem->fast_base);
        if (off < lowest) lowest = off;
    }
    room = tigris_weight_decompression_overhead(plan);
    if (room == UINT32_MAX || lowest < room || lowest - room < mem->fast_reserved) return mem->fast_used;
    /* Nothing else may live in the room. */
    for (i = 0; i < mem->num_tensors; i++) {
        const uint8_t *p = (const uint8_t *)mem->tensor_ptrs[i];
        if (p && p >= mem->fast_base + (lowest - room) && p < mem->fast_base + lowest) return mem->fast_used;
    }
    *weights_at = lowest - room;
    return lowest - room;
}

static tigris_exec_error_t run_core(const tigris_plan_t *plan, tigris_mem_t *mem, tigris_kernel_fn kernel,
                                    void *user_ctx, tigris_exec_stats_t *stats, void *workspace,
                                    size_t workspace_size, void *state, size_t state_size) {
    tx_run_t r;
    tigris_exec_stats_t local_stats;
    tigris_exec_error_t err;
    uint32_t floor, weights_at, t;

    if (!plan || !mem || !kernel) return TIGRIS_EXEC_ERR_NULL;
    if (!plan->header) return TIGRIS_EXEC_ERR_NULL;
    if (!workspace) return TIGRIS_EXEC_ERR_WORKSPACE;
    if (plan->header->num_stages == 0 || !plan->stages) return TIGRIS_EXEC_ERR_NO_STAGES;

    memset(&r, 0, sizeof r);
    if (!tx_plan_limits(plan, &r.lim)) return TIGRIS_EXEC_ERR_WORKSPACE;
    if (r.lim.tensors > TIGRIS_MAX_TENSORS || r.lim.inputs > TIGRIS_MAX_STAGE_INPUTS ||
        r.lim.outputs > TIGRIS_MAX_STAGE_OUTPUTS || r.lim.chain > TIGRIS_MAX_CHAIN_STAGES ||
        r.lim.spatial > TIGRIS_MAX_SPATIAL_OPS_PER_STAGE)
        return TIGRIS_EXEC_ERR_WORKSPACE;
    if (workspace_size < tx_workspace_bytes(&r.lim)) return TIGRIS_EXEC_ERR_WORKSPACE;
    if (mem->fast_used > mem->fast_size || mem->fast_reserved > mem->fast_used) return TIGRIS_EXEC_ERR_MEM;
    if (!mem->tensor_ptrs || mem->num_tensors < plan->header->num_tensors) return TIGRIS_EXEC_ERR_MEM;
    if (plan->num_state > 0 && (!state || state_size < plan->state_bytes)) return TIGRIS_EXEC_ERR_STATE;

    floor = run_floor(plan, mem, &weights_at);
    if (plan->header->version >= 11) {
        uint32_t need = tigris_fast_arena_required(plan);
        if (floor > mem->fast_size || mem->fast_size - floor < need) return TIGRIS_EXEC_ERR_MEM;
    }

    r.plan = plan;
    r.wplan = *plan;
    r.mem = mem;
    r.kernel = kernel;
    r.user_ctx = user_ctx;
    r.stats = stats ? stats : &local_stats;
    r.schema = plan->header->version;
    carve(&r, workspace);
    r.inplace_at = weights_at;

    /* Prologue (docs/runtime-semantics.md R2.2). */
    r.u0 = mem->fast_used;
    r.r0 = mem->fast_reserved;
    mem->fast_reserved = r.u0;
    memset(r.stats, 0, sizeof *r.stats);
    mem->stats = r.stats;
    mem->fast_peak = mem->fast_used;
    mem->slow_peak = mem->slow_used;
    TIGRIS_TRACE_SET_STAGE(mem, TIGRIS_TRACE_NONE16);

    for (t = 0; t < r.lim.tensors; t++) {
        r.last_consumer[t] = 0;
        r.row0[t] = -1;
        r.row1[t] = -1;
    }
    {
        uint32_t s;
        for (s = 0; s < plan->header->num_stages; s++) {
            const tigris_stage_t *st = &plan->stages[s];
            const uint16_t *in = tigris_stage_inputs(plan, st);
            uint32_t k;
            for (k = 0; k < st->inputs_count; k++)
                if (in[k] < r.lim.tensors) r.last_consumer[in[k]] = (uint16_t)s;
        }
        for (s = 0; s < plan->header->num_model_outputs; s++)
            if (plan->model_outputs[s] < r.lim.tensors) r.last_consumer[plan->model_outputs[s]] = TX_NEVER;
        /* A subgraph's results are released by the control step that
         * copies them out, never by the between-stage sweep. */
        for (s = 1; plan->subgraphs && s < plan->num_subgraphs; s++) {
            const tigris_subgraph_t *sg = &plan->subgraphs[s];
            uint32_t k;
            for (k = 0; k < sg->outputs_count; k++) {
                uint16_t g = plan->index_pool[sg->outputs_off + k];
                if (g < r.lim.tensors) r.last_consumer[g] = TX_NEVER;
            }
        }
    }

    err = tx_state_in(&r, (uint8_t *)state);
    if (err == TIGRIS_EXEC_OK) {
        r.depth = 0;
        r.graph_first = 0;
        r.graph_count = plan->header->num_stages;
        if (plan->num_subgraphs > 0 && plan->subgraphs) {
            r.graph_first = plan->subgraphs[0].first_stage;
            r.graph_count = plan->subgraphs[0].num_stages;
        }
        err = tx_stage_loop(&r);
    }
    if (err == TIGRIS_EXEC_OK) err = tx_state_out(&r, (uint8_t *)state);

    /* Epilogue (docs/runtime-semantics.md R2.3), on every exit after the prologue. */
    r.stats->slow_peak = mem->slow_peak;
    mem->stats = NULL;
    mem->fast_reserved = r.u0;
    tigris__mem_reset_fast(mem);
    mem->fast_reserved = r.r0;
    TIGRIS_TRACE_SET_STAGE(mem, TIGRIS_TRACE_NONE16);
    tx_clear_tile(mem);
    return err;
}

size_t tigris_executor_workspace_size(void) {
    return sizeof(tigris_executor_workspace_t);
}

tigris_exec_error_t tigris_run_with_state(const tigris_plan_t *plan, tigris_mem_t *mem, tigris_kernel_fn kernel,
                                          void *user_ctx, tigris_exec_stats_t *stats, void *workspace,
                                          size_t workspace_size, void *state, size_t state_size) {
    return run_core(plan, mem, kernel, user_ctx, stats, workspace, workspace_size, state, state_size);
}

tigris_exec_error_t tigris_run_with_workspace_buffer(const tigris_plan_t *plan, tigris_mem_t *mem,
                                                     tigris_kernel_fn kernel, void *user_ctx,
                                                     tigris_exec_stats_t *stats, void *workspace,
                                                     size_t workspace_size) {
    return run_core(plan, mem, kernel, user_ctx, stats, workspace, workspace_size, NULL, 0);
}

tigris_exec_error_t tigris_run_with_workspace(const tigris_plan_t *plan, tigris_mem_t *mem,
                                              tigris_kernel_fn kernel, void *user_ctx,
                                              tigris_exec_stats_t *stats,
                                              tigris_executor_workspace_t *workspace) {
    return run_core(plan, mem, kernel, user_ctx, stats, workspace, workspace ? sizeof *workspace : 0, NULL, 0);
}

#if TIGRIS_ENABLE_DEFAULT_EXECUTOR_WORKSPACE
/* The one global the core keeps: tigris_run() predates caller-owned
 * workspaces and has nowhere else to put its arrays. */
static tigris_executor_workspace_t tx_compat_workspace;
#endif

tigris_exec_error_t tigris_run(const tigris_plan_t *plan, tigris_mem_t *mem, tigris_kernel_fn kernel,
                               void *user_ctx, tigris_exec_stats_t *stats) {
#if TIGRIS_ENABLE_DEFAULT_EXECUTOR_WORKSPACE
    return run_core(plan, mem, kernel, user_ctx, stats, &tx_compat_workspace, sizeof tx_compat_workspace, NULL, 0);
#else
    (void)plan;
    (void)mem;
    (void)kernel;
    (void)user_ctx;
    (void)stats;
    return TIGRIS_EXEC_ERR_WORKSPACE;
#endif
}

const char *tigris_exec_error_str(tigris_exec_error_t err) {
    switch (err) {
    case TIGRIS_EXEC_OK: return "ok";
    case TIGRIS_EXEC_ERR_NULL: return "null argument";
    case TIGRIS_EXEC_ERR_MEM: return "arena too small for the plan";
    case TIGRIS_EXEC_ERR_KERNEL: return "kernel error";
    case TIGRIS_EXEC_ERR_NO_STAGES: return "plan has no stages";
    case TIGRIS_EXEC_ERR_TILE: return "tiled execution error";
    case TIGRIS_EXEC_ERR_WORKSPACE: return "executor workspace unavailable or too small";
    case TIGRIS_EXEC_ERR_STATE: return "state buffer missing or too small";
    default: return "unknown executor error";
    }
}
