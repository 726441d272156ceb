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

/* All model inputs (outputs) at once, concatenated in the plan's order, each
 * in its declared dtype: what a harness holding one input buffer and one
 * output buffer does around every run. The byte counts are the sums of
 * tigris_iface_bytes(); a wrong src_bytes / dst_bytes is TIGRIS_ERR_BAD_SIZE
 * before anything is written; otherwise the first error of
 * tigris_input_write() / tigris_output_read() is returned as it is. */
uint32_t tigris_inputs_bytes(const tigris_plan_t *plan);
uint32_t tigris_outputs_bytes(const tigris_plan_t *plan);
tigris_error_t tigris_inputs_write(const tigris_plan_t *plan, tigris_mem_t *mem, const void *src, uint32_t src_bytes);
tigris_error_t tigris_outputs_read(const tigris_plan_t *plan, const tigris_mem_t *mem, void *dst, uint32_t dst_bytes);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_IFACE_H */
