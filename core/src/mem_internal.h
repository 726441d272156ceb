/*
 * mem_internal.h - the memory manager's executor-facing operations (not
 * public API). Implemented in mem.c; used by the executor and iface.c.
 * Semantics: docs/runtime-semantics.md R1 (bump allocation, loads,
 * spills, band transfers, reset, compaction, peaks, trace events).
 */
#ifndef TIGRIS_MEM_INTERNAL_H
#define TIGRIS_MEM_INTERNAL_H

#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_mem.h"

#define TIGRIS_ALIGN_UP(x) (((x) + ((uint32_t)TIGRIS_TENSOR_ALIGN - 1u)) & ~((uint32_t)TIGRIS_TENSOR_ALIGN - 1u))

/* ALIGN(size) with overflow detection: 0 on success, -1 on overflow. */
int tigris__align_size(uint32_t size, uint32_t *out);

/* Bump-allocate a tensor in the fast arena (capacity = mem->fast_size as it
 * stands). Emits ALLOC. */
tigris_mem_error_t tigris__mem_alloc_fast(tigris_mem_t *mem, uint16_t tensor, uint32_t size_bytes);

/* Tensor-less fast bump (decoded weight blocks, BY_INPUT accumulator):
 * returns the offset from fast_base in *out_off. Emits ALLOC with tensor none. */
tigris_mem_error_t tigris__mem_bump_fast(tigris_mem_t *mem, uint32_t size_bytes, uint32_t *out_off);

/* Whole-tensor copy slow -> fast (load) or fast -> slow (spill); the tensor
 * pointer moves to the copy. Adds to stats loads_bytes / spills_bytes. */
tigris_mem_error_t tigris__mem_load(tigris_mem_t *mem, uint16_t tensor, uint32_t size_bytes);
tigris_mem_error_t tigris__mem_spill(tigris_mem_t *mem, uint16_t tensor, uint32_t size_bytes);

/* Height-band transfers (docs/runtime-semantics.md R1.6) of rows [h0, h1) of tensor t (rank 2-4, view
 * from the plan's shape). load_tile packs the band into a new fast
 * allocation; spill_tile scatters the packed band into the full tensor at
 * slow_dst and points t there. */
tigris_mem_error_t tigris__mem_load_tile(tigris_mem_t *mem, const tigris_plan_t *plan, uint16_t t, int32_t h0,
                                         int32_t h1);
tigris_mem_error_t tigris__mem_spill_tile(tigris_mem_t *mem, const tigris_plan_t *plan, uint16_t t,
                                          uint8_t *slow_dst, int32_t h0, int32_t h1);

/* 2-D rectangle transfers (rank 3 or 4). */
tigris_mem_error_t tigris__mem_load_rect(tigris_mem_t *mem, const tigris_plan_t *plan, uint16_t t, int32_t h0,
                                         int32_t h1, int32_t w0, int32_t w1);
tigris_mem_error_t tigris__mem_spill_rect(tigris_mem_t *mem, const tigris_plan_t *plan, uint16_t t,
                                          uint8_t *slow_dst, int32_t h0, int32_t h1, int32_t w0, int32_t w1);

/* fast_used = fast_reserved; emits RESET. Tensor pointers untouched. */
void tigris__mem_reset_fast(tigris_mem_t *mem);

/* Compaction (docs/runtime-semantics.md R1.8): fast over [fast_reserved, fast_size), slow over
 * [0, slow_size). Sizes come from the plan's tensor table. Count in stats. */
void tigris__mem_compact_fast(tigris_mem_t *mem, const tigris_plan_t *plan);
void tigris__mem_compact_slow(tigris_mem_t *mem, const tigris_plan_t *plan);

/* 1 when the plan reads its model inputs in place in the fast arena
 * (schema >= 5, one stage without tile record, chain, control flow or state,
 * reading every model input and writing every model output); 0 otherwise.
 * Implemented in iface.c, which places such inputs: the first one placed
 * sits tigris_weight_decompression_overhead() bytes above the fill level it
 * found, the others directly after it, so the run's floor is the lowest
 * input address minus that overhead. */
int tigris__plan_reads_inputs_in_place(const tigris_plan_t *plan);

/* Pool membership by address. */
int tigris__mem_in_fast(const tigris_mem_t *mem, const void *p);
int tigris__mem_in_slow(const tigris_mem_t *mem, const void *p);

#endif /* TIGRIS_MEM_INTERNAL_H */
