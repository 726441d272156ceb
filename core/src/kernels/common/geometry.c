/*
 * geometry.c - the shapes a spatial kernel computes over: FullyConnected's
 * rows, a windowed op's extents, pads and roll offsets (whole tensor or the
 * band the executor hands over in mem->tile), and the rows of a resize band.
 */
#include "../kernel_common.h"

/* FullyConnected's shape, the same for every backend: a rank >= 2 output is
 * [nb, oc, ...], a rank 1 output one row of oc; the input holds nb rows of
 * ic; a row band (mem's tile, when mem is given) computes its first out_h
 * rows. 0 on success, -1 on a shape FullyConnected cannot take. */
int tk_fc_geom(const tk_view_t *iv, const tk_view_t *ov, const tigris_mem_t *mem, int32_t *nb,
               int32_t *ic, int32_t *oc) {
    if (ov->rank >= 2) {
        *nb = ov->dim[0];
        *oc = ov->dim[1];
    } else if (ov->rank == 1) {
        *nb = 1;
        *oc = ov->dim[0];
    } else {
        return -1;
    }
    if (iv->numel % (uint32_t)*nb) return -1;
    *ic = (int32_t)(iv->numel / (uint32_t)*nb);
    if (mem && mem->tile.active && mem->tile.row_tiled) {
        if (mem->tile.out_h <= 0 || mem->tile.out_h > *nb) return -1;
        *nb = mem->tile.out_h;
    }
    return 0;
}

/* Geometry of a windowed op between rank-4 tensors in_v and out_v. With no
 * active tile the plan's shapes and pads describe the whole tensors; under a
 * tile the band extents, effective pads and roll offsets come from mem->tile
 * (widths and left pad too when the tile is 2-D). */
int tk_geom(const tigris_op_t *op, const tigris_mem_t *mem, const tk_view_t *in_v,
            const tk_view_t *out_v, tk_geom_t *g) {
    if (in_v->rank != 4 || out_v->rank != 4 || in_v->dim[0] != out_v->dim[0]) return -1;
    const tigris_spatial_t *sp = &op->spatial;
    g->n = in_v->dim[0];
    g->ih = in_v->dim[1];
    g->iw = in_v->dim[2];
    g->ic = in_v->dim[3];
    g->oh = out_v->dim[1];
    g->ow = out_v->dim[2];
    g->oc = out_v->dim[3];
    g->kh = sp->kernel_h;
    g->kw = sp->kernel_w;
    g->sh = sp->stride_h ? sp->stride_h : 1;
    g->sw = sp->stride_w ? sp->stride_w : 1;
    g->dh = sp->dilation_h ? sp->dilation_h : 1;
    g->dw = sp->dilation_w ? sp->dilation_w : 1;
    g->pt = sp->pad_top;
    g->pl = sp->pad_left;
    g->out_row0 = 0;
    g->in_row_shift = 0;
    if (g->kh <= 0 || g->kw <= 0) return -1;
    const tigris_tile_ctx_t *tc = &mem->tile;
    if (tc->active) {
        if (tc->in_h <= 0 || tc->out_h < 0 || tc->pad_top < 0 || tc->out_row_start < 0 || tc->in_row_start < 0)
            return -1;
        if (tc->in_h > g->ih || tc->out_h + tc->out_row_start > g->oh) return -1;
        g->ih = tc->in_h;
        g->oh = tc->out_h;
        g->pt = tc->pad_top;
        g->out_row0 = tc->out_row_start;
        g->in_row_shift = tc->in_row_start;
        if (tc->width_tiled) {
            if (tc->in_w <= 0 || tc->out_w < 0 || tc->pad_left < 0 || tc->in_w > g->iw || tc->out_w > g->ow)
                return -1;
            g->iw = tc->in_w;
            g->ow = tc->out_w;
            g->pl = tc->pad_left;
        }
    }
    g->in_rows = g->ih;
    g->out_rows = g->oh + g->out_row0;
    /* Buffer extents must fit 31 bits so index arithmetic never overflows. */
    uint64_t ib = (uint64_t)g->n * (uint64_t)g->in_rows * (uint64_t)g->iw * (uint64_t)g->ic;
    uint64_t ob = (uint64_t)g->n * (uint64_t)g->out_rows * (uint64_t)g->ow * (uint64_t)g->oc;
    if (ib > 0x7FFFFFFFu || ob > 0x7FFFFFFFu) return -1;
    return 0;
}

/* Rows a resize computes: the whole height, or under a height band the
 * band's input/output rows and their global origins (resize maps output rows
 * through their global index). Width tiles, row modes and roll offsets are
 * refused. */
int tk_resize_band(const tigris_mem_t *mem, int32_t ih, int32_t oh, int32_t *band_in,
                   int32_t *band_out, int32_t *in0, int32_t *out0) {
    const tigris_tile_ctx_t *tc = &mem->tile;
    *band_in = ih;
    *band_out = oh;
    *in0 = *out0 = 0;
    if (!tc->active) return 0;
    if (tc->width_tiled || tc->row_tiled || tc->in_row_start || tc->out_row_start) return -1;
    if (tc->in_h <= 0 || tc->out_h < 0 || tc->in_row_origin < 0 || tc->out_row_origin < 0) return -1;
    if (tc->in_h > ih || tc->out_h > oh || tc->out_row_origin > oh - tc->out_h || tc->in_row_origin > ih - tc->in_h)
        return -1;
    *band_in = tc->in_h;
    *band_out = tc->out_h;
    *in0 = tc->in_row_origin;
    *out0 = tc->out_row_origin;
    return 0;
}
