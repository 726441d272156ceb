/*
 * trace_internal.h - the one place trace events are built. Without
 * TIGRIS_TRACE every call compiles to nothing.
 */
#ifndef TIGRIS_TRACE_INTERNAL_H
#define TIGRIS_TRACE_INTERNAL_H

#include "tigris_mem.h"
#include "tigris_trace.h"

#ifdef TIGRIS_TRACE
/* Fills pool/stage/path/used fields from mem and calls the callback if set. */
void tigris__trace_emit(tigris_mem_t *mem, uint8_t kind, uint8_t pool, uint16_t tensor, uint16_t op,
                        uint32_t offset, uint32_t src_offset, uint32_t bytes, int32_t row0, int32_t row1,
                        int32_t col0, int32_t col1);
#define TIGRIS_TRACE_EMIT(mem, kind, pool, tensor, op, off, src, bytes, r0, r1, c0, c1) \
    tigris__trace_emit((mem), (kind), (pool), (tensor), (op), (off), (src), (bytes), (r0), (r1), (c0), (c1))
#define TIGRIS_TRACE_SET_STAGE(mem, s) ((mem)->trace_stage = (uint16_t)(s))
#define TIGRIS_TRACE_SET_PATH(mem, p) ((mem)->trace_path = (uint8_t)(p))
#else
#define TIGRIS_TRACE_EMIT(mem, kind, pool, tensor, op, off, src, bytes, r0, r1, c0, c1) ((void)(mem))
#define TIGRIS_TRACE_SET_STAGE(mem, s) ((void)(mem))
#define TIGRIS_TRACE_SET_PATH(mem, p) ((void)(mem))
#endif

#endif /* TIGRIS_TRACE_INTERNAL_H */
