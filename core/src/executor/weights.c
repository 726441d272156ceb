/*
 * weights.c - compressed weight blocks decoded into the fast arena before a
 * stage runs, and the stage fast limit (docs/runtime-semantics.md R2.4).
 */
#include "executor_internal.h"

#include <string.h>

#include "../lz4.h"

const tigris_weight_block_t *tx_stage_block(const tigris_plan_t *plan, uint16_t stage) {
    uint32_t i;
    if (!plan->weight_blocks) return NULL;
    for (i = 0; i < plan->num_weight_blocks; i++) {
        const tigris_weight_block_t *b = &plan->weight_blocks[i];
        if (b->stage_idx == stage && b->compressed_size > 0) return b;
    }
    return NULL;
}

uint32_t tx_stage_block_need(const tigris_plan_t *plan, uint16_t stage) {
    const tigris_weight_block_t *b = tx_stage_block(plan, stage);
    return b ? tx_aligned(b->uncompressed_size) : 0;
}

static tigris_exec_error_t decode_into(const tigris_plan_t *plan, const tigris_weight_block_t *b, uint8_t *dst) {
    const uint8_t *src = plan->weight_blocks_data + b->blob_offset;
    if (plan->weight_compression == TIGRIS_COMPRESSION_LZ4) {
        uint32_t got = 0;
        if (tigris__lz4_decode(src, b->compressed_size, dst, b->uncompressed_size, &got) != 0 ||
            got != b->uncompressed_size)
            return TIGRIS_EXEC_ERR_KERNEL;
    } else if (plan->weight_compression == TIGRIS_COMPRESSION_NONE) {
        if (b->compressed_size < b->uncompressed_size) return TIGRIS_EXEC_ERR_KERNEL;
        memcpy(dst, src, b->uncompressed_size);
    } else {
        return TIGRIS_EXEC_ERR_KERNEL;
    }
    return TIGRIS_EXEC_OK;
}

tigris_exec_error_t tx_decode_block(tx_run_t *r, uint16_t stage, const uint8_t **blob) {
    tigris_mem_t *mem = r->mem;
    const tigris_weight_block_t *b = tx_stage_block(r->plan, stage);
    uint32_t need, off;
    tigris_exec_error_t err;
    *blob = r->plan->weight_blob;
    if (!b) return TIGRIS_EXEC_OK;
    need = tx_aligned(b->uncompressed_size);
    if (r->inplace_at != UINT32_MAX) {
        /* Inputs read in place: the room below them was left for this block
         * (the up-front check measured from it). */
        off = r->inplace_at;
        if (off > mem->fast_size || need > mem->fast_size - off || need > mem->fast_used - off)
            return TIGRIS_EXEC_ERR_MEM;
        TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_ALLOC, TIGRIS_TRACE_POOL_FAST, TIGRIS_TRACE_NONE16,
                          TIGRIS_TRACE_NONE16, off, 0, need, -1, -1, -1, -1);
    } else {
        if (mem->fast_used > mem->fast_size || need > mem->fast_size - mem->fast_used) return TIGRIS_EXEC_ERR_MEM;
        if (tigris__mem_bump_fast(mem, b->uncompressed_size, &off) != TIGRIS_MEM_OK) return TIGRIS_EXEC_ERR_MEM;
    }
    err = decode_into(r->plan, b, mem->fast_base + off);
    if (err != TIGRIS_EXEC_OK) return err;
    r->stats->weight_bytes += b->uncompressed_size;
    TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_WEIGHTS, TIGRIS_TRACE_POOL_FAST, TIGRIS_TRACE_NONE16, TIGRIS_TRACE_NONE16,
                      off, b->compressed_size, b->uncompressed_size, -1, -1, -1, -1);
    *blob = mem->fast_base + off;
    return TIGRIS_EXEC_OK;
}

tigris_exec_error_t tx_prepare_weights(tx_run_t *r, uint16_t stage) {
    const uint8_t *blob;
    tigris_exec_error_t err = tx_decode_block(r, stage, &blob);
    if (err != TIGRIS_EXEC_OK) return err;
    if (r->plan->weight_blocks && r->inplace_at == UINT32_MAX) r->mem->fast_reserved = r->mem->fast_used;
    r->wplan.weight_blob = blob;
    return TIGRIS_EXEC_OK;
}

uint32_t tx_stage_limit(const tx_run_t *r, uint16_t stage, uint32_t available) {
    const tigris_plan_t *plan = r->plan;
    const tigris_stage_t *st = &plan->stages[stage];
    uint32_t peak = st->peak_bytes;
    if (r->schema < 4) return available;
    if (st->tile_plan_idx != TIGRIS_NONE16 && st->tile_plan_idx < plan->header->num_tile_plans) {
        tigris_tile_plan_v10_t t = tigris_stage_tiles(plan, st);
        if (t.tileable) peak = t.tiled_peak_bytes;
    }
    return (peak > 0 && peak < available) ? peak : available;
}
