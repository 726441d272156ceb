/*
 * subgraphs.c - steps 9 and 19 of docs/format.md P13.2: the subgraph section header and
 * the control-flow rules of P12 (graph ranges, tensor ownership, If/While
 * placement and operand forms, nesting depth).
 */
#include "loader_internal.h"

tigris_error_t tigris__ld_subgraph_header(tigris__ld_t *ld) {
    tigris_plan_t *p = ld->plan;
    const uint8_t *b;
    uint32_t ext, n;
    if (!ld->sec_present[TIGRIS_SEC_SUBGRAPHS]) return TIGRIS_OK;
    ext = ld->sec_len[TIGRIS_SEC_SUBGRAPHS];
    b = ld->buf + ld->sec_off[TIGRIS_SEC_SUBGRAPHS];
    if (ext < 4) return TIGRIS_ERR_BAD_SECTION;
    n = tigris__rd16(b);
    if (n < 2 || tigris__rd16(b + 2) != 0) return TIGRIS_ERR_BAD_SECTION;
    if ((uint64_t)n * 12u > ext - 4u) return TIGRIS_ERR_BAD_SECTION;
    /* The v11 reference reports this as a build limit, not a format fault. */
    ld->req->subgraphs = n;
    if (n > TIGRIS_MAX_SUBGRAPHS) return TIGRIS_ERR_PLAN_LIMITS;
    p->subgraphs = (const tigris_subgraph_t *)(b + 4);
    p->num_subgraphs = (uint16_t)n;
    return TIGRIS_OK;
}

static int is_control(uint8_t t) { return t == TIGRIS_OP_IF || t == TIGRIS_OP_WHILE; }

/* Same dtype, size, shape and (rank >= 3) LINEAR flag. */
static int same_form(const tigris_plan_t *p, uint16_t a, uint16_t b) {
    const tigris_tensor_t *x = &p->tensors[a], *y = &p->tensors[b];
    uint32_t d;
    if (x->dtype != y->dtype || x->size_bytes != y->size_bytes || x->ndim != y->ndim) return 0;
    for (d = 0; d < x->ndim; d++)
        if (tigris__dim(p, x, d) != tigris__dim(p, y, d)) return 0;
    if (x->ndim >= 3 && (x->flags & TIGRIS_TENSOR_LINEAR) != (y->flags & TIGRIS_TENSOR_LINEAR)) return 0;
    return 1;
}

static uint16_t g_in(const tigris_plan_t *p, uint32_t g, uint32_t i) {
    return tigris__pool16(p, (uint32_t)p->subgraphs[g].inputs_off + i);
}
static uint16_t g_out(const tigris_plan_t *p, uint32_t g, uint32_t i) {
    return tigris__pool16(p, (uint32_t)p->subgraphs[g].outputs_off + i);
}

static uint32_t graph_of_stage(const tigris_plan_t *p, uint32_t s) {
    uint32_t g;
    for (g = 0; g < p->num_subgraphs; g++)
        if (s >= p->subgraphs[g].first_stage && s - p->subgraphs[g].first_stage < p->subgraphs[g].num_stages)
            return g;
    return 0;
}

static tigris_error_t graph_ranges(const tigris__ld_t *ld) {
    const tigris_plan_t *p = ld->plan;
    const tigris_file_header_t *h = ld->hdr;
    uint32_t g, i, next = 0;
    for (g = 0; g < p->num_subgraphs; g++) {
        const tigris_subgraph_t *sg = &p->subgraphs[g];
        if (sg->first_stage != next) return TIGRIS_ERR_BAD_SECTION;
        if (g > 0 && sg->num_stages == 0) return TIGRIS_ERR_BAD_SECTION;
        next += sg->num_stages;
        if (next > h->num_stages) return TIGRIS_ERR_BAD_SECTION;
        if (!tigris__fits(sg->inputs_off, sg->inputs_count, ld->index_count) ||
            !tigris__fits(sg->outputs_off, sg->outputs_count, ld->index_count))
            return TIGRIS_ERR_BAD_SECTION;
        for (i = 0; i < sg->inputs_count; i++)
            if (g_in(p, g, i) >= h->num_tensors) return TIGRIS_ERR_BAD_SECTION;
        for (i = 0; i < sg->outputs_count; i++)
            if (g_out(p, g, i) >= h->num_tensors) return TIGRIS_ERR_BAD_SECTION;
    }
    if (next != h->num_stages) return TIGRIS_ERR_BAD_SECTION;
    /* Graph 0 is the model: its I/O lists are the header's. */
    if (p->subgraphs[0].inputs_count != h->num_model_inputs || p->subgraphs[0].outputs_count != h->num_model_outputs)
        return TIGRIS_ERR_BAD_SECTION;
    for (i = 0; i < h->num_model_inputs; i++)
        if (g_in(p, 0, i) != tigris__rd16((const uint8_t *)(p->model_inputs + i))) return TIGRIS_ERR_BAD_SECTION;
    for (i = 0; i < h->num_model_outputs; i++)
        if (g_out(p, 0, i) != tigris__rd16((const uint8_t *)(p->model_outputs + i))) return TIGRIS_ERR_BAD_SECTION;
    return TIGRIS_OK;
}

