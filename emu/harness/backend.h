/*
 * backend.h - the kernel backends an image can run: the reference kernels
 * (always), the target's own accelerated int8 backend (tigris-arm or
 * tigris-xtensa, when the core was built with core/src/kernels/arm/ or
 * xtensa/) and the vendor library's adapter (cmsis-nn, when the core was
 * built against Arm's CMSIS-NN: TIGRIS_HAS_CMSIS_NN).
 */
#ifndef TIGRIS_EMU_BACKEND_H
#define TIGRIS_EMU_BACKEND_H

#include "tigris_executor.h"

typedef struct {
    const char *name; /* "tigris-arm", "tigris-xtensa", "cmsis-nn" */
    /* Fast-arena bytes the backend needs for this plan (its scratch
     * reservation included); UINT32_MAX when the plan is not representable. */
    uint32_t (*fast_required)(const tigris_plan_t *plan);
    /* After tigris_mem_init, before the run; 0 on success. */
    int (*prepare)(const tigris_plan_t *plan, tigris_mem_t *mem);
    void (*deinit)(tigris_mem_t *mem);
    tigris_kernel_fn dispatch;
} emu_backend_t;

/* The image's own accelerated backend, or NULL. */
const emu_backend_t *emu_accel_backend(void);
/* The vendor library's adapter, or NULL. */
const emu_backend_t *emu_vendor_backend(void);

#endif /* TIGRIS_EMU_BACKEND_H */
