// test_mem_plan.h - a hand-built tigris_plan_t for memory-manager, trace and
// interface tests, so they need no loader: only the fields those parts read.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

extern "C" {
#include "tigris.h"
#include "tigris_mem.h"
#include "../../core/src/mem_internal.h"
}

namespace tigris_mem_test {

struct MiniPlan {
    tigris_file_header_t header{};
    std::vector<tigris_tensor_t> tensors;
    std::vector<int32_t> shapes;
    std::vector<uint16_t> pool;  // index pool
    std::vector<tigris_stage_t> stages;
    std::vector<tigris_op_t> ops;
    std::vector<tigris_quant_param_t> quant;
    std::vector<tigris_weight_block_t> blocks;
    std::vector<uint16_t> inputs, outputs;
    tigris_plan_t plan{};

    MiniPlan() { header.version = 11; }

    uint16_t tensor(uint8_t dtype, std::vector<int32_t> shape, uint8_t flags = 0, uint16_t qp = TIGRIS_NONE16,
                    uint8_t iface = 0) {
        tigris_tensor_t t{};
        uint64_t n = 1;
        for (int32_t d : shape) n *= (uint64_t)d;
        t.size_bytes = (uint32_t)(n * tigris_dtype_size(dtype));
        t.shape_off = (uint16_t)shapes.size();
        t.ndim = (uint8_t)shape.size();
        t.dtype = dtype;
        t.flags = flags;
        t.quant_param_idx = qp;
        t.iface_dtype = iface;
        shapes.insert(shapes.end(), shape.begin(), shape.end());
        tensors.push_back(t);
        uint16_t idx = (uint16_t)(tensors.size() - 1);
        if (flags & TIGRIS_TENSOR_MODEL_INPUT) inputs.push_back(idx);
        if (flags & TIGRIS_TENSOR_MODEL_OUTPUT) outputs.push_back(idx);
        return idx;
    }

    uint16_t quant_param(float scale, int32_t zp) {
        tigris_quant_param_t q{};
        q.scale = scale;
        q.zero_point = zp;
        q.num_channels = 1;
        quant.push_back(q);
        return (uint16_t)(quant.size() - 1);
    }

    // One stage listing the given ops, inputs and outputs.
    void stage(std::vector<uint16_t> op_list, std::vector<uint16_t> in, std::vector<uint16_t> out) {
        tigris_stage_t s{};
        s.ops_off = (uint16_t)pool.size();
        s.ops_count = (uint16_t)op_list.size();
        pool.insert(pool.end(), op_list.begin(), op_list.end());
        s.inputs_off = (uint16_t)pool.size();
        s.inputs_count = (uint16_t)in.size();
        pool.insert(pool.end(), in.begin(), in.end());
        s.outputs_off = (uint16_t)pool.size();
        s.outputs_count = (uint16_t)out.size();
        pool.insert(pool.end(), out.begin(), out.end());
        s.tile_plan_idx = TIGRIS_NONE16;
        s.chain_id = (uint16_t)stages.size();
        s.chain_len = 1;
        stages.push_back(s);
    }

    uint16_t op(uint8_t type, uint8_t stage_idx) {
        tigris_op_t o{};
        o.op_type = type;
        o.stage = stage_idx;
        o.weight_idx = TIGRIS_NONE16;
        o.bias_idx = TIGRIS_NONE16;
        ops.push_back(o);
        return (uint16_t)(ops.size() - 1);
    }

    // Pointers are taken only here, after every vector has its final size.
    const tigris_plan_t *get() {
        header.num_tensors = (uint16_t)tensors.size();
        header.num_ops = (uint16_t)ops.size();
        header.num_stages = (uint16_t)stages.size();
        header.num_model_inputs = (uint8_t)inputs.size();
        header.num_model_outputs = (uint8_t)outputs.size();
        header.num_quant_params = (uint16_t)quant.size();
        plan = tigris_plan_t{};
        plan.header = &header;
        plan.tensors = tensors.data();
        plan.ops = ops.empty() ? nullptr : ops.data();
        plan.stages = stages.empty() ? nullptr : stages.data();
        if (pool.empty()) pool.push_back(0);
        plan.index_pool = pool.data();
        if (shapes.empty()) shapes.push_back(1);
        plan.shape_pool = shapes.data();
        plan.strings = "";
        plan.quant_params = quant.empty() ? nullptr : quant.data();
        plan.num_quant_params = (uint16_t)quant.size();
        plan.weight_blocks = blocks.empty() ? nullptr : blocks.data();
        plan.num_weight_blocks = (uint16_t)blocks.size();
        plan.weight_compression = blocks.empty() ? 0 : TIGRIS_COMPRESSION_LZ4;
        plan.model_inputs = inputs.empty() ? nullptr : inputs.data();
        plan.model_outputs = outputs.empty() ? nullptr : outputs.data();
        return &plan;
    }
};

// Every byte of the memory manager, for "nothing changed" checks (bytes, not
// a struct copy, which need not carry the padding along).
using MemBytes = std::vector<uint8_t>;
inline MemBytes bytes_of(const tigris_mem_t &m) {
    const uint8_t *p = reinterpret_cast<const uint8_t *>(&m);
    return MemBytes(p, p + sizeof m);
}

constexpr uint32_t kAlign = TIGRIS_TENSOR_ALIGN;

}  // namespace tigris_mem_test
