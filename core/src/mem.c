/*
 * mem.c - the memory manager: bounded bump allocation in two caller-owned
 * pools, whole-tensor and band transfers between them, reset and compaction.
 *
 * A tensor lives in whichever pool its pointer points into; nothing else
 * records placement. Every size and row range is checked here because the
 * executor passes values derived from the plan, and a plan may be hostile.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mem_internal.h"
#include "trace_internal.h"

#define ALIGN_MASK ((uint32_t)TIGRIS_TENSOR_ALIGN - 1u)
#define NONE16 0xFFFFu

int tigris__align_size(uint32_t size, uint32_t *out) {
    if (size > UINT32_MAX - ALIGN_MASK) return -1;
    *out = (size + ALIGN_MASK) & ~ALIGN_MASK;
    return 0;
}

/* Bytes from p to the next aligned address. */
static uint32_t align_gap(const void *p) {
    uintptr_t a = (uintptr_t)p;
    return (uint32_t)((((uintptr_t)TIGRIS_TENSOR_ALIGN) - (a & (uintptr_t)ALIGN_MASK)) & (uintptr_t)ALIGN_MASK);
}

tigris_mem_error_t tigris_mem_init(tigris_mem_t *mem, void **tensor_ptrs, uint16_t num_tensors, void *fast_buf,
                                   uint32_t fast_size, void *slow_buf, uint32_t slow_size) {
    uint32_t fast_adj, slow_adj;
    uint16_t i;
    if (!mem || !tensor_ptrs || !fast_buf) return TIGRIS_MEM_ERR_NULL;
    if (!slow_buf && slow_size != 0) return TIGRIS_MEM_ERR_NULL;
    fast_adj = align_gap(fast_buf);
    slow_adj = slow_buf ? align_gap(slow_buf) : 0u;
    /* Checked before anything is written so a refused init leaves mem as it was. */
    if (fast_adj > fast_size || slow_adj > slow_size) return TIGRIS_MEM_ERR_OOM;

    memset(mem, 0, sizeof *mem);
    mem->tensor_ptrs = tensor_ptrs;
    mem->num_tensors = num_tensors;
    mem->fast_base = (uint8_t *)fast_buf;
    mem->fast_size = fast_size;
    mem->fast_used = fast_adj;
    mem->fast_reserved = fast_adj;
    mem->fast_peak = fast_adj;
    mem->slow_base = (uint8_t *)slow_buf;
    mem->slow_size = slow_size;
    mem->slow_used = slow_adj;
    mem->slow_peak = slow_adj;
    mem->stats = NULL;
#ifdef TIGRIS_TRACE
    mem->trace_fn = NULL;
    mem->trace_ctx = NULL;
    mem->trace_stage = NONE16;
    mem->trace_path = TIGRIS_TRACE_PATH_NORMAL;
#endif
    for (i = 0; i < num_tensors; i++) tensor_ptrs[i] = NULL;
    return TIGRIS_MEM_OK;
}

#ifdef TIGRIS_TRACE
/* Offset of p in whichever pool holds it; 0 for an address in neither,
 * which only a caller-owned buffer outside both pools can be. */
static uint32_t pool_offset(const tigris_mem_t *mem, const void *p) {
    if (tigris__mem_in_fast(mem, p)) return (uint32_t)((const uint8_t *)p - mem->fast_base);
    if (tigris__mem_in_slow(mem, p)) return (uint32_t)((const uint8_t *)p - mem->slow_base);
    return 0;
}
#endif

int tigris__mem_in_fast(const tigris_mem_t *mem, const void *p) {
    uintptr_t a = (uintptr_t)p, b;
    if (!mem || !p || !mem->fast_base) return 0;
    b = (uintptr_t)mem->fast_base;
    return a >= b && a - b < (uintptr_t)mem->fast_size;
}

int tigris__mem_in_slow(const tigris_mem_t *mem, const void *p) {
    uintptr_t a = (uintptr_t)p, b;
    if (!mem || !p || !mem->slow_base) return 0;
    b = (uintptr_t)mem->slow_base;
    return a >= b && a - b < (uintptr_t)mem->slow_size;
}

/* The one bump path for both pools; reports the offset of the allocation.
 * Nothing changes unless it succeeds. */
