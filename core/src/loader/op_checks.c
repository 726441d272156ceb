/*
 * op_checks.c - the operator-semantics pass: int32 producers over the whole
 * plan first, then each operator in table order through fused activation,
 * dtype signature and its family's rules (docs/format.md P5.5, P5.6, P8.1,
 * P9, P10, P14). The first broken rule decides the error.
 */
#include "op_checks.h"

#include "../ops.h"
#include "tigris_loader.h"

static tigris_error_t tg_check_fused_act(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    TG_REQUIRE(op->_pad1 == 0);
    TG_REQUIRE(op->fused_act <= TIGRIS_ACT_RELU6);
    if (op->fused_act != TIGRIS_ACT_NONE) {
        TG_REQUIRE(tigris__op_takes_activation(op->op_type));
        /* The int8 SVDF kernel has no activation stage. */
        if (op->op_type == TIGRIS_OP_SVDF)
            TG_REQUIRE(op->num_inputs >= 1 && tg_in(c, 0)->dtype == TIGRIS_DTYPE_FLOAT32);
    }
    if (c->plan_dtype == TIGRIS_DTYPE_INT8) TG_REQUIRE(op->act_min <= op->act_max);
    return TIGRIS_OK;
}

/* An opcode without a signature never gets here (tg_signature refuses it
 * first); the entry keeps the table total. */
static tigris_error_t tg_check_refused(const tg_op_ctx_t *c) {
    (void)c;
    return TIGRIS_ERR_BAD_OPERATOR;
}

/* The family check of each opcode: the `check` column of ../ops.def. */
static tigris_error_t (*const tg_family_checks[TIGRIS_OP_MAX_KNOWN + 1])(const tg_op_ctx_t *) = {
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) [value] = tg_check_##check,
#include "../ops.def"
};

static tigris_error_t tg_check_family(const tg_op_ctx_t *c) {
    uint8_t t = c->op->op_type;
    if (t == 0 || t > TIGRIS_OP_MAX_KNOWN) return TIGRIS_ERR_BAD_OPERATOR;
    return tg_family_checks[t](c);
}

tigris_error_t tigris__loader_check_operators(const tigris_plan_t *plan) {
    if (!plan || !plan->header) return TIGRIS_ERR_NULL;
    tigris_error_t err = tg_check_int32_producers(plan);
    if (err != TIGRIS_OK) return err;

    tg_op_ctx_t c;
    memset(&c, 0, sizeof c);
    c.plan = plan;
    c.plan_dtype = tigris_plan_data_dtype(plan);
    for (uint32_t i = 0; i < plan->header->num_ops; i++) {
        tg_signature_t sig;
        c.op = &plan->ops[i];
        c.index = (uint16_t)i;
        c.in = tigris_op_inputs(plan, c.op);
        c.out = tigris_op_outputs(plan, c.op);
        c.d = c.plan_dtype;
        if (!tg_signature(c.op->op_type, &sig)) return TIGRIS_ERR_BAD_OPERATOR;
        /* Structural checks promise >= 1 of each; the families rely on it. */
        if (c.op->num_inputs == 0 || c.op->num_outputs == 0) return TIGRIS_ERR_BAD_OPERATOR;
        if ((err = tg_check_fused_act(&c)) != TIGRIS_OK) return err;
        if ((err = tg_check_signature(&c)) != TIGRIS_OK) return err;
        if ((err = tg_check_family(&c)) != TIGRIS_OK) return err;
    }
    return TIGRIS_OK;
}
