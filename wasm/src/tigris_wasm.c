/*
 * tigris_wasm.c - the core's entry points for JavaScript (wasm/tigris.js).
 *
 * One context holds a private, aligned copy of the plan, the loaded plan
 * handle, and the results of the last run: output bytes, statistics and the
 * trace as packed 48-byte tigris_trace_event_t records, so JavaScript reads
 * them through typed-array views on the heap instead of one object per event.
 * This file is the only place the wasm build allocates: the core itself still
 * never touches the heap (the arenas are malloc'd here and handed to it).
 */
#include <emscripten/emscripten.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_iface.h"
#include "tigris_kernels.h"
#include "tigris_loader.h"
#include "tigris_mem.h"
#include "tigris_trace.h"

typedef struct {
    uint8_t *bytes; /* 64-aligned copy of the plan */
    tigris_plan_t plan;
    int load_error;
    char *summary;
    /* last run */
    uint8_t *outputs;
    uint32_t outputs_len;
    tigris_trace_event_t *events;
    uint32_t num_events, cap_events;
    int events_overflow;
    tigris_exec_stats_t stats;
    uint32_t fast_size, slow_size, fast_peak, slow_peak;
    double core_ms; /* tigris_run_with_state alone (what native benchmarks time) */
} tw_ctx;

/* Setup failures of tw_run, below every core error code. */
#define TW_ERR_NO_PLAN -100
#define TW_ERR_ALLOC -101
#define TW_ERR_INPUT_SIZE -102
#define TW_ERR_INPUT -103
#define TW_ERR_MEM_INIT -104
#define TW_ERR_OUTPUT -105

/* ---- a small JSON writer into a growing buffer ---- */

typedef struct {
    char *p;
    size_t len, cap;
    int failed;
} tw_buf;

static void put(tw_buf *b, const char *s, size_t n) {
    if (b->failed) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + n + 1) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->failed = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}
static void puts_(tw_buf *b, const char *s) { put(b, s, strlen(s)); }
static void putf(tw_buf *b, const char *fmt, unsigned long long v) {
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, fmt, v);
    put(b, tmp, (size_t)n);
}
static void put_int(tw_buf *b, long long v) {
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%lld", v);
    put(b, tmp, (size_t)n);
}
/* A JSON string: quotes, backslashes and control bytes escaped. */
static void put_str(tw_buf *b, const char *s) {
    puts_(b, "\"");
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            put(b, e, 2);
        } else if (c < 0x20) {
            putf(b, "\\u%04llx", c);
        } else {
            put(b, (const char *)&c, 1);
        }
    }
    puts_(b, "\"");
}

static const char *dtype_name(uint8_t d) {
    const char *name = tigris_dtype_name(d);
    return name ? name : "unknown";
}

static void put_tensor(tw_buf *b, const tigris_plan_t *p, uint16_t i) {
    const tigris_tensor_t *t = &p->tensors[i];
    const int32_t *dims = tigris_tensor_shape(p, t);
    puts_(b, "{\"index\":");
    put_int(b, i);
    puts_(b, ",\"name\":");
    put_str(b, tigris_tensor_name(p, t));
    puts_(b, ",\"stored_dtype\":");
    put_str(b, dtype_name(t->dtype));
    puts_(b, ",\"declared_dtype\":");
    put_str(b, dtype_name(tigris_tensor_declared_dtype(t)));
    puts_(b, ",\"shape\":[");
    for (uint8_t k = 0; k < t->ndim; k++) {
        if (k) puts_(b, ",");
        put_int(b, dims[k]);
    }
    puts_(b, "],\"stored_bytes\":");
    put_int(b, t->size_bytes);
    puts_(b, ",\"declared_bytes\":");
    put_int(b, tigris_iface_bytes(p, i));
    puts_(b, "}");
}

/* The plan summary, with the field names of `tigris inspect --json`'s plan
 * object, plus every tensor and op name the trace refers to. */
