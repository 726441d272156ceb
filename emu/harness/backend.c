/* backend.c - binds the harness to whichever accelerated backend the core has. */
#include "backend.h"

#include "tigris_kernels_cmsis_nn.h"
#include "tigris_kernels_esp_nn.h"

#if defined(TIGRIS_HAS_CMSIS_NN)

const char *emu_accel_name(void) { return "cmsis-nn"; }
int emu_accel_available(void) { return 1; }
uint32_t emu_accel_fast_required(const tigris_plan_t *plan) { return tigris_cmsis_nn_fast_arena_required(plan); }
int emu_accel_prepare(const tigris_plan_t *plan, tigris_mem_t *mem) { return tigris_cmsis_nn_prepare(plan, mem); }
void emu_accel_deinit(tigris_mem_t *mem) { (void)tigris_cmsis_nn_deinit(mem); }
tigris_kernel_fn emu_accel_dispatch(void) { return tigris_dispatch_kernel_cmsis_nn; }

#elif defined(TIGRIS_HAS_ESP_NN)

/* The ESP-NN contract takes its workspace from the platform allocator (the
 * harness's heap), not from the fast arena, so the arena is the core's. */
const char *emu_accel_name(void) { return "esp-nn"; }
int emu_accel_available(void) { return 1; }
uint32_t emu_accel_fast_required(const tigris_plan_t *plan) { return tigris_fast_arena_required(plan); }
int emu_accel_prepare(const tigris_plan_t *plan, tigris_mem_t *mem) { return tigris_esp_nn_prepare(plan, mem); }
void emu_accel_deinit(tigris_mem_t *mem) {
    (void)mem;
    tigris_esp_nn_deinit();
}
tigris_kernel_fn emu_accel_dispatch(void) { return tigris_dispatch_kernel_esp_nn; }

#else

const char *emu_accel_name(void) { return "none"; }
int emu_accel_available(void) { return 0; }
uint32_t emu_accel_fast_required(const tigris_plan_t *plan) {
    (void)plan;
    return UINT32_MAX;
}
int emu_accel_prepare(const tigris_plan_t *plan, tigris_mem_t *mem) {
    (void)plan;
    (void)mem;
    return -1;
}
void emu_accel_deinit(tigris_mem_t *mem) { (void)mem; }
tigris_kernel_fn emu_accel_dispatch(void) { return 0; }

#endif
