/* pools.c - step 6 of docs/format.md P13.2: index/shape/string pools, model name and the
 * model I/O lists. */
#include "loader_internal.h"

/* The string section holds UTF-8 (names reach JSON, the viewer and gRPC
 * strings, all of which require it), so a plan with any ill-formed sequence
 * is refused here rather than failing later in whoever prints a name.
 * Well-formed means RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF, no truncated sequence. NUL bytes are ASCII. */
static int utf8_well_formed(const uint8_t *s, uint32_t len) {
    uint32_t i = 0;
    while (i < len) {
        uint8_t c = s[i];
        uint32_t need, k;
        uint8_t lo = 0x80, hi = 0xBF; /* range of the first continuation byte */
        if (c < 0x80) { i++; continue; }
        if (c >= 0xC2 && c <= 0xDF) need = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0) lo = 0xA0;       /* overlong below U+0800 */
            if (c == 0xED) hi = 0x9F;       /* UTF-16 surrogates */
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0) lo = 0x90;       /* overlong below U+10000 */
            if (c == 0xF4) hi = 0x8F;       /* above U+10FFFF */
        } else return 0;                    /* continuation byte, C0/C1, F5..FF */
        if (len - i - 1u < need) return 0;
        if (s[i + 1] < lo || s[i + 1] > hi) return 0;
        for (k = 2; k <= need; k++)
            if ((s[i + k] & 0xC0u) != 0x80u) return 0;
        i += need + 1u;
    }
    return 1;
}

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
    if (!utf8_well_formed((const uint8_t *)p->strings, ld->strings_len)) return TIGRIS_ERR_BAD_SECTION;

    if (!tigris__ld_string_ok(ld, h->model_name_str)) return TIGRIS_ERR_BAD_SECTION;
    io_count = (uint32_t)h->num_model_inputs + h->num_model_outputs;
    if (!tigris__fits(h->model_io_off, io_count, ld->index_count)) return TIGRIS_ERR_BAD_SECTION;
    for (i = 0; i < io_count; i++)
        if (tigris__pool16(p, (uint32_t)h->model_io_off + i) >= h->num_tensors) return TIGRIS_ERR_BAD_SECTION;
    p->model_inputs = p->index_pool + h->model_io_off;
    p->model_outputs = p->model_inputs + h->num_model_inputs;
    return TIGRIS_OK;
}
