/*
 * stage_loop.c - walk the current graph's stages, pick each one's execution
 * path in the documented precedence, and do the between-stage work
 * (docs/runtime-semantics.md R2.3, R2.9).
 */
#include "executor_internal.h"

void tx_free_dead(tx_run_t *r, uint16_t first, uint16_t last) {
    tigris_mem_t *mem = r->mem;
    uint32_t t;
    int freed = 0;
    for (t = 0; t < r->lim.tensors; t++) {
        uint16_t lc = r->last_consumer[t];
        if (lc == TX_NEVER || lc < first || lc > last) continue;
        if (mem->tensor_ptrs[t] && tigris__mem_in_slow(mem, mem->tensor_ptrs[t])) {
            mem->tensor_ptrs[t] = NULL;
            freed = 1;
        }
    }
    if (freed) tigris__mem_compact_slow(mem, r->plan);
}

void tx_stage_end(tx_run_t *r, uint16_t stage) {
    TIGRIS_TRACE_SET_STAGE(r->mem, stage);
    TIGRIS_TRACE_EMIT(r->mem, TIGRIS_TRACE_STAGE_END, TIGRIS_TRACE_POOL_NONE, TIGRIS_TRACE_NONE16,
                      TIGRIS_TRACE_NONE16, 0, 0, 0, -1, -1, -1, -1);
    (void)stage;
}

static void stage_begin(tx_run_t *r, uint16_t stage, uint8_t path) {
    TIGRIS_TRACE_SET_STAGE(r->mem, stage);
    TIGRIS_TRACE_SET_PATH(r->mem, path);
    TIGRIS_TRACE_EMIT(r->mem, TIGRIS_TRACE_STAGE_BEGIN, TIGRIS_TRACE_POOL_NONE, TIGRIS_TRACE_NONE16,
                      TIGRIS_TRACE_NONE16, 0, 0, 0, -1, -1, -1, -1);
    (void)stage;
    (void)path;
}

/* Post-stage work shared by every standalone path and chains. */
static void stage_done(tx_run_t *r, uint16_t last, uint16_t report) {
    tx_free_dead(r, r->graph_first, last);
    r->mem->fast_reserved = r->u0;
    tigris__mem_reset_fast(r->mem);
    r->wplan.weight_blob = r->plan->weight_blob;
    tx_stage_end(r, report);
}

static int is_chain_head(const tigris_plan_t *plan, uint16_t s) {
    const tigris_stage_t *st = &plan->stages[s];
    return st->chain_len >= 2 && st->chain_id == s;
}

static int is_chain_member(const tigris_plan_t *plan, uint16_t s) {
    const tigris_stage_t *st = &plan->stages[s];
    uint16_t h = st->chain_id;
    if (h == TIGRIS_NONE16 || h == s || h >= plan->header->num_stages || h > s) return 0;
    if (!is_chain_head(plan, h)) return 0;
    return (uint32_t)s < (uint32_t)h + plan->stages[h].chain_len;
}

typedef enum {
    TX_PATH_NORMAL,
    TX_PATH_STRIPE,
    TX_PATH_HW,
    TX_PATH_BY_INPUT,
    TX_PATH_TRANSPOSE,
    TX_PATH_ROWS,
    TX_PATH_LEADING,
    TX_PATH_RESHAPE,
    TX_PATH_FAIL,
    TX_PATH_NO_ROOM /* does not fit whole and its record says it cannot be banded */
} tx_path_t;

