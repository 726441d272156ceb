/*
 * tigris_kernels_esp_nn.h - accelerated int8 backend for Xtensa (our own
 * lx106-tuned kernels in core/src/kernels/xtensa/), under the contract the
 * API reference gives the ESP-NN adapter.
 */
#ifndef TIGRIS_KERNELS_ESP_NN_H
#define TIGRIS_KERNELS_ESP_NN_H

#include "tigris_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef TIGRIS_HAS_ESP_NN
/* Scratch the backend reserves at the top of the fast arena (the core has
 * no heap), and that plus the core's own fast-arena need; UINT32_MAX for
 * an invalid plan. See docs/kernels-xtensa.md. */
uint32_t tigris_esp_nn_scratch_required(const tigris_plan_t *plan);
uint32_t tigris_esp_nn_fast_arena_required(const tigris_plan_t *plan);
int tigris_esp_nn_prepare(const tigris_plan_t *plan, tigris_mem_t *mem);
void tigris_esp_nn_deinit(void);
int tigris_dispatch_kernel_esp_nn(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                  tigris_mem_t *mem, void *user_ctx);
#endif

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_KERNELS_ESP_NN_H */
