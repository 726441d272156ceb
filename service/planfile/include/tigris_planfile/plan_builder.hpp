// plan_builder.hpp - writes `.tgrs` plans of schema 4..11 from plain structs.
//
// One serialiser serves every writer of plans: `tigris import`, the example
// plan the build ships, and the tests (tests/support/plan_builder.h adds the
// loading helpers they need).
//
// Tests describe a plan as editable vectors of records (indices are plain
// integers into those vectors), call build(), and get the bytes the compiler's
// writer would emit (docs/format.md P1-P12, F1-F4) plus a
// Layout telling where every table landed, so one exact byte can be broken
// afterwards. The builder never validates: it serialises whatever it is given,
// which is what lets a test describe an invalid plan just as easily.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tigris.h"
#include "tigris_loader.h"

namespace tigris::planfile {

constexpr uint16_t kNone16 = TIGRIS_NONE16;

struct Tensor {
    std::string name;
    uint8_t dtype = TIGRIS_DTYPE_FLOAT32;
    std::vector<int32_t> shape;
    uint8_t flags = 0;
    int quant = -1;  // index into PlanBuilder::quant, -1 = none
    uint8_t iface_dtype = 0;
    int64_t size_override = -1;  // >= 0: written instead of product(shape) * element size
};

struct Op {
    std::string name;
    uint8_t type = TIGRIS_OP_RELU;
    std::vector<uint16_t> inputs;
    std::vector<uint16_t> outputs;
    tigris_spatial_t spatial{};
    int weight = -1;  // index into PlanBuilder::weights, -1 = NONE16
    int bias = -1;
    uint8_t fused_act = TIGRIS_ACT_NONE;
    int8_t act_min = -128;
    int8_t act_max = 127;
    int stage_byte = -1;  // -1: derived from the stage table (exact index for v4, low byte after)
};

struct Stage {
    std::vector<uint16_t> ops;
    std::vector<uint16_t> inputs;
    std::vector<uint16_t> outputs;
    int tile = -1;  // index into PlanBuilder::tiles, -1 = NONE16
    uint16_t chain_id = kNone16;
    uint16_t chain_len = 0;
    uint16_t chain_tile_h = 0;
    uint16_t flags = 0;  // TIGRIS_STAGE_LINE_BUFFERED on a chain head
    uint32_t peak = 0;
};

// One record in the richest form; build() narrows it to the revision's layout
// (24 bytes for v4-9 and plain v10, 32 with TIGRIS_FLAG_TILE_V10, 48 for v11).
struct TilePlan {
    tigris_tile_plan_v10_t choices{};
    tigris_tile_facts_t facts{};
};

struct Weight {
    std::string name;
    std::vector<uint8_t> bytes;
};

struct QuantParam {
    float scale = 1.0f;
    int32_t zero_point = 0;
    // Empty: one channel holding the scale's own Q0.31 multiplier and shift.
    std::vector<int32_t> multipliers;
    std::vector<int32_t> shifts;
};

struct Attribute {
    uint16_t op = 0;
    uint8_t kind = 0;
    std::vector<uint8_t> bytes;
};

struct StateEntry {
    uint16_t input = 0;
    uint16_t output = kNone16;
    std::vector<uint8_t> initial;  // empty: zeros of the input tensor's byte size
};

struct Subgraph {
    uint16_t first_stage = 0;
    uint16_t num_stages = 0;
    std::vector<uint16_t> inputs;
    std::vector<uint16_t> outputs;
};

enum class Compression {
    None,          // weights in the blob of section 8
    Lz4Blocks,     // one raw LZ4 block per stage in section 10 (compression 1)
    StoredBlocks,  // one uncompressed block per stage in section 10 (compression 0)
};

// Whether this build can write Lz4Blocks: the host builds link liblz4; the
// WebAssembly build of the viewer's compiler has no liblz4 and refuses them
// (std::runtime_error), so its reports leave out the LZ4 plan size.
bool lz4_available();

// File offsets of everything build() wrote (0 = not written).
struct Layout {
    uint32_t file_size = 0;
    uint32_t dir_off = 0;
    std::vector<tigris_section_entry_t> directory;  // as written, without the sentinel
    std::map<uint32_t, uint32_t> section;           // section id -> file offset
    std::map<std::string, uint32_t> strings;        // string -> offset inside section 7
    uint32_t tile_record_size = 0;
    uint32_t model_io_off = 0;  // element offset in the index pool

