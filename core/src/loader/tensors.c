/*
 * tensors.c - steps 7, 8 and 10 of docs/format.md P13.2: the tensor limit, each tensor
 * record (P4.4), agreement with the model I/O lists, and the roles of
 * state tensors (P11).
 */
#include "loader_internal.h"

#define KNOWN_FLAGS                                                                                  \
    (TIGRIS_TENSOR_CONSTANT | TIGRIS_TENSOR_MODEL_INPUT | TIGRIS_TENSOR_MODEL_OUTPUT | TIGRIS_TENSOR_LINEAR | \
     TIGRIS_TENSOR_STATE)

/* Finite, > 0 and normal, read from the bits: the core has no float code
 * outside the float kernels (lx106 has no FPU). A subnormal scale (below
 * 2^-126) is no converter's, and the int8 kernels' fixed-point set-up
 * refuses it at run time, so the loader does (issue 16). */
int tigris__scale_ok(uint32_t bits);
int tigris__scale_ok(uint32_t bits) {
    uint32_t e = (bits >> 23) & 0xFFu;
    return (bits >> 31) == 0 && e != 0 && e != 0xFFu;
}

static uint32_t qp_scale_bits(const tigris_quant_param_t *q) {
    return tigris__rd32((const uint8_t *)&q->scale);
}

static int in_list(const tigris_plan_t *p, const uint16_t *list, uint32_t n, uint32_t t) {
    uint32_t i;
    for (i = 0; i < n; i++)
        if (tigris__rd16((const uint8_t *)(list + i)) == t) return 1;
    (void)p;
    return 0;
}

static tigris_error_t one_tensor(const tigris__ld_t *ld, uint32_t i) {
    const tigris_plan_t *p = ld->plan;
    const tigris_tensor_t *t = &p->tensors[i];
    uint32_t count = 1, d, esize;
    uint8_t f = t->flags;

    if (!tigris__ld_string_ok(ld, t->name_str)) return TIGRIS_ERR_BAD_SECTION;
    if (!tigris__fits(t->shape_off, t->ndim, ld->shape_count)) return TIGRIS_ERR_BAD_SECTION;
    if (t->quant_param_idx != TIGRIS_NONE16 && t->quant_param_idx >= ld->hdr->num_quant_params)
        return TIGRIS_ERR_BAD_SECTION;

    if (f & ~KNOWN_FLAGS) return TIGRIS_ERR_BAD_TENSOR;
    if ((f & TIGRIS_TENSOR_LINEAR) && ld->version < 7) return TIGRIS_ERR_BAD_TENSOR;
    if ((f & TIGRIS_TENSOR_STATE) && ld->version < 10) return TIGRIS_ERR_BAD_TENSOR;
    if ((f & TIGRIS_TENSOR_STATE) &&
        (f & (TIGRIS_TENSOR_CONSTANT | TIGRIS_TENSOR_MODEL_INPUT | TIGRIS_TENSOR_MODEL_OUTPUT)))
        return TIGRIS_ERR_BAD_TENSOR;
    if (t->quant_param_idx != TIGRIS_NONE16 &&
        (t->dtype == TIGRIS_DTYPE_FLOAT32 || t->dtype == TIGRIS_DTYPE_INT32 || t->dtype == TIGRIS_DTYPE_BOOL))
        return TIGRIS_ERR_BAD_TENSOR;

    if (t->iface_dtype != 0) {
        int ok = 0;
        if (ld->version < 6) return TIGRIS_ERR_BAD_TENSOR;
        if (!(f & (TIGRIS_TENSOR_MODEL_INPUT | TIGRIS_TENSOR_MODEL_OUTPUT))) return TIGRIS_ERR_BAD_TENSOR;
        if (t->iface_dtype == t->dtype) return TIGRIS_ERR_BAD_TENSOR;
        if (t->dtype == TIGRIS_DTYPE_INT8 && t->quant_param_idx != TIGRIS_NONE16 &&
            (t->iface_dtype == TIGRIS_DTYPE_FLOAT32 || t->iface_dtype == TIGRIS_DTYPE_UINT8))
            ok = 1;
        /* The 64-bit view doubles the byte count, which must still fit. */
        if (t->dtype == TIGRIS_DTYPE_INT32 && t->iface_dtype == TIGRIS_DTYPE_INT64 && t->size_bytes <= 0x7FFFFFFFu)
            ok = 1;
        if (!ok) return TIGRIS_ERR_BAD_TENSOR;
    }

    for (d = 0; d < t->ndim; d++) {
        int32_t dim = tigris__dim(p, t, d);
        if (dim <= 0) return TIGRIS_ERR_BAD_TENSOR;
        if ((uint64_t)count * (uint32_t)dim > 0xFFFFFFFFu) return TIGRIS_ERR_BAD_TENSOR;
        count *= (uint32_t)dim;
    }

    switch (t->dtype) {
    case TIGRIS_DTYPE_FLOAT32:
    case TIGRIS_DTYPE_INT8:
    case TIGRIS_DTYPE_INT32:
    case TIGRIS_DTYPE_BOOL: break;
    case TIGRIS_DTYPE_INT16:
        if (!(f & TIGRIS_TENSOR_STATE)) return TIGRIS_ERR_BAD_TENSOR;
        break;
    default: return TIGRIS_ERR_BAD_TENSOR;
    }
    esize = tigris_dtype_size(t->dtype);
    if ((uint64_t)count * esize != t->size_bytes) return TIGRIS_ERR_BAD_TENSOR;

    if (t->dtype == TIGRIS_DTYPE_INT8 && t->quant_param_idx != TIGRIS_NONE16) {
        const tigris_quant_param_t *q = &p->quant_params[t->quant_param_idx];
        if (!tigris__scale_ok(qp_scale_bits(q))) return TIGRIS_ERR_BAD_TENSOR;
        if (q->zero_point < -128 || q->zero_point > 127) return TIGRIS_ERR_BAD_TENSOR;
    }
    return TIGRIS_OK;
}