typedef struct {
    uint32_t lo, hi; /* inclusive; lo > hi = no tensor */
} span_t;

static void widen(span_t *r, uint32_t t) {
    if (r->lo > r->hi) {
        r->lo = r->hi = t;
        return;
    }
    if (t < r->lo) r->lo = t;
    if (t > r->hi) r->hi = t;
}

static span_t graph_span(const tigris_plan_t *p, uint32_t g) {
    const tigris_subgraph_t *sg = &p->subgraphs[g];
    span_t r;
    uint32_t s, k, i;
    r.lo = 1;
    r.hi = 0;
    for (i = 0; i < sg->inputs_count; i++) widen(&r, g_in(p, g, i));
    for (i = 0; i < sg->outputs_count; i++) widen(&r, g_out(p, g, i));
    for (s = sg->first_stage; s < (uint32_t)sg->first_stage + sg->num_stages; s++) {
        const tigris_stage_t *st = &p->stages[s];
        for (k = 0; k < st->ops_count; k++) {
            const tigris_op_t *op = &p->ops[tigris__stage_op(p, st, k)];
            for (i = 0; i < op->num_inputs; i++) widen(&r, tigris__op_in(p, op, i));
            for (i = 0; i < op->num_outputs; i++) widen(&r, tigris__op_out(p, op, i));
        }
    }
    if (g == 0)
        for (i = 0; i < p->num_state; i++) {
            widen(&r, p->state_entries[i].input);
            if (p->state_entries[i].output != TIGRIS_NONE16) widen(&r, p->state_entries[i].output);
        }
    return r;
}

static tigris_error_t tensor_ownership(const tigris__ld_t *ld) {
    const tigris_plan_t *p = ld->plan;
    uint32_t g, h, t;
    for (g = 0; g < p->num_subgraphs; g++) {
        span_t a = graph_span(p, g);
        if (a.lo > a.hi) continue;
        for (h = 0; h < g; h++) {
            span_t b = graph_span(p, h);
            if (b.lo <= b.hi && a.lo <= b.hi && b.lo <= a.hi) return TIGRIS_ERR_BAD_TENSOR;
        }
        if (g == 0) continue;
        for (t = a.lo; t <= a.hi; t++)
            if (p->tensors[t].flags & (TIGRIS_TENSOR_MODEL_INPUT | TIGRIS_TENSOR_MODEL_OUTPUT | TIGRIS_TENSOR_STATE))
                return TIGRIS_ERR_BAD_TENSOR;
    }
    return TIGRIS_OK;
}

static tigris_error_t check_if(const tigris_plan_t *p, const tigris_op_t *op, uint16_t g1, uint16_t g2) {
    const tigris_tensor_t *c = &p->tensors[tigris__op_in(p, op, 0)];
    uint32_t b, i;
    uint16_t gs[2];
    if (c->dtype != TIGRIS_DTYPE_BOOL || c->size_bytes != 1) return TIGRIS_ERR_BAD_OPERATOR;
    gs[0] = g1;
    gs[1] = g2;
    for (b = 0; b < 2; b++) {
        const tigris_subgraph_t *sg = &p->subgraphs[gs[b]];
        if (sg->inputs_count != op->num_inputs - 1u || sg->outputs_count != op->num_outputs)
            return TIGRIS_ERR_BAD_OPERATOR;
        for (i = 1; i < op->num_inputs; i++)
            if (!same_form(p, tigris__op_in(p, op, i), g_in(p, gs[b], i - 1))) return TIGRIS_ERR_BAD_OPERATOR;
        for (i = 0; i < op->num_outputs; i++)
            if (!same_form(p, tigris__op_out(p, op, i), g_out(p, gs[b], i))) return TIGRIS_ERR_BAD_OPERATOR;
    }
    return TIGRIS_OK;
}

static tigris_error_t check_while(const tigris_plan_t *p, const tigris_op_t *op, uint16_t cg, uint16_t bg) {
    const tigris_subgraph_t *c = &p->subgraphs[cg], *b = &p->subgraphs[bg];
    uint32_t i, n = op->num_inputs;
    const tigris_tensor_t *ct;
    if (cg == bg || op->num_outputs != n) return TIGRIS_ERR_BAD_OPERATOR;
    if (c->inputs_count != n || c->outputs_count != 1) return TIGRIS_ERR_BAD_OPERATOR;
    if (b->inputs_count != n || b->outputs_count != n) return TIGRIS_ERR_BAD_OPERATOR;
    ct = &p->tensors[g_out(p, cg, 0)];
    if (ct->dtype != TIGRIS_DTYPE_BOOL || ct->size_bytes != 1) return TIGRIS_ERR_BAD_OPERATOR;
    for (i = 0; i < n; i++) {
        uint16_t v = tigris__op_in(p, op, i);
        if (!same_form(p, v, tigris__op_out(p, op, i)) || !same_form(p, v, g_in(p, cg, i)) ||
            !same_form(p, v, g_in(p, bg, i)) || !same_form(p, v, g_out(p, bg, i)))
            return TIGRIS_ERR_BAD_OPERATOR;
    }
    return TIGRIS_OK;
}

