/*
 * bands.h - how a standalone stage can be cut into bands
 * (docs/runtime-semantics.md R2.3 rule order, R2.7.1-R2.7.7). Shared by the
 * loader's tiling contracts, the band checks (docs/format.md F5-F7) and
 * the public tigris_stage_band_kind / tigris_stage_tile_facts.
 *
 * Every function takes a plan whose structure (steps 1-15) is checked and
 * whose stage lists are in bounds; operator fields that only step 20
 * validates (spatial values, attribute payloads) are read defensively.
 */
#ifndef TIGRIS_LOADER_BANDS_H
#define TIGRIS_LOADER_BANDS_H

#include "loader_internal.h"

typedef struct {
    uint32_t batch, rows, cols;
} tigris__rowview_t;

/* What the stage's shape allows, independent of any tile record. */
typedef struct {
    uint8_t reshape;      /* docs/runtime-semantics.md R2.7.7: reshape in row bands */
    uint8_t leading;      /* R2.7.6 */
    uint8_t row_tiled;    /* R2.7.5 */
    uint8_t transposed;   /* R2.7.4 */
    uint8_t input_driven; /* R2.7.3 */
    uint8_t common_rank;  /* 3 or 4 when every stage input/output has it, else 0 */
    uint8_t stripe_ok;    /* docs/runtime-semantics.md R2.7.1 allow-list (with common rank) */
    uint8_t indep_height; /* single op independent along axis 1 */
    /* Extents the band kinds divide. */
    uint8_t reshape_axis, leading_axis, transpose_axis_rows, transpose_axis_cols;
    uint32_t reshape_rows, reshape_w_in, reshape_w_out, leading_rows;
    uint32_t transpose_rows, transpose_cols;
    tigris__rowview_t rows_view;
    uint8_t rows_axis;
} tigris__stage_shape_t;

void tigris__stage_shape(const tigris_plan_t *plan, const tigris_stage_t *st, tigris__stage_shape_t *out);

/* Row view of a tensor: rank 2, or rank > 2 with LINEAR. */
int tigris__row_view(const tigris_plan_t *plan, uint16_t t, tigris__rowview_t *v);

/* Tile axis the executor uses: the record's for schema >= 5, HEIGHT before. */
uint8_t tigris__tile_axis(const tigris_plan_t *plan, const tigris_tile_plan_v10_t *rec);

/* Does the stage meet the conditions of band kind k (given its record)? */
int tigris__kind_met(const tigris_plan_t *plan, const tigris_stage_t *st, const tigris__stage_shape_t *sh,
                     const tigris_tile_plan_v10_t *rec, tigris_band_kind_t k);

/* The executor's choice among the kinds, in its rule order. */
tigris_band_kind_t tigris__kind_derive(const tigris_plan_t *plan, const tigris_stage_t *st,
                                       const tigris__stage_shape_t *sh, const tigris_tile_plan_v10_t *rec);

/* Facts of kind k (docs/format.md F5); 0 when the record gives no band. */
int tigris__facts_of(const tigris_plan_t *plan, const tigris_stage_t *st, const tigris__stage_shape_t *sh,
                     const tigris_tile_plan_v10_t *rec, tigris_band_kind_t k, tigris_tile_facts_t *out);

/* First op of the stage that sets the band geometry of a stripe / 2-D tile
 * (Conv, Depthwise, pools, resizes, Conv1D, ConvTranspose); -1 if none. */
int tigris__stripe_spatial_pos(const tigris_plan_t *plan, const tigris_stage_t *st);

#endif /* TIGRIS_LOADER_BANDS_H */
