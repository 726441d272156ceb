// fuzz_plan_load.cpp - libFuzzer target: hostile bytes into the plan loader.
//
// Beyond "does not crash", it checks the loader's promises that the rest of the
// runtime relies on without re-checking: a refused plan is all zero, the plain
// and the _ex entry points agree, and every pointer and index an accepted plan
// exposes can be followed (strings end inside the pool, lists lie in the index
// pool and name existing tensors or ops, weights lie in the blob). A broken
// promise traps, so libFuzzer records the input as a crash.
//
// And the promise the loader makes to the executor (issue 16): a plan that
// loads runs at its own declared fast arena. Every accepted plan small enough
// to run quickly is run at tigris_fast_arena_required() with zero inputs; the
// run must end OK or ERR_MEM (arena exhaustion), never with a kernel, tile,
// workspace or state error.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

extern "C" {
#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_iface.h"
#include "tigris_kernels.h"
#include "tigris_loader.h"
#include "tigris_mem.h"
}

namespace {

// Folding every byte we touch into a volatile keeps the reads from being
// optimised away, so ASan checks each of them.
volatile uint32_t g_sink;

void require(bool ok) {
    if (!ok) __builtin_trap();
}

void touch_string(const tigris_plan_t *p, uint32_t off) {
    const char *s = tigris_str(p, off);
    uint32_t h = 0;
    while (*s) h = h * 31u + (uint8_t)*s++;
    g_sink = g_sink + h;
}

void touch_bytes(const void *ptr, size_t n) {
    const uint8_t *b = static_cast<const uint8_t *>(ptr);
    if (n == 0) return;
    // First and last byte are enough for ASan to catch a range that runs out.
    g_sink = g_sink + b[0] + b[n - 1];
}

void walk_index_list(const tigris_plan_t *p, uint16_t off, uint32_t count, uint32_t bound) {
    const uint16_t *list = p->index_pool + off;
    for (uint32_t i = 0; i < count; ++i) require(list[i] < bound);
}

void walk_plan(const tigris_plan_t *p) {
    const tigris_file_header_t *h = p->header;
    require(h != nullptr);
    touch_string(p, h->model_name_str);

    for (uint32_t i = 0; i < h->num_tensors; ++i) {
        const tigris_tensor_t *t = &p->tensors[i];
        touch_string(p, t->name_str);
        const int32_t *shape = tigris_tensor_shape(p, t);
        for (uint32_t d = 0; d < t->ndim; ++d) require(shape[d] > 0);
        if (t->quant_param_idx != TIGRIS_NONE16) require(t->quant_param_idx < h->num_quant_params);
    }
    for (uint32_t i = 0; i < h->num_ops; ++i) {
        const tigris_op_t *op = &p->ops[i];
        touch_string(p, op->name_str);
        walk_index_list(p, op->inputs_off, op->num_inputs, h->num_tensors);
        walk_index_list(p, op->outputs_off, op->num_outputs, h->num_tensors);
        if (op->weight_idx != TIGRIS_NONE16) require(op->weight_idx < h->num_weights);
        if (op->bias_idx != TIGRIS_NONE16) require(op->bias_idx < h->num_weights);
    }
    for (uint32_t i = 0; i < h->num_stages; ++i) {
        const tigris_stage_t *s = &p->stages[i];
        walk_index_list(p, s->ops_off, s->ops_count, h->num_ops);
        walk_index_list(p, s->inputs_off, s->inputs_count, h->num_tensors);
        walk_index_list(p, s->outputs_off, s->outputs_count, h->num_tensors);
        if (s->tile_plan_idx != TIGRIS_NONE16) require(s->tile_plan_idx < h->num_tile_plans);
    }
    for (uint32_t i = 0; i < h->num_model_inputs; ++i) require(p->model_inputs[i] < h->num_tensors);
    for (uint32_t i = 0; i < h->num_model_outputs; ++i) require(p->model_outputs[i] < h->num_tensors);

    // Uncompressed weights are read in place by the kernels.
    if (p->weight_entries && p->weight_blob && p->num_weight_blocks == 0) {
        for (uint32_t i = 0; i < h->num_weights; ++i) {
            const tigris_weight_entry_t *w = &p->weight_entries[i];
            touch_bytes(p->weight_blob + w->offset, w->size_bytes);
        }
    }
    if (p->op_attributes) {
        for (uint32_t i = 0; i < p->num_op_attributes; ++i) {
            const tigris_op_attribute_t *a = &p->op_attributes[i];
            require(a->op_index < h->num_ops);
            touch_bytes(p->op_attribute_data + a->data_offset, a->data_len);
        }
    }
    if (p->subgraphs) {
        for (uint32_t i = 0; i < p->num_subgraphs; ++i) {
            const tigris_subgraph_t *g = &p->subgraphs[i];
            require((uint32_t)g->first_stage + g->num_stages <= h->num_stages);
            walk_index_list(p, g->inputs_off, g->inputs_count, h->num_tensors);
            walk_index_list(p, g->outputs_off, g->outputs_count, h->num_tensors);
        }
    }

    // The derived facts must be computable for any accepted plan.
    for (uint32_t i = 0; i < h->num_stages; ++i) {
        const tigris_stage_t *s = &p->stages[i];
        tigris_tile_facts_t facts;
        int derived = tigris_stage_tile_facts(p, s, &facts);
        tigris_stage_band_t band;
        tigris_band_kind_t kind = tigris_stage_band_kind(p, s, &band);
        g_sink = g_sink + (uint32_t)derived + (derived ? facts.num_tiles : 0u) + (uint32_t)kind + band.extent;
    }
    g_sink = g_sink + tigris_fast_arena_required(p);
    g_sink = g_sink + (uint32_t)tigris_executor_workspace_required(p);
    g_sink = g_sink + tigris_plan_data_dtype(p);
}

// Field by field rather than memcmp: padding inside tigris_plan_t is not
// something the loader promises anything about.
#define TIGRIS_PLAN_FIELDS(X)                                                                        \
    X(header) X(tensors) X(ops) X(stages) X(tile_plans) X(index_pool) X(shape_pool) X(strings)         \
    X(weight_entries) X(weight_blob) X(weight_blocks) X(weight_blocks_data) X(num_weight_blocks)       \
    X(weight_compression) X(op_attributes) X(op_attribute_data) X(num_op_attributes) X(quant_params)  \
    X(quant_data) X(num_quant_params) X(state_entries) X(state_section) X(num_state) X(state_bytes)    \
    X(subgraphs) X(num_subgraphs) X(subgraph_depth) X(tile_plans_v10) X(model_inputs)                  \
    X(model_outputs) X(scheduled_peak) X(tile_plans_v11)

bool plan_is_zero(const tigris_plan_t &p) {
    bool zero = true;
#define X(f) zero = zero && !p.f;
    TIGRIS_PLAN_FIELDS(X)
#undef X
    return zero;
}

bool plans_equal(const tigris_plan_t &a, const tigris_plan_t &b) {
    bool same = true;
#define X(f) same = same && a.f == b.f;
    TIGRIS_PLAN_FIELDS(X)
#undef X
    return same;
}

// Kernel calls allowed per run: a fuzzed While loop may never end, and the
// fuzzer must not hang on it. A run stopped here proves nothing either way.
constexpr uint32_t kMaxKernelCalls = 20000;
// Arena bytes (fast + slow) above which a plan is not run: hostile shapes
// would otherwise make every execution allocate gigabytes.
constexpr uint64_t kMaxRunBytes = uint64_t{8} << 20;

struct RunCtx {
    tigris_kernel_fn inner;
    uint32_t calls = 0;
    bool stopped = false;
};

int counting_kernel(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem,
                    void *user) {
    RunCtx *c = static_cast<RunCtx *>(user);
    if (++c->calls > kMaxKernelCalls) {
        c->stopped = true;
        return -1;
    }
    return c->inner(plan, op, op_index, mem, nullptr);
}

// Runs an accepted plan at its declared fast arena and checks the result.
void run_at_declared_arena(const tigris_plan_t *p) {
    const tigris_file_header_t *h = p->header;
    const uint32_t fast = tigris_fast_arena_required(p);
    uint64_t slow = 4096;
    for (uint32_t t = 0; t < h->num_tensors; ++t) slow += 2ull * (p->tensors[t].size_bytes + 64u);
    const size_t ws_size = tigris_executor_workspace_required(p);
    const size_t state_size = tigris_state_required(p);
    if ((uint64_t)fast + slow + ws_size + state_size > kMaxRunBytes) return;

    std::vector<uint8_t> fast_buf(fast ? fast : 1), slow_buf((size_t)slow), ws(ws_size ? ws_size : 1, 0),
        state(state_size ? state_size : 1, 0);
    std::vector<void *> ptrs(h->num_tensors ? h->num_tensors : 1, nullptr);
    tigris_mem_t mem;
    if (tigris_mem_init(&mem, ptrs.data(), (uint16_t)h->num_tensors, fast_buf.data(), fast, slow_buf.data(),
                        (uint32_t)slow) != TIGRIS_MEM_OK)
        return;
    for (uint32_t i = 0; i < h->num_model_inputs; ++i) {
        const uint16_t t = p->model_inputs[i];
        std::vector<uint8_t> zeros(tigris_iface_bytes(p, t) ? tigris_iface_bytes(p, t) : 1, 0);
        // Placing an input can only fail for room, which is ERR_MEM's case.
        if (tigris_input_write(p, &mem, t, zeros.data(), tigris_iface_bytes(p, t)) != TIGRIS_OK) return;
    }
    if (state_size && tigris_state_init(p, state.data(), state_size) != TIGRIS_EXEC_OK) return;
    RunCtx ctx;
    ctx.inner = tigris_plan_data_dtype(p) == TIGRIS_DTYPE_INT8 ? tigris_dispatch_kernel_s8 : tigris_dispatch_kernel;
    tigris_exec_stats_t stats;
    std::memset(&stats, 0, sizeof stats);
    const tigris_exec_error_t e = tigris_run_with_state(p, &mem, counting_kernel, &ctx, &stats, ws.data(), ws_size,
                                                        state_size ? state.data() : nullptr, state_size);
    if (ctx.stopped) return;
    require(e == TIGRIS_EXEC_OK || e == TIGRIS_EXEC_ERR_MEM);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > UINT32_MAX) return -1;

    // An exactly-sized heap copy puts ASan's redzone right after the last plan
    // byte; 16-byte alignment matches what real callers give the loader.
    uint8_t *buf = static_cast<uint8_t *>(::operator new(size ? size : 1, std::align_val_t{16}));
    if (size) std::memcpy(buf, data, size);

    tigris_plan_t plan;
    std::memset(&plan, 0xA5, sizeof plan);  // a refused load must really clear it
    tigris_plan_limits_t required;
    tigris_error_t err = tigris_plan_load_ex(buf, (uint32_t)size, &plan, &required);

    tigris_plan_t plain;
    tigris_error_t err_plain = tigris_plan_load(buf, (uint32_t)size, &plain);
    require(err == err_plain);

    if (err == TIGRIS_OK) {
        require(plans_equal(plan, plain));
        walk_plan(&plan);
        run_at_declared_arena(&plan);
    } else {
        require(plan_is_zero(plan));
        g_sink = g_sink + (uint32_t)(uintptr_t)tigris_error_str(err);
    }

    ::operator delete(buf, std::align_val_t{16});
    return 0;
}
