/*
 * add_params.h - the parameters of TFLite's int8 Add, derived once for
 * every int8 backend (the accelerated ones start from them, so they cannot
 * drift from one another): each operand (v - z) << 20 is scaled by its
 * (multiplier, shift), the two are summed, and the sum is scaled by the
 * output's pair, offset by the output zero point and clamped to the fused
 * activation's range.
 */
#ifndef TIGRIS_S8_ADD_PARAMS_H
#define TIGRIS_S8_ADD_PARAMS_H

#include "../kernel_common.h"

typedef struct {
    int32_t za, zb, zy;     /* zero points of the two operands and the output */
    int32_t ma, sha, mb, shb; /* operand rescales to twice the larger input scale */
    int32_t my, shy;        /* the sum's rescale to the output scale */
    int32_t lo, hi;         /* output range (the fused activation's, or int8's) */
} tk_s8_add_t;

/* From the BINARY_REQUANT attribute when the plan has one, else derived from
 * the scales as TFLite derives them. -1 when an operand or the output has no
 * usable scale or the attribute is malformed. */
int tk_s8_add_params(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, const tk_binary_t *b,
                     tk_s8_add_t *p);

#endif /* TIGRIS_S8_ADD_PARAMS_H */
