/*
 * iface.c - the model interface: converts between the dtype a model declares
 * at its boundary and the dtype the plan stores, and places model inputs.
 *
 * Conversions (docs/format.md P4.5):
 *   same dtype               byte copy
 *   uint8 around int8        q = u - 128, u = q + 128 (exact)
 *   float32 around int8      q = clamp(round_half_away(x / scale) + zp),
 *                            x = (q - zp) * scale; only with TIGRIS_ENABLE_F32
 *   int64 around int32       width change; an int64 input outside the int32
 *                            range saturates to INT32_MIN / INT32_MAX, because
 *                            the nearest representable value is the least
 *                            surprising answer for an index or count and
 *                            wrapping would silently flip its sign
 * Anything else is BAD_INTERFACE (and 0 bytes from tigris_iface_bytes).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mem_internal.h"
#include "tigris_iface.h"
#include "trace_internal.h"

typedef enum { CONV_NONE = 0, CONV_COPY, CONV_UINT8, CONV_FLOAT32, CONV_INT64 } conv_t;

static const tigris_tensor_t *tensor_of(const tigris_plan_t *plan, uint16_t t) {
    if (!plan || !plan->header || !plan->tensors || t >= plan->header->num_tensors) return NULL;
    return &plan->tensors[t];
}

/* The int8 conversions need a scale the arithmetic can divide by and a zero
 * point inside int8. The scale is judged by its bits so that builds without
 * float support can still tell (and refuse) a float interface. */
static const tigris_quant_param_t *usable_quant(const tigris_plan_t *plan, const tigris_tensor_t *tt) {
    const tigris_quant_param_t *qp;
    uint32_t bits;
    if (tt->quant_param_idx == TIGRIS_NONE16 || !plan->quant_params || tt->quant_param_idx >= plan->num_quant_params)
        return NULL;
    qp = &plan->quant_params[tt->quant_param_idx];
    memcpy(&bits, &qp->scale, sizeof bits);
    /* Positive finite: sign clear, not zero, exponent below all-ones. */
    if (bits == 0u || bits >= 0x7F800000u) return NULL;
    if (qp->zero_point < -128 || qp->zero_point > 127) return NULL;
    return qp;
}

static conv_t conversion(const tigris_plan_t *plan, const tigris_tensor_t *tt) {
    uint8_t declared = tigris_tensor_declared_dtype(tt);
    if (declared == tt->dtype) return tigris_dtype_size(tt->dtype) ? CONV_COPY : CONV_NONE;
    if (tt->dtype == TIGRIS_DTYPE_INT8 && declared == TIGRIS_DTYPE_UINT8)
        return usable_quant(plan, tt) ? CONV_UINT8 : CONV_NONE;
    if (tt->dtype == TIGRIS_DTYPE_INT8 && declared == TIGRIS_DTYPE_FLOAT32) {
#if TIGRIS_ENABLE_F32
        return usable_quant(plan, tt) ? CONV_FLOAT32 : CONV_NONE;
#else
        return CONV_NONE;
#endif
    }
    if (tt->dtype == TIGRIS_DTYPE_INT32 && declared == TIGRIS_DTYPE_INT64) return CONV_INT64;
    return CONV_NONE;
}

static int is_boundary(const tigris_tensor_t *tt) {
    return (tt->flags & (TIGRIS_TENSOR_MODEL_INPUT | TIGRIS_TENSOR_MODEL_OUTPUT)) != 0;
}

/* Caller-side byte count, or 0 when there is none. */
static uint32_t boundary_bytes(const tigris_plan_t *plan, const tigris_tensor_t *tt) {
    uint32_t stored = tigris_dtype_size(tt->dtype);
    uint32_t declared = tigris_dtype_size(tigris_tensor_declared_dtype(tt));
    uint64_t bytes;
    if (conversion(plan, tt) == CONV_NONE || stored == 0 || declared == 0) return 0;
    bytes = (uint64_t)(tt->size_bytes / stored) * declared;
    return bytes > UINT32_MAX ? 0u : (uint32_t)bytes;
}

uint32_t tigris_iface_bytes(const tigris_plan_t *plan, uint16_t tensor_idx) {
    const tigris_tensor_t *tt = tensor_of(plan, tensor_idx);
    if (!tt || !is_boundary(tt)) return 0;
    return boundary_bytes(plan, tt);
}

