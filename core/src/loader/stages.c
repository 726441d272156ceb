/*
 * stages.c - steps 16 and 17 of docs/format.md P13.2: each stage in order (P6.2), its
 * tiling contract (P7.3 and docs/format.md F5/F7) and its chain (F6), then
 * that every operator was scheduled.
 */
#include "loader_internal.h"

static tigris_error_t links(tigris__ld_t *ld, uint16_t s) {
    const tigris_plan_t *p = ld->plan;
    const tigris_stage_t *st = &p->stages[s];
    uint32_t k;
    if (!tigris__fits(st->ops_off, st->ops_count, ld->index_count) ||
        !tigris__fits(st->inputs_off, st->inputs_count, ld->index_count) ||
        !tigris__fits(st->outputs_off, st->outputs_count, ld->index_count))
        return TIGRIS_ERR_BAD_SECTION;
    if (st->tile_plan_idx != TIGRIS_NONE16 && st->tile_plan_idx >= ld->hdr->num_tile_plans)
        return TIGRIS_ERR_BAD_SECTION;
    if ((st->chain_len == 0) != (st->chain_id == TIGRIS_NONE16)) return TIGRIS_ERR_BAD_SECTION;
    for (k = 0; k < st->inputs_count; k++)
        if (tigris__stage_in(p, st, k) >= ld->hdr->num_tensors) return TIGRIS_ERR_BAD_SECTION;
    for (k = 0; k < st->outputs_count; k++)
        if (tigris__stage_out(p, st, k) >= ld->hdr->num_tensors) return TIGRIS_ERR_BAD_SECTION;
    return TIGRIS_OK;
}

static tigris_error_t limits(tigris__ld_t *ld, const tigris_stage_t *st) {
    tigris_plan_limits_t *r = ld->req;
    if (st->inputs_count > r->stage_inputs) r->stage_inputs = st->inputs_count;
    if (st->inputs_count > TIGRIS_MAX_STAGE_INPUTS) return TIGRIS_ERR_PLAN_LIMITS;
    if (st->outputs_count > r->stage_outputs) r->stage_outputs = st->outputs_count;
    if (st->outputs_count > TIGRIS_MAX_STAGE_OUTPUTS) return TIGRIS_ERR_PLAN_LIMITS;
    if (st->chain_len > r->chain_stages) r->chain_stages = st->chain_len;
    if (st->chain_len > TIGRIS_MAX_CHAIN_STAGES) return TIGRIS_ERR_PLAN_LIMITS;
    return TIGRIS_OK;
}

static tigris_error_t chain_shape(const tigris__ld_t *ld, uint16_t s) {
    const tigris_plan_t *p = ld->plan;
    const tigris_stage_t *st = &p->stages[s];
    const tigris_stage_t *head;
    if (st->chain_len == 0) return st->chain_tile_h == 0 ? TIGRIS_OK : TIGRIS_ERR_BAD_SECTION;
    if (st->chain_len < 2 || st->chain_id > s) return TIGRIS_ERR_BAD_SECTION;
    if ((uint32_t)st->chain_id + st->chain_len > ld->hdr->num_stages) return TIGRIS_ERR_BAD_SECTION;
    if ((uint32_t)s >= (uint32_t)st->chain_id + st->chain_len) return TIGRIS_ERR_BAD_SECTION;
    if (st->tile_plan_idx != TIGRIS_NONE16) return TIGRIS_ERR_BAD_SECTION;
    head = &p->stages[st->chain_id];
    if (head->chain_id != st->chain_id || head->chain_len != st->chain_len) return TIGRIS_ERR_BAD_SECTION;
    if (s == st->chain_id) return st->chain_tile_h > 0 ? TIGRIS_OK : TIGRIS_ERR_BAD_SECTION;
    return st->chain_tile_h == 0 ? TIGRIS_OK : TIGRIS_ERR_BAD_SECTION;
}

static tigris_error_t chain_ops(tigris__ld_t *ld, const tigris_stage_t *st) {
    const tigris_plan_t *p = ld->plan;
    uint32_t k, spatial = 0;
    if (st->chain_len == 0) return TIGRIS_OK;
    for (k = 0; k < st->ops_count; k++) {
        uint8_t t = p->ops[tigris__stage_op(p, st, k)].op_type;
        if (!tigris__op_is_chainable(t)) return TIGRIS_ERR_BAD_OPERATOR;
        if (tigris__op_is_spatial_h(t)) spatial++;
    }
    if (spatial > ld->req->spatial_ops_per_stage) ld->req->spatial_ops_per_stage = spatial;
    if (spatial > TIGRIS_MAX_SPATIAL_OPS_PER_STAGE) return TIGRIS_ERR_PLAN_LIMITS;
    return TIGRIS_OK;
}

tigris_error_t tigris__ld_stages(tigris__ld_t *ld) {
    const tigris_plan_t *p = ld->plan;
    uint32_t next_op = 0, s, k;
    tigris_error_t e;

    for (s = 0; s < ld->hdr->num_stages; s++) {
        const tigris_stage_t *st = &p->stages[s];
        if ((e = links(ld, (uint16_t)s)) != TIGRIS_OK) return e;
        if ((e = limits(ld, st)) != TIGRIS_OK) return e;
        if ((e = chain_shape(ld, (uint16_t)s)) != TIGRIS_OK) return e;
        /* The stage lists, concatenated, must be exactly 0..num_ops-1. */
        for (k = 0; k < st->ops_count; k++) {
            /* Checked here, not only after the loop: the band and chain
             * analyses below index p->ops with these entries. */
            if (next_op >= ld->hdr->num_ops) return TIGRIS_ERR_BAD_SECTION;
            if (tigris__stage_op(p, st, k) != next_op) return TIGRIS_ERR_BAD_SECTION;
            next_op++;
        }
        for (k = 0; k < st->ops_count; k++) {
            const tigris_op_t *op = &p->ops[tigris__stage_op(p, st, k)];
            uint8_t want = ld->version <= 4 ? (uint8_t)s : (uint8_t)(s & 0xFFu);
            if (ld->version <= 4 && s > 0xFFu) return TIGRIS_ERR_BAD_OPERATOR;
            if (op->stage != want) return TIGRIS_ERR_BAD_OPERATOR;
        }
        if ((e = tigris__ld_tile_contract(ld, (uint16_t)s)) != TIGRIS_OK) return e;
        if ((e = chain_ops(ld, st)) != TIGRIS_OK) return e;
        if ((e = tigris__ld_tile_band(ld, (uint16_t)s)) != TIGRIS_OK) return e;
        /* A chain is judged once all its members have passed the checks above. */
        if (st->chain_len != 0 && s == (uint32_t)st->chain_id + st->chain_len - 1u)
            if ((e = tigris__ld_chain_band(ld, st->chain_id)) != TIGRIS_OK) return e;
    }
    if (next_op != ld->hdr->num_ops) return TIGRIS_ERR_BAD_SECTION;
    return TIGRIS_OK;
}