static char *make_summary(const tigris_plan_t *p) {
    tw_buf b = {0};
    const tigris_file_header_t *h = p->header;
    puts_(&b, "{\"schema\":");
    put_int(&b, h->version);
    puts_(&b, ",\"model_name\":");
    put_str(&b, tigris_model_name(p));
    puts_(&b, ",\"data_dtype\":");
    put_str(&b, dtype_name(tigris_plan_data_dtype(p)));
    puts_(&b, ",\"counts\":{\"tensors\":");
    put_int(&b, h->num_tensors);
    puts_(&b, ",\"ops\":");
    put_int(&b, h->num_ops);
    puts_(&b, ",\"stages\":");
    put_int(&b, h->num_stages);
    puts_(&b, ",\"weights\":");
    put_int(&b, h->num_weights);
    puts_(&b, "},\"inputs\":[");
    for (uint8_t i = 0; i < h->num_model_inputs; i++) {
        if (i) puts_(&b, ",");
        put_tensor(&b, p, p->model_inputs[i]);
    }
    puts_(&b, "],\"outputs\":[");
    for (uint8_t i = 0; i < h->num_model_outputs; i++) {
        if (i) puts_(&b, ",");
        put_tensor(&b, p, p->model_outputs[i]);
    }
    puts_(&b, "],\"stages\":[");
    for (uint16_t s = 0; s < h->num_stages; s++) {
        const tigris_stage_t *st = &p->stages[s];
        const uint16_t *ops = tigris_stage_ops(p, st);
        if (s) puts_(&b, ",");
        puts_(&b, "{\"index\":");
        put_int(&b, s);
        puts_(&b, ",\"peak_bytes\":");
        put_int(&b, st->peak_bytes);
        puts_(&b, ",\"chain_len\":");
        put_int(&b, st->chain_len);
        puts_(&b, ",\"ops\":[");
        for (uint16_t k = 0; k < st->ops_count; k++) {
            if (k) puts_(&b, ",");
            put_int(&b, ops[k]);
        }
        puts_(&b, "]}");
    }
    puts_(&b, "],\"memory\":{\"budget\":");
    put_int(&b, h->budget);
    puts_(&b, ",\"fast_arena_required\":");
    put_int(&b, tigris_fast_arena_required(p));
    puts_(&b, ",\"decompression_overhead\":");
    put_int(&b, tigris_weight_decompression_overhead(p));
    puts_(&b, ",\"executor_workspace_bytes\":");
    put_int(&b, (long long)tigris_executor_workspace_required(p));
    puts_(&b, "},\"tensor_names\":[");
    for (uint16_t t = 0; t < h->num_tensors; t++) {
        if (t) puts_(&b, ",");
        put_str(&b, tigris_tensor_name(p, &p->tensors[t]));
    }
    /* Every tensor with its shape and bytes (the viewer's tensor table). */
    puts_(&b, "],\"tensors\":[");
    for (uint16_t t = 0; t < h->num_tensors; t++) {
        if (t) puts_(&b, ",");
        put_tensor(&b, p, t);
    }
    puts_(&b, "],\"op_names\":[");
    for (uint16_t o = 0; o < h->num_ops; o++) {
        if (o) puts_(&b, ",");
        put_str(&b, tigris_op_name(p, &p->ops[o]));
    }
    puts_(&b, "]}");
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

static void clear_run(tw_ctx *c) {
    free(c->outputs);
    c->outputs = NULL;
    c->outputs_len = 0;
    c->num_events = 0;
    c->events_overflow = 0;
    memset(&c->stats, 0, sizeof c->stats);
    c->fast_size = c->slow_size = c->fast_peak = c->slow_peak = 0;
    c->core_ms = 0;
}

static void on_event(const tigris_trace_event_t *ev, void *user) {
    tw_ctx *c = user;
    if (c->num_events == c->cap_events) {
        uint32_t cap = c->cap_events ? c->cap_events * 2 : 4096;
        tigris_trace_event_t *q = realloc(c->events, (size_t)cap * sizeof *q);
        if (!q) {
            c->events_overflow = 1;
            return;
        }
        c->events = q;
        c->cap_events = cap;
    }
    c->events[c->num_events++] = *ev;
}

/* ---- exported API ---- */

EMSCRIPTEN_KEEPALIVE tw_ctx *tw_open(const uint8_t *bytes, uint32_t len) {
    tw_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->bytes = aligned_alloc(64, ((size_t)len + 63) & ~(size_t)63);
    if (!c->bytes && len) {
        free(c);
        return NULL;
    }
    if (len) memcpy(c->bytes, bytes, len);
    c->load_error = tigris_plan_load(c->bytes, len, &c->plan);
    if (c->load_error == TIGRIS_OK) c->summary = make_summary(&c->plan);
    return c;
}

EMSCRIPTEN_KEEPALIVE void tw_close(tw_ctx *c) {
    if (!c) return;
    clear_run(c);
    free(c->events);
    free(c->summary);
    free(c->bytes);
    free(c);
}

EMSCRIPTEN_KEEPALIVE int tw_load_error(const tw_ctx *c) { return c ? c->load_error : TIGRIS_ERR_NULL; }
EMSCRIPTEN_KEEPALIVE const char *tw_error_str(int code) { return tigris_error_str((tigris_error_t)code); }
EMSCRIPTEN_KEEPALIVE const char *tw_exec_error_str(int code) {
    switch (code) {
    case TW_ERR_NO_PLAN: return "no plan is loaded";
    case TW_ERR_ALLOC: return "the browser could not allocate the arenas";
    case TW_ERR_INPUT_SIZE: return "the inputs do not have the size the model inputs need";
    case TW_ERR_INPUT: return "a model input could not be placed in the arenas (larger arenas?)";
    case TW_ERR_MEM_INIT: return "the arenas are too small to set up";
    case TW_ERR_OUTPUT: return "a model output could not be read";
    default: return tigris_exec_error_str((tigris_exec_error_t)code);
    }
}
EMSCRIPTEN_KEEPALIVE const char *tw_summary(const tw_ctx *c) { return c ? c->summary : NULL; }
EMSCRIPTEN_KEEPALIVE uint32_t tw_fast_required(const tw_ctx *c) {
    return c && c->load_error == TIGRIS_OK ? tigris_fast_arena_required(&c->plan) : 0;
}

/* Default slow arena: room for every tensor twice (as the host CLI sizes it). */
EMSCRIPTEN_KEEPALIVE uint32_t tw_default_slow(const tw_ctx *c) {
    if (!c || c->load_error != TIGRIS_OK) return 0;
    uint64_t slow = 4096;
    for (uint16_t t = 0; t < c->plan.header->num_tensors; t++) slow += 2ull * (c->plan.tensors[t].size_bytes + 64);
    return slow > 0x7FFFFFFFu ? 0x7FFFFFFFu : (uint32_t)slow;
}

EMSCRIPTEN_KEEPALIVE uint32_t tw_input_bytes(const tw_ctx *c) {
    if (!c || c->load_error != TIGRIS_OK) return 0;
    return tigris_inputs_bytes(&c->plan);
}

/* One run; backend 0 = by data dtype, 1 = f32, 2 = s8. Returns 0 or an
 * error code (tw_exec_error_str names it). Results stay until the next run. */
EMSCRIPTEN_KEEPALIVE int tw_run(tw_ctx *c, uint32_t fast, uint32_t slow, int backend, const uint8_t *in, uint32_t in_len,
                                int trace) {
    if (!c || c->load_error != TIGRIS_OK) return TW_ERR_NO_PLAN;
    clear_run(c);
    tigris_plan_t *p = &c->plan;
    if (fast == 0) fast = tigris_fast_arena_required(p);
    if (slow == 0) slow = tw_default_slow(c);
    if (in_len != tw_input_bytes(c)) return TW_ERR_INPUT_SIZE;
    if (backend == 0) backend = tigris_plan_data_dtype(p) == TIGRIS_DTYPE_INT8 ? 2 : 1;
    tigris_kernel_fn kernel = backend == 2 ? tigris_dispatch_kernel_s8 : tigris_dispatch_kernel;

    const uint16_t nt = p->header->num_tensors;
    void **ptrs = calloc(nt ? nt : 1, sizeof *ptrs);
    uint8_t *fast_buf = aligned_alloc(64, ((size_t)fast + 63) & ~(size_t)63);
    uint8_t *slow_buf = aligned_alloc(64, ((size_t)slow + 63) & ~(size_t)63);
    size_t ws_len = tigris_executor_workspace_required(p);
    uint8_t *ws = malloc(ws_len ? ws_len : 1);
    void *state = NULL;
    int rc = 0;
    tigris_mem_t mem;
    if (!ptrs || !fast_buf || !slow_buf || !ws) {
        rc = TW_ERR_ALLOC;
        goto out;
    }
    if (tigris_mem_init(&mem, ptrs, nt, fast_buf, fast, slow_buf, slow) != TIGRIS_MEM_OK) {
        rc = TW_ERR_MEM_INIT;
        goto out;
    }
    if (trace) tigris_mem_set_trace(&mem, on_event, c);
    c->fast_size = fast;
    c->slow_size = slow;
    if (tigris_inputs_write(p, &mem, in, in_len) != TIGRIS_OK) {
        rc = TW_ERR_INPUT;
        goto out;
    }
    /* Plans with state start every run from the plan's initial values. */
    size_t st_len = tigris_state_required(p);
    if (st_len) {
        state = malloc(st_len);
        if (!state) {
            rc = TW_ERR_ALLOC;
            goto out;
        }
        rc = tigris_state_init(p, state, st_len);
        if (rc != TIGRIS_EXEC_OK) goto out;
    }
    /* Timed here, not in JavaScript, so the figure covers the same region
     * as the native benchmark (wasm/bench: arenas and inputs set up outside). */
    double t0 = emscripten_get_now();
    rc = tigris_run_with_state(p, &mem, kernel, NULL, &c->stats, ws, ws_len, state, st_len);
    c->core_ms = emscripten_get_now() - t0;
    c->fast_peak = mem.fast_peak;
    c->slow_peak = mem.slow_peak;
    if (rc != TIGRIS_EXEC_OK) goto out;
    uint32_t total = tigris_outputs_bytes(p);
    c->outputs = malloc(total ? total : 1);
    if (!c->outputs) {
        rc = TW_ERR_ALLOC;
        goto out;
    }
    if (tigris_outputs_read(p, &mem, c->outputs, total) != TIGRIS_OK) {
        rc = TW_ERR_OUTPUT;
        goto out;
    }
    c->outputs_len = total;
out:
    free(state);
    free(ws);
    free(slow_buf);
    free(fast_buf);
    free(ptrs);
    return rc;
}

EMSCRIPTEN_KEEPALIVE const uint8_t *tw_outputs(const tw_ctx *c) { return c ? c->outputs : NULL; }
EMSCRIPTEN_KEEPALIVE uint32_t tw_outputs_len(const tw_ctx *c) { return c ? c->outputs_len : 0; }
EMSCRIPTEN_KEEPALIVE const tigris_trace_event_t *tw_events(const tw_ctx *c) { return c ? c->events : NULL; }
EMSCRIPTEN_KEEPALIVE uint32_t tw_num_events(const tw_ctx *c) { return c ? c->num_events : 0; }
EMSCRIPTEN_KEEPALIVE int tw_events_overflow(const tw_ctx *c) { return c ? c->events_overflow : 0; }
EMSCRIPTEN_KEEPALIVE const tigris_exec_stats_t *tw_stats(const tw_ctx *c) { return c ? &c->stats : NULL; }
/* fast_size, slow_size, fast_peak, slow_peak, in that order. */
EMSCRIPTEN_KEEPALIVE uint32_t tw_arena(const tw_ctx *c, int which) {
    if (!c) return 0;
    switch (which) {
    case 0: return c->fast_size;
    case 1: return c->slow_size;
    case 2: return c->fast_peak;
    default: return c->slow_peak;
    }
}
EMSCRIPTEN_KEEPALIVE double tw_core_ms(const tw_ctx *c) { return c ? c->core_ms : 0; }
EMSCRIPTEN_KEEPALIVE uint32_t tw_event_size(void) { return (uint32_t)sizeof(tigris_trace_event_t); }
EMSCRIPTEN_KEEPALIVE uint32_t tw_stats_size(void) { return (uint32_t)sizeof(tigris_exec_stats_t); }
