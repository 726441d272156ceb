/*
 * hw.c - one stage computed in 2-D tiles of its output (spec §2.7.2).
 */
#include "executor_internal.h"

tigris_exec_error_t tx_run_hw(tx_run_t *r, uint16_t s) {
    (void)r;
    (void)s;
    return TIGRIS_EXEC_ERR_TILE;
}
