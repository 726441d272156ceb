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

static int is_reduce_like(uint8_t op) {
    return op == TIGRIS_OP_REDUCE_MEAN || op == TIGRIS_OP_REDUCE_MAX || op == TIGRIS_OP_REDUCE_MIN ||
           op == TIGRIS_OP_REDUCE_SUM || op == TIGRIS_OP_REDUCE_ALL || op == TIGRIS_OP_CUMSUM ||
           op == TIGRIS_OP_ARG_MAX || op == TIGRIS_OP_ARG_MIN;
}

/* docs/format.md P10.2: which operators read which kind. */
static int kind_allowed(uint8_t kind, uint8_t op) {
    switch (kind) {
    case TIGRIS_ATTR_TRANSPOSE_PERM: return op == TIGRIS_OP_TRANSPOSE;
    case TIGRIS_ATTR_EPSILON: return op == TIGRIS_OP_LAYER_NORM || op == TIGRIS_OP_L2_NORMALIZATION;
    case TIGRIS_ATTR_ALPHA: return op == TIGRIS_OP_LEAKY_RELU;
    case TIGRIS_ATTR_CLIP_BOUNDS: return op == TIGRIS_OP_CLIP;
    case TIGRIS_ATTR_PADS: return op == TIGRIS_OP_PAD;
    case TIGRIS_ATTR_AXES: return is_reduce_like(op);
    case TIGRIS_ATTR_BINARY_REQUANT: return op == TIGRIS_OP_ADD || op == TIGRIS_OP_SUB;
    case TIGRIS_ATTR_POOL_ROUNDING: return op == TIGRIS_OP_GLOBAL_AVG;
    case TIGRIS_ATTR_CONSTANT_OPERAND:
        return op == TIGRIS_OP_ADD || op == TIGRIS_OP_SUB || op == TIGRIS_OP_MUL || op == TIGRIS_OP_DIV ||
               op == TIGRIS_OP_SQUARED_DIFFERENCE || op == TIGRIS_OP_MAXIMUM || op == TIGRIS_OP_MINIMUM ||
               op == TIGRIS_OP_FLOOR_DIV || op == TIGRIS_OP_FLOOR_MOD || op == TIGRIS_OP_PRELU ||
               (op >= TIGRIS_OP_EQUAL && op <= TIGRIS_OP_LOGICAL_OR) || op == TIGRIS_OP_SELECT_V2;
    case TIGRIS_ATTR_RESIZE_SCALES: return op == TIGRIS_OP_RESIZE || op == TIGRIS_OP_RESIZE_LINEAR;
    case TIGRIS_ATTR_CUMSUM_OPTIONS: return op == TIGRIS_OP_CUMSUM;
    case TIGRIS_ATTR_MOVEMENT: return op >= TIGRIS_OP_GATHER && op <= TIGRIS_OP_DYNAMIC_UPDATE_SLICE;
    case TIGRIS_ATTR_COMPARISON_REQUANT: return op >= TIGRIS_OP_EQUAL && op <= TIGRIS_OP_GREATER_EQUAL;
    case TIGRIS_ATTR_CONSTANTS:
        return op == TIGRIS_OP_SVDF || op == TIGRIS_OP_LSTM || op == TIGRIS_OP_DETECTION_POSTPROCESS;
    case TIGRIS_ATTR_SVDF: return op == TIGRIS_OP_SVDF;
    case TIGRIS_ATTR_LSTM: return op == TIGRIS_OP_LSTM;
    case TIGRIS_ATTR_SUBGRAPHS: return op == TIGRIS_OP_IF || op == TIGRIS_OP_WHILE;
    case TIGRIS_ATTR_DETECTION: return op == TIGRIS_OP_DETECTION_POSTPROCESS;
    default: return 0;
    }
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
        uint16_t oi = (uint16_t)i;
        if (t == TIGRIS_OP_TRANSPOSE && !has_attr(p, oi, TIGRIS_ATTR_TRANSPOSE_PERM)) return TIGRIS_ERR_BAD_SECTION;
        if ((t == TIGRIS_OP_LAYER_NORM || t == TIGRIS_OP_L2_NORMALIZATION) && !has_attr(p, oi, TIGRIS_ATTR_EPSILON))
            return TIGRIS_ERR_BAD_SECTION;
        if (t == TIGRIS_OP_CUMSUM && !has_attr(p, oi, TIGRIS_ATTR_CUMSUM_OPTIONS)) return TIGRIS_ERR_BAD_SECTION;
        if (is_reduce_like(t) && !has_attr(p, oi, TIGRIS_ATTR_AXES)) return TIGRIS_ERR_BAD_SECTION;
    }
    return TIGRIS_OK;
}
