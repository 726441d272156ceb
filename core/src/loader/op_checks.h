/*
 * op_checks.h - operator-semantics validation, the final load step
 * (docs/format.md P13.2 step 20).
 *
 * Called only on a plan whose structure has already been validated: every
 * tensor/op index, pool offset, attribute record, weight range and quant
 * range is known to be in bounds, every tensor dim is > 0 and every element
 * count fits 32 bits. What remains is whether each operator makes sense:
 * dtypes, shapes, constant sizes, attribute values. Every failure here is
 * TIGRIS_ERR_BAD_OPERATOR except a constant int32 tensor (BAD_TENSOR).
 *
 * The rest of this header is shared by the op_*.c files only.
 */
#ifndef TIGRIS_LOADER_OP_CHECKS_H
#define TIGRIS_LOADER_OP_CHECKS_H

#include "tigris.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TIGRIS_OK, or the error of the first broken rule in spec order. */
tigris_error_t tigris__loader_check_operators(const tigris_plan_t *plan);

/* ---- Internal to core/src/loader/op_*.c ---- */

/* Pool elements read in place: the plan buffer may start at any address,
 * so these element types carry alignment 1 and the compiler emits loads
 * that are safe on every target. */
typedef int32_t __attribute__((aligned(1))) tg_dim_t;
typedef uint16_t __attribute__((aligned(1))) tg_idx_t;

/* Everything a family check needs about the operator being checked. */
typedef struct {
    const tigris_plan_t *plan;
    const tigris_op_t *op;
    const tg_idx_t *in;  /* runtime input tensor indices [op->num_inputs] */
    const tg_idx_t *out; /* output tensor indices [op->num_outputs] */
    uint16_t index;      /* global operator index (attribute key) */
    uint8_t plan_dtype;  /* tigris_plan_data_dtype() of the plan */
    uint8_t d;           /* what role "D" means for this op: plan dtype, or float32 in a float section */
} tg_op_ctx_t;

/* Dtype roles of docs/format.md P5.6 (the in0..out columns of ops.def);
 * NONE marks an opcode without a signature. */
enum {
    TG_ROLE_NONE = 0,
    TG_ROLE_D,
    TG_ROLE_D_BOOL,
    TG_ROLE_D_I16,
    TG_ROLE_I32,
    TG_ROLE_BOOL,
    TG_ROLE_F32
};

typedef struct {
    uint8_t in[3]; /* positions beyond the third reuse in[2] */
    uint8_t out;
} tg_signature_t;

/* 1 and fills *sig for an executable opcode, 0 for anything the runtime refuses. */
int tg_signature(uint8_t op_type, tg_signature_t *sig);
/* Role of runtime input i after CONSTANT_OPERAND / weight-update shifting. */
uint8_t tg_input_role(const tg_op_ctx_t *c, const tg_signature_t *sig, uint32_t i);
int tg_role_accepts(const tg_op_ctx_t *c, uint8_t role, uint8_t dtype);

/* Signature, section dtype and float-section provenance (op_signature.c). */
tigris_error_t tg_check_int32_producers(const tigris_plan_t *plan);
tigris_error_t tg_check_signature(tg_op_ctx_t *c);

/* Family checks; each returns TIGRIS_OK or BAD_OPERATOR. */
tigris_error_t tg_check_conv(const tg_op_ctx_t *c);      /* conv family, FC, pools, MatMul */
tigris_error_t tg_check_binary(const tg_op_ctx_t *c);    /* arithmetic binary ops, comparisons, logic, select */
tigris_error_t tg_check_nary(const tg_op_ctx_t *c);      /* Cast, AddN, LogicalNot */
tigris_error_t tg_check_unary(const tg_op_ctx_t *c);     /* activations, math, normalisation */
tigris_error_t tg_check_shape(const tg_op_ctx_t *c);     /* reshape, transpose, pad, concat, split, resize */
tigris_error_t tg_check_reduce(const tg_op_ctx_t *c);    /* reductions, scans, arg max/min */
tigris_error_t tg_check_movement(const tg_op_ctx_t *c);  /* ops 66-72 */
tigris_error_t tg_check_recurrent(const tg_op_ctx_t *c); /* SVDF, LSTM */
tigris_error_t tg_check_detection(const tg_op_ctx_t *c);
tigris_error_t tg_check_control(const tg_op_ctx_t *c);   /* If, While */

