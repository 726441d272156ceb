/*
 * backend.h - the kernel backends an image can run: the reference kernels
 * (always) and the target's accelerated int8 backend (when the core was
 * built with core/src/kernels/arm/ or core/src/kernels/xtensa/, i.e. with
 * TIGRIS_HAS_CMSIS_NN or TIGRIS_HAS_ESP_NN defined).
 */
#ifndef TIGRIS_EMU_BACKEND_H
#define TIGRIS_EMU_BACKEND_H

#include "tigris_executor.h"

/* "cmsis-nn", "esp-nn" or "none". */
const char *emu_accel_name(void);
int emu_accel_available(void);

/* Fast-arena bytes the accelerated backend needs for this plan (its scratch
 * reservation included); UINT32_MAX when the plan is not representable. */
uint32_t emu_accel_fast_required(const tigris_plan_t *plan);

/* Prepare after tigris_mem_init, before the run; 0 on success. */
int emu_accel_prepare(const tigris_plan_t *plan, tigris_mem_t *mem);
void emu_accel_deinit(tigris_mem_t *mem);
tigris_kernel_fn emu_accel_dispatch(void);

#endif /* TIGRIS_EMU_BACKEND_H */
