// fuzz_plan_load.cpp - libFuzzer target: hostile bytes into the plan loader.
//
// Beyond "does not crash", it checks the loader's promises that the rest of the
// runtime relies on without re-checking: a refused plan is all zero, the plain
// and the _ex entry points agree, and every pointer and index an accepted plan
// exposes can be followed (strings end inside the pool, lists lie in the index
// pool and name existing tensors or ops, weights lie in the blob). A broken
// promise traps, so libFuzzer records the input as a crash.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

extern "C" {
#include "tigris.h"
#include "tigris_loader.h"
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
    } else {
        require(plan_is_zero(plan));
        g_sink = g_sink + (uint32_t)(uintptr_t)tigris_error_str(err);
    }

    ::operator delete(buf, std::align_val_t{16});
    return 0;
}
