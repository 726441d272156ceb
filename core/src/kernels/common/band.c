/*
 * band.c - which elements a pointwise op touches under a band: rows per
 * band, independent blocks before the band axis, and the roll offset.
 */
#include "../kernel_common.h"

/* Row layout of tensor v under the band in mem->tile: elements per band row,
 * independent blocks before the band axis, and the axis' full extent. */
int tk_band_rows(const tigris_mem_t *mem, const tk_view_t *v, uint64_t *row, uint64_t *outer,
                 uint64_t *rows_total) {
    const tigris_tile_ctx_t *tc = &mem->tile;
    if (tc->row_tiled == TIGRIS_ROW_MODE_ROWS || tc->row_tiled == TIGRIS_ROW_MODE_LEADING) {
        int32_t ax = -1;
        if (tc->row_tiled == TIGRIS_ROW_MODE_ROWS) {
            ax = v->rank >= 2 ? v->rank - 2 : 0;
        } else {
            for (int32_t i = 0; i + 1 < v->rank; i++)
                if (v->dim[i] != 1) { ax = i; break; }
        }
        if (ax < 0 || v->rank < 1) return -1;
        /* 32-bit divisions: numel < 2^31, and lx106 has no 64-bit divide. */
        uint32_t o32 = 1;
        for (int32_t i = 0; i < ax; i++) o32 *= (uint32_t)v->dim[i];
        *rows_total = (uint64_t)v->dim[ax];
        *row = v->numel / (uint32_t)v->dim[ax] / o32;
        *outer = o32;
        return 0;
    }
    if (v->rank == 4) {
        int32_t w = tc->out_w > 0 ? tc->out_w : v->dim[2];
        *row = (uint64_t)w * (uint64_t)v->dim[3];
    } else if (v->rank == 3) {
        *row = (uint64_t)v->dim[2];
    } else {
        return -1;
    }
    *outer = (uint64_t)v->dim[0];
    *rows_total = (uint64_t)v->dim[1];
    return 0;
}

/* Elements a pointwise op processes for tensor v, and the element offset of
 * the first one in its buffer (roll offset), given the band in mem->tile. */
int tk_band_span(const tigris_mem_t *mem, const tk_view_t *v, int is_output, uint32_t *count,
                 uint32_t *offset) {
    const tigris_tile_ctx_t *tc = &mem->tile;
    *offset = 0;
    if (!tc->active) {
        *count = v->numel;
        return 0;
    }
    if (tc->out_h < 0 || tc->out_row_start < 0 || tc->in_row_start < 0) return -1;
    uint64_t row = 0, rows_total = 0, outer = 1;
    if (tk_band_rows(mem, v, &row, &outer, &rows_total)) return -1;
    int32_t start = is_output ? tc->out_row_start : tc->in_row_start;
    if ((uint64_t)tc->out_h + (uint64_t)start > rows_total) return -1;
    /* A roll offset only happens with one batch: offsets index that batch. */
    if (start && outer != 1) return -1;
    *count = (uint32_t)(outer * (uint64_t)tc->out_h * row);
    *offset = (uint32_t)((uint64_t)start * row);
    return 0;
}
