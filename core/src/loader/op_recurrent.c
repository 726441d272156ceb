/*
 * op_recurrent.c - SVDF and LSTM (docs/format.md P14.8; kinds 14, 15, 16 of
 * P10.1). Their constants come from the CONSTANTS list, never weight/bias.
 */
#include "op_checks.h"

/* CONSTANTS payload: exactly k weight indices, each NONE16 or in range. */
static tigris_error_t tg_constants(const tg_op_ctx_t *c, uint32_t k, uint16_t *out) {
    uint32_t len;
    const uint8_t *p = tg_attr(c, TIGRIS_ATTR_CONSTANTS, &len);
    TG_REQUIRE(p && len >= 2 && len % 2 == 0);
    for (uint32_t i = 0; i < len / 2; i++) {
        uint16_t w = tg_rd_u16(p + 2 * i);
        TG_REQUIRE(w == TIGRIS_NONE16 || w < c->plan->header->num_weights);
    }
    TG_REQUIRE(len / 2 == k);
    for (uint32_t i = 0; i < k; i++) out[i] = tg_rd_u16(p + 2 * i);
    return TIGRIS_OK;
}

static int tg_const_size_is(const tg_op_ctx_t *c, uint16_t w, uint64_t bytes, int optional) {
    int64_t s = tg_weight_size(c, w);
    if (s < 0) return optional;
    return (uint64_t)s == bytes;
}

static int tg_shape2(const tg_op_ctx_t *c, const tigris_tensor_t *t, int32_t d0, int32_t d1) {
    const tg_dim_t *s = tg_shape(c, t);
    return t->ndim == 2 && s[0] == d0 && s[1] == d1;
}

static int tg_mult_shift_ok(const uint8_t *p, int32_t smin, int32_t smax) {
    int32_t m = tg_rd_i32(p), s = tg_rd_i32(p + 4);
    return m >= 0 && s >= smin && s <= smax;
}

static tigris_error_t tg_check_svdf(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    TG_REQUIRE(op->num_inputs == 2 && op->num_outputs == 2);
    int int8 = c->d == TIGRIS_DTYPE_INT8;
    uint32_t len;
    const uint8_t *p = tg_attr(c, TIGRIS_ATTR_SVDF, &len);
    TG_REQUIRE(p && len == (int8 ? 24u : 4u));
    int32_t rank = tg_rd_i32(p);
    TG_REQUIRE(rank > 0);
    if (int8) {
        int32_t zp = tg_rd_i32(p + 4);
        TG_REQUIRE(zp >= -32768 && zp <= 32767);
        TG_REQUIRE(tg_mult_shift_ok(p + 8, -31, 0) && tg_mult_shift_ok(p + 16, -31, 0));
    }
    uint16_t k[3];
    tigris_error_t err = tg_constants(c, 3, k);
    if (err != TIGRIS_OK) return err;

    const tigris_tensor_t *x = tg_in(c, 0), *st = tg_in(c, 1), *y = tg_out(c, 0), *nst = tg_out(c, 1);
    TG_REQUIRE(x->ndim == 2 && st->ndim == 2 && y->ndim == 2);
    const tg_dim_t *xs = tg_shape(c, x), *ss = tg_shape(c, st), *ys = tg_shape(c, y);
    int32_t batch = xs[0];
    uint64_t features = (uint32_t)xs[1], units = (uint32_t)ys[1];
    TG_REQUIRE(ss[0] == batch && ys[0] == batch);
    TG_REQUIRE((st->flags & TIGRIS_TENSOR_STATE) && (nst->flags & TIGRIS_TENSOR_STATE));
    TG_REQUIRE(nst->dtype == st->dtype && tg_same_shape(c, st, nst));
    uint64_t filters = tg_mul(units, (uint32_t)rank);
    TG_REQUIRE(filters <= (uint32_t)ss[1] && (uint32_t)ss[1] % (uint32_t)filters == 0);
    uint64_t memory = (uint32_t)ss[1] / (uint32_t)filters;

    uint8_t state_dt = int8 ? TIGRIS_DTYPE_INT16 : TIGRIS_DTYPE_FLOAT32;
    uint64_t fw_e = int8 ? 1u : 4u, tw_e = int8 ? 2u : 4u;
    TG_REQUIRE(st->dtype == state_dt);
    if (int8) TG_REQUIRE(tg_has_quant(c, x) && tg_has_quant(c, y));
    TG_REQUIRE(tg_const_size_is(c, k[0], tg_mul3(filters, features, fw_e), 0));
    TG_REQUIRE(tg_const_size_is(c, k[1], tg_mul3(filters, memory, tw_e), 0));
    TG_REQUIRE(tg_const_size_is(c, k[2], tg_mul(units, 4), 1));
    return TIGRIS_OK;
}

