/*
 * tables.c - step 5 of docs/format.md P13.2: every fixed-size table fits its section
 * extent, plus the per-record values that decide how later steps read the
 * table (tile layout and axis, quant page arithmetic, state bounds, the
 * schema-11 memory section).
 */
#include "loader_internal.h"

static const uint8_t *sec(const tigris__ld_t *ld, uint32_t t) { return ld->buf + ld->sec_off[t]; }

/* count * size <= extent, computed in 64 bits so no count can wrap. */
static int table_fits(uint32_t count, uint32_t size, uint32_t extent) {
    return (uint64_t)count * size <= extent;
}

/* docs/format.md F2: the record layout follows the revision (and, for
 * revision 10 only, header flag bit 1). */
static tigris_error_t tile_layout(tigris__ld_t *ld) {
    int v10_flag = (ld->hdr->flags & TIGRIS_FLAG_TILE_V10) != 0;
    if (v10_flag && ld->version != 10) return TIGRIS_ERR_BAD_SECTION;
    if (ld->version >= 11) ld->tile_rec_size = 48;
    else if (ld->version == 10 && v10_flag) ld->tile_rec_size = 32;
    else ld->tile_rec_size = 24;
    return TIGRIS_OK;
}

static tigris_error_t tile_records(tigris__ld_t *ld) {
    uint32_t n = ld->hdr->num_tile_plans, i;
    const uint8_t *base;
    tigris_plan_t *p = ld->plan;
    if (n == 0) return TIGRIS_OK;
    if (!table_fits(n, ld->tile_rec_size, ld->sec_len[TIGRIS_SEC_TILE_PLANS])) return TIGRIS_ERR_BAD_SECTION;
    base = sec(ld, TIGRIS_SEC_TILE_PLANS);
    for (i = 0; i < n; i++) {
        const uint8_t *r = base + (size_t)i * ld->tile_rec_size;
        uint8_t tileable = r[0], axis = r[1];
        if (tileable > 1) return TIGRIS_ERR_BAD_SECTION;
        /* Byte 1 was padding before revision 5. */
        if (ld->version >= 5) {
            if (tileable && axis != TIGRIS_TILE_AXIS_HEIGHT && axis != TIGRIS_TILE_AXIS_HW)
                return TIGRIS_ERR_BAD_SECTION;
            if (!tileable && axis != TIGRIS_TILE_AXIS_NONE) return TIGRIS_ERR_BAD_SECTION;
        }
        if (ld->tile_rec_size >= 32) {
            const tigris_tile_plan_v10_t *c = (const tigris_tile_plan_v10_t *)r;
            if (c->_reserved != 0) return TIGRIS_ERR_BAD_SECTION;
        }
        if (ld->tile_rec_size == 48) {
            const tigris_tile_plan_v11_t *v = (const tigris_tile_plan_v11_t *)r;
            if (TIGRIS_TILE_BAND_KIND(v->facts.band) > TIGRIS_BAND_KIND_LEADING) return TIGRIS_ERR_BAD_SECTION;
        }
    }
    if (ld->tile_rec_size == 24) p->tile_plans = (const tigris_tile_plan_t *)base;
    else if (ld->tile_rec_size == 32) p->tile_plans_v10 = (const tigris_tile_plan_v10_t *)base;
    else p->tile_plans_v11 = (const tigris_tile_plan_v11_t *)base;
    return TIGRIS_OK;
}

static tigris_error_t weights(tigris__ld_t *ld) {
    uint32_t n = ld->hdr->num_weights, ext;
    tigris_plan_t *p = ld->plan;
    if (!ld->sec_present[TIGRIS_SEC_WEIGHTS]) return TIGRIS_OK;
    ext = ld->sec_len[TIGRIS_SEC_WEIGHTS];
    if (!table_fits(n, 12, ext)) return TIGRIS_ERR_BAD_SECTION;
    if (n > 0) p->weight_entries = (const tigris_weight_entry_t *)sec(ld, TIGRIS_SEC_WEIGHTS);
    ld->blob_len = ext - 12u * n;
    return TIGRIS_OK;
}

