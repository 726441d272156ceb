/*
 * shape.c - a float-only build has no int8 kernels, yet Reshape, Concat and
 * Pad are byte-level and shared: compile the one implementation here then.
 */
#include "../kernel_common.h"

#if !TIGRIS_ENABLE_S8
#include "../s8/shape.c"
#endif
