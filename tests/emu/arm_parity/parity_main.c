/*
 * parity_main.c - Cortex-M parity image for the accelerated int8 backend
 * (core/src/kernels/arm). Runs under QEMU with semihosting.
 *
 * For many generated one-op plans (conv, depthwise, fully connected, max
 * and average pool, add: odd sizes, 1x1, padding, strides, dilation,
 * per-channel requantisation, int8 extremes, act bounds, height bands,
 * roll offsets, width tiles, FC row bands) it runs the int8 reference
 * (tigris_dispatch_kernel_s8) and the accelerated dispatcher on the same
 * buffers and compares every byte of the output buffer, guard bytes
 * included. It also checks that the accelerated wrapper itself took the
 * shapes meant for it (not a silent fallback), and that prepare/deinit
 * reserve and restore the fast arena.
 *
 * Then it times fixed benchmark shapes with SysTick (run QEMU with
 * -icount shift=0: ticks are then a pure function of the instruction
 * count) and prints reference/accelerated ratios.
 *
 * Exit status: 0 when every case matched, else 1.
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "kernels/arm/arm_common.h" /* ta_mbqm, fx_mbqm */
#include "kplan.h"
#include "tigris_kernels.h"
#include "tigris_kernels_tigris_arm.h"

#ifdef PARITY_CMSIS_NN
/* The same cases against the CMSIS-NN adapter (cmsis_nn_parity.elf): its
 * wrappers call Arm's CMSIS-NN or fall back; every byte must still be the
 * reference's. Shapes CMSIS-NN does not take may fall back (counted, not
 * failed); cmsis_checks() covers the contract (scratch, prepare, deinit). */
#    include "kernels/cmsis_nn/cn_internal.h"
#    include "tigris_kernels_cmsis_nn.h"
#    define BE_NAME "cmsis-nn"
#    define BE_PREPARE tigris_cmsis_nn_prepare
#    define BE_SCRATCH tigris_cmsis_nn_scratch_required
#    define BE_DISPATCH tigris_dispatch_kernel_cmsis_nn
#    define BE_DEINIT tigris_cmsis_nn_deinit
#    define W(f) cn_##f
#else
#    define BE_NAME "tigris-arm"
#    define BE_PREPARE tigris_arm_prepare
#    define BE_SCRATCH tigris_arm_scratch_required
#    define BE_DISPATCH tigris_dispatch_kernel_tigris_arm
#    define BE_DEINIT tigris_arm_deinit
#    define W(f) ta_##f
/* The accelerated wrappers (core/src/kernels/arm/arm_common.h): called
 * directly to see whether a shape was taken (1 = fell back). */
int ta_conv(const tigris_plan_t *, const tigris_op_t *, uint16_t, tigris_mem_t *);
int ta_depthwise(const tigris_plan_t *, const tigris_op_t *, uint16_t, tigris_mem_t *);
int ta_fully_connected(const tigris_plan_t *, const tigris_op_t *, uint16_t, tigris_mem_t *);
int ta_max_pool(const tigris_plan_t *, const tigris_op_t *, uint16_t, tigris_mem_t *);
int ta_avg_pool(const tigris_plan_t *, const tigris_op_t *, uint16_t, tigris_mem_t *);
int ta_add(const tigris_plan_t *, const tigris_op_t *, uint16_t, tigris_mem_t *);
#endif

uint8_t kp_arena[KP_ARENA] __attribute__((aligned(16)));
uint8_t kp_blob[128u * 1024u] __attribute__((aligned(16)));
static uint8_t fast_buf[16u * 1024u] __attribute__((aligned(16)));
static uint8_t ref_out[64u * 1024u];
static kplan_t K;

/* ---- SysTick (processor clock, counts down, 24 bits) ---- */
#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
static void tick_start(void) {
    SYST_CSR = 0;
    SYST_RVR = 0xFFFFFFu;
    SYST_CVR = 0;
    SYST_CSR = 5;
}
static uint32_t tick_now(void) { return SYST_CVR; }
static uint32_t tick_delta(uint32_t a, uint32_t b) { return (a - b) & 0xFFFFFFu; }

/* ---- deterministic generator ---- */
static uint32_t rng_state = 0x9E3779B9u;
static uint32_t rnd(void) {
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}
static int32_t rint_in(int32_t lo, int32_t hi) { return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1)); }

/* Random int8 bytes; mode 1: only the extremes -128 / 127. */
static void fill_s8(void *p, uint32_t n, int mode) {
    int8_t *b = (int8_t *)p;
    for (uint32_t i = 0; i < n; i++) b[i] = mode == 1 ? ((rnd() & 1) ? 127 : -128) : (int8_t)rnd();
}

typedef struct {
    const char *name;
    uint32_t cases, accel, fails;
} stat_t;

enum { S_CONV, S_DW, S_FC, S_MAX, S_AVG, S_ADD, S_N };
static stat_t stats[S_N] = {{"conv", 0, 0, 0}, {"depthwise", 0, 0, 0}, {"fully_connected", 0, 0, 0},
                            {"max_pool", 0, 0, 0}, {"avg_pool", 0, 0, 0}, {"add", 0, 0, 0}};

typedef int (*wrap_fn)(const tigris_plan_t *, const tigris_op_t *, uint16_t, tigris_mem_t *);
static const wrap_fn wrappers[S_N] = {W(conv), W(depthwise), W(fully_connected), W(max_pool), W(avg_pool), W(add)};

