/*
 * kernel_common.h - what every reference kernel (float32 and int8) needs:
 * checked access to an op's tensors and their buffers, element counts, the
 * geometry of a spatial op (whole tensor or the band the executor hands over
 * in mem->tile), and the prototypes the two dispatch tables route to.
 *
 * Kernels trust nothing in the plan: every index is range-checked here, and
 * every size a kernel derives is checked against the tensor record before a
 * buffer is touched. A failed check makes the kernel return -1, which the
 * executor reports as a kernel error.
 */
#ifndef TIGRIS_KERNEL_COMMON_H
#define TIGRIS_KERNEL_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tigris.h"
#include "tigris_mem.h"

#define TK_MAX_RANK 8

/* Signature of one kernel behind a dispatch table. */
typedef int (*tk_kernel_fn)(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                            tigris_mem_t *mem);

/* ---- Tensors ---- */

/* Fast-arena bytes an accelerated backend needs: the core's own requirement
 * plus `scratch` reserved at the top, whose start prepare() aligns down to
 * TIGRIS_TENSOR_ALIGN (hence the slack). UINT32_MAX when either part is
 * unknown or the sum does not fit. Shared by the arm and xtensa backends. */
static inline uint32_t tk_fast_arena_with_scratch(const tigris_plan_t *plan, uint32_t scratch) {
    if (scratch == UINT32_MAX) return UINT32_MAX;
    uint32_t core = tigris_fast_arena_required(plan);
    if (core == UINT32_MAX) return UINT32_MAX;
    uint64_t total = (uint64_t)core + scratch + (scratch ? TIGRIS_TENSOR_ALIGN - 1u : 0u);
    return total >= UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}

static inline const tigris_tensor_t *tk_tensor(const tigris_plan_t *plan, uint16_t idx) {
    if (!plan || !plan->header || !plan->tensors || idx >= plan->header->num_tensors) return NULL;
    return &plan->tensors[idx];
}

/* Tensor index of the op's i-th runtime input / output, or -1. */
static inline int32_t tk_in_idx(const tigris_plan_t *plan, const tigris_op_t *op, uint32_t i) {
    if (!plan->index_pool || i >= op->num_inputs) return -1;
    uint16_t t = tigris_op_inputs(plan, op)[i];
    return tk_tensor(plan, t) ? (int32_t)t : -1;
}

static inline int32_t tk_out_idx(const tigris_plan_t *plan, const tigris_op_t *op, uint32_t i) {
    if (!plan->index_pool || i >= op->num_outputs) return -1;
    uint16_t t = tigris_op_outputs(plan, op)[i];
    return tk_tensor(plan, t) ? (int32_t)t : -1;
}

static inline void *tk_buf(const tigris_mem_t *mem, int32_t idx) {
    if (idx < 0 || idx > 0xFFFF) return NULL;
    return tigris_mem_tensor_ptr(mem, (uint16_t)idx);
}

/* A view of a tensor: dims from the shape pool, with the element count
 * checked against the stored byte size. */
typedef struct {
    const tigris_tensor_t *t;
    int32_t rank;
    int32_t dim[TK_MAX_RANK];
    uint32_t numel;
    uint32_t esize;
} tk_view_t;

/* Fill *v for tensor idx; 0 on success, -1 when the record is inconsistent
 * (rank above TK_MAX_RANK, a non-positive dim, a count that overflows, or a
 * byte size smaller than the elements need). */
int tk_view(const tigris_plan_t *plan, int32_t idx, tk_view_t *v);

/* ---- Quantisation of a tensor (int8) ---- */

static inline int32_t tk_zero_point(const tigris_plan_t *plan, const tigris_tensor_t *t) {
    const tigris_quant_param_t *q = tigris_tensor_quant(plan, t);
    if (!q) return 0;
    int32_t zp = q->zero_point;
    return zp < -128 ? -128 : (zp > 127 ? 127 : zp);
}

/* Raw IEEE-754 bits of the tensor's scale (0 when it has no quant record):
 * int8 kernels derive their parameters from these bits with integer
 * arithmetic so they need no floating point at run time. */
