/*
 * bands.c - which band shapes a standalone stage allows
 * (docs/runtime-semantics.md R2.7). Pure functions of the plan: no record values
 * except where the executor itself reads them (tile axis, transpose
 * orientation).
 */
#include "bands.h"

static const tigris_tensor_t *T(const tigris_plan_t *p, uint16_t t) { return &p->tensors[t]; }
static uint32_t D(const tigris_plan_t *p, uint16_t t, uint32_t a) { return (uint32_t)tigris__dim(p, T(p, t), a); }

static uint32_t prod(const tigris_plan_t *p, uint16_t t, uint32_t from, uint32_t to) {
    uint32_t v = 1, a;
    for (a = from; a < to; a++) v *= D(p, t, a); /* element counts fit 32 bits (step 8) */
    return v;
}

static int in_stage_inputs(const tigris_plan_t *p, const tigris_stage_t *st, uint16_t t) {
    uint32_t k;
    for (k = 0; k < st->inputs_count; k++)
        if (tigris__stage_in(p, st, k) == t) return 1;
    return 0;
}

int tigris__row_view(const tigris_plan_t *p, uint16_t t, tigris__rowview_t *v) {
    const tigris_tensor_t *x = T(p, t);
    if (x->ndim == 2) {
        v->batch = 1;
        v->rows = D(p, t, 0);
        v->cols = D(p, t, 1);
        return 1;
    }
    if (x->ndim > 2 && (x->flags & TIGRIS_TENSOR_LINEAR)) {
        v->batch = prod(p, t, 0, x->ndim - 2u);
        v->rows = D(p, t, x->ndim - 2u);
        v->cols = D(p, t, x->ndim - 1u);
        return 1;
    }
    return 0;
}

static int mv_read(const tigris_plan_t *p, uint16_t oi, int32_t *v, uint32_t max, uint32_t *n) {
    uint8_t len = 0;
    const uint8_t *a = tigris_op_attribute_data(p, oi, TIGRIS_ATTR_MOVEMENT, &len);
    uint32_t i;
    if (!a || (len & 3u) || len / 4u > max) return 0;
    *n = len / 4u;
    for (i = 0; i < *n; i++) v[i] = (int32_t)tigris__rd32(a + 4 * i);
    return 1;
}

/* An op whose result along `axis` depends only on the same positions of its
 * operands (docs/runtime-semantics.md R2.7.6 "independent band" rules), so bands along it are exact. */
static int indep_op(const tigris_plan_t *p, uint16_t oi, uint32_t axis) {
    const tigris_op_t *op = &p->ops[oi];
    uint16_t out;
    uint32_t r, ext, k, n = 0;
    int32_t v[64];
    if (op->num_inputs < 1 || op->num_outputs != 1) return 0;
    out = tigris__op_out(p, op, 0);
    r = T(p, out)->ndim;
    if (axis >= r) return 0;
    ext = D(p, out, axis);
    if (ext <= 1) return 0;
    for (k = 0; k < op->num_inputs; k++) {
        uint16_t in = tigris__op_in(p, op, k);
        if (T(p, in)->ndim != r || D(p, in, axis) != ext) return 0;
    }
    switch (op->op_type) {
    case TIGRIS_OP_REDUCE_MEAN: case TIGRIS_OP_REDUCE_MAX: case TIGRIS_OP_REDUCE_MIN: case TIGRIS_OP_REDUCE_SUM:
    case TIGRIS_OP_REDUCE_ALL: case TIGRIS_OP_CUMSUM: case TIGRIS_OP_ARG_MAX: case TIGRIS_OP_ARG_MIN: {
        uint8_t len = 0;
        const uint8_t *a = tigris_op_attribute_data(p, oi, TIGRIS_ATTR_AXES, &len);
        return a && len == 1 && a[0] != axis;
    }
    case TIGRIS_OP_GATHER:
    case TIGRIS_OP_EMBEDDING_LOOKUP:
        if (op->weight_idx == TIGRIS_NONE16 || op->num_inputs != 1) return 0;
        if (!mv_read(p, oi, v, 64, &n) || n < 3) return 0;
        return v[0] >= 0 && (uint32_t)v[0] != axis && v[1] >= 0 && (uint32_t)v[1] <= axis;
    case TIGRIS_OP_GATHER_ND:
        if (!mv_read(p, oi, v, 64, &n) || n < 2 || v[0] < 1 || (uint32_t)v[0] + 1u > n) return 0;
        return v[v[0]] >= 0 && (uint32_t)v[v[0]] <= axis;
    case TIGRIS_OP_STRIDED_SLICE: {
        uint32_t mask;
        if (!mv_read(p, oi, v, 64, &n) || (n != 3u * r && n != 3u * r + 1u)) return 0;
        mask = n == 3u * r + 1u ? (uint32_t)v[3u * r] : 0u;
        return v[3 * axis] == 0 && (uint32_t)v[3 * axis + 1] == ext && v[3 * axis + 2] == 1 &&
               !((mask >> axis) & 1u);
    }
    case TIGRIS_OP_MIRROR_PAD:
        if (!mv_read(p, oi, v, 64, &n) || n != 1u + 2u * r) return 0;
        return v[1 + 2 * axis] == 0 && v[2 + 2 * axis] == 0;
    case TIGRIS_OP_REVERSE_V2:
        if (!mv_read(p, oi, v, 64, &n) || n != 1) return 0;
        return !(((uint32_t)v[0] >> axis) & 1u);
    case TIGRIS_OP_DYNAMIC_UPDATE_SLICE:
        if (op->weight_idx != TIGRIS_NONE16 || op->num_inputs != 2) return 0;
        if (!mv_read(p, oi, v, 64, &n) || n != 2u * r) return 0;
        return v[axis] == 0 && (uint32_t)v[r + axis] == ext;
    default: return 0;
    }
}

