/* ops.c - step 11 of docs/format.md P13.2: operator records point at valid strings,
 * index-pool ranges, tensors, stages and weights (P5.4). */
#include "loader_internal.h"

tigris_error_t tigris__ld_ops(tigris__ld_t *ld) {
    const tigris_file_header_t *h = ld->hdr;
    const tigris_plan_t *p = ld->plan;
    uint32_t i, k;
    for (i = 0; i < h->num_ops; i++) {
        const tigris_op_t *op = &p->ops[i];
        if (!tigris__ld_string_ok(ld, op->name_str)) return TIGRIS_ERR_BAD_SECTION;
        if (!tigris__fits(op->inputs_off, op->num_inputs, ld->index_count)) return TIGRIS_ERR_BAD_SECTION;
        if (!tigris__fits(op->outputs_off, op->num_outputs, ld->index_count)) return TIGRIS_ERR_BAD_SECTION;
        for (k = 0; k < op->num_inputs; k++)
            if (tigris__op_in(p, op, k) >= h->num_tensors) return TIGRIS_ERR_BAD_SECTION;
        for (k = 0; k < op->num_outputs; k++)
            if (tigris__op_out(p, op, k) >= h->num_tensors) return TIGRIS_ERR_BAD_SECTION;
        /* Revision 4 still names the owning stage exactly in the op. */
        if (ld->version <= 4 && h->num_stages > 0 && op->stage >= h->num_stages) return TIGRIS_ERR_BAD_SECTION;
        if (op->weight_idx != TIGRIS_NONE16 && op->weight_idx >= h->num_weights) return TIGRIS_ERR_BAD_SECTION;
        if (op->bias_idx != TIGRIS_NONE16 && op->bias_idx >= h->num_weights) return TIGRIS_ERR_BAD_SECTION;
    }
    return TIGRIS_OK;
}