static inline uint32_t tk_scale_bits(const tigris_plan_t *plan, const tigris_tensor_t *t) {
    const tigris_quant_param_t *q = tigris_tensor_quant(plan, t);
    uint32_t bits = 0;
    if (q) memcpy(&bits, (const uint8_t *)q + offsetof(tigris_quant_param_t, scale), 4);
    return bits;
}

/* Requantisation pair of output channel ch from the output tensor's record:
 * per-channel when it has more than one channel, else channel 0; (1, 0)
 * without a record. Returns -1 when a per-channel record is too short. */
static inline int tk_requant(const tigris_plan_t *plan, const tigris_tensor_t *out, int32_t ch, int32_t *m,
                             int32_t *s) {
    const tigris_quant_param_t *q = tigris_tensor_quant(plan, out);
    if (!q || !plan->quant_data) {
        *m = 1;
        *s = 0;
        return 0;
    }
    int32_t c = q->num_channels > 1 ? ch : 0;
    if (c < 0 || c >= (int32_t)(q->num_channels ? q->num_channels : 1)) return -1;
    *m = tigris_quant_multipliers(plan, q)[c];
    *s = tigris_quant_shifts(plan, q)[c];
    return 0;
}

/* ---- Constant operands ---- */

/* Bytes of weight entry idx, or NULL when absent or smaller than need. */
static inline const void *tk_weight(const tigris_plan_t *plan, uint16_t idx, uint32_t need) {
    if (idx == TIGRIS_NONE16 || !plan->weight_entries || !plan->weight_blob || !plan->header) return NULL;
    if (idx >= plan->header->num_weights) return NULL;
    const tigris_weight_entry_t *w = &plan->weight_entries[idx];
    if (w->size_bytes < need) return NULL;
    return tigris_weight_data(plan, w);
}

/* Unaligned little-endian loads: plan bytes carry no alignment promise. */
static inline int32_t tk_ld_i32(const void *p, uint32_t i) {
    int32_t v;
    memcpy(&v, (const uint8_t *)p + 4u * i, 4);
    return v;
}

/* ---- Spatial geometry (NHWC, rank 4) ---- */

typedef struct {
    int32_t n, ih, iw, ic, oh, ow, oc;
    int32_t kh, kw, sh, sw, dh, dw;
    int32_t pt, pl;            /* effective top/left padding */
    int32_t out_row0;          /* first output row written (roll offset) */
    int32_t in_row_shift;      /* subtracted from every input row index */
    int32_t in_rows, out_rows; /* rows of one batch in the buffers */
} tk_geom_t;


/* FullyConnected's shape, the same for every backend: a rank >= 2 output is
 * [nb, oc, ...], a rank 1 output one row of oc; the input holds nb rows of
 * ic; a row band (mem's tile, when mem is given) computes its first out_h
 * rows. 0 on success, -1 on a shape FullyConnected cannot take. */
int tk_fc_geom(const tk_view_t *iv, const tk_view_t *ov, const tigris_mem_t *mem, int32_t *nb,
               int32_t *ic, int32_t *oc);

/* Geometry of a windowed op between rank-4 tensors in_v and out_v. With no
 * active tile the plan's shapes and pads describe the whole tensors; under a
 * tile the band extents, effective pads and roll offsets come from mem->tile
 * (widths and left pad too when the tile is 2-D). */
int tk_geom(const tigris_op_t *op, const tigris_mem_t *mem, const tk_view_t *in_v,
            const tk_view_t *out_v, tk_geom_t *g);

/* Rows a resize computes: the whole height, or under a height band the
 * band's input/output rows and their global origins (resize maps output rows
 * through their global index). Width tiles, row modes and roll offsets are
 * refused. */
int tk_resize_band(const tigris_mem_t *mem, int32_t ih, int32_t oh, int32_t *band_in,
                   int32_t *band_out, int32_t *in0, int32_t *out0);

/* Valid taps [*lo, *hi) of a window starting at base with `taps` taps of
 * dilation d over extent e (out-of-range taps are padding). */
