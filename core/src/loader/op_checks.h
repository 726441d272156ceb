/*
 * op_checks.h - operator-semantics validation, the final load step
 * (tgrs-format.md §13.2 step 20).
 *
 * Called only on a plan whose structure has already been validated: every
 * tensor/op index, pool offset, attribute record, weight range and quant
 * range is known to be in bounds. What remains is whether each operator
 * makes sense: dtypes, shapes, constant sizes, attribute values.
 */
#ifndef TIGRIS_LOADER_OP_CHECKS_H
#define TIGRIS_LOADER_OP_CHECKS_H

#include "tigris.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TIGRIS_OK, or the error of the first broken rule in spec order. */
tigris_error_t tigris__loader_check_operators(const tigris_plan_t *plan);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_LOADER_OP_CHECKS_H */
