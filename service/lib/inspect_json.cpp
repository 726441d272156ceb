// inspect_json.cpp - the inspect report as JSON. Every key is always present
// in its object (null when it does not apply), so clients need no guessing.
#include "tigris_host/inspect.hpp"

namespace tigris::host {
namespace {

using nlohmann::json;

json limits_json(const Limits &l) {
    return json{{"tensors", l.tensors},
                {"stage_inputs", l.stage_inputs},
                {"stage_outputs", l.stage_outputs},
                {"chain_stages", l.chain_stages},
                {"spatial_ops_per_stage", l.spatial_ops_per_stage},
                {"subgraphs", l.subgraphs},
                {"subgraph_depth", l.subgraph_depth}};
}

const char *status_kind(Status::Kind k) {
    switch (k) {
    case Status::Kind::Ok: return "ok";
    case Status::Kind::Refused: return "refused";
    case Status::Kind::Io: return "io";
    }
    return "?";
}

json io_json(const IoTensor &t) {
    json q = nullptr;
    if (t.quant)
        q = json{{"scale", t.quant->scale},
                 {"zero_point", t.quant->zero_point},
                 {"channels", t.quant->channels},
                 {"multipliers", t.quant->multipliers},
                 {"shifts", t.quant->shifts}};
    return json{{"index", t.index},
                {"name", t.name},
                {"stored_dtype", t.stored_dtype},
                {"declared_dtype", t.declared_dtype},
                {"shape", t.shape},
                {"stored_bytes", t.stored_bytes},
                {"declared_bytes", t.declared_bytes},
                {"linear", t.linear},
                {"flags", t.flags},
                {"quant", q}};
}

json op_json(const OpDetail &o) {
    return json{{"index", o.index},
                {"name", o.name},
                {"type", o.type},
                {"type_name", o.type_name},
                {"inputs", o.inputs},
                {"outputs", o.outputs},
                {"weight", o.weight ? json(*o.weight) : json(nullptr)},
                {"bias", o.bias ? json(*o.bias) : json(nullptr)},
                {"fused_act", o.fused_act},
                {"act_min", o.act_min},
                {"act_max", o.act_max}};
}

json facts_json(const std::optional<TileFacts> &f) {
    if (!f) return nullptr;
    return json{{"tile_extent", f->tile_extent},
                {"num_tiles", f->num_tiles},
                {"original_extent", f->original_extent},
                {"halo", f->halo},
                {"band_axis", f->band_axis},
                {"band_kind", f->band_kind},
                {"band_mode", f->band_mode}};
}

json stage_json(const StageInfo &s) {
    json ops = json::array();
    for (const OpRef &op : s.ops)
        ops.push_back(json{{"index", op.index}, {"name", op.name}, {"type", op.type}, {"type_name", op.type_name}});

    json chain = nullptr;
    if (s.chain_head)
        chain = json{{"head", *s.chain_head},
                     {"length", s.chain_len},
                     {"tile_h", s.chain_tile_h},
                     {"line_buffered", s.line_buffered}};

    json band = nullptr;
    if (s.band) band = json{{"kind", s.band->kind}, {"extent", s.band->extent}, {"axis", s.band->axis}, {"mode", s.band->mode}};

    json tile = nullptr;
    if (s.tile) {
        const TileRecord &t = *s.tile;
        tile = json{{"index", t.index},
                    {"layout", t.layout},
                    {"tileable", t.tileable},
                    {"axis", t.axis},
                    {"flags", t.flags},
                    {"tile_height", t.tile_height},
                    {"num_tiles", t.num_tiles},
                    {"original_height", t.original_height},
                    {"halo", t.halo},
                    {"receptive_field", t.receptive_field},
                    {"tile_width", t.tile_width},
                    {"tiled_peak_bytes", t.tiled_peak_bytes},
                    {"overhead_bytes", t.overhead_bytes}};
    }

    return json{{"index", s.index},
                {"kind", stage_kind_name(s.kind)},
                {"peak_bytes", s.peak_bytes},
                {"ops", ops},
                {"inputs", s.inputs},
                {"outputs", s.outputs},
                {"subgraph", s.subgraph},
                {"chain", chain},
                {"band", band},
                {"tile", tile},
                {"stated_facts", facts_json(s.stated_facts)},
                {"derived_facts", facts_json(s.derived_facts)}};
}

json plan_json(const PlanInfo &p) {
    json inputs = json::array(), outputs = json::array(), stages = json::array();
    for (const IoTensor &t : p.inputs) inputs.push_back(io_json(t));
    for (const IoTensor &t : p.outputs) outputs.push_back(io_json(t));
    for (const StageInfo &s : p.stages) stages.push_back(stage_json(s));
    json tensors = json::array(), ops = json::array();
    for (const IoTensor &t : p.tensors) tensors.push_back(io_json(t));
    for (const OpDetail &o : p.ops) ops.push_back(op_json(o));
    const Counts &c = p.counts;
    const Memory &m = p.memory;
    return json{
        {"schema", p.schema},
        {"model_name", p.model_name},
        {"data_dtype", p.data_dtype},
        {"counts",
         {{"tensors", c.tensors},
          {"ops", c.ops},
          {"stages", c.stages},
          {"tile_plans", c.tile_plans},
          {"weights", c.weights},
          {"quant_params", c.quant_params},
          {"attributes", c.attributes},
          {"weight_blocks", c.weight_blocks},
          {"state_entries", c.state_entries},
          {"subgraphs", c.subgraphs}}},
        {"flags",
         {{"raw", p.flags.raw}, {"xip", p.flags.xip}, {"tile_v10", p.flags.tile_v10}, {"compression", p.flags.compression}}},
        {"inputs", inputs},
        {"outputs", outputs},
        {"tensors", tensors},
        {"ops", ops},
        {"stages", stages},
        {"memory",
         {{"budget", m.budget},
          {"header_peak", m.header_peak},
          {"scheduled_peak", m.scheduled_peak ? json(*m.scheduled_peak) : json(nullptr)},
          {"fast_arena_required", m.fast_arena_required},
          {"decompression_overhead", m.decompression_overhead},
          {"executor_workspace_bytes", m.executor_workspace_bytes},
          {"state_bytes", m.state_bytes},
          {"weight_bytes", m.weight_bytes}}}};
}

}  // namespace

nlohmann::json to_json(const InspectReport &r) {
    json header = nullptr;
    if (r.header)
        header = json{{"magic_ok", r.header->magic_ok}, {"version", r.header->version}, {"file_size", r.header->file_size}};
    return json{{"status",
                 {{"ok", r.status.ok()},
                  {"kind", status_kind(r.status.kind)},
                  {"code", r.status.code},
                  {"name", r.status.name},
                  {"message", r.status.message}}},
                {"file_bytes", r.file_bytes},
                {"header", header},
                {"limits", {{"required", limits_json(r.required)}, {"build", limits_json(r.build)}, {"fits", r.fits_build}}},
                {"plan", r.plan ? plan_json(*r.plan) : json(nullptr)}};
}

}  // namespace tigris::host
