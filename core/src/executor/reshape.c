/*
 * reshape.c - a reshape moved in row bands without a kernel (spec §2.7.7).
 */
#include "executor_internal.h"

tigris_exec_error_t tx_run_reshape(tx_run_t *r, uint16_t s) {
    (void)r;
    (void)s;
    return TIGRIS_EXEC_ERR_TILE;
}
