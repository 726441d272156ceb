/*
 * sections.c - steps 2-4 of docs/format.md P13.2: the section directory, required
 * sections and pool alignment.
 *
 * The format stores no section lengths: a section runs to the next present
 * section or to the end of the file. That is why the directory rules are
 * strict (ascending ids, non-decreasing offsets): they are what makes the
 * derived extents meaningful.
 */
#include "loader_internal.h"

/* Lowest revision that may carry each section id (docs/format.md F1). */
static uint32_t section_min_version(uint32_t type) {
    switch (type) {
    case TIGRIS_SEC_OP_ATTRIBUTES: return 4;
    case TIGRIS_SEC_STATE:
    case TIGRIS_SEC_SUBGRAPHS: return 10;
    case TIGRIS_SEC_MEMORY: return 11;
    default: return 0;
    }
}

static tigris_error_t walk(tigris__ld_t *ld) {
    uint32_t dir = ld->hdr->section_dir_off;
    uint32_t n = 0, last_type = 0, last_off = 0, dir_end, t;
    int have_prev = 0;

    if (ld->len < 8u || dir > ld->len - 8u) return TIGRIS_ERR_BAD_SECTION;
    for (;;) {
        uint32_t pos, type, off;
        /* n < len/8 keeps 8*n from overflowing; running past the file
         * without a sentinel is refused. */
        if (n > (ld->len - dir) / 8u - 1u) return TIGRIS_ERR_BAD_SECTION;
        pos = dir + 8u * n;
        type = tigris__rd32(ld->buf + pos);
        off = tigris__rd32(ld->buf + pos + 4);
        if (type == TIGRIS_SEC_END) break;
        if (type >= TIGRIS_SEC_MAX) return TIGRIS_ERR_BAD_SECTION;
        if (ld->version < section_min_version(type)) return TIGRIS_ERR_BAD_SECTION;
        if (have_prev && type <= last_type) return TIGRIS_ERR_BAD_SECTION;
        have_prev = 1;
        last_type = type;
        if (off != 0) {
            if (off > ld->len || off < last_off) return TIGRIS_ERR_BAD_SECTION;
            last_off = off;
            ld->sec_present[type] = 1;
            ld->sec_off[type] = off;
        }
        n++;
    }
    dir_end = dir + 8u * (n + 1u); /* fits: the sentinel was read inside the file */
    for (t = 1; t < TIGRIS_SEC_MAX; t++)
        if (ld->sec_present[t] && ld->sec_off[t] < dir_end) return TIGRIS_ERR_BAD_SECTION;
    /* Extents: up to the next present section, or the end of the file. */
    for (t = 1; t < TIGRIS_SEC_MAX; t++) {
        uint32_t u, end = ld->len;
        if (!ld->sec_present[t]) continue;
        for (u = t + 1; u < TIGRIS_SEC_MAX; u++)
            if (ld->sec_present[u]) {
                end = ld->sec_off[u];
                break;
            }
        ld->sec_len[t] = end - ld->sec_off[t];
    }
    return TIGRIS_OK;
}

static tigris_error_t required(const tigris__ld_t *ld) {
    const tigris_file_header_t *h = ld->hdr;
    if (!ld->sec_present[TIGRIS_SEC_TENSORS] || !ld->sec_present[TIGRIS_SEC_OPS] ||
        !ld->sec_present[TIGRIS_SEC_INDEX_POOL] || !ld->sec_present[TIGRIS_SEC_SHAPE_POOL] ||
        !ld->sec_present[TIGRIS_SEC_STRINGS])
        return TIGRIS_ERR_MISSING_SEC;
    if (h->num_stages > 0 && !ld->sec_present[TIGRIS_SEC_STAGES]) return TIGRIS_ERR_MISSING_SEC;
    if (h->num_tile_plans > 0 && !ld->sec_present[TIGRIS_SEC_TILE_PLANS]) return TIGRIS_ERR_MISSING_SEC;
    if (h->num_weights > 0 && !ld->sec_present[TIGRIS_SEC_WEIGHTS]) return TIGRIS_ERR_MISSING_SEC;
    if (h->num_quant_params > 0 && !ld->sec_present[TIGRIS_SEC_QUANT_PARAMS]) return TIGRIS_ERR_MISSING_SEC;
    if (ld->version >= 11 && !ld->sec_present[TIGRIS_SEC_MEMORY]) return TIGRIS_ERR_MISSING_SEC;
    return TIGRIS_OK;
}

static tigris_error_t alignment(const tigris__ld_t *ld) {
    const tigris_file_header_t *h = ld->hdr;
    int indexed = h->num_ops > 0 || h->num_stages > 0 || h->num_model_inputs > 0 || h->num_model_outputs > 0;
    if (indexed && (ld->sec_off[TIGRIS_SEC_INDEX_POOL] & 1u)) return TIGRIS_ERR_BAD_SECTION;
    if (h->num_tensors > 0 && (ld->sec_off[TIGRIS_SEC_SHAPE_POOL] & 3u)) return TIGRIS_ERR_BAD_SECTION;
    if (h->num_quant_params > 0 && (ld->sec_off[TIGRIS_SEC_QUANT_PARAMS] & 3u)) return TIGRIS_ERR_BAD_SECTION;
    return TIGRIS_OK;
}

tigris_error_t tigris__ld_directory(tigris__ld_t *ld) {
    tigris_error_t e;
    if ((e = walk(ld)) != TIGRIS_OK) return e;
    if ((e = required(ld)) != TIGRIS_OK) return e;
    return alignment(ld);
}