    uint32_t tensors = 0, ops = 0, stages = 0, tile_plans = 0;
    uint32_t index_pool = 0, shape_pool = 0, string_pool = 0;
    uint32_t weight_entries = 0, weight_blob = 0;
    uint32_t quant_header = 0, quant_records = 0, quant_data = 0;
    uint32_t blocks_header = 0, block_records = 0, block_data = 0;
    uint32_t attr_header = 0, attr_records = 0, attr_data = 0;
    uint32_t state_header = 0, state_entries = 0, state_data = 0;
    uint32_t subgraph_header = 0, subgraph_records = 0;
    uint32_t memory = 0;

    uint32_t tensor(size_t i) const { return tensors + 16u * (uint32_t)i; }
    uint32_t op(size_t i) const { return ops + 38u * (uint32_t)i; }
    uint32_t stage(size_t i) const { return stages + 28u * (uint32_t)i; }
    uint32_t tile(size_t i) const { return tile_plans + tile_record_size * (uint32_t)i; }
    uint32_t weight_entry(size_t i) const { return weight_entries + 12u * (uint32_t)i; }
    uint32_t quant_record(size_t i) const { return quant_records + 16u * (uint32_t)i; }
    uint32_t block_record(size_t i) const { return block_records + 20u * (uint32_t)i; }
    uint32_t attr_record(size_t i) const { return attr_records + 8u * (uint32_t)i; }
    uint32_t state_entry(size_t i) const { return state_entries + 16u * (uint32_t)i; }
    uint32_t subgraph_record(size_t i) const { return subgraph_records + 12u * (uint32_t)i; }
    uint32_t index_elem(size_t i) const { return index_pool + 2u * (uint32_t)i; }
    uint32_t shape_elem(size_t i) const { return shape_pool + 4u * (uint32_t)i; }
    // Directory slot of a section id (file offset of its 8-byte entry), 0 if absent.
    uint32_t dir_entry(uint32_t id) const;
};

class PlanBuilder {
public:
    explicit PlanBuilder(uint32_t rev = 9) : revision(rev) {}

    // ---- The plan, editable directly ----
    uint32_t revision;
    std::string model_name = "model";
    std::vector<Tensor> tensors;
    std::vector<Op> ops;
    std::vector<Stage> stages;
    std::vector<TilePlan> tiles;
    std::vector<Weight> weights;
    std::vector<QuantParam> quant;
    std::vector<Attribute> attributes;
    std::vector<StateEntry> state;
    std::vector<Subgraph> subgraphs;
    std::vector<uint16_t> model_inputs;
    std::vector<uint16_t> model_outputs;
    bool auto_model_io = true;  // both lists empty: derive them from the tensor flags
    uint32_t budget = 0;         // 0: every tensor, each rounded to 32 bytes
    uint32_t peak = 0;           // 0: same as budget
    uint32_t scheduled_peak = 0; // 0: largest stage/chain working set (see .cpp)
    uint32_t flags = 0;
    Compression compression = Compression::None;

    // ---- Options for deliberately odd files ----
    std::set<uint32_t> drop_sections;  // ids neither written nor listed
    bool force_memory_section = false; // write section 14 below revision 11 too
    bool sort_attributes = true;       // false: keep the vector's order
    uint16_t quant_page_count_override = 0;  // != 0: written instead of the real count
    // Called with the directory (true offsets, no sentinel) and the file's end
    // offset before the directory is written; may reorder, duplicate, add or
    // rewrite entries. Bodies are placed after a directory of the edited length.
    std::function<void(std::vector<tigris_section_entry_t> &, uint32_t file_end)> edit_directory;
    // Called with the finished header just before it is written.
    std::function<void(tigris_file_header_t &)> edit_header;

