/*
 * main.c - the generic firmware harness: one image per board, any plan.
 *
 * QEMU's loader device has put a run descriptor (tigris_emu_protocol.h), the
 * plan and the model inputs into the board's load region. The harness checks
 * every range it is given, sets up the arenas, runs the plan with the chosen
 * backend and prints the report (docs/emu.md). Instruction counts are taken
 * outside the guest: the count plugin records its counter whenever
 * tigris_emu_mark() runs, and the harness calls it around the run and around
 * every kernel call, logging which op each bracket belongs to.
 */
#include <stdint.h>
#include <string.h>

#include "backend.h"
#include "board.h"
#include "report.h"
#include "tigris_emu_protocol.h"
#include "tigris_executor.h"
#include "tigris_iface.h"
#include "tigris_kernels.h"
#include "tigris_loader.h"

/* The measurement point: one instruction (a return), never inlined, so the
 * plugin sees it execute exactly when the harness means it to. */
__attribute__((noipa, used)) void tigris_emu_mark(void) { __asm__ volatile("" ::: "memory"); }

/* Kernel calls beyond this many are still run, but not bracketed. */
#define EMU_MAX_LOGGED_CALLS 16384u

typedef struct {
    tigris_kernel_fn inner;
    uint16_t *log;  /* op index of each bracketed call */
    uint32_t *ticks; /* cycle-timer ticks of each bracketed call, or NULL */
    uint32_t cap;
    uint32_t calls;
} emu_calls_t;

static int emu_kernel(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                      void *user) {
    emu_calls_t *c = (emu_calls_t *)user;
    int rc;
    if (c->calls < c->cap) {
        c->log[c->calls] = op_index;
        uint32_t t0 = c->ticks ? emu_timer_now() : 0;
        tigris_emu_mark();
        rc = c->inner(plan, op, op_index, mem, 0);
        tigris_emu_mark();
        if (c->ticks) c->ticks[c->calls] = emu_timer_now() - t0;
    } else {
        rc = c->inner(plan, op, op_index, mem, 0);
    }
    c->calls++;
    return rc;
}

/* A bump allocator over one region; every request is checked. */
typedef struct {
    uintptr_t at, end;
} emu_pool_t;

static void *pool_take(emu_pool_t *p, uint32_t bytes, uint32_t align) {
    uintptr_t a = (p->at + (align - 1)) & ~(uintptr_t)(align - 1);
    if (a < p->at || a > p->end || p->end - a < bytes) return 0;
    p->at = a + bytes;
    return (void *)a;
}

__attribute__((noreturn)) static void finish(int status) {
    rep_kv("end", (uint32_t)status);
    rep_flush();
    emu_exit(status);
}

__attribute__((noreturn)) static void fail(int status, const char *kind, int32_t code, const char *msg) {
    rep_str("@error ");
    rep_str(kind);
    rep_char(' ');
    rep_i32(code);
    rep_char(' ');
    rep_str(msg);
    rep_char('\n');
    finish(status);
}

/* fail() with "<what> needs N bytes; the board has M". */
__attribute__((noreturn)) static void fail_memory(const char *what, uint32_t need, uint32_t have) {
    rep_str("@error memory 0 ");
    rep_str(what);
    rep_str(" needs ");
    rep_u32(need);
    rep_str(" bytes; the board has ");
    rep_u32(have);
    rep_char('\n');
    finish(TIGRIS_EMU_EXIT_MEMORY);
}

static int in_load_region(uint32_t addr, uint32_t size) {
    uintptr_t lo = (uintptr_t)__emu_load_start, hi = (uintptr_t)__emu_load_end;
    return addr >= lo && addr <= hi && hi - addr >= size;
}

static void print_header(void) {
    rep_str("@tigris-emu 1\n@board ");
    rep_str(emu_board_name);
    rep_str("\n@cpu ");
    rep_str(emu_cpu_name);
    rep_str("\n@accel ");
    rep_str(emu_accel_backend() ? emu_accel_backend()->name : "none");
    rep_str("\n@vendor ");
    rep_str(emu_vendor_backend() ? emu_vendor_backend()->name : "none");
    rep_char('\n');
}

