/* header.c - step 1 of docs/format.md P13.2: size, magic, revision window, file size.
 * (NULL and endianness are answered by the entry point before this.) */
#include "loader_internal.h"

tigris_error_t tigris__ld_header(tigris__ld_t *ld) {
    const tigris_file_header_t *h;
    if (ld->len < TIGRIS_HEADER_SIZE) return TIGRIS_ERR_TOO_SMALL;
    h = (const tigris_file_header_t *)ld->buf;
    if (tigris__rd32(ld->buf) != TIGRIS_MAGIC) return TIGRIS_ERR_BAD_MAGIC;
    if (h->version < TIGRIS_SCHEMA_VERSION_MIN || h->version > TIGRIS_SCHEMA_VERSION)
        return TIGRIS_ERR_BAD_VERSION;
    if (h->file_size != ld->len) return TIGRIS_ERR_BAD_SIZE;
    ld->hdr = h;
    ld->version = h->version;
    ld->plan->header = h;
    return TIGRIS_OK;
}
