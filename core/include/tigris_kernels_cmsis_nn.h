/*
 * tigris_kernels_cmsis_nn.h - the CMSIS-NN adapter: int8 ops computed by
 * Arm's CMSIS-NN library (core/src/kernels/cmsis_nn/), built only when the
 * build is pointed at it (-DTIGRIS_CMSIS_NN_DIR=..., docs/kernels-cmsis-nn.md),
 * which then defines TIGRIS_HAS_CMSIS_NN. Ops and variants CMSIS-NN does not
 * take run on the int8 reference; outputs are the reference's bytes.
 * TiGrIS's own Cortex-M kernels are the separate backend
 * tigris_kernels_tigris_arm.h.
 *
 * tigris_cmsis_nn_scratch_required(): the exact reservation (16-byte
 * rounded) of the plan's largest op: CMSIS-NN's own buffer (its
 * *_get_buffer_size() functions) plus the per-channel multiplier, shift and
 * bias arrays the adapter passes it. tigris_cmsis_nn_fast_arena_required():
 * that plus the core's fast-arena need plus TIGRIS_TENSOR_ALIGN - 1.
 * Both UINT32_MAX for an invalid plan.
 *
 * tigris_cmsis_nn_prepare() after tigris_mem_init(): reserves the scratch at
 * the top of the fast buffer and lowers mem->fast_size; 0, or -1 for an
 * invalid argument, too little capacity, or a context still prepared for
 * another arena or plan. Preparing again for the same arena and plan
 * returns 0 and changes nothing. tigris_cmsis_nn_deinit() restores the fast
 * size (call it before changing arena or plan); -1 for a mem that is not
 * the prepared one. One process-global context: not re-entrant.
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
