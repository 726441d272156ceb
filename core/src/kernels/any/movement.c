/*
 * movement.c - data movement shared by both dtypes (docs/runtime-semantics.md R4.6,
 * docs/format.md P14.5/P14.7): Transpose, Split, Gather, EmbeddingLookup,
 * GatherND, StridedSlice, MirrorPad, ReverseV2 and DynamicUpdateSlice move
 * whole elements of any byte size and never do arithmetic on them, except a
 * Transpose between two int8 encodings, which re-encodes like Reshape.
 * Compiled with the int8 kernels; a float-only build takes the same code
 * through ref/movement.c, so it exists once in every build.
 *
 * Bands: Transpose runs under the TRANSPOSE band path (mem->tile
 * transposed_tile: a [outer][in_h][in_w] stack of items of `block`
 * elements becomes [outer][in_w][in_h]). The MOVEMENT ops run under the
 * independent-band rules of docs/runtime-semantics.md R2.7.6 (STRIPE height bands, ROWS and LEADING
 * bands): every tensor is cut to the band's rows along one axis that the op
 * leaves untouched, and the kernel refuses a band whose parameters touch it.
 */
#include "../kernel_common.h"
#include "../s8/fixedpoint.h"

/* ---- Helpers ---- */

static int mv_same_encoding(const tigris_plan_t *plan, const tigris_tensor_t *a, const tigris_tensor_t *b) {
    if (a->dtype != TIGRIS_DTYPE_INT8) return 1;
    const tigris_quant_param_t *qa = tigris_tensor_quant(plan, a), *qb = tigris_tensor_quant(plan, b);
    if (!qa || !qb) return qa == qb;
    return tk_scale_bits(plan, a) == tk_scale_bits(plan, b) && qa->zero_point == qb->zero_point;
}

/* 1 when [a, a+na) and [b, b+nb) share no byte. */
static int mv_disjoint(const void *a, size_t na, const void *b, size_t nb) {
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return pa + na <= pb || pb + nb <= pa;
}

/* The op's MOVEMENT payload as int32 values (at most 19). */
static int mv_payload(const tigris_plan_t *plan, uint16_t op_index, int32_t *v, uint32_t *n) {
    uint8_t len = 0;
    const uint8_t *p = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_MOVEMENT, &len);
    if (!p || len < 4 || (len & 3u) || len > 76) return -1;
    *n = len / 4u;
    for (uint32_t i = 0; i < *n; i++) v[i] = tk_ld_i32(p, i);
    return 0;
}

/* Input and output of a one-in one-out movement op, same dtype and (int8)
 * same encoding; buffers must not overlap. */
static int mv_io(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, tk_view_t *xv, tk_view_t *yv,
                 const uint8_t **x, uint8_t **y) {
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (op->num_outputs != 1 || tk_view(plan, ii, xv) || tk_view(plan, oi, yv)) return -1;
    if (xv->t->dtype != yv->t->dtype || !mv_same_encoding(plan, xv->t, yv->t)) return -1;
    *x = (const uint8_t *)tk_buf(mem, ii);
    *y = (uint8_t *)tk_buf(mem, oi);
    if (!*x || !*y) return -1;
    return 0;
}

/* Band of a MOVEMENT op under an active tile: the axis the executor cuts
 * (decided on the output view) and the rows of this band; ax = -1 when the
 * whole tensors are present. Roll offsets, 2-D tiles and transpose bands
 * never reach these ops. */
static int mv_band(const tigris_mem_t *mem, const tk_view_t *yv, int32_t *ax, int32_t *rows) {
    const tigris_tile_ctx_t *tc = &mem->tile;
    *ax = -1;
    *rows = 0;
    if (!tc->active) return 0;
    if (tc->transposed_tile || tc->width_tiled || tc->out_row_start || tc->in_row_start) return -1;
    if (tc->out_h <= 0 || tc->in_h != tc->out_h) return -1;
    int32_t a = -1;
    if (tc->row_tiled == TIGRIS_ROW_MODE_ROWS) {
        if (yv->rank >= 2) a = yv->rank - 2;
    } else if (tc->row_tiled == TIGRIS_ROW_MODE_LEADING) {
        for (int32_t i = 0; i + 1 < yv->rank; i++)
            if (yv->dim[i] != 1) {
                a = i;
                break;
            }
    } else if (tc->row_tiled == TIGRIS_ROW_MODE_NONE) {
        if (yv->rank == 3 || yv->rank == 4) a = 1;
    }
    if (a < 0 || tc->out_h > yv->dim[a]) return -1;
    *ax = a;
    *rows = tc->out_h;
    return 0;
}

