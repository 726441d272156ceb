/*
 * chains.c - docs/format.md F6: a chain runs tile by tile, loading only
 * its head's inputs as row bands and writing only its last member's
 * outputs, so every tensor in between must be produced inside the chain
 * and cut into the same rows.
 */
#include "loader_internal.h"

static const tigris_tensor_t *T(const tigris_plan_t *p, uint16_t t) { return &p->tensors[t]; }

static int listed(const tigris_plan_t *p, uint16_t off, uint16_t n, uint16_t t) {
    uint32_t k;
    for (k = 0; k < n; k++)
        if (tigris__pool16(p, (uint32_t)off + k) == t) return 1;
    return 0;
}

/* Is t written by an op of stages [first, s], before position `before`
 * within stage s? */
static int produced_before(const tigris_plan_t *p, uint32_t first, uint32_t s, uint32_t before, uint16_t t) {
    uint32_t m, k;
    for (m = first; m <= s; m++) {
        const tigris_stage_t *st = &p->stages[m];
        uint32_t n = m == s ? before : st->ops_count;
        for (k = 0; k < n; k++) {
            const tigris_op_t *op = &p->ops[tigris__stage_op(p, st, k)];
            if (listed(p, op->outputs_off, op->num_outputs, t)) return 1;
        }
    }
    return 0;
}

/* Rows are axis 1 of an NHWC tensor: the chain bands nothing else. */
static int row_banded(const tigris_plan_t *p, uint16_t t) {
    return T(p, t)->ndim == 4 && !(T(p, t)->flags & TIGRIS_TENSOR_LINEAR);
}

static int32_t rows(const tigris_plan_t *p, uint16_t t) { return tigris__dim(p, T(p, t), 1); }

/* Is t read by an operator outside the chain? Operators, not stages, are
 * walked: every op record was validated at step 11, while stages after the
 * chain have not been checked yet. The chain's ops are the contiguous index
 * range [first, last) because stage op lists run 0..num_ops-1 in order. */
static int read_outside(const tigris_plan_t *p, uint32_t head, uint32_t end, uint16_t t) {
    uint32_t s, i, first = 0, last;
    if (T(p, t)->flags & TIGRIS_TENSOR_MODEL_OUTPUT) return 1;
    for (s = 0; s < head; s++) first += p->stages[s].ops_count;
    last = first;
    for (s = head; s < end; s++) last += p->stages[s].ops_count;
    for (i = 0; i < p->header->num_ops; i++) {
        const tigris_op_t *op = &p->ops[i];
        if (i >= first && i < last) continue;
        if (listed(p, op->inputs_off, op->num_inputs, t)) return 1;
    }
    return 0;
}

tigris_error_t tigris__ld_chain_band(const tigris__ld_t *ld, uint16_t head) {
    const tigris_plan_t *p = ld->plan;
    uint32_t end = (uint32_t)head + p->stages[head].chain_len, s, k, i;
    const tigris_stage_t *h = &p->stages[head];

    for (k = 0; k < h->inputs_count; k++)
        if (!row_banded(p, tigris__stage_in(p, h, k))) return TIGRIS_ERR_CHAIN_BAND;
    for (s = head; s < end; s++) {
        const tigris_stage_t *st = &p->stages[s];
        for (k = 0; k < st->ops_count; k++) {
            const tigris_op_t *op = &p->ops[tigris__stage_op(p, st, k)];
            uint16_t out0;
            if (op->num_inputs == 0 || op->num_outputs == 0) return TIGRIS_ERR_CHAIN_BAND;
            /* The executor runs every member op on a band of rows. */
            if (!tigris__op_bands_by_height(p, op)) return TIGRIS_ERR_CHAIN_BAND;
            out0 = tigris__op_out(p, op, 0);
            for (i = 0; i < op->num_outputs; i++)
                if (!row_banded(p, tigris__op_out(p, op, i))) return TIGRIS_ERR_CHAIN_BAND;
            for (i = 0; i < op->num_inputs; i++) {
                uint16_t t = tigris__op_in(p, op, i);
                if (!row_banded(p, t)) return TIGRIS_ERR_CHAIN_BAND;
                /* Only the head's inputs come from outside the chain. */
                if (!produced_before(p, head, s, k, t) &&
                    !(s == head && listed(p, h->inputs_off, h->inputs_count, t)))
                    return TIGRIS_ERR_CHAIN_BAND;
                /* A pointwise op keeps the rows of its operands; a
                 * broadcast along rows would need rows outside the band. */
                if (!tigris__op_is_spatial_h(op->op_type) && rows(p, t) != rows(p, out0))
                    return TIGRIS_ERR_CHAIN_BAND;
            }
            /* Results of inner members exist only band by band. */
            if (s + 1 < end)
                for (i = 0; i < op->num_outputs; i++)
                    if (read_outside(p, head, end, tigris__op_out(p, op, i))) return TIGRIS_ERR_CHAIN_BAND;
        }
    }
    return TIGRIS_OK;
}
