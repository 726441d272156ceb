/*
 * op_detection.c - DETECTION_POSTPROCESS (docs/format.md P14.9; kinds 14 and
 * 18 of P10.1).
 */
#include "op_checks.h"

#define TG_F32_ONE 0x3F800000u

tigris_error_t tg_check_detection(const tg_op_ctx_t *c) {
    const tigris_op_t *op = c->op;
    TG_REQUIRE(op->num_inputs == 2 && op->num_outputs == 5);
    TG_REQUIRE(op->weight_idx == TIGRIS_NONE16 && op->bias_idx == TIGRIS_NONE16);

    uint32_t len;
    const uint8_t *p = tg_attr(c, TIGRIS_ATTR_DETECTION, &len);
    TG_REQUIRE(p && len == 32);
    uint32_t max_det = tg_rd_u16(p), per_class = tg_rd_u16(p + 2), classes = tg_rd_u16(p + 4);
    uint8_t regular = p[6];
    TG_REQUIRE(max_det > 0 && classes > 0 && regular <= 1 && p[7] == 0);
    if (regular) TG_REQUIRE(per_class > 0);
    TG_REQUIRE(tg_f32_finite(tg_rd_u32(p + 8)));
    uint32_t iou = tg_rd_u32(p + 12);
    TG_REQUIRE(tg_f32_positive(iou) && tg_f32_cmp(iou, TG_F32_ONE) <= 0);
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t s = tg_rd_u32(p + 16 + 4 * i);
        TG_REQUIRE(tg_f32_finite(s) && !tg_f32_is_zero(s));
    }

    const uint8_t *k = tg_attr(c, TIGRIS_ATTR_CONSTANTS, &len);
    TG_REQUIRE(k && len == 2);
    uint16_t anchors = tg_rd_u16(k);
    TG_REQUIRE(anchors != TIGRIS_NONE16 && anchors < c->plan->header->num_weights);

    const tigris_tensor_t *bx = tg_in(c, 0), *sc = tg_in(c, 1);
    TG_REQUIRE(bx->ndim == 3 && sc->ndim == 3);
    const tg_dim_t *bs = tg_shape(c, bx), *ss = tg_shape(c, sc);
    uint64_t boxes = (uint32_t)bs[1];
    TG_REQUIRE(bs[0] == 1 && bs[2] == 4 && ss[0] == 1 && ss[1] == bs[1]);
    TG_REQUIRE((uint32_t)ss[2] == classes || (uint32_t)ss[2] == classes + 1u);
    if (c->d == TIGRIS_DTYPE_INT8) TG_REQUIRE(tg_has_quant(c, bx) && tg_has_quant(c, sc));
    TG_REQUIRE((uint64_t)tg_weight_size(c, anchors) == tg_mul(boxes, 16));

    int32_t d = (int32_t)max_det;
    const tigris_tensor_t *ob = tg_out(c, 0), *oc = tg_out(c, 1), *os = tg_out(c, 2), *on = tg_out(c, 3),
                          *wm = tg_out(c, 4);
    const tg_dim_t *obs = tg_shape(c, ob), *ocs = tg_shape(c, oc), *oss = tg_shape(c, os), *ons = tg_shape(c, on);
    TG_REQUIRE(ob->ndim == 3 && obs[0] == 1 && obs[1] == d && obs[2] == 4);
    TG_REQUIRE(oc->ndim == 2 && ocs[0] == 1 && ocs[1] == d);
    TG_REQUIRE(os->ndim == 2 && oss[0] == 1 && oss[1] == d);
    TG_REQUIRE(on->ndim == 1 && ons[0] == 1);
    for (uint32_t i = 0; i < 5; i++) TG_REQUIRE(!tg_has_quant(c, tg_out(c, i)));
    /* Scratch the kernel carves out of its fifth output. */
    uint64_t kk = max_det + (regular ? per_class : 0u);
    uint64_t most = boxes > kk ? boxes : kk;
    uint64_t need = 4u * (9u * boxes + most + 2u * kk + max_det) + boxes;
    TG_REQUIRE((uint64_t)wm->size_bytes >= need);
    return TIGRIS_OK;
}
