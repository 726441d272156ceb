/*
 * op_util.c - shape, broadcast, attribute and float-bit helpers shared by the
 * operator checks. Float values from the plan are judged on their bit
 * patterns: the loader must run on cores without an FPU or soft-float
 * library (lx106), and exact integer arithmetic also avoids rounding
 * disagreements between targets.
 */
#include "op_checks.h"

uint64_t tg_elems(const tg_op_ctx_t *c, const tigris_tensor_t *t) {
    const tg_dim_t *s = tg_shape(c, t);
    uint64_t n = 1;
    for (uint32_t i = 0; i < t->ndim; i++) {
        /* The tensor checks bound the product to 32 bits; saturate anyway. */
        if (s[i] <= 0) return 0;
        n *= (uint64_t)(uint32_t)s[i];
        if (n > 0xFFFFFFFFull) return 0xFFFFFFFFull + 1u;
    }
    return n;
}

int tg_same_shape(const tg_op_ctx_t *c, const tigris_tensor_t *a, const tigris_tensor_t *b) {
    if (a->ndim != b->ndim) return 0;
    const tg_dim_t *sa = tg_shape(c, a), *sb = tg_shape(c, b);
    for (uint32_t i = 0; i < a->ndim; i++)
        if (sa[i] != sb[i]) return 0;
    return 1;
}

const tigris_quant_param_t *tg_quant(const tg_op_ctx_t *c, const tigris_tensor_t *t) {
    return tigris_tensor_quant(c->plan, t);
}

int tg_has_quant(const tg_op_ctx_t *c, const tigris_tensor_t *t) {
    return tg_quant(c, t) != NULL;
}

int tg_same_encoding(const tg_op_ctx_t *c, const tigris_tensor_t *a, const tigris_tensor_t *b) {
    const tigris_quant_param_t *qa = tg_quant(c, a), *qb = tg_quant(c, b);
    if (!qa || !qb) return qa == qb;
    return tg_scale_bits(qa) == tg_scale_bits(qb) && qa->zero_point == qb->zero_point;
}

int tg_same_form(const tg_op_ctx_t *c, const tigris_tensor_t *a, const tigris_tensor_t *b) {
    return a->dtype == b->dtype && tg_same_shape(c, a, b) && tg_same_encoding(c, a, b);
}

int tg_broadcasts(const tg_dim_t *s, uint32_t r, const tg_dim_t *o, uint32_t orank) {
    if (r > orank) return 0;
    for (uint32_t i = 0; i < r; i++) {
        int32_t sd = s[r - 1 - i], od = o[orank - 1 - i];
        if (sd != 1 && sd != od) return 0;
    }
    return 1;
}

int tg_periodic(const tg_dim_t *s, uint32_t r, const tg_dim_t *o, uint32_t orank) {
    if (r > orank) return 0;
    uint32_t i = 0;
    while (i < r && s[r - 1 - i] == o[orank - 1 - i]) i++;
    for (; i < r; i++)
        if (s[r - 1 - i] != 1) return 0;
    return 1;
}

int tg_window_ok(int64_t in, int64_t out, uint32_t k, uint32_t s, uint32_t pb, uint32_t pa, uint32_t d) {
    if (in <= 0 || out <= 0 || k == 0 || s == 0) return 0;
    if (d == 0) d = 1;
    uint64_t span = (uint64_t)(k - 1u) * d + 1u;
    uint64_t total = (uint64_t)in + pb + pa;
    if (total < span) return 0;
    /* total < 2^32 (dims are positive i32, pads u16): 32-bit division is
     * enough, and lx106 has no 64-bit divide. */
    uint32_t q = (uint32_t)(total - span) / s;
    return (uint64_t)out == (uint64_t)q + 1u;
}

int64_t tg_weight_size(const tg_op_ctx_t *c, uint16_t idx) {
    if (idx == TIGRIS_NONE16 || !c->plan->weight_entries || idx >= c->plan->header->num_weights) return -1;
    return (int64_t)c->plan->weight_entries[idx].size_bytes;
}

const uint8_t *tg_attr(const tg_op_ctx_t *c, uint8_t kind, uint32_t *len) {
    uint8_t l = 0;
    const uint8_t *p = tigris_op_attribute_data(c->plan, c->index, kind, &l);
    if (len) *len = p ? l : 0;
    return p;
}

uint16_t tg_rd_u16(const uint8_t *p) {
    return (uint16_t)(p[0] | (p[1] << 8));
}

uint32_t tg_rd_u32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

int32_t tg_rd_i32(const uint8_t *p) {
    uint32_t u = tg_rd_u32(p);
    int32_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

int tg_f32_finite(uint32_t bits) {
    return ((bits >> 23) & 0xFFu) != 0xFFu;
}

int tg_f32_is_zero(uint32_t bits) {
    return (bits & 0x7FFFFFFFu) == 0;
}

int tg_f32_positive(uint32_t bits) {
    return tg_f32_finite(bits) && !(bits & 0x80000000u) && !tg_f32_is_zero(bits);
}

int tg_f32_cmp(uint32_t a, uint32_t b) {
    /* Sign-magnitude to a monotone integer; both zeros map to 0. */
    int64_t ka = (a & 0x80000000u) ? -(int64_t)(a & 0x7FFFFFFFu) : (int64_t)(a & 0x7FFFFFFFu);
    int64_t kb = (b & 0x80000000u) ? -(int64_t)(b & 0x7FFFFFFFu) : (int64_t)(b & 0x7FFFFFFFu);
    return ka < kb ? -1 : (ka > kb ? 1 : 0);
}

/* Positive finite x as m * 2^e with m normalised to [2^23, 2^24). */
static void tg_f32_split(uint32_t bits, uint32_t *m, int32_t *e) {
    uint32_t ex = (bits >> 23) & 0xFFu;
    uint32_t mant = bits & 0x7FFFFFu;
    int32_t exp;
    if (ex == 0) {
        exp = -149;
    } else {
        mant |= 0x800000u;
        exp = (int32_t)ex - 150;
    }
    while (mant && mant < 0x800000u) {
        mant <<= 1;
        exp--;
    }
    *m = mant;
    *e = exp;
}

int tg_f32_cmp_scaled(uint32_t a, uint32_t b, int32_t k) {
    uint32_t ma, mb;
    int32_t ea, eb;
    tg_f32_split(a, &ma, &ea);
    tg_f32_split(b, &mb, &eb);
    eb += k;
    if (ea != eb) return ea < eb ? -1 : 1;
    return ma < mb ? -1 : (ma > mb ? 1 : 0);
}

uint64_t tg_f32_floor_mul(uint64_t n, uint32_t x) {
    const uint64_t cap = (uint64_t)1 << 62;
    uint32_t m;
    int32_t e;
    if (n > 0xFFFFFFFFull) return cap;
    tg_f32_split(x, &m, &e);
    uint64_t p = n * m; /* < 2^56 */
    if (e >= 0) {
        if (e >= 62 || (p >> (62 - e)) != 0) return cap;
        return p << e;
    }
    if (e <= -64) return 0;
    return p >> (uint32_t)(-e);
}
