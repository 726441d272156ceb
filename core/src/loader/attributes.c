/*
 * attributes.c - step 12 of docs/format.md P13.2: attribute records (P10) and the
 * attributes some operators cannot run without (P10.4).
 */
#include "loader_internal.h"

/* Number of outputs an operator must have to carry attributes; 0 = "one or
 * more" (If/While). */
static int outputs_ok(uint8_t op, uint8_t n) {
    switch (op) {
    case TIGRIS_OP_SVDF: return n == 2;
    case TIGRIS_OP_LSTM: return n == 3;
    case TIGRIS_OP_DETECTION_POSTPROCESS: return n == 5;
    case TIGRIS_OP_IF:
    case TIGRIS_OP_WHILE: return n >= 1;
    default: return n == 1;
    }
}

#define ATTR(kind) (1u << TIGRIS_ATTR_##kind)

/* docs/format.md P10.2: which operators read which kind (the attrs column
 * of ../ops.def). */
static const uint32_t kinds_allowed[TIGRIS_OP_MAX_KNOWN + 1] = {
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) [value] = (attrs),
#include "../ops.def"
};

/* docs/format.md P10.4: the kinds an operator cannot run without (the needs
 * column). */
static const uint32_t kinds_needed[TIGRIS_OP_MAX_KNOWN + 1] = {
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) [value] = (needs),
#include "../ops.def"
};

#undef ATTR

_Static_assert(TIGRIS_ATTR_MAX_KNOWN < 32, "attribute kinds are bits of a uint32_t");

static int kind_allowed(uint8_t kind, uint8_t op) {
    if (kind == 0 || kind > TIGRIS_ATTR_MAX_KNOWN || op > TIGRIS_OP_MAX_KNOWN) return 0;
    return (kinds_allowed[op] >> kind) & 1u;
}

static int has_attr(const tigris_plan_t *p, uint16_t op, uint8_t kind) {
    return tigris_op_attribute_data(p, op, kind, NULL) != NULL;
}

tigris_error_t tigris__ld_attributes(tigris__ld_t *ld) {
    const tigris_plan_t *p = ld->plan;
    uint32_t i, prev_key = 0;

    for (i = 0; i < p->num_op_attributes; i++) {
        const tigris_op_attribute_t *a = &p->op_attributes[i];
        uint32_t key = ((uint32_t)a->op_index << 8) | a->type;
        const tigris_op_t *op;
        if (i > 0 && key <= prev_key) return TIGRIS_ERR_BAD_SECTION;
        prev_key = key;
        if (a->op_index >= ld->hdr->num_ops) return TIGRIS_ERR_BAD_SECTION;
        if (!tigris__fits(a->data_offset, a->data_len, ld->attr_data_len)) return TIGRIS_ERR_BAD_SECTION;
        if (a->type == 0 || a->type > TIGRIS_ATTR_MAX_KNOWN) return TIGRIS_ERR_BAD_SECTION;
        if (a->type > TIGRIS_ATTR_TRANSPOSE_PERM && ld->version < 8) return TIGRIS_ERR_BAD_SECTION;
        if (a->type == TIGRIS_ATTR_BINARY_REQUANT && ld->version < 9) return TIGRIS_ERR_BAD_SECTION;
        op = &p->ops[a->op_index];
        if (op->num_inputs < 1 || !outputs_ok(op->op_type, op->num_outputs)) return TIGRIS_ERR_BAD_SECTION;
        if (!kind_allowed(a->type, op->op_type)) return TIGRIS_ERR_BAD_SECTION;
        if (a->type == TIGRIS_ATTR_PADS && (a->data_offset & 3u)) return TIGRIS_ERR_BAD_SECTION;
    }
    /* Operators that cannot run without their attribute; with no section
     * at all the lookups simply find nothing. */
    for (i = 0; i < ld->hdr->num_ops; i++) {
        uint8_t t = p->ops[i].op_type;
        uint32_t need = t <= TIGRIS_OP_MAX_KNOWN ? kinds_needed[t] : 0u;
        uint8_t kind;
        for (kind = 1; kind <= TIGRIS_ATTR_MAX_KNOWN; kind++)
            if (((need >> kind) & 1u) && !has_attr(p, (uint16_t)i, kind)) return TIGRIS_ERR_BAD_SECTION;
    }
    return TIGRIS_OK;
}
