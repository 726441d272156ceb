/*
 * tigris_kernels_tigris_xtensa.h - TiGrIS's own lx106-tuned int8 backend
 * (core/src/kernels/xtensa/). No vendor code: it is not ESP-NN (that
 * adapter's API is tigris_kernels_esp_nn.h). The core has no heap, so its
 * scratch is reserved at the top of the fast arena like tigris-arm's
 * (docs/kernels-xtensa.md). Outputs are the int8 reference's bytes.
 */
#ifndef TIGRIS_KERNELS_TIGRIS_XTENSA_H
#define TIGRIS_KERNELS_TIGRIS_XTENSA_H

#include "tigris_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef TIGRIS_HAS_TIGRIS_XTENSA
/* Scratch the backend reserves at the top of the fast arena, and that plus
 * the core's own fast-arena need; UINT32_MAX for an invalid plan. */
uint32_t tigris_xtensa_scratch_required(const tigris_plan_t *plan);
uint32_t tigris_xtensa_fast_arena_required(const tigris_plan_t *plan);
int tigris_xtensa_prepare(const tigris_plan_t *plan, tigris_mem_t *mem);
void tigris_xtensa_deinit(void);
int tigris_dispatch_kernel_tigris_xtensa(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                         tigris_mem_t *mem, void *user_ctx);
#endif

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_KERNELS_TIGRIS_XTENSA_H */
