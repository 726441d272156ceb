/*
 * lz4.c - bounded LZ4 block decoder.
 *
 * A block is a list of sequences. Each starts with a token byte: the high
 * nibble is the literal count, the low nibble the match length minus 4; a
 * nibble of 15 continues in following bytes, each added in turn, until one
 * below 255. The literals follow, then (except in the last sequence, which
 * ends the block after its literals) a 2-byte little-endian offset back into
 * the output already produced and the match-length continuation bytes.
 *
 * Every length is compared with the room left, in input or in output, before
 * it is used, so counts never overflow and no access leaves the buffers.
 * The compressor's end-of-block margins (last five bytes literal, last match
 * twelve bytes before the end) are not demanded: they exist for decoders that
 * copy speculatively, which this one does not.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lz4.h"

/* Reads a nibble's continuation bytes onto *len. Fails when the input ends
 * first or when the length exceeds `limit` (nothing larger could be used, and
 * stopping there keeps the sum far from overflow). */
static int read_length(const uint8_t **ip, const uint8_t *iend, uint32_t *len, uint32_t limit) {
    uint8_t b;
    if (*len > limit) return -1;
    do {
        if (*ip >= iend) return -1;
        b = *(*ip)++;
        if (b > limit - *len) return -1;
        *len += b;
    } while (b == 255);
    return 0;
}

/* The one walk over a block: decodes into dst, or, with dst NULL, only
 * checks that decoding into dst_cap bytes would succeed (the loader's check,
 * which has no buffer to decode into). */
static int walk(const uint8_t *src, uint32_t src_len, uint8_t *dst, uint32_t dst_cap, uint32_t *out_len) {
    const uint8_t *ip = src;
    const uint8_t *iend = src + src_len;
    uint32_t op = 0; /* output produced so far */
    if (!src || !out_len || src_len == 0) return -1;

    for (;;) {
        uint8_t token = *ip++;
        uint32_t lit = (uint32_t)(token >> 4);
        uint32_t mlen, offset;

        if (lit == 15u && read_length(&ip, iend, &lit, src_len) != 0) return -1;
        if (lit > (uint32_t)(iend - ip) || lit > dst_cap - op) return -1;
        if (lit && dst) memcpy(dst + op, ip, lit);
        ip += lit;
        op += lit;

        if (ip == iend) break; /* the literals-only sequence that ends the block */

        if ((uint32_t)(iend - ip) < 2u) return -1;
        offset = (uint32_t)ip[0] | ((uint32_t)ip[1] << 8);
        ip += 2;
        if (offset == 0 || offset > op) return -1;

        /* Room is checked for the encoded length first and then for the
         * 4 it omits, so the sum is never formed beyond the room. */
        mlen = (uint32_t)(token & 15u);
        if (mlen == 15u && read_length(&ip, iend, &mlen, dst_cap - op) != 0) return -1;
        if (mlen > dst_cap - op || dst_cap - op - mlen < 4u) return -1;
        mlen += 4u;

        if (!dst) {
            /* checking only: the bounds above are all there is */
        } else if (offset >= mlen) {
            memcpy(dst + op, dst + op - offset, mlen);
        } else {
            /* Overlapping match: each byte may be one this copy just wrote,
             * which is how a run repeats a short pattern. */
            uint8_t *d = dst + op;
            const uint8_t *s = d - offset;
            uint32_t k;
            for (k = 0; k < mlen; k++) d[k] = s[k];
        }
        op += mlen;

        if (ip == iend) return -1; /* a block may not end on a match */
    }
    *out_len = op;
    return 0;
}

int tigris__lz4_decode(const uint8_t *src, uint32_t src_len, uint8_t *dst, uint32_t dst_cap, uint32_t *out_len) {
    if (!dst && dst_cap != 0) return -1;
    if (!dst) {
        uint8_t none = 0; /* a zero-capacity decode still needs somewhere to point */
        return walk(src, src_len, &none, 0, out_len);
    }
    return walk(src, src_len, dst, dst_cap, out_len);
}

int tigris__lz4_check(const uint8_t *src, uint32_t src_len, uint32_t expect_len) {
    uint32_t got = 0;
    return walk(src, src_len, NULL, expect_len, &got) == 0 && got == expect_len ? 0 : -1;
}
