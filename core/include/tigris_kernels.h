/*
 * tigris_kernels.h - the reference kernel dispatchers (no preparation needed).
 */
#ifndef TIGRIS_KERNELS_H
#define TIGRIS_KERNELS_H

#include "tigris_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* float32 reference. */
int tigris_dispatch_kernel(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                           tigris_mem_t *mem, void *user_ctx);

/* int8 reference, bit-exact with TFLite's integer kernels; routes float32
 * sections of an int8 plan to the float reference. */
int tigris_dispatch_kernel_s8(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                              tigris_mem_t *mem, void *user_ctx);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_KERNELS_H */
