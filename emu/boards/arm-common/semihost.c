/*
 * semihost.c - console and exit over Arm semihosting (QEMU -semihosting).
 *
 * SYS_WRITE needs a handle from SYS_OPEN(":tt"); writing to handle 1
 * directly fails. SYS_EXIT_EXTENDED passes any status through to QEMU's
 * exit code (plain SYS_EXIT only gives 0 or 1).
 */
#include <stdint.h>

#include "../../harness/board.h"

#define SYS_OPEN 0x01
#define SYS_WRITE 0x05
#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

static int semihost(int op, const void *arg) {
    register int r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static int console = -1;

void emu_console_write(const char *s, uint32_t n) {
    if (console < 0) {
        const uint32_t open_args[3] = {(uint32_t)(uintptr_t)":tt", 4 /* "w" */, 3};
        console = semihost(SYS_OPEN, open_args);
    }
    while (n) {
        const uint32_t args[3] = {(uint32_t)console, (uint32_t)(uintptr_t)s, n};
        int left = semihost(SYS_WRITE, args); /* bytes NOT written */
        if (left < 0 || (uint32_t)left >= n) return;
        s += n - (uint32_t)left;
        n = (uint32_t)left;
    }
}

void emu_exit(int status) {
    const uint32_t args[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
    for (;;) semihost(SYS_EXIT_EXTENDED, args);
}