/* Run reference and accelerated on the plan in K; compare; optional ticks. */
static int run_case(int kind, uint16_t out, const tigris_tile_ctx_t *tile, uint32_t *ticks_ref, uint32_t *ticks_acc,
                    int expect_accel) {
    stat_t *st = &stats[kind];
    tigris_mem_t mem;
    void *ptrs[KP_MAX_T];
    memcpy(ptrs, K.ptrs, sizeof ptrs);
    st->cases++;
    if (tigris_mem_init(&mem, ptrs, (uint16_t)K.nt, fast_buf, sizeof fast_buf, NULL, 0) != TIGRIS_MEM_OK) {
        printf("FAIL %s #%lu: mem_init\n", st->name, (unsigned long)st->cases);
        st->fails++;
        return -1;
    }
    memcpy(ptrs, K.ptrs, sizeof ptrs); /* mem_init cleared them */
    uint32_t full = mem.fast_size;
    if (BE_PREPARE(&K.plan, &mem) != 0 || mem.fast_size > full || full - mem.fast_size < BE_SCRATCH(&K.plan)) {
        printf("FAIL %s #%lu: prepare (scratch %lu)\n", st->name, (unsigned long)st->cases,
               (unsigned long)BE_SCRATCH(&K.plan));
        st->fails++;
        return -1;
    }
    if (tile) mem.tile = *tile;
    uint32_t ob = K.tensors[out].size_bytes + 16u;
    uint8_t *y = (uint8_t *)K.ptrs[out];
    memset(y, 0x5A, ob);
    uint32_t t0 = tick_now();
    int rc_ref = tigris_dispatch_kernel_s8(&K.plan, &K.op, 0, &mem, NULL);
    uint32_t t1 = tick_now();
    memcpy(ref_out, y, ob);
    memset(y, 0x5A, ob);
    uint32_t t2 = tick_now();
    int rc_acc = BE_DISPATCH(&K.plan, &K.op, 0, &mem, NULL);
    uint32_t t3 = tick_now();
    int bad = rc_ref != rc_acc || memcmp(ref_out, y, ob) != 0;
    expect_accel = expect_accel && rc_ref == 0; /* the reference refuses it: so must we */
#ifdef PARITY_CMSIS_NN
    expect_accel = 0; /* CMSIS-NN takes fewer variants than tigris-arm: fallbacks are counted */
#endif
    /* Was the shape taken by the accelerated wrapper itself? */
    memset(y, 0x5A, ob);
    int rc_wrap = wrappers[kind](&K.plan, &K.op, 0, &mem);
    if (rc_wrap != 1) {
        st->accel++;
        if (rc_wrap != rc_ref || memcmp(ref_out, y, ob) != 0) bad = 1;
    } else if (expect_accel) {
        printf("FAIL %s #%lu: fell back to the reference\n", st->name, (unsigned long)st->cases);
        bad = 1;
    }
    if (BE_DEINIT(&mem) != 0 || mem.fast_size != full) {
        printf("FAIL %s #%lu: deinit did not restore the arena\n", st->name, (unsigned long)st->cases);
        bad = 1;
    }
    if (bad) {
        st->fails++;
        uint32_t i = 0;
        while (i < ob && ref_out[i] == y[i]) i++;
        printf("FAIL %s #%lu: rc ref %d acc %d, first diff at byte %lu of %lu\n", st->name,
               (unsigned long)st->cases, rc_ref, rc_acc, (unsigned long)i, (unsigned long)ob);
#ifdef PARITY_CMSIS_NN
        {
            const int32_t *od = &K.shapes[K.tensors[out].shape_off], *id = &K.shapes[K.tensors[0].shape_off];
            const tigris_quant_param_t *q = &K.quants[K.tensors[out].quant_param_idx];
            uint32_t ch = i % (uint32_t)od[K.tensors[out].ndim - 1], qc = q->num_channels > 1 ? ch : 0;
            printf("  in %ld %ld %ld %ld out %ld %ld %ld %ld k %d %d s %d %d pad %d %d %d %d tile %d ch %lu ref %d got %d "
                   "m %ld s %ld act %d %d\n",
                   (long)id[0], (long)id[1], (long)id[2], (long)id[3], (long)od[0], (long)od[1], (long)od[2],
                   (long)od[3], K.op.spatial.kernel_h, K.op.spatial.kernel_w, K.op.spatial.stride_h,
                   K.op.spatial.stride_w, K.op.spatial.pad_top, K.op.spatial.pad_bottom, K.op.spatial.pad_left,
                   K.op.spatial.pad_right, tile ? 1 : 0, (unsigned long)ch, (int8_t)ref_out[i], (int8_t)y[i],
                   (long)K.qdata[q->multiplier_off + qc], (long)K.qdata[q->shift_off + qc], K.op.act_min,
                   K.op.act_max);
        }
#endif
    }
    if (ticks_ref) *ticks_ref = tick_delta(t0, t1);
    if (ticks_acc) *ticks_acc = tick_delta(t2, t3);
    return bad ? -1 : 0;
}

/* Benchmarks use what converters produce (multipliers below one: shifts
 * <= 0); parity cases add the edges (INT32_MAX, positive shifts, -31). */
static int bench_quant;

/* Output requantisation record: per-channel (nch = channels) or one. */
static uint16_t out_quant(uint32_t nch, int32_t k_taps) {
    static int32_t m[512], s[512];
    int32_t bits = 0;
    while ((1 << bits) < k_taps) bits++;
    for (uint32_t i = 0; i < nch; i++) {
        uint32_t r = bench_quant ? 15u : rnd() % 16;
        m[i] = (int32_t)(0x40000000u + (rnd() & 0x3FFFFFFFu));
        if (r == 0) m[i] = INT32_MAX;
        s[i] = -(int32_t)(7 + bits / 2) + rint_in(-3, 3);
        if (r == 1) s[i] = rint_in(0, 2);
        if (r == 2) s[i] = -31;
    }
    return kp_quant(&K, 0.05f, rint_in(-128, 127), nch, m, s);
}

static void random_act(tigris_op_t *op) {
    op->act_min = -128;
    op->act_max = 127;
    if (rnd() % 3 == 0) {
        op->fused_act = TIGRIS_ACT_RELU;
        op->act_min = (int8_t)rint_in(-128, 20);
        op->act_max = (int8_t)rint_in(op->act_min, 127);
    }
}

/* Height band (and sometimes width tile) over a windowed op with full
 * output oh x ow; mirrors what the executor hands a kernel. */
static void random_tile(tigris_tile_ctx_t *tc, const tigris_spatial_t *sp, int32_t ih, int32_t iw, int32_t oh,
                        int32_t ow) {
    memset(tc, 0, sizeof *tc);
    tc->active = 1;
    int32_t r0 = rint_in(0, oh - 1), rows = rint_in(1, oh - r0);
    int32_t first = r0 * sp->stride_h - sp->pad_top;
    int32_t last = (r0 + rows - 1) * sp->stride_h - sp->pad_top + sp->dilation_h * (sp->kernel_h - 1);
    int32_t in0 = first < 0 ? 0 : first, in1 = last > ih - 1 ? ih - 1 : last;
    if (in1 < in0) in1 = in0;
    tc->in_h = in1 - in0 + 1;
    tc->out_h = rows;
    tc->pad_top = in0 - first;
    tc->in_row_origin = in0;
    tc->out_row_origin = r0;
    if (rnd() % 3 == 0) tc->out_row_start = rint_in(0, oh - rows);
    if (rnd() % 3 == 0) {
        int32_t c0 = rint_in(0, ow - 1), cols = rint_in(1, ow - c0);
        int32_t f = c0 * sp->stride_w - sp->pad_left;
        int32_t l = (c0 + cols - 1) * sp->stride_w - sp->pad_left + sp->dilation_w * (sp->kernel_w - 1);
        int32_t i0 = f < 0 ? 0 : f, i1 = l > iw - 1 ? iw - 1 : l;
        if (i1 < i0) i1 = i0;
        tc->width_tiled = 1;
        tc->in_w = i1 - i0 + 1;
        tc->out_w = cols;
        tc->pad_left = i0 - f;
    }
}

