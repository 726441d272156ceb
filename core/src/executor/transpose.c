/*
 * transpose.c - a layout conversion moved in bands (spec §2.7.4).
 */
#include "executor_internal.h"

int tx_stage_transposed(const tigris_plan_t *plan, const tigris_stage_t *st, uint16_t s) {
    (void)plan;
    (void)st;
    (void)s;
    return 0;
}

tigris_exec_error_t tx_run_transpose(tx_run_t *r, uint16_t s, uint32_t capacity) {
    (void)r;
    (void)s;
    (void)capacity;
    return TIGRIS_EXEC_ERR_TILE;
}
