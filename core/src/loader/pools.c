/* pools.c - step 6 of docs/format.md P13.2: index/shape/string pools, model name and the
 * model I/O lists. */
#include "loader_internal.h"

tigris_error_t tigris__ld_pools(tigris__ld_t *ld) {
    const tigris_file_header_t *h = ld->hdr;
    tigris_plan_t *p = ld->plan;
    uint32_t idx_len = ld->sec_len[TIGRIS_SEC_INDEX_POOL];
    uint32_t shp_len = ld->sec_len[TIGRIS_SEC_SHAPE_POOL];
    uint32_t io_count, i;
    int indexed = h->num_ops > 0 || h->num_stages > 0 || h->num_model_inputs > 0 || h->num_model_outputs > 0;

    if (indexed && (idx_len & 1u)) return TIGRIS_ERR_BAD_SECTION;
    if (h->num_tensors > 0 && (shp_len & 3u)) return TIGRIS_ERR_BAD_SECTION;
    if (ld->sec_len[TIGRIS_SEC_STRINGS] == 0) return TIGRIS_ERR_BAD_SECTION;
    ld->index_count = idx_len / 2u;
    ld->shape_count = shp_len / 4u;
    ld->strings_len = ld->sec_len[TIGRIS_SEC_STRINGS];
    p->index_pool = (const uint16_t *)(const void *)(ld->buf + ld->sec_off[TIGRIS_SEC_INDEX_POOL]);
    p->shape_pool = (const int32_t *)(const void *)(ld->buf + ld->sec_off[TIGRIS_SEC_SHAPE_POOL]);
    p->strings = (const char *)(ld->buf + ld->sec_off[TIGRIS_SEC_STRINGS]);

    if (!tigris__ld_string_ok(ld, h->model_name_str)) return TIGRIS_ERR_BAD_SECTION;
    io_count = (uint32_t)h->num_model_inputs + h->num_model_outputs;
    if (!tigris__fits(h->model_io_off, io_count, ld->index_count)) return TIGRIS_ERR_BAD_SECTION;
    for (i = 0; i < io_count; i++)
        if (tigris__pool16(p, (uint32_t)h->model_io_off + i) >= h->num_tensors) return TIGRIS_ERR_BAD_SECTION;
    p->model_inputs = p->index_pool + h->model_io_off;
    p->model_outputs = p->model_inputs + h->num_model_inputs;
    return TIGRIS_OK;
}