/* ---- Small shared helpers (op_util.c) ---- */
static inline const tigris_tensor_t *tg_tensor(const tg_op_ctx_t *c, uint16_t idx) {
    return &c->plan->tensors[idx];
}
static inline const tigris_tensor_t *tg_in(const tg_op_ctx_t *c, uint32_t i) {
    return &c->plan->tensors[c->in[i]];
}
static inline const tigris_tensor_t *tg_out(const tg_op_ctx_t *c, uint32_t i) {
    return &c->plan->tensors[c->out[i]];
}
static inline const tg_dim_t *tg_shape(const tg_op_ctx_t *c, const tigris_tensor_t *t) {
    return c->plan->shape_pool + t->shape_off;
}
/* Element count; fits 32 bits by the tensor checks, kept 64-bit for products. */
uint64_t tg_elems(const tg_op_ctx_t *c, const tigris_tensor_t *t);
int tg_same_shape(const tg_op_ctx_t *c, const tigris_tensor_t *a, const tigris_tensor_t *b);
/* Same dtype, shape and int8 encoding. */
int tg_same_form(const tg_op_ctx_t *c, const tigris_tensor_t *a, const tigris_tensor_t *b);
/* Same scale and zero point (both present), or both without a quant record. */
int tg_same_encoding(const tg_op_ctx_t *c, const tigris_tensor_t *a, const tigris_tensor_t *b);
int tg_has_quant(const tg_op_ctx_t *c, const tigris_tensor_t *t);
const tigris_quant_param_t *tg_quant(const tg_op_ctx_t *c, const tigris_tensor_t *t);
/* Right-aligned broadcast of shape s (rank r) onto o (rank orank). */
int tg_broadcasts(const tg_dim_t *s, uint32_t r, const tg_dim_t *o, uint32_t orank);
/* Operand read as [1..1, suffix of o] or dense: what the kernels do above rank 4. */
int tg_periodic(const tg_dim_t *s, uint32_t r, const tg_dim_t *o, uint32_t orank);
/* docs/format.md P14.1: the forward window rule on one axis. */
int tg_window_ok(int64_t in, int64_t out, uint32_t k, uint32_t s, uint32_t pb, uint32_t pa, uint32_t d);

/* Product saturated to TG_SAT (2^32), a value no u32 size can equal; operands
 * may themselves be TG_SAT. */
#define TG_SAT ((uint64_t)1 << 32)
static inline uint64_t tg_mul(uint64_t a, uint64_t b) {
    if (a > 0xFFFFFFFFull || b > 0xFFFFFFFFull) return (a == 0 || b == 0) ? 0 : TG_SAT;
    uint64_t p = a * b;
    return p > 0xFFFFFFFFull ? TG_SAT : p;
}
static inline uint64_t tg_mul3(uint64_t a, uint64_t b, uint64_t c) {
    return tg_mul(tg_mul(a, b), c);
}

/* Weight entry size, or -1 when idx is NONE16. */
int64_t tg_weight_size(const tg_op_ctx_t *c, uint16_t idx);

/* Attribute payload of this op (NULL when absent). */
const uint8_t *tg_attr(const tg_op_ctx_t *c, uint8_t kind, uint32_t *len);

/* Little-endian readers for unaligned payloads. */
uint16_t tg_rd_u16(const uint8_t *p);
int32_t tg_rd_i32(const uint8_t *p);
uint32_t tg_rd_u32(const uint8_t *p);

/* IEEE-754 binary32 tests on bit patterns: no FPU is needed (lx106). */
int tg_f32_finite(uint32_t bits);
int tg_f32_positive(uint32_t bits); /* finite and > 0 */
int tg_f32_is_zero(uint32_t bits);
/* -1, 0, 1 as a <, ==, > b for finite a, b. */
int tg_f32_cmp(uint32_t a, uint32_t b);
/* -1, 0, 1 as a <, ==, > b * 2^k for positive finite a, b. */
int tg_f32_cmp_scaled(uint32_t a, uint32_t b, int32_t k);
/* floor(n * x) for positive finite x, saturated to 2^62; exact arithmetic. */
uint64_t tg_f32_floor_mul(uint64_t n, uint32_t x);
/* A quant record's scale as bits, so that no float arithmetic is needed. */
static inline uint32_t tg_scale_bits(const tigris_quant_param_t *q) {
    uint32_t u;
    memcpy(&u, &q->scale, sizeof u);
    return u;
}

static inline uint32_t tg_esize(uint8_t dtype) {
    return tigris_dtype_size(dtype);
}

#define TG_REQUIRE(cond)                                                                                    \
    do {                                                                                                    \
        if (!(cond)) return TIGRIS_ERR_BAD_OPERATOR;                                                        \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_LOADER_OP_CHECKS_H */