static inline void tk_taps(int32_t base, int32_t taps, int32_t d, int32_t e, int32_t *lo, int32_t *hi) {
    int32_t l = 0, h;
    if (base < 0) {
        l = (-base + d - 1) / d;
        if (l > taps) l = taps;
    }
    if (e - 1 - base < 0) {
        h = 0;
    } else {
        h = (e - 1 - base) / d + 1;
        if (h > taps) h = taps;
    }
    if (h < l) h = l;
    *lo = l;
    *hi = h;
}

/* ---- Operands of the spatial families, checked once for every backend ---- */

/* Conv2D / DepthwiseConv2D (and the 1-D and transposed forms built on them):
 * everything a kernel of any backend reads, checked against the plan before
 * a byte is touched. Weights are [oc][kh][kw][ic] (depthwise [kh][kw][oc]),
 * the bias oc little-endian words of the data dtype (int32 for int8). */
typedef struct {
    tk_view_t in, out;
    tk_geom_t g;
    int32_t mult;         /* depthwise channel multiplier; 1 otherwise */
    const void *w;
    const uint8_t *bias;  /* NULL when the op has none */
    const void *x;
    void *y;
} tk_conv_args_t;

/* From the op's first input and output in `dtype` (FLOAT32 or INT8); an int8
 * per-channel output record must cover every output channel. 0, or -1 on
 * anything the kernels cannot run. */
int tk_conv_args(const tigris_plan_t *plan, const tigris_op_t *op, const tigris_mem_t *mem, uint8_t dtype,
                 int depthwise, tk_conv_args_t *a);

/* The same from views the caller reshaped (the 1-D conv's rank-3 tensors
 * seen as NHWC with W = 1): tensors ii and oi hold the data. */
int tk_conv_args_views(const tigris_plan_t *plan, const tigris_op_t *op, const tigris_mem_t *mem, int32_t ii,
                       int32_t oi, const tk_view_t *iv, const tk_view_t *ov, int depthwise, tk_conv_args_t *a);

/* FullyConnected: nb rows of ic inputs to oc outputs (tk_fc_geom), weights
 * [oc][ic], bias as for convolutions. */
typedef struct {
    tk_view_t in, out;
    int32_t nb, ic, oc;
    const void *w;
    const uint8_t *bias;
    const void *x;
    void *y;
} tk_fc_args_t;

int tk_fc_args(const tigris_plan_t *plan, const tigris_op_t *op, const tigris_mem_t *mem, uint8_t dtype,
               tk_fc_args_t *a);

/* MaxPool2D / AveragePool2D: the window geometry (channels kept). */
typedef struct {
    tk_view_t in, out;
    tk_geom_t g;
    const void *x;
    void *y;
} tk_pool_args_t;

int tk_pool_args(const tigris_plan_t *plan, const tigris_op_t *op, const tigris_mem_t *mem, uint8_t dtype,
                 tk_pool_args_t *a);

/* ---- Pointwise ops under a band ---- */

/* Row layout of tensor v under the band in mem->tile: elements per band row,
 * independent blocks before the band axis, and the axis' full extent. */
int tk_band_rows(const tigris_mem_t *mem, const tk_view_t *v, uint64_t *row, uint64_t *outer,
                 uint64_t *rows_total);

/* Elements a pointwise op processes for tensor v, and the element offset of
 * the first one in its buffer (roll offset), given the band in mem->tile. */
int tk_band_span(const tigris_mem_t *mem, const tk_view_t *v, int is_output, uint32_t *count,
                 uint32_t *offset);

/* ---- Binary operands with broadcasting ---- */

#define TK_OPND_DENSE 0    /* same shape as the output */
#define TK_OPND_PERIODIC 1 /* leading axes 1, suffix equal: index i mod period */
#define TK_OPND_GENERAL 2  /* per-axis strides (0 on broadcast axes) */

typedef struct {
    const uint8_t *p;
    const tigris_quant_param_t *quant; /* int8 encoding, or NULL */
    int kind;
    uint32_t period;
    uint32_t stride[TK_MAX_RANK]; /* element strides per output axis */
} tk_operand_t;

typedef struct {
    tk_view_t out;
    uint8_t *y;
    tk_operand_t a[2];
    uint32_t count; /* output elements to compute (band aware) */
} tk_binary_t;

/* Shape of an operand aligned right to the output (rank orank) from dims
 * d of rank r; -1 unless every axis is 1 or the output's extent. */
