/*
 * tigris_loader.h - load and validate a .tgrs plan (schema 4..11).
 *
 * Loading is zero-copy and zero-alloc: the plan points into the caller's
 * buffer, which must outlive it. Every check of docs/format.md runs in its
 * documented order; the first failure decides the error and zeroes the plan.
 */
#ifndef TIGRIS_LOADER_H
#define TIGRIS_LOADER_H

#include "tigris.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Build limits, in the terms of the TIGRIS_MAX_* definitions. */
typedef struct {
    uint32_t tensors;
    uint32_t stage_inputs;
    uint32_t stage_outputs;
    uint32_t chain_stages;
    uint32_t spatial_ops_per_stage;
    uint32_t subgraphs;
    uint32_t subgraph_depth;
} tigris_plan_limits_t;

/* What tigris_stage_band_kind() reports about the extent a band divides. */
typedef struct {
    uint32_t extent; /* rows (or leading-axis extent) the bands divide */
    uint8_t axis;    /* serialized axis the bands run along */
    uint8_t mode;    /* leading-band mode (docs/format.md, F4); 0 otherwise */
    uint16_t _reserved;
} tigris_stage_band_t;

tigris_error_t tigris_plan_load(const uint8_t *buf, uint32_t buf_len, tigris_plan_t *out_plan);

tigris_error_t tigris_plan_load_ex(const uint8_t *buf, uint32_t buf_len, tigris_plan_t *out_plan,
                                   tigris_plan_limits_t *out_required);

void tigris_build_limits(tigris_plan_limits_t *out);

/* int8 (3) when any activation is int8, else float32 (1). */
uint8_t tigris_plan_data_dtype(const tigris_plan_t *plan);

/* Derive the facts a schema-11 tile record states; 1 when derived, 0 when the
 * stage's tiling has no such description (an untileable record yields zeros). */
int tigris_stage_tile_facts(const tigris_plan_t *plan, const tigris_stage_t *stage, tigris_tile_facts_t *out);

tigris_band_kind_t tigris_stage_band_kind(const tigris_plan_t *plan, const tigris_stage_t *stage,
                                          tigris_stage_band_t *band);

/* Caller-owned workspace bytes a loaded plan needs; 0 = incomplete metadata. */
size_t tigris_executor_workspace_required(const tigris_plan_t *plan);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_LOADER_H */
