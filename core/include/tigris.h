/*
 * tigris.h - the TiGrIS plan format as C types, and the helpers that read it.
 *
 * A loaded plan (tigris_plan_t) is a set of pointers into the caller's plan
 * buffer: nothing is copied or allocated. Every record below is declared
 * packed so that it maps the wire bytes exactly (docs/format.md gives the
 * layouts; the loader checks every offset before these pointers are exposed).
 * All multi-byte fields are little-endian; the loader refuses big-endian hosts.
 */
#ifndef TIGRIS_H
#define TIGRIS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tigris_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Runtime release ---- */
#define TIGRIS_RUNTIME_VERSION_MAJOR 0
#define TIGRIS_RUNTIME_VERSION_MINOR 11
#define TIGRIS_RUNTIME_VERSION_PATCH 0

/* ---- Schema revisions this runtime accepts ---- */
#define TIGRIS_SCHEMA_VERSION_MIN 4
#define TIGRIS_SCHEMA_VERSION 11

#define TIGRIS_MAGIC 0x53524754u /* "TGRS" read as a little-endian u32 */
#define TIGRIS_NONE16 0xFFFFu
#define TIGRIS_HEADER_SIZE 48u
#define TIGRIS_QUANT_PAGE_SIZE 65536u

/* Header flags */
#define TIGRIS_FLAG_XIP 0x00000001u
/* Schema 10 only: tile records use the 32-byte tigris_tile_plan_v10_t layout
 * instead of the 24-byte schema-9 layout (docs/format.md, decision F2). */
#define TIGRIS_FLAG_TILE_V10 0x00000002u

/* ---- Section type ids ---- */
typedef enum {
    TIGRIS_SEC_END = 0,
    TIGRIS_SEC_TENSORS = 1,
    TIGRIS_SEC_OPS = 2,
    TIGRIS_SEC_STAGES = 3,
    TIGRIS_SEC_TILE_PLANS = 4,
    TIGRIS_SEC_INDEX_POOL = 5,
    TIGRIS_SEC_SHAPE_POOL = 6,
    TIGRIS_SEC_STRINGS = 7,
    TIGRIS_SEC_WEIGHTS = 8,
    TIGRIS_SEC_QUANT_PARAMS = 9,
    TIGRIS_SEC_WEIGHT_BLOCKS = 10,
    TIGRIS_SEC_OP_ATTRIBUTES = 11,
    TIGRIS_SEC_STATE = 12,
    TIGRIS_SEC_SUBGRAPHS = 13,
    TIGRIS_SEC_MEMORY = 14, /* schema 11+: scheduled peak (docs/format.md, F1) */
    TIGRIS_SEC_MAX = 15     /* one past the highest id this build knows */
} tigris_section_type_t;

/* ---- Dtypes (ONNX TensorProto.DataType codes) ---- */
#define TIGRIS_DTYPE_FLOAT32 1
#define TIGRIS_DTYPE_UINT8 2
#define TIGRIS_DTYPE_INT8 3
#define TIGRIS_DTYPE_INT16 5
#define TIGRIS_DTYPE_INT32 6
#define TIGRIS_DTYPE_INT64 7
#define TIGRIS_DTYPE_BOOL 9

/* ---- Tensor flags ---- */
#define TIGRIS_TENSOR_CONSTANT 0x01u
#define TIGRIS_TENSOR_MODEL_INPUT 0x02u
#define TIGRIS_TENSOR_MODEL_OUTPUT 0x04u
#define TIGRIS_TENSOR_LINEAR 0x08u
#define TIGRIS_TENSOR_STATE 0x10u

/* ---- Fused activations ---- */
#define TIGRIS_ACT_NONE 0
#define TIGRIS_ACT_RELU 1
#define TIGRIS_ACT_RELU6 2

