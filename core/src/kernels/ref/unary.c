/*
 * unary.c - float32 elementwise unary math and activations: Abs, Rsqrt,
 * Neg, Exp, Log, Sqrt, Square, Floor, Ceil, Round (half to even), Sin, Cos,
 * Erf, HardSwish, Elu. Every kernel is pointwise and follows the band in
 * mem->tile (row counts and roll offsets, tk_band_span).
 */
#include <math.h>

#include "../kernel_common.h"

typedef struct {
    const float *x;
    float *y;
    uint32_t count;
} un_f32_t;

/* One float32 input, one float32 output of the same element count (Erf and
 * HardSwish may differ in shape but not in size), and the band of each. */
static int un_setup(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, un_f32_t *u) {
    tk_view_t iv, ov;
    if (op->num_inputs != 1 || op->num_outputs != 1) return -1;
    int32_t ii = tk_in_idx(plan, op, 0), oi = tk_out_idx(plan, op, 0);
    if (tk_view(plan, ii, &iv) || tk_view(plan, oi, &ov)) return -1;
    if (iv.t->dtype != TIGRIS_DTYPE_FLOAT32 || ov.t->dtype != TIGRIS_DTYPE_FLOAT32 || iv.numel != ov.numel)
        return -1;
    uint32_t ci, co, offi, offo;
    if (tk_band_span(mem, &iv, 0, &ci, &offi) || tk_band_span(mem, &ov, 1, &co, &offo) || ci != co) return -1;
    const float *x = (const float *)tk_buf(mem, ii);
    float *y = (float *)tk_buf(mem, oi);
    if (!x || !y) return -1;
    u->x = x + offi;
    u->y = y + offo;
    u->count = ci;
    return 0;
}

/* Round half to even without a float-to-int conversion (no overflow for
 * large values: those are integers already and come back unchanged). */
static float round_half_even(float v) {
    float f = floorf(v);
    float d = v - f;
    if (d < 0.5f) return f;
    if (d > 0.5f) return f + 1.0f;
    return fmodf(f, 2.0f) == 0.0f ? f : f + 1.0f;
}

static float hardswish(float v) {
    float g = v + 3.0f;
    g = g < 0.0f ? 0.0f : (g > 6.0f ? 6.0f : g);
    return v * g / 6.0f;
}

enum { U_ABS, U_RSQRT, U_NEG, U_EXP, U_LOG, U_SQRT, U_SQUARE, U_FLOOR, U_CEIL, U_ROUND, U_SIN, U_COS, U_ERF,
       U_HARDSWISH, U_ELU };

static int un_run(const tigris_plan_t *plan, const tigris_op_t *op, tigris_mem_t *mem, int fn) {
    un_f32_t u;
    if (un_setup(plan, op, mem, &u)) return -1;
    for (uint32_t i = 0; i < u.count; i++) {
        float v = u.x[i], r;
        switch (fn) {
        case U_ABS: r = fabsf(v); break;
        case U_RSQRT: r = 1.0f / sqrtf(v); break;
        case U_NEG: r = -v; break;
        case U_EXP: r = expf(v); break;
        case U_LOG: r = logf(v); break;
        case U_SQRT: r = sqrtf(v); break;
        case U_SQUARE: r = v * v; break;
        case U_FLOOR: r = floorf(v); break;
        case U_CEIL: r = ceilf(v); break;
        case U_ROUND: r = round_half_even(v); break;
        case U_SIN: r = sinf(v); break;
        case U_COS: r = cosf(v); break;
        case U_ERF: r = erff(v); break;
        case U_HARDSWISH: r = hardswish(v); break;
        default: r = v < 0.0f ? expm1f(v) : v; break; /* U_ELU */
        }
        u.y[i] = r;
    }
    return 0;
}

#define TK_UNARY_F32(name, fn)                                                                          \
    int tk_f32_##name(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) { \
        (void)op_index;                                                                                 \
        return un_run(plan, op, mem, fn);                                                               \
    }

TK_UNARY_F32(abs, U_ABS)
TK_UNARY_F32(rsqrt, U_RSQRT)
TK_UNARY_F32(neg, U_NEG)
TK_UNARY_F32(exp, U_EXP)
TK_UNARY_F32(log, U_LOG)
TK_UNARY_F32(sqrt, U_SQRT)
TK_UNARY_F32(square, U_SQUARE)
TK_UNARY_F32(floor, U_FLOOR)
TK_UNARY_F32(ceil, U_CEIL)
TK_UNARY_F32(round, U_ROUND)
TK_UNARY_F32(sin, U_SIN)
TK_UNARY_F32(cos, U_COS)
TK_UNARY_F32(erf, U_ERF)
TK_UNARY_F32(hardswish, U_HARDSWISH)
TK_UNARY_F32(elu, U_ELU)