static tigris_mem_error_t bump(tigris_mem_t *mem, int slow, uint16_t tensor, uint32_t size, uint32_t *out_off) {
    uint8_t *base = slow ? mem->slow_base : mem->fast_base;
    uint32_t cap = slow ? mem->slow_size : mem->fast_size;
    uint32_t *used = slow ? &mem->slow_used : &mem->fast_used;
    uint32_t aligned, off;
    if (tensor != NONE16 && tensor >= mem->num_tensors) return TIGRIS_MEM_ERR_BAD_INDEX;
    if (tigris__align_size(size, &aligned) != 0) return TIGRIS_MEM_ERR_OOM;
    /* A pool without a buffer (slow of size 0) holds nothing, not even an
     * empty tensor: a pointer computed from NULL would be meaningless. */
    if (!base || *used > cap || aligned > cap - *used) return TIGRIS_MEM_ERR_OOM;
    off = *used;
    if (tensor != NONE16) mem->tensor_ptrs[tensor] = base + off;
    *used = off + aligned;
    if (slow) {
        if (mem->slow_used > mem->slow_peak) mem->slow_peak = mem->slow_used;
    } else {
        if (mem->fast_used > mem->fast_peak) mem->fast_peak = mem->fast_used;
    }
    TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_ALLOC, slow ? TIGRIS_TRACE_POOL_SLOW : TIGRIS_TRACE_POOL_FAST, tensor, NONE16,
                      off, 0u, aligned, -1, -1, -1, -1);
    if (out_off) *out_off = off;
    return TIGRIS_MEM_OK;
}

tigris_mem_error_t tigris_mem_alloc_slow(tigris_mem_t *mem, uint16_t tensor_idx, uint32_t size_bytes) {
    if (!mem || !mem->tensor_ptrs) return TIGRIS_MEM_ERR_NULL;
    if (tensor_idx >= mem->num_tensors) return TIGRIS_MEM_ERR_BAD_INDEX;
    return bump(mem, 1, tensor_idx, size_bytes, NULL);
}

tigris_mem_error_t tigris__mem_alloc_fast(tigris_mem_t *mem, uint16_t tensor, uint32_t size_bytes) {
    if (!mem || !mem->tensor_ptrs) return TIGRIS_MEM_ERR_NULL;
    if (tensor >= mem->num_tensors) return TIGRIS_MEM_ERR_BAD_INDEX;
    return bump(mem, 0, tensor, size_bytes, NULL);
}

tigris_mem_error_t tigris__mem_bump_fast(tigris_mem_t *mem, uint32_t size_bytes, uint32_t *out_off) {
    if (!mem || !out_off) return TIGRIS_MEM_ERR_NULL;
    return bump(mem, 0, NONE16, size_bytes, out_off);
}

static void add_loads(tigris_mem_t *mem, uint32_t n) {
    if (mem->stats) mem->stats->loads_bytes += n;
}

static void add_spills(tigris_mem_t *mem, uint32_t n) {
    if (mem->stats) mem->stats->spills_bytes += n;
}

/* Common entry checks of every transfer: the tensor exists and is placed. */
static tigris_mem_error_t placed_source(const tigris_mem_t *mem, uint16_t t, uint8_t **src) {
    if (!mem || !mem->tensor_ptrs) return TIGRIS_MEM_ERR_NULL;
    if (t >= mem->num_tensors) return TIGRIS_MEM_ERR_BAD_INDEX;
    *src = (uint8_t *)mem->tensor_ptrs[t];
    return *src ? TIGRIS_MEM_OK : TIGRIS_MEM_ERR_NOT_SET;
}

tigris_mem_error_t tigris__mem_load(tigris_mem_t *mem, uint16_t tensor, uint32_t size_bytes) {
    uint8_t *src;
    uint32_t off;
    tigris_mem_error_t e = placed_source(mem, tensor, &src);
    if (e != TIGRIS_MEM_OK) return e;
    e = bump(mem, 0, tensor, size_bytes, &off);
    if (e != TIGRIS_MEM_OK) return e;
    memmove(mem->fast_base + off, src, size_bytes);
    add_loads(mem, size_bytes);
    TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_LOAD, TIGRIS_TRACE_POOL_FAST, tensor, NONE16, off, pool_offset(mem, src),
                      size_bytes, -1, -1, -1, -1);
    return TIGRIS_MEM_OK;
}

tigris_mem_error_t tigris__mem_spill(tigris_mem_t *mem, uint16_t tensor, uint32_t size_bytes) {
    uint8_t *src;
    uint32_t off;
    tigris_mem_error_t e = placed_source(mem, tensor, &src);
    if (e != TIGRIS_MEM_OK) return e;
    e = bump(mem, 1, tensor, size_bytes, &off);
    if (e != TIGRIS_MEM_OK) return e;
    memmove(mem->slow_base + off, src, size_bytes);
    add_spills(mem, size_bytes);
    TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_SPILL, TIGRIS_TRACE_POOL_SLOW, tensor, NONE16, off, pool_offset(mem, src),
                      size_bytes, -1, -1, -1, -1);
    return TIGRIS_MEM_OK;
}

