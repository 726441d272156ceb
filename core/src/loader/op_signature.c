/*
 * op_signature.c - dtype signatures (docs/format.md P5.6; the in0..out
 * columns of the operator table, ../ops.def), the int32 producer
 * rule, and the float sections an int8 plan may contain (docs/format.md,
 * "Operator checks").
 */
#include "op_checks.h"

static const tg_signature_t tg_signatures[TIGRIS_OP_MAX_KNOWN + 1] = {
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) \
    [value] = {{TG_ROLE_##in0, TG_ROLE_##in1, TG_ROLE_##in2}, TG_ROLE_##out},
#include "../ops.def"
};

int tg_signature(uint8_t op_type, tg_signature_t *sig) {
    if (op_type == 0 || op_type > TIGRIS_OP_MAX_KNOWN || tg_signatures[op_type].out == TG_ROLE_NONE) return 0;
    *sig = tg_signatures[op_type];
    return 1;
}

uint8_t tg_input_role(const tg_op_ctx_t *c, const tg_signature_t *sig, uint32_t i) {
    uint32_t pos = i;
    uint32_t len;
    const uint8_t *co = tg_attr(c, TIGRIS_ATTR_CONSTANT_OPERAND, &len);
    if (co && len >= 1 && i >= co[0]) pos = i + 1;
    if (c->op->op_type == TIGRIS_OP_DYNAMIC_UPDATE_SLICE && c->op->weight_idx != TIGRIS_NONE16 && i >= 1)
        pos = i + 1;
    return sig->in[pos > 2 ? 2 : pos];
}

int tg_role_accepts(const tg_op_ctx_t *c, uint8_t role, uint8_t dtype) {
    switch (role) {
    case TG_ROLE_D: return dtype == c->d;
    case TG_ROLE_D_BOOL: return dtype == c->d || dtype == TIGRIS_DTYPE_BOOL;
    case TG_ROLE_D_I16: return dtype == c->d || dtype == TIGRIS_DTYPE_INT16;
    case TG_ROLE_I32: return dtype == TIGRIS_DTYPE_INT32;
    case TG_ROLE_BOOL: return dtype == TIGRIS_DTYPE_BOOL;
    case TG_ROLE_F32: return dtype == TIGRIS_DTYPE_FLOAT32;
    default: return 0;
    }
}

static int tg_role_is_data(uint8_t role) {
    return role == TG_ROLE_D || role == TG_ROLE_D_BOOL || role == TG_ROLE_D_I16;
}

static int tg_lists(const tigris_plan_t *plan, uint16_t off, uint32_t count, uint16_t t) {
    const tg_idx_t *l = plan->index_pool + off;
    for (uint32_t i = 0; i < count; i++)
        if (l[i] == t) return 1;
    return 0;
}

/* Number of operators listing t as an output (stops counting at 2); *sig_ok
 * is cleared when one of them does not produce int32 by its signature. */
static uint32_t tg_producers(const tigris_plan_t *plan, uint16_t t, int *only_i32) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < plan->header->num_ops; k++) {
        const tigris_op_t *op = &plan->ops[k];
        if (!tg_lists(plan, op->outputs_off, op->num_outputs, t)) continue;
        tg_signature_t sig;
        if (only_i32 && !(tg_signature(op->op_type, &sig) && sig.out == TG_ROLE_I32)) *only_i32 = 0;
        if (++n >= 2) break;
    }
    return n;
}

tigris_error_t tg_check_int32_producers(const tigris_plan_t *plan) {
    for (uint32_t t = 0; t < plan->header->num_tensors; t++) {
        const tigris_tensor_t *tt = &plan->tensors[t];
        if (tt->dtype != TIGRIS_DTYPE_INT32) continue;
        if (tt->flags & TIGRIS_TENSOR_CONSTANT) return TIGRIS_ERR_BAD_TENSOR;
        int only_i32 = 1;
        uint32_t n = tg_producers(plan, (uint16_t)t, &only_i32);
        if (!only_i32) return TIGRIS_ERR_BAD_OPERATOR;
        uint32_t want = (tt->flags & TIGRIS_TENSOR_MODEL_INPUT) ? 0u : 1u;
        if (n != want) return TIGRIS_ERR_BAD_OPERATOR;
    }
    return TIGRIS_OK;
}

