/*
 * movement.c - a float-only build has no int8 kernels, yet Transpose, Split
 * and the MOVEMENT operators are byte-level and shared: compile the one
 * implementation here then.
 */
#include "../kernel_common.h"

#if !TIGRIS_ENABLE_S8
#include "../s8/movement.c"
#endif
