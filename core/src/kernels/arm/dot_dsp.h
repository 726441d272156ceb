/*
 * dot_dsp.h - int8 dot products on ARMv7E-M DSP (M4, M7).
 *
 * Activations are widened once per column to 16-bit pairs with -zp_in added
 * (SXTAB16): per block of four values, word 0 holds (x0, x2) and word 1
 * (x1, x3), the lanes SXTB16 gives a weight word and the same word rotated
 * by 8. SMLAD then multiplies matching pairs and adds both products, so a
 * weight word costs one load and two extends for two (or four) SMLADs and a
 * column word is one load. Sums wrap in 32 bits like the reference's.
 *
 * Columns are stored as blocks of `stride` words: 2 for one column, 4 for
 * two columns interleaved (block b: column 0's two words, then column 1's),
 * so a 2x2 pass reads both columns with one pointer. Only whole blocks of
 * four are widened; the k % 4 tail is done in scalar code from the int8
 * column by the callers (ta_tail).
 */
#ifndef TIGRIS_ARM_DOT_DSP_H
#define TIGRIS_ARM_DOT_DSP_H

#include "arm_common.h"

#if TA_DSP

/* -zp in both 16-bit lanes, for SXTAB16. */
static inline uint32_t ta_lane_offset(int32_t zp) {
    uint32_t n = (uint32_t)(-zp) & 0xFFFFu;
    return n | (n << 16);
}

/* Widen `blocks` blocks of four int8 values of src (minus zp) into dst,
 * `stride` words apart. */
static inline void ta_q15_widen(const int8_t *src, int32_t blocks, uint32_t off, int32_t *dst, int32_t stride) {
    for (int32_t b = 0; b < blocks; b++, src += 4, dst += stride) {
        uint32_t v = ta_ld32(src);
        dst[0] = __sxtab16((int32_t)off, (int32_t)v);
        dst[1] = ta_sxtab16_ror8((int32_t)off, v);
    }
}

/* The two hot loops below are inline assembly: written in C, GCC 12 keeps
 * too few of their twelve values in registers and reloads accumulators from
 * the stack every block (about 38 instructions per 16 MACs instead of 18).
 * Each block is four k values: one weight word per row (LDR, SXTB16 of it
 * and of it rotated), column words by LDRD, two SMLADs per row and column. */

/* One block of the 2x2 pass: weights at [w] and [w + ws] (w advanced by
 * 4), both columns' words at [cp] (cp advanced by 16). */
#define TA_2X2_BLOCK                                    \
    "ldr    %[e], [%[w]]\n\t"                           \
    "ldrd   %[x0], %[x1], [%[cp]]\n\t"                  \
    "sxtb16 %[o], %[e], ror #8\n\t"                     \
    "sxtb16 %[e], %[e]\n\t"                             \
    "smlad  %[a00], %[x0], %[e], %[a00]\n\t"            \
    "smlad  %[a00], %[x1], %[o], %[a00]\n\t"            \
    "ldrd   %[x0], %[x1], [%[cp], #8]\n\t"              \
    "smlad  %[a10], %[x0], %[e], %[a10]\n\t"            \
    "smlad  %[a10], %[x1], %[o], %[a10]\n\t"            \
    "ldr    %[e], [%[w], %[ws]]\n\t"                    \
    "adds   %[w], %[w], #4\n\t"                         \
    "sxtb16 %[o], %[e], ror #8\n\t"                     \
    "sxtb16 %[e], %[e]\n\t"                             \
    "smlad  %[a11], %[x0], %[e], %[a11]\n\t"            \
    "smlad  %[a11], %[x1], %[o], %[a11]\n\t"            \
    "ldrd   %[x0], %[x1], [%[cp]], #16\n\t"             \
    "smlad  %[a01], %[x0], %[e], %[a01]\n\t"            \
    "smlad  %[a01], %[x1], %[o], %[a01]\n\t"

