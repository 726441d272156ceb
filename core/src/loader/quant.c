/* quant.c - step 14 of docs/format.md P13.2: quant records (P9). The scale is a tensor
 * property (BAD_TENSOR); the array ranges are structure (BAD_SECTION). */
#include "loader_internal.h"

int tigris__scale_ok(uint32_t bits);

tigris_error_t tigris__ld_quant(tigris__ld_t *ld) {
    const tigris_plan_t *p = ld->plan;
    uint32_t i;
    for (i = 0; i < p->num_quant_params; i++) {
        const tigris_quant_param_t *q = &p->quant_params[i];
        uint32_t base;
        if (!tigris__scale_ok(tigris__rd32((const uint8_t *)&q->scale))) return TIGRIS_ERR_BAD_TENSOR;
        if (q->num_channels == 0 || q->page >= ld->quant_pages) return TIGRIS_ERR_BAD_SECTION;
        if ((uint32_t)q->multiplier_off + q->num_channels > TIGRIS_QUANT_PAGE_SIZE ||
            (uint32_t)q->shift_off + q->num_channels > TIGRIS_QUANT_PAGE_SIZE)
            return TIGRIS_ERR_BAD_SECTION;
        base = (uint32_t)q->page * TIGRIS_QUANT_PAGE_SIZE;
        if (!tigris__fits(base + q->multiplier_off, q->num_channels, ld->quant_data_len) ||
            !tigris__fits(base + q->shift_off, q->num_channels, ld->quant_data_len))
            return TIGRIS_ERR_BAD_SECTION;
    }
    return TIGRIS_OK;
}
