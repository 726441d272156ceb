/*
 * tiles.c - within step 16 of docs/format.md P13.2: the tiled-stage contracts of
 * docs/format.md P7.3, then docs/format.md F5 (stated kind and facts, schema
 * 11) and F7 (TILE_BAND) for a standalone stage with a tileable record.
 */
#include "bands.h"

static const tigris_tensor_t *T(const tigris_plan_t *p, uint16_t t) { return &p->tensors[t]; }
static uint32_t D(const tigris_plan_t *p, uint16_t t, uint32_t a) { return (uint32_t)tigris__dim(p, T(p, t), a); }

/* Reshape and leading bands run the record's band length as stated, so
 * the record must describe exactly that banding. */
static int exact_band_record(const tigris_tile_plan_v10_t *r, uint8_t axis, uint32_t rows) {
    return r->tileable && axis == TIGRIS_TILE_AXIS_HEIGHT && r->tile_height > 0 && r->tile_height <= rows &&
           r->original_height == rows && r->halo == 0 && r->receptive_field == 1 && r->tile_width == 0 &&
           r->flags == 0 && r->num_tiles == rows / r->tile_height + (rows % r->tile_height ? 1u : 0u);
}

static int same_shape(const tigris_plan_t *p, uint16_t a, uint16_t b) {
    uint32_t d;
    if (T(p, a)->ndim != T(p, b)->ndim) return 0;
    for (d = 0; d < T(p, a)->ndim; d++)
        if (D(p, a, d) != D(p, b, d)) return 0;
    return 1;
}

/* A binary op whose two runtime operands differ in shape (broadcast). */
static int broadcasting_binary(const tigris_plan_t *p, const tigris_op_t *op) {
    return tigris__op_is_binary(op->op_type) && op->num_inputs >= 2 &&
           !same_shape(p, tigris__op_in(p, op, 0), tigris__op_in(p, op, 1));
}

static tigris_error_t rank3_contract(const tigris__ld_t *ld, const tigris_stage_t *st) {
    const tigris_plan_t *p = ld->plan;
    uint32_t k, conv1d = 0, binary = 0;
    if (ld->version < 5) return TIGRIS_ERR_BAD_OPERATOR;
    for (k = 0; k < st->ops_count; k++) {
        const tigris_op_t *op = &p->ops[tigris__stage_op(p, st, k)];
        if (op->op_type == TIGRIS_OP_CONV1D) conv1d++;
        else if (tigris__op_is_binary(op->op_type)) {
            binary++;
            if (broadcasting_binary(p, op)) return TIGRIS_ERR_BAD_OPERATOR;
        } else if (!tigris__op_is_unary(op->op_type)) return TIGRIS_ERR_BAD_OPERATOR;
    }
    if (conv1d > 1 || (conv1d && binary)) return TIGRIS_ERR_BAD_OPERATOR;
    return TIGRIS_OK;
}

static tigris_error_t rank4_contract(const tigris__ld_t *ld, const tigris_stage_t *st) {
    const tigris_plan_t *p = ld->plan;
    uint32_t k, spatial = 0;
    const tigris_op_t *op0 = &p->ops[tigris__stage_op(p, st, 0)];
    if (st->ops_count == 1 && op0->op_type == TIGRIS_OP_GLOBAL_AVG) {
        uint16_t out;
        if (st->inputs_count != 1 || st->outputs_count != 1 || op0->num_outputs < 1) return TIGRIS_ERR_BAD_OPERATOR;
        out = tigris__op_out(p, op0, 0);
        if (T(p, out)->ndim != 4 || D(p, out, 1) != 1 || D(p, out, 2) != 1) return TIGRIS_ERR_BAD_OPERATOR;
        return TIGRIS_OK;
    }
    for (k = 0; k < st->ops_count; k++) {
        uint8_t t = p->ops[tigris__stage_op(p, st, k)].op_type;
        if (tigris__op_is_spatial_h(t) || t == TIGRIS_OP_RESIZE || t == TIGRIS_OP_RESIZE_LINEAR) spatial++;
        else if (!tigris__op_is_chainable(t)) return TIGRIS_ERR_BAD_OPERATOR;
    }
    return spatial > 1 ? TIGRIS_ERR_BAD_OPERATOR : TIGRIS_OK;
}

/* Does c divide a*b? Decided in 32 bits (c divides a*b exactly when
 * c/gcd(a,c) divides b) because 64-bit division needs libgcc helpers that
 * the lx106 toolchain does not ship. c == 0 divides nothing. */