static tigris_error_t tg_check_lstm_payload(const tg_op_ctx_t *c, int int8, uint32_t *time_major) {
    uint32_t len;
    const uint8_t *p = tg_attr(c, TIGRIS_ATTR_LSTM, &len);
    TG_REQUIRE(p && len == (int8 ? 112u : 8u));
    int32_t tm = tg_rd_i32(p);
    uint32_t clip = tg_rd_u32(p + 4);
    TG_REQUIRE(tm == 0 || tm == 1);
    TG_REQUIRE(tg_f32_finite(clip) && (tg_f32_is_zero(clip) || tg_f32_positive(clip)));
    *time_major = (uint32_t)tm;
    if (!int8) return TIGRIS_OK;
    int32_t v[6];
    for (uint32_t i = 2; i < 6; i++) v[i] = tg_rd_i32(p + 4 * i);
    TG_REQUIRE(v[2] >= -128 && v[2] <= 127 && v[3] >= -128 && v[3] <= 127);
    TG_REQUIRE(v[4] >= -30 && v[4] <= 15 && v[5] >= 0 && v[5] <= 32767);
    for (uint32_t i = 6; i < 28; i += 2) TG_REQUIRE(tg_mult_shift_ok(p + 4 * i, -31, 30));
    return TIGRIS_OK;
}

static tigris_error_t tg_check_lstm(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    TG_REQUIRE(op->num_inputs == 3 && op->num_outputs == 3);
    int int8 = c->d == TIGRIS_DTYPE_INT8;
    uint32_t tm;
    tigris_error_t err = tg_check_lstm_payload(c, int8, &tm);
    if (err != TIGRIS_OK) return err;
    uint16_t k[12];
    if ((err = tg_constants(c, 12, k)) != TIGRIS_OK) return err;

    const tigris_tensor_t *seq = tg_in(c, 0), *h = tg_in(c, 1), *cell = tg_in(c, 2);
    const tigris_tensor_t *hseq = tg_out(c, 0), *nh = tg_out(c, 1), *ncell = tg_out(c, 2);
    TG_REQUIRE(seq->ndim == 3 && h->ndim == 2 && hseq->ndim == 3);
    const tg_dim_t *qs = tg_shape(c, seq), *hs = tg_shape(c, h), *os = tg_shape(c, hseq);
    int32_t batch = tm ? qs[1] : qs[0];
    int32_t units = hs[1];
    uint64_t features = (uint32_t)qs[2], u = (uint32_t)units;
    TG_REQUIRE(hs[0] == batch && tg_shape2(c, cell, batch, units));
    TG_REQUIRE(os[0] == qs[0] && os[1] == qs[1] && os[2] == units);
    TG_REQUIRE((h->flags & TIGRIS_TENSOR_STATE) && (cell->flags & TIGRIS_TENSOR_STATE));
    TG_REQUIRE((nh->flags & TIGRIS_TENSOR_STATE) && (ncell->flags & TIGRIS_TENSOR_STATE));
    TG_REQUIRE(nh->dtype == h->dtype && tg_same_shape(c, h, nh));
    TG_REQUIRE(ncell->dtype == cell->dtype && tg_same_shape(c, cell, ncell));
    TG_REQUIRE(h->dtype == c->d && hseq->dtype == c->d);
    TG_REQUIRE(cell->dtype == (int8 ? TIGRIS_DTYPE_INT16 : TIGRIS_DTYPE_FLOAT32));
    if (int8) TG_REQUIRE(tg_has_quant(c, seq) && tg_has_quant(c, h) && tg_has_quant(c, hseq));

    uint64_t we = int8 ? 1u : 4u;
    for (uint32_t g = 0; g < 4; g++) {
        TG_REQUIRE(tg_const_size_is(c, k[g], tg_mul3(u, features, we), 0));
        TG_REQUIRE(tg_const_size_is(c, k[4 + g], tg_mul3(u, u, we), 0));
        TG_REQUIRE(tg_const_size_is(c, k[8 + g], tg_mul(u, 4), 1));
    }
    return TIGRIS_OK;
}

tigris_error_t tg_check_recurrent(const tg_op_ctx_t *c) {
    TG_REQUIRE(c->op->weight_idx == TIGRIS_NONE16 && c->op->bias_idx == TIGRIS_NONE16);
    return c->op->op_type == TIGRIS_OP_SVDF ? tg_check_svdf(c) : tg_check_lstm(c);
}