/* A conv-family case: kind S_CONV or S_DW; fixed shape when dims != NULL. */
static void conv_case(int kind, const int32_t *fixed, uint32_t *tr, uint32_t *ta) {
    kp_reset(&K);
    int dw = kind == S_DW;
    int32_t n, ih, iw, ic, oc, kh, kw, sh, sw, dh, dwl, pt, pb, pl, pr, mult = 1;
    if (fixed) {
        n = 1;
        ih = iw = fixed[0];
        ic = fixed[1];
        oc = fixed[2];
        kh = kw = fixed[3];
        sh = sw = 1;
        dh = dwl = 1;
        pt = pb = pl = pr = fixed[3] / 2;
    } else {
        for (;;) {
            n = rnd() % 5 == 0 ? 2 : 1;
            ih = rint_in(1, 11);
            iw = rint_in(1, 11);
            ic = rint_in(1, 21);
            kh = rint_in(1, 5);
            kw = rnd() % 4 == 0 ? 1 : rint_in(1, 5);
            sh = rint_in(1, 3);
            sw = rint_in(1, 3);
            dh = rnd() % 4 == 0 ? 2 : 1;
            dwl = rnd() % 4 == 0 ? 2 : 1;
            pt = rint_in(0, kh - 1);
            pb = rint_in(0, kh - 1);
            pl = rint_in(0, kw - 1);
            pr = rint_in(0, kw - 1);
            /* Multipliers: 1 mostly; 4 and 8 (broadcast kernels, one input
             * channel per group); 2 and 3 (the reference). */
            static const int32_t mults[8] = {1, 1, 1, 2, 3, 4, 8, 8};
            mult = dw ? mults[rnd() % 8] : 1;
            if (mult > 1) ic = rint_in(1, 3);
            oc = dw ? ic * mult : rint_in(1, 24);
            int32_t eh = dh * (kh - 1) + 1, ew = dwl * (kw - 1) + 1;
            if (ih + pt + pb >= eh && iw + pl + pr >= ew) break;
        }
    }
    int32_t oh = (ih + pt + pb - (dh * (kh - 1) + 1)) / sh + 1;
    int32_t ow = (iw + pl + pr - (dwl * (kw - 1) + 1)) / sw + 1;
    int32_t idims[4] = {n, ih, iw, ic}, odims[4] = {n, oh, ow, oc};
    int32_t in_zp = rnd() % 8 == 0 ? (rnd() & 1 ? -128 : 127) : rint_in(-128, 127);
    int32_t m1 = 1 << 30, s0 = 0;
    uint16_t qi = kp_quant(&K, 0.02f, in_zp, 1, &m1, &s0);
    int32_t taps = kh * kw * (dw ? 1 : ic);
    uint16_t qo = out_quant(rnd() % 2 ? (uint32_t)oc : 1u, taps);
    uint16_t x = kp_tensor(&K, 4, idims, qi), y = kp_tensor(&K, 4, odims, qo);
    int ext = rnd() % 8 == 0;
    fill_s8(K.ptrs[x], K.tensors[x].size_bytes, ext);
    uint32_t wbytes = (uint32_t)(kh * kw * (dw ? oc : oc * ic));
    fill_s8(kp_blob, wbytes, ext);
    K.op.weight_idx = kp_weight(&K, 0, wbytes);
    K.op.bias_idx = TIGRIS_NONE16;
    if (rnd() % 5) {
        uint32_t at = (wbytes + 3u) & ~3u;
        for (int32_t i = 0; i < oc; i++) {
            int32_t b = rnd() % 10 == 0 ? (int32_t)rnd() : rint_in(-70000, 70000);
            memcpy(kp_blob + at + 4u * (uint32_t)i, &b, 4);
        }
        K.op.bias_idx = kp_weight(&K, at, (uint32_t)oc * 4u);
    }
    K.op.spatial.kernel_h = (uint8_t)kh;
    K.op.spatial.kernel_w = (uint8_t)kw;
    K.op.spatial.stride_h = (uint8_t)sh;
    K.op.spatial.stride_w = (uint8_t)sw;
    K.op.spatial.dilation_h = (uint16_t)dh;
    K.op.spatial.dilation_w = (uint16_t)dwl;
    K.op.spatial.pad_top = (uint16_t)pt;
    K.op.spatial.pad_bottom = (uint16_t)pb;
    K.op.spatial.pad_left = (uint16_t)pl;
    K.op.spatial.pad_right = (uint16_t)pr;
    K.op.spatial.group = (uint16_t)(dw ? ic : 1);
    if (fixed) {
        K.op.act_min = -128;
        K.op.act_max = 127;
    } else {
        random_act(&K.op);
    }
    kp_finish(&K, dw ? TIGRIS_OP_DEPTHWISE : TIGRIS_OP_CONV, 1, &x, y);
    tigris_tile_ctx_t tc;
    int banded = !fixed && rnd() % 5 < 2;
    if (banded) random_tile(&tc, &K.op.spatial, ih, iw, oh, ow);
    run_case(kind, y, banded ? &tc : NULL, tr, ta, mult == 1 || mult == 8 || (mult == 4 && !TA_MVE));
}

/* Conv shapes for the DSP widened-weight paths (split column layout for
 * k % 4 != 0 with dw == 1, the doubled-accumulator requantisation, the
 * 4-block pass): {n, ih, iw, ic, oc, kh, kw, sh, sw, pt, pb, pl, pr, flags}.
 * CS_EXT: -128/127 activations and weights; CS_ZP_LO / CS_ZP_HI: input zero
 * point -128 / 127 (output zero point the other end); CS_EDGE: biases on
 * both sides of the doubled form's bound (|bias| + (128 + |zp|) * sum|w|
 * against 2^30) and right shifts 1, 22, 23 (the form's limits), 0, 31 and
 * a left shift, multipliers INT32_MAX, 2^30, small, negative; CS_ACT: random act
 * bounds (conv: no doubled form; depthwise: doubled, then the clamp);
 * CS_BAND: a random height band / width tile; CS_DW: a depthwise op
 * (channel multiplier 1, ic == oc; sum|w| over the taps of a channel);
 * CS_INSIDE: every bias just inside the doubled form's bound.
 * Otherwise converter-like requantisation and small biases (doubled form). */