/* How a band transfer sees a tensor: n batches of h rows, each row made of
 * w pixels of `pix` bytes (channels times element size). Every product of
 * these stays within size_bytes, so 32-bit offsets cannot overflow. */
typedef struct {
    uint32_t n, h, w, pix, row, size;
} band_view_t;

/* rect == 0: height-band view (rank 2-4); rect == 1: rectangle view (rank 3
 * treated as one channel, rank 4). Refuses shapes whose element count does
 * not divide size_bytes into a whole element size. */
static tigris_mem_error_t view_of(const tigris_plan_t *plan, uint16_t t, int rect, band_view_t *v) {
    const tigris_tensor_t *tt;
    const int32_t *s;
    uint32_t d[4], elem;
    uint64_t count;
    int i;
    if (!plan || !plan->header || !plan->tensors || !plan->shape_pool) return TIGRIS_MEM_ERR_NULL;
    if (t >= plan->header->num_tensors) return TIGRIS_MEM_ERR_BAD_INDEX;
    tt = &plan->tensors[t];
    if (rect ? (tt->ndim != 3 && tt->ndim != 4) : (tt->ndim < 2 || tt->ndim > 4)) return TIGRIS_MEM_ERR_BAD_INDEX;
    s = tigris_tensor_shape(plan, tt);
    for (i = 0; i < tt->ndim; i++) {
        if (s[i] <= 0) return TIGRIS_MEM_ERR_BAD_INDEX;
    }
    if (tt->ndim == 4) {
        d[0] = (uint32_t)s[0]; d[1] = (uint32_t)s[1]; d[2] = (uint32_t)s[2]; d[3] = (uint32_t)s[3];
    } else if (tt->ndim == 3) {
        d[0] = (uint32_t)s[0]; d[1] = (uint32_t)s[1];
        if (rect) { d[2] = (uint32_t)s[2]; d[3] = 1u; }
        else { d[2] = 1u; d[3] = (uint32_t)s[2]; }
    } else {
        d[0] = 1u; d[1] = (uint32_t)s[0]; d[2] = 1u; d[3] = (uint32_t)s[1];
    }
    count = 1;
    for (i = 0; i < 4; i++) {
        count *= d[i];
        if (count > tt->size_bytes) return TIGRIS_MEM_ERR_BAD_INDEX;
    }
    elem = tt->size_bytes / (uint32_t)count;
    if (elem == 0 || (uint64_t)elem * count != tt->size_bytes) return TIGRIS_MEM_ERR_BAD_INDEX;
    v->n = d[0];
    v->h = d[1];
    v->w = d[2];
    v->pix = d[3] * elem;
    v->row = v->w * v->pix;
    v->size = tt->size_bytes;
    return TIGRIS_MEM_OK;
}

static int rows_ok(const band_view_t *v, int32_t h0, int32_t h1) {
    return h0 >= 0 && h0 < h1 && (uint32_t)h1 <= v->h;
}

static int cols_ok(const band_view_t *v, int32_t w0, int32_t w1) {
    return w0 >= 0 && w0 < w1 && (uint32_t)w1 <= v->w;
}

/* The whole tensor at dst must lie inside one pool: the scatter writes
 * across every batch of it. */
static int extent_in_pool(const tigris_mem_t *mem, const uint8_t *dst, uint32_t size) {
    uintptr_t a = (uintptr_t)dst, b;
    if (tigris__mem_in_slow(mem, dst)) {
        b = (uintptr_t)mem->slow_base;
        return size <= mem->slow_size - (uint32_t)(a - b);
    }
    if (tigris__mem_in_fast(mem, dst)) {
        b = (uintptr_t)mem->fast_base;
        return size <= mem->fast_size - (uint32_t)(a - b);
    }
    return 0;
}

/* Moves one band or rectangle between the full tensor `full` and the packed
 * buffer `packed`, in the direction `to_packed` says. */