static int same_quant(const tigris_plan_t *p, uint16_t a, uint16_t b) {
    const tigris_quant_param_t *qa = tigris_tensor_quant(p, T(p, a)), *qb = tigris_tensor_quant(p, T(p, b));
    if (!qa || !qb) return qa == qb;
    return tigris__rd32((const uint8_t *)&qa->scale) == tigris__rd32((const uint8_t *)&qb->scale) &&
           qa->zero_point == qb->zero_point;
}

static int own_order(const tigris_plan_t *p, uint16_t t) {
    return T(p, t)->ndim == 2 || (T(p, t)->flags & TIGRIS_TENSOR_LINEAR);
}

static int mode_axis(const tigris_plan_t *p, uint16_t t, uint32_t mode, uint32_t *axis) {
    uint32_t r = T(p, t)->ndim, a;
    if (mode == 0) *axis = r - 2u;
    else if (mode == 1) *axis = 1;
    else {
        for (a = 0; a < r && D(p, t, a) == 1; a++) {}
        if (a >= r) return 0;
        *axis = a;
    }
    return *axis < r;
}

static void reshape_band(const tigris_plan_t *p, const tigris_stage_t *st, tigris__stage_shape_t *sh) {
    const tigris_op_t *op;
    uint16_t in, out;
    uint32_t mode;
    if (st->ops_count != 1 || st->inputs_count != 1 || st->outputs_count != 1) return;
    op = &p->ops[tigris__stage_op(p, st, 0)];
    if ((op->op_type != TIGRIS_OP_RESHAPE && op->op_type != TIGRIS_OP_FLATTEN) || op->num_inputs != 1 ||
        op->num_outputs != 1)
        return;
    in = tigris__op_in(p, op, 0);
    out = tigris__op_out(p, op, 0);
    if (in != tigris__stage_in(p, st, 0) || out != tigris__stage_out(p, st, 0)) return;
    if (T(p, in)->dtype != T(p, out)->dtype) return;
    if (T(p, in)->dtype != TIGRIS_DTYPE_FLOAT32 && T(p, in)->dtype != TIGRIS_DTYPE_INT8) return;
    if (T(p, in)->size_bytes != T(p, out)->size_bytes || !same_quant(p, in, out)) return;
    if (T(p, in)->ndim < 2 || T(p, in)->ndim > 6 || T(p, out)->ndim < 2 || T(p, out)->ndim > 6) return;
    if (own_order(p, in) != own_order(p, out)) return;
    if (!own_order(p, in) && (D(p, in, 0) != D(p, out, 0) ||
                              D(p, in, T(p, in)->ndim - 1u) != D(p, out, T(p, out)->ndim - 1u)))
        return;
    for (mode = own_order(p, in) ? 0u : 1u; mode <= 2; mode++) {
        uint32_t ai, ao, rows_in, w_in, rows_out, w_out;
        if (!mode_axis(p, in, mode, &ai) || !mode_axis(p, out, mode, &ao)) continue;
        if (prod(p, in, 0, ai) != prod(p, out, 0, ao)) continue;
        rows_in = D(p, in, ai);
        w_in = prod(p, in, ai + 1u, T(p, in)->ndim);
        rows_out = D(p, out, ao);
        w_out = prod(p, out, ao + 1u, T(p, out)->ndim);
        if ((uint64_t)rows_in * w_in != (uint64_t)rows_out * w_out || rows_in <= 1) continue;
        sh->reshape = 1;
        sh->reshape_axis = (uint8_t)ai;
        sh->reshape_rows = rows_in;
        sh->reshape_w_in = w_in;
        sh->reshape_w_out = w_out;
        return;
    }
}