enum { CS_EXT = 1, CS_ZP_LO = 2, CS_ZP_HI = 4, CS_EDGE = 8, CS_ACT = 16, CS_BAND = 32, CS_DW = 64, CS_INSIDE = 128 };
static void conv_spec_case(const int32_t *c) {
    kp_reset(&K);
    int32_t n = c[0], ih = c[1], iw = c[2], ic = c[3], oc = c[4], kh = c[5], kw = c[6], fl = c[13];
    int32_t oh = (ih + c[9] + c[10] - kh) / c[7] + 1, ow = (iw + c[11] + c[12] - kw) / c[8] + 1;
    int32_t idims[4] = {n, ih, iw, ic}, odims[4] = {n, oh, ow, oc};
    int32_t zin = fl & CS_ZP_LO ? -128 : fl & CS_ZP_HI ? 127 : rint_in(-128, 127);
    int32_t zout = fl & CS_ZP_LO ? 127 : fl & CS_ZP_HI ? -128 : rint_in(-128, 127);
    int32_t m1 = 1 << 30, s0 = 0;
    uint16_t qi = kp_quant(&K, 0.02f, zin, 1, &m1, &s0);
    static int32_t m[64], sh[64];
    static const int32_t edge_sh[6] = {-1, -22, -23, 0, -31, 1};
    static const int32_t edge_m[4] = {INT32_MAX, 1 << 30, 12345, -12345};
    for (int32_t i = 0; i < oc; i++) {
        m[i] = (int32_t)(0x40000000u + (rnd() & 0x3FFFFFFFu));
        sh[i] = -rint_in(5, 12);
        if (fl & CS_EDGE) {
            sh[i] = edge_sh[(i / 2) % 6];
            if (i % 3 == 0) m[i] = edge_m[(i / 3) % 4];
        }
    }
    uint16_t qo = kp_quant(&K, 0.05f, zout, (uint32_t)oc, m, sh);
    uint16_t x = kp_tensor(&K, 4, idims, qi), y = kp_tensor(&K, 4, odims, qo);
    fill_s8(K.ptrs[x], K.tensors[x].size_bytes, fl & CS_EXT ? 1 : 0);
    int dw = (fl & CS_DW) != 0;
    uint32_t wbytes = (uint32_t)(oc * kh * kw * (dw ? 1 : ic)), at = (wbytes + 3u) & ~3u;
    fill_s8(kp_blob, wbytes, fl & CS_EXT ? 1 : 0);
    K.op.weight_idx = kp_weight(&K, 0, wbytes);
    int32_t xmax = 128 + (zin < 0 ? -zin : zin), k = kh * kw * (dw ? 1 : ic);
    for (int32_t i = 0; i < oc; i++) {
        int32_t b = rint_in(-70000, 70000);
        if (fl & (CS_EDGE | CS_INSIDE)) {
            int32_t sw = 0;
            for (int32_t j = 0; j < k; j++) {
                int32_t v = ((const int8_t *)kp_blob)[dw ? j * oc + i : i * k + j];
                sw += v < 0 ? -v : v;
            }
            int32_t lim = (1 << 30) - xmax * sw; /* |bias| < lim: doubled form */
            int32_t pick[4] = {lim - 1, -(lim - 1), lim, -lim};
            b = pick[fl & CS_INSIDE ? i % 2 : (i / 2) % 4];
        }
        memcpy(kp_blob + at + 4u * (uint32_t)i, &b, 4);
    }
    K.op.bias_idx = kp_weight(&K, at, (uint32_t)oc * 4u);
    K.op.spatial.kernel_h = (uint8_t)kh;
    K.op.spatial.kernel_w = (uint8_t)kw;
    K.op.spatial.stride_h = (uint8_t)c[7];
    K.op.spatial.stride_w = (uint8_t)c[8];
    K.op.spatial.dilation_h = K.op.spatial.dilation_w = 1;
    K.op.spatial.pad_top = (uint16_t)c[9];
    K.op.spatial.pad_bottom = (uint16_t)c[10];
    K.op.spatial.pad_left = (uint16_t)c[11];
    K.op.spatial.pad_right = (uint16_t)c[12];
    K.op.spatial.group = (uint16_t)(dw ? ic : 1);
    if (fl & CS_ACT) {
        random_act(&K.op);
    } else {
        K.op.act_min = -128;
        K.op.act_max = 127;
    }
    kp_finish(&K, dw ? TIGRIS_OP_DEPTHWISE : TIGRIS_OP_CONV, 1, &x, y);
    tigris_tile_ctx_t tc;
    if (fl & CS_BAND) random_tile(&tc, &K.op.spatial, ih, iw, oh, ow);
    run_case(dw ? S_DW : S_CONV, y, fl & CS_BAND ? &tc : NULL, NULL, NULL, 1);
}

/* fixed: {batch, inputs, outputs, flags} or NULL for random; flags
 * FC_ACT random act bounds, FC_EXT -128/127 activations and weights,
 * FC_ZP_LO / FC_ZP_HI input zero point -128 / 127, FC_WODD weights at an
 * odd blob offset (unaligned rows). */
enum { FC_ACT = 1, FC_EXT = 2, FC_ZP_LO = 4, FC_ZP_HI = 8, FC_WODD = 16 };
static void fc_case(const int32_t *fixed, uint32_t *tr, uint32_t *ta) {
    kp_reset(&K);
    int32_t nb = fixed ? fixed[0] : rint_in(1, 5), ic = fixed ? fixed[1] : rint_in(1, 300);
    int32_t oc = fixed ? fixed[2] : rint_in(1, 40), flags = fixed ? fixed[3] : FC_ACT;
    int32_t idims[2] = {nb, ic}, odims[2] = {nb, oc};
    int32_t m1 = 1 << 30, s0 = 0;
    int32_t zp = flags & FC_ZP_LO ? -128 : flags & FC_ZP_HI ? 127 : rint_in(-128, 127);
    uint16_t qi = kp_quant(&K, 0.02f, zp, 1, &m1, &s0);
    uint16_t qo = out_quant(rnd() % 2 ? (uint32_t)oc : 1u, ic);
    uint16_t x = kp_tensor(&K, 2, idims, qi), y = kp_tensor(&K, 2, odims, qo);
    int ext = rnd() % 8 == 0 || (flags & FC_EXT);
    fill_s8(K.ptrs[x], K.tensors[x].size_bytes, ext);
    uint32_t wbytes = (uint32_t)(oc * ic), wat = flags & FC_WODD ? 1u : 0u;
    fill_s8(kp_blob + wat, wbytes, ext);
    K.op.weight_idx = kp_weight(&K, wat, wbytes);
    K.op.bias_idx = TIGRIS_NONE16;
    if (rnd() % 4) {
        uint32_t at = (wat + wbytes + 3u) & ~3u;
        for (int32_t i = 0; i < oc; i++) {
            int32_t b = rint_in(-70000, 70000);
            memcpy(kp_blob + at + 4u * (uint32_t)i, &b, 4);
        }
        K.op.bias_idx = kp_weight(&K, at, (uint32_t)oc * 4u);
    }
    if (flags & FC_ACT) random_act(&K.op);
    else K.op.act_min = -128, K.op.act_max = 127;
    kp_finish(&K, TIGRIS_OP_FULLY_CONN, 1, &x, y);
    tigris_tile_ctx_t tc;
    int banded = !fixed && nb > 1 && rnd() % 3 == 0;
    if (banded) {
        memset(&tc, 0, sizeof tc);
        tc.active = 1;
        tc.row_tiled = TIGRIS_ROW_MODE_ROWS;
        tc.out_h = rint_in(1, nb);
        tc.in_h = tc.out_h;
    }
    run_case(S_FC, y, banded ? &tc : NULL, tr, ta, 1);
}

