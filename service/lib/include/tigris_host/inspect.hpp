// inspect.hpp - what a plan file holds and what it asks of a build, without
// running it. Shared by `tigris inspect` and the server's Inspect call.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tigris_host/status.hpp"

namespace tigris::host {

// Header fields readable from any buffer of at least 48 bytes, so that a
// refused plan still tells which revision and size it claims.
struct HeaderPeek {
    bool magic_ok = false;
    uint32_t version = 0;
    uint32_t file_size = 0;
};

struct Limits {
    uint32_t tensors = 0;
    uint32_t stage_inputs = 0;
    uint32_t stage_outputs = 0;
    uint32_t chain_stages = 0;
    uint32_t spatial_ops_per_stage = 0;
    uint32_t subgraphs = 0;
    uint32_t subgraph_depth = 0;
};

struct Counts {
    uint32_t tensors = 0;
    uint32_t ops = 0;
    uint32_t stages = 0;
    uint32_t tile_plans = 0;
    uint32_t weights = 0;
    uint32_t quant_params = 0;
    uint32_t attributes = 0;
    uint32_t weight_blocks = 0;
    uint32_t state_entries = 0;
    uint32_t subgraphs = 0;
};

struct Flags {
    uint32_t raw = 0;
    bool xip = false;
    bool tile_v10 = false;
    std::string compression;  // "none", "lz4" or "stored" (blocks kept uncompressed)
};

struct Quant {
    float scale = 0.0f;
    int32_t zero_point = 0;
    uint32_t channels = 0;
    // Q0.31 multipliers and shifts, one per channel: the effective scale of
    // the op that writes the tensor (docs/format.md P9).
    std::vector<int32_t> multipliers;
    std::vector<int32_t> shifts;
};

struct IoTensor {
    uint16_t index = 0;
    std::string name;
    std::string stored_dtype;
    std::string declared_dtype;
    std::vector<int32_t> shape;
    uint32_t stored_bytes = 0;
    uint32_t declared_bytes = 0;  // 0: no conversion to the declared dtype
    bool linear = false;          // axes in the model's own order, not channels-last
    uint8_t flags = 0;            // TIGRIS_TENSOR_* bits
    std::optional<Quant> quant;
};

// One operator record with the tensors it reads and writes.
struct OpDetail {
    uint16_t index = 0;
    std::string name;
    uint8_t type = 0;
    std::string type_name;
    std::vector<uint16_t> inputs, outputs;
    std::optional<uint16_t> weight, bias;
    uint8_t fused_act = 0;
    int8_t act_min = 0, act_max = 0;
};

struct OpRef {
    uint16_t index = 0;
    std::string name;
    uint8_t type = 0;
    std::string type_name;
};

enum class StageKind { Normal, ChainHead, ChainMember, Tiled, ControlFlow };

// A tile record in the v10 "choices" form, whatever layout the file uses.
struct TileRecord {
    uint16_t index = 0;
    std::string layout;  // "24-byte", "32-byte" or "48-byte"
    uint8_t tileable = 0;
    uint8_t axis = 0;
    uint16_t flags = 0;
    uint32_t tile_height = 0;
    uint32_t num_tiles = 0;
    uint32_t original_height = 0;
    uint16_t halo = 0;
    uint16_t receptive_field = 0;
    uint16_t tile_width = 0;
    uint32_t tiled_peak_bytes = 0;
    uint32_t overhead_bytes = 0;
};

struct TileFacts {
    uint32_t tile_extent = 0;
    uint32_t num_tiles = 0;
    uint32_t original_extent = 0;
    uint16_t halo = 0;
    uint8_t band_axis = 0;
    std::string band_kind;
    uint8_t band_mode = 0;
};

struct Band {
    std::string kind;  // TIGRIS_BAND_KIND_* without the prefix
    uint32_t extent = 0;
    uint8_t axis = 0;
    uint8_t mode = 0;
};

struct StageInfo {
    uint16_t index = 0;
    StageKind kind = StageKind::Normal;
    uint32_t peak_bytes = 0;
    std::vector<OpRef> ops;
    uint32_t inputs = 0;
    uint32_t outputs = 0;
    uint32_t subgraph = 0;  // graph that owns the stage (0 = main)
    // Chains (head and members)
    std::optional<uint16_t> chain_head;
    uint16_t chain_len = 0;
    uint16_t chain_tile_h = 0;
    bool line_buffered = false;
    // Standalone stages: how the executor would band it. Absent for chain
    // members and control flow, which the core does not classify.
    std::optional<Band> band;
    std::optional<TileRecord> tile;
    std::optional<TileFacts> stated_facts;   // schema 11 record
    std::optional<TileFacts> derived_facts;  // tigris_stage_tile_facts()
};

struct Memory {
    uint32_t budget = 0;
    uint32_t header_peak = 0;
    std::optional<uint32_t> scheduled_peak;  // schema 11+
    uint32_t fast_arena_required = 0;
    uint32_t decompression_overhead = 0;
    uint64_t executor_workspace_bytes = 0;
    uint32_t state_bytes = 0;
    uint64_t weight_bytes = 0;  // sum of every constant's uncompressed size
};

struct PlanInfo {
    uint32_t schema = 0;
    std::string model_name;
    std::string data_dtype;  // dispatch dtype: "float32" or "int8"
    Counts counts;
    Flags flags;
    std::vector<IoTensor> inputs;
    std::vector<IoTensor> outputs;
    std::vector<IoTensor> tensors;  // every tensor record, in index order
    std::vector<OpDetail> ops;      // every operator record, in index order
    std::vector<StageInfo> stages;
    Memory memory;
};

struct InspectReport {
    Status status;
    uint64_t file_bytes = 0;
    std::optional<HeaderPeek> header;
    // What the plan needs (filled up to the first failing limit when the
    // loader refuses it for limits) and what this build allows.
    Limits required;
    Limits build;
    bool fits_build = false;
    std::optional<PlanInfo> plan;  // only when the loader accepted the plan
};

// Loads a copy of the bytes (16-aligned, so a caller's buffer may be any
// address) and reports on it. Never throws for hostile input.
InspectReport inspect(std::span<const uint8_t> bytes);

// Reads a plan file and inspects it; an unreadable file gives an io status.
InspectReport inspect_file(const std::string &path);

nlohmann::json to_json(const InspectReport &report);

// Short aligned text for a terminal.
std::string to_text(const InspectReport &report);

const char *stage_kind_name(StageKind kind);

}  // namespace tigris::host
