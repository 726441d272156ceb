/*
 * backend.c - the CMSIS-NN adapter's prepared context, its sizing helpers
 * and its dispatcher (tigris_kernels_cmsis_nn.h, docs/kernels-cmsis-nn.md).
 *
 * Routing: an op type with an entry in cn_routes runs its adapter, which
 * calls Arm's CMSIS-NN or answers CN_FALLBACK for a variant CMSIS-NN does
 * not take as the reference computes it (each op file lists those); every
 * other op type, every fallback and every float op go to the int8
 * reference. Results are the reference's bytes in every case.
 *
 * Scratch: tigris_cmsis_nn_scratch_required() is the largest reservation
 * any int8 op of the plan needs (the op files' sizing twins: parameter
 * arrays plus what CMSIS-NN's own *_get_buffer_size() asks for), rounded to
 * 16 bytes. prepare() places it at the top of the fast arena.
 */
#include "tigris_kernels.h"
#include "tigris_kernels_cmsis_nn.h"

#include "cn_internal.h"

typedef uint32_t (*cn_scratch_fn)(const tigris_plan_t *plan, const tigris_op_t *op);

typedef struct {
    tk_kernel_fn run;
    cn_scratch_fn scratch;
} cn_route_t;

static const cn_route_t cn_routes[TIGRIS_OP_MAX_KNOWN + 1] = {
    [TIGRIS_OP_CONV] = {cn_conv, cn_conv_scratch},
    [TIGRIS_OP_DEPTHWISE] = {cn_depthwise, cn_depthwise_scratch},
    [TIGRIS_OP_FULLY_CONN] = {cn_fully_connected, cn_fully_connected_scratch},
    [TIGRIS_OP_MAX_POOL] = {cn_max_pool, cn_max_pool_scratch},
    [TIGRIS_OP_AVG_POOL] = {cn_avg_pool, cn_avg_pool_scratch},
    [TIGRIS_OP_ADD] = {cn_add, cn_add_scratch},
};

/* The one process-global prepared context the API allows: the mem and plan
 * it was prepared for, the fast size it had, the reservation. */
static struct {
    tigris_mem_t *mem;
    const tigris_plan_t *plan;
    uint32_t saved_fast_size, prepared_fast_size;
    uint8_t *scratch;
    uint32_t scratch_size;
    uint32_t vendor_calls;
} g_cn;

uint8_t *cn_scratch(const tigris_mem_t *mem, uint32_t need) {
    if (!mem || mem != g_cn.mem || need > g_cn.scratch_size) return NULL;
    return g_cn.scratch;
}

void cn_count_vendor_call(void) { g_cn.vendor_calls++; }

uint32_t tigris_cmsis_nn_vendor_calls(void) { return g_cn.vendor_calls; }

uint32_t tigris_cmsis_nn_scratch_required(const tigris_plan_t *plan) {
    if (!plan || !plan->header || (plan->header->num_ops && !plan->ops)) return UINT32_MAX;
    uint32_t need = 0;
    for (uint32_t i = 0; i < plan->header->num_ops; i++) {
        const tigris_op_t *op = &plan->ops[i];
        if (op->op_type > TIGRIS_OP_MAX_KNOWN || !cn_routes[op->op_type].scratch) continue;
        int32_t o = tk_out_idx(plan, op, 0);
        if (o < 0 || plan->tensors[o].dtype != TIGRIS_DTYPE_INT8) continue;
        uint32_t s = cn_routes[op->op_type].scratch(plan, op);
        if (s > need) need = s;
    }
    return cn_round16(need);
}

uint32_t tigris_cmsis_nn_fast_arena_required(const tigris_plan_t *plan) {
    return tk_fast_arena_with_scratch(plan, tigris_cmsis_nn_scratch_required(plan));
}

int tigris_cmsis_nn_prepare(const tigris_plan_t *plan, tigris_mem_t *mem) {
    if (!plan || !mem || !mem->fast_base) return -1;
    if (g_cn.mem) {
        /* Idempotent for the arena and plan it holds; anything else needs
         * tigris_cmsis_nn_deinit() first. */
        if (g_cn.mem == mem && g_cn.plan == plan && mem->fast_size == g_cn.prepared_fast_size) return 0;
        return -1;
    }
    uint32_t need = tigris_cmsis_nn_scratch_required(plan);
    if (need == UINT32_MAX || mem->fast_size < mem->fast_used) return -1;
    uint8_t *scratch = NULL;
    uint32_t size = mem->fast_size;
    if (need) {
        /* Top of the arena, start aligned down for CMSIS-NN's word accesses. */
        if (need > mem->fast_size) return -1;
        uintptr_t top = (uintptr_t)mem->fast_base + mem->fast_size;
        uintptr_t base = (top - need) & ~(uintptr_t)(TIGRIS_TENSOR_ALIGN - 1u);
        if (base < (uintptr_t)mem->fast_base + mem->fast_used) return -1;
        scratch = (uint8_t *)base;
        size = (uint32_t)(base - (uintptr_t)mem->fast_base);
    }
    g_cn.mem = mem;
    g_cn.plan = plan;
    g_cn.saved_fast_size = mem->fast_size;
    g_cn.prepared_fast_size = size;
    g_cn.scratch = scratch;
    g_cn.scratch_size = need;
    g_cn.vendor_calls = 0;
    mem->fast_size = size;
    return 0;
}

int tigris_cmsis_nn_deinit(tigris_mem_t *mem) {
    if (!mem || mem != g_cn.mem) return -1;
    mem->fast_size = g_cn.saved_fast_size;
    g_cn.mem = NULL;
    g_cn.plan = NULL;
    g_cn.scratch = NULL;
    g_cn.scratch_size = 0;
    return 0;
}

int tigris_dispatch_kernel_cmsis_nn(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index,
                                    tigris_mem_t *mem, void *user_ctx) {
    if (plan && op && mem && mem->tensor_ptrs && op->op_type <= TIGRIS_OP_MAX_KNOWN && cn_routes[op->op_type].run) {
        int rc = cn_routes[op->op_type].run(plan, op, op_index, mem);
        if (rc != CN_FALLBACK) {
            if (rc == 0) cn_count_vendor_call();
            return rc;
        }
    }
    return tigris_dispatch_kernel_s8(plan, op, op_index, mem, user_ctx);
}
