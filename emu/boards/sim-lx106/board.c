/*
 * board.c - C startup, console, exit and fault report for the Xtensa sim.
 *
 * Console and exit use the Xtensa ISS simcall convention (QEMU needs
 * -semihosting): a2 = call number, a3..a5 = arguments, result in a2.
 */
#include <stdint.h>

#include "../../harness/board.h"
#include "../../harness/report.h"
#include "../../harness/tigris_emu_protocol.h"

#define SIMCALL_EXIT 1
#define SIMCALL_WRITE 4

extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];

static int simcall(int nr, int a, int b, int c) {
    register int a2 __asm__("a2") = nr;
    register int a3 __asm__("a3") = a;
    register int a4 __asm__("a4") = b;
    register int a5 __asm__("a5") = c;
    __asm__ volatile("simcall" : "+r"(a2), "+r"(a3) : "r"(a4), "r"(a5) : "memory");
    return a2;
}

void emu_console_write(const char *s, uint32_t n) {
    while (n) {
        int w = simcall(SIMCALL_WRITE, 1, (int)(uintptr_t)s, (int)n);
        if (w <= 0) return;
        s += w;
        n -= (uint32_t)w;
    }
}

void emu_exit(int status) {
    for (;;) simcall(SIMCALL_EXIT, status, 0, 0);
}

/* CCOUNT runs at the core clock from reset; 32 bits. */
void emu_timer_start(void) {}

uint32_t emu_timer_now(void) {
    uint32_t c;
    __asm__ volatile("rsr.ccount %0" : "=r"(c));
    return c;
}

__attribute__((used, noreturn)) void emu_c_start(void);
__attribute__((used, noreturn)) void emu_c_start(void) {
    uint32_t *src = __data_load, *dst = __data_start;
    while (dst < __data_end) *dst++ = *src++;
    for (dst = __bss_start; dst < __bss_end; dst++) *dst = 0;
    emu_exit(emu_main());
}

__attribute__((used, noreturn)) void emu_xt_fault_report(uint32_t vector, uint32_t epc1, uint32_t cause,
                                                         uint32_t vaddr, uint32_t depc);
__attribute__((used, noreturn)) void emu_xt_fault_report(uint32_t vector, uint32_t epc1, uint32_t cause,
                                                         uint32_t vaddr, uint32_t depc) {
    rep_flush();
    /* A double exception records its PC in DEPC, every other one in EPC1. */
    rep_str("\n@fault pc ");
    rep_hex32(vector == 5 ? depc : epc1);
    rep_str(" vector ");
    rep_u32(vector);
    rep_str(" exccause ");
    rep_u32(cause);
    rep_str(" excvaddr ");
    rep_hex32(vaddr);
    rep_char('\n');
    rep_kv("end", TIGRIS_EMU_EXIT_FAULT);
    rep_flush();
    emu_exit(TIGRIS_EMU_EXIT_FAULT);
}
