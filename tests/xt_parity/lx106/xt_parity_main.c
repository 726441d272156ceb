/*
 * xt_parity_main.c - the lx106 parity image: every seeded case of
 * xt_cases.c (whole tensors and bands/tiles) run on the emulated core through
 * the int8 reference and the lx106 backend, compared byte for byte; then
 * benchmark-sized shapes per op type with CCOUNT read around each kernel.
 *
 * Run under -icount shift=5 (1 instruction = 32 ns of virtual time; CCOUNT
 * ticks at 40 MHz, i.e. 0.78125 instructions per tick) the counts are a pure
 * function of the executed instructions; with the emu count plugin each
 * benchmark bracket is also an exact pair of marks (four per shape: before
 * and after the reference, before and after the backend). Report lines:
 *   case <kind> <seed> <banded> MISMATCH|RCDIFF ...   (failures only)
 *   parity <kind> cases <n> tuned <t> failures <f>
 *   shape <kind> <desc> ref_ticks <r> accel_ticks <a>
 *   bench <kind> ref_ticks <r> accel_ticks <a>          (sums over its shapes)
 *   @end <status>
 * Exit status: 0 when every case matched and every benchmark shape ran
 * its tuned kernel, 1 otherwise.
 */
#include <stdint.h>

#include "../../../emu/harness/board.h"
#include "../../../emu/harness/report.h"
#include "../xt_cases.h"

/* One instruction (ret.n): the emu count plugin (emu/plugin/icount.c)
 * records its exact instruction counter each time this runs. */
__attribute__((noinline, used)) void tigris_emu_mark(void);
__attribute__((noinline, used)) void tigris_emu_mark(void) { __asm__ volatile(""); }

/* The counter around each benchmark kernel call: a plugin mark and CCOUNT. */
static uint32_t ccount(void) {
    uint32_t v;
    tigris_emu_mark();
    __asm__ volatile("rsr.ccount %0" : "=a"(v));
    return v;
}

#ifndef XT_PARITY_CASES
#define XT_PARITY_CASES 100
#endif

int emu_main(void) {
    void *arena = __emu_load_start;
    uint32_t arena_size = (uint32_t)(__emu_load_end - __emu_load_start);
    int status = 0;
    for (int kind = 0; kind < XT_K_COUNT; kind++) {
        uint32_t n = 0, tuned = 0, fails = 0;
        for (int banded = 0; banded < 2; banded++) {
            for (uint32_t seed = 1; seed <= XT_PARITY_CASES; seed++) {
                xt_case_result_t r;
                if (xt_case_run(kind, seed, banded, 0, arena, arena_size, 0, &r)) {
                    rep_str("case setup failed\n");
                    return 1;
                }
                n++;
                tuned += (uint32_t)r.tuned;
                if (r.mismatch || r.rc_acc != r.rc_ref) {
                    fails++;
                    rep_str("case ");
                    rep_str(xt_kind_names[kind]);
                    rep_char(' ');
                    rep_u32(seed);
                    rep_char(' ');
                    rep_u32((uint32_t)banded);
                    rep_str(r.mismatch ? " MISMATCH byte " : " RCDIFF ");
                    rep_u32(r.mismatch ? r.mismatch - 1u : 0u);
                    rep_char(' ');
                    rep_str(r.desc);
                    rep_char('\n');
                }
            }
        }
        rep_str("parity ");
        rep_str(xt_kind_names[kind]);
        rep_str(" cases ");
        rep_u32(n);
        rep_str(" tuned ");
        rep_u32(tuned);
        rep_str(" failures ");
        rep_u32(fails);
        rep_char('\n');
        if (fails) status = 1;
    }
    for (int kind = 0; kind < XT_K_COUNT; kind++) {
        uint32_t ref = 0, acc = 0;
        /* two shapes per op type: seed 1 (1x1 or 3-wide windows) and 2 (3x3) */
        for (uint32_t seed = 1; seed <= 2; seed++) {
            xt_case_result_t r;
            if (xt_case_run(kind, seed, 0, 1, arena, arena_size, ccount, &r)) {
                rep_str("bench setup failed\n");
                return 1;
            }
            if (r.mismatch || r.rc_ref || r.rc_acc || !r.tuned) {
                rep_str("bench case failed ");
                rep_str(r.desc);
                rep_char('\n');
                status = 1;
            }
            rep_str("shape ");
            rep_str(xt_kind_names[kind]);
            rep_char(' ');
            rep_str(r.desc);
            rep_str(" ref_ticks ");
            rep_u32(r.cost_ref);
            rep_str(" accel_ticks ");
            rep_u32(r.cost_acc);
            rep_char('\n');
            ref += r.cost_ref;
            acc += r.cost_acc;
        }
        rep_str("bench ");
        rep_str(xt_kind_names[kind]);
        rep_str(" ref_ticks ");
        rep_u32(ref);
        rep_str(" accel_ticks ");
        rep_u32(acc);
        rep_char('\n');
    }
    rep_kv("end", (uint32_t)status);
    rep_flush();
    return status;
}