#define TA_2X2_OPERANDS                                                                                    \
    : [a00] "+r"(a00), [a01] "+r"(a01), [a10] "+r"(a10), [a11] "+r"(a11), [cp] "+r"(cp), [w] "+r"(w),      \
      [e] "=&r"(e), [o] "=&r"(o), [x0] "=&r"(x0), [x1] "=&r"(x1)                                         \
    : [ws] "r"(ws), [end] "r"(end)                                                                       \
    : "cc", "memory"

/* Two interleaved columns (cp, stride 4) x two weight rows (w, w + ws):
 * acc = {c0.w0, c0.w1, c1.w0, c1.w1}. An odd block first, then two blocks
 * per loop turn (the loop test costs two of about twenty instructions). */
static inline void ta_q15_dot_2x2(const int32_t *cp, const int8_t *w, int32_t ws, int32_t blocks, int32_t acc[4]) {
    int32_t a00 = acc[0], a01 = acc[1], a10 = acc[2], a11 = acc[3];
    const int32_t *end = cp + 4 * blocks;
    int32_t e, o, x0, x1;
    if (blocks & 1) __asm__ volatile(TA_2X2_BLOCK TA_2X2_OPERANDS);
    if (blocks > 1) __asm__ volatile("1:\n\t" TA_2X2_BLOCK TA_2X2_BLOCK "cmp %[cp], %[end]\n\tbne 1b\n\t" TA_2X2_OPERANDS);
    acc[0] = a00;
    acc[1] = a01;
    acc[2] = a10;
    acc[3] = a11;
}

#undef TA_2X2_BLOCK
#undef TA_2X2_OPERANDS

/* One block of the 1x4 pass: the column's two words at [cp] (advanced by
 * 8), weights at [w], [w + ws], [w2], [w2 + ws] (w, w2 advanced by 4). */
#define TA_1X4_BLOCK                                    \
    "ldrd   %[x0], %[x1], [%[cp]], #8\n\t"              \
    "ldr    %[v], [%[w]]\n\t"                           \
    "sxtb16 %[e], %[v]\n\t"                             \
    "smlad  %[a0], %[x0], %[e], %[a0]\n\t"              \
    "sxtb16 %[e], %[v], ror #8\n\t"                     \
    "smlad  %[a0], %[x1], %[e], %[a0]\n\t"              \
    "ldr    %[v], [%[w], %[ws]]\n\t"                    \
    "adds   %[w], %[w], #4\n\t"                         \
    "sxtb16 %[e], %[v]\n\t"                             \
    "smlad  %[a1], %[x0], %[e], %[a1]\n\t"              \
    "sxtb16 %[e], %[v], ror #8\n\t"                     \
    "smlad  %[a1], %[x1], %[e], %[a1]\n\t"              \
    "ldr    %[v], [%[w2]]\n\t"                          \
    "sxtb16 %[e], %[v]\n\t"                             \
    "smlad  %[a2], %[x0], %[e], %[a2]\n\t"              \
    "sxtb16 %[e], %[v], ror #8\n\t"                     \
    "smlad  %[a2], %[x1], %[e], %[a2]\n\t"              \
    "ldr    %[v], [%[w2], %[ws]]\n\t"                   \
    "adds   %[w2], %[w2], #4\n\t"                       \
    "sxtb16 %[e], %[v]\n\t"                             \
    "smlad  %[a3], %[x0], %[e], %[a3]\n\t"              \
    "sxtb16 %[e], %[v], ror #8\n\t"                     \
    "smlad  %[a3], %[x1], %[e], %[a3]\n\t"

#define TA_1X4_OPERANDS                                                                                    \
    : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [cp] "+r"(cp), [w] "+r"(w), [w2] "+r"(w2), \
      [e] "=&r"(e), [v] "=&r"(v), [x0] "=&r"(x0), [x1] "=&r"(x1)                                         \
    : [ws] "r"(ws), [end] "r"(end)                                                                       \
    : "cc", "memory"

