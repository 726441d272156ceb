/*
 * op_movement.c - data-movement operators 66-72 and their MOVEMENT payload
 * (docs/format.md P14.7; kind 12 of P10.1).
 */
#include "op_checks.h"

#define TG_MOVE_MAX_VALUES 19u
#define TG_MOVE_MAX_RANK 6u

typedef struct {
    int32_t v[TG_MOVE_MAX_VALUES];
    uint32_t n;
} tg_move_t;

/* Index tensor of Gather/GatherND/EmbeddingLookup: an int32 constant sized by
 * the payload's index shape, or the second runtime input of exactly that shape. */
static tigris_error_t tg_check_indices(const tg_op_ctx_t *c, const tg_dim_t *idx, uint32_t ir) {
    uint64_t n = 1;
    for (uint32_t i = 0; i < ir; i++) {
        TG_REQUIRE(idx[i] > 0);
        n = tg_mul(n, (uint32_t)idx[i]);
    }
    int64_t w = tg_weight_size(c, c->op->weight_idx);
    if (w >= 0) {
        TG_REQUIRE(c->op->num_inputs == 1 && (uint64_t)w == tg_mul(n, 4));
        return TIGRIS_OK;
    }
    TG_REQUIRE(c->op->num_inputs == 2);
    const tigris_tensor_t *t = tg_in(c, 1);
    TG_REQUIRE(t->ndim == ir);
    const tg_dim_t *ts = tg_shape(c, t);
    for (uint32_t i = 0; i < ir; i++) TG_REQUIRE(ts[i] == idx[i]);
    return TIGRIS_OK;
}

/* y's shape must be the concatenation a[0..na) ‖ b[0..nb) ‖ d[0..nd). */
static int tg_shape_is(const tg_op_ctx_t *c, const tigris_tensor_t *y, const tg_dim_t *a, uint32_t na,
                       const tg_dim_t *b, uint32_t nb, const tg_dim_t *d, uint32_t nd) {
    if ((uint32_t)y->ndim != na + nb + nd) return 0;
    const tg_dim_t *ys = tg_shape(c, y);
    for (uint32_t i = 0; i < na; i++)
        if (*ys++ != a[i]) return 0;
    for (uint32_t i = 0; i < nb; i++)
        if (*ys++ != b[i]) return 0;
    for (uint32_t i = 0; i < nd; i++)
        if (*ys++ != d[i]) return 0;
    return 1;
}

static tigris_error_t tg_check_gather(const tg_op_ctx_t *c, const tg_move_t *m) {
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    const tg_dim_t *xs = tg_shape(c, x);
    int32_t rank = x->ndim;
    TG_REQUIRE(m->n >= 3);
    int32_t axis = m->v[0], batch = m->v[1], ir = m->v[2];
    TG_REQUIRE(ir >= 0 && m->n == 3u + (uint32_t)ir);
    TG_REQUIRE(batch >= 0 && batch <= axis && axis < rank && batch <= ir);
    if (c->op->op_type == TIGRIS_OP_EMBEDDING_LOOKUP) TG_REQUIRE(rank >= 2 && axis == 0 && batch == 0 && ir == 1);
    const tg_dim_t *idx = &m->v[3];
    tigris_error_t err = tg_check_indices(c, idx, (uint32_t)ir);
    if (err != TIGRIS_OK) return err;
    /* Batch dimensions are shared: the indices' leading extents are the input's. */
    for (int32_t k = 0; k < batch; k++) TG_REQUIRE(idx[k] == xs[k]);
    TG_REQUIRE(tg_shape_is(c, y, xs, (uint32_t)axis, idx + batch, (uint32_t)(ir - batch), xs + axis + 1,
                           (uint32_t)(rank - axis - 1)));
    return TIGRIS_OK;
}