/* Cut view v to `rows` along ax, whose full extent must be ext. */
static int mv_cut(tk_view_t *v, int32_t ax, int32_t ext, int32_t rows) {
    if (ax < 0) return 0;
    if (ax >= v->rank || v->dim[ax] != ext || rows <= 0 || rows > ext) return -1;
    v->numel = v->numel / (uint32_t)ext * (uint32_t)rows;
    v->dim[ax] = rows;
    return 0;
}

/* Row-major element strides of dims d[0..r). */
static void mv_strides(const int32_t *d, int32_t r, uint32_t *s) {
    uint32_t m = 1;
    for (int32_t k = r - 1; k >= 0; k--) {
        s[k] = m;
        m *= (uint32_t)d[k];
    }
}

/* ---- Index remapping: every output axis reads one source axis ---- */

#define MV_LINEAR 0 /* source index a + i·b */
#define MV_MIRROR 1 /* i − a reflected into [0, n) with mode b (0 reflect, 1 symmetric) */

typedef struct {
    int32_t kind, a, b, n; /* n: extent of the source axis */
    uint32_t stride;       /* element stride of the source axis */
} mv_axis_t;

/* int8 re-encoding of a Transpose between two encodings. */
typedef struct {
    int on;
    fx_real_t si, so;
    int32_t zi, zo;
} mv_rq_t;

static int64_t mv_map(const mv_axis_t *m, int64_t i) {
    if (m->kind == MV_LINEAR) return (int64_t)m->a + i * m->b;
    int64_t c = i - m->a;
    if (c < 0) c = -c - m->b;
    else if (c >= m->n) c = 2 * (int64_t)m->n - 2 + m->b - c;
    return c;
}

/* Every output position of every axis maps inside its source axis, and the
 * furthest source element lies inside the source's `in_numel` elements. */
static int mv_check_axes(const mv_axis_t *ax, const int32_t *odim, int32_t r, uint32_t base, uint32_t in_numel) {
    uint64_t far = base;
    for (int32_t k = 0; k < r; k++) {
        int64_t hi = 0;
        if (ax[k].n <= 0 || odim[k] <= 0) return -1;
        for (int32_t i = 0; i < odim[k]; i++) {
            int64_t s = mv_map(&ax[k], i);
            if (s < 0 || s >= ax[k].n) return -1;
            if (s > hi) hi = s;
        }
        far += (uint64_t)hi * ax[k].stride;
    }
    return far < in_numel ? 0 : -1;
}

static void mv_put(uint8_t *dst, const uint8_t *src, uint32_t es, const mv_rq_t *rq) {
    if (rq && rq->on) {
        int32_t q = (int32_t)(int8_t)src[0] - rq->zi;
        *dst = (uint8_t)(int8_t)fx_clamp(fx_scale_round(q, rq->si, rq->so) + rq->zo, -128, 127);
    } else {
        memcpy(dst, src, es);
    }
}

/* y[o] = x[base + Σ map_k(o_k)·stride_k] over the output positions of
 * odim[0..r) in row-major order (checked with mv_check_axes first). */
static void mv_remap(const mv_axis_t *ax, const int32_t *odim, int32_t r, uint32_t base, const uint8_t *x,
                     uint8_t *y, uint32_t es, const mv_rq_t *rq) {
    if (r == 0) {
        mv_put(y, x + (size_t)base * es, es, rq);
        return;
    }
    int32_t coord[TK_MAX_RANK];
    uint32_t rows = 1;
    for (int32_t k = 0; k + 1 < r; k++) {
        coord[k] = 0;
        rows *= (uint32_t)odim[k];
    }
    const mv_axis_t *in = &ax[r - 1];
    uint32_t run = (uint32_t)odim[r - 1];
    int contiguous = in->kind == MV_LINEAR && in->b == 1 && in->stride == 1 && !(rq && rq->on);
    for (uint32_t q = 0; q < rows; q++) {
        uint32_t off = base;
        for (int32_t k = 0; k + 1 < r; k++) off += (uint32_t)mv_map(&ax[k], coord[k]) * ax[k].stride;
        if (contiguous) {
            memcpy(y, x + ((size_t)off + (uint32_t)in->a) * es, (size_t)run * es);
            y += (size_t)run * es;
        } else {
            for (uint32_t i = 0; i < run; i++) {
                uint32_t s = off + (uint32_t)mv_map(in, i) * in->stride;
                mv_put(y, x + (size_t)s * es, es, rq);
                y += es;
            }
        }
        for (int32_t k = r - 2; k >= 0; k--) {
            if (++coord[k] < odim[k]) break;
            coord[k] = 0;
        }
    }
}

/* ---- Transpose (29) ---- */