static void leading_band(const tigris_plan_t *p, const tigris_stage_t *st, tigris__stage_shape_t *sh) {
    const tigris_op_t *op;
    uint16_t oi, out;
    uint32_t r, a, k, b;
    if (st->ops_count != 1 || st->chain_len != 0 || st->outputs_count != 1) return;
    oi = tigris__stage_op(p, st, 0);
    op = &p->ops[oi];
    if (op->num_outputs != 1 || op->num_inputs != st->inputs_count) return;
    for (k = 0; k < op->num_inputs; k++)
        if (!in_stage_inputs(p, st, tigris__op_in(p, op, k))) return;
    out = tigris__op_out(p, op, 0);
    r = T(p, out)->ndim;
    for (a = 0; a < r && D(p, out, a) == 1; a++) {}
    if (a + 1u >= r) return; /* never the last axis */
    if (!indep_op(p, oi, a)) return;
    for (k = 0; k < op->num_inputs; k++)
        for (b = 0; b < a; b++)
            if (D(p, tigris__op_in(p, op, k), b) != 1) return;
    if (r >= 2 && D(p, out, r - 2u) > 1 && indep_op(p, oi, r - 2u)) return;
    if (r >= 3 && indep_op(p, oi, 1)) return;
    sh->leading = 1;
    sh->leading_axis = (uint8_t)a;
    sh->leading_rows = D(p, out, a);
}

static int is_fc_like(uint8_t t) { return t == TIGRIS_OP_FULLY_CONN || t == TIGRIS_OP_MATMUL; }

static int same_rows(const tigris__rowview_t *a, const tigris__rowview_t *b) {
    return a->batch == b->batch && a->rows == b->rows;
}

static void row_band(const tigris_plan_t *p, const tigris_stage_t *st, tigris__stage_shape_t *sh) {
    tigris__rowview_t band, v;
    uint32_t k, i;
    if (st->chain_len != 0 || st->outputs_count == 0) return;
    for (k = 0; k < st->outputs_count; k++) {
        if (!tigris__row_view(p, tigris__stage_out(p, st, k), &v)) return;
        if (k == 0) band = v;
        else if (!same_rows(&band, &v)) return;
    }
    if (band.rows <= 1) return;
    for (k = 0; k < st->ops_count; k++) {
        uint16_t oi = tigris__stage_op(p, st, k);
        const tigris_op_t *op = &p->ops[oi];
        uint16_t out;
        if (op->num_outputs != 1) return;
        out = tigris__op_out(p, op, 0);
        if (!tigris__row_view(p, out, &v) || !same_rows(&band, &v)) return;
        if (!tigris__op_is_row_tiling(op->op_type) && !indep_op(p, oi, T(p, out)->ndim - 2u)) return;
        if (op->op_type == TIGRIS_OP_FULLY_CONN && T(p, out)->ndim != 2) return;
        for (i = 0; i < op->num_inputs; i++) {
            if (is_fc_like(op->op_type) && i >= 1) continue;
            if (!tigris__row_view(p, tigris__op_in(p, op, i), &v) || !same_rows(&band, &v)) return;
        }
    }
    for (k = 0; k < st->inputs_count; k++)
        if (!tigris__row_view(p, tigris__stage_in(p, st, k), &v)) return;
    sh->row_tiled = 1;
    sh->rows_view = band;
    sh->rows_axis = (uint8_t)(T(p, tigris__stage_out(p, st, 0))->ndim - 2u);
}