static void print_stats(const tigris_exec_stats_t *s, const tigris_mem_t *mem) {
    rep_kv("fast_peak", mem->fast_peak);
    rep_kv("slow_peak", mem->slow_peak);
    rep_kv("stages_normal", s->stages_normal);
    rep_kv("stages_tiled", s->stages_tiled);
    rep_kv("stages_chain", s->stages_chain);
    rep_kv("total_tiles", s->total_tiles);
    rep_kv("loads_bytes", s->loads_bytes);
    rep_kv("spills_bytes", s->spills_bytes);
    rep_kv("compactions", s->compactions);
    rep_kv("weight_bytes", s->weight_bytes);
    rep_kv("copy_bytes", s->copy_bytes);
}

static void print_list(const char *key, uint32_t n, const uint16_t *u16, const uint32_t *u32) {
    for (uint32_t i = 0; i < n; i++) {
        if ((i & 31u) == 0) {
            if (i) rep_char('\n');
            rep_char('@');
            rep_str(key);
        }
        rep_char(' ');
        rep_u32(u16 ? u16[i] : u32[i]);
    }
    if (n) rep_char('\n');
}

static void print_log(const emu_calls_t *c) {
    uint32_t n = c->calls < c->cap ? c->calls : c->cap;
    rep_kv("calls", c->calls);
    rep_kv("logged", n);
    print_list("log", n, c->log, 0);
    if (c->ticks) print_list("ticks", n, 0, c->ticks);
}