/* Output axis a reads input axis perm[a] of dims d (rank r). */
static void mv_perm_axes(const int32_t *d, int32_t r, const uint8_t *perm, mv_axis_t *ax) {
    uint32_t s[TK_MAX_RANK];
    mv_strides(d, r, s);
    for (int32_t a = 0; a < r; a++) {
        ax[a].kind = MV_LINEAR;
        ax[a].a = 0;
        ax[a].b = 1;
        ax[a].n = d[perm[a]];
        ax[a].stride = s[perm[a]];
    }
}

int tk_any_transpose(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_view_t xv, yv;
    memset(&xv, 0, sizeof xv);
    memset(&yv, 0, sizeof yv);
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (op->num_inputs != 1 || op->num_outputs != 1 || tk_view(plan, ii, &xv) || tk_view(plan, oi, &yv)) return -1;
    if (xv.t->dtype != yv.t->dtype || xv.numel != yv.numel || xv.rank != yv.rank) return -1;
    uint8_t len = 0;
    const uint8_t *perm = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_TRANSPOSE_PERM, &len);
    int32_t r = xv.rank;
    if (!perm || len != (uint32_t)r) return -1;
    uint32_t seen = 0;
    for (int32_t a = 0; a < r; a++) {
        if (perm[a] >= r || (seen >> perm[a]) & 1u) return -1;
        seen |= 1u << perm[a];
        if (yv.dim[a] != xv.dim[perm[a]]) return -1;
    }
    mv_rq_t rq;
    memset(&rq, 0, sizeof rq);
    rq.on = !mv_same_encoding(plan, xv.t, yv.t);
    if (rq.on) {
        if (fx_from_float_bits(tk_scale_bits(plan, xv.t), &rq.si) ||
            fx_from_float_bits(tk_scale_bits(plan, yv.t), &rq.so) || rq.so.m == 0)
            return -1;
        rq.zi = tk_zero_point(plan, xv.t);
        rq.zo = tk_zero_point(plan, yv.t);
    }
    const uint8_t *x = (const uint8_t *)tk_buf(mem, ii);
    uint8_t *y = (uint8_t *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    uint32_t es = xv.esize;
    mv_axis_t ax[TK_MAX_RANK];
    memset(ax, 0, sizeof ax);
    const tigris_tile_ctx_t *tc = &mem->tile;
    if (!tc->active) {
        if (!mv_disjoint(x, (size_t)xv.numel * es, y, (size_t)yv.numel * es)) return -1;
        mv_perm_axes(xv.dim, r, perm, ax);
        if (mv_check_axes(ax, yv.dim, r, 0, xv.numel)) return -1;
        mv_remap(ax, yv.dim, r, 0, x, y, es, &rq);
        return 0;
    }
    /* A transpose band: perm must swap two adjacent axis groups,
     * [prefix][A][B][suffix] -> [prefix][B][A][suffix] (docs/runtime-semantics.md R2.7.4). */
    if (!tc->transposed_tile || tc->width_tiled || tc->row_tiled) return -1;
    int32_t s = 0, ga, gb = 0;
    while (s < r && perm[s] == s) s++;
    if (s >= r || perm[s] <= s) return -1;
    ga = perm[s] - s;
    while (s + gb < r && perm[s + gb] == s + ga + gb) gb++;
    if (gb == 0 || s + ga + gb > r) return -1;
    for (int32_t j = 0; j < ga; j++)
        if (perm[s + gb + j] != s + j) return -1;
    for (int32_t j = s + ga + gb; j < r; j++)
        if (perm[j] != j) return -1;
    uint32_t batch = 1, rows = 1, cols = 1, block = 1;
    for (int32_t k = 0; k < s; k++) batch *= (uint32_t)xv.dim[k];
    for (int32_t k = s; k < s + ga; k++) rows *= (uint32_t)xv.dim[k];
    for (int32_t k = s + ga; k < s + ga + gb; k++) cols *= (uint32_t)xv.dim[k];
    for (int32_t k = s + ga + gb; k < r; k++) block *= (uint32_t)xv.dim[k];
    int32_t h = tc->in_h, w = tc->in_w;
    if (tc->transpose_outer <= 0 || (uint32_t)tc->transpose_outer != batch || tc->transpose_block <= 0 ||
        (uint32_t)tc->transpose_block != block || h <= 0 || w <= 0 || tc->out_h != w || tc->out_w != h)
        return -1;
    if (!(((uint32_t)h == rows && (uint32_t)w <= cols) || ((uint32_t)w == cols && (uint32_t)h <= rows))) return -1;
    /* The band as a [outer][h][w][block] tensor transposed by [0,2,1,3]. */
    const int32_t bd[4] = {(int32_t)batch, h, w, (int32_t)block};
    const int32_t od[4] = {(int32_t)batch, w, h, (int32_t)block};
    static const uint8_t swap[4] = {0, 2, 1, 3};
    uint32_t n = batch * (uint32_t)h * (uint32_t)w * block; /* <= numel: h <= rows, w <= cols */
    if (!mv_disjoint(x, (size_t)n * es, y, (size_t)n * es)) return -1;
    mv_perm_axes(bd, 4, swap, ax);
    if (mv_check_axes(ax, od, 4, 0, n)) return -1;
    mv_remap(ax, od, 4, 0, x, y, es, &rq);
    return 0;
}