/* One column (cp, stride 2) x four weight rows w + o * ws; odd block
 * first, then two per loop turn. */
static inline void ta_q15_dot_1x4(const int32_t *cp, const int8_t *w, int32_t ws, int32_t blocks, int32_t acc[4]) {
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    const int32_t *end = cp + 2 * blocks;
    const int8_t *w2 = w + 2 * ws;
    int32_t e, v, x0, x1;
    if (blocks & 1) __asm__ volatile(TA_1X4_BLOCK TA_1X4_OPERANDS);
    if (blocks > 1) __asm__ volatile("1:\n\t" TA_1X4_BLOCK TA_1X4_BLOCK "cmp %[cp], %[end]\n\tbne 1b\n\t" TA_1X4_OPERANDS);
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}

#undef TA_1X4_BLOCK
#undef TA_1X4_OPERANDS

/* One group of the 1x2 pass: eight k values, the column's four words at
 * [cp] by one LDM (cp advanced by 16), eight weights of each row by LDRD
 * at [w0] and [w1] (both advanced by 8). SXTB16 is done in place on the
 * loaded word once its rotated half is taken, so a group needs no pointer
 * adds: 19 instructions per 16 MACs. */
#define TA_1X2_ROW(acc, wp)                             \
    "ldrd   %[v0], %[v1], [%[" wp "]], #8\n\t"          \
    "sxtb16 %[e], %[v0], ror #8\n\t"                    \
    "sxtb16 %[v0], %[v0]\n\t"                           \
    "smlad  %[" acc "], %[x0], %[v0], %[" acc "]\n\t"   \
    "smlad  %[" acc "], %[x1], %[e], %[" acc "]\n\t"    \
    "sxtb16 %[e], %[v1], ror #8\n\t"                    \
    "sxtb16 %[v1], %[v1]\n\t"                           \
    "smlad  %[" acc "], %[x2], %[v1], %[" acc "]\n\t"   \
    "smlad  %[" acc "], %[x3], %[e], %[" acc "]\n\t"
#define TA_1X2_GROUP                                    \
    "ldmia  %[cp]!, {%[x0], %[x1], %[x2], %[x3]}\n\t"   \
    TA_1X2_ROW("a0", "w0") TA_1X2_ROW("a1", "w1")

#define TA_1X2_OPERANDS                                                                                      \
    : [a0] "+r"(a0), [a1] "+r"(a1), [cp] "+r"(cp), [w0] "+r"(w0), [w1] "+r"(w1), [e] "=&r"(e),                \
      [v0] "=&r"(v0), [v1] "=&r"(v1), [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3)        \
    : [end] "r"(end)                                                                                         \
    : "cc", "memory"

/* One column (cp, stride 2) x two weight rows w0, w1, for a single FC row
 * (nb = 1): nothing but the widened column is shared, so the weights are
 * the cost (per four of them: half an LDRD, two SXTB16, two SMLAD). Two
 * rows per pass with LDRD weight loads and one LDM per group for the
 * column cost fewer instructions per MAC than four rows with LDR (19
 * against 21 per 16 MACs, 23 with the pointer adds of ta_q15_dot_1x4).
 * LDRD faults on unaligned addresses: w0 and w1 must be word aligned
 * (ta_q15_dot_1x2_ok). `blocks` is k / 4: an odd block in C first, then
 * one group, then two, then four groups per loop turn. */
