/*
 * facts.c - the schema-11 tile facts of a stage (docs/format.md F5) and the
 * public tigris_stage_band_kind / tigris_stage_tile_facts.
 */
#include "bands.h"

static uint32_t ceil_div(uint32_t a, uint32_t b) { return a / b + (a % b ? 1u : 0u); }
static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* Rows a band reads beyond its own: eff_k - stride of the op that sets the
 * stripe geometry, when positive. Resizes and ConvTranspose gather their
 * source rows by formula and overlap nothing fixed, so they state 0. */
static uint16_t stripe_halo(const tigris_plan_t *p, const tigris_stage_t *st) {
    int pos = tigris__stripe_spatial_pos(p, st);
    const tigris_op_t *op;
    uint32_t d, eff;
    if (pos < 0) return 0;
    op = &p->ops[tigris__stage_op(p, st, (uint32_t)pos)];
    if (!tigris__op_is_spatial_h(op->op_type) && op->op_type != TIGRIS_OP_CONV1D) return 0;
    d = op->spatial.dilation_h ? op->spatial.dilation_h : 1u;
    eff = op->spatial.kernel_h ? ((uint32_t)op->spatial.kernel_h - 1u) * d + 1u : 1u;
    if (eff <= op->spatial.stride_h) return 0;
    eff -= op->spatial.stride_h;
    return (uint16_t)(eff > 0xFFFFu ? 0xFFFFu : eff);
}

/* The stripe/2-D output the bands divide: the spatial op's output, or the
 * stage's first output without one. */
static uint16_t stripe_out(const tigris_plan_t *p, const tigris_stage_t *st) {
    int pos = tigris__stripe_spatial_pos(p, st);
    if (pos >= 0) {
        const tigris_op_t *op = &p->ops[tigris__stage_op(p, st, (uint32_t)pos)];
        if (op->num_outputs >= 1) return tigris__op_out(p, op, 0);
    }
    return tigris__stage_out(p, st, 0);
}

int tigris__facts_of(const tigris_plan_t *p, const tigris_stage_t *st, const tigris__stage_shape_t *sh,
                     const tigris_tile_plan_v10_t *rec, tigris_band_kind_t k, tigris_tile_facts_t *f) {
    uint32_t th = rec->tile_height, extent = 0, axis = 1;
    uint8_t mode = 0;
    memset(f, 0, sizeof *f);
    if (th == 0) return 0;
    switch (k) {
    case TIGRIS_BAND_KIND_STRIPE:
    case TIGRIS_BAND_KIND_HW: {
        uint16_t o = stripe_out(p, st);
        if (p->tensors[o].ndim < 3) return 0;
        extent = (uint32_t)tigris__dim(p, &p->tensors[o], 1);
        f->halo = stripe_halo(p, st);
        if (k == TIGRIS_BAND_KIND_HW) {
            uint32_t w, tw = rec->tile_width;
            if (p->tensors[o].ndim != 4 || tw == 0) return 0;
            w = (uint32_t)tigris__dim(p, &p->tensors[o], 2);
            f->tile_extent = min_u32(th, extent);
            f->num_tiles = ceil_div(extent, f->tile_extent) * ceil_div(w, min_u32(tw, w));
            f->original_extent = extent;
            f->band_axis = 1;
            f->band = TIGRIS_TILE_BAND(k, 0);
            return 1;
        }
        break;
    }
    case TIGRIS_BAND_KIND_BY_INPUT:
        extent = (uint32_t)tigris__dim(p, &p->tensors[tigris__stage_in(p, st, 0)], 1);
        break;
    case TIGRIS_BAND_KIND_TRANSPOSE: {
        int on_cols = (p->header->version >= 9) ? (rec->flags & TIGRIS_TILE_BAND_ON_COLUMNS) != 0
                                                 : sh->transpose_cols >= sh->transpose_rows;
        extent = on_cols ? sh->transpose_cols : sh->transpose_rows;
        axis = on_cols ? sh->transpose_axis_cols : sh->transpose_axis_rows;
        break;
    }
    case TIGRIS_BAND_KIND_ROWS:
        extent = sh->rows_view.rows;
        axis = sh->rows_axis;
        break;
    case TIGRIS_BAND_KIND_LEADING:
        extent = sh->leading_rows;
        axis = sh->leading_axis;
        mode = 2; /* TIGRIS_ROW_MODE_LEADING, the band mode kernels see */
        break;
    case TIGRIS_BAND_KIND_RESHAPE:
        extent = sh->reshape_rows;
        axis = sh->reshape_axis;
        break;
    default: return 0;
    }
    if (extent == 0) return 0;
    f->tile_extent = min_u32(th, extent);
    f->num_tiles = ceil_div(extent, f->tile_extent);
    f->original_extent = extent;
    f->band_axis = (uint8_t)axis;
    f->band = TIGRIS_TILE_BAND(k, mode);
    return 1;
}