/* ---- Tile axes (tile record byte 1, schema 5+) ---- */
#define TIGRIS_TILE_AXIS_NONE 0
#define TIGRIS_TILE_AXIS_HEIGHT 1
#define TIGRIS_TILE_AXIS_WIDTH 2 /* reserved, always refused */
#define TIGRIS_TILE_AXIS_HW 3

/* Tile record flags (schema 9+) */
#define TIGRIS_TILE_BAND_ON_COLUMNS 0x0001u

/* Stage flags (_reserved1, meaningful on a chain head) */
#define TIGRIS_STAGE_LINE_BUFFERED 0x0001u

/* Weight compression */
#define TIGRIS_COMPRESSION_NONE 0
#define TIGRIS_COMPRESSION_LZ4 1

/* ---- Operators ---- */
typedef enum {
    TIGRIS_OP_CONV = 1,
    TIGRIS_OP_DEPTHWISE = 2,
    TIGRIS_OP_RELU = 3,
    TIGRIS_OP_RELU6 = 4,
    TIGRIS_OP_MAX_POOL = 5,
    TIGRIS_OP_AVG_POOL = 6,
    TIGRIS_OP_ADD = 7,
    TIGRIS_OP_MUL = 8,
    TIGRIS_OP_FULLY_CONN = 9,
    TIGRIS_OP_SOFTMAX = 10,
    TIGRIS_OP_CLIP = 11,
    TIGRIS_OP_SIGMOID = 12,
    TIGRIS_OP_CONCAT = 13,
    TIGRIS_OP_PAD = 14,
    TIGRIS_OP_GLOBAL_AVG = 15,
    TIGRIS_OP_FLATTEN = 16,
    TIGRIS_OP_RESHAPE = 17,
    TIGRIS_OP_SUB = 18,
    TIGRIS_OP_DIV = 19,
    TIGRIS_OP_TANH = 20,
    TIGRIS_OP_LEAKY_RELU = 21,
    TIGRIS_OP_BATCH_NORM = 22,
    TIGRIS_OP_INST_NORM = 23,
    TIGRIS_OP_CONV_TRANSPOSE = 24,
    TIGRIS_OP_MATMUL = 25,
    TIGRIS_OP_REDUCE_MEAN = 26,
    TIGRIS_OP_SQUEEZE = 27,
    TIGRIS_OP_UNSQUEEZE = 28,
    TIGRIS_OP_TRANSPOSE = 29,
    TIGRIS_OP_RESIZE = 30,
    TIGRIS_OP_GLOBAL_MAX = 31,
    TIGRIS_OP_CONV1D = 32,
    TIGRIS_OP_LAYER_NORM = 33,
    TIGRIS_OP_ERF = 34,
    TIGRIS_OP_SPLIT = 35,
    TIGRIS_OP_RESIZE_LINEAR = 36,
    TIGRIS_OP_HARDSWISH = 37,
    TIGRIS_OP_ABS = 38,
    TIGRIS_OP_RSQRT = 39,
    TIGRIS_OP_SQUARED_DIFFERENCE = 40,
    TIGRIS_OP_MAXIMUM = 41,
    TIGRIS_OP_MINIMUM = 42,
    TIGRIS_OP_NEG = 43,
    TIGRIS_OP_EXP = 44,
    TIGRIS_OP_LOG = 45,
    TIGRIS_OP_SQRT = 46,
    TIGRIS_OP_SQUARE = 47,
    TIGRIS_OP_FLOOR = 48,
    TIGRIS_OP_CEIL = 49,
    TIGRIS_OP_ROUND = 50,
    TIGRIS_OP_SIN = 51,
    TIGRIS_OP_COS = 52,
    TIGRIS_OP_FLOOR_DIV = 53,
    TIGRIS_OP_FLOOR_MOD = 54,
    TIGRIS_OP_PRELU = 55,
    TIGRIS_OP_ELU = 56,
    TIGRIS_OP_LOG_SOFTMAX = 57,
    TIGRIS_OP_L2_NORMALIZATION = 58,
    TIGRIS_OP_L2_POOL = 59,
    TIGRIS_OP_REDUCE_MAX = 60,
    TIGRIS_OP_REDUCE_MIN = 61,
    TIGRIS_OP_REDUCE_SUM = 62,
    TIGRIS_OP_CUMSUM = 63,
    TIGRIS_OP_ARG_MAX = 64,
    TIGRIS_OP_ARG_MIN = 65,
    TIGRIS_OP_GATHER = 66,
    TIGRIS_OP_GATHER_ND = 67,
    TIGRIS_OP_STRIDED_SLICE = 68,
    TIGRIS_OP_MIRROR_PAD = 69,
    TIGRIS_OP_REVERSE_V2 = 70,
    TIGRIS_OP_EMBEDDING_LOOKUP = 71,
    TIGRIS_OP_DYNAMIC_UPDATE_SLICE = 72,
    TIGRIS_OP_EQUAL = 73,
    TIGRIS_OP_LESS = 74,
    TIGRIS_OP_LESS_EQUAL = 75,
    TIGRIS_OP_GREATER = 76,
    TIGRIS_OP_GREATER_EQUAL = 77,
    TIGRIS_OP_LOGICAL_AND = 78,
    TIGRIS_OP_LOGICAL_OR = 79,
    TIGRIS_OP_LOGICAL_NOT = 80,
    TIGRIS_OP_SELECT_V2 = 81,
    TIGRIS_OP_CAST = 82,
    TIGRIS_OP_ADD_N = 83,
    TIGRIS_OP_REDUCE_ALL = 84,
    TIGRIS_OP_SVDF = 85,
    TIGRIS_OP_LSTM = 86,
    TIGRIS_OP_IF = 87,
    TIGRIS_OP_WHILE = 88,
    TIGRIS_OP_DETECTION_POSTPROCESS = 89,
    TIGRIS_OP_UNKNOWN = 255
} tigris_op_type_t;

