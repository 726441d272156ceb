/*
 * tigris_executor.h - run a loaded plan inside caller-owned arenas.
 */
#ifndef TIGRIS_EXECUTOR_H
#define TIGRIS_EXECUTOR_H

#include "tigris.h"
#include "tigris_loader.h"
#include "tigris_mem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TIGRIS_EXEC_OK = 0,
    TIGRIS_EXEC_ERR_NULL = -1,
    TIGRIS_EXEC_ERR_MEM = -2,
    TIGRIS_EXEC_ERR_KERNEL = -3,
    TIGRIS_EXEC_ERR_NO_STAGES = -4,
    TIGRIS_EXEC_ERR_TILE = -5,
    TIGRIS_EXEC_ERR_WORKSPACE = -6,
    TIGRIS_EXEC_ERR_STATE = -7
} tigris_exec_error_t;

typedef struct tigris_exec_stats {
    uint16_t stages_normal;
    uint16_t stages_tiled;
    uint16_t stages_chain;
    uint16_t total_tiles;
    uint32_t slow_overflow_count;
    uint32_t slow_overflow_bytes;
    uint32_t loads_bytes;
    uint32_t spills_bytes;
    uint32_t compactions;
    uint32_t slow_peak;
    uint32_t weight_bytes;
    uint32_t copy_bytes;
} tigris_exec_stats_t;

/* Kernel dispatcher: called once per op with input/output pointers set in mem. */
typedef int (*tigris_kernel_fn)(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                tigris_mem_t *mem, void *user_ctx);

/* The executor workspace formula (docs/runtime-semantics.md R2.1.1), the one
 * definition behind TIGRIS_EXECUTOR_WORKSPACE_MIN_BYTES,
 * tigris_executor_workspace_required() and the run's own size check: the
 * bytes for a plan whose stages have at most `inputs` inputs and `outputs`
 * outputs, whose longest chain has `chain` members with at most `spatial`
 * height-spatial ops each, over `tensors` tensors. Pointer, int32 and uint16
 * arrays, each with room to align its start. Arguments of a wider type make
 * the whole sum that type (the loader passes uint64_t to catch overflow). */
#define TIGRIS_WORKSPACE_BYTES_(inputs, outputs, chain, spatial, tensors)                              \
    ((sizeof(void *) - 1) + ((inputs) + (outputs) + 2 * (chain)) * sizeof(void *) + 3 +                \
     ((14 + 13 * (spatial)) * (chain) + 2 * (tensors)) * 4 + 1 +                                       \
     (2 * (tensors) + 4 + 4 * TIGRIS_MAX_SUBGRAPH_DEPTH) * 2)

/* Workspace bytes for the build-wide limits TIGRIS_MAX_*. */
#define TIGRIS_EXECUTOR_WORKSPACE_MIN_BYTES                                                            \
    TIGRIS_WORKSPACE_BYTES_(TIGRIS_MAX_STAGE_INPUTS, TIGRIS_MAX_STAGE_OUTPUTS, TIGRIS_MAX_CHAIN_STAGES, \
                            TIGRIS_MAX_SPATIAL_OPS_PER_STAGE, TIGRIS_MAX_TENSORS)

#ifndef TIGRIS_EXECUTOR_WORKSPACE_BYTES
#define TIGRIS_EXECUTOR_WORKSPACE_BYTES TIGRIS_EXECUTOR_WORKSPACE_MIN_BYTES
#endif

/* Opaque, naturally aligned executor working storage. */
typedef union {
    unsigned char bytes[TIGRIS_EXECUTOR_WORKSPACE_BYTES];
    void *align_ptr;
    int32_t align_i32;
    uint64_t align_u64;
} tigris_executor_workspace_t;

typedef char tigris_executor_workspace_bytes_too_small
    [(TIGRIS_EXECUTOR_WORKSPACE_BYTES >= TIGRIS_EXECUTOR_WORKSPACE_MIN_BYTES) ? 1 : -1];

size_t tigris_executor_workspace_size(void);

tigris_exec_error_t tigris_run(const tigris_plan_t *plan, tigris_mem_t *mem, tigris_kernel_fn kernel,
                               void *user_ctx, tigris_exec_stats_t *stats);

tigris_exec_error_t tigris_run_with_workspace(const tigris_plan_t *plan, tigris_mem_t *mem,
                                              tigris_kernel_fn kernel, void *user_ctx,
                                              tigris_exec_stats_t *stats,
                                              tigris_executor_workspace_t *workspace);

tigris_exec_error_t tigris_run_with_workspace_buffer(const tigris_plan_t *plan, tigris_mem_t *mem,
                                                     tigris_kernel_fn kernel, void *user_ctx,
                                                     tigris_exec_stats_t *stats, void *workspace,
                                                     size_t workspace_size);

tigris_exec_error_t tigris_run_with_state(const tigris_plan_t *plan, tigris_mem_t *mem, tigris_kernel_fn kernel,
                                          void *user_ctx, tigris_exec_stats_t *stats, void *workspace,
                                          size_t workspace_size, void *state, size_t state_size);

size_t tigris_state_required(const tigris_plan_t *plan);

tigris_exec_error_t tigris_state_init(const tigris_plan_t *plan, void *state, size_t state_size);

const char *tigris_exec_error_str(tigris_exec_error_t err);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_EXECUTOR_H */
