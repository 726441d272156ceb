/*
 * sizing.c - arena and workspace sizes a loaded plan needs
 * (docs/runtime-semantics.md R1.12 and R2.1.1), and the plan's data dtype.
 */
#include "loader_internal.h"
#include "tigris_executor.h"

static uint32_t sat_add(uint32_t a, uint32_t b) { return a > UINT32_MAX - b ? UINT32_MAX : a + b; }

static uint32_t sat_align(uint32_t x) {
    uint32_t a = (uint32_t)TIGRIS_TENSOR_ALIGN;
    if (x > UINT32_MAX - (a - 1u)) return UINT32_MAX;
    return (x + a - 1u) & ~(a - 1u);
}

static const tigris_weight_block_t *first_block(const tigris_plan_t *p, uint32_t s) {
    uint32_t i;
    for (i = 0; i < p->num_weight_blocks; i++)
        if (p->weight_blocks[i].stage_idx == s) return &p->weight_blocks[i];
    return NULL;
}

/* A standalone stage holds one decoded block at a time; a chain holds all of
 * its members' blocks together. */
uint32_t tigris_weight_decompression_overhead(const tigris_plan_t *plan) {
    uint32_t best = 0, i, s, m;
    if (!plan || !plan->weight_blocks || !plan->header) return 0;
    for (i = 0; i < plan->num_weight_blocks; i++) {
        const tigris_weight_block_t *b = &plan->weight_blocks[i];
        uint32_t need;
        if (b->compressed_size == 0) continue;
        need = sat_align(b->uncompressed_size);
        if (need > best) best = need;
    }
    if (!plan->stages) return best;
    for (s = 0; s < plan->header->num_stages; s++) {
        const tigris_stage_t *st = &plan->stages[s];
        uint32_t sum = 0;
        if (st->chain_len < 2 || st->chain_id != s) continue;
        for (m = s; m < s + st->chain_len && m < plan->header->num_stages; m++) {
            const tigris_weight_block_t *b = first_block(plan, m);
            if (b && b->compressed_size > 0) sum = sat_add(sum, sat_align(b->uncompressed_size));
        }
        if (sum > best) best = sum;
    }
    return best;
}

uint32_t tigris_fast_arena_required(const tigris_plan_t *plan) {
    uint32_t base;
    if (!plan || !plan->header) return UINT32_MAX;
    /* Schema 11 states what the schedule holds; the header budget of older
     * plans is the compiler's limit, the best figure they carry. */
    base = plan->header->version >= 11 ? plan->scheduled_peak : plan->header->budget;
    return sat_add(base, tigris_weight_decompression_overhead(plan));
}

int tigris__workspace_limits(const tigris_plan_t *plan, tigris__ws_limits_t *out) {
    const tigris_file_header_t *h = plan->header;
    uint32_t s, m, k;
    memset(out, 0, sizeof *out);
    out->tensors = h->num_tensors;
    for (s = 0; s < h->num_stages; s++) {
        const tigris_stage_t *st = &plan->stages[s];
        if (st->inputs_count > out->inputs) out->inputs = st->inputs_count;
        if (st->outputs_count > out->outputs) out->outputs = st->outputs_count;
        if (st->chain_len < 2 || st->chain_id != s) continue;
        if (s + st->chain_len > h->num_stages) return 0;
        if (st->chain_len > out->chain) out->chain = st->chain_len;
        for (m = s; m < s + st->chain_len; m++) {
            const tigris_stage_t *ms = &plan->stages[m];
            uint32_t n = 0;
            for (k = 0; k < ms->ops_count; k++) {
                uint16_t o = tigris__stage_op(plan, ms, k);
                if (o < h->num_ops && tigris__op_is_spatial_h(plan->ops[o].op_type)) n++;
            }
            if (n > out->spatial) out->spatial = n;
        }
    }
    return 1;
}

size_t tigris_executor_workspace_required(const tigris_plan_t *plan) {
    tigris__ws_limits_t lim;
    uint64_t bytes;
    if (!plan || !plan->header || (plan->header->num_stages > 0 && !plan->stages)) return 0;
    if (!tigris__workspace_limits(plan, &lim)) return 0;
    bytes = TIGRIS_WORKSPACE_BYTES_((uint64_t)lim.inputs, (uint64_t)lim.outputs, (uint64_t)lim.chain,
                                    (uint64_t)lim.spatial, (uint64_t)lim.tensors);
    if (bytes > (uint64_t)(size_t)-1) return 0;
    return (size_t)bytes;
}

uint8_t tigris_plan_data_dtype(const tigris_plan_t *plan) {
    uint32_t i;
    if (!plan || !plan->header || !plan->tensors) return TIGRIS_DTYPE_FLOAT32;
    for (i = 0; i < plan->header->num_tensors; i++)
        if (!(plan->tensors[i].flags & TIGRIS_TENSOR_CONSTANT) && plan->tensors[i].dtype == TIGRIS_DTYPE_INT8)
            return TIGRIS_DTYPE_INT8;
    return TIGRIS_DTYPE_FLOAT32;
}
