/*
 * reduce.c - int8 ReduceMean over one stored axis, with TFLite's integer
 * Mean arithmetic: raw sum, minus zp_in·count, multiplier for
 * s_in/(s_out·count), plus zp_out.
 */
#include "../kernel_common.h"
#include "fixedpoint.h"

int tk_s8_reduce_mean(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_INT8 || ov.t->dtype != TIGRIS_DTYPE_INT8) return -1;
    uint8_t len = 0;
    const uint8_t *axes = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_AXES, &len);
    if (!axes || len != 1 || axes[0] >= iv.rank) return -1;
    uint32_t outer = 1, inner = 1, r = (uint32_t)iv.dim[axes[0]];
    for (int32_t k = 0; k < axes[0]; k++) outer *= (uint32_t)iv.dim[k];
    for (int32_t k = axes[0] + 1; k < iv.rank; k++) inner *= (uint32_t)iv.dim[k];
    if (ov.numel != outer * inner || r > (1u << 23)) return -1;
    const int8_t *x = (const int8_t *)tk_buf(mem, ii);
    int8_t *y = (int8_t *)tk_buf(mem, oi);
    if (!x || !y || mem->tile.active) return -1;
    int32_t zi = tk_zero_point(plan, iv.t), zo = tk_zero_point(plan, ov.t);
    uint32_t sib = tk_scale_bits(plan, iv.t), sob = tk_scale_bits(plan, ov.t);
    if (!sob) {
        sob = sib;
        zo = zi;
    }
    int32_t m, s;
    if (tk_s8_mean_multiplier(sib, sob, r, &m, &s)) return -1;
    for (uint32_t o = 0; o < outer; o++)
        for (uint32_t i = 0; i < inner; i++) {
            int32_t sum = 0;
            for (uint32_t k = 0; k < r; k++) sum += x[((size_t)o * r + k) * inner + i];
            int32_t q = fx_wadd(fx_mbqm(sum - zi * (int32_t)r, m, s), zo);
            y[(size_t)o * inner + i] = (int8_t)fx_clamp(q, -128, 127);
        }
    return 0;
}