static void band_copy(const band_view_t *v, uint8_t *full, uint8_t *packed, uint32_t h0, uint32_t h1, uint32_t w0,
                      uint32_t w1, int to_packed) {
    uint32_t run = (w1 - w0) * v->pix;
    uint32_t n, h;
    uint8_t *p = packed;
    int whole_rows = (w0 == 0 && w1 == v->w);
    for (n = 0; n < v->n; n++) {
        uint8_t *batch = full + n * (v->h * v->row);
        if (whole_rows) {
            /* Full-width bands are one contiguous run per batch. */
            uint32_t len = (h1 - h0) * v->row;
            if (to_packed) memmove(p, batch + h0 * v->row, len);
            else memmove(batch + h0 * v->row, p, len);
            p += len;
            continue;
        }
        for (h = h0; h < h1; h++) {
            uint8_t *f = batch + h * v->row + w0 * v->pix;
            if (to_packed) memmove(p, f, run);
            else memmove(f, p, run);
            p += run;
        }
    }
}

static tigris_mem_error_t load_band(tigris_mem_t *mem, const tigris_plan_t *plan, uint16_t t, int rect, int32_t h0,
                                    int32_t h1, int32_t w0, int32_t w1) {
    band_view_t v;
    uint8_t *src;
    uint32_t bytes, off;
    tigris_mem_error_t e = placed_source(mem, t, &src);
    if (e != TIGRIS_MEM_OK) return e;
    e = view_of(plan, t, rect, &v);
    if (e != TIGRIS_MEM_OK) return e;
    if (!rect) {
        w0 = 0;
        w1 = (int32_t)v.w;
    }
    if (!rows_ok(&v, h0, h1) || !cols_ok(&v, w0, w1)) return TIGRIS_MEM_ERR_BAD_INDEX;
    bytes = v.n * (uint32_t)(h1 - h0) * (uint32_t)(w1 - w0) * v.pix;
    e = bump(mem, 0, t, bytes, &off);
    if (e != TIGRIS_MEM_OK) return e;
    band_copy(&v, src, mem->fast_base + off, (uint32_t)h0, (uint32_t)h1, (uint32_t)w0, (uint32_t)w1, 1);
    add_loads(mem, bytes);
    TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_LOAD, TIGRIS_TRACE_POOL_FAST, t, NONE16, off,
                      pool_offset(mem, src) + (uint32_t)h0 * v.row + (uint32_t)w0 * v.pix, bytes, h0, h1,
                      rect ? w0 : -1, rect ? w1 : -1);
    return TIGRIS_MEM_OK;
}

static tigris_mem_error_t spill_band(tigris_mem_t *mem, const tigris_plan_t *plan, uint16_t t, uint8_t *dst, int rect,
                                     int32_t h0, int32_t h1, int32_t w0, int32_t w1) {
    band_view_t v;
    uint8_t *src;
    uint32_t bytes;
    tigris_mem_error_t e = placed_source(mem, t, &src);
    if (e != TIGRIS_MEM_OK) return e;
    if (!dst) return TIGRIS_MEM_ERR_NULL;
    e = view_of(plan, t, rect, &v);
    if (e != TIGRIS_MEM_OK) return e;
    if (!rect) {
        w0 = 0;
        w1 = (int32_t)v.w;
    }
    if (!rows_ok(&v, h0, h1) || !cols_ok(&v, w0, w1)) return TIGRIS_MEM_ERR_BAD_INDEX;
    if (!extent_in_pool(mem, dst, v.size)) return TIGRIS_MEM_ERR_BAD_INDEX;
    bytes = v.n * (uint32_t)(h1 - h0) * (uint32_t)(w1 - w0) * v.pix;
    band_copy(&v, dst, src, (uint32_t)h0, (uint32_t)h1, (uint32_t)w0, (uint32_t)w1, 0);
    mem->tensor_ptrs[t] = dst;
    add_spills(mem, bytes);
    TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_SPILL, TIGRIS_TRACE_POOL_SLOW, t, NONE16,
                      pool_offset(mem, dst) + (uint32_t)h0 * v.row + (uint32_t)w0 * v.pix, pool_offset(mem, src),
                      bytes, h0, h1, rect ? w0 : -1, rect ? w1 : -1);
    return TIGRIS_MEM_OK;
}

tigris_mem_error_t tigris__mem_load_tile(tigris_mem_t *mem, const tigris_plan_t *plan, uint16_t t, int32_t h0,
                                         int32_t h1) {
    return load_band(mem, plan, t, 0, h0, h1, 0, 0);
}

tigris_mem_error_t tigris__mem_spill_tile(tigris_mem_t *mem, const tigris_plan_t *plan, uint16_t t,
                                          uint8_t *slow_dst, int32_t h0, int32_t h1) {
    return spill_band(mem, plan, t, slow_dst, 0, h0, h1, 0, 0);
}

tigris_mem_error_t tigris__mem_load_rect(tigris_mem_t *mem, const tigris_plan_t *plan, uint16_t t, int32_t h0,
                                         int32_t h1, int32_t w0, int32_t w1) {
    return load_band(mem, plan, t, 1, h0, h1, w0, w1);
}

