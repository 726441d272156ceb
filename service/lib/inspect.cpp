// inspect.cpp - gather what a loaded plan states and what the core derives
// from it. Everything here reads only tables the loader has validated.
#include "tigris_host/inspect.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_iface.h"
#include "tigris_loader.h"
#include "tigris_host/names.hpp"

namespace tigris::host {
namespace {

Limits to_limits(const tigris_plan_limits_t &l) {
    return Limits{l.tensors, l.stage_inputs, l.stage_outputs, l.chain_stages,
                  l.spatial_ops_per_stage, l.subgraphs, l.subgraph_depth};
}

bool within(const Limits &need, const Limits &have) {
    return need.tensors <= have.tensors && need.stage_inputs <= have.stage_inputs &&
           need.stage_outputs <= have.stage_outputs && need.chain_stages <= have.chain_stages &&
           need.spatial_ops_per_stage <= have.spatial_ops_per_stage && need.subgraphs <= have.subgraphs &&
           need.subgraph_depth <= have.subgraph_depth;
}

Status refused(int code) {
    const char *text = tigris_error_str(static_cast<tigris_error_t>(code));
    return Status{Status::Kind::Refused, code, error_name(code), text ? text : ""};
}

#if !TIGRIS_HOST_CORE_IFACE
// Until the core's tigris_iface_bytes exists: the rule of docs/format.md P4.5,
// (size_bytes / stored element size) x declared element size, and 0 for a
// tensor off the boundary or a declared dtype with no conversion.
uint32_t own_iface_bytes(const tigris_plan_t *plan, uint16_t idx) {
    const tigris_tensor_t &t = plan->tensors[idx];
    if (!(t.flags & (TIGRIS_TENSOR_MODEL_INPUT | TIGRIS_TENSOR_MODEL_OUTPUT))) return 0;
    const uint8_t declared = tigris_tensor_declared_dtype(&t);
    const uint32_t stored_size = tigris_dtype_size(t.dtype);
    const uint32_t declared_size = tigris_dtype_size(declared);
    if (stored_size == 0 || declared_size == 0) return 0;
    if (declared != t.dtype) {
        const bool int8_pair = t.dtype == TIGRIS_DTYPE_INT8 && t.quant_param_idx != TIGRIS_NONE16 &&
                               (declared == TIGRIS_DTYPE_FLOAT32 || declared == TIGRIS_DTYPE_UINT8);
        const bool wide_pair = t.dtype == TIGRIS_DTYPE_INT32 && declared == TIGRIS_DTYPE_INT64;
        if (!int8_pair && !wide_pair) return 0;
    }
    const uint64_t bytes = static_cast<uint64_t>(t.size_bytes / stored_size) * declared_size;
    return bytes > std::numeric_limits<uint32_t>::max() ? 0 : static_cast<uint32_t>(bytes);
}
#endif

uint32_t declared_bytes(const tigris_plan_t *plan, uint16_t idx) {
#if TIGRIS_HOST_CORE_IFACE
    return tigris_iface_bytes(plan, idx);
#else
    return own_iface_bytes(plan, idx);
#endif
}

IoTensor io_tensor(const tigris_plan_t *plan, uint16_t idx) {
    const tigris_tensor_t *t = &plan->tensors[idx];
    IoTensor io;
    io.index = idx;
    io.name = tigris_tensor_name(plan, t);
    io.stored_dtype = dtype_name(t->dtype);
    io.declared_dtype = dtype_name(tigris_tensor_declared_dtype(t));
    const int32_t *dims = tigris_tensor_shape(plan, t);
    io.shape.assign(dims, dims + t->ndim);
    io.stored_bytes = t->size_bytes;
    io.declared_bytes = declared_bytes(plan, idx);
    io.linear = (t->flags & TIGRIS_TENSOR_LINEAR) != 0;
    io.flags = t->flags;
    if (const tigris_quant_param_t *q = tigris_tensor_quant(plan, t)) {
        Quant qq{q->scale, q->zero_point, q->num_channels, {}, {}};
        const int32_t *m = tigris_quant_multipliers(plan, q), *sh = tigris_quant_shifts(plan, q);
        for (uint32_t c = 0; c < q->num_channels; ++c) {
            qq.multipliers.push_back(m[c]);
            qq.shifts.push_back(sh[c]);
        }
        io.quant = qq;
    }
    return io;
}

OpDetail op_detail(const tigris_plan_t *plan, uint16_t idx) {
    const tigris_op_t *op = &plan->ops[idx];
    OpDetail d;
    d.index = idx;
    d.name = tigris_op_name(plan, op);
    d.type = op->op_type;
    d.type_name = op_type_name(op->op_type);
    const uint16_t *in = tigris_op_inputs(plan, op), *out = tigris_op_outputs(plan, op);
    d.inputs.assign(in, in + op->num_inputs);
    d.outputs.assign(out, out + op->num_outputs);
    if (op->weight_idx != TIGRIS_NONE16) d.weight = op->weight_idx;
    if (op->bias_idx != TIGRIS_NONE16) d.bias = op->bias_idx;
    d.fused_act = op->fused_act;
    d.act_min = op->act_min;
    d.act_max = op->act_max;
    return d;
}

TileFacts to_facts(const tigris_tile_facts_t &f) {
    TileFacts out;
    out.tile_extent = f.tile_extent;
    out.num_tiles = f.num_tiles;
    out.original_extent = f.original_extent;
    out.halo = f.halo;
    out.band_axis = f.band_axis;
    out.band_kind = band_kind_name(TIGRIS_TILE_BAND_KIND(f.band));
    out.band_mode = TIGRIS_TILE_BAND_MODE(f.band);
    return out;
}

std::string tile_layout(const tigris_plan_t *plan) {
    if (plan->tile_plans_v11) return "48-byte";
    if (plan->tile_plans_v10) return "32-byte";
    return "24-byte";
}

bool is_control_flow(const tigris_plan_t *plan, const tigris_stage_t *stage) {
    if (!plan->subgraphs || stage->ops_count != 1) return false;
    const uint8_t type = plan->ops[tigris_stage_ops(plan, stage)[0]].op_type;
    return type == TIGRIS_OP_IF || type == TIGRIS_OP_WHILE;
}

StageInfo stage_info(const tigris_plan_t *plan, uint16_t s) {
    const tigris_stage_t *stage = &plan->stages[s];
    StageInfo info;
    info.index = s;
    info.peak_bytes = stage->peak_bytes;
    info.inputs = stage->inputs_count;
    info.outputs = stage->outputs_count;

    const uint16_t *op_list = tigris_stage_ops(plan, stage);
    for (uint16_t i = 0; i < stage->ops_count; ++i) {
        const tigris_op_t *op = &plan->ops[op_list[i]];
        info.ops.push_back(OpRef{op_list[i], tigris_op_name(plan, op), op->op_type, op_type_name(op->op_type)});
    }

    if (plan->subgraphs) {
        for (uint16_t g = 0; g < plan->num_subgraphs; ++g) {
            const tigris_subgraph_t &sg = plan->subgraphs[g];
            if (s >= sg.first_stage && s - sg.first_stage < sg.num_stages) info.subgraph = g;
        }
    }

    const bool chained = stage->chain_len >= 2;
    if (is_control_flow(plan, stage)) {
        info.kind = StageKind::ControlFlow;
    } else if (chained) {
        info.kind = stage->chain_id == s ? StageKind::ChainHead : StageKind::ChainMember;
        info.chain_head = stage->chain_id;
        info.chain_len = stage->chain_len;
        info.chain_tile_h = stage->chain_tile_h;
        info.line_buffered = (stage->_reserved1 & TIGRIS_STAGE_LINE_BUFFERED) != 0;
    }

    if (stage->tile_plan_idx != TIGRIS_NONE16) {
        const tigris_tile_plan_v10_t c = tigris_stage_tiles(plan, stage);
        TileRecord rec;
        rec.index = stage->tile_plan_idx;
        rec.layout = tile_layout(plan);
        rec.tileable = c.tileable;
        rec.axis = c.axis;
        rec.flags = c.flags;
        rec.tile_height = c.tile_height;
        rec.num_tiles = c.num_tiles;
        rec.original_height = c.original_height;
        rec.halo = c.halo;
        rec.receptive_field = c.receptive_field;
        rec.tile_width = c.tile_width;
        rec.tiled_peak_bytes = c.tiled_peak_bytes;
        rec.overhead_bytes = c.overhead_bytes;
        info.tile = rec;
        if (plan->tile_plans_v11) info.stated_facts = to_facts(plan->tile_plans_v11[stage->tile_plan_idx].facts);
        tigris_tile_facts_t derived;
        std::memset(&derived, 0, sizeof derived);
        if (tigris_stage_tile_facts(plan, stage, &derived) == 1) info.derived_facts = to_facts(derived);
        if (info.kind == StageKind::Normal && c.tileable) info.kind = StageKind::Tiled;
    }

    if (info.kind == StageKind::Normal || info.kind == StageKind::Tiled) {
        tigris_stage_band_t b;
        std::memset(&b, 0, sizeof b);
        const tigris_band_kind_t kind = tigris_stage_band_kind(plan, stage, &b);
        info.band = Band{band_kind_name(static_cast<uint8_t>(kind)), b.extent, b.axis, b.mode};
    }
    return info;
}

PlanInfo plan_info(const tigris_plan_t *plan) {
    const tigris_file_header_t *h = plan->header;
    PlanInfo p;
    p.schema = h->version;
    p.model_name = tigris_model_name(plan);
    p.data_dtype = dtype_name(tigris_plan_data_dtype(plan));

    p.counts.tensors = h->num_tensors;
    p.counts.ops = h->num_ops;
    p.counts.stages = h->num_stages;
    p.counts.tile_plans = h->num_tile_plans;
    p.counts.weights = h->num_weights;
    p.counts.quant_params = plan->num_quant_params;
    p.counts.attributes = plan->num_op_attributes;
    p.counts.weight_blocks = plan->num_weight_blocks;
    p.counts.state_entries = plan->num_state;
    p.counts.subgraphs = plan->num_subgraphs;

    p.flags.raw = h->flags;
    p.flags.xip = (h->flags & TIGRIS_FLAG_XIP) != 0;
    p.flags.tile_v10 = (h->flags & TIGRIS_FLAG_TILE_V10) != 0;
    if (plan->num_weight_blocks == 0)
        p.flags.compression = "none";
    else if (plan->weight_compression == TIGRIS_COMPRESSION_LZ4)
        p.flags.compression = "lz4";
    else if (plan->weight_compression == TIGRIS_COMPRESSION_NONE)
        p.flags.compression = "stored";
    else
        p.flags.compression = "compression(" + std::to_string(plan->weight_compression) + ")";

    for (uint8_t i = 0; i < h->num_model_inputs; ++i) p.inputs.push_back(io_tensor(plan, plan->model_inputs[i]));
    for (uint8_t i = 0; i < h->num_model_outputs; ++i) p.outputs.push_back(io_tensor(plan, plan->model_outputs[i]));
    for (uint16_t i = 0; i < h->num_tensors; ++i) p.tensors.push_back(io_tensor(plan, i));
    for (uint16_t i = 0; i < h->num_ops; ++i) p.ops.push_back(op_detail(plan, i));
    for (uint16_t s = 0; s < h->num_stages; ++s) p.stages.push_back(stage_info(plan, s));

    p.memory.budget = h->budget;
    p.memory.header_peak = h->peak;
    if (h->version >= 11) p.memory.scheduled_peak = plan->scheduled_peak;
    p.memory.fast_arena_required = tigris_fast_arena_required(plan);
    p.memory.decompression_overhead = tigris_weight_decompression_overhead(plan);
    p.memory.executor_workspace_bytes = tigris_executor_workspace_required(plan);
    p.memory.state_bytes = plan->state_bytes;
    if (plan->weight_entries)
        for (uint16_t w = 0; w < h->num_weights; ++w) p.memory.weight_bytes += plan->weight_entries[w].size_bytes;
    return p;
}

}  // namespace

const char *stage_kind_name(StageKind kind) {
    switch (kind) {
    case StageKind::Normal: return "normal";
    case StageKind::ChainHead: return "chain_head";
    case StageKind::ChainMember: return "chain_member";
    case StageKind::Tiled: return "tiled";
    case StageKind::ControlFlow: return "control_flow";
    }
    return "?";
}

InspectReport inspect(std::span<const uint8_t> bytes) {
    InspectReport r;
    r.file_bytes = bytes.size();

    tigris_plan_limits_t build;
    std::memset(&build, 0, sizeof build);
    tigris_build_limits(&build);
    r.build = to_limits(build);

    if (bytes.size() >= TIGRIS_HEADER_SIZE) {
        HeaderPeek peek;
        uint32_t magic = 0;
        std::memcpy(&magic, bytes.data(), 4);
        peek.magic_ok = magic == TIGRIS_MAGIC;
        std::memcpy(&peek.version, bytes.data() + 4, 4);
        std::memcpy(&peek.file_size, bytes.data() + 8, 4);
        r.header = peek;
    }

    // A file_size field is 32 bits: nothing longer can be a plan.
    if (bytes.size() > std::numeric_limits<uint32_t>::max()) {
        r.status = refused(TIGRIS_ERR_BAD_SIZE);
        return r;
    }

    // The plan stays a view into this copy, which new[] aligns for every
    // table the loader hands out (shape pool i32, quant data, weights).
    std::vector<uint8_t> copy(bytes.begin(), bytes.end());
    tigris_plan_t plan;
    std::memset(&plan, 0, sizeof plan);
    tigris_plan_limits_t need;
    std::memset(&need, 0, sizeof need);
    const uint8_t *data = copy.empty() ? reinterpret_cast<const uint8_t *>("") : copy.data();
    const tigris_error_t err = tigris_plan_load_ex(data, static_cast<uint32_t>(copy.size()), &plan, &need);
    r.required = to_limits(need);
    r.fits_build = within(r.required, r.build);
    if (err != TIGRIS_OK) {
        r.status = refused(err);
        return r;
    }
    r.status = Status::success();
    r.plan = plan_info(&plan);
    return r;
}

InspectReport inspect_file(const std::string &path) {
    namespace fs = std::filesystem;
    InspectReport r;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) {
        r.status = Status{Status::Kind::Io, ENOENT, "io", "cannot open '" + path + "': no such file"};
        return r;
    }
    if (fs::is_directory(st)) {
        r.status = Status{Status::Kind::Io, EISDIR, "io", "cannot read '" + path + "': it is a directory"};
        return r;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int e = errno;
        r.status = Status{Status::Kind::Io, e, "io", "cannot open '" + path + "': " + std::strerror(e)};
        return r;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        r.status = Status{Status::Kind::Io, EIO, "io", "cannot read '" + path + "'"};
        return r;
    }
    return inspect(bytes);
}

}  // namespace tigris::host