#define TIGRIS_OP_MAX_KNOWN 89

/* ---- Operator attribute kinds (section 11) ---- */
typedef enum {
    TIGRIS_ATTR_TRANSPOSE_PERM = 1,
    TIGRIS_ATTR_EPSILON = 2,
    TIGRIS_ATTR_ALPHA = 3,
    TIGRIS_ATTR_CLIP_BOUNDS = 4,
    TIGRIS_ATTR_PADS = 5,
    TIGRIS_ATTR_AXES = 6,
    TIGRIS_ATTR_BINARY_REQUANT = 7,
    TIGRIS_ATTR_POOL_ROUNDING = 8,
    TIGRIS_ATTR_CONSTANT_OPERAND = 9,
    TIGRIS_ATTR_RESIZE_SCALES = 10,
    TIGRIS_ATTR_CUMSUM_OPTIONS = 11,
    TIGRIS_ATTR_MOVEMENT = 12,
    TIGRIS_ATTR_COMPARISON_REQUANT = 13,
    TIGRIS_ATTR_CONSTANTS = 14,
    TIGRIS_ATTR_SVDF = 15,
    TIGRIS_ATTR_LSTM = 16,
    TIGRIS_ATTR_SUBGRAPHS = 17,
    TIGRIS_ATTR_DETECTION = 18
} tigris_attr_type_t;

#define TIGRIS_ATTR_MAX_KNOWN 18

/* ---- Band kinds (schema 11 tile facts; docs/format.md, F4) ---- */
typedef enum {
    TIGRIS_BAND_KIND_NONE = 0,
    TIGRIS_BAND_KIND_STRIPE = 1,
    TIGRIS_BAND_KIND_HW = 2,
    TIGRIS_BAND_KIND_BY_INPUT = 3,
    TIGRIS_BAND_KIND_TRANSPOSE = 4,
    TIGRIS_BAND_KIND_ROWS = 5,
    TIGRIS_BAND_KIND_RESHAPE = 6,
    TIGRIS_BAND_KIND_LEADING = 7
} tigris_band_kind_t;

