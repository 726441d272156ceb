/*
 * load.c - tigris_plan_load / _ex: runs the checks of docs/format.md P13.2
 * in their documented order. The first failing step decides the error, and
 * a failed load leaves the caller's plan zeroed so nothing half-checked can
 * be used.
 */
#include "loader_internal.h"
#include "op_checks.h"

int tigris__ld_string_ok(const tigris__ld_t *ld, uint32_t off) {
    if (off >= ld->strings_len) return 0;
    return memchr(ld->plan->strings + off, 0, ld->strings_len - off) != NULL;
}

static tigris_error_t run_steps(tigris__ld_t *ld) {
    tigris_error_t e;
    if ((e = tigris__ld_header(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_directory(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_tables(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_pools(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_tensors(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_subgraph_header(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_state_tensors(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_ops(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_attributes(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_weight_entries(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_quant(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_weight_blocks(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_stages(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_block_coverage(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__ld_control_flow(ld)) != TIGRIS_OK) return e;
    if ((e = tigris__loader_check_operators(ld->plan)) != TIGRIS_OK) return e;
    /* F8 last: a plan that is wrong is reported as wrong on every build;
     * only a runnable plan is told that this build lacks its kernels. */
    return tigris__ld_kernel_families(ld->plan);
}

static int host_is_little_endian(void) {
    const uint16_t probe = 1;
    return *(const uint8_t *)&probe == 1;
}

tigris_error_t tigris_plan_load_ex(const uint8_t *buf, uint32_t buf_len, tigris_plan_t *out_plan,
                                   tigris_plan_limits_t *out_required) {
    tigris_plan_limits_t scratch;
    tigris__ld_t ld;
    tigris_error_t e;

    if (out_plan) memset(out_plan, 0, sizeof *out_plan);
    memset(&scratch, 0, sizeof scratch);
    if (out_required) memset(out_required, 0, sizeof *out_required);
    if (!buf || !out_plan) return TIGRIS_ERR_NULL;
    if (!host_is_little_endian()) return TIGRIS_ERR_ENDIAN;

    memset(&ld, 0, sizeof ld);
    ld.buf = buf;
    ld.len = buf_len;
    ld.plan = out_plan;
    ld.req = out_required ? out_required : &scratch;
    e = run_steps(&ld);
    if (e != TIGRIS_OK) memset(out_plan, 0, sizeof *out_plan);
    return e;
}

tigris_error_t tigris_plan_load(const uint8_t *buf, uint32_t buf_len, tigris_plan_t *out_plan) {
    return tigris_plan_load_ex(buf, buf_len, out_plan, NULL);
}
