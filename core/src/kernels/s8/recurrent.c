/*
 * recurrent.c - int8 SVDF and LSTM (docs/format.md P14.8).
 *
 * SVDF (docs/runtime-semantics.md R4.3 item 32; TFLite's integer SVDF): int8 input
 * and output, int16 state and time weights, int8 feature weights, int32 bias.
 *
 * LSTM (TFLite Micro's integer 8x8->16 LSTM): int8 sequence and hidden
 * state, int16 cell state, int8 weights, int32 biases; gates in Q3.12 before
 * and Q0.15 after their int16 sigmoid/tanh (act16.h).
 *
 * Every multiplier of both ops comes from the op's payload, so the kernels
 * need no scale arithmetic at all. Integer only (lx106 builds this file).
 */
#include "../kernel_common.h"
#include "act16.h"
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

/* ---- LSTM ----
 *
 * One step of one batch row, per unit u (TFLite Micro's LstmStep, which runs
 * the same element-wise formulas over whole vectors):
 *   gate_g = sat16(FC_in_g(x) + FC_rec_g(h))            Q3.12, g = i, f, c, o
 *     FC_in_g(x)  = clamp16(MBQM(Σ W·(x − zp_x) + bias_g, m, s))
 *     FC_rec_g(h) = clamp16(MBQM(Σ R·(h − zp_h), m, s))   (no recurrent bias)
 *   i, f, o = sigmoid16(gate), g = tanh16(gate)         Q0.15
 *   c' = sat16(clamp16(MBQM(f·c, forget)) + clamp16(MBQM(i·g, input)))
 *   c' = clamp(c', ±clip) when the float cell clip is > 0
 *   h' = clamp8(MBQM(tanh16(c')·o, output) + zp_h), tanh16 read at the cell
 *        scale 2^cell_pow
 * Units are independent within a step, so computing them one at a time
 * gives TFLite's results exactly and needs no gate scratch. */

typedef struct {
    int32_t m, s;
} rc_ms_t;

typedef struct {
    int32_t tm, zx, zh, cell_pow, clip; /* clip < 0: no clipping */
    rc_ms_t in[4], rec[4];              /* gate FCs into 2^-12, gates i, f, c, o */
    rc_ms_t fc, ig, out;                /* forget·cell, input·cell gate, output·tanh(cell) */
} rc_lstm_q_t;

static int rc_ms(const uint8_t *a, uint32_t i, rc_ms_t *q) {
    q->m = tk_ld_i32(a, i);
    q->s = tk_ld_i32(a, i + 1);
    return q->m >= 0 && q->s >= -31 && q->s <= 30 ? 0 : -1;
}

/* The 112-byte int8 payload (docs/format.md P14.8), with the loader's range checks. */
static int rc_lstm_payload(const uint8_t *a, uint8_t len, rc_lstm_q_t *q) {
    if (!a || len != 112) return -1;
    q->tm = tk_ld_i32(a, 0);
    uint32_t clip_bits = (uint32_t)tk_ld_i32(a, 1);
    q->zx = tk_ld_i32(a, 2);
    q->zh = tk_ld_i32(a, 3);
    q->cell_pow = tk_ld_i32(a, 4);
    int32_t qclip = tk_ld_i32(a, 5);
    if ((q->tm != 0 && q->tm != 1) || q->zx < -128 || q->zx > 127 || q->zh < -128 || q->zh > 127) return -1;
    if (q->cell_pow < -30 || q->cell_pow > 15 || qclip < 0 || qclip > 32767) return -1;
    /* The float clip must be +-0 or a positive finite value. TFLite clips
     * when it is > 0, to the quantised bound. */
    uint32_t mag = clip_bits & 0x7FFFFFFFu;
    if (mag != 0 && ((clip_bits >> 31) || mag >= 0x7F800000u)) return -1;
    q->clip = mag ? qclip : -1;
    for (uint32_t g = 0; g < 4; g++)
        if (rc_ms(a, 6 + 4 * g, &q->in[g]) || rc_ms(a, 8 + 4 * g, &q->rec[g])) return -1;
    if (rc_ms(a, 22, &q->fc) || rc_ms(a, 24, &q->ig) || rc_ms(a, 26, &q->out)) return -1;
    return 0;
}

