/*
 * backend.c - the accelerated int8 backend for Cortex-M: its prepared
 * context (the scratch reservation at the top of the fast arena), the sizing
 * helpers, and the dispatcher with its routing table.
 *
 * Routing: an op type with an entry in ta_routes runs its accelerated
 * wrapper, which either computes the op or answers TA_FALLBACK for a shape
 * it does not take (each wrapper's file lists those); every other op type,
 * every TA_FALLBACK, and every float op go to the int8 reference
 * (tigris_dispatch_kernel_s8). Results are the reference's bytes in every
 * case.
 */
#include "tigris_kernels.h"
#include "tigris_kernels_tigris_arm.h"

#include "arm_common.h"

typedef uint32_t (*ta_scratch_fn)(const tigris_plan_t *plan, const tigris_op_t *op);

typedef struct {
    tk_kernel_fn run;
    ta_scratch_fn scratch;
} ta_route_t;

static const ta_route_t ta_routes[TIGRIS_OP_MAX_KNOWN + 1] = {
    [TIGRIS_OP_CONV] = {ta_conv, ta_conv_scratch},
    [TIGRIS_OP_DEPTHWISE] = {ta_depthwise, ta_depthwise_scratch},
    [TIGRIS_OP_FULLY_CONN] = {ta_fully_connected, ta_fully_connected_scratch},
    [TIGRIS_OP_MAX_POOL] = {ta_max_pool, ta_pool_scratch},
    [TIGRIS_OP_AVG_POOL] = {ta_avg_pool, ta_pool_scratch},
    [TIGRIS_OP_ADD] = {ta_add, ta_add_scratch},
};

/* The one prepared context the API allows (prepare/dispatch are not
 * re-entrant): which mem holds the reservation and what it took. */
static struct {
    tigris_mem_t *mem;
    uint32_t saved_fast_size;
    uint8_t *scratch;
    uint32_t scratch_size;
} g_arm;

uint8_t *ta_scratch(const tigris_mem_t *mem, uint32_t need) {
    if (!mem || mem != g_arm.mem || need > g_arm.scratch_size) return NULL;
    return g_arm.scratch;
}

uint32_t tigris_arm_scratch_required(const tigris_plan_t *plan) {
    if (!plan || !plan->header || (plan->header->num_ops && !plan->ops)) return UINT32_MAX;
    uint32_t need = 0;
    for (uint32_t i = 0; i < plan->header->num_ops; i++) {
        const tigris_op_t *op = &plan->ops[i];
        if (op->op_type > TIGRIS_OP_MAX_KNOWN || !ta_routes[op->op_type].scratch) continue;
        int32_t o = tk_out_idx(plan, op, 0);
        if (o < 0 || plan->tensors[o].dtype != TIGRIS_DTYPE_INT8) continue;
        uint32_t s = ta_routes[op->op_type].scratch(plan, op);
        if (s > need) need = s;
    }
    return ta_round16(need);
}

uint32_t tigris_arm_fast_arena_required(const tigris_plan_t *plan) {
    return tk_fast_arena_with_scratch(plan, tigris_arm_scratch_required(plan));
}

int tigris_arm_prepare(const tigris_plan_t *plan, tigris_mem_t *mem) {
    if (!plan || !mem || !mem->fast_base) return -1;
    uint32_t need = tigris_arm_scratch_required(plan);
    if (need == UINT32_MAX) return -1;
    if (g_arm.mem) tigris_arm_deinit(g_arm.mem);
    if (mem->fast_size < mem->fast_used) return -1;
    uint8_t *scratch = NULL;
    uint32_t size = mem->fast_size;
    if (need) {
        /* Top of the arena, start aligned down so the kernels get aligned words. */
        uintptr_t top = (uintptr_t)mem->fast_base + mem->fast_size;
        if (need > mem->fast_size) return -1;
        uintptr_t base = (top - need) & ~(uintptr_t)(TIGRIS_TENSOR_ALIGN - 1u);
        if (base < (uintptr_t)mem->fast_base + mem->fast_used) return -1;
        scratch = (uint8_t *)base;
        size = (uint32_t)(base - (uintptr_t)mem->fast_base);
    }
    g_arm.mem = mem;
    g_arm.saved_fast_size = mem->fast_size;
    g_arm.scratch = scratch;
    g_arm.scratch_size = need;
    mem->fast_size = size;
    return 0;
}

int tigris_arm_deinit(tigris_mem_t *mem) {
    if (!mem || mem != g_arm.mem) return -1;
    mem->fast_size = g_arm.saved_fast_size;
    g_arm.mem = NULL;
    g_arm.scratch = NULL;
    g_arm.scratch_size = 0;
    return 0;
}

int tigris_dispatch_kernel_tigris_arm(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                    tigris_mem_t *mem, void *user_ctx) {
    if (plan && op && mem && mem->tensor_ptrs && op->op_type <= TIGRIS_OP_MAX_KNOWN && ta_routes[op->op_type].run) {
        int rc = ta_routes[op->op_type].run(plan, op, op_index, mem);
        if (rc != TA_FALLBACK) return rc;
    }
    return tigris_dispatch_kernel_s8(plan, op, op_index, mem, user_ctx);
}