static int list_has(const uint16_t *list, uint32_t n, uint16_t t) {
    uint32_t i;
    for (i = 0; i < n; i++) {
        if (list[i] == t) return 1;
    }
    return 0;
}

int tigris__plan_reads_inputs_in_place(const tigris_plan_t *plan) {
    const tigris_file_header_t *h;
    const tigris_stage_t *st;
    const uint16_t *ops, *ins, *outs;
    uint32_t i;
    if (!plan || !plan->header || !plan->stages || !plan->index_pool) return 0;
    h = plan->header;
    if (h->version < 5u || h->num_stages != 1u) return 0;
    if (plan->num_subgraphs != 0 || plan->num_state != 0) return 0;
    st = &plan->stages[0];
    if (st->tile_plan_idx != TIGRIS_NONE16 || st->chain_len >= 2u) return 0;
    ops = tigris_stage_ops(plan, st);
    for (i = 0; i < st->ops_count; i++) {
        uint8_t ty;
        if (!plan->ops || ops[i] >= h->num_ops) return 0;
        ty = plan->ops[ops[i]].op_type;
        if (ty == TIGRIS_OP_IF || ty == TIGRIS_OP_WHILE) return 0;
    }
    if ((h->num_model_inputs && !plan->model_inputs) || (h->num_model_outputs && !plan->model_outputs)) return 0;
    ins = tigris_stage_inputs(plan, st);
    outs = tigris_stage_outputs(plan, st);
    for (i = 0; i < h->num_model_inputs; i++) {
        if (!list_has(ins, st->inputs_count, plan->model_inputs[i])) return 0;
    }
    for (i = 0; i < h->num_model_outputs; i++) {
        if (!list_has(outs, st->outputs_count, plan->model_outputs[i])) return 0;
    }
    return 1;
}

/* In-place placement. The first input placed leaves the decompression room
 * between the fill level and itself; every later one follows directly on the
 * fill level, which the previous input left at its own end. */
static tigris_error_t place_in_fast(const tigris_plan_t *plan, tigris_mem_t *mem, uint16_t t, uint32_t size) {
    uint32_t gap = tigris_weight_decompression_overhead(plan);
    uint32_t aligned, off, i;
    int first = 1;
    for (i = 0; i < plan->header->num_model_inputs; i++) {
        uint16_t other = plan->model_inputs[i];
        if (other != t && other < mem->num_tensors && tigris__mem_in_fast(mem, mem->tensor_ptrs[other])) first = 0;
    }
    if (!first) gap = 0;
    if (tigris__align_size(size, &aligned) != 0 || !mem->fast_base) return TIGRIS_ERR_MEM;
    if (mem->fast_used > mem->fast_size || gap > mem->fast_size - mem->fast_used) return TIGRIS_ERR_MEM;
    off = mem->fast_used + gap;
    if (aligned > mem->fast_size - off) return TIGRIS_ERR_MEM;
    mem->tensor_ptrs[t] = mem->fast_base + off;
    mem->fast_used = off + aligned;
    if (mem->fast_used > mem->fast_peak) mem->fast_peak = mem->fast_used;
    TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_ALLOC, TIGRIS_TRACE_POOL_FAST, t, 0xFFFFu, off, 0u, aligned, -1, -1, -1, -1);
    return TIGRIS_OK;
}

tigris_error_t tigris_input_alloc(const tigris_plan_t *plan, tigris_mem_t *mem, uint16_t tensor_idx) {
    const tigris_tensor_t *tt;
    if (!plan || !plan->header || !plan->tensors || !mem || !mem->tensor_ptrs) return TIGRIS_ERR_NULL;
    tt = tensor_of(plan, tensor_idx);
    if (!tt || !(tt->flags & TIGRIS_TENSOR_MODEL_INPUT)) return TIGRIS_ERR_BAD_TENSOR;
    /* Fewer slots than tensors means the run could not hold the plan either,
     * so it is refused here, where the first use of mem shows it. */
    if (mem->num_tensors < plan->header->num_tensors) return TIGRIS_ERR_TENSOR_SLOTS;
    if (mem->tensor_ptrs[tensor_idx]) return TIGRIS_OK;
    if (tigris__plan_reads_inputs_in_place(plan)) return place_in_fast(plan, mem, tensor_idx, tt->size_bytes);
    return tigris_mem_alloc_slow(mem, tensor_idx, tt->size_bytes) == TIGRIS_MEM_OK ? TIGRIS_OK : TIGRIS_ERR_MEM;
}