#define TIGRIS_TILE_BAND_KIND(band) ((uint8_t)((band) & 0x0Fu))
#define TIGRIS_TILE_BAND_MODE(band) ((uint8_t)(((band) >> 4) & 0x0Fu))
#define TIGRIS_TILE_BAND(kind, mode) ((uint8_t)(((unsigned)(kind) & 0x0Fu) | (((unsigned)(mode) & 0x0Fu) << 4)))

/* ---- Wire records (packed: they map the plan bytes exactly) ---- */
#if defined(_MSC_VER)
#define TIGRIS_PACKED
#pragma pack(push, 1)
#else
#define TIGRIS_PACKED __attribute__((packed))
#endif

typedef struct TIGRIS_PACKED {
    uint8_t magic[4];
    uint32_t version;
    uint32_t file_size;
    uint32_t section_dir_off;
    uint16_t num_tensors;
    uint16_t num_ops;
    uint16_t num_stages;
    uint16_t num_tile_plans;
    uint32_t budget;
    uint32_t peak;
    uint32_t model_name_str;
    uint16_t model_io_off;
    uint8_t num_model_inputs;
    uint8_t num_model_outputs;
    uint16_t num_weights;
    uint16_t num_quant_params;
    uint32_t flags;
} tigris_file_header_t;

typedef struct TIGRIS_PACKED {
    uint32_t type;
    uint32_t offset;
} tigris_section_entry_t;

typedef struct TIGRIS_PACKED {
    uint32_t name_str;
    uint32_t size_bytes;
    uint16_t shape_off;
    uint8_t ndim;
    uint8_t dtype;
    uint8_t flags;
    uint16_t quant_param_idx;
    uint8_t iface_dtype; /* schema 6+: declared boundary dtype, 0 = same as dtype */
} tigris_tensor_t;

typedef struct TIGRIS_PACKED {
    uint8_t kernel_h;
    uint8_t kernel_w;
    uint8_t stride_h;
    uint8_t stride_w;
    uint16_t pad_top;
    uint16_t pad_bottom;
    uint16_t pad_left;
    uint16_t pad_right;
    uint16_t dilation_h;
    uint16_t dilation_w;
    uint16_t group;
} tigris_spatial_t;

typedef struct TIGRIS_PACKED {
    uint32_t name_str;
    uint8_t op_type;
    uint8_t num_inputs;
    uint8_t num_outputs;
    uint8_t stage;
    uint16_t inputs_off;
    uint16_t outputs_off;
    tigris_spatial_t spatial;
    uint16_t weight_idx;
    uint16_t bias_idx;
    uint8_t fused_act;
    int8_t act_min;
    int8_t act_max;
    uint8_t _pad1;
} tigris_op_t;

typedef struct TIGRIS_PACKED {
    uint32_t peak_bytes;
    uint16_t ops_off;
    uint16_t ops_count;
    uint16_t inputs_off;
    uint16_t inputs_count;
    uint16_t outputs_off;
    uint16_t outputs_count;
    uint16_t tile_plan_idx;
    uint16_t _pad0;
    uint16_t chain_id;
    uint16_t chain_len;
    uint16_t chain_tile_h;
    uint16_t _reserved1; /* stage flags: TIGRIS_STAGE_LINE_BUFFERED */
} tigris_stage_t;

/* Schema 4-9 tile record (24 bytes); also schema 10 without TIGRIS_FLAG_TILE_V10. */
typedef struct TIGRIS_PACKED {
    uint8_t tileable;
    uint8_t axis;
    uint16_t tile_height;
    uint16_t num_tiles;
    uint16_t halo;
    uint16_t receptive_field;
    uint16_t original_height;
    uint32_t tiled_peak_bytes;
    uint32_t overhead_bytes;
    uint16_t tile_width;
    uint16_t flags;
} tigris_tile_plan_t;

/* Schema 10 scheduling choices (32 bytes; docs/format.md, F2). Also the form
 * tigris_stage_tiles() returns for every record layout. */