static inline int ta_q15_dot_1x2_ok(const int8_t *w0, int32_t k) {
    return (((uintptr_t)w0 | (uintptr_t)k) & 3u) == 0;
}
static inline void ta_q15_dot_1x2(const int32_t *cp, const int8_t *w0, const int8_t *w1, int32_t blocks,
                                  int32_t acc[2]) {
    int32_t a0 = acc[0], a1 = acc[1];
    int32_t e, v0, v1;
    /* LDM loads the column's four words in one instruction; its register
     * list must ascend, hence fixed registers (r7 left alone: Thumb's frame
     * pointer). */
    register int32_t x0 __asm__("r8"), x1 __asm__("r9"), x2 __asm__("r10"), x3 __asm__("r11");
    if (blocks & 1) {
        uint32_t p = ta_ld32(w0), q = ta_ld32(w1);
        a0 = __smlad(cp[0], __sxtb16((int32_t)p), a0);
        a0 = __smlad(cp[1], ta_sxtb16_ror8(p), a0);
        a1 = __smlad(cp[0], __sxtb16((int32_t)q), a1);
        a1 = __smlad(cp[1], ta_sxtb16_ror8(q), a1);
        cp += 2;
        w0 += 4;
        w1 += 4;
    }
    const int32_t *end = cp + 2 * (blocks & ~1);
    if (blocks & 2) __asm__ volatile(TA_1X2_GROUP TA_1X2_OPERANDS);
    if (blocks & 4) __asm__ volatile(TA_1X2_GROUP TA_1X2_GROUP TA_1X2_OPERANDS);
    if (blocks > 7)
        __asm__ volatile("1:\n\t" TA_1X2_GROUP TA_1X2_GROUP TA_1X2_GROUP TA_1X2_GROUP
                         "cmp %[cp], %[end]\n\tbne 1b\n\t" TA_1X2_OPERANDS);
    acc[0] = a0;
    acc[1] = a1;
}

#undef TA_1X2_ROW
#undef TA_1X2_GROUP
#undef TA_1X2_OPERANDS

/* Weights widened once per call (conv with small weights, see conv.c):
 * the same pair layout as the columns, so a pass needs no SXTB16 at all.
 * Rows are stored by pairs, interleaved per block (row 2p's two words,
 * then row 2p+1's), a last odd row alone (two words per block). */

/* One block of the 2x2 pass on widened weights: both columns' four words
 * by one LDM at [cp] (advanced by 16), the row pair's words at [w] (row 0,
 * w advanced by 16) and [w - 8] (row 1): 11 instructions per 16 MACs
 * against 18 when the weights are widened in the loop. */
#define TA_2X2W_BLOCK                                   \
    "ldmia  %[cp]!, {%[x0], %[x1], %[x2], %[x3]}\n\t"   \
    "ldrd   %[v0], %[v1], [%[w]], #16\n\t"              \
    "smlad  %[a00], %[x0], %[v0], %[a00]\n\t"           \
    "smlad  %[a00], %[x1], %[v1], %[a00]\n\t"           \
    "smlad  %[a10], %[x2], %[v0], %[a10]\n\t"           \
    "smlad  %[a10], %[x3], %[v1], %[a10]\n\t"           \
    "ldrd   %[v0], %[v1], [%[w], #-8]\n\t"              \
    "smlad  %[a01], %[x0], %[v0], %[a01]\n\t"           \
    "smlad  %[a01], %[x1], %[v1], %[a01]\n\t"           \
    "smlad  %[a11], %[x2], %[v0], %[a11]\n\t"           \
    "smlad  %[a11], %[x3], %[v1], %[a11]\n\t"

#define TA_2X2W_OPERANDS                                                                                    \
    : [a00] "+r"(a00), [a01] "+r"(a01), [a10] "+r"(a10), [a11] "+r"(a11), [cp] "+r"(cp), [w] "+r"(w),      \
      [v0] "=&r"(v0), [v1] "=&r"(v1), [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3)      \
    : [end] "r"(end)                                                                                       \
    : "cc", "memory"

/* Two interleaved columns (cp, stride 4) x one widened row pair (w, four
 * words per block): acc = {c0.r0, c0.r1, c1.r0, c1.r1}. Both pointers
 * word aligned (scratch). An odd block first, then a block pair, then four
 * blocks per loop turn. */
