/*
 * backend.c - the accelerated int8 backend for Cortex-M: its prepared
 * context (the scratch reservation at the top of the fast arena), the sizing
 * helpers and the dispatcher. Ops without an accelerated kernel, and shapes
 * an accelerated kernel does not take, go to the int8 reference
 * (tigris_dispatch_kernel_s8), so results are the reference's bit for bit.
 */
#include "tigris_kernels.h"
#include "tigris_kernels_cmsis_nn.h"

#include "../kernel_common.h"

/* The one prepared context the API allows (prepare/dispatch are not
 * re-entrant): which mem holds the reservation and what it took. */
static struct {
    tigris_mem_t *mem;
    uint32_t saved_fast_size;
    uint8_t *scratch;
    uint32_t scratch_size;
} g_arm;

uint32_t tigris_cmsis_nn_scratch_required(const tigris_plan_t *plan) {
    if (!plan || !plan->header) return UINT32_MAX;
    return 0;
}

uint32_t tigris_cmsis_nn_fast_arena_required(const tigris_plan_t *plan) {
    uint32_t scratch = tigris_cmsis_nn_scratch_required(plan);
    if (scratch == UINT32_MAX) return UINT32_MAX;
    uint32_t core = tigris_fast_arena_required(plan);
    if (core == UINT32_MAX) return UINT32_MAX;
    uint64_t total = (uint64_t)core + scratch + (scratch ? TIGRIS_TENSOR_ALIGN - 1u : 0u);
    return total >= UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}

int tigris_cmsis_nn_prepare(const tigris_plan_t *plan, tigris_mem_t *mem) {
    if (!plan || !mem || !mem->fast_base) return -1;
    uint32_t need = tigris_cmsis_nn_scratch_required(plan);
    if (need == UINT32_MAX) return -1;
    if (g_arm.mem) tigris_cmsis_nn_deinit(g_arm.mem);
    if (mem->fast_size < mem->fast_used || need > mem->fast_size - mem->fast_used) return -1;
    g_arm.mem = mem;
    g_arm.saved_fast_size = mem->fast_size;
    g_arm.scratch = NULL;
    g_arm.scratch_size = need;
    if (need) {
        /* Top of the arena, aligned down so the kernels get aligned words. */
        uintptr_t top = (uintptr_t)mem->fast_base + mem->fast_size;
        uintptr_t base = (top - need) & ~(uintptr_t)(TIGRIS_TENSOR_ALIGN - 1u);
        if (base < (uintptr_t)mem->fast_base + mem->fast_used) {
            g_arm.mem = NULL;
            return -1;
        }
        g_arm.scratch = (uint8_t *)base;
        mem->fast_size = (uint32_t)(base - (uintptr_t)mem->fast_base);
    }
    return 0;
}

int tigris_cmsis_nn_deinit(tigris_mem_t *mem) {
    if (!mem || mem != g_arm.mem) return -1;
    mem->fast_size = g_arm.saved_fast_size;
    g_arm.mem = NULL;
    g_arm.scratch = NULL;
    g_arm.scratch_size = 0;
    return 0;
}

int tigris_dispatch_kernel_cmsis_nn(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                    tigris_mem_t *mem, void *user_ctx) {
    return tigris_dispatch_kernel_s8(plan, op, op_index, mem, user_ctx);
}