/* perm = [prefix][B][A][suffix] of an input [prefix][A][B][suffix]. */
static void transpose_band(const tigris_plan_t *p, const tigris_stage_t *st, tigris__stage_shape_t *sh) {
    const tigris_op_t *op;
    uint16_t oi, in, out;
    const uint8_t *perm;
    uint8_t len = 0;
    uint32_t r, s, a, b, j;
    if (st->ops_count != 1 || st->inputs_count != 1 || st->outputs_count != 1 || st->chain_len != 0) return;
    oi = tigris__stage_op(p, st, 0);
    op = &p->ops[oi];
    if (op->op_type != TIGRIS_OP_TRANSPOSE || op->num_inputs != 1 || op->num_outputs != 1) return;
    in = tigris__op_in(p, op, 0);
    out = tigris__op_out(p, op, 0);
    r = T(p, in)->ndim;
    if (T(p, out)->ndim != r || T(p, in)->size_bytes != T(p, out)->size_bytes) return;
    perm = tigris_op_attribute_data(p, oi, TIGRIS_ATTR_TRANSPOSE_PERM, &len);
    if (!perm || len != r) return;
    for (s = 0; s < r && perm[s] == s; s++) {}
    if (s >= r || perm[s] <= s || perm[s] >= r) return;
    a = perm[s] - s;             /* length of group A */
    for (b = 0; s + b < r && perm[s + b] == s + a + b; b++) {}
    if (b == 0 || s + a + b > r) return;
    for (j = 0; j < a; j++)
        if (perm[s + b + j] != s + j) return;
    for (j = s + a + b; j < r; j++)
        if (perm[j] != j) return;
    sh->transposed = 1;
    sh->transpose_rows = prod(p, in, s, s + a);
    sh->transpose_cols = prod(p, in, s + a, s + a + b);
    sh->transpose_axis_rows = (uint8_t)s;
    sh->transpose_axis_cols = (uint8_t)(s + a);
}

static void input_driven(const tigris_plan_t *p, const tigris_stage_t *st, tigris__stage_shape_t *sh) {
    const tigris_op_t *op;
    uint16_t in, out;
    if (st->ops_count != 1 || st->inputs_count != 1 || st->outputs_count != 1 || st->chain_len != 0) return;
    op = &p->ops[tigris__stage_op(p, st, 0)];
    if (op->op_type != TIGRIS_OP_GLOBAL_AVG || op->num_inputs != 1 || op->num_outputs != 1) return;
    in = tigris__op_in(p, op, 0);
    out = tigris__op_out(p, op, 0);
    if (in != tigris__stage_in(p, st, 0) || out != tigris__stage_out(p, st, 0)) return;
    if (T(p, in)->ndim != 4 || T(p, out)->ndim != 4 || D(p, in, 1) <= 1) return;
    if (D(p, out, 0) != D(p, in, 0) || D(p, out, 1) != 1 || D(p, out, 2) != 1 || D(p, out, 3) != D(p, in, 3)) return;
    sh->input_driven = 1;
}

static uint8_t common_rank(const tigris_plan_t *p, const tigris_stage_t *st) {
    uint32_t k, r = 0;
    if (st->outputs_count == 0) return 0;
    for (k = 0; k < st->inputs_count + st->outputs_count; k++) {
        uint16_t t = k < st->inputs_count ? tigris__stage_in(p, st, k) : tigris__stage_out(p, st, k - st->inputs_count);
        if (k == 0) r = T(p, t)->ndim;
        else if (T(p, t)->ndim != r) return 0;
    }
    return (r == 3 || r == 4) ? (uint8_t)r : 0;
}

int tigris__stripe_spatial_pos(const tigris_plan_t *p, const tigris_stage_t *st) {
    uint32_t k;
    for (k = 0; k < st->ops_count; k++)
        if (tigris__op_is_stripe_spatial(p->ops[tigris__stage_op(p, st, k)].op_type)) return (int)k;
    return -1;
}

static void stripe_allow(const tigris_plan_t *p, const tigris_stage_t *st, tigris__stage_shape_t *sh) {
    uint32_t k, conv1d = 0, binary = 0, spatial = 0;
    if (st->ops_count == 1 && indep_op(p, tigris__stage_op(p, st, 0), 1)) {
        sh->indep_height = 1;
        sh->stripe_ok = 1;
        return;
    }
    if (st->ops_count == 0) return;
    for (k = 0; k < st->ops_count; k++) {
        const tigris_op_t *op = &p->ops[tigris__stage_op(p, st, k)];
        uint8_t t = op->op_type;
        if (sh->common_rank == 3) {
            if (t == TIGRIS_OP_CONV1D) conv1d++;
            else if (tigris__op_is_binary(t)) binary++;
            else if (!tigris__op_is_unary(t)) return;
        } else if (sh->common_rank == 4) {
            if (!tigris__op_bands_by_height(p, op)) return;
            if (tigris__op_is_stripe_spatial(t)) spatial++;
        } else {
            return;
        }
    }
    if (conv1d > 1 || (conv1d && binary) || spatial > 1) return;
    sh->stripe_ok = 1;
}

