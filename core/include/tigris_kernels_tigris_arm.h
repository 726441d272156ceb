/*
 * tigris_kernels_tigris_arm.h - TiGrIS's own accelerated int8 backend for
 * Cortex-M (ARMv7E-M DSP on M4/M7, MVE/Helium on M55), core/src/kernels/arm/.
 * No vendor code: it is not CMSIS-NN (that adapter is
 * tigris_kernels_cmsis_nn.h). Same contract shape as the CMSIS-NN adapter:
 * prepare after tigris_mem_init() (scratch at the top of the fast arena),
 * deinit before changing arena or plan, dispatch. Outputs are the int8
 * reference's bytes (docs/kernels-arm.md).
 */
#ifndef TIGRIS_KERNELS_TIGRIS_ARM_H
#define TIGRIS_KERNELS_TIGRIS_ARM_H

#include "tigris_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef TIGRIS_HAS_TIGRIS_ARM
/* Scratch the backend reserves at the top of the fast arena, and that plus
 * the core's own fast-arena need; UINT32_MAX for an invalid plan. */
uint32_t tigris_arm_scratch_required(const tigris_plan_t *plan);
uint32_t tigris_arm_fast_arena_required(const tigris_plan_t *plan);
int tigris_arm_prepare(const tigris_plan_t *plan, tigris_mem_t *mem);
int tigris_arm_deinit(tigris_mem_t *mem);
int tigris_dispatch_kernel_tigris_arm(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                      tigris_mem_t *mem, void *user_ctx);
#endif

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_KERNELS_TIGRIS_ARM_H */
