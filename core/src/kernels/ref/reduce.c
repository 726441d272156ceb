/*
 * reduce.c - float32 reductions over one stored axis (AXES attribute):
 * Mean, Max, Min, Sum, CumSum (CUMSUM_OPTIONS) and ArgMax/ArgMin (int32
 * output). Layout and band resolution (tk_reduce_layout) and the byte-level
 * ReduceAll are shared with the int8 build and live in any/reduce.c.
 */
#include "../kernel_common.h"

#define F32_MAX_VAL 3.402823466e+38f

#define REDUCE_F32_BEGIN(kind, dout)                                                                          \
    uint32_t lay[3];                                                                                          \
    const uint8_t *xb;                                                                                        \
    uint8_t *yb;                                                                                              \
    int32_t axis;                                                                                             \
    if (tk_reduce_layout(plan, op, op_index, mem, TIGRIS_DTYPE_FLOAT32, dout, kind, lay, &xb, &yb, &axis))   \
        return -1;                                                                                            \
    (void)axis;                                                                                               \
    const float *x = (const float *)(const void *)xb;

#define RED_MEAN 0
#define RED_SUM 1
#define RED_MAX 2
#define RED_MIN 3

static int f32_reduce(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                      int what) {
    REDUCE_F32_BEGIN(0, TIGRIS_DTYPE_FLOAT32)
    float *y = (float *)(void *)yb;
    uint32_t r = lay[1], inner = lay[2];
    for (uint32_t o = 0; o < lay[0]; o++)
        for (uint32_t i = 0; i < inner; i++) {
            float acc = what == RED_MAX ? -F32_MAX_VAL : (what == RED_MIN ? F32_MAX_VAL : 0.0f);
            for (uint32_t k = 0; k < r; k++) {
                float v = x[((size_t)o * r + k) * inner + i];
                if (what == RED_MAX) acc = v > acc ? v : acc;
                else if (what == RED_MIN) acc = v < acc ? v : acc;
                else acc = acc + v;
            }
            y[(size_t)o * inner + i] = what == RED_MEAN ? acc / (float)r : acc;
        }
    return 0;
}

int tk_f32_reduce_mean(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return f32_reduce(plan, op, op_index, mem, RED_MEAN);
}

int tk_f32_reduce_sum(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return f32_reduce(plan, op, op_index, mem, RED_SUM);
}

int tk_f32_reduce_max(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return f32_reduce(plan, op, op_index, mem, RED_MAX);
}

int tk_f32_reduce_min(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return f32_reduce(plan, op, op_index, mem, RED_MIN);
}

int tk_f32_cumsum(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    REDUCE_F32_BEGIN(1, TIGRIS_DTYPE_FLOAT32)
    float *y = (float *)(void *)yb;
    uint8_t len = 0;
    const uint8_t *opt = tigris_op_attribute_data(plan, op_index, TIGRIS_ATTR_CUMSUM_OPTIONS, &len);
    if (!opt || len != 2 || opt[0] > 1 || opt[1] > 1) return -1;
    uint32_t r = lay[1], inner = lay[2];
    for (uint32_t o = 0; o < lay[0]; o++)
        for (uint32_t i = 0; i < inner; i++) {
            float acc = 0.0f;
            for (uint32_t j = 0; j < r; j++) {
                uint32_t k = opt[1] ? r - 1u - j : j;
                size_t at = ((size_t)o * r + k) * inner + i;
                float v = x[at];
                if (opt[0]) {
                    y[at] = acc;
                    acc += v;
                } else {
                    acc += v;
                    y[at] = acc;
                }
            }
        }
    return 0;
}

/* First index wins ties (strict comparison). */
static int f32_arg(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                   int is_max) {
    REDUCE_F32_BEGIN(2, TIGRIS_DTYPE_INT32)
    uint32_t r = lay[1], inner = lay[2];
    for (uint32_t o = 0; o < lay[0]; o++)
        for (uint32_t i = 0; i < inner; i++) {
            float best = x[(size_t)o * r * inner + i];
            int32_t at = 0;
            for (uint32_t k = 1; k < r; k++) {
                float v = x[((size_t)o * r + k) * inner + i];
                if (is_max ? v > best : v < best) {
                    best = v;
                    at = (int32_t)k;
                }
            }
            memcpy(yb + 4u * ((size_t)o * inner + i), &at, 4);
        }
    return 0;
}

int tk_f32_arg_max(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return f32_arg(plan, op, op_index, mem, 1);
}

int tk_f32_arg_min(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    return f32_arg(plan, op, op_index, mem, 0);
}