typedef struct TIGRIS_PACKED {
    uint8_t tileable;
    uint8_t axis;
    uint16_t flags;
    uint32_t tile_height;
    uint32_t num_tiles;
    uint32_t original_height;
    uint16_t halo;
    uint16_t receptive_field;
    uint16_t tile_width;
    uint16_t _reserved;
    uint32_t tiled_peak_bytes;
    uint32_t overhead_bytes;
} tigris_tile_plan_v10_t;

/* What a stage's tiling is, as tigris_stage_tile_facts() derives it (16 bytes). */
typedef struct TIGRIS_PACKED {
    uint32_t tile_extent;
    uint32_t num_tiles;
    uint32_t original_extent;
    uint16_t halo;
    uint8_t band_axis;
    uint8_t band; /* kind (low nibble) | leading-band mode (high nibble) */
} tigris_tile_facts_t;

/* Schema 11 tile record (48 bytes): choices, then the facts they imply. */
typedef struct TIGRIS_PACKED {
    tigris_tile_plan_v10_t choices;
    tigris_tile_facts_t facts;
} tigris_tile_plan_v11_t;

typedef struct TIGRIS_PACKED {
    uint32_t name_str;
    uint32_t offset;
    uint32_t size_bytes;
} tigris_weight_entry_t;

typedef struct TIGRIS_PACKED {
    uint16_t stage_idx;
    uint16_t first_weight_idx;
    uint16_t num_weights;
    uint16_t _pad0;
    uint32_t blob_offset;
    uint32_t compressed_size;
    uint32_t uncompressed_size;
} tigris_weight_block_t;

typedef struct TIGRIS_PACKED {
    float scale;
    int32_t zero_point;
    uint16_t num_channels;
    uint16_t multiplier_off;
    uint16_t shift_off;
    uint16_t page;
} tigris_quant_param_t;

typedef struct TIGRIS_PACKED {
    uint16_t op_index;
    uint8_t type;
    uint8_t data_len;
    uint32_t data_offset;
} tigris_op_attribute_t;

typedef struct TIGRIS_PACKED {
    uint16_t input;
    uint16_t output;
    uint32_t offset;
    uint32_t bytes;
    uint32_t initial;
} tigris_state_entry_t;

typedef struct TIGRIS_PACKED {
    uint16_t first_stage;
    uint16_t num_stages;
    uint16_t inputs_off;
    uint16_t inputs_count;
    uint16_t outputs_off;
    uint16_t outputs_count;
} tigris_subgraph_t;

/* Schema 11 memory section body (docs/format.md, F1). */
typedef struct TIGRIS_PACKED {
    uint32_t scheduled_peak;
    uint32_t reserved; /* written 0 */
} tigris_memory_section_t;

#if defined(_MSC_VER)
#pragma pack(pop)
#endif

/* Record sizes are part of the wire format: a change here is a format break. */
#define TIGRIS_STATIC_ASSERT(c, m) typedef char tigris_static_assert_##m[(c) ? 1 : -1]
TIGRIS_STATIC_ASSERT(sizeof(tigris_file_header_t) == 48, header_48);
TIGRIS_STATIC_ASSERT(sizeof(tigris_tensor_t) == 16, tensor_16);
TIGRIS_STATIC_ASSERT(sizeof(tigris_spatial_t) == 18, spatial_18);
TIGRIS_STATIC_ASSERT(sizeof(tigris_op_t) == 38, op_38);
TIGRIS_STATIC_ASSERT(sizeof(tigris_stage_t) == 28, stage_28);
TIGRIS_STATIC_ASSERT(sizeof(tigris_tile_plan_t) == 24, tile_24);
TIGRIS_STATIC_ASSERT(sizeof(tigris_tile_plan_v10_t) == 32, tile_v10_32);
TIGRIS_STATIC_ASSERT(sizeof(tigris_tile_facts_t) == 16, facts_16);
TIGRIS_STATIC_ASSERT(sizeof(tigris_tile_plan_v11_t) == 48, tile_v11_48);
TIGRIS_STATIC_ASSERT(sizeof(tigris_weight_entry_t) == 12, weight_12);
TIGRIS_STATIC_ASSERT(sizeof(tigris_weight_block_t) == 20, block_20);
TIGRIS_STATIC_ASSERT(sizeof(tigris_quant_param_t) == 16, quant_16);
TIGRIS_STATIC_ASSERT(sizeof(tigris_op_attribute_t) == 8, attr_8);
TIGRIS_STATIC_ASSERT(sizeof(tigris_state_entry_t) == 16, state_16);
TIGRIS_STATIC_ASSERT(sizeof(tigris_subgraph_t) == 12, subgraph_12);

