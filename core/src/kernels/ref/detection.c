/*
 * detection.c - DETECTION_POSTPROCESS (docs/format.md P14.9), following
 * TFLite's detection_postprocess: centre-size box decoding against float32
 * anchors, then fast NMS (one class per box) or regular NMS (per class,
 * merged by score). Box and score inputs may be float32 or int8 (read
 * through their quant records); every output is float32, so int8 plans
 * reach this kernel through the int8 dispatcher's float fallback. The core
 * has no heap: all scratch lives in the fifth output (working memory).
 */
#include <math.h>

#include "../kernel_common.h"

typedef struct {
    const uint8_t *p;
    int int8;
    float scale;
    int32_t zp;
} dp_src_t;

static int dp_src(const tigris_plan_t *plan, const tk_view_t *v, const void *buf, dp_src_t *s) {
    s->p = (const uint8_t *)buf;
    s->int8 = v->t->dtype == TIGRIS_DTYPE_INT8;
    s->scale = 1.0f;
    s->zp = 0;
    if (s->int8) {
        const tigris_quant_param_t *q = tigris_tensor_quant(plan, v->t);
        if (!q) return -1;
        s->scale = q->scale;
        s->zp = q->zero_point;
        if (!(s->scale > 0.0f) || s->scale > 3.0e38f) return -1;
    } else if (v->t->dtype != TIGRIS_DTYPE_FLOAT32) {
        return -1;
    }
    return 0;
}

static float dp_at(const dp_src_t *s, uint32_t i) {
    if (s->int8) return (float)((int32_t)(int8_t)s->p[i] - s->zp) * s->scale;
    float v;
    memcpy(&v, s->p + 4u * i, 4);
    return v;
}

static float dp_ldf(const uint8_t *p, uint32_t i) {
    float v;
    memcpy(&v, p + 4u * i, 4);
    return v;
}

static float dp_iou(const float *dec, int32_t i, int32_t j) {
    const float *a = dec + 4 * (size_t)i, *b = dec + 4 * (size_t)j;
    float area_a = (a[2] - a[0]) * (a[3] - a[1]);
    float area_b = (b[2] - b[0]) * (b[3] - b[1]);
    if (area_a <= 0.0f || area_b <= 0.0f) return 0.0f;
    float ymin = a[0] > b[0] ? a[0] : b[0], xmin = a[1] > b[1] ? a[1] : b[1];
    float ymax = a[2] < b[2] ? a[2] : b[2], xmax = a[3] < b[3] ? a[3] : b[3];
    float ih = ymax - ymin, iw = xmax - xmin;
    if (ih < 0.0f) ih = 0.0f;
    if (iw < 0.0f) iw = 0.0f;
    float inter = ih * iw;
    return inter / (area_a + area_b - inter);
}

/* Stable sort of idx[0..n) by key[idx] descending, tmp as scratch. */
static void dp_sort(int32_t *idx, int32_t *tmp, int32_t n, const float *key) {
    for (int32_t w = 1; w < n; w *= 2) {
        for (int32_t lo = 0; lo < n; lo += 2 * w) {
            int32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int32_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi) tmp[o++] = key[idx[b]] > key[idx[a]] ? idx[b++] : idx[a++];
            while (a < mid) tmp[o++] = idx[a++];
            while (b < hi) tmp[o++] = idx[b++];
        }
        memcpy(idx, tmp, (size_t)n * 4u);
    }
}

typedef struct {
    const float *dec;
    int32_t boxes;
    float score_thr, iou_thr;
    int32_t *kidx, *tmp;
    uint8_t *active;
} dp_nms_t;

/* Greedy single-class NMS over scores sc[0..boxes): at most max_out box
 * indices into sel (descending score); returns how many. */
static int32_t dp_nms(const dp_nms_t *c, const float *sc, int32_t max_out, int32_t *sel) {
    int32_t n = 0;
    for (int32_t i = 0; i < c->boxes; i++)
        if (sc[i] >= c->score_thr) c->kidx[n++] = i;
    dp_sort(c->kidx, c->tmp, n, sc);
    for (int32_t i = 0; i < n; i++) c->active[i] = 1;
    int32_t live = n, out = 0;
    for (int32_t i = 0; i < n; i++) {
        if (live == 0 || out >= max_out) break;
        if (!c->active[i]) continue;
        sel[out++] = c->kidx[i];
        c->active[i] = 0;
        live--;
        for (int32_t j = i + 1; j < n; j++) {
            if (!c->active[j]) continue;
            if (dp_iou(c->dec, c->kidx[i], c->kidx[j]) > c->iou_thr) {
                c->active[j] = 0;
                live--;
            }
        }
    }
    return out;
}

