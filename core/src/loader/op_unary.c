/*
 * op_unary.c - one-in, one-out activations, math and normalisation
 * (docs/format.md P14.4; kinds 2 and 3 of P10.1).
 */
#include "op_checks.h"

#define TG_F32_ONE_16TH 0x3D800000u   /* 1/16: int8 LogSoftmax output scale */
#define TG_F32_ONE_128TH 0x3C000000u  /* 1/128: int8 L2Normalization and Tanh output scale */
#define TG_F32_ONE_256TH 0x3B800000u  /* 1/256: int8 Softmax and Sigmoid output scale */

/* The fixed int8 output encoding TFLite gives Softmax, Sigmoid and Tanh,
 * which their int8 kernels compute in (and refuse otherwise). */
static int tg_fixed_output(const tg_op_ctx_t *c, uint32_t scale_bits, int32_t zero_point) {
    const tigris_quant_param_t *q = tg_quant(c, tg_out(c, 0));
    return q->num_channels == 1 && tg_scale_bits(q) == scale_bits && q->zero_point == zero_point;
}

static int tg_float_only(uint8_t t) {
    return t >= TIGRIS_OP_NEG && t <= TIGRIS_OP_COS;
}

static tigris_error_t tg_check_epsilon(const tg_op_ctx_t *c, int allow_zero) {
    uint32_t len;
    const uint8_t *p = tg_attr(c, TIGRIS_ATTR_EPSILON, &len);
    TG_REQUIRE(p && len == 4);
    uint32_t bits = tg_rd_u32(p);
    TG_REQUIRE(tg_f32_positive(bits) || (allow_zero && tg_f32_is_zero(bits)));
    return TIGRIS_OK;
}

static tigris_error_t tg_check_layer_norm(const tg_op_ctx_t *c) {
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    TG_REQUIRE(x->ndim >= 1 && y->ndim == x->ndim && y->size_bytes == x->size_bytes);
    uint64_t last = (uint32_t)tg_shape(c, x)[x->ndim - 1];
    /* It normalises the last axis: both tensors must have the same one. */
    TG_REQUIRE(tg_shape(c, y)[y->ndim - 1] == tg_shape(c, x)[x->ndim - 1]);
    /* The int8 kernel dequantises its input and quantises its output. */
    if (c->d == TIGRIS_DTYPE_INT8) TG_REQUIRE(tg_has_quant(c, x) && tg_has_quant(c, y));
    /* Scale and bias stay float32 in int8 plans too. */
    int64_t w = tg_weight_size(c, c->op->weight_idx);
    TG_REQUIRE(w >= 0 && (uint64_t)w == tg_mul(last, 4));
    int64_t b = tg_weight_size(c, c->op->bias_idx);
    TG_REQUIRE(b < 0 || (uint64_t)b == tg_mul(last, 4));
    return tg_check_epsilon(c, 0);
}

tigris_error_t tg_check_unary(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    uint8_t t = op->op_type;
    TG_REQUIRE(op->num_inputs == 1 && op->num_outputs == 1);
    const tigris_tensor_t *x = tg_in(c, 0), *y = tg_out(c, 0);
    if (t == TIGRIS_OP_LAYER_NORM) return tg_check_layer_norm(c);
    TG_REQUIRE(op->weight_idx == TIGRIS_NONE16 && op->bias_idx == TIGRIS_NONE16);

    if (t == TIGRIS_OP_HARDSWISH || t == TIGRIS_OP_ERF) {
        TG_REQUIRE(y->ndim == x->ndim && y->size_bytes == x->size_bytes);
    } else {
        TG_REQUIRE(tg_same_shape(c, x, y));
    }
    if (tg_float_only(t)) TG_REQUIRE(c->d == TIGRIS_DTYPE_FLOAT32);
    /* Every int8 kernel reads both encodings. */
    if (c->d == TIGRIS_DTYPE_INT8) TG_REQUIRE(tg_has_quant(c, x) && tg_has_quant(c, y));

    uint32_t len;
    const uint8_t *p;
    switch (t) {
    case TIGRIS_OP_SOFTMAX:
        TG_REQUIRE(x->ndim >= 1);
        if (c->d == TIGRIS_DTYPE_INT8) {
            TG_REQUIRE(tg_fixed_output(c, TG_F32_ONE_256TH, -128));
            /* TFLite's input scaling s_in·2^26 as a multiplier with a left
             * shift of 0..30: floor(log2 s_in) in [-27, 3] (a normal float). */
            uint32_t e = (tg_scale_bits(tg_quant(c, x)) >> 23) & 0xFFu;
            TG_REQUIRE(e >= 127u - 27u && e <= 127u + 3u);
        }
        break;
    case TIGRIS_OP_HARDSWISH:
        /* TFLite's int8 HardSwish: s_in/128 a normal float and the output
         * multiplier s_in/(128·s_out) below 1 (its exponent ≤ 0). */
        if (c->d == TIGRIS_DTYPE_INT8) {
            uint32_t si = tg_scale_bits(tg_quant(c, x)), so = tg_scale_bits(tg_quant(c, y));
            TG_REQUIRE(((si >> 23) & 0xFFu) > 7u && tg_f32_cmp_scaled(si, so, 7) < 0);
        }
        break;
    case TIGRIS_OP_SIGMOID:
        if (c->d == TIGRIS_DTYPE_INT8) TG_REQUIRE(tg_fixed_output(c, TG_F32_ONE_256TH, -128));
        break;
    case TIGRIS_OP_TANH:
        if (c->d == TIGRIS_DTYPE_INT8) TG_REQUIRE(tg_fixed_output(c, TG_F32_ONE_128TH, 0));
        break;
    case TIGRIS_OP_LEAKY_RELU:
        p = tg_attr(c, TIGRIS_ATTR_ALPHA, &len);
        if (p) TG_REQUIRE(len == 4 && tg_f32_finite(tg_rd_u32(p)));
        break;
    case TIGRIS_OP_LOG_SOFTMAX:
        TG_REQUIRE(x->ndim >= 1);
        if (c->d == TIGRIS_DTYPE_INT8) {
            const tigris_quant_param_t *q = tg_quant(c, y);
            TG_REQUIRE(q->num_channels == 1 && tg_scale_bits(q) == TG_F32_ONE_16TH && q->zero_point == 127);
        }
        break;
    case TIGRIS_OP_L2_NORMALIZATION: {
        TG_REQUIRE(x->ndim >= 1 && x->ndim <= 4);
        if (c->d == TIGRIS_DTYPE_INT8) {
            const tigris_quant_param_t *q = tg_quant(c, y);
            TG_REQUIRE(q->num_channels == 1 && tg_scale_bits(q) == TG_F32_ONE_128TH && q->zero_point == 0);
        }
        return tg_check_epsilon(c, 1);
    }
    case TIGRIS_OP_ELU:
        if (c->d == TIGRIS_DTYPE_INT8) TG_REQUIRE(tg_quant(c, y)->num_channels == 1);
        break;
    default:
        break;
    }
    return TIGRIS_OK;
}