static int divides_product(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t x = a, y = c;
    if (c == 0) return 0;
    while (y != 0) {
        uint32_t r = x % y;
        x = y;
        y = r;
    }
    return b % (c / x) == 0;
}

tigris_error_t tigris__ld_tile_contract(const tigris__ld_t *ld, uint16_t s) {
    const tigris_plan_t *p = ld->plan;
    const tigris_stage_t *st = &p->stages[s];
    tigris_tile_plan_v10_t rec;
    tigris__stage_shape_t sh;
    uint8_t axis;
    uint32_t k;
    if (st->tile_plan_idx == TIGRIS_NONE16 || st->chain_len != 0) return TIGRIS_OK;
    rec = tigris_stage_tiles(p, st);
    if (!rec.tileable) return TIGRIS_OK;
    axis = tigris__tile_axis(p, &rec);
    tigris__stage_shape(p, st, &sh);
    if (sh.reshape) {
        if (!exact_band_record(&rec, axis, sh.reshape_rows)) return TIGRIS_ERR_BAD_OPERATOR;
        if (!divides_product(rec.tile_height, sh.reshape_w_in, sh.reshape_w_out) ||
            !divides_product(sh.reshape_rows, sh.reshape_w_in, sh.reshape_w_out))
            return TIGRIS_ERR_BAD_OPERATOR;
        return TIGRIS_OK;
    }
    if (sh.leading) return exact_band_record(&rec, axis, sh.leading_rows) ? TIGRIS_OK : TIGRIS_ERR_BAD_OPERATOR;
    if (sh.indep_height) return TIGRIS_OK;
    /* The HW path tiles by the record's rectangle: both extents must be
     * stated (the executor refuses a zero one, docs/runtime-semantics.md R2.7.2). */
    if (axis == TIGRIS_TILE_AXIS_HW)
        return rec.tile_height > 0 && rec.tile_width > 0 ? TIGRIS_OK : TIGRIS_ERR_BAD_OPERATOR;
    if (st->inputs_count == 0 || st->outputs_count == 0) return TIGRIS_ERR_BAD_SECTION;
    if (sh.row_tiled) {
        for (k = 0; k < st->ops_count; k++)
            if (broadcasting_binary(p, &p->ops[tigris__stage_op(p, st, k)])) return TIGRIS_ERR_BAD_OPERATOR;
        return TIGRIS_OK;
    }
    if (st->ops_count == 1 && p->ops[tigris__stage_op(p, st, 0)].op_type == TIGRIS_OP_TRANSPOSE) {
        uint32_t r = T(p, tigris__stage_in(p, st, 0))->ndim;
        for (k = 1; k < (uint32_t)st->inputs_count + st->outputs_count; k++) {
            uint16_t t = k < st->inputs_count ? tigris__stage_in(p, st, k) : tigris__stage_out(p, st, k - st->inputs_count);
            if (T(p, t)->ndim != r) return TIGRIS_ERR_BAD_SECTION;
        }
        if (r < 3 || r > 6) return TIGRIS_ERR_BAD_SECTION;
        return sh.transposed ? TIGRIS_OK : TIGRIS_ERR_BAD_OPERATOR;
    }
    if (sh.common_rank == 0) return TIGRIS_ERR_BAD_SECTION;
    if (st->ops_count == 0) return TIGRIS_OK;
    return sh.common_rank == 3 ? rank3_contract(ld, st) : rank4_contract(ld, st);
}

/* ---- F7: every tensor of a stripe / 2-D tile is cut into the same bands ---- */

static int in_list(const tigris_plan_t *p, uint16_t off, uint16_t n, uint16_t t) {
    uint32_t k;
    for (k = 0; k < n; k++)
        if (tigris__pool16(p, (uint32_t)off + k) == t) return 1;
    return 0;
}

static int broadcast_operand(const tigris_plan_t *p, uint16_t t) {
    return T(p, t)->ndim == 4 && D(p, t, 1) == 1;
}

