/*
 * pool.c - int8 pooling as TFLite computes it: MaxPool over the taps inside
 * the input; AveragePool summing raw values and dividing by the in-image
 * tap count with rounding half away from zero; GlobalAveragePool as TFLite's
 * integer Mean over H and W (or, with POOL_ROUNDING, as an average pool over
 * the whole map), also walked along its input in bands (BY_INPUT).
 */
#include "../kernel_common.h"
#include "fixedpoint.h"

static int same_quant(const tigris_plan_t *plan, const tigris_tensor_t *a, const tigris_tensor_t *b) {
    const tigris_quant_param_t *qa = tigris_tensor_quant(plan, a), *qb = tigris_tensor_quant(plan, b);
    if (!qa || !qb) return 1;
    return tk_scale_bits(plan, a) == tk_scale_bits(plan, b) && qa->zero_point == qb->zero_point;
}

static int32_t div_round_away(int32_t v, int32_t c) {
    return v > 0 ? (v + c / 2) / c : (v - c / 2) / c;
}

static int pool(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int is_max) {
    tk_pool_args_t a;
    if (tk_pool_args(plan, op, mem, TIGRIS_DTYPE_INT8, &a)) return -1;
    const tk_geom_t g = a.g;
    const int8_t *x = (const int8_t *)a.x;
    int8_t *y = (int8_t *)a.y;
    int same = same_quant(plan, a.in.t, a.out.t);
    fx_real_t si = {0, 0}, so = {0, 0};
    int32_t zi = tk_zero_point(plan, a.in.t), zo = tk_zero_point(plan, a.out.t);
    if (!same && (fx_from_float_bits(tk_scale_bits(plan, a.in.t), &si) ||
                  fx_from_float_bits(tk_scale_bits(plan, a.out.t), &so) || so.m == 0))
        return -1;
    for (int32_t n = 0; n < g.n; n++) {
        for (int32_t oh = 0; oh < g.oh; oh++) {
            int32_t orow = oh + g.out_row0;
            int32_t ybase = orow * g.sh - g.pt - g.in_row_shift;
            int32_t khlo, khhi;
            tk_taps(ybase, g.kh, g.dh, g.ih, &khlo, &khhi);
            for (int32_t ow = 0; ow < g.ow; ow++) {
                int32_t xbase = ow * g.sw - g.pl;
                int32_t kwlo, kwhi;
                tk_taps(xbase, g.kw, g.dw, g.iw, &kwlo, &kwhi);
                int32_t count = (khhi - khlo) * (kwhi - kwlo);
                if (!is_max && count == 0) return -1;
                int8_t *yp = y + (((size_t)n * g.out_rows + orow) * g.ow + ow) * g.oc;
                for (int32_t c = 0; c < g.oc; c++) {
                    int32_t acc = is_max ? -128 : 0;
                    for (int32_t kh = khlo; kh < khhi; kh++) {
                        int32_t iy = ybase + kh * g.dh;
                        for (int32_t kw = kwlo; kw < kwhi; kw++) {
                            int32_t ix = xbase + kw * g.dw;
                            int32_t v = x[(((size_t)n * g.in_rows + iy) * g.iw + ix) * g.ic + c];
                            if (is_max)
                                acc = v > acc ? v : acc;
                            else
                                acc += v;
                        }
                    }
                    int32_t q;
                    if (is_max) {
                        q = same ? acc : fx_clamp(fx_scale_round(acc - zi, si, so) + zo, -128, 127);
                    } else if (same) {
                        q = div_round_away(acc, count);
                    } else {
                        fx_real_t cnt = {(uint64_t)count, 0};
                        q = fx_clamp(fx_scale_round(acc - zi * count, si, fx_mul_real(cnt, so)) + zo, op->act_min,
                                     op->act_max);
                    }
                    yp[c] = (int8_t)fx_clamp(q, op->act_min, op->act_max);
                }
            }
        }
    }
    return 0;
}

int tk_s8_max_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return pool(plan, op, mem, 1);
}

int tk_s8_avg_pool(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    return pool(plan, op, mem, 0);
}

/* TFLite's integer Mean multiplier: QuantizeMultiplier(s_in / s_out) with
 * the division by count folded in (as many bits as keep it exact enough). */
int tk_s8_mean_multiplier(uint32_t sin_bits, uint32_t sout_bits, uint32_t count, int32_t *m, int32_t *s) {
    fx_real_t si, so;
    if (fx_from_float_bits(sin_bits, &si) || fx_from_float_bits(sout_bits, &so) || count == 0) return -1;
    if (so.m == 0) so = si;
    if (fx_qm_ratio(si, so, m, s)) return -1;
    if (count > 1) {
        int32_t sh = 0;
        while (sh < 32 && ((uint64_t)1 << (sh + 1)) <= count) sh++;
        int32_t cap = 31 + *s > 0 ? 31 + *s : 0;
        if (sh > cap) sh = cap;
        *m = (int32_t)fx_udiv64((uint64_t)(uint32_t)*m << sh, count, NULL);
        *s -= sh;
    }
    return 0;
}