static tigris_error_t tg_check_gather_nd(const tg_op_ctx_t *c, const tg_move_t *m) {
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    const tg_dim_t *xs = tg_shape(c, x);
    int32_t rank = x->ndim;
    int32_t ir = m->v[0];
    TG_REQUIRE(ir >= 1 && m->n == 1u + (uint32_t)ir);
    const tg_dim_t *idx = &m->v[1];
    int32_t depth = idx[ir - 1];
    TG_REQUIRE(depth >= 1 && depth <= rank && depth <= 5);
    tigris_error_t err = tg_check_indices(c, idx, (uint32_t)ir);
    if (err != TIGRIS_OK) return err;
    TG_REQUIRE(tg_shape_is(c, y, idx, (uint32_t)(ir - 1), xs + depth, (uint32_t)(rank - depth), NULL, 0));
    return TIGRIS_OK;
}

/* Elements a (start, end, step) slice selects; start/end already range-checked. */
static uint32_t tg_slice_count(int32_t start, int32_t end, int32_t step) {
    int64_t span = step > 0 ? (int64_t)end - start : (int64_t)start - end;
    if (span <= 0) return 0;
    uint32_t mag = step > 0 ? (uint32_t)step : (uint32_t)(-(int64_t)step);
    return ((uint32_t)span + mag - 1u) / mag;
}

static tigris_error_t tg_check_strided_slice(const tg_op_ctx_t *c, const tg_move_t *m) {
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(c->op->num_inputs == 1 && c->op->weight_idx == TIGRIS_NONE16);
    uint32_t rank = x->ndim;
    TG_REQUIRE(rank >= 1 && rank <= 4);
    TG_REQUIRE(m->n == 3u * rank || m->n == 3u * rank + 1u);
    uint32_t shrink = 0;
    if (m->n == 3u * rank + 1u) {
        TG_REQUIRE(m->v[3 * rank] >= 0 && ((uint32_t)m->v[3 * rank] >> rank) == 0);
        shrink = (uint32_t)m->v[3 * rank];
    }
    const tg_dim_t *xs = tg_shape(c, x), *ys = tg_shape(c, y);
    uint32_t out_axis = 0;
    for (uint32_t a = 0; a < rank; a++) {
        int32_t start = m->v[3 * a], end = m->v[3 * a + 1], step = m->v[3 * a + 2];
        TG_REQUIRE(start >= 0 && start < xs[a] && end >= -1 && end <= xs[a] && step != 0);
        uint32_t n = tg_slice_count(start, end, step);
        if (shrink & (1u << a)) {
            TG_REQUIRE(step > 0 && n == 1);
            continue;
        }
        TG_REQUIRE(out_axis < y->ndim && (uint32_t)ys[out_axis] == n);
        out_axis++;
    }
    TG_REQUIRE(out_axis == y->ndim);
    return TIGRIS_OK;
}

static tigris_error_t tg_check_mirror_pad(const tg_op_ctx_t *c, const tg_move_t *m) {
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(c->op->num_inputs == 1 && c->op->weight_idx == TIGRIS_NONE16);
    uint32_t rank = x->ndim;
    TG_REQUIRE(rank >= 1 && y->ndim == rank && m->n == 1u + 2u * rank);
    int32_t sym = m->v[0];
    TG_REQUIRE(sym == 0 || sym == 1);
    const tg_dim_t *xs = tg_shape(c, x), *ys = tg_shape(c, y);
    for (uint32_t a = 0; a < rank; a++) {
        int32_t before = m->v[1 + 2 * a], after = m->v[2 + 2 * a];
        int64_t most = (int64_t)xs[a] - 1 + sym; /* reflection must stay inside the axis */
        TG_REQUIRE(before >= 0 && after >= 0 && before <= most && after <= most);
        TG_REQUIRE((int64_t)xs[a] + before + after == (int64_t)ys[a]);
    }
    return TIGRIS_OK;
}

