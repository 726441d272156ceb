/*
 * resize.c - float32 Resize (nearest) and ResizeLinear (bilinear) with the
 * coordinate rules of docs/runtime-semantics.md R4.7: mode = kernel_h (0 half-pixel,
 * 1 asymmetric, 2 align-corners, 3 nearest-only asymmetric + 0.5), an
 * optional RESIZE_SCALES attribute replacing the size ratio (not in mode 2).
 * Under a height stripe the kernel maps its output rows through their
 * global index (tile out_row_origin) and reads source rows relative to the
 * band's first input row (in_row_origin).
 */
#include <math.h>

#include "../kernel_common.h"

typedef struct {
    tk_view_t iv, ov;
    const float *x;
    float *y;
    int32_t n, ih, iw, oh, ow, c;
    int32_t band_in, band_out, out0, in0; /* rows in the buffers, global origins */
    int32_t mode;
    float rh, rw; /* source step per output step */
} rz_t;

static float rz_ratio(int32_t in, int32_t out, int32_t mode, int has_explicit, float explicit_scale) {
    if (mode == 2) return out > 1 ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
    if (has_explicit) return 1.0f / explicit_scale;
    return (float)in / (float)out;
}

static int rz_setup(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                    int32_t max_mode, rz_t *r) {
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &r->iv) || tk_view(plan, oi, &r->ov)) return -1;
    if (r->iv.t->dtype != TIGRIS_DTYPE_FLOAT32 || r->ov.t->dtype != TIGRIS_DTYPE_FLOAT32) return -1;
    if (r->iv.rank != 4 || r->ov.rank != 4 || r->iv.dim[0] != r->ov.dim[0] || r->iv.dim[3] != r->ov.dim[3]) return -1;
    r->n = r->iv.dim[0];
    r->ih = r->iv.dim[1];
    r->iw = r->iv.dim[2];
    r->oh = r->ov.dim[1];
    r->ow = r->ov.dim[2];
    r->c = r->iv.dim[3];
    r->mode = op->spatial.kernel_h;
    if (r->mode > max_mode) return -1;
    uint8_t len = 0;
    const uint8_t *sc = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_RESIZE_SCALES, &len);
    float s[2] = {0.0f, 0.0f};
    if (sc) {
        if (len != 8) return -1;
        memcpy(s, sc, 8);
        if (!(s[0] > 0.0f) || !(s[1] > 0.0f)) return -1;
    }
    r->rh = rz_ratio(r->ih, r->oh, r->mode, sc != NULL, s[0]);
    r->rw = rz_ratio(r->iw, r->ow, r->mode, sc != NULL, s[1]);
    if (tk_resize_band(mem, r->ih, r->oh, &r->band_in, &r->band_out, &r->in0, &r->out0)) return -1;
    r->x = (const float *)tk_buf(mem, ii);
    r->y = (float *)tk_buf(mem, oi);
    return r->x && r->y ? 0 : -1;
}

static int32_t rz_nearest(int32_t i, float ratio, int32_t mode, int32_t in) {
    float pos = ((float)i + (mode == 3 ? 0.5f : 0.0f)) * ratio;
    float f = mode == 2 ? roundf(pos) : floorf(pos);
    int32_t idx = f < 0.0f ? 0 : (f > (float)(in - 1) ? in - 1 : (int32_t)f);
    return idx;
}

int tk_f32_resize_nearest(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    rz_t r;
    if (rz_setup(plan, op, op_index, mem, 3, &r)) return -1;
    for (int32_t b = 0; b < r.n; b++)
        for (int32_t oh = 0; oh < r.band_out; oh++) {
            int32_t sy = rz_nearest(oh + r.out0, r.rh, r.mode, r.ih) - r.in0;
            if (sy < 0 || sy >= r.band_in) return -1;
            for (int32_t ow = 0; ow < r.ow; ow++) {
                int32_t sx = rz_nearest(ow, r.rw, r.mode, r.iw);
                const float *xp = r.x + (((size_t)b * r.band_in + sy) * r.iw + sx) * r.c;
                float *yp = r.y + (((size_t)b * r.band_out + oh) * r.ow + ow) * r.c;
                memcpy(yp, xp, (size_t)r.c * sizeof(float));
            }
        }
    return 0;
}

static void rz_linear(int32_t i, float ratio, int32_t mode, int32_t in, int32_t *lo, int32_t *hi, float *w) {
    float pos = mode == 0 ? ((float)i + 0.5f) * ratio - 0.5f : (float)i * ratio;
    float fl = floorf(pos), ce = ceilf(pos);
    int32_t l = fl < 0.0f ? 0 : (int32_t)fl;
    int32_t h = ce > (float)(in - 1) ? in - 1 : (int32_t)ce;
    if (l > in - 1) l = in - 1;
    if (h < 0) h = 0;
    *lo = l;
    *hi = h;
    *w = pos - (float)l;
}

int tk_f32_resize_linear(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    rz_t r;
    if (rz_setup(plan, op, op_index, mem, 2, &r)) return -1;
    for (int32_t b = 0; b < r.n; b++)
        for (int32_t oh = 0; oh < r.band_out; oh++) {
            int32_t y0, y1;
            float wy;
            rz_linear(oh + r.out0, r.rh, r.mode, r.ih, &y0, &y1, &wy);
            y0 -= r.in0;
            y1 -= r.in0;
            if (y0 < 0 || y1 < 0 || y0 >= r.band_in || y1 >= r.band_in) return -1;
            for (int32_t ow = 0; ow < r.ow; ow++) {
                int32_t x0, x1;
                float wx;
                rz_linear(ow, r.rw, r.mode, r.iw, &x0, &x1, &wx);
                const float *row0 = r.x + ((size_t)b * r.band_in + y0) * r.iw * r.c;
                const float *row1 = r.x + ((size_t)b * r.band_in + y1) * r.iw * r.c;
                float *yp = r.y + (((size_t)b * r.band_out + oh) * r.ow + ow) * r.c;
                for (int32_t ch = 0; ch < r.c; ch++) {
                    float r00 = row0[(size_t)x0 * r.c + ch], r10 = row1[(size_t)x0 * r.c + ch];
                    float r01 = row0[(size_t)x1 * r.c + ch], r11 = row1[(size_t)x1 * r.c + ch];
                    yp[ch] = r00 * (1.0f - wy) * (1.0f - wx) + r10 * wy * (1.0f - wx) + r01 * (1.0f - wy) * wx +
                             r11 * wy * wx;
                }
            }
        }
    return 0;
}
