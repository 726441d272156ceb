/*
 * recurrent.c - float32 SVDF and LSTM (docs/format.md P14.8). Their
 * constants come from the CONSTANTS attribute (weight indices); state comes
 * in as STATE-flagged inputs and leaves as STATE-flagged outputs, which the
 * executor carries across runs. Neither op is banded: a kernel handed an
 * active tile refuses it.
 */
#include <math.h>

#include "../kernel_common.h"

/* The k weight indices of the op's CONSTANTS attribute, or -1. */
static int rc_constants(const tigris_plan_t *plan, uint16_t op_index, uint32_t k, uint16_t *out) {
    uint8_t len = 0;
    const uint8_t *p = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_CONSTANTS, &len);
    if (!p || len != 2u * k) return -1;
    for (uint32_t i = 0; i < k; i++) out[i] = (uint16_t)(p[2 * i] | (p[2 * i + 1] << 8));
    return 0;
}

static float rc_ldf(const uint8_t *p, uint32_t i) {
    float v;
    memcpy(&v, p + 4u * i, 4);
    return v;
}

static float rc_act(uint8_t act, float v) {
    if (act == TIGRIS_ACT_RELU || act == TIGRIS_ACT_RELU6) v = v < 0.0f ? 0.0f : v;
    if (act == TIGRIS_ACT_RELU6 && v > 6.0f) v = 6.0f;
    return v;
}

/* Do byte ranges [a, a+na) and [b, b+nb) overlap? */
static int rc_overlap(const void *a, size_t na, const void *b, size_t nb) {
    const uint8_t *pa = (const uint8_t *)a, *pb = (const uint8_t *)b;
    return pa < pb + nb && pb < pa + na;
}

/* ---- SVDF ---- */

int tk_f32_svdf(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    if (mem->tile.active || op->num_inputs != 2 || op->num_outputs != 2) return -1;
    tk_view_t xv, sv, yv, nv;
    int32_t xi = tk_in_idx(plan, op, 0), si = tk_in_idx(plan, op, 1);
    int32_t yi = tk_out_idx(plan, op, 0), ni = tk_out_idx(plan, op, 1);
    if (tk_view(plan, xi, &xv) || tk_view(plan, si, &sv) || tk_view(plan, yi, &yv) || tk_view(plan, ni, &nv))
        return -1;
    if (xv.t->dtype != TIGRIS_DTYPE_FLOAT32 || sv.t->dtype != TIGRIS_DTYPE_FLOAT32 ||
        yv.t->dtype != TIGRIS_DTYPE_FLOAT32 || nv.t->dtype != TIGRIS_DTYPE_FLOAT32)
        return -1;
    if (xv.rank != 2 || sv.rank != 2 || yv.rank != 2 || nv.numel != sv.numel) return -1;
    uint8_t alen = 0;
    const uint8_t *a = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_SVDF, &alen);
    if (!a || alen != 4) return -1;
    int32_t rank = tk_ld_i32(a, 0);
    int32_t batch = xv.dim[0], features = xv.dim[1], units = yv.dim[1];
    if (rank <= 0 || sv.dim[0] != batch || yv.dim[0] != batch) return -1;
    uint64_t filters64 = (uint64_t)units * (uint64_t)rank;
    if (filters64 > (uint64_t)sv.dim[1] || (uint32_t)sv.dim[1] % (uint32_t)filters64) return -1;
    int32_t filters = (int32_t)filters64;
    int32_t memory = sv.dim[1] / filters;
    uint16_t k[3];
    if (rc_constants(plan, op_index, 3, k)) return -1;
    uint64_t fwb = (uint64_t)filters * (uint64_t)features * 4u, twb = (uint64_t)filters * (uint64_t)memory * 4u;
    if (fwb > 0xFFFFFFFFu || twb > 0xFFFFFFFFu) return -1;
    const uint8_t *fw = (const uint8_t *)tk_weight(plan, k[0], (uint32_t)fwb);
    const uint8_t *tw = (const uint8_t *)tk_weight(plan, k[1], (uint32_t)twb);
    const uint8_t *bias = NULL;
    if (k[2] != TIGRIS_NONE16) {
        bias = (const uint8_t *)tk_weight(plan, k[2], (uint32_t)units * 4u);
        if (!bias) return -1;
    }
    const float *x = (const float *)tk_buf(mem, xi);
    const float *s = (const float *)tk_buf(mem, si);
    float *y = (float *)tk_buf(mem, yi);
    float *ns = (float *)tk_buf(mem, ni);
    if (!fw || !tw || !x || !s || !y || !ns) return -1;
    size_t sbytes = (size_t)sv.numel * 4u;
    /* The output must not overlap anything it is computed from. */
    if (rc_overlap(y, (size_t)yv.numel * 4u, x, (size_t)xv.numel * 4u) ||
        rc_overlap(y, (size_t)yv.numel * 4u, s, sbytes) || rc_overlap(y, (size_t)yv.numel * 4u, ns, sbytes))
        return -1;
    if (ns != s && rc_overlap(ns, sbytes, s, sbytes)) return -1;
    if (rc_overlap(ns, sbytes, x, (size_t)xv.numel * 4u)) return -1;

    /* Next state: the whole buffer moves one element toward the front (the
     * last element stays), then every (batch, filter) row gets its newest
     * slot from the feature weights. */
    uint32_t n = sv.numel;
    if (n > 1) memmove(ns, s + 1, (size_t)(n - 1) * 4u);
    ns[n - 1] = s[n - 1];
    for (int32_t b = 0; b < batch; b++) {
        const float *xb = x + (size_t)b * (size_t)features;
        for (int32_t f = 0; f < filters; f++) {
            float dot = 0.0f;
            for (int32_t i = 0; i < features; i++) dot += rc_ldf(fw, (uint32_t)(f * features + i)) * xb[i];
            ns[((size_t)b * (size_t)filters + (size_t)f) * (size_t)memory + (size_t)(memory - 1)] = dot;
        }
    }
    /* Output: bias, then per rank the time-weighted sum of the filter's
     * memory, then the fused activation. */
    for (int32_t b = 0; b < batch; b++) {
        for (int32_t u = 0; u < units; u++) {
            float acc = bias ? rc_ldf(bias, (uint32_t)u) : 0.0f;
            for (int32_t r = 0; r < rank; r++) {
                int32_t f = u * rank + r;
                const float *st = ns + ((size_t)b * (size_t)filters + (size_t)f) * (size_t)memory;
                float dot = 0.0f;
                for (int32_t m = 0; m < memory; m++) dot += rc_ldf(tw, (uint32_t)(f * memory + m)) * st[m];
                acc += dot;
            }
            y[(size_t)b * (size_t)units + (size_t)u] = rc_act(op->fused_act, acc);
        }
    }
    return 0;
}

