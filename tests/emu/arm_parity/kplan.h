/*
 * kplan.h - a one-op int8 plan assembled directly as tigris_plan_t tables
 * (no loader, no file) in static storage, for the Cortex-M parity image:
 * the C twin of tests/unit/test_kernels_plan.h.
 */
#ifndef ARM_PARITY_KPLAN_H
#define ARM_PARITY_KPLAN_H

#include <stdint.h>
#include <string.h>

#include "tigris.h"
#include "tigris_mem.h"

#define KP_MAX_T 4
#define KP_ARENA (160u * 1024u)

typedef struct {
    tigris_file_header_t header;
    tigris_tensor_t tensors[KP_MAX_T];
    int32_t shapes[KP_MAX_T * 4];
    uint16_t pool[8];
    tigris_op_t op;
    tigris_weight_entry_t went[2];
    tigris_quant_param_t quants[KP_MAX_T];
    int32_t qdata[2 * 512];
    uint32_t nt, ns, nw, nq, nqd, np, used;
    void *ptrs[KP_MAX_T];
    tigris_plan_t plan;
    char strings[1];
} kplan_t;

extern uint8_t kp_arena[KP_ARENA];   /* tensor buffers */
extern uint8_t kp_blob[128u * 1024u]; /* weights */

static inline void kp_reset(kplan_t *k) {
    memset(k, 0, sizeof *k);
}

/* Bump storage from kp_arena, 16-byte aligned, with guard bytes. */
static inline void *kp_alloc(kplan_t *k, uint32_t bytes) {
    uint32_t at = (k->used + 15u) & ~15u;
    if (at + bytes + 16u > KP_ARENA) return NULL;
    k->used = at + bytes + 16u;
    return kp_arena + at;
}

static inline uint16_t kp_quant(kplan_t *k, float scale, int32_t zp, uint32_t nch, const int32_t *m,
                                const int32_t *s) {
    tigris_quant_param_t *q = &k->quants[k->nq];
    memset(q, 0, sizeof *q);
    q->scale = scale;
    q->zero_point = zp;
    q->num_channels = (uint16_t)nch;
    q->multiplier_off = (uint16_t)k->nqd;
    for (uint32_t i = 0; i < nch; i++) k->qdata[k->nqd++] = m[i];
    q->shift_off = (uint16_t)k->nqd;
    for (uint32_t i = 0; i < nch; i++) k->qdata[k->nqd++] = s[i];
    return (uint16_t)k->nq++;
}

static inline uint16_t kp_tensor(kplan_t *k, uint32_t rank, const int32_t *dims, uint16_t q) {
    tigris_tensor_t *t = &k->tensors[k->nt];
    memset(t, 0, sizeof *t);
    t->shape_off = (uint16_t)k->ns;
    t->ndim = (uint8_t)rank;
    t->dtype = TIGRIS_DTYPE_INT8;
    t->quant_param_idx = q;
    uint32_t n = 1;
    for (uint32_t i = 0; i < rank; i++) {
        k->shapes[k->ns++] = dims[i];
        n *= (uint32_t)dims[i];
    }
    t->size_bytes = n;
    k->ptrs[k->nt] = kp_alloc(k, n);
    return (uint16_t)k->nt++;
}

static inline uint16_t kp_weight(kplan_t *k, uint32_t at, uint32_t bytes) {
    tigris_weight_entry_t *w = &k->went[k->nw];
    memset(w, 0, sizeof *w);
    w->offset = at;
    w->size_bytes = bytes;
    return (uint16_t)k->nw++;
}

static inline void kp_finish(kplan_t *k, uint8_t type, uint32_t nin, const uint16_t *in, uint16_t out) {
    tigris_op_t *o = &k->op;
    o->op_type = type;
    o->num_inputs = (uint8_t)nin;
    o->num_outputs = 1;
    o->inputs_off = 0;
    for (uint32_t i = 0; i < nin; i++) k->pool[i] = in[i];
    o->outputs_off = (uint16_t)nin;
    k->pool[nin] = out;
    k->header.num_tensors = (uint16_t)k->nt;
    k->header.num_ops = 1;
    k->header.num_weights = (uint16_t)k->nw;
    k->header.num_quant_params = (uint16_t)k->nq;
    memset(&k->plan, 0, sizeof k->plan);
    k->plan.header = &k->header;
    k->plan.tensors = k->tensors;
    k->plan.ops = &k->op;
    k->plan.index_pool = k->pool;
    k->plan.shape_pool = k->shapes;
    k->plan.strings = k->strings;
    if (k->nw) {
        k->plan.weight_entries = k->went;
        k->plan.weight_blob = kp_blob;
    }
    if (k->nq) {
        k->plan.quant_params = k->quants;
        k->plan.quant_data = k->qdata;
        k->plan.num_quant_params = (uint16_t)k->nq;
    }
}

#endif /* ARM_PARITY_KPLAN_H */