/* ---- Split (35) ---- */

int tk_any_split(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t xv;
    memset(&xv, 0, sizeof xv);
    int32_t ii = tk_in_idx(plan, op, 0);
    if (mem->tile.active || op->num_inputs != 1 || op->num_outputs < 2 || tk_view(plan, ii, &xv)) return -1;
    int32_t axis = op->spatial.kernel_h;
    if (axis >= xv.rank) return -1;
    const uint8_t *x = (const uint8_t *)tk_buf(mem, ii);
    if (!x) return -1;
    uint32_t es = xv.esize, outer = 1, inner = 1, sum = 0;
    for (int32_t k = 0; k < axis; k++) outer *= (uint32_t)xv.dim[k];
    for (int32_t k = axis + 1; k < xv.rank; k++) inner *= (uint32_t)xv.dim[k];
    /* Check every output before writing any. */
    for (uint32_t q = 0; q < op->num_outputs; q++) {
        tk_view_t yv;
        int32_t oi = tk_out_idx(plan, op, q);
        if (tk_view(plan, oi, &yv) || yv.rank != xv.rank || yv.t->dtype != xv.t->dtype ||
            !mv_same_encoding(plan, xv.t, yv.t))
            return -1;
        for (int32_t k = 0; k < xv.rank; k++)
            if (k != axis && yv.dim[k] != xv.dim[k]) return -1;
        sum += (uint32_t)yv.dim[axis];
        if (sum > (uint32_t)xv.dim[axis]) return -1;
        const uint8_t *y = (const uint8_t *)tk_buf(mem, oi);
        if (!y || !mv_disjoint(x, (size_t)xv.numel * es, y, (size_t)yv.numel * es)) return -1;
    }
    if (sum != (uint32_t)xv.dim[axis]) return -1;
    uint32_t in_chunk = (uint32_t)xv.dim[axis] * inner, pos = 0;
    for (uint32_t q = 0; q < op->num_outputs; q++) {
        int32_t oi = tk_out_idx(plan, op, q);
        uint8_t *y = (uint8_t *)tk_buf(mem, oi);
        const int32_t *sh = tigris_tensor_shape(plan, &plan->tensors[oi]);
        uint32_t chunk = (uint32_t)sh[axis] * inner; /* this part's run per outer position */
        for (uint32_t o = 0; o < outer; o++)
            memcpy(y + (size_t)o * chunk * es, x + ((size_t)o * in_chunk + pos) * es, (size_t)chunk * es);
        pos += chunk;
    }
    return 0;
}

/* ---- Index tensors of Gather / GatherND / EmbeddingLookup ---- */

/* The int32 indices of shape idx[0..ir): the constant at weight_idx (one
 * runtime input) or the second runtime input of exactly that shape. */
static const uint8_t *mv_indices(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem,
                                 const int32_t *idx, int32_t ir, uint32_t *count) {
    uint64_t n = 1;
    for (int32_t k = 0; k < ir; k++) {
        if (idx[k] <= 0) return NULL;
        n *= (uint64_t)idx[k];
        if (n > 0x1FFFFFFFu) return NULL;
    }
    *count = (uint32_t)n;
    if (op->num_inputs == 1) {
        if (op->weight_idx == TIGRIS_NONE16 || !plan->weight_entries || op->weight_idx >= plan->header->num_weights)
            return NULL;
        if (plan->weight_entries[op->weight_idx].size_bytes != (uint32_t)n * 4u) return NULL;
        return (const uint8_t *)tk_weight(plan, op->weight_idx, (uint32_t)n * 4u);
    }
    if (op->num_inputs != 2 || op->weight_idx != TIGRIS_NONE16) return NULL;
    tk_view_t iv;
    int32_t ii = tk_in_idx(plan, op, 1);
    if (tk_view(plan, ii, &iv) || iv.t->dtype != TIGRIS_DTYPE_INT32 || iv.rank != ir) return NULL;
    for (int32_t k = 0; k < ir; k++)
        if (iv.dim[k] != idx[k]) return NULL;
    return (const uint8_t *)tk_buf(mem, ii);
}

/* ---- Gather (66) / EmbeddingLookup (71) ---- */

