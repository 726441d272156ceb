/*
 * families.c - docs/format.md F8: refuse at load a plan that needs a kernel
 * family (float32 reference, int8 reference) this build was configured
 * without, so the failure is a clear load error rather than a kernel error
 * mid-run.
 *
 * The decision is a pure function of the plan and the set of families built
 * (tigris__ld_families_needed), so the host tests can check it for every
 * build configuration, including the float-less lx106 one.
 */
#include "loader_internal.h"

static uint32_t family_of(uint8_t dtype) {
    if (dtype == TIGRIS_DTYPE_FLOAT32) return TIGRIS__FAM_F32;
    if (dtype == TIGRIS_DTYPE_INT8) return TIGRIS__FAM_S8;
    return 0;
}

/* Bit-identical scale and zero point of two tensors' quant records. */
static int same_encoding(const tigris_plan_t *p, const tigris_tensor_t *a, const tigris_tensor_t *b) {
    const tigris_quant_param_t *qa = tigris_tensor_quant(p, a), *qb = tigris_tensor_quant(p, b);
    if (!qa || !qb) return qa == qb;
    return memcmp(&qa->scale, &qb->scale, sizeof qa->scale) == 0 && qa->zero_point == qb->zero_point;
}

/* int8 kernels that are defined by float math (docs/kernels.md; the
 * S8_FLOAT class of ../ops.def): TFLite builds their tables or statistics in
 * float, so they are compiled only with the float family and a plan using
 * them needs both families. */
static int s8_needs_float(const tigris_plan_t *p, const tigris_op_t *op) {
    if (tigris__op_s8_needs_float(op->op_type)) return 1;
    /* The 10-bit integer path of ResizeLinear needs equal encodings. */
    if (op->op_type == TIGRIS_OP_RESIZE_LINEAR)
        return !same_encoding(p, &p->tensors[tigris__op_in(p, op, 0)], &p->tensors[tigris__op_out(p, op, 0)]);
    return 0;
}

uint32_t tigris__ld_families_needed(const tigris_plan_t *p) {
    uint32_t i, k, need = 0;
    uint32_t data_fam = family_of(tigris_plan_data_dtype(p));
    for (i = 0; i < p->header->num_ops; i++) {
        const tigris_op_t *op = &p->ops[i];
        uint32_t fam = 0;
        /* Ops that only move bytes (shared code, no arithmetic) and control
         * flow, which the executor runs itself (the NOFAM class). */
        if (tigris__op_needs_no_family(op->op_type)) continue;
        for (k = 0; k < op->num_inputs; k++) fam |= family_of(p->tensors[tigris__op_in(p, op, k)].dtype);
        for (k = 0; k < op->num_outputs; k++) fam |= family_of(p->tensors[tigris__op_out(p, op, k)].dtype);
        /* bool / int32 / int16-only ops run in the plan's own family. */
        if (!fam) fam = data_fam;
        if ((fam & TIGRIS__FAM_S8) && s8_needs_float(p, op)) fam |= TIGRIS__FAM_F32;
        need |= fam;
    }
    return need;
}

tigris_error_t tigris__ld_kernel_families(const tigris_plan_t *p) {
    uint32_t built = (TIGRIS_ENABLE_F32 ? TIGRIS__FAM_F32 : 0u) | (TIGRIS_ENABLE_S8 ? TIGRIS__FAM_S8 : 0u);
    return (tigris__ld_families_needed(p) & ~built) ? TIGRIS_ERR_KERNEL_DISABLED : TIGRIS_OK;
}