tigris_mem_error_t tigris__mem_spill_rect(tigris_mem_t *mem, const tigris_plan_t *plan, uint16_t t,
                                          uint8_t *slow_dst, int32_t h0, int32_t h1, int32_t w0, int32_t w1) {
    return spill_band(mem, plan, t, slow_dst, 1, h0, h1, w0, w1);
}

void tigris__mem_reset_fast(tigris_mem_t *mem) {
    if (!mem) return;
    mem->fast_used = mem->fast_reserved;
    TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_RESET, TIGRIS_TRACE_POOL_FAST, NONE16, NONE16, mem->fast_used, 0u, 0u, -1,
                      -1, -1, -1);
}

/* Slides every tensor that starts in [first, cap) down to a packed run
 * starting at `first`, in address order; returns the end of that run.
 * Aliases (equal pointers) move together. A tensor's extent is its aligned
 * full size, cut at the pool end so a band whose full size would reach past
 * the pool never makes the move leave it. */
static uint32_t compact(tigris_mem_t *mem, const tigris_plan_t *plan, int slow, uint32_t first, uint32_t cap) {
    uint8_t *base = slow ? mem->slow_base : mem->fast_base;
    uint32_t n = mem->num_tensors, wp = first, cursor = first;
    uint32_t i;
    if (plan->header->num_tensors < n) n = plan->header->num_tensors;
    for (;;) {
        uint32_t best = NONE16, best_off = 0, size, old;
        for (i = 0; i < n; i++) {
            const uint8_t *p = (const uint8_t *)mem->tensor_ptrs[i];
            uint32_t o;
            if (!p || (uintptr_t)p < (uintptr_t)base || (uintptr_t)p - (uintptr_t)base >= cap) continue;
            o = (uint32_t)((uintptr_t)p - (uintptr_t)base);
            if (o < cursor) continue;
            if (best == NONE16 || o < best_off) {
                best = i;
                best_off = o;
            }
        }
        if (best == NONE16) break;
        old = best_off;
        if (tigris__align_size(plan->tensors[best].size_bytes, &size) != 0 || size > cap - old) size = cap - old;
        if (old != wp) {
            memmove(base + wp, base + old, size);
            for (i = 0; i < n; i++) {
                if (mem->tensor_ptrs[i] == (void *)(base + old)) mem->tensor_ptrs[i] = base + wp;
            }
            TIGRIS_TRACE_EMIT(mem, TIGRIS_TRACE_MOVE, slow ? TIGRIS_TRACE_POOL_SLOW : TIGRIS_TRACE_POOL_FAST,
                              (uint16_t)best, NONE16, wp, old, size, -1, -1, -1, -1);
        }
        wp += size;
        /* An empty tensor still has to advance the scan past its address. */
        cursor = old + (size ? size : 1u);
        if (cursor >= cap) break;
    }
    if (mem->stats) mem->stats->compactions++;
    return wp;
}

void tigris__mem_compact_fast(tigris_mem_t *mem, const tigris_plan_t *plan) {
    if (!mem || !mem->tensor_ptrs || !plan || !plan->header || !plan->tensors || !mem->fast_base) return;
    if (mem->fast_reserved > mem->fast_size) return;
    mem->fast_used = compact(mem, plan, 0, mem->fast_reserved, mem->fast_size);
}

void tigris__mem_compact_slow(tigris_mem_t *mem, const tigris_plan_t *plan) {
    if (!mem || !mem->tensor_ptrs || !plan || !plan->header || !plan->tensors) return;
    if (!mem->slow_base) {
        if (mem->stats) mem->stats->compactions++;
        return;
    }
    /* Packing from the first aligned byte rather than from offset 0 keeps
     * every moved tensor aligned when the caller's slow buffer is not; for an
     * aligned buffer the two are the same. */
    mem->slow_used = compact(mem, plan, 1, align_gap(mem->slow_base), mem->slow_size);
}

const char *tigris_mem_error_str(tigris_mem_error_t err) {
    switch (err) {
    case TIGRIS_MEM_OK: return "ok";
    case TIGRIS_MEM_ERR_NULL: return "null pointer argument";
    case TIGRIS_MEM_ERR_OOM: return "out of memory in arena";
    case TIGRIS_MEM_ERR_BAD_INDEX: return "tensor index or band out of range";
    case TIGRIS_MEM_ERR_NOT_SET: return "tensor pointer is not set";
    default: return "unknown memory error";
    }
}
