/*
 * util.c - small helpers every path uses (kernel call with its OP event,
 * slow placement, saturating size arithmetic). The operator classes the
 * paths test come from the operator table (../ops.h).
 */
#include "executor_internal.h"

#include <string.h>

uint32_t tx_tensor_rows(const tigris_plan_t *plan, uint16_t t) {
    const tigris_tensor_t *tt = &plan->tensors[t];
    const int32_t *sh = tigris_tensor_shape(plan, tt);
    if (tt->ndim >= 3) return sh[1] > 0 ? (uint32_t)sh[1] : 0;
    if (tt->ndim == 2) return sh[0] > 0 ? (uint32_t)sh[0] : 0;
    return 0;
}

uint32_t tx_eff_k(uint32_t k, uint32_t dilation) {
    if (dilation == 0) dilation = 1;
    if (k == 0) return 1;
    return (k - 1) * dilation + 1;
}

static int own_order(const tigris_tensor_t *t) {
    return (t->flags & TIGRIS_TENSOR_LINEAR) || t->ndim <= 2;
}

/* A Reshape/Flatten whose output is the input's bytes read another way: the
 * normal path lets the output share the input's buffer. */
int tx_pure_reinterpret(const tigris_plan_t *plan, const tigris_op_t *op) {
    const tigris_tensor_t *a, *b;
    const tigris_quant_param_t *qa, *qb;
    if (op->op_type != TIGRIS_OP_RESHAPE && op->op_type != TIGRIS_OP_FLATTEN) return 0;
    if (op->num_inputs != 1 || op->num_outputs != 1) return 0;
    a = &plan->tensors[tigris_op_inputs(plan, op)[0]];
    b = &plan->tensors[tigris_op_outputs(plan, op)[0]];
    if (a->size_bytes != b->size_bytes) return 0;
    qa = tigris_tensor_quant(plan, a);
    qb = tigris_tensor_quant(plan, b);
    if ((qa == NULL) != (qb == NULL)) return 0;
    /* Bitwise scale comparison: no float arithmetic on targets without an FPU. */
    if (qa && (memcmp(&qa->scale, &qb->scale, sizeof qa->scale) != 0 || qa->zero_point != qb->zero_point)) return 0;
    if (own_order(a) != own_order(b)) return 0;
    if (!own_order(a)) {
        const int32_t *sa = tigris_tensor_shape(plan, a), *sb = tigris_tensor_shape(plan, b);
        if (a->ndim == 0 || b->ndim == 0) return 0;
        if (sa[0] != sb[0] || sa[a->ndim - 1] != sb[b->ndim - 1]) return 0;
    }
    return 1;
}

tigris_exec_error_t tx_call_op(tx_run_t *r, uint16_t op_index) {
    TIGRIS_TRACE_EMIT(r->mem, TIGRIS_TRACE_OP, TIGRIS_TRACE_POOL_NONE, TIGRIS_TRACE_NONE16, op_index, 0, 0, 0, -1,
                      -1, -1, -1);
    if (r->kernel(&r->wplan, &r->plan->ops[op_index], op_index, r->mem, r->user_ctx) != 0)
        return TIGRIS_EXEC_ERR_KERNEL;
    return TIGRIS_EXEC_OK;
}

void tx_restore_inputs(tx_run_t *r, const tigris_stage_t *st) {
    const uint16_t *in = tigris_stage_inputs(r->plan, st);
    uint32_t k;
    for (k = 0; k < st->inputs_count; k++) r->mem->tensor_ptrs[in[k]] = r->saved_in[k];
}

void tx_clear_tile(tigris_mem_t *mem) {
    memset(&mem->tile, 0, sizeof mem->tile);
}

int tx_place_slow(tx_run_t *r, uint16_t t) {
    return tigris_mem_alloc_slow(r->mem, t, r->plan->tensors[t].size_bytes) == TIGRIS_MEM_OK ? 0 : -1;
}

uint32_t tx_aligned(uint32_t x) {
    uint32_t out;
    if (tigris__align_size(x, &out) != 0) return UINT32_MAX;
    return out;
}

uint32_t tx_sat_add(uint32_t a, uint32_t b) {
    return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

uint32_t tx_sat_mul(uint32_t a, uint32_t b) {
    if (a == 0 || b == 0) return 0;
    return a > UINT32_MAX / b ? UINT32_MAX : a * b;
}
