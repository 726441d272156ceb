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

/* Concatenation's joined axis as the kernel reads it: rank 4 keeps the old
 * meaning of 0 (the channel axis). */
static inline uint32_t tigris__concat_axis(const tigris_op_t *op, uint32_t rank) {
    uint32_t axis = op->spatial.kernel_h;
    return rank == 4 && axis == 0 ? 3u : axis;
}

/* May op run on a band of rows of a rank-4 stage (a stripe or a chain
 * member)? Its class must allow it, and a Concatenation must join the last
 * axis: under a band the kernel copies each input's band rows whole, which
 * only a join along the innermost axis keeps in order. Loader and executor
 * ask the same question here. */
static inline int tigris__op_bands_by_height(const tigris_plan_t *plan, const tigris_op_t *op) {
    if (!tigris__op_is_height_tiling(op->op_type)) return 0;
    if (op->op_type == TIGRIS_OP_CONCAT) {
        if (op->num_outputs < 1) return 0;
        uint32_t rank = plan->tensors[tigris_op_outputs(plan, op)[0]].ndim;
        return rank >= 1 && tigris__concat_axis(op, rank) == rank - 1u;
    }
    return 1;
}

#endif /* TIGRIS_OPS_H */