/* Rule 4-6 of docs/runtime-semantics.md R2.3 for one standalone stage. */
static tx_path_t choose_path(tx_run_t *r, uint16_t s, uint8_t *lead_axis) {
    const tigris_plan_t *plan = r->plan;
    const tigris_stage_t *st = &plan->stages[s];
    const uint16_t *in = tigris_stage_inputs(plan, st), *out = tigris_stage_outputs(plan, st);
    int has_idx = st->tile_plan_idx != TIGRIS_NONE16;
    int rec_ok = has_idx && st->tile_plan_idx < plan->header->num_tile_plans &&
                 (plan->tile_plans || plan->tile_plans_v10 || plan->tile_plans_v11);
    tigris_tile_plan_v10_t tiles;
    int tileable, rank = -1, common_rank = 1, input_driven, transposed, row_tiled = 0, special, axis1;
    uint8_t axis;
    uint32_t total_io = 0, k, avail, need, capacity;
    tigris_band_kind_t kind = TIGRIS_BAND_KIND_NONE;
    tigris_stage_band_t band;

    memset(&tiles, 0, sizeof tiles);
    if (rec_ok) tiles = tigris_stage_tiles(plan, st);
    tileable = rec_ok && tiles.tileable;
    if (tileable) {
        memset(&band, 0, sizeof band);
        kind = tigris_stage_band_kind(plan, st, &band);
        if (kind == TIGRIS_BAND_KIND_RESHAPE) return TX_PATH_RESHAPE;
        if (kind == TIGRIS_BAND_KIND_LEADING) {
            *lead_axis = band.axis;
            return TX_PATH_LEADING;
        }
        row_tiled = kind == TIGRIS_BAND_KIND_ROWS;
    }

    for (k = 0; k < (uint32_t)st->inputs_count + st->outputs_count; k++) {
        uint16_t t = k < st->inputs_count ? in[k] : out[k - st->inputs_count];
        const tigris_tensor_t *tt = &plan->tensors[t];
        const void *where = r->mem->tensor_ptrs[t];
        /* A tensor already in fast below the floor (a model input the caller
         * wrote there, kept for the whole run by the prologue) takes no room
         * out of `avail`, which starts above the floor: counting it would
         * band a stage that fits at its declared arena. */
        if (!(where && tigris__mem_in_fast(r->mem, where) &&
              (uint32_t)((const uint8_t *)where - r->mem->fast_base) < r->mem->fast_reserved))
            total_io = tx_sat_add(total_io, tt->size_bytes);
        if (rank < 0) rank = tt->ndim;
        if (tt->ndim != rank) common_rank = 0;
    }
    if (rank != 3 && rank != 4) common_rank = 0;

    if (!tileable) axis = TIGRIS_TILE_AXIS_NONE;
    else if (r->schema >= 5) axis = tiles.axis;
    else axis = TIGRIS_TILE_AXIS_HEIGHT;

    input_driven = tx_stage_input_driven(plan, st);
    transposed = tx_stage_transposed(plan, st, s);
    special = input_driven || transposed || row_tiled;
    axis1 = special || (common_rank && tx_stage_stripe_ok(plan, st, rank));

    avail = r->mem->fast_size - r->mem->fast_reserved;
    need = tx_stage_block_need(plan, s);
    capacity = need > avail ? 0 : tx_stage_limit(r, s, avail - need);

    if (!((common_rank || row_tiled || transposed) && total_io > capacity)) return TX_PATH_NORMAL;

    if (has_idx) {
        /* An untileable record: the stage runs whole or not at all, and it
         * does not fit. That is arena exhaustion, not a tiling fault. */
        if (rec_ok && !tiles.tileable) return TX_PATH_NO_ROOM;
        if (!rec_ok) return TX_PATH_FAIL;
        if (axis != TIGRIS_TILE_AXIS_HEIGHT && axis != TIGRIS_TILE_AXIS_HW) return TX_PATH_FAIL;
        if (special && axis != TIGRIS_TILE_AXIS_HEIGHT) return TX_PATH_FAIL;
        if (!axis1) return TX_PATH_FAIL;
    }
    if (row_tiled && axis == TIGRIS_TILE_AXIS_HEIGHT) return TX_PATH_ROWS;
    if (transposed) return TX_PATH_TRANSPOSE;
    if (input_driven) return TX_PATH_BY_INPUT;
    if (r->schema >= 5 && axis == TIGRIS_TILE_AXIS_HW && axis1 && !special) return TX_PATH_HW;
    if (axis1 && !special && (rank == 4 || (r->schema >= 5 && axis == TIGRIS_TILE_AXIS_HEIGHT)))
        return TX_PATH_STRIPE;
    return TX_PATH_NORMAL;
}