    // ---- Convenience ----
    uint16_t add_tensor(const std::string &name, uint8_t dtype, std::vector<int32_t> shape, uint8_t flags = 0,
                        int quant_idx = -1);
    uint16_t add_op(uint8_t type, std::vector<uint16_t> inputs, std::vector<uint16_t> outputs,
                    const std::string &name = "");
    uint16_t add_stage(std::vector<uint16_t> ops, std::vector<uint16_t> inputs, std::vector<uint16_t> outputs);
    uint16_t add_tile(const TilePlan &t);
    uint16_t add_weight(const std::string &name, std::vector<uint8_t> bytes);
    uint16_t add_float_weight(const std::string &name, const std::vector<float> &values);
    uint16_t add_i32_weight(const std::string &name, const std::vector<int32_t> &values);
    uint16_t add_quant(float scale, int32_t zero_point, std::vector<int32_t> multipliers = {},
                       std::vector<int32_t> shifts = {});
    uint16_t add_attribute(uint16_t op, uint8_t kind, std::vector<uint8_t> bytes);
    uint16_t add_state(uint16_t input, uint16_t output = kNone16, std::vector<uint8_t> initial = {});
    uint16_t add_subgraph(uint16_t first_stage, uint16_t num_stages, std::vector<uint16_t> inputs,
                          std::vector<uint16_t> outputs);

    static tigris_spatial_t spatial(uint8_t kh, uint8_t kw, uint8_t sh, uint8_t sw, uint16_t pad_top,
                                    uint16_t pad_bottom, uint16_t pad_left, uint16_t pad_right,
                                    uint16_t dil_h = 1, uint16_t dil_w = 1, uint16_t group = 1);
    // Square kernel, equal stride and padding on every side, dilation 1.
    static tigris_spatial_t conv_spatial(uint8_t k, uint8_t stride, uint16_t pad, uint16_t group = 1);
    // A height-stripe record: tile_height rows of original_height, halo rows of overlap.
    static TilePlan stripe_tile(uint32_t tile_height, uint32_t original_height, uint16_t halo,
                                uint16_t receptive_field);
    // Q0.31 multiplier and exponent of a positive real scale (docs/format.md P9).
    static void quantize_multiplier(double real, int32_t *multiplier, int32_t *shift);

    // Byte count of a tensor as build() writes it.
    uint32_t tensor_bytes(size_t i) const;

    std::vector<uint8_t> build();
    const Layout &layout() const { return layout_; }

    // ---- Ready-made valid plans ----
    // x[1,4,4,2] f32 -> Relu -> y, one stage.
    static PlanBuilder minimal_float(uint32_t revision = 9);
    // x[1,4,4,2] f32 -> Conv 3x3 pad 1 (weight OHWI [3,3,3,2], bias [3]) -> y[1,4,4,3].
    static PlanBuilder float_conv(uint32_t revision = 9);
    // The same conv in int8 with per-tensor input and per-channel output requantization.
    static PlanBuilder int8_conv(uint32_t revision = 9);
    // x[1,8,8,2] -> Conv 3x3 -> t -> Conv 3x3 -> y, stages 0..1 chained, chain_tile_h 2.
    static PlanBuilder conv_chain(uint32_t revision = 9);
    // x[1,8,8,2] -> Conv 3x3 pad 1 -> y[1,8,8,3] as a height stripe, 4 tiles of 2 rows.
    static PlanBuilder tiled_stripe(uint32_t revision = 9);
    // float_conv with its weights in a per-stage block (LZ4 or stored).
    static PlanBuilder compressed_conv(uint32_t revision = 9, Compression c = Compression::Lz4Blocks);
    // v10: y = x + s where s is a state variable with initial value {1,2,3,4}.
    static PlanBuilder state_add(uint32_t revision = 10);
    // v10: y = If(cond, x) with then = Relu, else = Relu6 (graphs 1 and 2).
    static PlanBuilder if_subgraphs(uint32_t revision = 10);

private:
    Layout layout_;
};

// Little-endian access to built bytes, for tests that corrupt a plan.
void put_u8(std::vector<uint8_t> &b, size_t off, uint8_t v);
void put_u16(std::vector<uint8_t> &b, size_t off, uint16_t v);
void put_u32(std::vector<uint8_t> &b, size_t off, uint32_t v);
void put_f32(std::vector<uint8_t> &b, size_t off, float v);
uint16_t get_u16(const std::vector<uint8_t> &b, size_t off);
uint32_t get_u32(const std::vector<uint8_t> &b, size_t off);

// Little-endian payloads for attributes.
std::vector<uint8_t> le_i32(const std::vector<int32_t> &v);
std::vector<uint8_t> le_u16(const std::vector<uint16_t> &v);
std::vector<uint8_t> le_f32(const std::vector<float> &v);

}  // namespace tigris::planfile
