/*
 * tigris_kernels_esp_nn.h - the API reference's ESP-NN adapter (int8 ops
 * computed by Espressif's ESP-NN). This tree does not build that adapter
 * yet, so no runtime of it defines TIGRIS_HAS_ESP_NN; TiGrIS's own lx106
 * kernels are the separate backend tigris_kernels_tigris_xtensa.h.
 */
#ifndef TIGRIS_KERNELS_ESP_NN_H
#define TIGRIS_KERNELS_ESP_NN_H

#include "tigris_executor.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef TIGRIS_HAS_ESP_NN
int tigris_esp_nn_prepare(const tigris_plan_t *plan, tigris_mem_t *mem);
void tigris_esp_nn_deinit(void);
int tigris_dispatch_kernel_esp_nn(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                  tigris_mem_t *mem, void *user_ctx);
#endif

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_KERNELS_ESP_NN_H */