static int classify(const tigris_plan_t *p, const tigris_stage_t *st, tigris__stage_shape_t *sh,
                    tigris_tile_plan_v10_t *rec, tigris_band_kind_t *kind) {
    *kind = TIGRIS_BAND_KIND_NONE;
    if (!p || !st || !p->header || !p->tensors || st->tile_plan_idx == TIGRIS_NONE16) return 0;
    if (st->chain_len != 0) return 0;
    if (st->ops_count == 1 && (p->ops[tigris__stage_op(p, st, 0)].op_type == TIGRIS_OP_IF ||
                               p->ops[tigris__stage_op(p, st, 0)].op_type == TIGRIS_OP_WHILE))
        return 0;
    *rec = tigris_stage_tiles(p, st);
    if (!rec->tileable) return 1;
    tigris__stage_shape(p, st, sh);
    if (p->tile_plans_v11) {
        tigris_band_kind_t k = (tigris_band_kind_t)TIGRIS_TILE_BAND_KIND(p->tile_plans_v11[st->tile_plan_idx].facts.band);
        if (k != TIGRIS_BAND_KIND_NONE && tigris__kind_met(p, st, sh, rec, k)) *kind = k;
    } else {
        *kind = tigris__kind_derive(p, st, sh, rec);
    }
    return 1;
}

tigris_band_kind_t tigris_stage_band_kind(const tigris_plan_t *plan, const tigris_stage_t *stage,
                                          tigris_stage_band_t *band) {
    tigris__stage_shape_t sh;
    tigris_tile_plan_v10_t rec;
    tigris_tile_facts_t f;
    tigris_band_kind_t k;
    if (band) memset(band, 0, sizeof *band);
    if (!classify(plan, stage, &sh, &rec, &k) || k == TIGRIS_BAND_KIND_NONE) return TIGRIS_BAND_KIND_NONE;
    if (band) {
        /* The extent and axis do not depend on the record's band length. */
        rec.tile_height = 1;
        rec.tile_width = 1;
        if (tigris__facts_of(plan, stage, &sh, &rec, k, &f)) {
            band->extent = f.original_extent;
            band->axis = f.band_axis;
            band->mode = TIGRIS_TILE_BAND_MODE(f.band);
        }
    }
    return k;
}

int tigris_stage_tile_facts(const tigris_plan_t *plan, const tigris_stage_t *stage, tigris_tile_facts_t *out) {
    tigris__stage_shape_t sh;
    tigris_tile_plan_v10_t rec;
    tigris_band_kind_t k;
    tigris_tile_facts_t f;
    memset(&f, 0, sizeof f);
    if (out) memset(out, 0, sizeof *out);
    if (!classify(plan, stage, &sh, &rec, &k)) return 0;
    if (!rec.tileable) return 1; /* an untileable record states all zero */
    if (k == TIGRIS_BAND_KIND_NONE || !tigris__facts_of(plan, stage, &sh, &rec, k, &f)) return 0;
    if (out) *out = f;
    return 1;
}
