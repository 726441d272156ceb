/*
 * stub_backends.c - host stand-ins for the device backends' API, so the
 * harnesses generated for tigris-arm, cmsis-nn, tigris-xtensa and esp-nn can
 * be built and run on the host (tests/codegen). They keep the contract the
 * harness relies on and nothing else: a scratch requirement of
 * STUB_SCRATCH_BYTES reserved at the top of the fast arena (CMSIS-NN: or
 * fail; ESP-NN: or go without, as its workspace is optional), and dispatch
 * that refuses to run on a memory manager that was not prepared, so a
 * harness that skips or misorders preparation fails its run.
 */
#include "tigris_kernels.h"
#include "tigris_kernels_cmsis_nn.h"
#include "tigris_kernels_esp_nn.h"
#include "tigris_kernels_tigris_arm.h"
#include "tigris_kernels_tigris_xtensa.h"

#ifndef STUB_SCRATCH_BYTES
#define STUB_SCRATCH_BYTES 5000u
#endif

typedef struct {
    tigris_mem_t *mem;
    uint32_t saved_fast_size;
} stub_ctx;

static stub_ctx cmsis, esp, arm, xt;

static uint32_t with_scratch(const tigris_plan_t *plan) {
    const uint32_t core = tigris_fast_arena_required(plan);
    if (core == UINT32_MAX) return UINT32_MAX;
    return core + STUB_SCRATCH_BYTES + (uint32_t)TIGRIS_TENSOR_ALIGN - 1u;
}

/* 0 when the scratch fits above the core's need, -1 otherwise. */
static int reserve(stub_ctx *c, const tigris_plan_t *plan, tigris_mem_t *mem) {
    const uintptr_t top = (uintptr_t)mem->fast_base + mem->fast_size;
    const uintptr_t start = (top - STUB_SCRATCH_BYTES) & ~(uintptr_t)(TIGRIS_TENSOR_ALIGN - 1u);
    if (mem->fast_size < STUB_SCRATCH_BYTES || start < (uintptr_t)mem->fast_base + tigris_fast_arena_required(plan))
        return -1;
    c->mem = mem;
    c->saved_fast_size = mem->fast_size;
    mem->fast_size = (uint32_t)(start - (uintptr_t)mem->fast_base);
    return 0;
}

static void release(stub_ctx *c) {
    if (c->mem) c->mem->fast_size = c->saved_fast_size;
    c->mem = NULL;
}

uint32_t tigris_cmsis_nn_scratch_required(const tigris_plan_t *plan) { return plan ? STUB_SCRATCH_BYTES : UINT32_MAX; }
uint32_t tigris_cmsis_nn_fast_arena_required(const tigris_plan_t *plan) { return with_scratch(plan); }

int tigris_cmsis_nn_prepare(const tigris_plan_t *plan, tigris_mem_t *mem) {
    if (!plan || !mem) return -1;
    release(&cmsis);
    return reserve(&cmsis, plan, mem);
}

int tigris_cmsis_nn_deinit(tigris_mem_t *mem) {
    if (!mem || mem != cmsis.mem) return -1;
    release(&cmsis);
    return 0;
}

int tigris_dispatch_kernel_cmsis_nn(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                    tigris_mem_t *mem, void *user_ctx) {
    if (mem != cmsis.mem) return -1;
    return tigris_dispatch_kernel_s8(plan, op, op_index, mem, user_ctx);
}


static int esp_prepared;
static tigris_mem_t *esp_mem;

int tigris_esp_nn_prepare(const tigris_plan_t *plan, tigris_mem_t *mem) {
    if (!plan || !mem) return -1;
    release(&esp);
    (void)reserve(&esp, plan, mem); /* optional workspace */
    esp_prepared = 1;
    esp_mem = mem;
    return 0;
}

void tigris_esp_nn_deinit(void) {
    release(&esp);
    esp_prepared = 0;
    esp_mem = NULL;
}

int tigris_dispatch_kernel_esp_nn(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                  tigris_mem_t *mem, void *user_ctx) {
    if (!esp_prepared || mem != esp_mem) return -1;
    return tigris_dispatch_kernel_s8(plan, op, op_index, mem, user_ctx);
}

/* tigris-arm: the CMSIS-NN contract's shape (reserve or fail, deinit(mem)). */
uint32_t tigris_arm_scratch_required(const tigris_plan_t *plan) { return plan ? STUB_SCRATCH_BYTES : UINT32_MAX; }
uint32_t tigris_arm_fast_arena_required(const tigris_plan_t *plan) { return with_scratch(plan); }

int tigris_arm_prepare(const tigris_plan_t *plan, tigris_mem_t *mem) {
    if (!plan || !mem) return -1;
    release(&arm);
    return reserve(&arm, plan, mem);
}

int tigris_arm_deinit(tigris_mem_t *mem) {
    if (!mem || mem != arm.mem) return -1;
    release(&arm);
    return 0;
}

int tigris_dispatch_kernel_tigris_arm(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                      tigris_mem_t *mem, void *user_ctx) {
    if (mem != arm.mem) return -1;
    return tigris_dispatch_kernel_s8(plan, op, op_index, mem, user_ctx);
}

/* tigris-xtensa: scratch in the arena, reserve or fail, deinit(void). */
uint32_t tigris_xtensa_scratch_required(const tigris_plan_t *plan) { return plan ? STUB_SCRATCH_BYTES : UINT32_MAX; }
uint32_t tigris_xtensa_fast_arena_required(const tigris_plan_t *plan) { return with_scratch(plan); }

int tigris_xtensa_prepare(const tigris_plan_t *plan, tigris_mem_t *mem) {
    if (!plan || !mem) return -1;
    release(&xt);
    return reserve(&xt, plan, mem);
}

void tigris_xtensa_deinit(void) { release(&xt); }

int tigris_dispatch_kernel_tigris_xtensa(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                         tigris_mem_t *mem, void *user_ctx) {
    if (!xt.mem || mem != xt.mem) return -1;
    return tigris_dispatch_kernel_s8(plan, op, op_index, mem, user_ctx);
}
