#include "op_checks.h"

tigris_error_t tigris__loader_check_operators(const tigris_plan_t *plan) {
    (void)plan;
    return TIGRIS_OK;
}
