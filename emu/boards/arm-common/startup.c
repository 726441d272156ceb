/*
 * startup.c - Cortex-M reset, vector table and fault reporting.
 *
 * QEMU takes the initial SP and PC from the vector table (at the board's
 * code base), not from the ELF entry. Every fault vector goes to one handler
 * that prints the stacked PC and the fault status registers and exits with
 * TIGRIS_EMU_EXIT_FAULT, so a crash is a clear report instead of a hang.
 */
#include <stdint.h>
#include <string.h>

#include "../../harness/board.h"
#include "../../harness/report.h"
#include "../../harness/tigris_emu_protocol.h"

extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[], __stack_top[];

void Reset_Handler(void);
void emu_fault_entry(void);
void emu_c_start(void);

/* Enable the FPU (and MVE on M55: the same CP10/CP11 bits) before any
 * compiled C runs: at -O2 GCC may use FP or vector registers even for the
 * .data copy loop. */
__attribute__((naked, noreturn)) void Reset_Handler(void) {
    __asm__ volatile(
        "ldr r0, =0xE000ED88\n"
        "ldr r1, [r0]\n"
        "orr r1, r1, #(0xF << 20)\n"
        "str r1, [r0]\n"
        "dsb\n"
        "isb\n"
        "b emu_c_start\n");
}

/* Which stack holds the exception frame: bit 2 of EXC_RETURN. */
__attribute__((naked, noreturn)) void emu_fault_entry(void) {
    __asm__ volatile(
        "tst lr, #4\n"
        "ite eq\n"
        "mrseq r0, msp\n"
        "mrsne r0, psp\n"
        "mov r1, lr\n"
        "mrs r2, ipsr\n"
        "b emu_fault_report\n");
}

__attribute__((used, noreturn)) void emu_fault_report(const uint32_t *frame, uint32_t exc_return, uint32_t ipsr);
__attribute__((used, noreturn)) void emu_fault_report(const uint32_t *frame, uint32_t exc_return, uint32_t ipsr) {
    volatile const uint32_t *scb = (volatile const uint32_t *)0xE000ED00u;
    rep_flush();
    rep_str("\n@fault pc ");
    rep_hex32(frame[6]);
    rep_str(" lr ");
    rep_hex32(frame[5]);
    rep_str(" exception ");
    rep_u32(ipsr & 0x1FFu);
    rep_str(" cfsr ");
    rep_hex32(scb[0x28 / 4]);
    rep_str(" hfsr ");
    rep_hex32(scb[0x2C / 4]);
    rep_str(" mmfar ");
    rep_hex32(scb[0x34 / 4]);
    rep_str(" bfar ");
    rep_hex32(scb[0x38 / 4]);
    rep_str(" exc_return ");
    rep_hex32(exc_return);
    rep_char('\n');
    rep_kv("end", TIGRIS_EMU_EXIT_FAULT);
    rep_flush();
    emu_exit(TIGRIS_EMU_EXIT_FAULT);
}

__attribute__((used, noreturn)) void emu_c_start(void) {
    uint32_t *src = __data_load, *dst = __data_start;
    while (dst < __data_end) *dst++ = *src++;
    for (dst = __bss_start; dst < __bss_end; dst++) *dst = 0;
    emu_exit(emu_main());
}

/* SysTick: 24 bits down-counting on the CPU clock; each wrap raises the
 * SysTick exception, which extends the count. Under -icount QEMU delivers
 * it at the exact instruction, so the two halves read below agree. */
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
static volatile uint32_t systick_wraps;

static void emu_systick(void) { systick_wraps++; }

void emu_timer_start(void) {
    SYST_CSR = 0;
    SYST_RVR = 0xFFFFFFu;
    SYST_CVR = 0; /* clears the counter; it reloads from RVR on the next tick */
    SYST_CSR = 7u; /* enable, exception on wrap, processor clock */
    while (SYST_CVR == 0) {
    }
    systick_wraps = 0;
}

uint32_t emu_timer_now(void) {
    uint32_t w1, v, w2;
    do {
        w1 = systick_wraps;
        v = SYST_CVR;
        w2 = systick_wraps;
    } while (w1 != w2);
    return (w1 << 24) + (0xFFFFFFu - v);
}

/* An undefined instruction (UDF) at a global label. */
__attribute__((naked, noreturn)) void emu_board_fault_now(void) {
    __asm__ volatile(
        ".global tigris_emu_fault_site\n"
        ".type tigris_emu_fault_site, %function\n"
        ".thumb_func\n"
        "tigris_emu_fault_site:\n"
        "udf #0\n");
}

/* 16 system vectors; no interrupt is ever enabled, so no IRQ vectors. */
__attribute__((section(".vectors"), used)) const void *const emu_vectors[16] = {
    __stack_top,          /* initial SP */
    Reset_Handler,        /* reset */
    emu_fault_entry,      /* NMI */
    emu_fault_entry,      /* HardFault */
    emu_fault_entry,      /* MemManage */
    emu_fault_entry,      /* BusFault */
    emu_fault_entry,      /* UsageFault */
    emu_fault_entry,      /* SecureFault (v8-M) */
    0, 0, 0,
    emu_fault_entry,      /* SVCall */
    emu_fault_entry,      /* DebugMonitor */
    0,
    emu_fault_entry,      /* PendSV */
    emu_systick,          /* SysTick: the cycle timer's wraps */
};