static const uint8_t path_code[] = {
    TIGRIS_TRACE_PATH_NORMAL,   TIGRIS_TRACE_PATH_TILED, TIGRIS_TRACE_PATH_TILED_2D,
    TIGRIS_TRACE_PATH_BY_INPUT, TIGRIS_TRACE_PATH_TRANSPOSE, TIGRIS_TRACE_PATH_ROWS,
    TIGRIS_TRACE_PATH_ROWS,     TIGRIS_TRACE_PATH_RESHAPE};

static tigris_exec_error_t run_standalone(tx_run_t *r, uint16_t s) {
    uint8_t lead_axis = 0;
    tx_path_t path = choose_path(r, s, &lead_axis);
    tigris_exec_error_t err;
    uint32_t cap;
    if (path == TX_PATH_FAIL) return TIGRIS_EXEC_ERR_TILE;
    if (path == TX_PATH_NO_ROOM) return TIGRIS_EXEC_ERR_MEM;
    stage_begin(r, s, path_code[path]);
    err = tx_prepare_weights(r, s);
    if (err != TIGRIS_EXEC_OK) return err;
    cap = tx_stage_limit(r, s, r->mem->fast_size - r->mem->fast_reserved);
    if (path == TX_PATH_NORMAL) r->stats->stages_normal++;
    else r->stats->stages_tiled++;
    switch (path) {
    case TX_PATH_NORMAL: return tx_run_normal(r, s);
    case TX_PATH_STRIPE: return tx_run_stripe(r, s, cap);
    case TX_PATH_HW: return tx_run_hw(r, s);
    case TX_PATH_BY_INPUT: return tx_run_by_input(r, s, cap);
    case TX_PATH_TRANSPOSE: return tx_run_transpose(r, s, cap);
    case TX_PATH_ROWS: return tx_run_rows(r, s, cap, TIGRIS_ROW_MODE_ROWS, 0);
    case TX_PATH_LEADING: return tx_run_rows(r, s, cap, TIGRIS_ROW_MODE_LEADING, lead_axis);
    case TX_PATH_RESHAPE: return tx_run_reshape(r, s);
    default: return TIGRIS_EXEC_ERR_TILE;
    }
}

tigris_exec_error_t tx_stage_loop(tx_run_t *r) {
    const tigris_plan_t *plan = r->plan;
    uint32_t s = r->graph_first;
    tigris_exec_error_t err;
    for (;;) {
        uint16_t next;
        if (s >= (uint32_t)r->graph_first + r->graph_count) {
            if (r->depth == 0) return TIGRIS_EXEC_OK;
            err = tx_control_step(r, &next);
            if (err != TIGRIS_EXEC_OK) return err;
            s = next;
            continue;
        }
        if (s >= plan->header->num_stages) return TIGRIS_EXEC_ERR_NO_STAGES;
        if (plan->num_subgraphs > 0 && tx_is_control_stage(plan, &plan->stages[s])) {
            stage_begin(r, (uint16_t)s, TIGRIS_TRACE_PATH_CONTROL);
            err = tx_control_enter(r, (uint16_t)s, &next);
            if (err != TIGRIS_EXEC_OK) return err;
            s = next;
            continue;
        }
        if (is_chain_head(plan, (uint16_t)s)) {
            uint16_t len = plan->stages[s].chain_len;
            stage_begin(r, (uint16_t)s, TIGRIS_TRACE_PATH_CHAIN);
            err = tx_run_chain(r, (uint16_t)s);
            if (err != TIGRIS_EXEC_OK) return err;
            r->stats->stages_chain = (uint16_t)(r->stats->stages_chain + len);
            stage_done(r, (uint16_t)(s + len - 1u), (uint16_t)s);
            s += len;
            continue;
        }
        if (is_chain_member(plan, (uint16_t)s)) {
            s++;
            continue;
        }
        err = run_standalone(r, (uint16_t)s);
        if (err != TIGRIS_EXEC_OK) return err;
        stage_done(r, (uint16_t)s, (uint16_t)s);
        s++;
    }
}