/* axis: 1 for a stripe; 1 and then 2 for a 2-D tile. */
static tigris_error_t bands_consistent(const tigris_plan_t *p, const tigris_stage_t *st, uint32_t axis) {
    int pos = tigris__stripe_spatial_pos(p, st);
    uint16_t band_in = TIGRIS_NONE16, first_out;
    uint32_t k, i, x_in, x_out;
    for (k = 0; k < st->inputs_count; k++) {
        uint16_t t = tigris__stage_in(p, st, k);
        if (!broadcast_operand(p, t)) {
            band_in = t;
            break;
        }
    }
    if (band_in == TIGRIS_NONE16 || st->outputs_count == 0) return TIGRIS_ERR_TILE_BAND;
    first_out = tigris__stage_out(p, st, 0);
    if (T(p, band_in)->ndim <= axis || T(p, first_out)->ndim <= axis) return TIGRIS_ERR_TILE_BAND;
    x_in = D(p, band_in, axis);
    x_out = D(p, first_out, axis);
    for (k = 0; k < st->ops_count; k++) {
        const tigris_op_t *op = &p->ops[tigris__stage_op(p, st, k)];
        int after = pos >= 0 && (int)k >= pos; /* the spatial op itself writes output rows */
        for (i = 0; i < op->num_inputs; i++) {
            uint16_t t = tigris__op_in(p, op, i);
            if (!in_list(p, st->inputs_off, st->inputs_count, t) || broadcast_operand(p, t)) continue;
            /* The executor loads stage inputs at the input rows of the band,
             * so only ops up to the spatial op may read them. */
            if (pos >= 0 && (int)k > pos) return TIGRIS_ERR_TILE_BAND;
            if (T(p, t)->ndim <= axis || D(p, t, axis) != x_in) return TIGRIS_ERR_TILE_BAND;
        }
        for (i = 0; i < op->num_outputs; i++) {
            uint16_t t = tigris__op_out(p, op, i);
            uint32_t want = (after || pos < 0) ? x_out : x_in;
            if (T(p, t)->ndim <= axis || D(p, t, axis) != want) return TIGRIS_ERR_TILE_BAND;
        }
    }
    if (pos < 0 && x_in != x_out) return TIGRIS_ERR_TILE_BAND;
    /* Every stage output is written band by band by one of the stage's ops. */
    for (k = 0; k < st->outputs_count; k++) {
        uint16_t t = tigris__stage_out(p, st, k);
        int produced = 0;
        for (i = 0; i < st->ops_count && !produced; i++) {
            const tigris_op_t *op = &p->ops[tigris__stage_op(p, st, i)];
            produced = in_list(p, op->outputs_off, op->num_outputs, t);
        }
        if (!produced) return TIGRIS_ERR_TILE_BAND;
    }
    return TIGRIS_OK;
}

static int facts_equal(const tigris_tile_facts_t *a, const tigris_tile_facts_t *b) {
    return a->tile_extent == b->tile_extent && a->num_tiles == b->num_tiles &&
           a->original_extent == b->original_extent && a->halo == b->halo && a->band_axis == b->band_axis &&
           a->band == b->band;
}

tigris_error_t tigris__ld_tile_band(const tigris__ld_t *ld, uint16_t s) {
    const tigris_plan_t *p = ld->plan;
    const tigris_stage_t *st = &p->stages[s];
    const tigris_tile_facts_t *stated = NULL;
    tigris_tile_facts_t derived, zero;
    tigris_tile_plan_v10_t rec;
    tigris__stage_shape_t sh;
    tigris_band_kind_t kind;
    tigris_error_t e;

    if (st->tile_plan_idx == TIGRIS_NONE16 || st->chain_len != 0) return TIGRIS_OK;
    if (p->tile_plans_v11) stated = &p->tile_plans_v11[st->tile_plan_idx].facts;
    rec = tigris_stage_tiles(p, st);
    memset(&zero, 0, sizeof zero);
    if (!rec.tileable) return (stated && !facts_equal(stated, &zero)) ? TIGRIS_ERR_TILE_FACTS : TIGRIS_OK;

    tigris__stage_shape(p, st, &sh);
    if (stated) {
        kind = (tigris_band_kind_t)TIGRIS_TILE_BAND_KIND(stated->band);
        if (kind == TIGRIS_BAND_KIND_NONE || !tigris__kind_met(p, st, &sh, &rec, kind)) return TIGRIS_ERR_TILE_FACTS;
    } else {
        kind = tigris__kind_derive(p, st, &sh, &rec);
    }
    if (kind == TIGRIS_BAND_KIND_STRIPE || kind == TIGRIS_BAND_KIND_HW) {
        if ((e = bands_consistent(p, st, 1)) != TIGRIS_OK) return e;
        if (kind == TIGRIS_BAND_KIND_HW && (e = bands_consistent(p, st, 2)) != TIGRIS_OK) return e;
    }
    if (!stated) return TIGRIS_OK;
    if (!tigris__facts_of(p, st, &sh, &rec, kind, &derived)) return TIGRIS_ERR_TILE_FACTS;
    return facts_equal(stated, &derived) ? TIGRIS_OK : TIGRIS_ERR_TILE_FACTS;
}
