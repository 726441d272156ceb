/*
 * tigris_emu_protocol.h - what the host and the firmware harness agree on.
 *
 * The host (service/lib/emu_*.cpp) writes a run descriptor, the plan and the
 * model inputs into the board's load region with QEMU's loader device
 * (`-device loader,file=...,addr=...`); the harness reads them, runs the
 * plan and prints its report as text lines on the semihosting console
 * (docs/emu.md, "Harness protocol"). Both sides include this header, so the
 * descriptor layout and the exit codes have one definition.
 *
 * Every field is a little-endian uint32 (all four boards are little-endian).
 */
#ifndef TIGRIS_EMU_PROTOCOL_H
#define TIGRIS_EMU_PROTOCOL_H

#include <stdint.h>

#define TIGRIS_EMU_MAGIC 0x4D454754u /* "TGEM" read as a little-endian u32 */
#define TIGRIS_EMU_VERSION 1u

/* backend */
#define TIGRIS_EMU_BACKEND_REF 0u   /* float32 / int8 reference kernels */
#define TIGRIS_EMU_BACKEND_ACCEL 1u /* the image's own accelerated int8 backend (tigris-arm, tigris-xtensa) */
#define TIGRIS_EMU_BACKEND_VENDOR 2u /* the vendor library's adapter (cmsis-nn) */

/* flags */
#define TIGRIS_EMU_FLAG_OP_MARKS 0x1u /* bracket every kernel call for per-op counts */
#define TIGRIS_EMU_FLAG_TIMER 0x2u    /* also time run and calls with the board's cycle timer
                                         (SysTick / CCOUNT; meaningful under QEMU -icount) */

/* debug: test modes that exercise the host's failure handling */
#define TIGRIS_EMU_DEBUG_NONE 0u
#define TIGRIS_EMU_DEBUG_HANG 1u  /* spin forever: the host must time out and kill */
#define TIGRIS_EMU_DEBUG_FAULT 2u /* execute an undefined instruction: the fault handler reports its PC */

typedef struct {
    uint32_t magic;   /* TIGRIS_EMU_MAGIC */
    uint32_t version; /* TIGRIS_EMU_VERSION */
    uint32_t backend; /* TIGRIS_EMU_BACKEND_* */
    uint32_t flags;   /* TIGRIS_EMU_FLAG_* */
    uint32_t debug;   /* TIGRIS_EMU_DEBUG_* */
    uint32_t plan_addr, plan_size;   /* the .tgrs bytes (16-byte aligned) */
    uint32_t input_addr, input_size; /* model inputs, declared dtypes, model-input order */
    uint32_t fast_size; /* fast arena bytes; 0 = what the plan and backend need */
    uint32_t slow_size; /* slow buffer bytes; 0 = the host run's default */
    uint32_t free_addr, free_size; /* scratch the harness may use (slow buffer, workspace, state) */
    uint32_t reserved[3];
} tigris_emu_desc_t;

typedef char tigris_emu_desc_is_64_bytes[(sizeof(tigris_emu_desc_t) == 64) ? 1 : -1];

/* Exit status of the QEMU process (the harness's exit code). */
#define TIGRIS_EMU_EXIT_OK 0
#define TIGRIS_EMU_EXIT_DESCRIPTOR 2 /* no valid descriptor, or ranges outside the load region */
#define TIGRIS_EMU_EXIT_PLAN 3       /* the loader refused the plan */
#define TIGRIS_EMU_EXIT_RUN 4        /* the executor failed */
#define TIGRIS_EMU_EXIT_PREPARE 5    /* the accelerated backend's prepare call failed */
#define TIGRIS_EMU_EXIT_NO_ACCEL 6   /* backend=accel but this image has no accelerated backend */
#define TIGRIS_EMU_EXIT_MEMORY 7     /* the arenas do not fit the board's memory */
#define TIGRIS_EMU_EXIT_IO 8         /* model inputs or outputs could not be moved */
#define TIGRIS_EMU_EXIT_FAULT 97     /* a CPU fault or exception; "@fault pc=..." says where */

/* Name of the function the harness calls at every measurement point; the
 * instruction-count plugin records its counter each time it runs. */
#define TIGRIS_EMU_MARK_SYMBOL "tigris_emu_mark"

#endif /* TIGRIS_EMU_PROTOCOL_H */