TA_INLINE void ta_q15w_dot_2x2(const int32_t *cp, const int32_t *w, int32_t blocks, int32_t acc[4]) {
    int32_t a00 = acc[0], a01 = acc[1], a10 = acc[2], a11 = acc[3];
    const int32_t *end = cp + 4 * blocks;
    int32_t v0, v1;
    /* LDM's register list must ascend: fixed registers (not r7, Thumb's
     * frame pointer). */
    register int32_t x0 __asm__("r8"), x1 __asm__("r9"), x2 __asm__("r10"), x3 __asm__("r11");
    if (blocks & 1) __asm__ volatile(TA_2X2W_BLOCK TA_2X2W_OPERANDS);
    if (blocks & 2) __asm__ volatile(TA_2X2W_BLOCK TA_2X2W_BLOCK TA_2X2W_OPERANDS);
    if (blocks > 3)
        __asm__ volatile("1:\n\t" TA_2X2W_BLOCK TA_2X2W_BLOCK TA_2X2W_BLOCK TA_2X2W_BLOCK
                         "cmp %[cp], %[end]\n\tbne 1b\n\t" TA_2X2W_OPERANDS);
    acc[0] = a00;
    acc[1] = a01;
    acc[2] = a10;
    acc[3] = a11;
}

/* ta_q15w_dot_2x2 when blocks is a non-zero multiple of four (a 1x1 conv
 * over 16, 32, ... input channels): the loop alone, no odd-block tests. */
TA_INLINE void ta_q15w_dot_2x2_q(const int32_t *cp, const int32_t *w, int32_t blocks, int32_t acc[4]) {
    int32_t a00 = acc[0], a01 = acc[1], a10 = acc[2], a11 = acc[3];
    const int32_t *end = cp + 4 * blocks;
    int32_t v0, v1;
    register int32_t x0 __asm__("r8"), x1 __asm__("r9"), x2 __asm__("r10"), x3 __asm__("r11");
    __asm__ volatile("1:\n\t" TA_2X2W_BLOCK TA_2X2W_BLOCK TA_2X2W_BLOCK TA_2X2W_BLOCK
                     "cmp %[cp], %[end]\n\tbne 1b\n\t" TA_2X2W_OPERANDS);
    acc[0] = a00;
    acc[1] = a01;
    acc[2] = a10;
    acc[3] = a11;
}

#undef TA_2X2W_BLOCK
#undef TA_2X2W_OPERANDS

/* One column (cp, `cs` words per block) x one widened row (w, `ws` words
 * per block): the leftovers of the widened passes (odd channel, odd
 * pixel). */
static inline int32_t ta_q15w_dot_1x1(const int32_t *cp, int32_t cs, const int32_t *w, int32_t ws, int32_t blocks,
                                      int32_t a0) {
    for (int32_t b = 0; b < blocks; b++, cp += cs, w += ws) {
        a0 = __smlad(cp[0], w[0], a0);
        a0 = __smlad(cp[1], w[1], a0);
    }
    return a0;
}

/* One column (cp, `stride` words per block) x one weight row. */
static inline int32_t ta_q15_dot_1x1(const int32_t *cp, int32_t stride, const int8_t *w, int32_t blocks, int32_t a0) {
    for (int32_t b = 0; b < blocks; b++, cp += stride, w += 4) {
        uint32_t v = ta_ld32(w);
        a0 = __smlad(cp[0], __sxtb16((int32_t)v), a0);
        a0 = __smlad(cp[1], ta_sxtb16_ror8(v), a0);
    }
    return a0;
}

#endif /* TA_DSP */

/* acc + sum over k in [from, k) of (c[k] - zp) * w[k]: the tail after the
 * whole blocks. */
static inline int32_t ta_tail(const int8_t *c, const int8_t *w, int32_t from, int32_t k, int32_t zp, int32_t acc) {
    for (int32_t i = from; i < k; i++) acc = (int32_t)((uint32_t)acc + (uint32_t)(((int32_t)c[i] - zp) * w[i]));
    return acc;
}

#endif /* TIGRIS_ARM_DOT_DSP_H */
