/*
 * executor_internal.h - what the executor's translation units share: the
 * per-run record, the workspace carve-up, and the stage-path entry points.
 * Semantics: docs/runtime-semantics.md R2 and R3.
 */
#ifndef TIGRIS_EXECUTOR_INTERNAL_H
#define TIGRIS_EXECUTOR_INTERNAL_H

#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_loader.h"
#include "tigris_mem.h"

#include "../mem_internal.h"
#include "../loader/loader_internal.h"
#include "../ops.h"
#include "../trace_internal.h"

#define TX_NEVER 0xFFFFu

/* Per-chain-member int32 record: composed geometry, then one slot group per
 * recorded spatial op. The counts are part of the workspace formula (docs/runtime-semantics.md R2.1.1). */
#define TX_MEMBER_I32 14
#define TX_SPATIAL_I32 13

/* Member record fields (offsets into the member's 14-int32 header). */
enum {
    TXM_NSPATIAL = 0, /* recorded height-spatial ops */
    TXM_STRIDE,       /* composed stride */
    TXM_EFFK,         /* composed effective kernel */
    TXM_PAD,          /* composed top pad */
    TXM_IN0,          /* this tile: member input rows [IN0, IN1) */
    TXM_IN1,
    TXM_OUT0, /* this tile: member output rows [OUT0, OUT1) */
    TXM_OUT1,
    TXM_CLAMPED,  /* 1 when any spatial op had a clamped pad on this tile */
    TXM_HAS_CAT,  /* member holds a Concat: never rolls */
    TXM_IN_H,     /* height entering the member this tile */
    TXM_FIRST_OP, /* unused slots kept for layout stability */
    TXM_R1,
    TXM_R2
};

/* Spatial-op slot fields. */
enum {
    TXS_OP = 0, /* op index */
    TXS_EK,     /* effective kernel */
    TXS_STRIDE,
    TXS_PT, /* declared pad top */
    TXS_IN_H,   /* this tile: rows read */
    TXS_OUT_H,  /* this tile: rows written */
    TXS_PTE,    /* effective pads */
    TXS_PBE,
    TXS_O0, /* global output rows */
    TXS_O1,
    TXS_I0, /* global input rows */
    TXS_I1,
    TXS_HFULL /* full input height of the op */
};

/* Workspace limits one run is carved for (docs/runtime-semantics.md R2.1.1). */
/* Sizes of the workspace arrays: the loader's count (tigris__workspace_limits). */
typedef tigris__ws_limits_t tx_limits_t;

/* Control-flow frame: 4 uint16 per nesting level. */
enum { TXF_STAGE = 0, TXF_FIRST, TXF_COUNT, TXF_PHASE };

/* Frame phases. */
#define TX_PHASE_IF 0
#define TX_PHASE_WHILE_COND 1
#define TX_PHASE_WHILE_BODY 2

typedef struct {
    const tigris_plan_t *plan; /* as loaded */
    tigris_plan_t wplan;       /* handed to kernels; weight_blob per stage */
    tigris_mem_t *mem;
    tigris_kernel_fn kernel;
    void *user_ctx;
    tigris_exec_stats_t *stats;
    uint32_t u0, r0;
    uint32_t schema;
    tx_limits_t lim;

    /* pointer arrays */
    void **saved_in;             /* [inputs] stage inputs' pointers before a stage */
    void **saved_out;            /* [outputs] stage outputs' slow buffers */
    const uint8_t **chain_blob;  /* [chain] decoded weight block per member */
    void **chain_aux;            /* [chain] spare per member */
    /* int32 arrays */
    int32_t *chain_i32; /* [(14 + 13*spatial) * chain] */
    int32_t *row0;      /* [tensors] global first row a buffer holds */
    int32_t *row1;      /* [tensors] one past its last row */
    /* uint16 arrays */
    uint16_t *last_consumer; /* [tensors] */
    uint16_t *last_use;      /* [tensors] per-stage op position */
    uint16_t *misc;          /* [4] */
    uint16_t *frames;        /* [4 * TIGRIS_MAX_SUBGRAPH_DEPTH] */

    /* inputs read in place (docs/runtime-semantics.md R2.12.2): fast offset the stage's weights are
     * decoded at, UINT32_MAX otherwise */
    uint32_t inplace_at;

    /* control flow */
    uint16_t depth;
    uint16_t graph_first;
    uint16_t graph_count;
} tx_run_t;

