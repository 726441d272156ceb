/*
 * tigris_trace.h - execution trace events (build with -DTIGRIS_TRACE=ON).
 *
 * The runtime calls the installed callback synchronously, once per event, at
 * the moment the event happens. Without TIGRIS_TRACE the hooks compile away
 * and tigris_mem_set_trace() does nothing.
 */
#ifndef TIGRIS_TRACE_H
#define TIGRIS_TRACE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TIGRIS_TRACE_STAGE_BEGIN = 1,
    TIGRIS_TRACE_STAGE_END = 2,
    TIGRIS_TRACE_TILE_BEGIN = 3,
    TIGRIS_TRACE_LOAD = 4,
    TIGRIS_TRACE_SPILL = 5,
    TIGRIS_TRACE_ALLOC = 6,
    TIGRIS_TRACE_RESET = 7,
    TIGRIS_TRACE_MOVE = 8,
    TIGRIS_TRACE_WEIGHTS = 9,
    TIGRIS_TRACE_OP = 10,
    TIGRIS_TRACE_COPY = 11
} tigris_trace_kind_t;

/* Execution path a stage runs by (reported on STAGE_BEGIN and carried on
 * every later event until the next one). */
typedef enum {
    TIGRIS_TRACE_PATH_NORMAL = 0,
    TIGRIS_TRACE_PATH_TILED = 1,
    TIGRIS_TRACE_PATH_TILED_2D = 2,
    TIGRIS_TRACE_PATH_BY_INPUT = 3,
    TIGRIS_TRACE_PATH_TRANSPOSE = 4,
    TIGRIS_TRACE_PATH_ROWS = 5,
    TIGRIS_TRACE_PATH_RESHAPE = 6,
    TIGRIS_TRACE_PATH_CHAIN = 7,
    TIGRIS_TRACE_PATH_CONTROL = 8
} tigris_trace_path_t;

#define TIGRIS_TRACE_POOL_FAST 0
#define TIGRIS_TRACE_POOL_SLOW 1
#define TIGRIS_TRACE_POOL_NONE 0xFF
#define TIGRIS_TRACE_NONE16 0xFFFF

/* One event (48 bytes). Offsets are from the pool's base pointer. */
typedef struct {
    uint8_t kind;  /* tigris_trace_kind_t */
    uint8_t pool;  /* TIGRIS_TRACE_POOL_* */
    uint8_t path;  /* tigris_trace_path_t of the latest STAGE_BEGIN */
    uint8_t _pad;
    uint16_t stage;  /* current stage, or 0xFFFF */
    uint16_t tensor; /* tensor index, or 0xFFFF */
    uint16_t op;     /* OP: op index; TILE_BEGIN: tile ordinal; else 0xFFFF */
    uint16_t _pad2;
    uint32_t offset;     /* destination byte offset in its pool */
    uint32_t src_offset; /* source offset (or per-kind meaning) */
    uint32_t bytes;
    int32_t row0, row1; /* [row0, row1) or -1 */
    int32_t col0, col1; /* [col0, col1) or -1 */
    uint32_t fast_used;
    uint32_t slow_used;
} tigris_trace_event_t;

typedef char tigris_trace_event_is_48_bytes[(sizeof(tigris_trace_event_t) == 48) ? 1 : -1];

typedef void (*tigris_trace_fn)(const tigris_trace_event_t *event, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_TRACE_H */
