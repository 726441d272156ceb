/*
 * lz4.h - bounded decoder for raw LZ4 blocks (the block format only: no
 * frame, no checksum), used for compressed weight blocks.
 */
#ifndef TIGRIS_LZ4_H
#define TIGRIS_LZ4_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes the block src[0, src_len) into dst[0, dst_cap). Returns 0 and the
 * decoded length in *out_len only when the whole input is a well-formed
 * sequence list ending in a literals-only sequence and its output fits in
 * dst_cap; -1 otherwise (then dst may hold partial output and *out_len is
 * untouched). Never reads outside src or writes outside dst, whatever the
 * input. */
int tigris__lz4_decode(const uint8_t *src, uint32_t src_len, uint8_t *dst, uint32_t dst_cap, uint32_t *out_len);

/* 0 when decoding src[0, src_len) would succeed and give exactly expect_len
 * bytes, -1 otherwise; reads src only. The loader refuses a block that fails
 * this, so a compressed plan that loads never fails to decode at run time. */
int tigris__lz4_check(const uint8_t *src, uint32_t src_len, uint32_t expect_len);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_LZ4_H */