static tigris_error_t tg_check_reverse(const tg_op_ctx_t *c, const tg_move_t *m) {
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(c->op->num_inputs == 1 && c->op->weight_idx == TIGRIS_NONE16);
    TG_REQUIRE(m->n == 1 && tg_same_shape(c, x, y));
    uint32_t mask = (uint32_t)m->v[0];
    TG_REQUIRE(mask != 0 && (x->ndim >= 32 || (mask >> x->ndim) == 0));
    uint32_t low = mask & (~mask + 1u);
    /* Contiguous: adding the lowest set bit clears the whole run. */
    TG_REQUIRE(((mask + low) & mask) == 0);
    return TIGRIS_OK;
}

static tigris_error_t tg_check_dus(const tg_op_ctx_t *c, const tg_move_t *m) {
    const tigris_op_t *op = c->op;
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    uint32_t rank = x->ndim;
    TG_REQUIRE(rank >= 1 && tg_same_shape(c, x, y));
    int weight_update = op->weight_idx != TIGRIS_NONE16;
    uint32_t runtime_updates = weight_update ? 0u : 1u;
    const tg_dim_t *ushape;
    if (m->n == 2u * rank) {
        /* Constant starts: they are clamped at run time, so any value is usable. */
        TG_REQUIRE(op->num_inputs == 1u + runtime_updates);
        ushape = &m->v[rank];
    } else {
        TG_REQUIRE(m->n == rank && op->num_inputs == 2u + runtime_updates);
        const tigris_tensor_t *s = tg_in(c, op->num_inputs - 1u);
        TG_REQUIRE(s->ndim == 1 && (uint32_t)tg_shape(c, s)[0] == rank);
        ushape = &m->v[0];
    }
    const tg_dim_t *xs = tg_shape(c, x);
    uint64_t n = 1;
    for (uint32_t a = 0; a < rank; a++) {
        TG_REQUIRE(ushape[a] >= 1 && ushape[a] <= xs[a]);
        n = tg_mul(n, (uint32_t)ushape[a]);
    }
    if (weight_update) {
        int64_t w = tg_weight_size(c, op->weight_idx);
        TG_REQUIRE((uint64_t)w == tg_mul(n, tg_esize(c->d)));
    } else {
        const tigris_tensor_t *u = tg_in(c, 1);
        TG_REQUIRE(u->ndim == rank && u->dtype == x->dtype && tg_same_encoding(c, u, x));
        const tg_dim_t *us = tg_shape(c, u);
        for (uint32_t a = 0; a < rank; a++) TG_REQUIRE(us[a] == ushape[a]);
    }
    return TIGRIS_OK;
}

tigris_error_t tg_check_movement(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    TG_REQUIRE(op->num_outputs == 1 && op->bias_idx == TIGRIS_NONE16);
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(x->ndim <= TG_MOVE_MAX_RANK && y->ndim <= TG_MOVE_MAX_RANK);
    TG_REQUIRE(x->dtype == y->dtype);
    if (c->d == TIGRIS_DTYPE_INT8) TG_REQUIRE(tg_same_encoding(c, x, y));

    uint32_t len;
    const uint8_t *p = tg_attr(c, TIGRIS_ATTR_MOVEMENT, &len);
    TG_REQUIRE(p && len >= 4 && len % 4 == 0 && len <= 4 * TG_MOVE_MAX_VALUES);
    tg_move_t m;
    m.n = len / 4;
    for (uint32_t i = 0; i < m.n; i++) m.v[i] = tg_rd_i32(p + 4 * i);

    switch (op->op_type) {
    case TIGRIS_OP_GATHER:
    case TIGRIS_OP_EMBEDDING_LOOKUP:
        return tg_check_gather(c, &m);
    case TIGRIS_OP_GATHER_ND:
        return tg_check_gather_nd(c, &m);
    case TIGRIS_OP_STRIDED_SLICE:
        return tg_check_strided_slice(c, &m);
    case TIGRIS_OP_MIRROR_PAD:
        return tg_check_mirror_pad(c, &m);
    case TIGRIS_OP_REVERSE_V2:
        return tg_check_reverse(c, &m);
    case TIGRIS_OP_DYNAMIC_UPDATE_SLICE:
        return tg_check_dus(c, &m);
    default:
        return TIGRIS_ERR_BAD_OPERATOR;
    }
}
