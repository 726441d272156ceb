// test_kernels_plan.h - a plan assembled directly as tigris_plan_t tables
// (no loader involved) plus a memory manager whose tensor pointers point at
// test-owned buffers, so a kernel can be run through the dispatchers alone.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <vector>

#include "tigris.h"
#include "tigris_kernels.h"
#include "tigris_mem.h"

namespace kt {

struct KPlan {
    tigris_file_header_t header{};
    std::vector<tigris_tensor_t> tensors;
    std::vector<int32_t> shapes;
    std::vector<uint16_t> pool;
    std::vector<tigris_op_t> ops;
    std::vector<tigris_weight_entry_t> wentries;
    std::vector<uint8_t> blob;
    std::vector<tigris_quant_param_t> quants;
    std::vector<int32_t> qdata;
    std::vector<tigris_op_attribute_t> attrs;
    std::vector<uint8_t> attr_data;
    std::deque<std::vector<uint8_t>> buffers;  // one per tensor; deque keeps addresses stable
    std::vector<void *> ptrs;
    tigris_plan_t plan{};
    tigris_mem_t mem{};
    char strings[1] = {0};

    uint16_t quant(float scale, int32_t zp, std::vector<int32_t> mult = {}, std::vector<int32_t> shift = {}) {
        tigris_quant_param_t q{};
        q.scale = scale;
        q.zero_point = zp;
        if (mult.empty()) {
            mult = {1 << 30};
            shift = {0};
        }
        q.num_channels = (uint16_t)mult.size();
        q.multiplier_off = (uint16_t)qdata.size();
        qdata.insert(qdata.end(), mult.begin(), mult.end());
        q.shift_off = (uint16_t)qdata.size();
        qdata.insert(qdata.end(), shift.begin(), shift.end());
        q.page = 0;
        quants.push_back(q);
        return (uint16_t)(quants.size() - 1);
    }

    uint16_t tensor(uint8_t dtype, std::vector<int32_t> shape, uint16_t q = TIGRIS_NONE16) {
        tigris_tensor_t t{};
        t.shape_off = (uint16_t)shapes.size();
        t.ndim = (uint8_t)shape.size();
        t.dtype = dtype;
        t.quant_param_idx = q;
        uint32_t n = 1;
        for (int32_t d : shape) n *= (uint32_t)d;
        t.size_bytes = n * tigris_dtype_size(dtype);
        shapes.insert(shapes.end(), shape.begin(), shape.end());
        tensors.push_back(t);
        buffers.emplace_back(t.size_bytes + 64, 0xA5);  // filled so unwritten bytes show
        return (uint16_t)(tensors.size() - 1);
    }

    uint16_t weight(const void *data, size_t bytes) {
        while (blob.size() % 16) blob.push_back(0);
        tigris_weight_entry_t w{};
        w.offset = (uint32_t)blob.size();
        w.size_bytes = (uint32_t)bytes;
        const uint8_t *p = (const uint8_t *)data;
        blob.insert(blob.end(), p, p + bytes);
        wentries.push_back(w);
        return (uint16_t)(wentries.size() - 1);
    }
    template <typename T>
    uint16_t weight(const std::vector<T> &v) {
        return weight(v.data(), v.size() * sizeof(T));
    }

    uint16_t op(uint8_t type, std::vector<uint16_t> in, std::vector<uint16_t> out) {
        tigris_op_t o{};
        o.op_type = type;
        o.num_inputs = (uint8_t)in.size();
        o.num_outputs = (uint8_t)out.size();
        o.inputs_off = (uint16_t)pool.size();
        pool.insert(pool.end(), in.begin(), in.end());
        o.outputs_off = (uint16_t)pool.size();
        pool.insert(pool.end(), out.begin(), out.end());
        o.weight_idx = TIGRIS_NONE16;
        o.bias_idx = TIGRIS_NONE16;
        o.act_min = -128;
        o.act_max = 127;
        ops.push_back(o);
        return (uint16_t)(ops.size() - 1);
    }

