/*
 * ops.h - operator classes read from the operator table (ops.def), shared
 * by the loader's stage and band rules and the executor's band paths, so
 * that both test the same sets (docs/format.md P6.2/P7.3,
 * docs/runtime-semantics.md R2.7). Not public API.
 */
#ifndef TIGRIS_OPS_H
#define TIGRIS_OPS_H

#include <stdint.h>

#include "tigris.h"

/* Class bits of the `classes` column of ops.def. */
enum {
    OC_UNARY = 1u << 0,   /* unary pointwise */
    OC_BINARY = 1u << 1,  /* binary (and n-ary) pointwise */
    OC_SPATIAL = 1u << 2, /* height spatial: Conv, Depthwise, Max/Avg/L2 pool */
    OC_STRIPE = 1u << 3,  /* may open a stripe besides the spatial ops */
    OC_HEIGHT = 1u << 4,  /* tiles by height besides spatial, unary, binary */
    OC_ROWS = 1u << 5,    /* tiles by rows besides unary, binary */
    OC_CHAIN = 1u << 6,   /* may join a chain besides spatial, unary, binary */
    OC_ACT = 1u << 7,     /* takes a fused activation */
    OC_NOFAM = 1u << 8,   /* needs no kernel family: moves bytes, or runs in the executor */
    OC_S8_FLOAT = 1u << 9 /* its int8 kernel is defined by float math (needs the float family) */
};

/* Classes of every opcode 0..TIGRIS_OP_MAX_KNOWN (0 for 0), from ops.def. */
extern const uint16_t tigris__op_classes[TIGRIS_OP_MAX_KNOWN + 1];

static inline uint32_t tigris__op_class(uint8_t t) {
    return t <= TIGRIS_OP_MAX_KNOWN ? tigris__op_classes[t] : 0u;
}
static inline int tigris__op_has(uint8_t t, uint32_t bits) {
    return (tigris__op_class(t) & bits) != 0;
}

static inline int tigris__op_is_unary(uint8_t t) { return tigris__op_has(t, OC_UNARY); }
static inline int tigris__op_is_binary(uint8_t t) { return tigris__op_has(t, OC_BINARY); }
static inline int tigris__op_is_spatial_h(uint8_t t) { return tigris__op_has(t, OC_SPATIAL); }
/* The ops a stripe's first spatial op may be (docs/runtime-semantics.md R2.7.1). */
static inline int tigris__op_is_stripe_spatial(uint8_t t) { return tigris__op_has(t, OC_SPATIAL | OC_STRIPE); }
/* The stripe-tileable set of docs/format.md P6.2. */
static inline int tigris__op_is_chainable(uint8_t t) {
    return tigris__op_has(t, OC_SPATIAL | OC_UNARY | OC_BINARY | OC_CHAIN);
}
static inline int tigris__op_is_height_tiling(uint8_t t) {
    return tigris__op_has(t, OC_SPATIAL | OC_UNARY | OC_BINARY | OC_HEIGHT);
}
static inline int tigris__op_is_row_tiling(uint8_t t) { return tigris__op_has(t, OC_UNARY | OC_BINARY | OC_ROWS); }
static inline int tigris__op_takes_activation(uint8_t t) { return tigris__op_has(t, OC_ACT); }
/* docs/format.md F8: ops that need no kernel family, and int8 kernels that
 * need the float family too. */
static inline int tigris__op_needs_no_family(uint8_t t) { return tigris__op_has(t, OC_NOFAM); }
static inline int tigris__op_s8_needs_float(uint8_t t) { return tigris__op_has(t, OC_S8_FLOAT); }

#endif /* TIGRIS_OPS_H */