int tk_f32_detection_postprocess(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                 tigris_mem_t *mem) {
    if (mem->tile.active || op->num_inputs != 2 || op->num_outputs != 5) return -1;
    tk_view_t bv, sv, ov[5];
    int32_t bi = tk_in_idx(plan, op, 0), si = tk_in_idx(plan, op, 1), oi[5];
    if (tk_view(plan, bi, &bv) || tk_view(plan, si, &sv)) return -1;
    for (uint32_t i = 0; i < 5; i++) {
        oi[i] = tk_out_idx(plan, op, i);
        if (tk_view(plan, oi[i], &ov[i]) || ov[i].t->dtype != TIGRIS_DTYPE_FLOAT32) return -1;
    }
    uint8_t alen = 0;
    const uint8_t *a = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_DETECTION, &alen);
    if (!a || alen != 32) return -1;
    int32_t max_det = a[0] | (a[1] << 8), per_class = a[2] | (a[3] << 8), classes = a[4] | (a[5] << 8);
    int regular = a[6];
    float score_thr = dp_ldf(a, 2), iou_thr = dp_ldf(a, 3);
    float ys = dp_ldf(a, 4), xs = dp_ldf(a, 5), hs = dp_ldf(a, 6), ws = dp_ldf(a, 7);
    if (max_det <= 0 || classes <= 0 || regular > 1 || (regular && per_class <= 0)) return -1;
    if (!(iou_thr > 0.0f && iou_thr <= 1.0f) || score_thr != score_thr) return -1;
    if (ys == 0.0f || xs == 0.0f || hs == 0.0f || ws == 0.0f) return -1;
    if (bv.rank != 3 || sv.rank != 3 || bv.dim[0] != 1 || bv.dim[2] != 4 || sv.dim[0] != 1 || sv.dim[1] != bv.dim[1])
        return -1;
    int32_t boxes = bv.dim[1], C = sv.dim[2];
    if (C != classes && C != classes + 1) return -1;
    int32_t label_off = C - classes;
    if (ov[0].numel != (uint32_t)max_det * 4u || ov[1].numel != (uint32_t)max_det ||
        ov[2].numel != (uint32_t)max_det || ov[3].numel != 1)
        return -1;
    uint8_t clen = 0;
    const uint8_t *cp = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_CONSTANTS, &clen);
    if (!cp || clen != 2) return -1;
    const uint8_t *anc = (const uint8_t *)tk_weight(plan, (uint16_t)(cp[0] | (cp[1] << 8)), (uint32_t)boxes * 16u);
    if (!anc) return -1;

    /* Working memory (words): decoded boxes 4B, score column B, best class
     * B, kept indices B, sort scratch B, (spare B), selection max(B, K),
     * top scores K, top keys K, (spare D); then B active flags. */
    int32_t K = max_det + (regular ? per_class : 0);
    int32_t most = boxes > K ? boxes : K;
    uint64_t words = 9u * (uint64_t)boxes + (uint64_t)most + 2u * (uint64_t)K + (uint64_t)max_det;
    uint64_t need = 4u * words + (uint64_t)boxes;
    if (need > ov[4].t->size_bytes) return -1;
    uint8_t *wm = (uint8_t *)tk_buf(mem, oi[4]);
    if (!wm || ((uintptr_t)wm & 3u)) return -1;
    float *dec = (float *)wm;
    float *col = dec + 4 * (size_t)boxes;
    int32_t *best = (int32_t *)(col + boxes);
    int32_t *kidx = best + boxes;
    int32_t *tmp = kidx + boxes;
    int32_t *sel = tmp + 2 * (size_t)boxes;
    float *tscore = (float *)(sel + most);
    int32_t *tkey = (int32_t *)(tscore + K);
    uint8_t *active = wm + 4u * words;

    dp_src_t bsrc, ssrc;
    const void *bbuf = tk_buf(mem, bi), *sbuf = tk_buf(mem, si);
    float *obox = (float *)tk_buf(mem, oi[0]), *ocls = (float *)tk_buf(mem, oi[1]);
    float *oscore = (float *)tk_buf(mem, oi[2]), *ocount = (float *)tk_buf(mem, oi[3]);
    if (!bbuf || !sbuf || !obox || !ocls || !oscore || !ocount) return -1;
    if (dp_src(plan, &bv, bbuf, &bsrc) || dp_src(plan, &sv, sbuf, &ssrc)) return -1;

    /* Decode: encodings (y, x, h, w) against anchors (y, x, h, w) into
     * corners (ymin, xmin, ymax, xmax). */
    for (int32_t i = 0; i < boxes; i++) {
        uint32_t e = 4u * (uint32_t)i;
        float ay = dp_ldf(anc, e), ax = dp_ldf(anc, e + 1), ah = dp_ldf(anc, e + 2), aw = dp_ldf(anc, e + 3);
        float yc = dp_at(&bsrc, e) / ys * ah + ay;
        float xc = dp_at(&bsrc, e + 1) / xs * aw + ax;
        float hh = 0.5f * expf(dp_at(&bsrc, e + 2) / hs) * ah;
        float hw = 0.5f * expf(dp_at(&bsrc, e + 3) / ws) * aw;
        dec[e] = yc - hh;
        dec[e + 1] = xc - hw;
        dec[e + 2] = yc + hh;
        dec[e + 3] = xc + hw;
    }

    for (int32_t i = 0; i < max_det; i++) {
        for (int j = 0; j < 4; j++) obox[4 * i + j] = 0.0f;
        ocls[i] = 0.0f;
        oscore[i] = 0.0f;
    }
    dp_nms_t nc = {dec, boxes, score_thr, iou_thr, kidx, tmp, active};
    int32_t count = 0;
    if (!regular) {
        /* Fast: each box competes with its best class (first maximum). */
        for (int32_t i = 0; i < boxes; i++) {
            uint32_t row = (uint32_t)i * (uint32_t)C + (uint32_t)label_off;
            int32_t bc = 0;
            float bs = dp_at(&ssrc, row);
            for (int32_t c = 1; c < classes; c++) {
                float v = dp_at(&ssrc, row + (uint32_t)c);
                if (v > bs) {
                    bs = v;
                    bc = c;
                }
            }
            col[i] = bs;
            best[i] = bc;
        }
        count = dp_nms(&nc, col, max_det, sel);
        for (int32_t d = 0; d < count; d++) {
            int32_t i = sel[d];
            memcpy(obox + 4 * d, dec + 4 * (size_t)i, 16);
            ocls[d] = (float)best[i];
            oscore[d] = col[i];
        }
    } else {
        /* Regular: NMS per class, merged into the top max_det by score
         * (earlier entries first among equal scores). */
        for (int32_t c = 0; c < classes; c++) {
            for (int32_t i = 0; i < boxes; i++)
                col[i] = dp_at(&ssrc, (uint32_t)i * (uint32_t)C + (uint32_t)(label_off + c));
            int32_t n = dp_nms(&nc, col, per_class, sel);
            for (int32_t s = 0; s < n; s++) {
                float v = col[sel[s]];
                int32_t pos = count;
                while (pos > 0 && tscore[pos - 1] < v) pos--;
                if (pos >= max_det) continue;
                int32_t last = count < max_det ? count : max_det - 1;
                for (int32_t q = last; q > pos; q--) {
                    tscore[q] = tscore[q - 1];
                    tkey[q] = tkey[q - 1];
                }
                tscore[pos] = v;
                tkey[pos] = sel[s] * classes + c;
                if (count < max_det) count++;
            }
        }
        for (int32_t d = 0; d < count; d++) {
            int32_t i = tkey[d] / classes, c = tkey[d] % classes;
            memcpy(obox + 4 * d, dec + 4 * (size_t)i, 16);
            ocls[d] = (float)c;
            oscore[d] = tscore[d];
        }
    }
    *ocount = (float)count;
    return 0;
}
