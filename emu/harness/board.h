/*
 * board.h - what each board (emu/boards/<board>/) gives the generic harness.
 *
 * The linker script of a board defines the memory regions as symbols; the
 * board's startup code defines the console, the exit and the fault site.
 */
#ifndef TIGRIS_EMU_BOARD_H
#define TIGRIS_EMU_BOARD_H

#include <stdint.h>

/* Regions from the board's linker script (addresses only: use &symbol). */
extern uint8_t __emu_fast_start[], __emu_fast_end[]; /* fast RAM left after data, bss, heap and stack */
extern uint8_t __emu_load_start[], __emu_load_end[]; /* where the host places descriptor, plan, inputs */

/* Board facts printed in the report's first line. */
extern const char emu_board_name[];
extern const char emu_cpu_name[];

/* Write bytes to the host's console (semihosting :tt or Xtensa simcall). */
void emu_console_write(const char *s, uint32_t n);

/* End the emulation with a status the QEMU process exits with. */
__attribute__((noreturn)) void emu_exit(int status);

/* Debug mode TIGRIS_EMU_DEBUG_FAULT: executes an undefined instruction at the
 * global label tigris_emu_fault_site (its address is printed first, so the
 * host can check that the fault handler reports exactly that PC). */
extern const char tigris_emu_fault_site[];
__attribute__((noreturn)) void emu_board_fault_now(void);

/* The board's cycle timer, for counting without the count plugin: under
 * QEMU -icount its ticks follow the executed instructions. Arm: SysTick on
 * the CPU clock, widened to 32 bits by counting its wraps; Xtensa: CCOUNT. */
void emu_timer_start(void);
uint32_t emu_timer_now(void);

/* The C entry the startup code calls once memory is set up. */
int emu_main(void);

#endif /* TIGRIS_EMU_BOARD_H */
