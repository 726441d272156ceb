/*
 * xt_backend.c - the Xtensa lx106 accelerated int8 backend: its prepared
 * context (scratch reserved at the top of the fast arena), its sizing and
 * its dispatcher. Ops with an lx106-tuned kernel go to it; every other op,
 * every shape a tuned kernel declines, and every op whose scratch does not
 * fit the reservation go to the int8 reference, so outputs are always the
 * reference's bytes.
 *
 * This is the backend tigris-xtensa (tigris_kernels_tigris_xtensa.h), not
 * Espressif's ESP-NN. The core has no heap, so it reserves its workspace at
 * the top of the fast arena, as tigris-arm does (docs/kernels-xtensa.md).
 */
#include "tigris_kernels.h"
#include "tigris_kernels_tigris_xtensa.h"

#include "xt_internal.h"

/* The one process-global prepared context the contract allows
 * (prepare and dispatch are not re-entrant). */
static struct {
    tigris_mem_t *mem;
    uint32_t saved_fast_size;
    uint8_t *scratch;
    uint32_t scratch_size;
} xt_ctx;

/* Run op's tuned kernel (or only size it, sc->base NULL): 0 done, -1 error,
 * XT_DECLINE when it has none or does not take the op. */
static int xt_route(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                    xt_scratch_t *sc) {
    switch (op->op_type) {
    case TIGRIS_OP_CONV:
        return xt_conv(plan, op, mem, sc);
    case TIGRIS_OP_DEPTHWISE:
        return xt_depthwise(plan, op, mem, sc);
    case TIGRIS_OP_FULLY_CONN:
        return xt_fully_connected(plan, op, mem, sc);
    case TIGRIS_OP_MAX_POOL:
        return xt_max_pool(plan, op, mem, sc);
    case TIGRIS_OP_AVG_POOL:
        return xt_avg_pool(plan, op, mem, sc);
    case TIGRIS_OP_ADD:
        return xt_add(plan, op, op_index, mem, sc);
    default:
        return XT_DECLINE;
    }
}

uint32_t tigris_xtensa_scratch_required(const tigris_plan_t *plan) {
    if (!plan || !plan->header || (plan->header->num_ops && !plan->ops)) return UINT32_MAX;
    tigris_mem_t none;
    memset(&none, 0, sizeof none); /* no tile: whole-tensor shapes, the largest */
    uint32_t need = 0;
    for (uint32_t i = 0; i < plan->header->num_ops; i++) {
        xt_scratch_t sc = {NULL, UINT32_MAX, 0};
        if (xt_route(plan, &plan->ops[i], (uint16_t)i, &none, &sc) == 0 && sc.used > need) need = sc.used;
    }
    return need;
}

uint32_t tigris_xtensa_fast_arena_required(const tigris_plan_t *plan) {
    return tk_fast_arena_with_scratch(plan, tigris_xtensa_scratch_required(plan));
}

int tigris_xtensa_prepare(const tigris_plan_t *plan, tigris_mem_t *mem) {
    if (!plan || !plan->header || !mem || !mem->fast_base || mem->fast_used > mem->fast_size) return -1;
    uint32_t need = tigris_xtensa_scratch_required(plan);
    if (need == UINT32_MAX) return -1;
    if (xt_ctx.mem) tigris_xtensa_deinit();
    xt_ctx.mem = mem;
    xt_ctx.saved_fast_size = mem->fast_size;
    xt_ctx.scratch = NULL;
    xt_ctx.scratch_size = 0;
    if (need) {
        /* Top of the arena, aligned down for word loads, and only when what
         * is left still holds the core's own need: without that room the
         * backend runs every op on the reference (optional workspace). */
        uint32_t core = tigris_fast_arena_required(plan);
        uintptr_t top = (uintptr_t)mem->fast_base + mem->fast_size;
        uintptr_t base = (top - need) & ~(uintptr_t)(TIGRIS_TENSOR_ALIGN - 1u);
        if (core != UINT32_MAX && need <= mem->fast_size && base >= (uintptr_t)mem->fast_base + mem->fast_used &&
            base - (uintptr_t)mem->fast_base >= core) {
            xt_ctx.scratch = (uint8_t *)base;
            xt_ctx.scratch_size = (uint32_t)(top - base);
            mem->fast_size = (uint32_t)(base - (uintptr_t)mem->fast_base);
        }
    }
    return 0;
}

void tigris_xtensa_deinit(void) {
    if (xt_ctx.mem) xt_ctx.mem->fast_size = xt_ctx.saved_fast_size;
    xt_ctx.mem = NULL;
    xt_ctx.saved_fast_size = 0;
    xt_ctx.scratch = NULL;
    xt_ctx.scratch_size = 0;
}

/* The tuned kernels alone, without the reference fallback (the parity
 * tests use it to know a case really ran an lx106 kernel). */
int xt_dispatch_tuned(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    if (!plan || !op || !mem || mem != xt_ctx.mem || !xt_ctx.scratch || !mem->tensor_ptrs) return XT_DECLINE;
    xt_scratch_t sc = {xt_ctx.scratch, xt_ctx.scratch_size, 0};
    return xt_route(plan, op, op_index, mem, &sc);
}

int tigris_dispatch_kernel_tigris_xtensa(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                  tigris_mem_t *mem, void *user_ctx) {
    int rc = xt_dispatch_tuned(plan, op, op_index, mem);
    if (rc != XT_DECLINE) return rc;
    return tigris_dispatch_kernel_s8(plan, op, op_index, mem, user_ctx);
}
