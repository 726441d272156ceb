/*
 * tigris_kernels_cmsis_nn.h - accelerated int8 backend for Cortex-M
 * (ARMv7E-M DSP on M4/M7, MVE/Helium on M55). Our own kernels in
 * core/src/kernels/arm/, under the contract the API reference gives the
 * CMSIS-NN adapter: prepare after tigris_mem_init(), deinit, dispatch.
 */
#ifndef TIGRIS_KERNELS_CMSIS_NN_H
#define TIGRIS_KERNELS_CMSIS_NN_H

#include "tigris_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef TIGRIS_HAS_CMSIS_NN
uint32_t tigris_cmsis_nn_scratch_required(const tigris_plan_t *plan);
uint32_t tigris_cmsis_nn_fast_arena_required(const tigris_plan_t *plan);
int tigris_cmsis_nn_prepare(const tigris_plan_t *plan, tigris_mem_t *mem);
int tigris_cmsis_nn_deinit(tigris_mem_t *mem);
int tigris_dispatch_kernel_cmsis_nn(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                    tigris_mem_t *mem, void *user_ctx);
#endif

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_KERNELS_CMSIS_NN_H */
