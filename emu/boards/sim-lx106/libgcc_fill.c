/*
 * libgcc_fill.c - integer helpers Debian's lx106 libgcc lacks.
 *
 * gcc-xtensa-lx106's libgcc.a has no 32-bit division (the core has no DIV32
 * instruction, so GCC calls __udivsi3 and friends), no widening or 64-bit
 * multiply and no 64-bit division entry points, though __udivmoddi4 and
 * __divmoddi4 are there. None of these may use '/', '%' or a 64-bit '*'
 * itself: GCC would call the very function being defined.
 */
#include <stdint.h>

uint32_t __udivsi3(uint32_t n, uint32_t d);
uint32_t __umodsi3(uint32_t n, uint32_t d);
int32_t __divsi3(int32_t a, int32_t b);
uint64_t __umulsidi3(uint32_t a, uint32_t b);
int64_t __muldi3(int64_t a, int64_t b);
uint64_t __udivdi3(uint64_t a, uint64_t b);
uint64_t __umoddi3(uint64_t a, uint64_t b);
int64_t __divdi3(int64_t a, int64_t b);
uint64_t __udivmoddi4(uint64_t a, uint64_t b, uint64_t *rem);
int64_t __divmoddi4(int64_t a, int64_t b, int64_t *rem);

/* Shift-subtract long division; *rem gets the remainder. Division by zero
 * gives all ones, as no trap exists to raise. */
static uint32_t udivmod32(uint32_t n, uint32_t d, uint32_t *rem) {
    if (d == 0) {
        *rem = n;
        return 0xFFFFFFFFu;
    }
    uint32_t q = 0, r = 0;
    for (int i = 31; i >= 0; i--) {
        r = (r << 1) | ((n >> i) & 1u);
        if (r >= d) {
            r -= d;
            q |= 1u << i;
        }
    }
    *rem = r;
    return q;
}

uint32_t __udivsi3(uint32_t n, uint32_t d) {
    uint32_t r;
    return udivmod32(n, d, &r);
}

uint32_t __umodsi3(uint32_t n, uint32_t d) {
    uint32_t r;
    (void)udivmod32(n, d, &r);
    return r;
}

/* C truncating division: the quotient's sign is the XOR of the signs. */
int32_t __divsi3(int32_t a, int32_t b) {
    uint32_t ua = a < 0 ? 0u - (uint32_t)a : (uint32_t)a;
    uint32_t ub = b < 0 ? 0u - (uint32_t)b : (uint32_t)b;
    uint32_t r, q = udivmod32(ua, ub, &r);
    return (int32_t)(((a < 0) != (b < 0)) ? 0u - q : q);
}

/* 32x32 -> 64 from four 16x16 -> 32 partial products. */
uint64_t __umulsidi3(uint32_t a, uint32_t b) {
    uint32_t al = a & 0xFFFFu, ah = a >> 16, bl = b & 0xFFFFu, bh = b >> 16;
    uint32_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint32_t mid = (ll >> 16) + (lh & 0xFFFFu) + (hl & 0xFFFFu);
    uint32_t lo = (ll & 0xFFFFu) | (mid << 16);
    uint32_t hi = hh + (lh >> 16) + (hl >> 16) + (mid >> 16);
    return ((uint64_t)hi << 32) | lo;
}

/* Low 64 bits of a 64x64 product: the cross terms only reach the high word. */
int64_t __muldi3(int64_t a, int64_t b) {
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    uint32_t alo = (uint32_t)ua, ahi = (uint32_t)(ua >> 32);
    uint32_t blo = (uint32_t)ub, bhi = (uint32_t)(ub >> 32);
    uint64_t p = __umulsidi3(alo, blo);
    uint32_t cross = alo * bhi + ahi * blo;
    return (int64_t)(p + ((uint64_t)cross << 32));
}

uint64_t __udivdi3(uint64_t a, uint64_t b) {
    uint64_t r;
    return __udivmoddi4(a, b, &r);
}

uint64_t __umoddi3(uint64_t a, uint64_t b) {
    uint64_t r;
    (void)__udivmoddi4(a, b, &r);
    return r;
}

/* libgcc's __divmoddi4 stores the remainder unconditionally. */
int64_t __divdi3(int64_t a, int64_t b) {
    int64_t r;
    return __divmoddi4(a, b, &r);
}
