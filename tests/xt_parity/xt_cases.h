/*
 * xt_cases.h - seeded single-op int8 cases (Conv, DepthwiseConv, FullyConnected,
 * MaxPool, AvgPool, Add) over odd shapes, padding, strides, dilation,
 * per-channel quantisation, int8 extremes and executor bands, each run
 * through the int8 reference and through the lx106 backend and compared byte
 * for byte. Plain C with no allocation, so the same cases run in the host
 * unit tests and inside the lx106 QEMU image.
 */
#ifndef TIGRIS_XT_CASES_H
#define TIGRIS_XT_CASES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { XT_K_CONV, XT_K_DW, XT_K_FC, XT_K_MAXPOOL, XT_K_AVGPOOL, XT_K_ADD, XT_K_COUNT };

extern const char *const xt_kind_names[XT_K_COUNT];

/* Instruction or cycle counter around each kernel call (NULL: none). */
typedef uint32_t (*xt_counter_fn)(void);

typedef struct {
    int kind;
    uint32_t seed;
    int banded;       /* a band or tile in mem->tile */
    int rc_ref, rc_acc;
    int tuned;        /* the lx106 kernel took the op (did not decline) */
    uint32_t mismatch; /* first differing output byte + 1, 0 when identical */
    uint32_t out_bytes;
    uint32_t cost_ref, cost_acc; /* counter deltas */
    char desc[96];
} xt_case_result_t;

/* Build case (kind, seed) in arena (arena_size bytes, 16-aligned), run both
 * backends and fill *r. big != 0 picks larger, benchmark-like shapes.
 * Returns -1 when the arena is too small. */
int xt_case_run(int kind, uint32_t seed, int banded, int big, void *arena, uint32_t arena_size, xt_counter_fn counter,
                xt_case_result_t *r);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_XT_CASES_H */