static void rc_st_i16(uint8_t *p, uint32_t i, int16_t v) { memcpy(p + 2u * i, &v, 2); }

static int32_t rc_sat16(int32_t v) { return fx_clamp(v, -32768, 32767); }

/* One row of a gate fully-connected layer into the int16 gate scale. */
static int32_t rc_fc16(const int8_t *w, const int8_t *v, int32_t n, int32_t zp, const uint8_t *bias, int32_t u,
                       rc_ms_t q) {
    int32_t acc = 0;
    for (int32_t i = 0; i < n; i++) acc = fx_wadd(acc, (int32_t)w[i] * ((int32_t)v[i] - zp));
    if (bias) acc = fx_wadd(acc, tk_ld_i32(bias, (uint32_t)u));
    return rc_sat16(fx_mbqm(acc, q.m, q.s));
}

int tk_s8_lstm(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    if (mem->tile.active || op->num_inputs != 3 || op->num_outputs != 3) return -1;
    tk_view_t qv, hv, cv, ov, nhv, ncv;
    int32_t qi = tk_in_idx(plan, op, 0), hi = tk_in_idx(plan, op, 1), ci = tk_in_idx(plan, op, 2);
    int32_t oi = tk_out_idx(plan, op, 0), nhi = tk_out_idx(plan, op, 1), nci = tk_out_idx(plan, op, 2);
    if (tk_view(plan, qi, &qv) || tk_view(plan, hi, &hv) || tk_view(plan, ci, &cv) || tk_view(plan, oi, &ov) ||
        tk_view(plan, nhi, &nhv) || tk_view(plan, nci, &ncv))
        return -1;
    if (qv.t->dtype != TIGRIS_DTYPE_INT8 || hv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8 ||
        nhv.t->dtype != TIGRIS_DTYPE_INT8 || cv.t->dtype != TIGRIS_DTYPE_INT16 || ncv.t->dtype != TIGRIS_DTYPE_INT16)
        return -1;
    uint8_t alen = 0;
    rc_lstm_q_t q;
    const uint8_t *a = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_LSTM, &alen);
    if (rc_lstm_payload(a, alen, &q)) return -1;
    if (qv.rank != 3 || hv.rank != 2 || cv.rank != 2 || ov.rank != 3) return -1;
    int32_t batch = q.tm ? qv.dim[1] : qv.dim[0];
    int32_t steps = q.tm ? qv.dim[0] : qv.dim[1];
    int32_t features = qv.dim[2], units = hv.dim[1];
    if (hv.dim[0] != batch || cv.dim[0] != batch || cv.dim[1] != units) return -1;
    if (ov.dim[0] != qv.dim[0] || ov.dim[1] != qv.dim[1] || ov.dim[2] != units) return -1;
    if (nhv.numel != hv.numel || ncv.numel != cv.numel) return -1;
    uint8_t clen = 0;
    const uint8_t *cp = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_CONSTANTS, &clen);
    if (!cp || clen != 24) return -1;
    uint64_t wib = (uint64_t)units * (uint64_t)features, wrb = (uint64_t)units * (uint64_t)units;
    if (wib > 0xFFFFFFFFu || wrb > 0xFFFFFFFFu) return -1;
    const int8_t *wi[4], *wr[4];
    const uint8_t *bs[4];
    for (uint32_t g = 0; g < 4; g++) {
        uint16_t k[3];
        for (uint32_t j = 0; j < 3; j++) k[j] = (uint16_t)(cp[8 * j + 2 * g] | (cp[8 * j + 2 * g + 1] << 8));
        wi[g] = (const int8_t *)tk_weight(plan, k[0], (uint32_t)wib);
        wr[g] = (const int8_t *)tk_weight(plan, k[1], (uint32_t)wrb);
        bs[g] = NULL;
        if (!wi[g] || !wr[g]) return -1;
        if (k[2] != TIGRIS_NONE16) {
            bs[g] = (const uint8_t *)tk_weight(plan, k[2], (uint32_t)units * 4u);
            if (!bs[g]) return -1;
        }
    }
    const int8_t *xs = (const int8_t *)tk_buf(mem, qi);
    const int8_t *h0 = (const int8_t *)tk_buf(mem, hi);
    const uint8_t *c0 = (const uint8_t *)tk_buf(mem, ci);
    int8_t *hs = (int8_t *)tk_buf(mem, oi);
    int8_t *nh = (int8_t *)tk_buf(mem, nhi);
    uint8_t *nc = (uint8_t *)tk_buf(mem, nci);
    if (!xs || !h0 || !c0 || !hs || !nh || !nc) return -1;
    size_t xb = qv.numel, ob = ov.numel, hb = hv.numel, cb = (size_t)cv.numel * 2u;
    /* Same aliasing rules as the float kernel: the hidden sequence overlaps
     * nothing it is computed from; the next cell may be the cell input. */
    if (rc_overlap(hs, ob, xs, xb) || rc_overlap(hs, ob, h0, hb) || rc_overlap(hs, ob, c0, cb) ||
        rc_overlap(hs, ob, nc, cb) || rc_overlap(hs, ob, nh, hb))
        return -1;
    if (nc != c0 && rc_overlap(nc, cb, c0, cb)) return -1;
    if (rc_overlap(nc, cb, xs, xb) || rc_overlap(nc, cb, h0, hb) || rc_overlap(nh, hb, nc, cb)) return -1;
    if (nc != c0) memcpy(nc, c0, cb);

    int32_t tanh_m, tanh_s, gate_m, gate_s;
    act16_pow2_params(q.cell_pow, &tanh_m, &tanh_s);
    act16_pow2_params(-12, &gate_m, &gate_s);
    for (int32_t t = 0; t < steps; t++) {
        for (int32_t b = 0; b < batch; b++) {
            size_t row = q.tm ? (size_t)t * (size_t)batch + (size_t)b : (size_t)b * (size_t)steps + (size_t)t;
            const int8_t *x = xs + row * (size_t)features;
            const int8_t *hp;
            if (t == 0) {
                hp = h0 + (size_t)b * (size_t)units;
            } else {
                size_t prow = q.tm ? (size_t)(t - 1) * (size_t)batch + (size_t)b : row - 1;
                hp = hs + prow * (size_t)units;
            }
            int8_t *ho = hs + row * (size_t)units;
            uint32_t cbase = (uint32_t)b * (uint32_t)units;
            for (int32_t u = 0; u < units; u++) {
                int16_t act[4];
                for (int g = 0; g < 4; g++) {
                    int32_t in = rc_fc16(wi[g] + (size_t)u * (size_t)features, x, features, q.zx, bs[g], u, q.in[g]);
                    int32_t rec = rc_fc16(wr[g] + (size_t)u * (size_t)units, hp, units, q.zh, NULL, u, q.rec[g]);
                    int16_t pre = (int16_t)rc_sat16(in + rec);
                    act[g] = g == 2 ? act16_tanh(pre, gate_m, gate_s) : act16_sigmoid(pre, gate_m, gate_s);
                }
                int32_t c = rc_ld_i16(nc, cbase + (uint32_t)u);
                int32_t kept = rc_sat16(fx_mbqm((int32_t)act[1] * c, q.fc.m, q.fc.s));
                int32_t added = rc_sat16(fx_mbqm((int32_t)act[0] * (int32_t)act[2], q.ig.m, q.ig.s));
                int32_t cn = rc_sat16(kept + added);
                if (q.clip >= 0) cn = fx_clamp(cn, -q.clip, q.clip);
                rc_st_i16(nc, cbase + (uint32_t)u, (int16_t)cn);
                int32_t tc = act16_tanh((int16_t)cn, tanh_m, tanh_s);
                int32_t hv8 = fx_mbqm(tc * (int32_t)act[3], q.out.m, q.out.s);
                /* The zero point is TFLite's output offset: added to the
                 * requantised product (32-bit, wrapping), then clamped. */
                ho[u] = (int8_t)fx_clamp(fx_wadd(hv8, q.zh), -128, 127);
            }
        }
    }
    /* Next hidden: the last step's hidden of every batch row. */
    for (int32_t b = 0; b < batch; b++) {
        size_t row = q.tm ? (size_t)(steps - 1) * (size_t)batch + (size_t)b
                          : (size_t)b * (size_t)steps + (size_t)(steps - 1);
        memmove(nh + (size_t)b * (size_t)units, hs + row * (size_t)units, (size_t)units);
    }
    return 0;
}
