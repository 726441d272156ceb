/*
 * add.c - int8 Add through CMSIS-NN's arm_elementwise_add_s8.
 *
 * Both are TFLite's Add: each operand (v - zp) << 20 rescaled, summed, the
 * sum rescaled to the output. The parameters are derived as the reference
 * derives them (s8/elementwise.c: the BINARY_REQUANT attribute, or the exact
 * derivation from the scales).
 * Taken: both operands dense (the output's shape), whole tensor or band.
 * Fallback to the reference: any broadcast or constant operand, a multiplier
 * of INT32_MIN or a shift beyond +-31, an output zero point outside int8.
 */
#include "cn_internal.h"
#include "../s8/add_params.h"

static int rq_ok(int32_t m, int32_t s) { return m != INT32_MIN && s >= -31 && s <= 31; }

int cn_add(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem) {
    tk_binary_t b;
    tk_s8_add_t p;
    if (tk_binary_setup(plan, op, op_index, mem, TIGRIS_DTYPE_INT8, &b)) return CN_FALLBACK;
    if (b.a[0].kind != TK_OPND_DENSE || b.a[1].kind != TK_OPND_DENSE) return CN_FALLBACK;
    if (tk_s8_add_params(plan, op, op_index, &b, &p)) return CN_FALLBACK;
    if (!rq_ok(p.ma, p.sha) || !rq_ok(p.mb, p.shb) || !rq_ok(p.my, p.shy)) return CN_FALLBACK;
    if (!cn_out_ok(p.zy, p.lo, p.hi) || b.count > 0x7FFFFFFFu) return CN_FALLBACK;
    arm_cmsis_nn_status st =
        arm_elementwise_add_s8((const int8_t *)b.a[0].p, (const int8_t *)b.a[1].p, -p.za, p.ma, p.sha, -p.zb, p.mb,
                               p.shb, 20, (int8_t *)b.y, p.zy, p.my, p.shy, p.lo, p.hi, (int32_t)b.count);
    return st == ARM_CMSIS_NN_SUCCESS ? 0 : CN_FALLBACK;
}

uint32_t cn_add_scratch(const tigris_plan_t *plan, const tigris_op_t *op) {
    (void)plan;
    (void)op;
    return 0;
}