static int mv_gather(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                     int embedding) {
    tk_view_t xv, yv;
    memset(&xv, 0, sizeof xv);
    memset(&yv, 0, sizeof yv);
    const uint8_t *x;
    uint8_t *y;
    int32_t v[19];
    memset(v, 0, sizeof v);
    uint32_t n;
    if (mv_io(plan, op, mem, &xv, &yv, &x, &y) || mv_payload(plan, op_index, v, &n) || n < 3) return -1;
    int32_t axis = v[0], batch = v[1], ir = v[2];
    if (ir < 0 || n != 3u + (uint32_t)ir) return -1;
    if (batch < 0 || batch > axis || axis >= xv.rank || batch > ir) return -1;
    if (embedding && (xv.rank < 2 || axis != 0 || batch != 0 || ir != 1)) return -1;
    const int32_t *idx = &v[3];
    uint32_t count;
    const uint8_t *ind = mv_indices(plan, op, mem, idx, ir, &count);
    if (!ind) return -1;
    for (int32_t k = 0; k < batch; k++)
        if (idx[k] != xv.dim[k]) return -1;
    int32_t ax, rows;
    if (mv_band(mem, &yv, &ax, &rows)) return -1;
    if (ax >= 0) {
        /* Independent band: constant indices, gathered axis untouched,
         * batch dims before the band axis, same rank on both sides. */
        if (op->num_inputs != 1 || ax == axis || batch > ax || xv.rank != yv.rank) return -1;
        int32_t ext = yv.dim[ax];
        if (mv_cut(&xv, ax, ext, rows) || mv_cut(&yv, ax, ext, rows)) return -1;
    }
    /* y = x[:axis] ‖ idx[batch:] ‖ x[axis+1:] */
    int32_t want = axis + (ir - batch) + (xv.rank - axis - 1), p = 0;
    if (yv.rank != want) return -1;
    for (int32_t k = 0; k < axis; k++)
        if (yv.dim[p++] != xv.dim[k]) return -1;
    for (int32_t k = batch; k < ir; k++)
        if (yv.dim[p++] != idx[k]) return -1;
    for (int32_t k = axis + 1; k < xv.rank; k++)
        if (yv.dim[p++] != xv.dim[k]) return -1;
    uint32_t es = xv.esize, nb = 1, outer = 1, inner = 1, coord = 1;
    uint32_t axis_size = (uint32_t)xv.dim[axis];
    for (int32_t k = 0; k < batch; k++) nb *= (uint32_t)xv.dim[k];
    for (int32_t k = batch; k < axis; k++) outer *= (uint32_t)xv.dim[k];
    for (int32_t k = axis + 1; k < xv.rank; k++) inner *= (uint32_t)xv.dim[k];
    for (int32_t k = batch; k < ir; k++) coord *= (uint32_t)idx[k];
    if ((uint64_t)nb * outer * coord * inner != yv.numel || (uint64_t)nb * coord != count) return -1;
    if (!mv_disjoint(x, (size_t)xv.numel * es, y, (size_t)yv.numel * es)) return -1;
    size_t run = (size_t)inner * es;
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t o = 0; o < outer; o++) {
            const uint8_t *src = x + ((size_t)b * outer + o) * axis_size * run;
            for (uint32_t i = 0; i < coord; i++) {
                int32_t at = tk_ld_i32(ind, b * coord + i);
                if (at < 0 || (uint32_t)at >= axis_size) return -1;
                memcpy(y, src + (size_t)at * run, run);
                y += run;
            }
        }
    return 0;
}

int tk_any_gather(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return mv_gather(plan, op, op_index, mem, 0);
}

int tk_any_embedding_lookup(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return mv_gather(plan, op, op_index, mem, 1);
}

/* ---- GatherND (67) ---- */

int tk_any_gather_nd(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_view_t xv, yv;
    memset(&xv, 0, sizeof xv);
    memset(&yv, 0, sizeof yv);
    const uint8_t *x;
    uint8_t *y;
    int32_t v[19];
    memset(v, 0, sizeof v);
    uint32_t n;
    if (mv_io(plan, op, mem, &xv, &yv, &x, &y) || mv_payload(plan, op_index, v, &n) || n < 2) return -1;
    int32_t ir = v[0];
    if (ir < 1 || n != 1u + (uint32_t)ir) return -1;
    const int32_t *idx = &v[1];
    int32_t depth = idx[ir - 1];
    if (depth < 1 || depth > xv.rank || depth > 5) return -1;
    uint32_t count;
    const uint8_t *ind = mv_indices(plan, op, mem, idx, ir, &count);
    if (!ind) return -1;
    int32_t ax, rows;
    if (mv_band(mem, &yv, &ax, &rows)) return -1;
    if (ax >= 0) {
        if (op->num_inputs != 1 || depth > ax || xv.rank != yv.rank) return -1;
        int32_t ext = yv.dim[ax];
        if (mv_cut(&xv, ax, ext, rows) || mv_cut(&yv, ax, ext, rows)) return -1;
    }
    /* y = idx[:-1] ‖ x[depth:] */
    if (yv.rank != ir - 1 + xv.rank - depth) return -1;
    for (int32_t k = 0; k + 1 < ir && k < TK_MAX_RANK; k++)
        if (yv.dim[k] != idx[k]) return -1;
    for (int32_t k = depth, q = ir - 1; k < xv.rank && k < TK_MAX_RANK; k++, q++)
        if (q < 0 || q >= TK_MAX_RANK || yv.dim[q] != xv.dim[k]) return -1;
    uint32_t s[TK_MAX_RANK], es = xv.esize, tuples = count / (uint32_t)depth;
    mv_strides(xv.dim, xv.rank, s);
    uint32_t inner = s[depth - 1];
    if ((uint64_t)tuples * inner != yv.numel) return -1;
    if (!mv_disjoint(x, (size_t)xv.numel * es, y, (size_t)yv.numel * es)) return -1;
    for (uint32_t t = 0; t < tuples; t++) {
        uint32_t off = 0;
        for (int32_t d = 0; d < depth; d++) {
            int32_t at = tk_ld_i32(ind, t * (uint32_t)depth + (uint32_t)d);
            if (at < 0 || at >= xv.dim[d]) return -1;
            off += (uint32_t)at * s[d];
        }
        memcpy(y, x + (size_t)off * es, (size_t)inner * es);
        y += (size_t)inner * es;
    }
    return 0;
}

