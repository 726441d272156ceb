/*
 * start.S - reset stub and exception vectors for QEMU's Xtensa sim machine.
 *
 * Reset: the CPU starts at 0x50000000 with no stack. Load SP and the C
 * entry from literals placed before their L32R, drop PS.EXCM (so a later
 * exception is a normal one that records EPC1) and jump to C.
 *
 * Vectors (VECBASE 0x40000000): each loads its number and jumps to one
 * common handler, which passes EPC1, EXCCAUSE, EXCVADDR and DEPC to
 * emu_xt_fault_report() (it prints them and exits with the fault status).
 */
    .section .reset.text, "ax"
    .global _reset
_reset:
    j 1f
    .align 4
.Lstack:
    .word __stack_top
.Lentry:
    .word emu_c_start
1:
    l32r a1, .Lstack
    movi a0, 0
    movi a3, 0x2f          /* PS: UM=1, EXCM=0, INTLEVEL=15 */
    wsr a3, ps
    rsync
    l32r a2, .Lentry
    jx a2

    .section .vectors.text, "ax"
    .org 0x10
.Ldebug_vector:
    movi a2, 1
    j .Lcommon
    .org 0x20
.Lnmi_vector:
    movi a2, 2
    j .Lcommon
    .org 0x30
.Lkernel_vector:
    movi a2, 3
    j .Lcommon
    .org 0x50
.Luser_vector:
    movi a2, 4
    j .Lcommon
    .org 0x70
.Ldouble_vector:
    movi a2, 5
    j .Lcommon
    .align 4
.Lreport:
    .word emu_xt_fault_report
.Lfault_stack:
    .word __stack_top
.Lcommon:
    rsr a3, epc1
    rsr a4, exccause
    rsr a5, excvaddr
    rsr a6, depc
    l32r a1, .Lfault_stack
    l32r a0, .Lreport
    callx0 a0
1:  j 1b

/* Debug mode "fault": an illegal instruction at a global label. */
    .section .text.emu_board_fault_now, "ax"
    .global emu_board_fault_now
    .global tigris_emu_fault_site
    .align 4
emu_board_fault_now:
tigris_emu_fault_site:
    ill