/* A float32 tensor in an int8 plan must come out of an operator (a typed
 * conversion, a float-section op or a float-typed result) or cross a
 * control-flow or state boundary; a float model input cannot start one. */
static int tg_float_origin_ok(const tigris_plan_t *plan, uint16_t t) {
    if (plan->tensors[t].flags & TIGRIS_TENSOR_STATE) return 1;
    if (tg_producers(plan, t, NULL) > 0) return 1;
    if (plan->subgraphs)
        for (uint32_t g = 1; g < plan->num_subgraphs; g++)
            if (tg_lists(plan, plan->subgraphs[g].inputs_off, plan->subgraphs[g].inputs_count, t)) return 1;
    return 0;
}

/* CAST is the typed conversion: bool -> data dtype everywhere, and in an int8
 * plan also bool -> float32, int8 -> float32 (dequantize) and float32 -> int8
 * (quantize). */
static tigris_error_t tg_check_cast_types(tg_op_ctx_t *c) {
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(c->op->num_inputs == 1 && c->op->num_outputs == 1);
    if (c->plan_dtype != TIGRIS_DTYPE_INT8) {
        TG_REQUIRE(x->dtype == TIGRIS_DTYPE_BOOL && y->dtype == TIGRIS_DTYPE_FLOAT32);
        c->d = TIGRIS_DTYPE_FLOAT32;
        return TIGRIS_OK;
    }
    TG_REQUIRE(y->dtype == TIGRIS_DTYPE_INT8 || y->dtype == TIGRIS_DTYPE_FLOAT32);
    if (x->dtype == TIGRIS_DTYPE_BOOL) {
        c->d = y->dtype;
    } else if (x->dtype == TIGRIS_DTYPE_INT8) {
        TG_REQUIRE(y->dtype == TIGRIS_DTYPE_FLOAT32 && tg_has_quant(c, x));
        c->d = TIGRIS_DTYPE_FLOAT32;
    } else if (x->dtype == TIGRIS_DTYPE_FLOAT32) {
        TG_REQUIRE(y->dtype == TIGRIS_DTYPE_INT8 && tg_has_quant(c, y));
        TG_REQUIRE(tg_float_origin_ok(c->plan, c->in[0]));
        c->d = TIGRIS_DTYPE_INT8;
    } else {
        return TIGRIS_ERR_BAD_OPERATOR;
    }
    return TIGRIS_OK;
}

tigris_error_t tg_check_signature(tg_op_ctx_t *c) {
    tg_signature_t sig;
    if (!tg_signature(c->op->op_type, &sig)) return TIGRIS_ERR_BAD_OPERATOR;
    c->d = c->plan_dtype;
    if (c->op->op_type == TIGRIS_OP_CAST) return tg_check_cast_types(c);

    if (c->plan_dtype == TIGRIS_DTYPE_INT8) {
        /* The first data operand decides whether this op runs in a float section. */
        for (uint32_t i = 0; i < c->op->num_inputs; i++) {
            uint8_t dt = tg_in(c, i)->dtype;
            if (!tg_role_is_data(tg_input_role(c, &sig, i))) continue;
            if (dt == TIGRIS_DTYPE_BOOL || dt == TIGRIS_DTYPE_INT16) continue;
            if (dt == TIGRIS_DTYPE_FLOAT32) c->d = TIGRIS_DTYPE_FLOAT32;
            break;
        }
    }
    for (uint32_t i = 0; i < c->op->num_inputs; i++) {
        uint8_t role = tg_input_role(c, &sig, i);
        TG_REQUIRE(tg_role_accepts(c, role, tg_in(c, i)->dtype));
    }
    for (uint32_t i = 0; i < c->op->num_outputs; i++)
        TG_REQUIRE(tg_role_accepts(c, sig.out, tg_out(c, i)->dtype));

    if (c->plan_dtype == TIGRIS_DTYPE_INT8 && c->d == TIGRIS_DTYPE_FLOAT32) {
        for (uint32_t i = 0; i < c->op->num_inputs; i++)
            if (tg_in(c, i)->dtype == TIGRIS_DTYPE_FLOAT32) TG_REQUIRE(tg_float_origin_ok(c->plan, c->in[i]));
    }
    return TIGRIS_OK;
}