/* Placement and operands of every If/While; fills refs[] with the graphs
 * each control op runs (for the depth computation). */
static tigris_error_t control_ops(const tigris__ld_t *ld) {
    const tigris_plan_t *p = ld->plan;
    uint32_t s, k;
    for (s = 0; s < ld->hdr->num_stages; s++) {
        const tigris_stage_t *st = &p->stages[s];
        for (k = 0; k < st->ops_count; k++) {
            uint16_t oi = tigris__stage_op(p, st, k);
            const tigris_op_t *op = &p->ops[oi];
            const uint8_t *a;
            uint8_t len = 0;
            uint16_t g1, g2;
            tigris_error_t e;
            if (!is_control(op->op_type)) continue;
            if (!p->subgraphs) return TIGRIS_ERR_BAD_OPERATOR;
            if (st->ops_count != 1 || st->chain_len != 0 || st->tile_plan_idx != TIGRIS_NONE16 ||
                op->num_inputs < 1)
                return TIGRIS_ERR_BAD_OPERATOR;
            a = tigris_op_attribute_data(p, oi, TIGRIS_ATTR_SUBGRAPHS, &len);
            if (!a || len != 4) return TIGRIS_ERR_BAD_OPERATOR;
            g1 = tigris__rd16(a);
            g2 = tigris__rd16(a + 2);
            if (g1 == 0 || g2 == 0 || g1 >= p->num_subgraphs || g2 >= p->num_subgraphs)
                return TIGRIS_ERR_BAD_OPERATOR;
            e = op->op_type == TIGRIS_OP_IF ? check_if(p, op, g1, g2) : check_while(p, op, g1, g2);
            if (e != TIGRIS_OK) return e;
        }
    }
    return TIGRIS_OK;
}

/* Nesting: graph 0 is level 0, a graph run by a control op at level L is
 * at level L+1. Levels are relaxed to a fixed point; a graph that can run
 * itself (directly or through others) never settles and is refused. */
static tigris_error_t nesting(tigris__ld_t *ld) {
    tigris_plan_t *p = ld->plan;
    uint16_t level[TIGRIS_MAX_SUBGRAPHS];
    uint32_t n = p->num_subgraphs, g, round, s, depth = 0;
    int changed = 1;
    if (n == 0) return TIGRIS_OK;
    for (g = 0; g < n; g++) level[g] = TIGRIS_NONE16;
    level[0] = 0;
    for (round = 0; changed; round++) {
        if (round > n) return TIGRIS_ERR_BAD_OPERATOR;
        changed = 0;
        for (s = 0; s < ld->hdr->num_stages; s++) {
            const tigris_stage_t *st = &p->stages[s];
            uint16_t oi, lv;
            const uint8_t *a;
            uint32_t j;
            if (st->ops_count != 1) continue;
            oi = tigris__stage_op(p, st, 0);
            if (!is_control(p->ops[oi].op_type)) continue;
            lv = level[graph_of_stage(p, s)];
            if (lv == TIGRIS_NONE16) continue;
            a = tigris_op_attribute_data(p, oi, TIGRIS_ATTR_SUBGRAPHS, NULL);
            if ((uint32_t)lv + 1u > depth) depth = (uint32_t)lv + 1u;
            for (j = 0; j < 2; j++) {
                uint16_t t = tigris__rd16(a + 2 * j);
                if (level[t] == TIGRIS_NONE16 || level[t] < lv + 1u) {
                    level[t] = (uint16_t)(lv + 1u);
                    changed = 1;
                }
            }
        }
    }
    ld->req->subgraph_depth = depth;
    if (depth > TIGRIS_MAX_SUBGRAPH_DEPTH) return TIGRIS_ERR_PLAN_LIMITS;
    p->subgraph_depth = (uint16_t)depth;
    return TIGRIS_OK;
}

tigris_error_t tigris__ld_control_flow(tigris__ld_t *ld) {
    tigris_error_t e;
    if (ld->plan->subgraphs) {
        if ((e = graph_ranges(ld)) != TIGRIS_OK) return e;
        if ((e = tensor_ownership(ld)) != TIGRIS_OK) return e;
    }
    if ((e = control_ops(ld)) != TIGRIS_OK) return e;
    return nesting(ld);
}