/* ---- Loaded plan: zero-copy view of the buffer ---- */
typedef struct {
    const tigris_file_header_t *header;
    const tigris_tensor_t *tensors;       /* [num_tensors] */
    const tigris_op_t *ops;               /* [num_ops] */
    const tigris_stage_t *stages;         /* [num_stages] */
    const tigris_tile_plan_t *tile_plans; /* [num_tile_plans], 24-byte layout, or NULL */
    const uint16_t *index_pool;
    const int32_t *shape_pool;
    const char *strings;
    const tigris_weight_entry_t *weight_entries; /* [num_weights] or NULL */
    const uint8_t *weight_blob;                  /* contiguous weight data */

    /* Compressed weight blocks (optional) */
    const tigris_weight_block_t *weight_blocks;
    const uint8_t *weight_blocks_data;
    uint16_t num_weight_blocks;
    uint16_t weight_compression;

    /* Optional variable-length per-operator attributes. */
    const tigris_op_attribute_t *op_attributes;
    const uint8_t *op_attribute_data;
    uint16_t num_op_attributes;

    /* Quantization (optional) */
    const tigris_quant_param_t *quant_params;
    const int32_t *quant_data;
    uint16_t num_quant_params;

    /* Variables kept across invocations (optional, schema v10+) */
    const tigris_state_entry_t *state_entries; /* [num_state] or NULL */
    const uint8_t *state_section;
    uint16_t num_state;
    uint32_t state_bytes; /* size of the caller's state buffer */
    const tigris_subgraph_t *subgraphs; /* [num_subgraphs] or NULL */
    uint16_t num_subgraphs;
    uint16_t subgraph_depth; /* deepest control-flow nesting */

    const tigris_tile_plan_v10_t *tile_plans_v10; /* schema 10 only, otherwise NULL */

    /* Convenience: model I/O */
    const uint16_t *model_inputs;  /* [num_model_inputs] */
    const uint16_t *model_outputs; /* [num_model_outputs] */

    uint32_t scheduled_peak;                     /* schema 11+, 0 before */
    const tigris_tile_plan_v11_t *tile_plans_v11; /* schema 11+, otherwise NULL */
} tigris_plan_t;

/* ---- Error codes (loader and model interface) ---- */
typedef enum {
    TIGRIS_OK = 0,
    TIGRIS_ERR_NULL = -1,
    TIGRIS_ERR_TOO_SMALL = -2,
    TIGRIS_ERR_BAD_MAGIC = -3,
    TIGRIS_ERR_BAD_VERSION = -4,
    TIGRIS_ERR_BAD_SIZE = -5,
    TIGRIS_ERR_BAD_SECTION = -6,
    TIGRIS_ERR_MISSING_SEC = -7,
    TIGRIS_ERR_ENDIAN = -8,
    TIGRIS_ERR_PLAN_LIMITS = -9,
    TIGRIS_ERR_BAD_TENSOR = -10,
    TIGRIS_ERR_BAD_OPERATOR = -11,
    TIGRIS_ERR_BAD_INTERFACE = -12,
    TIGRIS_ERR_KERNEL_DISABLED = -13,
    TIGRIS_ERR_MEM = -14,
    TIGRIS_ERR_TENSOR_SLOTS = -15,
    TIGRIS_ERR_TILE_FACTS = -16,
    TIGRIS_ERR_CHAIN_BAND = -17,
    TIGRIS_ERR_TILE_BAND = -18
} tigris_error_t;

