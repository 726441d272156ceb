/*
 * tigris_mem.h - the memory manager: a fast arena (SRAM) and a slow buffer
 * (PSRAM), both caller-owned, filled by bounded bump allocation.
 */
#ifndef TIGRIS_MEM_H
#define TIGRIS_MEM_H

#include "tigris.h"
#include "tigris_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TIGRIS_MEM_OK = 0,
    TIGRIS_MEM_ERR_NULL = -1,
    TIGRIS_MEM_ERR_OOM = -2,
    TIGRIS_MEM_ERR_BAD_INDEX = -3,
    TIGRIS_MEM_ERR_NOT_SET = -4
} tigris_mem_error_t;

/* Band mode values of tigris_tile_ctx_t.row_tiled. */
#define TIGRIS_ROW_MODE_NONE 0
#define TIGRIS_ROW_MODE_ROWS 1
#define TIGRIS_ROW_MODE_LEADING 2

/* What the executor tells a kernel about the band or tile it computes.
 * Zeroed outside banded execution (active == 0). */
typedef struct {
    uint8_t active;
    uint8_t width_tiled;    /* 2-D tiles: kernels use pad_left/right, in_w/out_w */
    uint8_t row_tiled;      /* TIGRIS_ROW_MODE_* */
    uint8_t transposed_tile;
    uint8_t reduce_first;   /* BY_INPUT: first band */
    uint8_t reduce_last;    /* BY_INPUT: last band */
    uint16_t _reserved;
    int32_t in_h, out_h, in_w, out_w;
    int32_t pad_top, pad_bottom, pad_left, pad_right;
    int32_t out_row_start, in_row_start;   /* line-buffer roll offsets (chains) */
    int32_t out_row_origin, in_row_origin; /* global first row of the tile */
    int32_t transpose_outer, transpose_block;
    void *reduce_acc;                       /* BY_INPUT accumulator */
} tigris_tile_ctx_t;

struct tigris_exec_stats;

typedef struct {
    void **tensor_ptrs;
    uint16_t num_tensors;
    uint8_t *fast_base;
    uint32_t fast_size;
    uint32_t fast_used;
    uint32_t fast_reserved;
    uint32_t fast_peak;
    uint8_t *slow_base;
    uint32_t slow_size;
    uint32_t slow_used;
    uint32_t slow_peak;
    struct tigris_exec_stats *stats;
#ifdef TIGRIS_TRACE
    tigris_trace_fn trace_fn;
    void *trace_ctx;
    uint16_t trace_stage;
    uint8_t trace_path;
#endif
    tigris_tile_ctx_t tile;
} tigris_mem_t;

tigris_mem_error_t tigris_mem_init(tigris_mem_t *mem, void **tensor_ptrs, uint16_t num_tensors, void *fast_buf,
                                   uint32_t fast_size, void *slow_buf, uint32_t slow_size);

tigris_mem_error_t tigris_mem_alloc_slow(tigris_mem_t *mem, uint16_t tensor_idx, uint32_t size_bytes);

static inline void *tigris_mem_tensor_ptr(const tigris_mem_t *mem, uint16_t idx) {
    if (!mem || !mem->tensor_ptrs || idx >= mem->num_tensors) return NULL;
    return mem->tensor_ptrs[idx];
}

const char *tigris_mem_error_str(tigris_mem_error_t err);

/* Install (or, with NULL, remove) the trace callback. No effect without TIGRIS_TRACE. */
void tigris_mem_set_trace(tigris_mem_t *mem, tigris_trace_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_MEM_H */