static tigris_error_t weight_blocks(tigris__ld_t *ld) {
    uint32_t ext, n;
    const uint8_t *b;
    tigris_plan_t *p = ld->plan;
    if (!ld->sec_present[TIGRIS_SEC_WEIGHT_BLOCKS]) return TIGRIS_OK;
    ext = ld->sec_len[TIGRIS_SEC_WEIGHT_BLOCKS];
    b = sec(ld, TIGRIS_SEC_WEIGHT_BLOCKS);
    if (ext < 4) return TIGRIS_ERR_BAD_SECTION;
    n = tigris__rd16(b);
    if (!table_fits(n, 20, ext - 4)) return TIGRIS_ERR_BAD_SECTION;
    p->num_weight_blocks = (uint16_t)n;
    p->weight_compression = tigris__rd16(b + 2);
    p->weight_blocks = (const tigris_weight_block_t *)(b + 4);
    p->weight_blocks_data = b + 4 + 20u * n;
    ld->blocks_data_len = ext - 4 - 20u * n;
    return TIGRIS_OK;
}

static tigris_error_t attributes(tigris__ld_t *ld) {
    uint32_t ext, n;
    const uint8_t *b;
    tigris_plan_t *p = ld->plan;
    if (!ld->sec_present[TIGRIS_SEC_OP_ATTRIBUTES]) return TIGRIS_OK;
    ext = ld->sec_len[TIGRIS_SEC_OP_ATTRIBUTES];
    b = sec(ld, TIGRIS_SEC_OP_ATTRIBUTES);
    if (ext < 4) return TIGRIS_ERR_BAD_SECTION;
    n = tigris__rd16(b);
    if (n == 0 || !table_fits(n, 8, ext - 4)) return TIGRIS_ERR_BAD_SECTION;
    p->num_op_attributes = (uint16_t)n;
    p->op_attributes = (const tigris_op_attribute_t *)(b + 4);
    p->op_attribute_data = b + 4 + 8u * n;
    ld->attr_data_len = ext - 4 - 8u * n;
    return TIGRIS_OK;
}

static tigris_error_t state(tigris__ld_t *ld) {
    uint32_t ext, n, i, j;
    const uint8_t *b;
    const tigris_state_entry_t *e;
    tigris_plan_t *p = ld->plan;
    if (!ld->sec_present[TIGRIS_SEC_STATE]) return TIGRIS_OK;
    ext = ld->sec_len[TIGRIS_SEC_STATE];
    b = sec(ld, TIGRIS_SEC_STATE);
    if (ext < 8) return TIGRIS_ERR_BAD_SECTION;
    n = tigris__rd16(b);
    if (n == 0 || tigris__rd16(b + 2) != 0) return TIGRIS_ERR_BAD_SECTION;
    if (!table_fits(n, 16, ext - 8)) return TIGRIS_ERR_BAD_SECTION;
    p->state_bytes = tigris__rd32(b + 4);
    e = (const tigris_state_entry_t *)(b + 8);
    for (i = 0; i < n; i++) {
        if (e[i].bytes == 0 || (e[i].offset & 3u)) return TIGRIS_ERR_BAD_SECTION;
        if (!tigris__fits(e[i].offset, e[i].bytes, p->state_bytes)) return TIGRIS_ERR_BAD_SECTION;
        if (!tigris__fits(e[i].initial, e[i].bytes, ext)) return TIGRIS_ERR_BAD_SECTION;
        for (j = 0; j < i; j++) {
            /* Both ranges are inside state_bytes, so the sums cannot wrap. */
            if (e[i].offset < e[j].offset + e[j].bytes && e[j].offset < e[i].offset + e[i].bytes)
                return TIGRIS_ERR_BAD_SECTION;
        }
    }
    p->state_section = b;
    p->state_entries = e;
    p->num_state = (uint16_t)n;
    return TIGRIS_OK;
}