int tk_s8_global_avg(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return -1;
    if (iv.rank != 4 || ov.rank != 4 || ov.dim[0] != iv.dim[0] || ov.dim[3] != iv.dim[3]) return -1;
    if (ov.dim[1] != 1 || ov.dim[2] != 1) return -1;
    int32_t n = iv.dim[0], h = iv.dim[1], w = iv.dim[2], c = iv.dim[3];
    if ((int64_t)h * w > (1 << 23)) return -1; /* keeps every int32 sum exact */
    const int8_t *x = (const int8_t *)tk_buf(mem, ii);
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    const tigris_tile_ctx_t *tc = &mem->tile;
    int banded = tc->active && tc->reduce_acc;
    int32_t rows = h;
    int32_t *acc = (int32_t *)tc->reduce_acc;
    if (banded) {
        if (tc->in_h <= 0 || tc->in_h > h) return -1;
        rows = tc->in_h;
    }
    int32_t hw = h * w;
    uint8_t rlen = 0;
    int avg_rounding = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_POOL_ROUNDING, &rlen) != NULL;
    int32_t zi = tk_zero_point(plan, iv.t), zo = tk_zero_point(plan, ov.t);
    uint32_t sin_bits = tk_scale_bits(plan, iv.t), sout_bits = tk_scale_bits(plan, ov.t);
    if (sout_bits == 0) {
        sout_bits = sin_bits;
        zo = zi;
    }
    int32_t m = 0, s = 0;
    if (!avg_rounding && tk_s8_mean_multiplier(sin_bits, sout_bits, (uint32_t)hw, &m, &s)) return -1;
    for (int32_t b = 0; b < n; b++) {
        for (int32_t ch = 0; ch < c; ch++) {
            int32_t sum = 0;
            if (banded && !tc->reduce_first) sum = acc[b * c + ch];
            for (int32_t r = 0; r < rows; r++)
                for (int32_t col = 0; col < w; col++) sum += x[(((size_t)b * rows + r) * w + col) * c + ch];
            if (banded) {
                acc[b * c + ch] = sum;
                if (!tc->reduce_last) continue;
            }
            int32_t q;
            if (avg_rounding) {
                if (sin_bits == sout_bits && zi == zo) {
                    q = div_round_away(sum, hw);
                } else {
                    fx_real_t si, so, cnt = {(uint64_t)hw, 0};
                    if (fx_from_float_bits(sin_bits, &si) || fx_from_float_bits(sout_bits, &so)) return -1;
                    q = fx_scale_round(sum - zi * hw, si, fx_mul_real(cnt, so)) + zo;
                }
                q = fx_clamp(q, op->act_min, op->act_max);
            } else {
                q = fx_clamp(fx_wadd(fx_mbqm(sum - zi * hw, m, s), zo), -128, 127);
            }
            y[b * c + ch] = (int8_t)q;
        }
    }
    return 0;
}

/* GlobalMaxPool: per (n, c) the maximum of the raw values over H·W starting
 * from -128, passthrough requantisation when the encodings differ, then the
 * op's act clamp. No band path hands it a tile. */
int tk_s8_global_max(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    (void)op_index;
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return -1;
    if (iv.rank != 4 || ov.rank != 4 || ov.dim[0] != iv.dim[0] || ov.dim[3] != iv.dim[3]) return -1;
    if (ov.dim[1] != 1 || ov.dim[2] != 1 || mem->tile.active) return -1;
    int32_t n = iv.dim[0], hw = iv.dim[1] * iv.dim[2], c = iv.dim[3];
    const int8_t *x = (const int8_t *)tk_buf(mem, ii);
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    int same = same_quant(plan, iv.t, ov.t);
    fx_real_t si = {0, 0}, so = {0, 0};
    int32_t zi = tk_zero_point(plan, iv.t), zo = tk_zero_point(plan, ov.t);
    if (!same && (fx_from_float_bits(tk_scale_bits(plan, iv.t), &si) ||
                  fx_from_float_bits(tk_scale_bits(plan, ov.t), &so) || so.m == 0))
        return -1;
    for (int32_t b = 0; b < n; b++)
        for (int32_t ch = 0; ch < c; ch++) {
            const int8_t *xp = x + (size_t)b * hw * c + ch;
            int32_t m = -128;
            for (int32_t i = 0; i < hw; i++)
                if (xp[(size_t)i * c] > m) m = xp[(size_t)i * c];
            if (!same) m = fx_clamp(fx_scale_round(m - zi, si, so) + zo, -128, 127);
            y[(size_t)b * c + ch] = (int8_t)fx_clamp(m, op->act_min, op->act_max);
        }
    return 0;
}