int tk_operand_layout(const tk_view_t *out, const int32_t *d, int32_t r, tk_operand_t *o);

/* A periodic operand is indexed with the band-local element index, which has
 * the residue of the global one only when its period divides one band row
 * (rows start every band, in every batch). 0 when n operands are fine. */
int tk_operands_band_ok(const tigris_mem_t *mem, const tk_view_t *out, const tk_operand_t *o,
                        uint32_t n);

/* One operand of a broadcasting op, laid out against the output `out`:
 * the constant at op->weight_idx (dims from `dims`, the explicit int32 dims
 * of a CONSTANT_OPERAND attribute, or NULL to derive them from its size:
 * one element, the last axis or the whole output; es bytes an element), or
 * runtime input `index` in `dtype`, advanced to the band's first element
 * (count: the band's output elements). 0, or -1 on anything inconsistent. */
int tk_constant_operand(const tigris_plan_t *plan, const tigris_op_t *op, const uint8_t *dims, uint32_t es,
                        const tigris_mem_t *mem, const tk_view_t *out, tk_operand_t *o);
int tk_runtime_operand(const tigris_plan_t *plan, const tigris_op_t *op, const tigris_mem_t *mem, uint32_t index,
                       uint8_t dtype, const tk_view_t *out, uint32_t count, tk_operand_t *o);

/* Resolve the two operands of a binary op (runtime tensors, or one constant
 * from weight_idx as CONSTANT_OPERAND or the float short forms), their
 * broadcast layout, and the band of the output to compute. */
int tk_binary_setup(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                    tigris_mem_t *mem, uint8_t dtype, tk_binary_t *b);

/* Element index into operand o for output element i (band-local). */
static inline uint32_t tk_operand_at(const tk_view_t *out, const tk_operand_t *o, uint32_t i) {
    if (o->kind == TK_OPND_DENSE) return i;
    if (o->kind == TK_OPND_PERIODIC) return i % o->period;
    uint32_t idx = 0;
    for (int32_t k = out->rank - 1; k >= 0; k--) {
        uint32_t d = (uint32_t)out->dim[k];
        idx += (i % d) * o->stride[k];
        i /= d;
    }
    return idx;
}

/* ---- Kernel prototypes: the ref and s8 columns of the operator table
 *      (../ops.def), which both dispatch tables are generated from. A
 *      byte-level any_* kernel stands in both columns; the repeated
 *      declaration is harmless. ---- */

#define KERNEL(fn) int tk_##fn(const tigris_plan_t *, const tigris_op_t *, uint16_t, tigris_mem_t *);
#define NO_KERNEL
#if TIGRIS_ENABLE_F32
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) ref
#include "../ops.def"
#endif
#if TIGRIS_ENABLE_S8
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) s8
#include "../ops.def"
#endif
#undef KERNEL
#undef NO_KERNEL

/* The byte-level any_* kernels (data movement, reduce-all, logic) live in
 * s8/ when int8 is built and are compiled from ref/ in float-only builds, so
 * they exist once in every build. Helpers they share: */
int tk_reduce_layout(const tigris_plan_t *, const tigris_op_t *, uint16_t, tigris_mem_t *, uint8_t din, uint8_t dout,
                     int kind, uint32_t lay[3], const uint8_t **x, uint8_t **y, int32_t *axis);
/* Operands of comparisons, logic ops and select: `arity` operands (runtime
 * inputs or one constant via CONSTANT_OPERAND) of dtypes in_dtype[k],
 * broadcast to an output of out_dtype; fills out, *y (band start), *count
 * (band elements) and opnd[0..arity); elements are read with tk_operand_at. */
int tk_any_operands(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                    uint32_t arity, const uint8_t *in_dtype, uint8_t out_dtype, tk_view_t *out, uint8_t **y,
                    uint32_t *count, tk_operand_t *opnd);

#if TIGRIS_ENABLE_S8
/* TFLite integer Mean multiplier for s_in/s_out (scale bits) and count. */
int tk_s8_mean_multiplier(uint32_t sin_bits, uint32_t sout_bits, uint32_t count, int32_t *m, int32_t *s);
#endif

#endif /* TIGRIS_KERNEL_COMMON_H */