static void pool_case(int is_max, const int32_t *fixed, uint32_t *tr, uint32_t *ta) {
    kp_reset(&K);
    int32_t n, ih, iw, c, kh, kw, sh, sw, pt, pb, pl, pr;
    if (fixed) {
        n = 1;
        ih = iw = fixed[0];
        c = fixed[1];
        kh = kw = fixed[2];
        sh = sw = fixed[3];
        pt = pb = pl = pr = fixed[4];
    } else {
        for (;;) {
            n = rnd() % 5 == 0 ? 2 : 1;
            ih = rint_in(1, 12);
            iw = rint_in(1, 12);
            c = rint_in(1, 40);
            kh = rint_in(1, 4);
            kw = rint_in(1, 4);
            sh = rint_in(1, 3);
            sw = rint_in(1, 3);
            pt = rint_in(0, kh - 1);
            pb = rint_in(0, kh - 1);
            pl = rint_in(0, kw - 1);
            pr = rint_in(0, kw - 1);
            if (ih + pt + pb >= kh && iw + pl + pr >= kw) break;
        }
    }
    int32_t oh = (ih + pt + pb - kh) / sh + 1, ow = (iw + pl + pr - kw) / sw + 1;
    int32_t idims[4] = {n, ih, iw, c}, odims[4] = {n, oh, ow, c};
    int32_t m1 = 1 << 30, s0 = 0, zp = rint_in(-128, 127);
    int same = fixed || rnd() % 6;
    uint16_t qi = kp_quant(&K, 0.02f, zp, 1, &m1, &s0);
    uint16_t qo = same ? kp_quant(&K, 0.02f, zp, 1, &m1, &s0) : kp_quant(&K, 0.03f, rint_in(-128, 127), 1, &m1, &s0);
    uint16_t x = kp_tensor(&K, 4, idims, qi), y = kp_tensor(&K, 4, odims, qo);
    fill_s8(K.ptrs[x], K.tensors[x].size_bytes, rnd() % 8 == 0);
    K.op.weight_idx = K.op.bias_idx = TIGRIS_NONE16;
    K.op.spatial.kernel_h = (uint8_t)kh;
    K.op.spatial.kernel_w = (uint8_t)kw;
    K.op.spatial.stride_h = (uint8_t)sh;
    K.op.spatial.stride_w = (uint8_t)sw;
    K.op.spatial.dilation_h = K.op.spatial.dilation_w = 1;
    K.op.spatial.pad_top = (uint16_t)pt;
    K.op.spatial.pad_bottom = (uint16_t)pb;
    K.op.spatial.pad_left = (uint16_t)pl;
    K.op.spatial.pad_right = (uint16_t)pr;
    if (fixed) K.op.act_min = -128, K.op.act_max = 127;
    else random_act(&K.op);
    kp_finish(&K, is_max ? TIGRIS_OP_MAX_POOL : TIGRIS_OP_AVG_POOL, 1, &x, y);
    tigris_tile_ctx_t tc;
    int banded = !fixed && rnd() % 5 < 2;
    if (banded) random_tile(&tc, &K.op.spatial, ih, iw, oh, ow);
    run_case(is_max ? S_MAX : S_AVG, y, banded ? &tc : NULL, tr, ta, same);
}

static void add_case(const int32_t *fixed, uint32_t *tr, uint32_t *ta) {
    kp_reset(&K);
    int32_t dims[4] = {1, 1, 1, 1}, rank;
    if (fixed) {
        rank = 4;
        dims[1] = dims[2] = fixed[0];
        dims[3] = fixed[1];
    } else {
        rank = rint_in(1, 4);
        for (int32_t i = 0; i < rank; i++) dims[i] = rint_in(1, i == rank - 1 ? 40 : 12);
    }
    int32_t m1 = 1 << 30, s0 = 0;
    float sa = 0.004f + (float)(rnd() % 1000) * 1e-4f, sb = 0.004f + (float)(rnd() % 1000) * 1e-4f;
    float sy = 0.008f + (float)(rnd() % 1000) * 2e-4f;
    uint16_t qa = kp_quant(&K, sa, rint_in(-128, 127), 1, &m1, &s0);
    uint16_t qb = kp_quant(&K, sb, rint_in(-128, 127), 1, &m1, &s0);
    uint16_t qy = kp_quant(&K, sy, rint_in(-128, 127), 1, &m1, &s0);
    uint16_t in[2];
    in[0] = kp_tensor(&K, (uint32_t)rank, dims, qa);
    in[1] = kp_tensor(&K, (uint32_t)rank, dims, qb);
    uint16_t y = kp_tensor(&K, (uint32_t)rank, dims, qy);
    fill_s8(K.ptrs[in[0]], K.tensors[in[0]].size_bytes, rnd() % 8 == 0);
    fill_s8(K.ptrs[in[1]], K.tensors[in[1]].size_bytes, rnd() % 8 == 0);
    K.op.weight_idx = K.op.bias_idx = TIGRIS_NONE16;
    if (fixed) K.op.act_min = -128, K.op.act_max = 127;
    else random_act(&K.op);
    kp_finish(&K, TIGRIS_OP_ADD, 2, in, y);
    run_case(S_ADD, y, NULL, tr, ta, 1);
}

static void bench(const char *what, int kind, uint32_t tr, uint32_t ta) {
    (void)kind;
    uint32_t r100 = ta ? (uint32_t)(((uint64_t)tr * 100u) / ta) : 0;
    printf("BENCH %-24s ref %8lu acc %8lu ticks  ratio %lu.%02lu\n", what, (unsigned long)tr, (unsigned long)ta,
           (unsigned long)(r100 / 100u), (unsigned long)(r100 % 100u));
}

#ifndef PARITY_CMSIS_NN
/* ta_mbqm (one SMULL) and ta_requant_fast (prepared, branch-free) against
 * the reference's fx_mbqm on edges and random values; returns the number of
 * differences. */
static uint32_t check_mbqm(void) {
    static const int32_t edge[] = {0, 1, -1, 2, -2, 1 << 30, -(1 << 30), INT32_MAX, INT32_MIN, 12345, -12345,
                                   0x40000000 + 1, -0x40000000 - 1, 0x7FFFFFFE, -0x7FFFFFFF};
    uint32_t bad = 0, ne = sizeof edge / sizeof edge[0];
    for (uint32_t i = 0; i < 200000u; i++) {
        int32_t x = i < ne * ne ? edge[i % ne] : (int32_t)rnd();
        int32_t m = i < ne * ne ? edge[i / ne] : (int32_t)rnd();
        if (i >= ne * ne && (i & 3) == 0) x >>= rnd() % 31;
        int32_t s = rint_in(-34, 34);
        if (ta_mbqm(x, m, s) != fx_mbqm(x, m, s)) {
            if (bad < 5) printf("FAIL mbqm x %ld m %ld s %ld\n", (long)x, (long)m, (long)s);
            bad++;
        }
        /* The prepared, branch-free form with zero point and act clamp. */
        if (m == INT32_MIN) continue;
        ta_requant_t rq = {&m, &s, 0, rint_in(-128, 127), rint_in(-128, 0), rint_in(0, 127)};
        ta_chq_t ch;
        ta_requant_prep(&rq, NULL, 1, &ch);
        int32_t want = fx_clamp(fx_wadd(fx_mbqm(x, m, s), rq.zp_out), rq.act_min, rq.act_max);
        if (ta_requant_fast(&rq, &ch, x) != (int8_t)want) {
            if (bad < 5) printf("FAIL requant_fast x %ld m %ld s %ld\n", (long)x, (long)m, (long)s);
            bad++;
        }
        /* The doubled form (conv): |acc| < 2^30, full act bounds, shift
         * -22..-1; both encodings (SMMULR; SMMLAR needs m >= 0). */
        int32_t xd = x >> 2, sd = -(int32_t)(1u + (uint32_t)i % 22u); /* no rnd(): later cases keep their data */
        ta_requant_t rd = {&m, &sd, 0, rq.zp_out, -128, 127};
        uint32_t wabs = 0;
        ta_requant_prep(&rd, NULL, 1, &ch);
        ch.bias = xd; /* the bound check sees the accumulator as the bias */
        if (ta_requant_dbl_prep(&rd, &ch, 1, 0, &wabs) == 1) {
            int32_t wd = fx_clamp(fx_wadd(fx_mbqm(xd, m, sd), rd.zp_out), -128, 127);
            int32_t a2 = (int32_t)((uint32_t)xd * 2u);
            if (ta_requant_dbl(&ch, a2) != (int8_t)wd || ta_requant_dbl_mla(&ch, a2) != (int8_t)wd) {
                if (bad < 5) printf("FAIL requant_dbl x %ld m %ld s %ld\n", (long)xd, (long)m, (long)sd);
                bad++;
            }
        } else if (m >= 0) {
            if (bad < 5) printf("FAIL requant_dbl_prep refused x %ld m %ld\n", (long)xd, (long)m);
            bad++;
        }
    }
    return bad;
}