const char *tigris_error_str(tigris_error_t err);

/* ---- Inline helpers: pointer access into a loaded plan ----
 * Indices are trusted here: the loader has checked every one of them. */

static inline const char *tigris_str(const tigris_plan_t *plan, uint32_t off) {
    return plan->strings + off;
}

static inline const char *tigris_model_name(const tigris_plan_t *plan) {
    return tigris_str(plan, plan->header->model_name_str);
}

static inline const char *tigris_tensor_name(const tigris_plan_t *plan, const tigris_tensor_t *t) {
    return tigris_str(plan, t->name_str);
}

static inline const int32_t *tigris_tensor_shape(const tigris_plan_t *plan, const tigris_tensor_t *t) {
    return plan->shape_pool + t->shape_off;
}

static inline const char *tigris_op_name(const tigris_plan_t *plan, const tigris_op_t *op) {
    return tigris_str(plan, op->name_str);
}

static inline const uint16_t *tigris_op_inputs(const tigris_plan_t *plan, const tigris_op_t *op) {
    return plan->index_pool + op->inputs_off;
}

static inline const uint16_t *tigris_op_outputs(const tigris_plan_t *plan, const tigris_op_t *op) {
    return plan->index_pool + op->outputs_off;
}

static inline const uint16_t *tigris_stage_ops(const tigris_plan_t *plan, const tigris_stage_t *stage) {
    return plan->index_pool + stage->ops_off;
}

static inline const uint16_t *tigris_stage_inputs(const tigris_plan_t *plan, const tigris_stage_t *stage) {
    return plan->index_pool + stage->inputs_off;
}

static inline const uint16_t *tigris_stage_outputs(const tigris_plan_t *plan, const tigris_stage_t *stage) {
    return plan->index_pool + stage->outputs_off;
}

/* A weight's bytes. For a plan with compressed weight blocks the executor
 * hands kernels a copy of the plan whose weight_blob points at the stage's
 * decoded block, so the same helper serves both cases. */
static inline const void *tigris_weight_data(const tigris_plan_t *plan, const tigris_weight_entry_t *w) {
    return plan->weight_blob ? (const void *)(plan->weight_blob + w->offset) : NULL;
}

static inline const char *tigris_weight_name(const tigris_plan_t *plan, const tigris_weight_entry_t *w) {
    return tigris_str(plan, w->name_str);
}

static inline const void *tigris_op_weight(const tigris_plan_t *plan, const tigris_op_t *op) {
    if (op->weight_idx == TIGRIS_NONE16 || !plan->weight_entries) return NULL;
    return tigris_weight_data(plan, &plan->weight_entries[op->weight_idx]);
}

static inline const void *tigris_op_bias(const tigris_plan_t *plan, const tigris_op_t *op) {
    if (op->bias_idx == TIGRIS_NONE16 || !plan->weight_entries) return NULL;
    return tigris_weight_data(plan, &plan->weight_entries[op->bias_idx]);
}

static inline const tigris_quant_param_t *tigris_tensor_quant(const tigris_plan_t *plan, const tigris_tensor_t *t) {
    if (t->quant_param_idx == TIGRIS_NONE16 || !plan->quant_params) return NULL;
    return &plan->quant_params[t->quant_param_idx];
}

static inline uint32_t tigris_quant_page_start(const tigris_quant_param_t *qp) {
    return (uint32_t)qp->page * TIGRIS_QUANT_PAGE_SIZE;
}

static inline const int32_t *tigris_quant_multipliers(const tigris_plan_t *plan, const tigris_quant_param_t *qp) {
    return plan->quant_data + tigris_quant_page_start(qp) + qp->multiplier_off;
}

