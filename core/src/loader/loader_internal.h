/*
 * loader_internal.h - shared state and helpers of the plan loader.
 *
 * The loader runs the checks of docs/format.md P13.2 in order; each step
 * lives in the file named for what it checks and reads the context below.
 * Every helper that reads plan bytes takes offsets the caller has already
 * bounded, or bounds them itself and says so.
 */
#ifndef TIGRIS_LOADER_INTERNAL_H
#define TIGRIS_LOADER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tigris.h"
#include "tigris_loader.h"
#include "../ops.h"

typedef struct {
    const uint8_t *buf;
    uint32_t len;
    uint32_t version;
    const tigris_file_header_t *hdr;
    uint32_t sec_off[TIGRIS_SEC_MAX];
    uint32_t sec_len[TIGRIS_SEC_MAX];
    uint8_t sec_present[TIGRIS_SEC_MAX];
    uint32_t index_count;  /* u16 elements in the index pool */
    uint32_t shape_count;  /* i32 elements in the shape pool */
    uint32_t strings_len;
    uint32_t tile_rec_size; /* 24, 32 or 48 */
    uint32_t blob_len;       /* uncompressed weight blob bytes */
    uint32_t blocks_data_len;
    uint32_t attr_data_len;
    uint32_t quant_data_len; /* i32 elements */
    uint16_t quant_pages;
    tigris_plan_t *plan;
    tigris_plan_limits_t *req; /* never NULL inside the loader */
} tigris__ld_t;

/* ---- little-endian reads from bytes (the buffer may be unaligned) ---- */
static inline uint16_t tigris__rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t tigris__rd32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* [off, off+size) inside [0, limit) without overflow. */
static inline int tigris__fits(uint32_t off, uint32_t size, uint32_t limit) {
    return off <= limit && size <= limit - off;
}

/* Element i of the index pool / shape pool of a loaded (or loading) plan;
 * i must be < the pool count. Byte reads keep an odd buffer base harmless. */
static inline uint16_t tigris__pool16(const tigris_plan_t *p, uint32_t i) {
    return tigris__rd16((const uint8_t *)p->index_pool + 2u * i);
}
static inline int32_t tigris__dim(const tigris_plan_t *p, const tigris_tensor_t *t, uint32_t axis) {
    return (int32_t)tigris__rd32((const uint8_t *)p->shape_pool + 4u * ((uint32_t)t->shape_off + axis));
}
static inline uint16_t tigris__op_in(const tigris_plan_t *p, const tigris_op_t *op, uint32_t i) {
    return tigris__pool16(p, (uint32_t)op->inputs_off + i);
}
static inline uint16_t tigris__op_out(const tigris_plan_t *p, const tigris_op_t *op, uint32_t i) {
    return tigris__pool16(p, (uint32_t)op->outputs_off + i);
}
static inline uint16_t tigris__stage_op(const tigris_plan_t *p, const tigris_stage_t *s, uint32_t i) {
    return tigris__pool16(p, (uint32_t)s->ops_off + i);
}
static inline uint16_t tigris__stage_in(const tigris_plan_t *p, const tigris_stage_t *s, uint32_t i) {
    return tigris__pool16(p, (uint32_t)s->inputs_off + i);
}
static inline uint16_t tigris__stage_out(const tigris_plan_t *p, const tigris_stage_t *s, uint32_t i) {
    return tigris__pool16(p, (uint32_t)s->outputs_off + i);
}

/* A NUL-terminated string starts at off inside the string section. */
int tigris__ld_string_ok(const tigris__ld_t *ld, uint32_t off);

/* ---- steps of docs/format.md P13.2, in order (each returns TIGRIS_OK or the error) ---- */
tigris_error_t tigris__ld_header(tigris__ld_t *ld);        /* step 1 */
tigris_error_t tigris__ld_directory(tigris__ld_t *ld);     /* steps 2-4 */
tigris_error_t tigris__ld_tables(tigris__ld_t *ld);        /* step 5 */
tigris_error_t tigris__ld_pools(tigris__ld_t *ld);         /* step 6 */
tigris_error_t tigris__ld_tensors(tigris__ld_t *ld);       /* steps 7-8 */
tigris_error_t tigris__ld_subgraph_header(tigris__ld_t *ld); /* step 9 */
tigris_error_t tigris__ld_state_tensors(tigris__ld_t *ld); /* step 10 */
tigris_error_t tigris__ld_ops(tigris__ld_t *ld);           /* step 11 */
tigris_error_t tigris__ld_attributes(tigris__ld_t *ld);    /* step 12 */
tigris_error_t tigris__ld_weight_entries(tigris__ld_t *ld); /* step 13 */
tigris_error_t tigris__ld_quant(tigris__ld_t *ld);         /* step 14 */
tigris_error_t tigris__ld_weight_blocks(tigris__ld_t *ld); /* step 15 */
tigris_error_t tigris__ld_stages(tigris__ld_t *ld);        /* steps 16-17 */
tigris_error_t tigris__ld_block_coverage(tigris__ld_t *ld); /* step 18 */
tigris_error_t tigris__ld_control_flow(tigris__ld_t *ld);  /* step 19 */
/* F8, after step 20: kernel families a loaded plan needs (TIGRIS__FAM_*
 * bits), and the refusal when this build lacks one of them. */
#define TIGRIS__FAM_F32 1u
#define TIGRIS__FAM_S8 2u
uint32_t tigris__ld_families_needed(const tigris_plan_t *plan);
tigris_error_t tigris__ld_kernel_families(const tigris_plan_t *plan);

/* Within step 16: the tiled-stage contracts of docs/format.md P7.3, then the
 * band rules F5-F7 (docs/format.md). */
tigris_error_t tigris__ld_tile_contract(const tigris__ld_t *ld, uint16_t s);
tigris_error_t tigris__ld_tile_band(const tigris__ld_t *ld, uint16_t s);
tigris_error_t tigris__ld_chain_band(const tigris__ld_t *ld, uint16_t head);

/* The sizes the executor workspace formula (TIGRIS_WORKSPACE_BYTES_) takes,
 * from the plan's stages; shared with the executor's own check (sizing.c).
 * 0 when a chain runs past the stage table. */
typedef struct {
    uint32_t tensors, inputs, outputs, chain, spatial;
} tigris__ws_limits_t;
int tigris__workspace_limits(const tigris_plan_t *plan, tigris__ws_limits_t *out);

#endif /* TIGRIS_LOADER_INTERNAL_H */
