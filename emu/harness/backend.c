/* backend.c - binds the harness to the accelerated backends the core has. */
#include "backend.h"

#include <stddef.h>

#include "tigris_kernels_cmsis_nn.h"
#include "tigris_kernels_tigris_arm.h"
#include "tigris_kernels_tigris_xtensa.h"

#if defined(TIGRIS_HAS_TIGRIS_ARM)

static void arm_deinit(tigris_mem_t *mem) { (void)tigris_arm_deinit(mem); }
static const emu_backend_t accel = {"tigris-arm", tigris_arm_fast_arena_required, tigris_arm_prepare, arm_deinit,
                                    tigris_dispatch_kernel_tigris_arm};
const emu_backend_t *emu_accel_backend(void) { return &accel; }

#elif defined(TIGRIS_HAS_TIGRIS_XTENSA)

/* Our lx106 backend reserves its scratch at the top of the fast arena (the
 * core has no heap; docs/kernels-xtensa.md), like the Cortex-M one. */
static void xt_deinit(tigris_mem_t *mem) {
    (void)mem;
    tigris_xtensa_deinit();
}
static const emu_backend_t accel = {"tigris-xtensa", tigris_xtensa_fast_arena_required, tigris_xtensa_prepare,
                                    xt_deinit, tigris_dispatch_kernel_tigris_xtensa};
const emu_backend_t *emu_accel_backend(void) { return &accel; }

#else

const emu_backend_t *emu_accel_backend(void) { return NULL; }

#endif

#if defined(TIGRIS_HAS_CMSIS_NN)

static void cmsis_deinit(tigris_mem_t *mem) { (void)tigris_cmsis_nn_deinit(mem); }
static const emu_backend_t vendor = {"cmsis-nn", tigris_cmsis_nn_fast_arena_required, tigris_cmsis_nn_prepare,
                                     cmsis_deinit, tigris_dispatch_kernel_cmsis_nn};
const emu_backend_t *emu_vendor_backend(void) { return &vendor; }

#else

const emu_backend_t *emu_vendor_backend(void) { return NULL; }

#endif