#if TIGRIS_ENABLE_F32
/* round_half_away(x / scale) + zp, clamped to int8, all in float32 as the
 * format defines it. The quotient is cut to +-300 before any conversion to
 * an integer (so huge values and infinities cannot overflow one); any
 * quotient that far out clamps the same way whatever the zero point. NaN
 * has no nearer int8 than the zero point, which is what it becomes. */
static int8_t quantize(float x, float scale, int32_t zp) {
    float v = x / scale;
    int32_t r;
    if (v != v) {
        r = 0;
    } else if (v >= 300.0f) {
        r = 300;
    } else if (v <= -300.0f) {
        r = -300;
    } else if (v >= 0.0f) {
        /* Truncation of a non-negative value is floor, of a negative one ceil. */
        r = (int32_t)(v + 0.5f);
    } else {
        r = (int32_t)(v - 0.5f);
    }
    r += zp;
    if (r < -128) r = -128;
    if (r > 127) r = 127;
    return (int8_t)r;
}
#endif

tigris_error_t tigris_input_write(const tigris_plan_t *plan, tigris_mem_t *mem, uint16_t tensor_idx,
                                  const void *src, uint32_t src_bytes) {
    const tigris_tensor_t *tt;
    const uint8_t *s = (const uint8_t *)src;
    uint8_t *d;
    uint32_t i, n;
    conv_t conv;
    tigris_error_t e;
    if (!plan || !plan->header || !plan->tensors || !mem) return TIGRIS_ERR_NULL;
    tt = tensor_of(plan, tensor_idx);
    if (!tt || !(tt->flags & TIGRIS_TENSOR_MODEL_INPUT)) return TIGRIS_ERR_BAD_TENSOR;
    conv = conversion(plan, tt);
    if (conv == CONV_NONE) return TIGRIS_ERR_BAD_INTERFACE;
    if (src_bytes != boundary_bytes(plan, tt)) return TIGRIS_ERR_BAD_SIZE;
    if (!src) return TIGRIS_ERR_NULL;
    /* Checked before placement so a refused write changes nothing. */
    if (!mem->tensor_ptrs) return TIGRIS_ERR_NULL;
    if (mem->num_tensors < plan->header->num_tensors) return TIGRIS_ERR_TENSOR_SLOTS;
    if (!mem->tensor_ptrs[tensor_idx]) {
        e = tigris_input_alloc(plan, mem, tensor_idx);
        if (e != TIGRIS_OK) return e;
    }
    d = (uint8_t *)mem->tensor_ptrs[tensor_idx];
    n = tt->size_bytes / tigris_dtype_size(tt->dtype);
    switch (conv) {
    case CONV_COPY:
        memmove(d, s, tt->size_bytes);
        break;
    case CONV_UINT8:
        for (i = 0; i < n; i++) d[i] = (uint8_t)(int8_t)((int32_t)s[i] - 128);
        break;
    case CONV_INT64:
        for (i = 0; i < n; i++) {
            int64_t v;
            int32_t w;
            memcpy(&v, s + (size_t)i * 8u, sizeof v);
            w = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
            memcpy(d + (size_t)i * 4u, &w, sizeof w);
        }
        break;
#if TIGRIS_ENABLE_F32
    case CONV_FLOAT32: {
        const tigris_quant_param_t *qp = usable_quant(plan, tt);
        for (i = 0; i < n; i++) {
            float x;
            memcpy(&x, s + (size_t)i * 4u, sizeof x);
            d[i] = (uint8_t)quantize(x, qp->scale, qp->zero_point);
        }
        break;
    }
#endif
    default:
        return TIGRIS_ERR_BAD_INTERFACE;
    }
    return TIGRIS_OK;
}

