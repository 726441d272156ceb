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

/* Every listed stage output is written by one of the stage's own operators.
 * The executor places, spills and hands on exactly what the stage's kernels
 * write; an output written elsewhere (an earlier stage, or another member of
 * a chain, which exists only band by band) would be moved unset, and the
 * plan would fail or compute garbage at run time although it loaded. The
 * stage's op indices were checked against num_ops just before, and every op's
 * output list at step 11. */
static tigris_error_t outputs_written(const tigris_plan_t *p, const tigris_stage_t *st) {
    uint32_t k, j, i;
    for (k = 0; k < st->outputs_count; k++) {
        uint16_t t = tigris__stage_out(p, st, k);
        int found = 0;
        for (j = 0; j < st->ops_count && !found; j++) {
            const tigris_op_t *op = &p->ops[tigris__stage_op(p, st, j)];
            for (i = 0; i < op->num_outputs && !found; i++) found = tigris__op_out(p, op, i) == t;
        }
        if (!found) return TIGRIS_ERR_BAD_SECTION;
    }
    /* What the stage's ops read from outside the stage is loaded only when
     * it is a listed stage input: every tensor an op reads that no earlier
     * op of the stage wrote must be one (constant tensors aside). Chain
     * members are judged by F6 instead (chains.c): they read their
     * predecessors' bands. */
    for (j = 0; j < st->ops_count && st->chain_len == 0; j++) {
        const tigris_op_t *op = &p->ops[tigris__stage_op(p, st, j)];
        for (i = 0; i < op->num_inputs; i++) {
            uint16_t t = tigris__op_in(p, op, i);
            int ok = 0;
            uint32_t m, n;
            if (t >= p->header->num_tensors || (p->tensors[t].flags & TIGRIS_TENSOR_CONSTANT)) continue;
            for (k = 0; k < st->inputs_count && !ok; k++) ok = tigris__stage_in(p, st, k) == t;
            for (m = 0; m < j && !ok; m++) {
                const tigris_op_t *w = &p->ops[tigris__stage_op(p, st, m)];
                for (n = 0; n < w->num_outputs && !ok; n++) ok = tigris__op_out(p, w, n) == t;
            }
            if (!ok) return TIGRIS_ERR_BAD_SECTION;
        }
    }
    /* And the other way for model outputs: one an op of the stage writes is
     * listed, or the executor would drop it with the stage's scratch. */
    for (j = 0; j < st->ops_count; j++) {
        const tigris_op_t *op = &p->ops[tigris__stage_op(p, st, j)];
        for (i = 0; i < op->num_outputs; i++) {
            uint16_t t = tigris__op_out(p, op, i);
            int listed = 0;
            if (t >= p->header->num_tensors || !(p->tensors[t].flags & TIGRIS_TENSOR_MODEL_OUTPUT)) continue;
            for (k = 0; k < st->outputs_count && !listed; k++) listed = tigris__stage_out(p, st, k) == t;
            if (!listed) return TIGRIS_ERR_BAD_SECTION;
        }
    }
    return TIGRIS_OK;
}

tigris_error_t tigris__ld_stages(tigris__ld_t *ld) {
    const tigris_plan_t *p = ld->plan;
    uint32_t next_op = 0, s, k;
    tigris_error_t e;

    /* A plan without stages loads nothing the executor can run (it answers
     * "plan has no stages"): refused here, so a loaded plan always runs. */
    if (ld->hdr->num_stages == 0) return TIGRIS_ERR_BAD_SECTION;

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
        if ((e = outputs_written(p, st)) != TIGRIS_OK) return e;
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