/* ---- StridedSlice (68) ---- */

int tk_any_strided_slice(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_view_t xv, yv;
    memset(&xv, 0, sizeof xv);
    memset(&yv, 0, sizeof yv);
    const uint8_t *x;
    uint8_t *y;
    int32_t v[19];
    memset(v, 0, sizeof v);
    uint32_t n;
    if (mv_io(plan, op, mem, &xv, &yv, &x, &y) || mv_payload(plan, op_index, v, &n)) return -1;
    int32_t r = xv.rank;
    if (op->num_inputs != 1 || r < 1 || (n != 3u * (uint32_t)r && n != 3u * (uint32_t)r + 1u)) return -1;
    uint32_t shrink = 0;
    if (n == 3u * (uint32_t)r + 1u) {
        if (v[3 * r] < 0 || ((uint32_t)v[3 * r] >> r) != 0) return -1;
        shrink = (uint32_t)v[3 * r];
    }
    int32_t ax, rows;
    if (mv_band(mem, &yv, &ax, &rows)) return -1;
    if (ax >= 0) {
        /* The band axis must be taken whole, in order, and kept. */
        int32_t ext = yv.dim[ax];
        if (shrink || yv.rank != r || v[3 * ax] != 0 || v[3 * ax + 1] != ext || v[3 * ax + 2] != 1) return -1;
        if (mv_cut(&xv, ax, ext, rows) || mv_cut(&yv, ax, ext, rows)) return -1;
        v[3 * ax + 1] = rows;
    }
    uint32_t s[TK_MAX_RANK], base = 0;
    mv_strides(xv.dim, r, s);
    mv_axis_t axes[TK_MAX_RANK];
    memset(axes, 0, sizeof axes);
    int32_t odim[TK_MAX_RANK], oa = 0;
    for (int32_t a = 0; a < r; a++) {
        int32_t start = v[3 * a], end = v[3 * a + 1], step = v[3 * a + 2];
        if (step == 0 || start < 0 || start >= xv.dim[a]) return -1;
        /* 32-bit division only (lx106 has no 64-bit divide helpers). */
        int64_t span = step > 0 ? (int64_t)end - start : (int64_t)start - end;
        uint32_t mag = step > 0 ? (uint32_t)step : (uint32_t)(-(int64_t)step);
        if (span > 0x7FFFFFFF) return -1;
        int64_t cnt = span <= 0 ? 0 : (int64_t)(((uint32_t)span - 1u) / mag + 1u);
        if (shrink & (1u << a)) {
            if (step < 0 || cnt != 1) return -1;
            base += (uint32_t)start * s[a];
            continue;
        }
        if (oa >= yv.rank || cnt != yv.dim[oa]) return -1;
        axes[oa].kind = MV_LINEAR;
        axes[oa].a = start;
        axes[oa].b = step;
        axes[oa].n = xv.dim[a];
        axes[oa].stride = s[a];
        odim[oa] = yv.dim[oa];
        oa++;
    }
    if (oa != yv.rank) return -1;
    if (mv_check_axes(axes, odim, oa, base, xv.numel)) return -1;
    if (!mv_disjoint(x, (size_t)xv.numel * xv.esize, y, (size_t)yv.numel * xv.esize)) return -1;
    mv_remap(axes, odim, oa, base, x, y, xv.esize, NULL);
    return 0;
}

/* ---- MirrorPad (69) ---- */