/* ---- run.c ---- */
int tx_plan_limits(const tigris_plan_t *plan, tx_limits_t *out);
size_t tx_workspace_bytes(const tx_limits_t *lim);

/* ---- stage_loop.c ---- */
tigris_exec_error_t tx_stage_loop(tx_run_t *r);
void tx_free_dead(tx_run_t *r, uint16_t first, uint16_t last);
void tx_stage_end(tx_run_t *r, uint16_t stage);

/* ---- weights.c ---- */
const tigris_weight_block_t *tx_stage_block(const tigris_plan_t *plan, uint16_t stage);
uint32_t tx_stage_block_need(const tigris_plan_t *plan, uint16_t stage);
/* Decode stage's block at fast_used; *blob receives the decoded start (or the
 * plan's own blob when the stage has none). Does not touch fast_reserved. */
tigris_exec_error_t tx_decode_block(tx_run_t *r, uint16_t stage, const uint8_t **blob);
/* Standalone stages: decode, raise fast_reserved, point wplan at the block. */
tigris_exec_error_t tx_prepare_weights(tx_run_t *r, uint16_t stage);
uint32_t tx_stage_limit(const tx_run_t *r, uint16_t stage, uint32_t available);

/* ---- util.c ---- */
uint32_t tx_tensor_rows(const tigris_plan_t *plan, uint16_t t); /* shape[1] (rank 3/4) or shape[0] */
int tx_pure_reinterpret(const tigris_plan_t *plan, const tigris_op_t *op);
uint32_t tx_eff_k(uint32_t k, uint32_t dilation);
/* Call the kernel with an OP event first; ERR_KERNEL on non-zero. */
tigris_exec_error_t tx_call_op(tx_run_t *r, uint16_t op_index);
void tx_restore_inputs(tx_run_t *r, const tigris_stage_t *st);
void tx_clear_tile(tigris_mem_t *mem);
int tx_place_slow(tx_run_t *r, uint16_t t);
uint32_t tx_aligned(uint32_t x); /* saturating ALIGN */
uint32_t tx_sat_add(uint32_t a, uint32_t b);
uint32_t tx_sat_mul(uint32_t a, uint32_t b);

/* ---- stage paths ---- */
tigris_exec_error_t tx_run_normal(tx_run_t *r, uint16_t s);
tigris_exec_error_t tx_run_chain(tx_run_t *r, uint16_t head);
tigris_exec_error_t tx_run_stripe(tx_run_t *r, uint16_t s, uint32_t capacity);
tigris_exec_error_t tx_run_hw(tx_run_t *r, uint16_t s);
tigris_exec_error_t tx_run_by_input(tx_run_t *r, uint16_t s, uint32_t capacity);
tigris_exec_error_t tx_run_transpose(tx_run_t *r, uint16_t s, uint32_t capacity);
tigris_exec_error_t tx_run_rows(tx_run_t *r, uint16_t s, uint32_t capacity, uint8_t mode, uint8_t lead_axis);
tigris_exec_error_t tx_run_reshape(tx_run_t *r, uint16_t s);

/* Stage predicates the dispatcher needs (in the path files). */
int tx_stage_input_driven(const tigris_plan_t *plan, const tigris_stage_t *st);
int tx_stage_transposed(const tigris_plan_t *plan, const tigris_stage_t *st, uint16_t s);
int tx_stage_stripe_ok(const tigris_plan_t *plan, const tigris_stage_t *st, int rank);

/* ---- control.c ---- */
int tx_is_control_stage(const tigris_plan_t *plan, const tigris_stage_t *st);
tigris_exec_error_t tx_control_enter(tx_run_t *r, uint16_t s, uint16_t *next);
/* A subgraph finished: step its frame; *next is where the loop continues. */
tigris_exec_error_t tx_control_step(tx_run_t *r, uint16_t *next);

/* ---- state.c ---- */
tigris_exec_error_t tx_state_in(tx_run_t *r, uint8_t *state);
tigris_exec_error_t tx_state_out(tx_run_t *r, uint8_t *state);

#endif /* TIGRIS_EXECUTOR_INTERNAL_H */
