/*
 * rows.c - matrix row bands and leading-axis bands (spec §2.7.5, §2.7.6).
 */
#include "executor_internal.h"

tigris_exec_error_t tx_run_rows(tx_run_t *r, uint16_t s, uint32_t capacity, uint8_t mode, uint8_t lead_axis) {
    (void)r;
    (void)s;
    (void)capacity;
    (void)mode;
    (void)lead_axis;
    return TIGRIS_EXEC_ERR_TILE;
}