int tk_any_mirror_pad(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_view_t xv, yv;
    memset(&xv, 0, sizeof xv);
    memset(&yv, 0, sizeof yv);
    const uint8_t *x;
    uint8_t *y;
    int32_t v[19];
    memset(v, 0, sizeof v);
    uint32_t n;
    if (mv_io(plan, op, mem, &xv, &yv, &x, &y) || mv_payload(plan, op_index, v, &n)) return -1;
    int32_t r = xv.rank;
    if (op->num_inputs != 1 || r < 1 || yv.rank != r || n != 1u + 2u * (uint32_t)r) return -1;
    int32_t mode = v[0];
    if (mode != 0 && mode != 1) return -1;
    int32_t ax, rows;
    if (mv_band(mem, &yv, &ax, &rows)) return -1;
    if (ax >= 0) {
        int32_t ext = yv.dim[ax];
        if (v[1 + 2 * ax] != 0 || v[2 + 2 * ax] != 0) return -1;
        if (mv_cut(&xv, ax, ext, rows) || mv_cut(&yv, ax, ext, rows)) return -1;
    }
    uint32_t s[TK_MAX_RANK];
    mv_strides(xv.dim, r, s);
    mv_axis_t axes[TK_MAX_RANK];
    memset(axes, 0, sizeof axes);
    for (int32_t a = 0; a < r; a++) {
        int32_t before = v[1 + 2 * a], after = v[2 + 2 * a];
        if (before < 0 || after < 0 || (int64_t)xv.dim[a] + before + after != yv.dim[a]) return -1;
        axes[a].kind = MV_MIRROR;
        axes[a].a = before;
        axes[a].b = mode;
        axes[a].n = xv.dim[a];
        axes[a].stride = s[a];
    }
    if (mv_check_axes(axes, yv.dim, r, 0, xv.numel)) return -1;
    if (!mv_disjoint(x, (size_t)xv.numel * xv.esize, y, (size_t)yv.numel * xv.esize)) return -1;
    mv_remap(axes, yv.dim, r, 0, x, y, xv.esize, NULL);
    return 0;
}

/* ---- ReverseV2 (70) ---- */

int tk_any_reverse(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_view_t xv, yv;
    memset(&xv, 0, sizeof xv);
    memset(&yv, 0, sizeof yv);
    const uint8_t *x;
    uint8_t *y;
    int32_t v[19];
    memset(v, 0, sizeof v);
    uint32_t n;
    if (mv_io(plan, op, mem, &xv, &yv, &x, &y) || mv_payload(plan, op_index, v, &n)) return -1;
    int32_t r = xv.rank;
    if (op->num_inputs != 1 || n != 1 || r < 1 || yv.rank != r || v[0] < 0) return -1;
    uint32_t mask = (uint32_t)v[0];
    if (r < 31 && (mask >> r) != 0) return -1;
    for (int32_t a = 0; a < r; a++)
        if (xv.dim[a] != yv.dim[a]) return -1;
    int32_t ax, rows;
    if (mv_band(mem, &yv, &ax, &rows)) return -1;
    if (ax >= 0) {
        int32_t ext = yv.dim[ax];
        if ((mask >> ax) & 1u) return -1;
        if (mv_cut(&xv, ax, ext, rows) || mv_cut(&yv, ax, ext, rows)) return -1;
    }
    uint32_t s[TK_MAX_RANK];
    mv_strides(xv.dim, r, s);
    mv_axis_t axes[TK_MAX_RANK];
    memset(axes, 0, sizeof axes);
    for (int32_t a = 0; a < r; a++) {
        int rev = (mask >> a) & 1u;
        axes[a].kind = MV_LINEAR;
        axes[a].a = rev ? xv.dim[a] - 1 : 0;
        axes[a].b = rev ? -1 : 1;
        axes[a].n = xv.dim[a];
        axes[a].stride = s[a];
    }
    if (mv_check_axes(axes, yv.dim, r, 0, xv.numel)) return -1;
    if (!mv_disjoint(x, (size_t)xv.numel * xv.esize, y, (size_t)yv.numel * xv.esize)) return -1;
    mv_remap(axes, yv.dim, r, 0, x, y, xv.esize, NULL);
    return 0;
}

/* ---- DynamicUpdateSlice (72) ---- */

