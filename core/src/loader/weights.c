/*
 * weights.c - steps 13, 15 and 18 of docs/format.md P13.2: uncompressed weights inside
 * the blob, weight-block records (P8.3), and that every constant an op of a
 * compressed plan reads lies in its own stage's block.
 */
#include "loader_internal.h"
#include "../lz4.h"

tigris_error_t tigris__ld_weight_entries(tigris__ld_t *ld) {
    tigris_plan_t *p = ld->plan;
    uint32_t i;
    if (!ld->sec_present[TIGRIS_SEC_WEIGHTS]) return TIGRIS_OK;
    /* With blocks the entries address decoded blocks, checked in step 18. */
    if (ld->sec_present[TIGRIS_SEC_WEIGHT_BLOCKS]) return TIGRIS_OK;
    p->weight_blob = ld->buf + ld->sec_off[TIGRIS_SEC_WEIGHTS] + 12u * ld->hdr->num_weights;
    for (i = 0; i < ld->hdr->num_weights; i++) {
        const tigris_weight_entry_t *w = &p->weight_entries[i];
        if (!tigris__ld_string_ok(ld, w->name_str)) return TIGRIS_ERR_BAD_SECTION;
        if (!tigris__fits(w->offset, w->size_bytes, ld->blob_len)) return TIGRIS_ERR_BAD_SECTION;
        /* Kernels read float32 and int32 weights in place as aligned words
         * (P8.2); every writer aligns each weight to 16 bytes. */
        if (w->offset & 3u) return TIGRIS_ERR_BAD_SECTION;
    }
    return TIGRIS_OK;
}

tigris_error_t tigris__ld_weight_blocks(tigris__ld_t *ld) {
    const tigris_plan_t *p = ld->plan;
    uint32_t i;
    if (!ld->sec_present[TIGRIS_SEC_WEIGHT_BLOCKS]) return TIGRIS_OK;
    if (p->weight_compression > TIGRIS_COMPRESSION_LZ4) return TIGRIS_ERR_BAD_SECTION;
    if (p->num_weight_blocks == 0 || ld->hdr->num_weights == 0) return TIGRIS_ERR_BAD_SECTION;
    if (p->num_weight_blocks > ld->hdr->num_stages) return TIGRIS_ERR_BAD_SECTION;
    for (i = 0; i < p->num_weight_blocks; i++) {
        const tigris_weight_block_t *b = &p->weight_blocks[i];
        if (i > 0 && b->stage_idx <= p->weight_blocks[i - 1].stage_idx) return TIGRIS_ERR_BAD_SECTION;
        if (b->stage_idx >= ld->hdr->num_stages) return TIGRIS_ERR_BAD_SECTION;
        if (b->num_weights == 0 || !tigris__fits(b->first_weight_idx, b->num_weights, ld->hdr->num_weights))
            return TIGRIS_ERR_BAD_SECTION;
        if (b->compressed_size == 0 || b->uncompressed_size == 0) return TIGRIS_ERR_BAD_SECTION;
        if (!tigris__fits(b->blob_offset, b->compressed_size, ld->blocks_data_len)) return TIGRIS_ERR_BAD_SECTION;
        if (p->weight_compression == TIGRIS_COMPRESSION_NONE && b->compressed_size != b->uncompressed_size)
            return TIGRIS_ERR_BAD_SECTION;
        /* A block that would not decode to its stated size is refused here,
         * not found at run time (one pass over the compressed bytes). */
        if (p->weight_compression == TIGRIS_COMPRESSION_LZ4 &&
            tigris__lz4_check(p->weight_blocks_data + b->blob_offset, b->compressed_size, b->uncompressed_size) != 0)
            return TIGRIS_ERR_BAD_SECTION;
    }
    return TIGRIS_OK;
}

static const tigris_weight_block_t *block_of(const tigris_plan_t *p, uint32_t s) {
    uint32_t i;
    for (i = 0; i < p->num_weight_blocks; i++)
        if (p->weight_blocks[i].stage_idx == s) return &p->weight_blocks[i];
    return NULL;
}

static int in_block(const tigris_plan_t *p, const tigris_weight_block_t *b, uint32_t w) {
    const tigris_weight_entry_t *e;
    if (!b || w < b->first_weight_idx || w - b->first_weight_idx >= b->num_weights) return 0;
    e = &p->weight_entries[w];
    /* Decoded blocks are placed aligned; kernels read words in place. */
    return (e->offset & 3u) == 0 && tigris__fits(e->offset, e->size_bytes, b->uncompressed_size);
}

tigris_error_t tigris__ld_block_coverage(tigris__ld_t *ld) {
    const tigris_plan_t *p = ld->plan;
    uint32_t s, k, j;
    if (!ld->sec_present[TIGRIS_SEC_WEIGHT_BLOCKS]) return TIGRIS_OK;
    for (s = 0; s < ld->hdr->num_stages; s++) {
        const tigris_stage_t *st = &p->stages[s];
        const tigris_weight_block_t *b = block_of(p, s);
        for (k = 0; k < st->ops_count; k++) {
            uint16_t oi = tigris__stage_op(p, st, k);
            const tigris_op_t *op = &p->ops[oi];
            const uint8_t *c;
            uint8_t len = 0;
            if (op->weight_idx != TIGRIS_NONE16 && !in_block(p, b, op->weight_idx)) return TIGRIS_ERR_BAD_SECTION;
            if (op->bias_idx != TIGRIS_NONE16 && !in_block(p, b, op->bias_idx)) return TIGRIS_ERR_BAD_SECTION;
            /* Constants listed by attribute are read the same way. */
            c = tigris_op_attribute_data(p, oi, TIGRIS_ATTR_CONSTANTS, &len);
            for (j = 0; c && j + 1 < len; j += 2) {
                uint16_t w = tigris__rd16(c + j);
                if (w == TIGRIS_NONE16) continue;
                if (w >= ld->hdr->num_weights || !in_block(p, b, w)) return TIGRIS_ERR_BAD_SECTION;
            }
        }
    }
    return TIGRIS_OK;
}