int emu_main(void) {
    const tigris_emu_desc_t *d = (const tigris_emu_desc_t *)(uintptr_t)__emu_load_start;
    print_header();
    if (d->magic != TIGRIS_EMU_MAGIC || d->version != TIGRIS_EMU_VERSION)
        fail(TIGRIS_EMU_EXIT_DESCRIPTOR, "descriptor", 0, "no run descriptor at the start of the load region");
    if (!in_load_region(d->plan_addr, d->plan_size) || !in_load_region(d->input_addr, d->input_size) ||
        !in_load_region(d->free_addr, d->free_size) || (d->plan_addr & 15u) != 0)
        fail(TIGRIS_EMU_EXIT_DESCRIPTOR, "descriptor", 0, "a range lies outside the board's load region");

    if (d->debug == TIGRIS_EMU_DEBUG_HANG) {
        rep_str("@debug hang\n");
        rep_flush();
        for (;;) __asm__ volatile("" ::: "memory");
    }
    if (d->debug == TIGRIS_EMU_DEBUG_FAULT) {
        rep_str("@debug fault_site ");
        uint32_t site = (uint32_t)(uintptr_t)tigris_emu_fault_site;
#if defined(__thumb__)
        site &= ~1u; /* a Thumb function address carries the mode bit; the PC does not */
#endif
        rep_hex32(site);
        rep_char('\n');
        rep_flush();
        emu_board_fault_now();
    }

    if (d->backend > TIGRIS_EMU_BACKEND_VENDOR) fail(TIGRIS_EMU_EXIT_DESCRIPTOR, "descriptor", 0, "unknown backend");
    const emu_backend_t *be = d->backend == TIGRIS_EMU_BACKEND_ACCEL    ? emu_accel_backend()
                              : d->backend == TIGRIS_EMU_BACKEND_VENDOR ? emu_vendor_backend()
                                                                        : 0;
    const int accel = d->backend != TIGRIS_EMU_BACKEND_REF;
    if (d->backend == TIGRIS_EMU_BACKEND_ACCEL && !be)
        fail(TIGRIS_EMU_EXIT_NO_ACCEL, "no-accel", 0,
             "this image was built without an accelerated backend (core/src/kernels/arm or xtensa absent)");
    if (d->backend == TIGRIS_EMU_BACKEND_VENDOR && !be)
        fail(TIGRIS_EMU_EXIT_NO_ACCEL, "no-accel", 0,
             "this image was built without a vendor library adapter (configure with -DTIGRIS_CMSIS_NN_DIR=...)");

    tigris_plan_t plan;
    tigris_error_t le = tigris_plan_load((const uint8_t *)(uintptr_t)d->plan_addr, d->plan_size, &plan);
    if (le != TIGRIS_OK) fail(TIGRIS_EMU_EXIT_PLAN, "plan", le, tigris_error_str(le));

    const int s8 = tigris_plan_data_dtype(&plan) == TIGRIS_DTYPE_INT8;
    tigris_kernel_fn kernel;
    const char *kname;
    if (accel) {
        kernel = be->dispatch;
        kname = be->name;
    } else {
#if TIGRIS_ENABLE_F32
        kernel = s8 ? tigris_dispatch_kernel_s8 : tigris_dispatch_kernel;
        kname = s8 ? "s8" : "f32";
#else
        /* A core configured without float kernels (TIGRIS_ENABLE_F32=OFF):
         * the loader has already refused float plans with
         * TIGRIS_ERR_KERNEL_DISABLED. */
        (void)s8;
        kernel = tigris_dispatch_kernel_s8;
        kname = "s8";
#endif
    }
    rep_str(!accel ? "@backend ref " : d->backend == TIGRIS_EMU_BACKEND_VENDOR ? "@backend vendor " : "@backend accel ");
    rep_str(kname);
    rep_char('\n');

    /* Fast arena: in the board's fast RAM. */
    const uint32_t fast_required = accel ? be->fast_required(&plan) : tigris_fast_arena_required(&plan);
    if (fast_required == UINT32_MAX) fail(TIGRIS_EMU_EXIT_PREPARE, "prepare", -1, "the backend cannot size this plan");
    const uint32_t fast_size = d->fast_size ? d->fast_size : fast_required;
    rep_kv("fast_required", fast_required);
    rep_kv("fast_size", fast_size);
    emu_pool_t fast_pool = {(uintptr_t)__emu_fast_start, (uintptr_t)__emu_fast_end};
    uint8_t *fast = (uint8_t *)pool_take(&fast_pool, fast_size, 64);
    if (!fast) fail_memory("the fast arena", fast_size, (uint32_t)((uintptr_t)__emu_fast_end - (uintptr_t)__emu_fast_start));

    /* Everything else in the scratch the host left free in the load region. */
    const uint16_t nt = plan.header->num_tensors;
    uint32_t slow_size = d->slow_size;
    if (!slow_size) {
        uint64_t s = 4096; /* the host run's default (service/lib/run.cpp) */
        for (uint16_t t = 0; t < nt; t++) s += 2ull * (plan.tensors[t].size_bytes + 64u);
        slow_size = s > 0xFFFFFFF0u ? 0xFFFFFFF0u : (uint32_t)s;
    }
    rep_kv("slow_size", slow_size);
    emu_pool_t slow_pool = {(uintptr_t)d->free_addr, (uintptr_t)d->free_addr + d->free_size};
    uint8_t *slow = (uint8_t *)pool_take(&slow_pool, slow_size, 64);
    if (!slow) fail_memory("the slow buffer", slow_size, d->free_size);
    void **ptrs = (void **)pool_take(&slow_pool, (uint32_t)nt * sizeof(void *), 8);
    const size_t ws_size = tigris_executor_workspace_required(&plan);
    void *ws = pool_take(&slow_pool, (uint32_t)ws_size, 16);
    const size_t state_size = tigris_state_required(&plan);
    void *state = state_size ? pool_take(&slow_pool, (uint32_t)state_size, 16) : 0;
    uint32_t out_max = 0;
    for (uint8_t i = 0; i < plan.header->num_model_outputs; i++) {
        uint32_t n = tigris_iface_bytes(&plan, plan.model_outputs[i]);
        if (n > out_max) out_max = n;
    }
    uint8_t *out = (uint8_t *)pool_take(&slow_pool, out_max, 16);
    if (!ptrs || !ws || (state_size && !state) || (out_max && !out))
        fail_memory("tensor table, workspace, state and output buffer", (uint32_t)(ws_size + state_size + out_max),
                    d->free_size);

    const int timed = (d->flags & TIGRIS_EMU_FLAG_TIMER) != 0;
    emu_calls_t calls = {kernel, 0, 0, 0, 0};
    if (d->flags & TIGRIS_EMU_FLAG_OP_MARKS) {
        uint32_t room = (uint32_t)(slow_pool.end - slow_pool.at) / 8u;
        calls.cap = room < EMU_MAX_LOGGED_CALLS ? room : EMU_MAX_LOGGED_CALLS;
        calls.log = (uint16_t *)pool_take(&slow_pool, calls.cap * 2u, 2);
        if (timed) calls.ticks = (uint32_t *)pool_take(&slow_pool, calls.cap * 4u, 4);
        if (!calls.log || (timed && !calls.ticks)) calls.cap = 0;
    }

    tigris_mem_t mem;
    for (uint16_t t = 0; t < nt; t++) ptrs[t] = 0;
    tigris_mem_error_t me = tigris_mem_init(&mem, ptrs, nt, fast, fast_size, slow, slow_size);
    if (me != TIGRIS_MEM_OK) fail(TIGRIS_EMU_EXIT_RUN, "memory-init", me, tigris_mem_error_str(me));
    if (accel) {
        int pr = be->prepare(&plan, &mem);
        if (pr != 0) fail(TIGRIS_EMU_EXIT_PREPARE, "prepare", pr, "the accelerated backend refused to prepare this plan");
    }

    /* Model inputs, split by the plan's declared sizes. */
    const uint32_t need = tigris_inputs_bytes(&plan);
    if (need != d->input_size) fail(TIGRIS_EMU_EXIT_IO, "input", (int32_t)need, "input bytes differ from what the plan's model inputs take");
    tigris_error_t we = tigris_inputs_write(&plan, &mem, (const void *)(uintptr_t)d->input_addr, need);
    if (we != TIGRIS_OK) fail(TIGRIS_EMU_EXIT_IO, "input", we, tigris_error_str(we));
    if (state_size) {
        tigris_exec_error_t se = tigris_state_init(&plan, state, state_size);
        if (se != TIGRIS_EXEC_OK) fail(TIGRIS_EMU_EXIT_RUN, "state", se, tigris_exec_error_str(se));
    }

    tigris_exec_stats_t stats;
    memset(&stats, 0, sizeof stats);
    const int marks = (d->flags & TIGRIS_EMU_FLAG_OP_MARKS) != 0;
    rep_flush(); /* keep console traps out of the measured span */
    if (timed) emu_timer_start();
    const uint32_t run_t0 = timed ? emu_timer_now() : 0;
    tigris_emu_mark();
    tigris_exec_error_t xe = tigris_run_with_state(&plan, &mem, marks ? emu_kernel : kernel, marks ? &calls : 0,
                                                   &stats, ws, ws_size, state, state_size);
    tigris_emu_mark();
    if (timed) rep_kv("ticks_run", emu_timer_now() - run_t0);
    if (accel) be->deinit(&mem);
    print_log(&calls);
    print_stats(&stats, &mem);
    if (xe != TIGRIS_EXEC_OK) fail(TIGRIS_EMU_EXIT_RUN, "run", xe, tigris_exec_error_str(xe));

    for (uint8_t i = 0; i < plan.header->num_model_outputs; i++) {
        uint16_t t = plan.model_outputs[i];
        uint32_t n = tigris_iface_bytes(&plan, t);
        tigris_error_t oe = tigris_output_read(&plan, &mem, t, out, n);
        if (oe != TIGRIS_OK) fail(TIGRIS_EMU_EXIT_IO, "output", oe, tigris_error_str(oe));
        rep_str("@output ");
        rep_u32(i);
        rep_char(' ');
        rep_u32(n);
        rep_char('\n');
        rep_hex_bytes(out, n);
    }
    finish(TIGRIS_EMU_EXIT_OK);
}
