/*
 * by_input.c - a global average pool walked along its input rows into an
 * accumulator (spec §2.7.3).
 */
#include "executor_internal.h"

int tx_stage_input_driven(const tigris_plan_t *plan, const tigris_stage_t *st) {
    const tigris_op_t *op;
    const int32_t *si, *so;
    uint16_t ti, to;
    if (st->ops_count != 1 || st->inputs_count != 1 || st->outputs_count != 1) return 0;
    op = &plan->ops[tigris_stage_ops(plan, st)[0]];
    if (op->op_type != TIGRIS_OP_GLOBAL_AVG || op->num_inputs != 1 || op->num_outputs != 1) return 0;
    ti = tigris_op_inputs(plan, op)[0];
    to = tigris_op_outputs(plan, op)[0];
    if (ti != tigris_stage_inputs(plan, st)[0] || to != tigris_stage_outputs(plan, st)[0]) return 0;
    if (plan->tensors[ti].ndim != 4 || plan->tensors[to].ndim != 4) return 0;
    si = tigris_tensor_shape(plan, &plan->tensors[ti]);
    so = tigris_tensor_shape(plan, &plan->tensors[to]);
    return si[1] > 1 && so[0] == si[0] && so[1] == 1 && so[2] == 1 && so[3] == si[3];
}

tigris_exec_error_t tx_run_by_input(tx_run_t *r, uint16_t s, uint32_t capacity) {
    (void)r;
    (void)s;
    (void)capacity;
    return TIGRIS_EXEC_ERR_TILE;
}