    // Attributes must be added in (op, type) order.
    void attr(uint16_t op_index, uint8_t type, const void *data, size_t len) {
        tigris_op_attribute_t a{};
        a.op_index = op_index;
        a.type = type;
        a.data_len = (uint8_t)len;
        while (attr_data.size() % 4) attr_data.push_back(0);
        a.data_offset = (uint32_t)attr_data.size();
        const uint8_t *p = (const uint8_t *)data;
        attr_data.insert(attr_data.end(), p, p + len);
        attrs.push_back(a);
    }

    void spatial(uint16_t op_index, int kh, int kw, int sh, int sw, int pt, int pb, int pl, int pr, int dh = 1,
                 int dw = 1) {
        tigris_spatial_t &s = ops[op_index].spatial;
        s.kernel_h = (uint8_t)kh;
        s.kernel_w = (uint8_t)kw;
        s.stride_h = (uint8_t)sh;
        s.stride_w = (uint8_t)sw;
        s.pad_top = (uint16_t)pt;
        s.pad_bottom = (uint16_t)pb;
        s.pad_left = (uint16_t)pl;
        s.pad_right = (uint16_t)pr;
        s.dilation_h = (uint16_t)dh;
        s.dilation_w = (uint16_t)dw;
        s.group = 1;
    }

    // Point every table of the plan at the vectors; call after the last edit.
    void finish() {
        header.num_tensors = (uint16_t)tensors.size();
        header.num_ops = (uint16_t)ops.size();
        header.num_weights = (uint16_t)wentries.size();
        header.num_quant_params = (uint16_t)quants.size();
        plan = tigris_plan_t{};
        plan.header = &header;
        plan.tensors = tensors.data();
        plan.ops = ops.data();
        plan.index_pool = pool.data();
        plan.shape_pool = shapes.data();
        plan.strings = strings;
        if (!wentries.empty()) {
            if (blob.empty()) blob.push_back(0);
            plan.weight_entries = wentries.data();
            plan.weight_blob = blob.data();
        }
        if (!quants.empty()) {
            plan.quant_params = quants.data();
            plan.quant_data = qdata.data();
            plan.num_quant_params = (uint16_t)quants.size();
        }
        if (!attrs.empty()) {
            plan.op_attributes = attrs.data();
            plan.op_attribute_data = attr_data.data();
            plan.num_op_attributes = (uint16_t)attrs.size();
        }
        ptrs.assign(tensors.size(), nullptr);
        for (size_t i = 0; i < tensors.size(); i++) ptrs[i] = buffers[i].data();
        mem = tigris_mem_t{};
        mem.tensor_ptrs = ptrs.data();
        mem.num_tensors = (uint16_t)ptrs.size();
    }

    int run_f32(uint16_t op_index) { return tigris_dispatch_kernel(&plan, &ops[op_index], op_index, &mem, nullptr); }
    int run_s8(uint16_t op_index) { return tigris_dispatch_kernel_s8(&plan, &ops[op_index], op_index, &mem, nullptr); }

    template <typename T>
    T *data(uint16_t t) {
        return (T *)ptrs[t];
    }
    template <typename T>
    void set(uint16_t t, const std::vector<T> &v) {
        std::memcpy(ptrs[t], v.data(), v.size() * sizeof(T));
    }
    template <typename T>
    std::vector<T> get(uint16_t t) {
        size_t n = tensors[t].size_bytes / sizeof(T);
        return std::vector<T>((T *)ptrs[t], (T *)ptrs[t] + n);
    }
};

// Deterministic test data.
inline std::vector<float> ramp_f32(size_t n, uint32_t seed) {
    std::vector<float> v(n);
    uint32_t s = seed * 2654435761u + 1u;
    for (size_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        v[i] = (float)((int32_t)(s >> 9) % 2001 - 1000) / 400.0f;  // [-2.5, 2.5]
    }
    return v;
}

inline std::vector<int8_t> ramp_s8(size_t n, uint32_t seed) {
    std::vector<int8_t> v(n);
    uint32_t s = seed * 2246822519u + 7u;
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        v[i] = (int8_t)(int32_t)((s >> 16) & 0xFF);
    }
    return v;
}

}  // namespace kt