tigris_error_t tigris__ld_tensors(tigris__ld_t *ld) {
    const tigris_file_header_t *h = ld->hdr;
    const tigris_plan_t *p = ld->plan;
    uint32_t i;
    tigris_error_t e;

    ld->req->tensors = h->num_tensors;
    if (h->num_tensors > TIGRIS_MAX_TENSORS) return TIGRIS_ERR_PLAN_LIMITS;
    for (i = 0; i < h->num_tensors; i++)
        if ((e = one_tensor(ld, i)) != TIGRIS_OK) return e;
    /* The flags and the header lists must say the same thing. */
    for (i = 0; i < h->num_tensors; i++) {
        uint8_t f = p->tensors[i].flags;
        if (!!(f & TIGRIS_TENSOR_MODEL_INPUT) != in_list(p, p->model_inputs, h->num_model_inputs, i))
            return TIGRIS_ERR_BAD_TENSOR;
        if (!!(f & TIGRIS_TENSOR_MODEL_OUTPUT) != in_list(p, p->model_outputs, h->num_model_outputs, i))
            return TIGRIS_ERR_BAD_TENSOR;
    }
    return TIGRIS_OK;
}

static int same_shape(const tigris_plan_t *p, const tigris_tensor_t *a, const tigris_tensor_t *b) {
    uint32_t d;
    if (a->ndim != b->ndim) return 0;
    for (d = 0; d < a->ndim; d++)
        if (tigris__dim(p, a, d) != tigris__dim(p, b, d)) return 0;
    return 1;
}

/* Step 10: each STATE tensor is exactly one entry's input or output. */
tigris_error_t tigris__ld_state_tensors(tigris__ld_t *ld) {
    const tigris_plan_t *p = ld->plan;
    uint32_t nt = ld->hdr->num_tensors, i, j;

    for (j = 0; j < p->num_state; j++) {
        const tigris_state_entry_t *e = &p->state_entries[j];
        const tigris_tensor_t *in, *out;
        if (e->input >= nt) return TIGRIS_ERR_BAD_TENSOR;
        if (e->output != TIGRIS_NONE16 && e->output >= nt) return TIGRIS_ERR_BAD_TENSOR;
        in = &p->tensors[e->input];
        if (!(in->flags & TIGRIS_TENSOR_STATE)) return TIGRIS_ERR_BAD_TENSOR;
        if (in->size_bytes != e->bytes) return TIGRIS_ERR_BAD_TENSOR;
        if (in->dtype != TIGRIS_DTYPE_FLOAT32 && in->dtype != TIGRIS_DTYPE_INT8 && in->dtype != TIGRIS_DTYPE_INT16)
            return TIGRIS_ERR_BAD_TENSOR;
        if (e->output == TIGRIS_NONE16) continue;
        out = &p->tensors[e->output];
        if (!(out->flags & TIGRIS_TENSOR_STATE)) return TIGRIS_ERR_BAD_TENSOR;
        if (out->dtype != in->dtype || out->size_bytes != in->size_bytes || !same_shape(p, in, out) ||
            (out->flags & TIGRIS_TENSOR_LINEAR) != (in->flags & TIGRIS_TENSOR_LINEAR))
            return TIGRIS_ERR_BAD_TENSOR;
        if (in->dtype == TIGRIS_DTYPE_INT8) {
            const tigris_quant_param_t *qa = tigris_tensor_quant(p, in), *qb = tigris_tensor_quant(p, out);
            if (!qa || !qb) {
                if (qa != qb) return TIGRIS_ERR_BAD_TENSOR;
            } else if (tigris__rd32((const uint8_t *)&qa->scale) != tigris__rd32((const uint8_t *)&qb->scale) ||
                       qa->zero_point != qb->zero_point) {
                return TIGRIS_ERR_BAD_TENSOR;
            }
        }
    }
    /* Every flagged tensor is named exactly once; unflagged ones were
     * refused above, so counting the flagged ones is enough. */
    for (i = 0; i < nt; i++) {
        uint32_t uses = 0;
        if (!(p->tensors[i].flags & TIGRIS_TENSOR_STATE)) continue;
        for (j = 0; j < p->num_state; j++) {
            if (p->state_entries[j].input == i) uses++;
            if (p->state_entries[j].output == i) uses++;
        }
        if (uses != 1) return TIGRIS_ERR_BAD_TENSOR;
    }
    return TIGRIS_OK;
}
