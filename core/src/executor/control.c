/*
 * control.c - If and While: operands copied into a subgraph, the subgraph's
 * stages run by the ordinary stage loop, results copied back (docs/runtime-semantics.md R2.10).
 * Nesting is a stack of frames in the workspace, so no recursion.
 */
#include "executor_internal.h"

#include <string.h>

int tx_is_control_stage(const tigris_plan_t *plan, const tigris_stage_t *st) {
    uint8_t ty;
    if (st->ops_count != 1) return 0;
    ty = plan->ops[tigris_stage_ops(plan, st)[0]].op_type;
    return ty == TIGRIS_OP_IF || ty == TIGRIS_OP_WHILE;
}

static uint16_t rd16(const uint8_t *p) {
    return (uint16_t)(p[0] | (p[1] << 8));
}

/* The two graph ids of the op's SUBGRAPHS attribute. */
static int graph_ids(const tigris_plan_t *plan, uint16_t op_index, uint16_t *g0, uint16_t *g1) {
    uint8_t len = 0;
    const uint8_t *d = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_SUBGRAPHS, &len);
    if (!d || len < 4 || !plan->subgraphs) return -1;
    *g0 = rd16(d);
    *g1 = rd16(d + 2);
    if (*g0 == 0 || *g1 == 0 || *g0 >= plan->num_subgraphs || *g1 >= plan->num_subgraphs) return -1;
    return 0;
}

static uint32_t slow_off(const tigris_mem_t *mem, const void *p) {
    return tigris__mem_in_slow(mem, p) ? (uint32_t)((const uint8_t *)p - mem->slow_base) : 0;
}

/* Copy size_bytes of dst from src into a slow buffer for dst (allocated
 * when dst is unplaced). */
static tigris_exec_error_t copy_tensor(tx_run_t *r, uint16_t dst, const void *src, uint32_t src_off,
                                       uint32_t src_bytes) {
    tigris_mem_t *mem = r->mem;
    uint32_t n = r->plan->tensors[dst].size_bytes;
    if (!src) return TIGRIS_EXEC_ERR_MEM;
    if (src_bytes < n) return TIGRIS_EXEC_ERR_KERNEL;
    if (!mem->tensor_ptrs[dst] && tx_place_slow(r, dst) != 0) return TIGRIS_EXEC_ERR_MEM;
    memmove(mem->tensor_ptrs[dst], src, n);
    r->stats->copy_bytes += n;
    TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_COPY, TIGRIS_TRACE_POOL_SLOW, dst, TIGRIS_TRACE_NONE16,
                      slow_off(mem, mem->tensor_ptrs[dst]), src_off, n, -1, -1, -1, -1);
    (void)src_off;
    return TIGRIS_EXEC_OK;
}

static tigris_exec_error_t copy_from_tensor(tx_run_t *r, uint16_t dst, uint16_t src) {
    void *p = r->mem->tensor_ptrs[src];
    if (!p) return TIGRIS_EXEC_ERR_MEM;
    return copy_tensor(r, dst, p, slow_off(r->mem, p), r->plan->tensors[src].size_bytes);
}

/* Graph g's inputs from src[0..n). Inputs are placed fresh each entry. */
static tigris_exec_error_t copy_into(tx_run_t *r, uint16_t g, const uint16_t *src, uint32_t n) {
    const tigris_plan_t *plan = r->plan;
    const tigris_subgraph_t *sg = &plan->subgraphs[g];
    const uint16_t *gin = plan->index_pool + sg->inputs_off;
    uint32_t i;
    tigris_exec_error_t err;
    if (sg->inputs_count > n) return TIGRIS_EXEC_ERR_KERNEL;
    for (i = 0; i < sg->inputs_count; i++) {
        if (!r->mem->tensor_ptrs[src[i]]) return TIGRIS_EXEC_ERR_MEM;
        r->mem->tensor_ptrs[gin[i]] = NULL;
        err = copy_from_tensor(r, gin[i], src[i]);
        if (err != TIGRIS_EXEC_OK) return err;
    }
    return TIGRIS_EXEC_OK;
}