static tigris_error_t quant(tigris__ld_t *ld) {
    uint32_t ext, n, pages, len, phys;
    const uint8_t *b;
    tigris_plan_t *p = ld->plan;
    if (!ld->sec_present[TIGRIS_SEC_QUANT_PARAMS]) return TIGRIS_OK;
    ext = ld->sec_len[TIGRIS_SEC_QUANT_PARAMS];
    b = sec(ld, TIGRIS_SEC_QUANT_PARAMS);
    if (ext < 4) return TIGRIS_ERR_BAD_SECTION;
    n = tigris__rd16(b);
    pages = tigris__rd16(b + 2);
    if (n != ld->hdr->num_quant_params) return TIGRIS_ERR_BAD_SECTION;
    if (!table_fits(n, 16, ext - 4)) return TIGRIS_ERR_BAD_SECTION;
    len = ext - 4 - 16u * n;
    if (len & 3u) return TIGRIS_ERR_BAD_SECTION;
    len /= 4u;
    if (pages == 0) return TIGRIS_ERR_BAD_SECTION;
    /* Alignment padding after the data may spill into one extra page. */
    phys = len / TIGRIS_QUANT_PAGE_SIZE + ((len % TIGRIS_QUANT_PAGE_SIZE) ? 1u : 0u);
    if (phys != pages && phys != pages + 1u) return TIGRIS_ERR_BAD_SECTION;
    ld->quant_pages = (uint16_t)pages;
    ld->quant_data_len = len;
    p->num_quant_params = (uint16_t)n;
    if (n > 0) p->quant_params = (const tigris_quant_param_t *)(b + 4);
    p->quant_data = (const int32_t *)(const void *)(b + 4 + 16u * n);
    return TIGRIS_OK;
}

/* docs/format.md F1. */
static tigris_error_t memory(tigris__ld_t *ld) {
    const uint8_t *b;
    if (!ld->sec_present[TIGRIS_SEC_MEMORY]) return TIGRIS_OK;
    if (ld->sec_len[TIGRIS_SEC_MEMORY] < 8) return TIGRIS_ERR_BAD_SECTION;
    b = sec(ld, TIGRIS_SEC_MEMORY);
    if (tigris__rd32(b + 4) != 0) return TIGRIS_ERR_BAD_SECTION;
    if (ld->hdr->num_stages > 0 && tigris__rd32(b) == 0) return TIGRIS_ERR_BAD_SECTION;
    ld->plan->scheduled_peak = tigris__rd32(b);
    return TIGRIS_OK;
}

tigris_error_t tigris__ld_tables(tigris__ld_t *ld) {
    const tigris_file_header_t *h = ld->hdr;
    tigris_plan_t *p = ld->plan;
    tigris_error_t e;
    if (!table_fits(h->num_tensors, 16, ld->sec_len[TIGRIS_SEC_TENSORS])) return TIGRIS_ERR_BAD_SECTION;
    if (!table_fits(h->num_ops, 38, ld->sec_len[TIGRIS_SEC_OPS])) return TIGRIS_ERR_BAD_SECTION;
    if (h->num_stages > 0 && !table_fits(h->num_stages, 28, ld->sec_len[TIGRIS_SEC_STAGES]))
        return TIGRIS_ERR_BAD_SECTION;
    p->tensors = (const tigris_tensor_t *)sec(ld, TIGRIS_SEC_TENSORS);
    p->ops = (const tigris_op_t *)sec(ld, TIGRIS_SEC_OPS);
    if (h->num_stages > 0) p->stages = (const tigris_stage_t *)sec(ld, TIGRIS_SEC_STAGES);
    if ((e = tile_layout(ld)) != TIGRIS_OK) return e;
    if ((e = tile_records(ld)) != TIGRIS_OK) return e;
    if ((e = weights(ld)) != TIGRIS_OK) return e;
    if ((e = weight_blocks(ld)) != TIGRIS_OK) return e;
    if ((e = attributes(ld)) != TIGRIS_OK) return e;
    if ((e = state(ld)) != TIGRIS_OK) return e;
    if ((e = quant(ld)) != TIGRIS_OK) return e;
    return memory(ld);
}