#endif

#ifdef PARITY_CMSIS_NN
/* ---- The CMSIS-NN adapter's contract (API reference, "CMSIS-NN") ---- */
static uint32_t cmsis_fails;
static void cmsis_check(int ok, const char *what) {
    if (!ok) {
        printf("FAIL cmsis-nn contract: %s\n", what);
        cmsis_fails++;
    }
}

static uint32_t r16(uint32_t v) { return (v + 15u) & ~15u; }

/* The op in K through the reference and the adapter: the same bytes, and
 * CMSIS-NN called (or not) as expected. */
static void cmsis_route_case(const char *what, int expect_vendor) {
    tigris_mem_t mem;
    void *ptrs[KP_MAX_T];
    memcpy(ptrs, K.ptrs, sizeof ptrs);
    int ok = tigris_mem_init(&mem, ptrs, (uint16_t)K.nt, fast_buf, sizeof fast_buf, NULL, 0) == TIGRIS_MEM_OK;
    memcpy(ptrs, K.ptrs, sizeof ptrs);
    ok = ok && tigris_cmsis_nn_prepare(&K.plan, &mem) == 0;
    uint16_t out = K.pool[K.op.outputs_off];
    uint32_t ob = K.tensors[out].size_bytes + 16u;
    uint8_t *y = (uint8_t *)K.ptrs[out];
    memset(y, 0x5A, ob);
    int rc_ref = tigris_dispatch_kernel_s8(&K.plan, &K.op, 0, &mem, NULL);
    memcpy(ref_out, y, ob);
    memset(y, 0x5A, ob);
    uint32_t before = tigris_cmsis_nn_vendor_calls();
    int rc = tigris_dispatch_kernel_cmsis_nn(&K.plan, &K.op, 0, &mem, NULL);
    uint32_t called = tigris_cmsis_nn_vendor_calls() - before;
    ok = ok && rc_ref == 0 && rc == 0 && memcmp(ref_out, y, ob) == 0;
    ok = ok && called == (expect_vendor ? 1u : 0u);
    ok = ok && tigris_cmsis_nn_deinit(&mem) == 0;
    printf("CMSIS route %-40s %s (vendor calls %lu)\n", what, ok ? "ok" : "FAILED", (unsigned long)called);
    cmsis_check(ok, what);
}

static void cmsis_checks(void) {
    uint32_t tr, ta;
    /* Scratch = CMSIS-NN's own buffer size for the op + 12 bytes a channel
     * (multiplier, shift, bias arrays), each 16-byte rounded. */
    static const int32_t c3[4] = {16, 16, 16, 3}, f2[4] = {1, 1024, 128, 0};
    conv_case(S_CONV, c3, &tr, &ta);
    {
        cmsis_nn_conv_params cp = {0, 0, {1, 1}, {1, 1}, {1, 1}, {-128, 127}};
        cmsis_nn_dims in = {1, 16, 16, 16}, fd = {16, 3, 3, 16}, out = {1, 16, 16, 16};
        int32_t b = arm_convolve_wrapper_s8_get_buffer_size(&cp, &in, &fd, &out);
        uint32_t want = r16(r16(12u * 16u) + r16((uint32_t)b));
        uint32_t got = tigris_cmsis_nn_scratch_required(&K.plan);
        printf("CMSIS scratch conv 3x3 16x16x16->16: %lu (CMSIS-NN buffer %ld)\n", (unsigned long)got, (long)b);
        cmsis_check(b > 0 && got == want, "conv scratch = CMSIS-NN's buffer size + parameter arrays");
        cmsis_check(tigris_cmsis_nn_fast_arena_required(&K.plan) ==
                        tigris_fast_arena_required(&K.plan) + got + (uint32_t)TIGRIS_TENSOR_ALIGN - 1u,
                    "fast arena = core + scratch + alignment");
    }
    /* prepare / deinit */
    {
        tigris_mem_t mem, other;
        void *ptrs[KP_MAX_T], *ptrs2[KP_MAX_T];
        memcpy(ptrs, K.ptrs, sizeof ptrs);
        tigris_mem_init(&mem, ptrs, (uint16_t)K.nt, fast_buf, sizeof fast_buf, NULL, 0);
        tigris_mem_init(&other, ptrs2, (uint16_t)K.nt, fast_buf, sizeof fast_buf, NULL, 0);
        uint32_t full = mem.fast_size, need = tigris_cmsis_nn_scratch_required(&K.plan);
        cmsis_check(tigris_cmsis_nn_prepare(&K.plan, &mem) == 0, "prepare");
        uint32_t reduced = mem.fast_size;
        uintptr_t top = (uintptr_t)fast_buf + full, base = (uintptr_t)fast_buf + reduced;
        cmsis_check(reduced < full && top - base >= need && base % TIGRIS_TENSOR_ALIGN == 0 &&
                        top - base < need + TIGRIS_TENSOR_ALIGN,
                    "the reservation is the top of the fast arena, aligned");
        cmsis_check(tigris_cmsis_nn_prepare(&K.plan, &mem) == 0 && mem.fast_size == reduced,
                    "prepare again for the same arena: 0, nothing changes");
        cmsis_check(tigris_cmsis_nn_prepare(&K.plan, &other) == -1, "prepare for another arena before deinit: -1");
        cmsis_check(tigris_cmsis_nn_deinit(&other) == -1, "deinit of an arena that was not prepared: -1");
        cmsis_check(tigris_cmsis_nn_deinit(&mem) == 0 && mem.fast_size == full, "deinit restores the fast size");
        cmsis_check(tigris_cmsis_nn_deinit(&mem) == -1, "deinit twice: -1");
        cmsis_check(tigris_cmsis_nn_prepare(&K.plan, &other) == 0 && tigris_cmsis_nn_deinit(&other) == 0,
                    "after deinit another arena can be prepared");
        tigris_mem_t tiny;
        tigris_mem_init(&tiny, ptrs2, (uint16_t)K.nt, fast_buf, need / 2u, NULL, 0);
        cmsis_check(tigris_cmsis_nn_prepare(&K.plan, &tiny) == -1 && tiny.fast_size == need / 2u,
                    "a fast arena smaller than the scratch: -1");
        cmsis_check(tigris_cmsis_nn_prepare(NULL, &mem) == -1 && tigris_cmsis_nn_prepare(&K.plan, NULL) == -1,
                    "prepare with NULL: -1");
        cmsis_check(tigris_cmsis_nn_scratch_required(NULL) == UINT32_MAX &&
                        tigris_cmsis_nn_fast_arena_required(NULL) == UINT32_MAX,
                    "sizing of NULL: UINT32_MAX");
    }
    /* Routes: CMSIS-NN computes the conv; with a multiplier of INT32_MIN
     * (whose saturating product CMSIS-NN does not compute as the reference
     * does) the reference does. */
    cmsis_route_case("conv 3x3 16x16x16->16", 1);
    {
        const tigris_quant_param_t *q = &K.quants[K.tensors[K.pool[K.op.outputs_off]].quant_param_idx];
        for (uint32_t c = 0; c < q->num_channels; c++) K.qdata[q->multiplier_off + c] = INT32_MIN;
    }
    cmsis_route_case("conv with multiplier INT32_MIN (fallback)", 0);
    fc_case(f2, &tr, &ta);
    {
        cmsis_nn_dims fd = {1024, 1, 1, 128};
        int32_t b = arm_fully_connected_s8_get_buffer_size(&fd);
        uint32_t want = r16(r16(12u * 128u) + r16((uint32_t)(b > 0 ? b : 0)));
        cmsis_check(tigris_cmsis_nn_scratch_required(&K.plan) == want, "fc scratch = CMSIS-NN's buffer + parameters");
    }
    cmsis_route_case("fully connected 1024->128", 1);
    static const int32_t pm[5] = {16, 32, 2, 2, 0};
    pool_case(1, pm, &tr, &ta);
    cmsis_route_case("max pool 2x2/2", 1);
    K.quants[K.tensors[K.pool[K.op.outputs_off]].quant_param_idx].zero_point += 1;
    cmsis_route_case("requantising max pool (fallback)", 0);
    pool_case(0, pm, &tr, &ta);
    K.op.spatial.dilation_h = 2;
    K.op.spatial.kernel_h = 1;
    cmsis_route_case("dilated average pool (fallback)", 0);
}
#endif