/* Results of graph g into dst (when given), then release the graph's I/O. */
static tigris_exec_error_t copy_out(tx_run_t *r, uint16_t g, const uint16_t *dst, uint32_t n) {
    const tigris_plan_t *plan = r->plan;
    const tigris_subgraph_t *sg = &plan->subgraphs[g];
    const uint16_t *gin = plan->index_pool + sg->inputs_off, *gout = plan->index_pool + sg->outputs_off;
    uint32_t i;
    tigris_exec_error_t err;
    if (dst) {
        if (sg->outputs_count > n) return TIGRIS_EXEC_ERR_KERNEL;
        for (i = 0; i < sg->outputs_count; i++) {
            err = copy_from_tensor(r, dst[i], gout[i]);
            if (err != TIGRIS_EXEC_OK) return err;
        }
    }
    for (i = 0; i < sg->inputs_count; i++) r->mem->tensor_ptrs[gin[i]] = NULL;
    for (i = 0; i < sg->outputs_count; i++) r->mem->tensor_ptrs[gout[i]] = NULL;
    tigris__mem_compact_slow(r->mem, plan);
    return TIGRIS_EXEC_OK;
}

static void run_graph(tx_run_t *r, uint16_t g, uint16_t *next) {
    const tigris_subgraph_t *sg = &r->plan->subgraphs[g];
    r->graph_first = sg->first_stage;
    r->graph_count = sg->num_stages;
    *next = sg->first_stage;
}

/* While's initial loop values: constant i from the CONSTANTS attribute when
 * the op has one there, else the next runtime operand. */
static tigris_exec_error_t while_init(tx_run_t *r, uint16_t op_index) {
    const tigris_plan_t *plan = r->plan;
    const tigris_op_t *op = &plan->ops[op_index];
    const uint16_t *ins = tigris_op_inputs(plan, op), *outs = tigris_op_outputs(plan, op);
    uint8_t clen = 0;
    const uint8_t *consts = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_CONSTANTS, &clen);
    uint32_t i, next_in = 0;
    tigris_exec_error_t err;
    for (i = 0; i < op->num_outputs; i++) {
        uint16_t w = TIGRIS_NONE16;
        if (consts && 2u * i + 1u < clen) w = rd16(consts + 2u * i);
        if (w != TIGRIS_NONE16 && w < plan->header->num_weights && plan->weight_entries) {
            const tigris_weight_entry_t *we = &plan->weight_entries[w];
            err = copy_tensor(r, outs[i], tigris_weight_data(plan, we), 0, we->size_bytes);
        } else {
            if (next_in >= op->num_inputs) return TIGRIS_EXEC_ERR_KERNEL;
            err = copy_from_tensor(r, outs[i], ins[next_in++]);
        }
        if (err != TIGRIS_EXEC_OK) return err;
    }
    return TIGRIS_EXEC_OK;
}