static inline const int32_t *tigris_quant_shifts(const tigris_plan_t *plan, const tigris_quant_param_t *qp) {
    return plan->quant_data + tigris_quant_page_start(qp) + qp->shift_off;
}

static inline uint8_t tigris_tensor_declared_dtype(const tigris_tensor_t *t) {
    return t->iface_dtype ? t->iface_dtype : t->dtype;
}

/* Attribute records are sorted by (op_index, type): binary search. */
static inline const uint8_t *tigris_op_attribute_data(const tigris_plan_t *plan, uint16_t op_index,
                                                      uint8_t type, uint8_t *out_len) {
    uint32_t lo = 0, hi = plan->op_attributes ? plan->num_op_attributes : 0;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const tigris_op_attribute_t *a = &plan->op_attributes[mid];
        uint32_t key = ((uint32_t)a->op_index << 8) | a->type;
        uint32_t want = ((uint32_t)op_index << 8) | type;
        if (key == want) {
            if (out_len) *out_len = a->data_len;
            return plan->op_attribute_data + a->data_offset;
        }
        if (key < want) lo = mid + 1; else hi = mid;
    }
    if (out_len) *out_len = 0;
    return NULL;
}

static inline const tigris_tile_plan_t *tigris_stage_tile_plan(const tigris_plan_t *plan,
                                                              const tigris_stage_t *stage) {
    if (stage->tile_plan_idx == TIGRIS_NONE16 || !plan->tile_plans) return NULL;
    return &plan->tile_plans[stage->tile_plan_idx];
}

/* The stage's tiling choices from whichever record layout the plan uses;
 * all zero when the stage has no tile record. */
static inline tigris_tile_plan_v10_t tigris_stage_tiles(const tigris_plan_t *plan, const tigris_stage_t *stage) {
    tigris_tile_plan_v10_t t;
    memset(&t, 0, sizeof t);
    if (stage->tile_plan_idx == TIGRIS_NONE16) return t;
    if (plan->tile_plans_v11) return plan->tile_plans_v11[stage->tile_plan_idx].choices;
    if (plan->tile_plans_v10) return plan->tile_plans_v10[stage->tile_plan_idx];
    if (plan->tile_plans) {
        const tigris_tile_plan_t *a = &plan->tile_plans[stage->tile_plan_idx];
        t.tileable = a->tileable;
        t.axis = a->axis;
        t.flags = a->flags;
        t.tile_height = a->tile_height;
        t.num_tiles = a->num_tiles;
        t.original_height = a->original_height;
        t.halo = a->halo;
        t.receptive_field = a->receptive_field;
        t.tile_width = a->tile_width;
        t.tiled_peak_bytes = a->tiled_peak_bytes;
        t.overhead_bytes = a->overhead_bytes;
    }
    return t;
}

/* Byte size of one element of a stored dtype; 0 for dtypes a tensor cannot have. */
static inline uint32_t tigris_dtype_size(uint8_t dtype) {
    switch (dtype) {
    case TIGRIS_DTYPE_FLOAT32: return 4;
    case TIGRIS_DTYPE_UINT8: return 1;
    case TIGRIS_DTYPE_INT8: return 1;
    case TIGRIS_DTYPE_INT16: return 2;
    case TIGRIS_DTYPE_INT32: return 4;
    case TIGRIS_DTYPE_INT64: return 8;
    case TIGRIS_DTYPE_BOOL: return 1;
    default: return 0;
    }
}

/* Names for logs and tools: "float32", "int8", ... for a stored or declared
 * dtype, and the enum spelling without TIGRIS_OP_ ("CONV", "UNKNOWN") for an
 * opcode. NULL for a code that has no name, so callers choose what to show. */
const char *tigris_dtype_name(uint32_t dtype);
const char *tigris_op_type_name(uint32_t op_type);

/* ---- Arena sizing (library functions) ---- */
uint32_t tigris_weight_decompression_overhead(const tigris_plan_t *plan);
uint32_t tigris_fast_arena_required(const tigris_plan_t *plan);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_H */