int main(void) {
    tick_start();
    printf("PARITY backend %s\n", BE_NAME);
#ifdef PARITY_CMSIS_NN
    uint32_t mbqm_bad = 0; /* tigris-arm's requantisation helpers: its own image checks them */
#else
    uint32_t mbqm_bad = check_mbqm();
    printf("PARITY mbqm             mismatches %lu\n", (unsigned long)mbqm_bad);
#endif
    for (int i = 0; i < 80; i++) conv_case(S_CONV, NULL, NULL, NULL);
    /* Weight rows too long to pad per call (oc * round4(k) > 16 KiB, k % 4 != 0):
     * the scalar tail path. */
    static const int32_t long_rows[4] = {9, 21, 40, 5};
    for (int i = 0; i < 3; i++) conv_case(S_CONV, long_rows, NULL, NULL);
    /* The widened-weight DSP paths: split layout (k % 4 != 0: 3x3x3,
     * 3x3x1, 2x3x5, 5x5x3, 1x1x3, 1x9 / 9x1 rows, 3x3x7), 4-block passes
     * (k = 16, 32, 48), odd pixel and channel counts, stride 2, asymmetric
     * padding, bands, zero points at both ends, extremes, the doubled
     * form's bounds and shift limits. */
    static const int32_t conv_specs[][14] = {
        {1, 9, 9, 3, 8, 3, 3, 1, 1, 1, 1, 1, 1, 0},        {1, 11, 13, 3, 5, 3, 3, 2, 2, 1, 0, 0, 1, CS_EXT | CS_ZP_HI},
        {1, 8, 7, 3, 7, 3, 3, 1, 1, 1, 1, 1, 1, CS_EDGE},  {2, 6, 5, 3, 8, 3, 3, 1, 1, 0, 2, 2, 0, CS_ZP_LO | CS_EDGE},
        {1, 9, 8, 1, 6, 3, 3, 1, 2, 1, 1, 1, 1, CS_EXT},   {1, 7, 7, 5, 3, 2, 3, 1, 1, 1, 0, 1, 1, CS_ACT},
        {1, 9, 9, 3, 4, 5, 5, 2, 1, 2, 2, 2, 2, CS_EDGE},  {1, 6, 7, 3, 9, 1, 1, 1, 1, 0, 0, 0, 0, CS_EXT | CS_ZP_LO},
        {1, 12, 4, 1, 6, 1, 9, 1, 1, 0, 0, 4, 4, 0},       {1, 11, 5, 1, 4, 9, 1, 1, 1, 4, 4, 0, 0, CS_EDGE},
        {1, 5, 13, 9, 6, 1, 1, 1, 2, 0, 0, 1, 0, CS_ZP_HI}, {1, 8, 8, 7, 6, 3, 3, 1, 1, 1, 1, 1, 1, CS_BAND},
        {1, 9, 9, 3, 8, 3, 3, 1, 1, 1, 1, 1, 1, CS_BAND | CS_EDGE}, {1, 7, 6, 16, 5, 1, 1, 1, 1, 0, 0, 0, 0, CS_EDGE},
        {1, 5, 7, 32, 7, 1, 1, 1, 1, 0, 0, 0, 0, CS_EXT | CS_ZP_HI}, {1, 6, 6, 48, 4, 1, 1, 2, 2, 0, 1, 0, 1, CS_ZP_LO},
        {1, 5, 5, 16, 6, 1, 1, 1, 1, 0, 0, 0, 0, CS_ACT | CS_BAND}, {2, 5, 5, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, CS_EXT | CS_EDGE},
        /* The MVE padded path (weights zero-padded to 16-byte blocks, two
         * pixels per pass): k = 27, 9, 3, 45, 75 and 72 (rows over 16 bytes),
         * 144 (more blocks than the unrolled pass), 1x1 columns in place
         * (k = 16) next to padding; odd pixel and channel counts, a single
         * output column, padding on every side, stride 2, bands. */
        {1, 10, 11, 3, 9, 3, 3, 2, 2, 1, 1, 1, 1, CS_EXT | CS_ZP_LO}, {2, 7, 9, 3, 5, 3, 3, 1, 1, 2, 0, 0, 2, CS_ZP_HI | CS_BAND},
        {1, 9, 7, 1, 3, 3, 3, 1, 1, 1, 2, 2, 1, CS_EXT | CS_ZP_HI}, {1, 8, 9, 1, 6, 1, 3, 1, 2, 0, 0, 1, 1, CS_ZP_LO},
        {1, 9, 5, 1, 5, 3, 1, 2, 1, 1, 1, 0, 0, CS_EXT},            {1, 8, 9, 5, 7, 3, 3, 1, 1, 1, 1, 1, 1, CS_EDGE | CS_ZP_LO},
        {1, 9, 8, 5, 13, 3, 3, 2, 1, 0, 2, 2, 0, CS_ACT | CS_BAND}, {1, 11, 9, 3, 6, 5, 5, 1, 2, 2, 2, 2, 2, CS_EXT | CS_ZP_HI},
        {1, 7, 7, 3, 4, 5, 5, 1, 1, 4, 0, 0, 4, CS_EDGE},           {1, 9, 10, 8, 8, 3, 3, 1, 1, 1, 1, 1, 1, CS_ZP_LO},
        {1, 6, 5, 16, 6, 3, 3, 1, 1, 1, 1, 1, 1, CS_EXT | CS_ZP_HI}, {1, 5, 1, 3, 5, 3, 3, 1, 1, 1, 1, 1, 1, 0},
        {1, 7, 6, 16, 5, 1, 1, 2, 2, 1, 1, 1, 1, CS_EXT},           {1, 4, 4, 3, 1, 3, 3, 1, 1, 1, 1, 1, 1, CS_EDGE | CS_ZP_HI},
    };
    uint32_t rng_spec = rng_state; /* the cases after these keep their data */
    for (unsigned i = 0; i < sizeof conv_specs / sizeof conv_specs[0]; i++) conv_spec_case(conv_specs[i]);
    rng_state = rng_spec;
    for (int i = 0; i < 80; i++) conv_case(S_DW, NULL, NULL, NULL);
    /* Depthwise shapes of real models (kws 3x3 'same' on narrow maps, vww
     * stride 2 with padding only right and bottom, small maps) through the
     * doubled requantisation: with and without act clamp, channel tails
     * (oc % 4), zero points at both ends, extremes, bias at the bound
     * (CS_EDGE: some pairs out, so the whole call stays undoubled;
     * CS_INSIDE: all in), a 1x1 window (no room for the |w| sums), bands. */
    static const int32_t dw_specs[][14] = {
        {1, 9, 5, 20, 20, 3, 3, 1, 1, 1, 1, 1, 1, CS_DW | CS_ACT},
        {1, 8, 8, 8, 8, 3, 3, 2, 2, 0, 1, 0, 1, CS_DW | CS_ACT | CS_ZP_LO},
        {1, 6, 6, 12, 12, 3, 3, 1, 1, 1, 1, 1, 1, CS_DW | CS_ZP_LO | CS_EXT},
        {1, 7, 5, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1, CS_DW | CS_ZP_HI | CS_EDGE | CS_BAND},
        {1, 5, 5, 6, 6, 3, 3, 1, 1, 1, 1, 1, 1, CS_DW | CS_ACT | CS_INSIDE},
        {1, 6, 4, 8, 8, 3, 3, 1, 1, 1, 1, 1, 1, CS_DW | CS_INSIDE | CS_ZP_HI | CS_EXT},
        {1, 4, 4, 8, 8, 1, 1, 1, 1, 0, 0, 0, 0, CS_DW | CS_EDGE},
        {2, 6, 5, 8, 8, 5, 5, 1, 1, 2, 2, 2, 2, CS_DW | CS_EXT | CS_ZP_LO | CS_ACT},
        {1, 3, 3, 24, 24, 3, 3, 1, 1, 1, 1, 1, 1, CS_DW | CS_EDGE | CS_ACT},
        {1, 9, 7, 10, 10, 3, 3, 2, 2, 1, 1, 1, 1, CS_DW | CS_BAND | CS_ACT},
    };
    rng_spec = rng_state;
    for (unsigned i = 0; i < sizeof dw_specs / sizeof dw_specs[0]; i++) conv_spec_case(dw_specs[i]);
    rng_state = rng_spec;
    for (int i = 0; i < 60; i++) fc_case(NULL, NULL, NULL);
    /* Single rows with whole 4-blocks (the DSP two-rows-per-pass LDRD path):
     * every mix of odd block, odd group, group pair and 4-group loop turns,
     * odd output counts, zero points at both ends, extremes, and unaligned
     * weight rows (the 1x4 LDR path instead). */
    static const int32_t fc_single[][4] = {
        {1, 4, 1, FC_ACT},        {1, 8, 2, FC_EXT | FC_ZP_LO}, {1, 12, 3, FC_ZP_HI},
        {1, 16, 5, FC_ACT},       {1, 28, 7, FC_EXT | FC_ZP_HI}, {1, 32, 9, FC_ZP_LO},
        {1, 60, 4, FC_ACT},       {1, 64, 11, FC_EXT},          {1, 68, 6, FC_ACT | FC_ZP_LO},
        {1, 124, 13, FC_EXT | FC_ZP_LO}, {1, 132, 8, FC_ACT | FC_ZP_HI}, {1, 260, 17, FC_EXT},
        {1, 36, 5, FC_WODD | FC_ACT}, {1, 64, 6, FC_WODD | FC_EXT | FC_ZP_HI}, {1, 20, 3, FC_WODD},
        /* Full act bounds: the single row derives its channels directly
         * (no table), over ad01-like shapes, odd counts and tails. */
        {1, 640, 12, FC_EXT}, {1, 8, 16, FC_ZP_LO}, {1, 128, 8, FC_ZP_HI}, {1, 9, 5, FC_EXT},
        {1, 40, 7, FC_WODD | FC_EXT}, {1, 3, 2, 0},
    };
    uint32_t rng_keep = rng_state; /* the benchmarks below keep their data */
    for (unsigned i = 0; i < sizeof fc_single / sizeof fc_single[0]; i++) fc_case(fc_single[i], NULL, NULL);
    rng_state = rng_keep;
    for (int i = 0; i < 60; i++) pool_case(1, NULL, NULL, NULL);
    for (int i = 0; i < 60; i++) pool_case(0, NULL, NULL, NULL);
    for (int i = 0; i < 60; i++) add_case(NULL, NULL, NULL);
    int failed = mbqm_bad != 0;
    for (int k = 0; k < S_N; k++) {
        printf("PARITY %-16s cases %4lu  accelerated %4lu  mismatches %lu\n", stats[k].name,
               (unsigned long)stats[k].cases, (unsigned long)stats[k].accel, (unsigned long)stats[k].fails);
        if (stats[k].fails || !stats[k].accel) failed = 1;
    }
    /* Benchmarks: fixed shapes, one dispatch each. */
    uint32_t tr, ta;
    bench_quant = 1;
    static const int32_t c3[4] = {16, 16, 16, 3}, c1[4] = {16, 32, 32, 1}, d3[4] = {16, 32, 32, 3};
    conv_case(S_CONV, c3, &tr, &ta);
    bench("conv 3x3 16x16x16->16", S_CONV, tr, ta);
    conv_case(S_CONV, c1, &tr, &ta);
    bench("conv 1x1 16x16x32->32", S_CONV, tr, ta);
    /* Few input channels (a first layer): short columns, k % 4 != 0. */
    static const int32_t cs3[4] = {32, 3, 8, 3}, cs8[4] = {32, 8, 8, 3};
    conv_case(S_CONV, cs3, &tr, &ta);
    bench("conv 3x3 32x32x3->8", S_CONV, tr, ta);
    conv_case(S_CONV, cs8, &tr, &ta);
    bench("conv 3x3 32x32x8->8", S_CONV, tr, ta);
    conv_case(S_DW, d3, &tr, &ta);
    bench("depthwise 3x3 16x16x32", S_DW, tr, ta);
    static const int32_t f1[4] = {1, 256, 64, 0};
    fc_case(f1, &tr, &ta);
    bench("fc 256->64", S_FC, tr, ta);
    static const int32_t f2[4] = {1, 1024, 128, 0};
    fc_case(f2, &tr, &ta);
    bench("fc 1024->128", S_FC, tr, ta);
    static const int32_t pm[5] = {16, 32, 2, 2, 0}, pa[5] = {16, 32, 3, 1, 1};
    pool_case(1, pm, &tr, &ta);
    bench("max_pool 2x2/2 16x16x32", S_MAX, tr, ta);
    pool_case(0, pa, &tr, &ta);
    bench("avg_pool 3x3/1 16x16x32", S_AVG, tr, ta);
    static const int32_t a1[2] = {16, 32};
    add_case(a1, &tr, &ta);
    bench("add 16x16x32", S_ADD, tr, ta);
    for (int k = 0; k < S_N; k++)
        if (stats[k].fails) failed = 1;
#ifdef PARITY_CMSIS_NN
    cmsis_checks();
    printf("CMSIS contract failures %lu\n", (unsigned long)cmsis_fails);
    if (cmsis_fails) failed = 1;
#endif
    printf("%s\n", failed ? "PARITY FAILED" : "PARITY OK");
    return failed;
}
