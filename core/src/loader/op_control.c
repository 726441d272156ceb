/*
 * op_control.c - If/While. Their branches and operand forms are validated
 * with the subgraph section (docs/format.md P12, step 19); here only the attribute the
 * executor needs to find them (P10.4).
 */
#include "op_checks.h"

tigris_error_t tg_check_control(const tg_op_ctx_t *c) {
    TG_REQUIRE(c->op->weight_idx == TIGRIS_NONE16 && c->op->bias_idx == TIGRIS_NONE16);
    uint32_t len;
    const uint8_t *p = tg_attr(c, TIGRIS_ATTR_SUBGRAPHS, &len);
    TG_REQUIRE(p && len == 4);
    return TIGRIS_OK;
}