tigris_error_t tigris_output_read(const tigris_plan_t *plan, const tigris_mem_t *mem, uint16_t tensor_idx,
                                  void *dst, uint32_t dst_bytes) {
    const tigris_tensor_t *tt;
    const uint8_t *s;
    uint8_t *d = (uint8_t *)dst;
    uint32_t i, n;
    conv_t conv;
    if (!plan || !plan->header || !plan->tensors || !mem) return TIGRIS_ERR_NULL;
    tt = tensor_of(plan, tensor_idx);
    if (!tt || !(tt->flags & TIGRIS_TENSOR_MODEL_OUTPUT)) return TIGRIS_ERR_BAD_TENSOR;
    conv = conversion(plan, tt);
    if (conv == CONV_NONE) return TIGRIS_ERR_BAD_INTERFACE;
    if (dst_bytes != boundary_bytes(plan, tt)) return TIGRIS_ERR_BAD_SIZE;
    if (!dst || !mem->tensor_ptrs) return TIGRIS_ERR_NULL;
    if (tensor_idx >= mem->num_tensors) return TIGRIS_ERR_TENSOR_SLOTS;
    s = (const uint8_t *)mem->tensor_ptrs[tensor_idx];
    if (!s) return TIGRIS_ERR_NULL;
    n = tt->size_bytes / tigris_dtype_size(tt->dtype);
    switch (conv) {
    case CONV_COPY:
        memmove(d, s, tt->size_bytes);
        break;
    case CONV_UINT8:
        for (i = 0; i < n; i++) d[i] = (uint8_t)((int32_t)(int8_t)s[i] + 128);
        break;
    case CONV_INT64:
        for (i = 0; i < n; i++) {
            int32_t w;
            int64_t v;
            memcpy(&w, s + (size_t)i * 4u, sizeof w);
            v = w;
            memcpy(d + (size_t)i * 8u, &v, sizeof v);
        }
        break;
#if TIGRIS_ENABLE_F32
    case CONV_FLOAT32: {
        const tigris_quant_param_t *qp = usable_quant(plan, tt);
        float scale = qp->scale, zp = (float)qp->zero_point;
        for (i = 0; i < n; i++) {
            float x = ((float)(int8_t)s[i] - zp) * scale;
            memcpy(d + (size_t)i * 4u, &x, sizeof x);
        }
        break;
    }
#endif
    default:
        return TIGRIS_ERR_BAD_INTERFACE;
    }
    return TIGRIS_OK;
}

/* ---- All inputs / outputs at once ---- */

static uint32_t boundary_sum(const tigris_plan_t *plan, const uint16_t *list, uint8_t n) {
    uint64_t total = 0;
    uint8_t i;
    for (i = 0; i < n; i++) total += tigris_iface_bytes(plan, list[i]);
    return total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}

uint32_t tigris_inputs_bytes(const tigris_plan_t *plan) {
    if (!plan || !plan->header || !plan->model_inputs) return 0;
    return boundary_sum(plan, plan->model_inputs, plan->header->num_model_inputs);
}

uint32_t tigris_outputs_bytes(const tigris_plan_t *plan) {
    if (!plan || !plan->header || !plan->model_outputs) return 0;
    return boundary_sum(plan, plan->model_outputs, plan->header->num_model_outputs);
}

tigris_error_t tigris_inputs_write(const tigris_plan_t *plan, tigris_mem_t *mem, const void *src, uint32_t src_bytes) {
    const uint8_t *s = (const uint8_t *)src;
    uint32_t at = 0;
    uint8_t i;
    if (!plan || !plan->header || !mem || (!src && src_bytes)) return TIGRIS_ERR_NULL;
    if (src_bytes != tigris_inputs_bytes(plan)) return TIGRIS_ERR_BAD_SIZE;
    for (i = 0; i < plan->header->num_model_inputs; i++) {
        uint16_t t = plan->model_inputs[i];
        uint32_t n = tigris_iface_bytes(plan, t);
        tigris_error_t e = tigris_input_write(plan, mem, t, s + at, n);
        if (e != TIGRIS_OK) return e;
        at += n;
    }
    return TIGRIS_OK;
}

tigris_error_t tigris_outputs_read(const tigris_plan_t *plan, const tigris_mem_t *mem, void *dst, uint32_t dst_bytes) {
    uint8_t *d = (uint8_t *)dst;
    uint32_t at = 0;
    uint8_t i;
    if (!plan || !plan->header || !mem || (!dst && dst_bytes)) return TIGRIS_ERR_NULL;
    if (dst_bytes != tigris_outputs_bytes(plan)) return TIGRIS_ERR_BAD_SIZE;
    for (i = 0; i < plan->header->num_model_outputs; i++) {
        uint16_t t = plan->model_outputs[i];
        uint32_t n = tigris_iface_bytes(plan, t);
        tigris_error_t e = tigris_output_read(plan, mem, t, d + at, n);
        if (e != TIGRIS_OK) return e;
        at += n;
    }
    return TIGRIS_OK;
}