void tigris__stage_shape(const tigris_plan_t *p, const tigris_stage_t *st, tigris__stage_shape_t *sh) {
    memset(sh, 0, sizeof *sh);
    if (st->chain_len != 0) return;
    reshape_band(p, st, sh);
    leading_band(p, st, sh);
    row_band(p, st, sh);
    transpose_band(p, st, sh);
    input_driven(p, st, sh);
    sh->common_rank = common_rank(p, st);
    stripe_allow(p, st, sh);
}

uint8_t tigris__tile_axis(const tigris_plan_t *p, const tigris_tile_plan_v10_t *rec) {
    if (!rec->tileable) return TIGRIS_TILE_AXIS_NONE;
    return p->header->version >= 5 ? rec->axis : TIGRIS_TILE_AXIS_HEIGHT;
}

static int special(const tigris__stage_shape_t *sh) { return sh->row_tiled || sh->transposed || sh->input_driven; }

static int axis1_tileable(const tigris__stage_shape_t *sh) {
    return special(sh) || (sh->common_rank && sh->stripe_ok);
}

int tigris__kind_met(const tigris_plan_t *p, const tigris_stage_t *st, const tigris__stage_shape_t *sh,
                     const tigris_tile_plan_v10_t *rec, tigris_band_kind_t k) {
    uint8_t axis = tigris__tile_axis(p, rec);
    (void)st;
    if (!rec->tileable) return 0;
    switch (k) {
    case TIGRIS_BAND_KIND_RESHAPE: return sh->reshape;
    case TIGRIS_BAND_KIND_LEADING: return sh->leading;
    case TIGRIS_BAND_KIND_ROWS: return sh->row_tiled && axis == TIGRIS_TILE_AXIS_HEIGHT;
    case TIGRIS_BAND_KIND_TRANSPOSE: return sh->transposed && axis == TIGRIS_TILE_AXIS_HEIGHT;
    case TIGRIS_BAND_KIND_BY_INPUT: return sh->input_driven && axis == TIGRIS_TILE_AXIS_HEIGHT;
    case TIGRIS_BAND_KIND_HW:
        return axis == TIGRIS_TILE_AXIS_HW && p->header->version >= 5 && axis1_tileable(sh) && !special(sh) &&
               sh->common_rank == 4;
    case TIGRIS_BAND_KIND_STRIPE:
        return axis1_tileable(sh) && !special(sh) &&
               (sh->common_rank == 4 || (p->header->version >= 5 && axis == TIGRIS_TILE_AXIS_HEIGHT));
    default: return 0;
    }
}

tigris_band_kind_t tigris__kind_derive(const tigris_plan_t *p, const tigris_stage_t *st,
                                       const tigris__stage_shape_t *sh, const tigris_tile_plan_v10_t *rec) {
    const tigris_band_kind_t order[] = {TIGRIS_BAND_KIND_RESHAPE,   TIGRIS_BAND_KIND_LEADING,
                                               TIGRIS_BAND_KIND_ROWS,      TIGRIS_BAND_KIND_TRANSPOSE,
                                               TIGRIS_BAND_KIND_BY_INPUT,  TIGRIS_BAND_KIND_HW,
                                               TIGRIS_BAND_KIND_STRIPE};
    uint32_t i;
    uint8_t axis = tigris__tile_axis(p, rec);
    if (!rec->tileable) return TIGRIS_BAND_KIND_NONE;
    /* The executor fails closed on a special stage with a non-height axis
     * rather than falling through to a plainer path. */
    if (!sh->reshape && !sh->leading && special(sh) && axis != TIGRIS_TILE_AXIS_HEIGHT) return TIGRIS_BAND_KIND_NONE;
    for (i = 0; i < sizeof order / sizeof order[0]; i++)
        if (tigris__kind_met(p, st, sh, rec, order[i])) return order[i];
    return TIGRIS_BAND_KIND_NONE;
}
