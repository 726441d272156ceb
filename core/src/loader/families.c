/*
 * families.c - docs/format.md F8: refuse at load a plan that needs a kernel
 * family (float32 reference, int8) this build was configured without, so
 * the failure is a clear load error rather than a kernel error mid-run.
 */
#include "loader_internal.h"

/* Ops that only move bytes (shared code, no arithmetic) and control flow,
 * which the executor runs itself: they need no kernel family. */
static int needs_no_family(uint8_t t) {
    switch (t) {
    case TIGRIS_OP_RESHAPE: case TIGRIS_OP_FLATTEN: case TIGRIS_OP_SQUEEZE: case TIGRIS_OP_UNSQUEEZE:
    case TIGRIS_OP_TRANSPOSE: case TIGRIS_OP_PAD: case TIGRIS_OP_SPLIT: case TIGRIS_OP_IF: case TIGRIS_OP_WHILE:
        return 1;
    default: return t >= TIGRIS_OP_GATHER && t <= TIGRIS_OP_DYNAMIC_UPDATE_SLICE;
    }
}

#define FAM_F32 1u
#define FAM_S8 2u

static uint32_t family_of(uint8_t dtype) {
    if (dtype == TIGRIS_DTYPE_FLOAT32) return FAM_F32;
    if (dtype == TIGRIS_DTYPE_INT8) return FAM_S8;
    return 0;
}

tigris_error_t tigris__ld_kernel_families(const tigris_plan_t *p) {
    uint32_t i, k, need = 0;
    uint32_t data_fam = family_of(tigris_plan_data_dtype(p));
    for (i = 0; i < p->header->num_ops; i++) {
        const tigris_op_t *op = &p->ops[i];
        uint32_t fam = 0;
        if (needs_no_family(op->op_type)) continue;
        for (k = 0; k < op->num_inputs; k++) fam |= family_of(p->tensors[tigris__op_in(p, op, k)].dtype);
        for (k = 0; k < op->num_outputs; k++) fam |= family_of(p->tensors[tigris__op_out(p, op, k)].dtype);
        /* bool / int32 / int16-only ops run in the plan's own family. */
        need |= fam ? fam : data_fam;
    }
#if !TIGRIS_ENABLE_F32
    if (need & FAM_F32) return TIGRIS_ERR_KERNEL_DISABLED;
#endif
#if !TIGRIS_ENABLE_S8
    if (need & FAM_S8) return TIGRIS_ERR_KERNEL_DISABLED;
#endif
    (void)need;
    return TIGRIS_OK;
}
