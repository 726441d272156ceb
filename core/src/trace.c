/*
 * trace.c - builds trace events and hands them to the installed callback.
 * Without TIGRIS_TRACE only the (then inert) setter remains.
 */
#include <string.h>

#include "trace_internal.h"

void tigris_mem_set_trace(tigris_mem_t *mem, tigris_trace_fn fn, void *ctx) {
#ifdef TIGRIS_TRACE
    if (!mem) return;
    mem->trace_fn = fn;
    mem->trace_ctx = fn ? ctx : NULL;
#else
    (void)mem;
    (void)fn;
    (void)ctx;
#endif
}

#ifdef TIGRIS_TRACE
void tigris__trace_emit(tigris_mem_t *mem, uint8_t kind, uint8_t pool, uint16_t tensor, uint16_t op,
                        uint32_t offset, uint32_t src_offset, uint32_t bytes, int32_t row0, int32_t row1,
                        int32_t col0, int32_t col1) {
    tigris_trace_event_t ev;
    if (!mem || !mem->trace_fn) return;
    /* Zeroed first so the padding a host may dump as raw bytes is defined. */
    memset(&ev, 0, sizeof ev);
    ev.kind = kind;
    ev.pool = pool;
    ev.path = mem->trace_path;
    ev.stage = mem->trace_stage;
    ev.tensor = tensor;
    ev.op = op;
    ev.offset = offset;
    ev.src_offset = src_offset;
    ev.bytes = bytes;
    ev.row0 = row0;
    ev.row1 = row1;
    ev.col0 = col0;
    ev.col1 = col1;
    ev.fast_used = mem->fast_used;
    ev.slow_used = mem->slow_used;
    mem->trace_fn(&ev, mem->trace_ctx);
}
#endif
