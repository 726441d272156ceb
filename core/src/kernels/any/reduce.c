/*
 * reduce.c - the dtype-free pieces every reduction kernel shares: layout
 * and band resolution of a one-axis reduction, and the byte-level ReduceAll.
 * The int8 reductions are in s8/reduce.c, the float ones in ref/reduce.c.
 */
#include "../kernel_common.h"

/* Resolve a one-axis reduction: input dtype din, output dtype dout; kind 0 =
 * rank-3 reduction (keepdims or axis dropped), 1 = rank-3 shape-preserving
 * scan (CumSum), 2 = rank 1..6 reduction (ArgMax/ArgMin). lay = (outer, r,
 * inner) of the input as seen by this call: under a band the band axis
 * (never the reduced one) has the band's extent and the pointers are
 * advanced by the roll offsets. *axis_out receives the stored axis. */
int tk_reduce_layout(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                     uint8_t din, uint8_t dout, int kind, uint32_t lay[3], const uint8_t **x, uint8_t **y,
                     int32_t *axis_out) {
    tk_view_t iv, ov;
    if (!plan || !op || !mem || op->num_inputs != 1 || op->num_outputs != 1) return -1;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != din || ov.t->dtype != dout) return -1;
    if (kind == 2 ? (iv.rank < 1 || iv.rank > 6) : iv.rank != 3) return -1;
    uint8_t len = 0;
    const uint8_t *axes = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_AXES, &len);
    if (!axes || len != 1 || axes[0] >= iv.rank) return -1;
    int32_t axis = axes[0];
    /* Output shape: same (scan), keepdims (axis 1) or the axis dropped. */
    if (kind == 1) {
        if (ov.rank != iv.rank) return -1;
        for (int32_t k = 0; k < iv.rank; k++)
            if (ov.dim[k] != iv.dim[k]) return -1;
    } else if (ov.rank == iv.rank) {
        for (int32_t k = 0; k < iv.rank; k++)
            if (ov.dim[k] != (k == axis ? 1 : iv.dim[k])) return -1;
    } else if (ov.rank + 1 == iv.rank) {
        for (int32_t k = 0, j = 0; k < iv.rank; k++) {
            if (k == axis) continue;
            if (ov.dim[j++] != iv.dim[k]) return -1;
        }
    } else {
        return -1;
    }
    const uint8_t *xp = (const uint8_t *)tk_buf(mem, ii);
    uint8_t *yp = (uint8_t *)tk_buf(mem, oi);
    if (!xp || !yp) return -1;
    const tigris_tile_ctx_t *tc = &mem->tile;
    if (tc->active) {
        /* Bands along an axis other than the reduced one: input and output
         * share rank and band axis, and the band has the same rows on both. */
        if (ov.rank != iv.rank || tc->width_tiled || tc->transposed_tile) return -1;
        int32_t ab = -1, r = iv.rank;
        if (tc->row_tiled == TIGRIS_ROW_MODE_ROWS) {
            ab = r >= 2 ? r - 2 : -1;
        } else if (tc->row_tiled == TIGRIS_ROW_MODE_LEADING) {
            int32_t bi = -1;
            for (int32_t k = 0; k + 1 < r; k++)
                if (ov.dim[k] != 1) { ab = k; break; }
            for (int32_t k = 0; k + 1 < r; k++)
                if (iv.dim[k] != 1) { bi = k; break; }
            if (bi != ab) return -1;
        } else if (r == 3 || r == 4) {
            ab = 1;
            if (r == 4 && tc->out_w > 0 && tc->out_w != ov.dim[2]) return -1;
        }
        if (ab < 0 || ab == axis) return -1;
        uint32_t ci, co, offi, offo;
        if (tk_band_span(mem, &iv, 0, &ci, &offi) || tk_band_span(mem, &ov, 1, &co, &offo)) return -1;
        uint32_t rows = (uint32_t)tc->out_h;
        if (ci != iv.numel / (uint32_t)iv.dim[ab] * rows || co != ov.numel / (uint32_t)ov.dim[ab] * rows) return -1;
        xp += (size_t)offi * iv.esize;
        yp += (size_t)offo * ov.esize;
        iv.dim[ab] = (int32_t)rows;
    }
    uint32_t outer = 1, inner = 1;
    for (int32_t k = 0; k < axis; k++) outer *= (uint32_t)iv.dim[k];
    for (int32_t k = axis + 1; k < iv.rank; k++) inner *= (uint32_t)iv.dim[k];
    lay[0] = outer;
    lay[1] = (uint32_t)iv.dim[axis];
    lay[2] = inner;
    *x = xp;
    *y = yp;
    *axis_out = axis;
    return 0;
}

/* REDUCE_ALL: bool AND over one axis; a byte is true when non-zero, the
 * output is written as 1 / 0. */
int tk_any_reduce_all(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    uint32_t lay[3];
    const uint8_t *x;
    uint8_t *y;
    int32_t axis;
    if (tk_reduce_layout(plan, op, op_index, mem, TIGRIS_DTYPE_BOOL, TIGRIS_DTYPE_BOOL, 0, lay, &x, &y, &axis))
        return -1;
    for (uint32_t o = 0; o < lay[0]; o++)
        for (uint32_t i = 0; i < lay[2]; i++) {
            uint8_t all = 1;
            for (uint32_t k = 0; k < lay[1] && all; k++)
                if (!x[((size_t)o * lay[1] + k) * lay[2] + i]) all = 0;
            y[(size_t)o * lay[2] + i] = all;
        }
    return 0;
}