int tk_any_dynamic_update_slice(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                tigris_mem_t *mem) {
    tk_view_t xv, yv;
    memset(&xv, 0, sizeof xv);
    memset(&yv, 0, sizeof yv);
    int32_t v[19];
    memset(v, 0, sizeof v);
    uint32_t n;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (op->num_outputs != 1 || tk_view(plan, ii, &xv) || tk_view(plan, oi, &yv)) return -1;
    if (xv.t->dtype != yv.t->dtype || !mv_same_encoding(plan, xv.t, yv.t)) return -1;
    if (mv_payload(plan, op_index, v, &n)) return -1;
    int32_t r = xv.rank;
    if (r < 1 || yv.rank != r) return -1;
    for (int32_t a = 0; a < r; a++)
        if (xv.dim[a] != yv.dim[a]) return -1;
    int weight_update = op->weight_idx != TIGRIS_NONE16;
    uint32_t runtime_updates = weight_update ? 0u : 1u;
    int32_t starts[TK_MAX_RANK], ushape[TK_MAX_RANK];
    memset(starts, 0, sizeof starts);
    memset(ushape, 0, sizeof ushape);
    int runtime_starts;
    if (n == 2u * (uint32_t)r) {
        if (op->num_inputs != 1u + runtime_updates) return -1;
        runtime_starts = 0;
        for (int32_t a = 0; a < r; a++) {
            starts[a] = v[a];
            ushape[a] = v[r + a];
        }
    } else if (n == (uint32_t)r) {
        if (op->num_inputs != 2u + runtime_updates) return -1;
        runtime_starts = 1;
        tk_view_t sv;
        int32_t si = tk_in_idx(plan, op, op->num_inputs - 1u);
        if (tk_view(plan, si, &sv) || sv.t->dtype != TIGRIS_DTYPE_INT32 || sv.rank != 1 || sv.dim[0] != r) return -1;
        const uint8_t *sp = (const uint8_t *)tk_buf(mem, si);
        if (!sp) return -1;
        for (int32_t a = 0; a < r; a++) {
            starts[a] = tk_ld_i32(sp, (uint32_t)a);
            ushape[a] = v[a];
        }
    } else {
        return -1;
    }
    uint32_t es = xv.esize, un = 1;
    for (int32_t a = 0; a < r; a++) {
        if (ushape[a] < 1 || ushape[a] > xv.dim[a]) return -1;
        un *= (uint32_t)ushape[a];
    }
    const uint8_t *u;
    tk_view_t uv;
    memset(&uv, 0, sizeof uv);
    if (weight_update) {
        if (!plan->weight_entries || op->weight_idx >= plan->header->num_weights ||
            plan->weight_entries[op->weight_idx].size_bytes != un * es)
            return -1;
        u = (const uint8_t *)tk_weight(plan, op->weight_idx, un * es);
    } else {
        int32_t ui = tk_in_idx(plan, op, 1);
        if (tk_view(plan, ui, &uv) || uv.t->dtype != xv.t->dtype || uv.rank != r ||
            !mv_same_encoding(plan, uv.t, xv.t))
            return -1;
        for (int32_t a = 0; a < r; a++)
            if (uv.dim[a] != ushape[a]) return -1;
        u = (const uint8_t *)tk_buf(mem, ui);
    }
    const uint8_t *x = (const uint8_t *)tk_buf(mem, ii);
    uint8_t *y = (uint8_t *)tk_buf(mem, oi);
    if (!u || !x || !y) return -1;
    int32_t ax, rows;
    if (mv_band(mem, &yv, &ax, &rows)) return -1;
    if (ax >= 0) {
        /* Runtime update cut like the input; static starts; the band axis
         * updated whole from 0. */
        int32_t ext = yv.dim[ax];
        if (weight_update || runtime_starts || starts[ax] != 0 || ushape[ax] != ext) return -1;
        if (mv_cut(&xv, ax, ext, rows) || mv_cut(&yv, ax, ext, rows) || mv_cut(&uv, ax, ext, rows)) return -1;
        ushape[ax] = rows;
        un = uv.numel;
    }
    size_t xb = (size_t)xv.numel * es, ub = (size_t)un * es;
    if (x != y && !mv_disjoint(x, xb, y, xb)) return -1;
    if (!mv_disjoint(u, ub, y, xb)) return -1;
    /* Starts clamped so the update fits (TFLite's rule for both forms). */
    for (int32_t a = 0; a < r; a++) starts[a] = fx_clamp(starts[a], 0, yv.dim[a] - ushape[a]);
    if (x != y) memcpy(y, x, xb);
    uint32_t s[TK_MAX_RANK], coord[TK_MAX_RANK];
    mv_strides(yv.dim, r, s);
    uint32_t run = (uint32_t)ushape[r - 1], nrows = un / run;
    for (int32_t a = 0; a < r; a++) coord[a] = 0;
    for (uint32_t q = 0; q < nrows; q++) {
        uint32_t off = 0;
        for (int32_t a = 0; a < r; a++) off += ((uint32_t)starts[a] + coord[a]) * s[a];
        memcpy(y + (size_t)off * es, u + (size_t)q * run * es, (size_t)run * es);
        for (int32_t a = r - 2; a >= 0; a--) {
            if (++coord[a] < (uint32_t)ushape[a]) break;
            coord[a] = 0;
        }
    }
    return 0;
}
