/*
 * recurrent.c - int8 SVDF (runtime-semantics §4.3 item 32, tgrs-format.md
 * §14.8; TFLite's integer SVDF): int8 input and output, int16 state and time
 * weights, int8 feature weights, int32 bias. Every multiplier comes from the
 * SVDF payload, so the kernel needs no scale arithmetic at all. Integer
 * only. The int8 LSTM has no kernel here (see docs/kernels.md).
 */
#include "../kernel_common.h"
#include "fixedpoint.h"

static int rc_overlap(const void *a, size_t na, const void *b, size_t nb) {
    const uint8_t *pa = (const uint8_t *)a, *pb = (const uint8_t *)b;
    return pa < pb + nb && pb < pa + na;
}

static int16_t rc_ld_i16(const uint8_t *p, uint32_t i) {
    int16_t v;
    memcpy(&v, p + 2u * i, 2);
    return v;
}

int tk_s8_svdf(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    if (mem->tile.active || op->num_inputs != 2 || op->num_outputs != 2) return -1;
    tk_view_t xv, sv, yv, nv;
    int32_t xi = tk_in_idx(plan, op, 0), si = tk_in_idx(plan, op, 1);
    int32_t yi = tk_out_idx(plan, op, 0), ni = tk_out_idx(plan, op, 1);
    if (tk_view(plan, xi, &xv) || tk_view(plan, si, &sv) || tk_view(plan, yi, &yv) || tk_view(plan, ni, &nv))
        return -1;
    if (xv.t->dtype != TIGRIS_DTYPE_INT8 || yv.t->dtype != TIGRIS_DTYPE_INT8 ||
        sv.t->dtype != TIGRIS_DTYPE_INT16 || nv.t->dtype != TIGRIS_DTYPE_INT16)
        return -1;
    if (xv.rank != 2 || sv.rank != 2 || yv.rank != 2 || nv.numel != sv.numel) return -1;
    if (!tigris_tensor_quant(plan, xv.t) || !tigris_tensor_quant(plan, yv.t)) return -1;
    uint8_t alen = 0;
    const uint8_t *a = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_SVDF, &alen);
    if (!a || alen != 24) return -1;
    int32_t rank = tk_ld_i32(a, 0), szp = tk_ld_i32(a, 1);
    int32_t m1 = tk_ld_i32(a, 2), s1 = tk_ld_i32(a, 3), m2 = tk_ld_i32(a, 4), s2 = tk_ld_i32(a, 5);
    if (rank <= 0 || szp < -32768 || szp > 32767 || m1 < 0 || m2 < 0 || s1 < -31 || s1 > 0 || s2 < -31 || s2 > 0)
        return -1;
    int32_t batch = xv.dim[0], features = xv.dim[1], units = yv.dim[1];
    if (sv.dim[0] != batch || yv.dim[0] != batch) return -1;
    uint64_t filters64 = (uint64_t)units * (uint64_t)rank;
    if (filters64 > (uint64_t)sv.dim[1] || (uint32_t)sv.dim[1] % (uint32_t)filters64) return -1;
    int32_t filters = (int32_t)filters64;
    int32_t memory = sv.dim[1] / filters;
    uint8_t clen = 0;
    const uint8_t *cp = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_CONSTANTS, &clen);
    if (!cp || clen != 6) return -1;
    uint16_t k[3];
    for (int i = 0; i < 3; i++) k[i] = (uint16_t)(cp[2 * i] | (cp[2 * i + 1] << 8));
    uint64_t fwb = (uint64_t)filters * (uint64_t)features, twb = (uint64_t)filters * (uint64_t)memory * 2u;
    if (fwb > 0xFFFFFFFFu || twb > 0xFFFFFFFFu) return -1;
    const int8_t *fw = (const int8_t *)tk_weight(plan, k[0], (uint32_t)fwb);
    const uint8_t *tw = (const uint8_t *)tk_weight(plan, k[1], (uint32_t)twb);
    const uint8_t *bias = NULL;
    if (k[2] != TIGRIS_NONE16) {
        bias = (const uint8_t *)tk_weight(plan, k[2], (uint32_t)units * 4u);
        if (!bias) return -1;
    }
    const int8_t *x = (const int8_t *)tk_buf(mem, xi);
    const uint8_t *s = (const uint8_t *)tk_buf(mem, si);
    int8_t *y = (int8_t *)tk_buf(mem, yi);
    uint8_t *ns = (uint8_t *)tk_buf(mem, ni);
    if (!fw || !tw || !x || !s || !y || !ns) return -1;
    size_t sbytes = (size_t)sv.numel * 2u;
    if (rc_overlap(y, yv.numel, x, xv.numel) || rc_overlap(y, yv.numel, s, sbytes) ||
        rc_overlap(y, yv.numel, ns, sbytes) || rc_overlap(ns, sbytes, x, xv.numel))
        return -1;
    if (ns != s && rc_overlap(ns, sbytes, s, sbytes)) return -1;
    int32_t zx = tk_zero_point(plan, xv.t), zy = tk_zero_point(plan, yv.t);

    /* State moves one element toward the front over the whole buffer. */
    uint32_t n = sv.numel;
    if (n > 1) memmove(ns, s + 2, (size_t)(n - 1) * 2u);
    memmove(ns + 2u * (n - 1), s + 2u * (n - 1), 2);
    /* Newest slot of every (batch, filter): requantised feature product. */
    for (int32_t b = 0; b < batch; b++) {
        const int8_t *xb = x + (size_t)b * (size_t)features;
        for (int32_t f = 0; f < filters; f++) {
            const int8_t *w = fw + (size_t)f * (size_t)features;
            int32_t acc = 0;
            for (int32_t i = 0; i < features; i++) acc = fx_wadd(acc, (int32_t)w[i] * ((int32_t)xb[i] - zx));
            int32_t v = fx_clamp(fx_mbqm(acc, m1, s1), -32768, 32767);
            int16_t st = (int16_t)(uint16_t)((uint32_t)v + (uint32_t)szp);
            size_t at = ((size_t)b * (size_t)filters + (size_t)f) * (size_t)memory + (size_t)(memory - 1);
            memcpy(ns + 2u * at, &st, 2);
        }
    }
    /* Output: bias plus the time-weighted memory of the unit's rank filters. */
    for (int32_t b = 0; b < batch; b++) {
        for (int32_t u = 0; u < units; u++) {
            int32_t acc = bias ? tk_ld_i32(bias, (uint32_t)u) : 0;
            for (int32_t r = 0; r < rank; r++) {
                int32_t f = u * rank + r;
                size_t base = ((size_t)b * (size_t)filters + (size_t)f) * (size_t)memory;
                for (int32_t m = 0; m < memory; m++) {
                    int32_t sv16 = rc_ld_i16(ns, (uint32_t)(base + (size_t)m));
                    int32_t t16 = rc_ld_i16(tw, (uint32_t)(f * memory + m));
                    acc = fx_wadd(acc, fx_wmul(t16, sv16 - szp));
                }
            }
            int64_t v = (int64_t)fx_mbqm(acc, m2, s2) + zy;
            y[(size_t)b * (size_t)units + (size_t)u] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
        }
    }
    return 0;
}