tigris_exec_error_t tx_control_enter(tx_run_t *r, uint16_t s, uint16_t *next) {
    const tigris_plan_t *plan = r->plan;
    uint16_t oi = tigris_stage_ops(plan, &plan->stages[s])[0];
    const tigris_op_t *op = &plan->ops[oi];
    const uint16_t *ins = tigris_op_inputs(plan, op), *outs = tigris_op_outputs(plan, op);
    uint16_t g0, g1, *f;
    tigris_exec_error_t err;

    if (graph_ids(plan, oi, &g0, &g1) != 0) return TIGRIS_EXEC_ERR_KERNEL;
    if (r->depth >= TIGRIS_MAX_SUBGRAPH_DEPTH) return TIGRIS_EXEC_ERR_WORKSPACE;
    f = r->frames + 4u * r->depth;
    f[TXF_STAGE] = s;
    f[TXF_FIRST] = r->graph_first;
    f[TXF_COUNT] = r->graph_count;
    if (op->op_type == TIGRIS_OP_IF) {
        const uint8_t *cond;
        uint16_t g;
        if (op->num_inputs < 1) return TIGRIS_EXEC_ERR_KERNEL;
        cond = (const uint8_t *)r->mem->tensor_ptrs[ins[0]];
        if (!cond) return TIGRIS_EXEC_ERR_MEM;
        g = cond[0] ? g0 : g1;
        err = copy_into(r, g, ins + 1, op->num_inputs - 1u);
        if (err != TIGRIS_EXEC_OK) return err;
        f[TXF_PHASE] = (uint16_t)(TX_PHASE_IF | (g << 2));
        r->depth++;
        run_graph(r, g, next);
        return TIGRIS_EXEC_OK;
    }
    err = while_init(r, oi);
    if (err != TIGRIS_EXEC_OK) return err;
    err = copy_into(r, g0, outs, op->num_outputs);
    if (err != TIGRIS_EXEC_OK) return err;
    f[TXF_PHASE] = TX_PHASE_WHILE_COND;
    r->depth++;
    run_graph(r, g0, next);
    return TIGRIS_EXEC_OK;
}

tigris_exec_error_t tx_control_step(tx_run_t *r, uint16_t *next) {
    const tigris_plan_t *plan = r->plan;
    uint16_t *f = r->frames + 4u * (r->depth - 1u);
    uint16_t s = f[TXF_STAGE];
    uint16_t oi = tigris_stage_ops(plan, &plan->stages[s])[0];
    const tigris_op_t *op = &plan->ops[oi];
    const uint16_t *outs = tigris_op_outputs(plan, op);
    uint16_t g0 = 0, g1 = 0, phase = (uint16_t)(f[TXF_PHASE] & 3u);
    tigris_exec_error_t err;

    TIGRIS_TRACE_SET_STAGE(r->mem, s);
    if (graph_ids(plan, oi, &g0, &g1) != 0) return TIGRIS_EXEC_ERR_KERNEL;
    if (phase == TX_PHASE_IF) {
        err = copy_out(r, (uint16_t)(f[TXF_PHASE] >> 2), outs, op->num_outputs);
        if (err != TIGRIS_EXEC_OK) return err;
    } else if (phase == TX_PHASE_WHILE_COND) {
        const tigris_subgraph_t *sg = &plan->subgraphs[g0];
        const uint8_t *v;
        int verdict;
        if (sg->outputs_count < 1) return TIGRIS_EXEC_ERR_KERNEL;
        v = (const uint8_t *)r->mem->tensor_ptrs[plan->index_pool[sg->outputs_off]];
        if (!v) return TIGRIS_EXEC_ERR_MEM;
        verdict = v[0] != 0;
        err = copy_out(r, g0, NULL, 0);
        if (err != TIGRIS_EXEC_OK) return err;
        if (verdict) {
            err = copy_into(r, g1, outs, op->num_outputs);
            if (err != TIGRIS_EXEC_OK) return err;
            f[TXF_PHASE] = TX_PHASE_WHILE_BODY;
            run_graph(r, g1, next);
            return TIGRIS_EXEC_OK;
        }
    } else {
        err = copy_out(r, g1, outs, op->num_outputs);
        if (err != TIGRIS_EXEC_OK) return err;
        err = copy_into(r, g0, outs, op->num_outputs);
        if (err != TIGRIS_EXEC_OK) return err;
        f[TXF_PHASE] = TX_PHASE_WHILE_COND;
        run_graph(r, g0, next);
        return TIGRIS_EXEC_OK;
    }
    /* The operator is done: back to the graph that holds it. */
    r->depth--;
    r->graph_first = f[TXF_FIRST];
    r->graph_count = f[TXF_COUNT];
    tx_free_dead(r, r->graph_first, s);
    tx_stage_end(r, s);
    *next = (uint16_t)(s + 1u);
    return TIGRIS_EXEC_OK;
}