/* ---- LSTM ---- */

static float rc_sigmoid(float v) { return 1.0f / (1.0f + expf(-v)); }

int tk_f32_lstm(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    if (mem->tile.active || op->num_inputs != 3 || op->num_outputs != 3) return -1;
    tk_view_t qv, hv, cv, ov, nhv, ncv;
    int32_t qi = tk_in_idx(plan, op, 0), hi = tk_in_idx(plan, op, 1), ci = tk_in_idx(plan, op, 2);
    int32_t oi = tk_out_idx(plan, op, 0), nhi = tk_out_idx(plan, op, 1), nci = tk_out_idx(plan, op, 2);
    if (tk_view(plan, qi, &qv) || tk_view(plan, hi, &hv) || tk_view(plan, ci, &cv) || tk_view(plan, oi, &ov) ||
        tk_view(plan, nhi, &nhv) || tk_view(plan, nci, &ncv))
        return -1;
    const tk_view_t *all[6] = {&qv, &hv, &cv, &ov, &nhv, &ncv};
    for (int i = 0; i < 6; i++)
        if (all[i]->t->dtype != TIGRIS_DTYPE_FLOAT32) return -1;
    uint8_t alen = 0;
    const uint8_t *a = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_LSTM, &alen);
    if (!a || alen != 8) return -1;
    int32_t tm = tk_ld_i32(a, 0);
    float clip = rc_ldf(a, 1);
    if ((tm != 0 && tm != 1) || !(clip >= 0.0f) || clip != clip) return -1;
    if (qv.rank != 3 || hv.rank != 2 || cv.rank != 2 || ov.rank != 3) return -1;
    int32_t batch = tm ? qv.dim[1] : qv.dim[0];
    int32_t steps = tm ? qv.dim[0] : qv.dim[1];
    int32_t features = qv.dim[2], units = hv.dim[1];
    if (hv.dim[0] != batch || cv.dim[0] != batch || cv.dim[1] != units) return -1;
    if (ov.dim[0] != qv.dim[0] || ov.dim[1] != qv.dim[1] || ov.dim[2] != units) return -1;
    if (nhv.numel != hv.numel || ncv.numel != cv.numel) return -1;
    uint16_t k[12];
    if (rc_constants(plan, op_index, 12, k)) return -1;
    uint64_t wib = (uint64_t)units * (uint64_t)features * 4u, wrb = (uint64_t)units * (uint64_t)units * 4u;
    if (wib > 0xFFFFFFFFu || wrb > 0xFFFFFFFFu) return -1;
    const uint8_t *wi[4], *wr[4], *bs[4];
    for (int g = 0; g < 4; g++) {
        wi[g] = (const uint8_t *)tk_weight(plan, k[g], (uint32_t)wib);
        wr[g] = (const uint8_t *)tk_weight(plan, k[4 + g], (uint32_t)wrb);
        bs[g] = NULL;
        if (!wi[g] || !wr[g]) return -1;
        if (k[8 + g] != TIGRIS_NONE16) {
            bs[g] = (const uint8_t *)tk_weight(plan, k[8 + g], (uint32_t)units * 4u);
            if (!bs[g]) return -1;
        }
    }
    const float *xs = (const float *)tk_buf(mem, qi);
    const float *h0 = (const float *)tk_buf(mem, hi);
    const float *c0 = (const float *)tk_buf(mem, ci);
    float *hs = (float *)tk_buf(mem, oi);
    float *nh = (float *)tk_buf(mem, nhi);
    float *nc = (float *)tk_buf(mem, nci);
    if (!xs || !h0 || !c0 || !hs || !nh || !nc) return -1;
    size_t ob = (size_t)ov.numel * 4u, hb = (size_t)hv.numel * 4u;
    /* The hidden sequence is written while the inputs and the previous
     * hidden state are still read: it must overlap none of them. The next
     * cell may be the cell input itself (updated element by element). */
    if (rc_overlap(hs, ob, xs, (size_t)qv.numel * 4u) || rc_overlap(hs, ob, h0, hb) || rc_overlap(hs, ob, c0, hb) ||
        rc_overlap(hs, ob, nc, hb) || rc_overlap(hs, ob, nh, hb))
        return -1;
    if (nc != c0 && rc_overlap(nc, hb, c0, hb)) return -1;
    if (rc_overlap(nc, hb, xs, (size_t)qv.numel * 4u) || rc_overlap(nc, hb, h0, hb) || rc_overlap(nh, hb, nc, hb))
        return -1;
    if (nc != c0) memcpy(nc, c0, hb);

    for (int32_t t = 0; t < steps; t++) {
        for (int32_t b = 0; b < batch; b++) {
            size_t row = tm ? (size_t)t * (size_t)batch + (size_t)b : (size_t)b * (size_t)steps + (size_t)t;
            const float *x = xs + row * (size_t)features;
            const float *hp;
            if (t == 0) {
                hp = h0 + (size_t)b * (size_t)units;
            } else {
                size_t prow = tm ? (size_t)(t - 1) * (size_t)batch + (size_t)b : row - 1;
                hp = hs + prow * (size_t)units;
            }
            float *ho = hs + row * (size_t)units;
            float *c = nc + (size_t)b * (size_t)units;
            for (int32_t u = 0; u < units; u++) {
                float gate[4];
                for (int g = 0; g < 4; g++) {
                    float acc = bs[g] ? rc_ldf(bs[g], (uint32_t)u) : 0.0f;
                    float dot = 0.0f;
                    for (int32_t i = 0; i < features; i++)
                        dot += rc_ldf(wi[g], (uint32_t)(u * features + i)) * x[i];
                    acc += dot;
                    dot = 0.0f;
                    for (int32_t j = 0; j < units; j++) dot += rc_ldf(wr[g], (uint32_t)(u * units + j)) * hp[j];
                    acc += dot;
                    gate[g] = acc;
                }
                float ig = rc_sigmoid(gate[0]), fg = rc_sigmoid(gate[1]);
                float cg = tanhf(gate[2]), og = rc_sigmoid(gate[3]);
                float cn = c[u] * fg;
                cn += ig * cg;
                if (clip > 0.0f) cn = cn > clip ? clip : (cn < -clip ? -clip : cn);
                c[u] = cn;
                ho[u] = og * tanhf(cn);
            }
        }
    }
    /* Next hidden: the last step's hidden of every batch row. */
    for (int32_t b = 0; b < batch; b++) {
        size_t row = tm ? (size_t)(steps - 1) * (size_t)batch + (size_t)b
                        : (size_t)b * (size_t)steps + (size_t)(steps - 1);
        memmove(nh + (size_t)b * (size_t)units, hs + row * (size_t)units, (size_t)units * 4u);
    }
    return 0;
}
