/*
 * reduce.c - float32 ReduceMean over one stored axis (AXES attribute).
 */
#include "../kernel_common.h"

int tk_f32_reduce_mean(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_view_t iv, ov;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_FLOAT32 || ov.t->dtype != TIGRIS_DTYPE_FLOAT32) return -1;
    uint8_t len = 0;
    const uint8_t *axes = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_AXES, &len);
    if (!axes || len != 1 || axes[0] >= iv.rank) return -1;
    uint32_t outer = 1, inner = 1, r = (uint32_t)iv.dim[axes[0]];
    for (int32_t k = 0; k < axes[0]; k++) outer *= (uint32_t)iv.dim[k];
    for (int32_t k = axes[0] + 1; k < iv.rank; k++) inner *= (uint32_t)iv.dim[k];
    if (ov.numel != outer * inner) return -1;
    const float *x = (const float *)tk_buf(mem, ii);
    float *y = (float *)tk_buf(mem, oi);
    if (!x || !y || mem->tile.active) return -1;
    for (uint32_t o = 0; o < outer; o++)
        for (uint32_t i = 0; i < inner; i++) {
            float sum = 0.0f;
            for (uint32_t k = 0; k < r; k++) sum += x[((size_t)o * r + k) * inner + i];
            y[(size_t)o * inner + i] = sum / (float)r;
        }
    return 0;
}
