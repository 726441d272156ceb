/*
 * tigris_iface.h - the model interface: move data across the model boundary
 * in the dtype the model declares (float32 or uint8 around an int8 body,
 * int64 around int32), placing inputs where the run reads them.
 */
#ifndef TIGRIS_IFACE_H
#define TIGRIS_IFACE_H

#include "tigris.h"
#include "tigris_mem.h"

#ifdef __cplusplus
extern "C" {
#endif

uint32_t tigris_iface_bytes(const tigris_plan_t *plan, uint16_t tensor_idx);

tigris_error_t tigris_input_alloc(const tigris_plan_t *plan, tigris_mem_t *mem, uint16_t tensor_idx);

tigris_error_t tigris_input_write(const tigris_plan_t *plan, tigris_mem_t *mem, uint16_t tensor_idx,
                                  const void *src, uint32_t src_bytes);

tigris_error_t tigris_output_read(const tigris_plan_t *plan, const tigris_mem_t *mem, uint16_t tensor_idx,
                                  void *dst, uint32_t dst_bytes);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_IFACE_H */
