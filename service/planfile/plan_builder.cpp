#include "tigris_planfile/plan_builder.hpp"

#ifndef TIGRIS_PLANFILE_LZ4
#define TIGRIS_PLANFILE_LZ4 1
#endif
#if TIGRIS_PLANFILE_LZ4
#include <lz4.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <tuple>

namespace tigris::planfile {

bool lz4_available() { return TIGRIS_PLANFILE_LZ4 != 0; }

namespace {

uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

template <typename T>
void append(std::vector<uint8_t> &out, const T &v) {
    const auto *p = reinterpret_cast<const uint8_t *>(&v);
    out.insert(out.end(), p, p + sizeof(T));
}

void append_bytes(std::vector<uint8_t> &out, const std::vector<uint8_t> &v) {
    out.insert(out.end(), v.begin(), v.end());
}

void pad_to(std::vector<uint8_t> &out, size_t size) {
    if (out.size() < size) out.resize(size, 0);
}

uint16_t idx16(int i) { return i < 0 ? kNone16 : (uint16_t)i; }

// Strings deduplicated in first-use order, as the writer does.
struct StringPool {
    std::vector<uint8_t> bytes;
    std::map<std::string, uint32_t> offsets;
    uint32_t intern(const std::string &s) {
        auto it = offsets.find(s);
        if (it != offsets.end()) return it->second;
        uint32_t off = (uint32_t)bytes.size();
        bytes.insert(bytes.end(), s.begin(), s.end());
        bytes.push_back(0);
        offsets.emplace(s, off);
        return off;
    }
};

struct IndexPool {
    std::vector<uint16_t> v;
    uint16_t add(const std::vector<uint16_t> &list) {
        uint16_t off = (uint16_t)v.size();
        v.insert(v.end(), list.begin(), list.end());
        return off;
    }
};

}  // namespace

uint32_t Layout::dir_entry(uint32_t id) const {
    for (size_t i = 0; i < directory.size(); ++i)
        if (directory[i].type == id) return dir_off + 8u * (uint32_t)i;
    return 0;
}

// ---------------------------------------------------------------------------
// Convenience

uint16_t PlanBuilder::add_tensor(const std::string &name, uint8_t dtype, std::vector<int32_t> shape, uint8_t fl,
                                 int quant_idx) {
    Tensor t;
    t.name = name;
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.flags = fl;
    t.quant = quant_idx;
    tensors.push_back(std::move(t));
    return (uint16_t)(tensors.size() - 1);
}

uint16_t PlanBuilder::add_op(uint8_t type, std::vector<uint16_t> inputs, std::vector<uint16_t> outputs,
                             const std::string &name) {
    Op o;
    o.type = type;
    o.inputs = std::move(inputs);
    o.outputs = std::move(outputs);
    o.name = name.empty() ? "op" + std::to_string(ops.size()) : name;
    ops.push_back(std::move(o));
    return (uint16_t)(ops.size() - 1);
}

uint16_t PlanBuilder::add_stage(std::vector<uint16_t> op_list, std::vector<uint16_t> inputs,
                                std::vector<uint16_t> outputs) {
    Stage s;
    s.ops = std::move(op_list);
    s.inputs = std::move(inputs);
    s.outputs = std::move(outputs);
    stages.push_back(std::move(s));
    return (uint16_t)(stages.size() - 1);
}

uint16_t PlanBuilder::add_tile(const TilePlan &t) {
    tiles.push_back(t);
    return (uint16_t)(tiles.size() - 1);
}

uint16_t PlanBuilder::add_weight(const std::string &name, std::vector<uint8_t> bytes) {
    weights.push_back(Weight{name, std::move(bytes)});
    return (uint16_t)(weights.size() - 1);
}

uint16_t PlanBuilder::add_float_weight(const std::string &name, const std::vector<float> &values) {
    return add_weight(name, le_f32(values));
}

uint16_t PlanBuilder::add_i32_weight(const std::string &name, const std::vector<int32_t> &values) {
    return add_weight(name, le_i32(values));
}

uint16_t PlanBuilder::add_quant(float scale, int32_t zero_point, std::vector<int32_t> multipliers,
                                std::vector<int32_t> shifts) {
    quant.push_back(QuantParam{scale, zero_point, std::move(multipliers), std::move(shifts)});
    return (uint16_t)(quant.size() - 1);
}

uint16_t PlanBuilder::add_attribute(uint16_t op, uint8_t kind, std::vector<uint8_t> bytes) {
    attributes.push_back(Attribute{op, kind, std::move(bytes)});
    return (uint16_t)(attributes.size() - 1);
}

uint16_t PlanBuilder::add_state(uint16_t input, uint16_t output, std::vector<uint8_t> initial) {
    state.push_back(StateEntry{input, output, std::move(initial)});
    return (uint16_t)(state.size() - 1);
}

uint16_t PlanBuilder::add_subgraph(uint16_t first_stage, uint16_t num_stages, std::vector<uint16_t> inputs,
                                   std::vector<uint16_t> outputs) {
    subgraphs.push_back(Subgraph{first_stage, num_stages, std::move(inputs), std::move(outputs)});
    return (uint16_t)(subgraphs.size() - 1);
}

tigris_spatial_t PlanBuilder::spatial(uint8_t kh, uint8_t kw, uint8_t sh, uint8_t sw, uint16_t pad_top,
                                      uint16_t pad_bottom, uint16_t pad_left, uint16_t pad_right, uint16_t dil_h,
                                      uint16_t dil_w, uint16_t group) {
    tigris_spatial_t s{};
    s.kernel_h = kh;
    s.kernel_w = kw;
    s.stride_h = sh;
    s.stride_w = sw;
    s.pad_top = pad_top;
    s.pad_bottom = pad_bottom;
    s.pad_left = pad_left;
    s.pad_right = pad_right;
    s.dilation_h = dil_h;
    s.dilation_w = dil_w;
    s.group = group;
    return s;
}

tigris_spatial_t PlanBuilder::conv_spatial(uint8_t k, uint8_t stride, uint16_t pad, uint16_t group) {
    return spatial(k, k, stride, stride, pad, pad, pad, pad, 1, 1, group);
}

TilePlan PlanBuilder::stripe_tile(uint32_t tile_height, uint32_t original_height, uint16_t halo,
                                  uint16_t receptive_field) {
    TilePlan t;
    t.choices.tileable = 1;
    t.choices.axis = TIGRIS_TILE_AXIS_HEIGHT;
    t.choices.tile_height = tile_height;
    t.choices.num_tiles = tile_height ? (original_height + tile_height - 1) / tile_height : 0;
    t.choices.original_height = original_height;
    t.choices.halo = halo;
    t.choices.receptive_field = receptive_field;
    t.facts.tile_extent = tile_height;
    t.facts.num_tiles = t.choices.num_tiles;
    t.facts.original_extent = original_height;
    t.facts.halo = halo;
    t.facts.band_axis = 1;
    t.facts.band = TIGRIS_TILE_BAND(TIGRIS_BAND_KIND_STRIPE, 0);
    return t;
}

void PlanBuilder::quantize_multiplier(double real, int32_t *multiplier, int32_t *shift) {
    if (!(real > 0.0)) {
        *multiplier = 0;
        *shift = 0;
        return;
    }
    int e = 0;
    double m = std::frexp(real, &e);  // real = m * 2^e, 0.5 <= m < 1
    double q = std::round(m * 2147483648.0);  // half away from zero for positive m
    if (q >= 2147483648.0) {
        q /= 2.0;
        ++e;
    }
    *multiplier = (int32_t)q;
    *shift = e;
}

uint32_t PlanBuilder::tensor_bytes(size_t i) const {
    const Tensor &t = tensors.at(i);
    if (t.size_override >= 0) return (uint32_t)t.size_override;
    uint64_t n = 1;
    for (int32_t d : t.shape) n *= (uint64_t)(d < 0 ? 0 : d);
    return (uint32_t)(n * tigris_dtype_size(t.dtype));
}

// ---------------------------------------------------------------------------
// Serialisation

std::vector<uint8_t> PlanBuilder::build() {
    Layout L;

    // Model I/O first so that it sits at element offset 0 of the index pool.
    std::vector<uint16_t> mi = model_inputs, mo = model_outputs;
    if (auto_model_io && mi.empty() && mo.empty()) {
        for (size_t i = 0; i < tensors.size(); ++i) {
            if (tensors[i].flags & TIGRIS_TENSOR_MODEL_INPUT) mi.push_back((uint16_t)i);
            if (tensors[i].flags & TIGRIS_TENSOR_MODEL_OUTPUT) mo.push_back((uint16_t)i);
        }
    }

    StringPool str;
    const uint32_t model_name_off = str.intern(model_name);
    IndexPool pool;
    std::vector<uint16_t> io = mi;
    io.insert(io.end(), mo.begin(), mo.end());
    L.model_io_off = pool.add(io);

    // Which stage owns each op: the stage byte is derived from it.
    std::vector<int> op_stage(ops.size(), -1);
    for (size_t s = 0; s < stages.size(); ++s)
        for (uint16_t o : stages[s].ops)
            if (o < ops.size() && op_stage[o] < 0) op_stage[o] = (int)s;

    // ---- 1 tensors, 6 shape pool ----
    std::vector<uint8_t> sec_tensors, sec_shapes;
    for (size_t i = 0; i < tensors.size(); ++i) {
        const Tensor &t = tensors[i];
        tigris_tensor_t r{};
        r.name_str = str.intern(t.name);
        r.size_bytes = tensor_bytes(i);
        r.shape_off = (uint16_t)(sec_shapes.size() / 4);
        r.ndim = (uint8_t)t.shape.size();
        r.dtype = t.dtype;
        r.flags = t.flags;
        r.quant_param_idx = idx16(t.quant);
        r.iface_dtype = t.iface_dtype;
        append(sec_tensors, r);
        for (int32_t d : t.shape) append(sec_shapes, d);
    }

    // ---- 2 ops ----
    std::vector<uint8_t> sec_ops;
    for (size_t i = 0; i < ops.size(); ++i) {
        const Op &o = ops[i];
        tigris_op_t r{};
        r.name_str = str.intern(o.name);
        r.op_type = o.type;
        r.num_inputs = (uint8_t)o.inputs.size();
        r.num_outputs = (uint8_t)o.outputs.size();
        r.stage = o.stage_byte >= 0 ? (uint8_t)o.stage_byte : (uint8_t)(op_stage[i] < 0 ? 0 : op_stage[i] & 0xFF);
        r.inputs_off = pool.add(o.inputs);
        r.outputs_off = pool.add(o.outputs);
        r.spatial = o.spatial;
        r.weight_idx = idx16(o.weight);
        r.bias_idx = idx16(o.bias);
        r.fused_act = o.fused_act;
        r.act_min = o.act_min;
        r.act_max = o.act_max;
        append(sec_ops, r);
    }

    // ---- 3 stages ----
    std::vector<uint8_t> sec_stages;
    for (const Stage &s : stages) {
        tigris_stage_t r{};
        r.peak_bytes = s.peak;
        r.ops_off = pool.add(s.ops);
        r.ops_count = (uint16_t)s.ops.size();
        r.inputs_off = pool.add(s.inputs);
        r.inputs_count = (uint16_t)s.inputs.size();
        r.outputs_off = pool.add(s.outputs);
        r.outputs_count = (uint16_t)s.outputs.size();
        r.tile_plan_idx = idx16(s.tile);
        r.chain_id = s.chain_id;
        r.chain_len = s.chain_len;
        r.chain_tile_h = s.chain_tile_h;
        r._reserved1 = s.flags;
        append(sec_stages, r);
    }

    // ---- 4 tile plans: layout chosen by revision (docs/format.md F2) ----
    if (revision >= 11)
        L.tile_record_size = 48;
    else if (revision == 10 && (flags & TIGRIS_FLAG_TILE_V10))
        L.tile_record_size = 32;
    else
        L.tile_record_size = 24;
    std::vector<uint8_t> sec_tiles;
    for (const TilePlan &t : tiles) {
        if (L.tile_record_size == 48) {
            tigris_tile_plan_v11_t r{};
            r.choices = t.choices;
            r.facts = t.facts;
            append(sec_tiles, r);
        } else if (L.tile_record_size == 32) {
            append(sec_tiles, t.choices);
        } else {
            tigris_tile_plan_t r{};
            r.tileable = t.choices.tileable;
            r.axis = t.choices.axis;
            r.tile_height = (uint16_t)t.choices.tile_height;
            r.num_tiles = (uint16_t)t.choices.num_tiles;
            r.halo = t.choices.halo;
            r.receptive_field = t.choices.receptive_field;
            r.original_height = (uint16_t)t.choices.original_height;
            r.tiled_peak_bytes = t.choices.tiled_peak_bytes;
            r.overhead_bytes = t.choices.overhead_bytes;
            r.tile_width = t.choices.tile_width;
            r.flags = t.choices.flags;
            append(sec_tiles, r);
        }
    }

    // ---- 13 subgraphs (their lists go into the pool before it is frozen) ----
    std::vector<uint8_t> sec_subgraphs;
    if (!subgraphs.empty()) {
        append(sec_subgraphs, (uint16_t)subgraphs.size());
        append(sec_subgraphs, (uint16_t)0);
        for (const Subgraph &g : subgraphs) {
            tigris_subgraph_t r{};
            r.first_stage = g.first_stage;
            r.num_stages = g.num_stages;
            r.inputs_off = pool.add(g.inputs);
            r.inputs_count = (uint16_t)g.inputs.size();
            r.outputs_off = pool.add(g.outputs);
            r.outputs_count = (uint16_t)g.outputs.size();
            append(sec_subgraphs, r);
        }
    }

    // ---- 8 weights, 10 weight blocks ----
    const bool blocked = compression != Compression::None && !weights.empty();
    std::vector<uint32_t> w_offset(weights.size(), 0);
    std::vector<uint8_t> blob;
    std::vector<uint8_t> sec_blocks;
    if (!blocked) {
        for (size_t i = 0; i < weights.size(); ++i) {
            pad_to(blob, align_up((uint32_t)blob.size(), 16));
            w_offset[i] = (uint32_t)blob.size();
            append_bytes(blob, weights[i].bytes);
        }
    } else {
        // One block per stage covering the contiguous range of weights its ops use.
        struct Block {
            tigris_weight_block_t rec;
            std::vector<uint8_t> data;
        };
        std::vector<Block> blocks;
        for (size_t s = 0; s < stages.size(); ++s) {
            int lo = -1, hi = -1;
            auto use = [&](int w) {
                if (w < 0 || (size_t)w >= weights.size()) return;
                lo = lo < 0 ? w : std::min(lo, w);
                hi = std::max(hi, w);
            };
            for (uint16_t o : stages[s].ops) {
                if (o >= ops.size()) continue;
                use(ops[o].weight);
                use(ops[o].bias);
                for (const Attribute &a : attributes)
                    if (a.op == o && a.kind == TIGRIS_ATTR_CONSTANTS)
                        for (size_t k = 0; k + 1 < a.bytes.size(); k += 2) {
                            uint16_t w = (uint16_t)(a.bytes[k] | (a.bytes[k + 1] << 8));
                            if (w != kNone16) use(w);
                        }
            }
            if (lo < 0) continue;
            std::vector<uint8_t> raw;
            for (int w = lo; w <= hi; ++w) {
                pad_to(raw, align_up((uint32_t)raw.size(), 16));
                w_offset[w] = (uint32_t)raw.size();
                append_bytes(raw, weights[w].bytes);
            }
            Block b{};
            b.rec.stage_idx = (uint16_t)s;
            b.rec.first_weight_idx = (uint16_t)lo;
            b.rec.num_weights = (uint16_t)(hi - lo + 1);
            b.rec.uncompressed_size = (uint32_t)raw.size();
            if (compression == Compression::Lz4Blocks) {
#if TIGRIS_PLANFILE_LZ4
                std::vector<uint8_t> z((size_t)LZ4_compressBound((int)raw.size()));
                int n = LZ4_compress_default(reinterpret_cast<const char *>(raw.data()),
                                             reinterpret_cast<char *>(z.data()), (int)raw.size(), (int)z.size());
                if (n <= 0) throw std::runtime_error("LZ4_compress_default failed");
                z.resize((size_t)n);
                b.data = std::move(z);
#else
                throw std::runtime_error("LZ4 blocks cannot be written by this build (no liblz4)");
#endif
            } else {
                b.data = std::move(raw);
            }
            b.rec.compressed_size = (uint32_t)b.data.size();
            blocks.push_back(std::move(b));
        }
        append(sec_blocks, (uint16_t)blocks.size());
        append(sec_blocks, (uint16_t)(compression == Compression::Lz4Blocks ? TIGRIS_COMPRESSION_LZ4
                                                                            : TIGRIS_COMPRESSION_NONE));
        uint32_t data_off = 0;
        for (Block &b : blocks) {
            b.rec.blob_offset = data_off;
            data_off += b.rec.compressed_size;
            append(sec_blocks, b.rec);
        }
        for (const Block &b : blocks) append_bytes(sec_blocks, b.data);
    }
    std::vector<uint8_t> sec_weights;
    for (size_t i = 0; i < weights.size(); ++i) {
        tigris_weight_entry_t e{};
        e.name_str = str.intern(weights[i].name);
        e.offset = w_offset[i];
        e.size_bytes = (uint32_t)weights[i].bytes.size();
        append(sec_weights, e);
    }
    if (!blocked) append_bytes(sec_weights, blob);

    // ---- 9 quant params: arrays of one record never straddle a page ----
    std::vector<uint8_t> sec_quant;
    if (!quant.empty()) {
        std::vector<int32_t> data;
        std::vector<tigris_quant_param_t> recs;
        for (const QuantParam &q : quant) {
            std::vector<int32_t> m = q.multipliers, sh = q.shifts;
            if (m.empty()) {
                int32_t mm = 0, ss = 0;
                quantize_multiplier(q.scale, &mm, &ss);
                m = {mm};
                if (sh.empty()) sh = {ss};
            }
            sh.resize(m.size(), 0);
            const uint32_t n = (uint32_t)m.size();
            if ((data.size() % TIGRIS_QUANT_PAGE_SIZE) + 2u * n > TIGRIS_QUANT_PAGE_SIZE)
                data.resize(align_up((uint32_t)data.size(), TIGRIS_QUANT_PAGE_SIZE), 0);
            tigris_quant_param_t r{};
            r.scale = q.scale;
            r.zero_point = q.zero_point;
            r.num_channels = (uint16_t)n;
            r.page = (uint16_t)(data.size() / TIGRIS_QUANT_PAGE_SIZE);
            r.multiplier_off = (uint16_t)(data.size() % TIGRIS_QUANT_PAGE_SIZE);
            data.insert(data.end(), m.begin(), m.end());
            r.shift_off = (uint16_t)(data.size() % TIGRIS_QUANT_PAGE_SIZE);
            data.insert(data.end(), sh.begin(), sh.end());
            recs.push_back(r);
        }
        uint16_t pages = (uint16_t)std::max<size_t>(1, (data.size() + TIGRIS_QUANT_PAGE_SIZE - 1) /
                                                            TIGRIS_QUANT_PAGE_SIZE);
        if (quant_page_count_override) pages = quant_page_count_override;
        append(sec_quant, (uint16_t)quant.size());
        append(sec_quant, pages);
        for (const auto &r : recs) append(sec_quant, r);
        for (int32_t v : data) append(sec_quant, v);
    }

    // ---- 11 attributes: records by (op, kind), payloads 4-aligned in the pool ----
    std::vector<uint8_t> sec_attrs;
    if (!attributes.empty()) {
        std::vector<Attribute> attrs = attributes;
        if (sort_attributes)
            std::stable_sort(attrs.begin(), attrs.end(), [](const Attribute &a, const Attribute &b) {
                return a.op != b.op ? a.op < b.op : a.kind < b.kind;
            });
        std::vector<uint8_t> data;
        append(sec_attrs, (uint16_t)attrs.size());
        append(sec_attrs, (uint16_t)0);
        for (const Attribute &a : attrs) {
            pad_to(data, align_up((uint32_t)data.size(), 4));
            tigris_op_attribute_t r{};
            r.op_index = a.op;
            r.type = a.kind;
            r.data_len = (uint8_t)a.bytes.size();
            r.data_offset = (uint32_t)data.size();
            append_bytes(data, a.bytes);
            append(sec_attrs, r);
        }
        append_bytes(sec_attrs, data);
    }

    // ---- 12 state: variables in order, each rounded up to 4 bytes ----
    std::vector<uint8_t> sec_state;
    if (!state.empty()) {
        std::vector<std::vector<uint8_t>> init;
        for (const StateEntry &e : state)
            init.push_back(!e.initial.empty() ? e.initial
                                              : std::vector<uint8_t>(e.input < tensors.size() ? tensor_bytes(e.input) : 4, 0));
        uint32_t total = 0;
        for (const auto &v : init) total += align_up((uint32_t)v.size(), 4);
        append(sec_state, (uint16_t)state.size());
        append(sec_state, (uint16_t)0);
        append(sec_state, total);
        uint32_t buf_off = 0;
        uint32_t init_off = 8u + 16u * (uint32_t)state.size();
        for (size_t i = 0; i < state.size(); ++i) {
            tigris_state_entry_t r{};
            r.input = state[i].input;
            r.output = state[i].output;
            r.offset = buf_off;
            r.bytes = (uint32_t)init[i].size();
            r.initial = init_off;
            append(sec_state, r);
            buf_off += align_up(r.bytes, 4);
            init_off += align_up(r.bytes, 4);
        }
        for (const auto &v : init) {
            append_bytes(sec_state, v);
            pad_to(sec_state, align_up((uint32_t)sec_state.size(), 4));
        }
    }

    // ---- 14 memory (schema 11, docs/format.md F1) ----
    std::vector<uint8_t> sec_memory;
    const bool want_memory = revision >= 11 || force_memory_section;
    uint32_t sched = scheduled_peak;
    if (sched == 0) {
        // Largest working set of one stage or one whole chain, each tensor
        // rounded to the compiler's 32-byte activation alignment.
        size_t s = 0;
        while (s < stages.size()) {
            size_t n = (stages[s].chain_len >= 2 && stages[s].chain_id == s) ? stages[s].chain_len : 1;
            std::set<uint16_t> touched;
            for (size_t k = s; k < s + n && k < stages.size(); ++k) {
                for (uint16_t t : stages[k].inputs) touched.insert(t);
                for (uint16_t t : stages[k].outputs) touched.insert(t);
                for (uint16_t o : stages[k].ops)
                    if (o < ops.size()) {
                        for (uint16_t t : ops[o].inputs) touched.insert(t);
                        for (uint16_t t : ops[o].outputs) touched.insert(t);
                    }
            }
            uint32_t sum = 0;
            for (uint16_t t : touched)
                if (t < tensors.size()) sum += align_up(tensor_bytes(t), 32);
            sched = std::max(sched, sum);
            s += n;
        }
    }
    if (want_memory) {
        tigris_memory_section_t m{};
        m.scheduled_peak = sched;
        append(sec_memory, m);
    }

    // ---- 5 index pool, 7 strings (frozen last: every list and name is in) ----
    std::vector<uint8_t> sec_index;
    for (uint16_t v : pool.v) append(sec_index, v);
    std::vector<uint8_t> sec_strings = str.bytes;

    // ---- Section list in id order ----
    std::map<uint32_t, std::vector<uint8_t> *> bodies;
    bodies[TIGRIS_SEC_TENSORS] = &sec_tensors;
    bodies[TIGRIS_SEC_OPS] = &sec_ops;
    bodies[TIGRIS_SEC_STAGES] = &sec_stages;
    bodies[TIGRIS_SEC_TILE_PLANS] = &sec_tiles;
    bodies[TIGRIS_SEC_INDEX_POOL] = &sec_index;
    bodies[TIGRIS_SEC_SHAPE_POOL] = &sec_shapes;
    bodies[TIGRIS_SEC_STRINGS] = &sec_strings;
    if (!weights.empty()) bodies[TIGRIS_SEC_WEIGHTS] = &sec_weights;
    if (!quant.empty()) bodies[TIGRIS_SEC_QUANT_PARAMS] = &sec_quant;
    if (blocked) bodies[TIGRIS_SEC_WEIGHT_BLOCKS] = &sec_blocks;
    if (!attributes.empty()) bodies[TIGRIS_SEC_OP_ATTRIBUTES] = &sec_attrs;
    if (!state.empty()) bodies[TIGRIS_SEC_STATE] = &sec_state;
    if (!subgraphs.empty()) bodies[TIGRIS_SEC_SUBGRAPHS] = &sec_subgraphs;
    if (want_memory) bodies[TIGRIS_SEC_MEMORY] = &sec_memory;
    for (uint32_t id : drop_sections) bodies.erase(id);

    auto place = [&](size_t dir_entries, std::vector<tigris_section_entry_t> &entries, uint32_t &end) {
        entries.clear();
        uint32_t cur = TIGRIS_HEADER_SIZE + 8u * (uint32_t)(dir_entries + 1);
        for (auto &[id, body] : bodies) {
            uint32_t off = align_up(cur, 16);
            if (id == TIGRIS_SEC_WEIGHTS) {
                // The blob after the entries must start 16-aligned.
                uint32_t ent = 12u * (uint32_t)weights.size();
                off += (16u - (off + ent) % 16u) % 16u;
            }
            entries.push_back(tigris_section_entry_t{id, off});
            cur = off + (uint32_t)body->size();
        }
        end = cur;
    };
    std::vector<tigris_section_entry_t> natural, dir;
    uint32_t end = 0;
    place(bodies.size(), natural, end);
    dir = natural;
    if (edit_directory) {
        edit_directory(dir, end);
        if (dir.size() != natural.size()) {
            place(dir.size(), natural, end);
            dir = natural;
            edit_directory(dir, end);
        }
    }

    std::vector<uint8_t> out(end, 0);
    L.dir_off = TIGRIS_HEADER_SIZE;
    L.directory = dir;
    for (size_t i = 0; i < dir.size(); ++i) std::memcpy(&out[L.dir_off + 8 * i], &dir[i], 8);
    // The sentinel (type 0) is already zero.
    for (const auto &e : natural) {
        const std::vector<uint8_t> &body = *bodies[e.type];
        if (!body.empty()) std::memcpy(&out[e.offset], body.data(), body.size());
        L.section[e.type] = e.offset;
    }

    auto sec = [&](uint32_t id) -> uint32_t {
        auto it = L.section.find(id);
        return it == L.section.end() ? 0u : it->second;
    };
    L.tensors = sec(TIGRIS_SEC_TENSORS);
    L.ops = sec(TIGRIS_SEC_OPS);
    L.stages = sec(TIGRIS_SEC_STAGES);
    L.tile_plans = sec(TIGRIS_SEC_TILE_PLANS);
    L.index_pool = sec(TIGRIS_SEC_INDEX_POOL);
    L.shape_pool = sec(TIGRIS_SEC_SHAPE_POOL);
    L.string_pool = sec(TIGRIS_SEC_STRINGS);
    if (uint32_t w = sec(TIGRIS_SEC_WEIGHTS)) {
        L.weight_entries = w;
        if (!blocked) L.weight_blob = w + 12u * (uint32_t)weights.size();
    }
    if (uint32_t q = sec(TIGRIS_SEC_QUANT_PARAMS)) {
        L.quant_header = q;
        L.quant_records = q + 4;
        L.quant_data = q + 4 + 16u * (uint32_t)quant.size();
    }
    if (uint32_t b = sec(TIGRIS_SEC_WEIGHT_BLOCKS)) {
        L.blocks_header = b;
        L.block_records = b + 4;
        L.block_data = b + 4 + 20u * get_u16(out, b);
    }
    if (uint32_t a = sec(TIGRIS_SEC_OP_ATTRIBUTES)) {
        L.attr_header = a;
        L.attr_records = a + 4;
        L.attr_data = a + 4 + 8u * (uint32_t)attributes.size();
    }
    if (uint32_t s = sec(TIGRIS_SEC_STATE)) {
        L.state_header = s;
        L.state_entries = s + 8;
        L.state_data = s + 8 + 16u * (uint32_t)state.size();
    }
    if (uint32_t g = sec(TIGRIS_SEC_SUBGRAPHS)) {
        L.subgraph_header = g;
        L.subgraph_records = g + 4;
    }
    L.memory = sec(TIGRIS_SEC_MEMORY);
    L.strings = str.offsets;
    L.file_size = (uint32_t)out.size();

    // ---- Header ----
    uint32_t total_act = 0;
    for (size_t i = 0; i < tensors.size(); ++i) total_act += align_up(tensor_bytes(i), 32);
    tigris_file_header_t h{};
    std::memcpy(h.magic, "TGRS", 4);
    h.version = revision;
    h.file_size = (uint32_t)out.size();
    h.section_dir_off = L.dir_off;
    h.num_tensors = (uint16_t)tensors.size();
    h.num_ops = (uint16_t)ops.size();
    h.num_stages = (uint16_t)stages.size();
    h.num_tile_plans = (uint16_t)tiles.size();
    h.budget = budget ? budget : total_act;
    h.peak = peak ? peak : h.budget;
    h.model_name_str = model_name_off;
    h.model_io_off = (uint16_t)L.model_io_off;
    h.num_model_inputs = (uint8_t)mi.size();
    h.num_model_outputs = (uint8_t)mo.size();
    h.num_weights = (uint16_t)weights.size();
    h.num_quant_params = (uint16_t)quant.size();
    h.flags = flags;
    if (edit_header) edit_header(h);
    std::memcpy(out.data(), &h, sizeof h);

    layout_ = L;
    return out;
}

// ---------------------------------------------------------------------------
// Factories

namespace {

std::vector<float> ramp_f32(size_t n, float step) {
    // Small distinct values with both signs so a wrong element order shows.
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = (float)((int)(i % 7) - 3) * step;
    return v;
}

}  // namespace

PlanBuilder PlanBuilder::minimal_float(uint32_t revision) {
    PlanBuilder b(revision);
    b.model_name = "minimal";
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_RELU, {x}, {y}, "relu");
    b.add_stage({op}, {x}, {y});
    return b;
}

PlanBuilder PlanBuilder::float_conv(uint32_t revision) {
    PlanBuilder b(revision);
    b.model_name = "float_conv";
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 2}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 4, 4, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t w = b.add_float_weight("conv.w", ramp_f32(3 * 3 * 3 * 2, 0.125f));
    uint16_t bias = b.add_float_weight("conv.b", {0.5f, -0.25f, 1.0f});
    uint16_t op = b.add_op(TIGRIS_OP_CONV, {x}, {y}, "conv");
    b.ops[op].spatial = conv_spatial(3, 1, 1);
    b.ops[op].weight = w;
    b.ops[op].bias = bias;
    b.add_stage({op}, {x}, {y});
    return b;
}

PlanBuilder PlanBuilder::int8_conv(uint32_t revision) {
    PlanBuilder b(revision);
    b.model_name = "int8_conv";
    const float in_scale = 0.5f, out_scale = 0.25f;
    const float w_scale[3] = {0.01f, 0.02f, 0.03f};
    uint16_t qx = b.add_quant(in_scale, -1);
    std::vector<int32_t> mult(3), shift(3);
    for (int c = 0; c < 3; ++c) quantize_multiplier((double)in_scale * w_scale[c] / out_scale, &mult[c], &shift[c]);
    uint16_t qy = b.add_quant(out_scale, 3, mult, shift);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_INT8, {1, 4, 4, 2}, TIGRIS_TENSOR_MODEL_INPUT, qx);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_INT8, {1, 4, 4, 3}, TIGRIS_TENSOR_MODEL_OUTPUT, qy);
    std::vector<uint8_t> wq(3 * 3 * 3 * 2);
    for (size_t i = 0; i < wq.size(); ++i) wq[i] = (uint8_t)(int8_t)((int)(i % 11) - 5);
    uint16_t w = b.add_weight("conv.w", wq);
    uint16_t bias = b.add_i32_weight("conv.b", {10, -20, 30});
    uint16_t op = b.add_op(TIGRIS_OP_CONV, {x}, {y}, "conv");
    b.ops[op].spatial = conv_spatial(3, 1, 1);
    b.ops[op].weight = w;
    b.ops[op].bias = bias;
    b.add_stage({op}, {x}, {y});
    return b;
}

PlanBuilder PlanBuilder::conv_chain(uint32_t revision) {
    PlanBuilder b(revision);
    b.model_name = "conv_chain";
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 8, 8, 2}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t t = b.add_tensor("t", TIGRIS_DTYPE_FLOAT32, {1, 8, 8, 2});
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 8, 8, 2}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t w0 = b.add_float_weight("c0.w", ramp_f32(2 * 3 * 3 * 2, 0.0625f));
    uint16_t b0 = b.add_float_weight("c0.b", {0.25f, -0.5f});
    uint16_t w1 = b.add_float_weight("c1.w", ramp_f32(2 * 3 * 3 * 2, -0.0625f));
    uint16_t b1 = b.add_float_weight("c1.b", {-0.125f, 0.375f});
    uint16_t op0 = b.add_op(TIGRIS_OP_CONV, {x}, {t}, "conv0");
    uint16_t op1 = b.add_op(TIGRIS_OP_CONV, {t}, {y}, "conv1");
    for (auto [o, w, bi] : {std::tuple{op0, w0, b0}, std::tuple{op1, w1, b1}}) {
        b.ops[o].spatial = conv_spatial(3, 1, 1);
        b.ops[o].weight = w;
        b.ops[o].bias = bi;
    }
    uint16_t s0 = b.add_stage({op0}, {x}, {t});
    uint16_t s1 = b.add_stage({op1}, {t}, {y});
    b.stages[s0].chain_id = s0;
    b.stages[s0].chain_len = 2;
    b.stages[s0].chain_tile_h = 2;
    b.stages[s1].chain_id = s0;
    b.stages[s1].chain_len = 2;
    return b;
}

PlanBuilder PlanBuilder::tiled_stripe(uint32_t revision) {
    PlanBuilder b(revision);
    b.model_name = "tiled_stripe";
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 8, 8, 2}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 8, 8, 3}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t w = b.add_float_weight("conv.w", ramp_f32(3 * 3 * 3 * 2, 0.125f));
    uint16_t bias = b.add_float_weight("conv.b", {0.5f, -0.25f, 1.0f});
    uint16_t op = b.add_op(TIGRIS_OP_CONV, {x}, {y}, "conv");
    b.ops[op].spatial = conv_spatial(3, 1, 1);
    b.ops[op].weight = w;
    b.ops[op].bias = bias;
    // 3x3 stride 1: each band needs (3 - 1) extra input rows, 3 rows per output row.
    TilePlan tp = stripe_tile(2, 8, 2, 3);
    if (revision < 5) tp.choices.axis = 0;  // byte 1 is padding before v5
    uint16_t s = b.add_stage({op}, {x}, {y});
    b.stages[s].tile = b.add_tile(tp);
    return b;
}

PlanBuilder PlanBuilder::compressed_conv(uint32_t revision, Compression c) {
    PlanBuilder b = float_conv(revision);
    b.model_name = "compressed_conv";
    b.compression = c;
    return b;
}

PlanBuilder PlanBuilder::state_add(uint32_t revision) {
    PlanBuilder b(revision);
    b.model_name = "state_add";
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t s = b.add_tensor("s", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_STATE);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_ADD, {x, s}, {y}, "add");
    b.add_stage({op}, {x, s}, {y});
    b.add_state(s, kNone16, le_f32({1.0f, 2.0f, 3.0f, 4.0f}));
    return b;
}

PlanBuilder PlanBuilder::if_subgraphs(uint32_t revision) {
    PlanBuilder b(revision);
    b.model_name = "if_subgraphs";
    uint16_t cond = b.add_tensor("cond", TIGRIS_DTYPE_BOOL, {1}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 4}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t a = b.add_tensor("then.in", TIGRIS_DTYPE_FLOAT32, {1, 4});
    uint16_t bo = b.add_tensor("then.out", TIGRIS_DTYPE_FLOAT32, {1, 4});
    uint16_t c = b.add_tensor("else.in", TIGRIS_DTYPE_FLOAT32, {1, 4});
    uint16_t d = b.add_tensor("else.out", TIGRIS_DTYPE_FLOAT32, {1, 4});
    uint16_t op_if = b.add_op(TIGRIS_OP_IF, {cond, x}, {y}, "if");
    uint16_t op_then = b.add_op(TIGRIS_OP_RELU, {a}, {bo}, "then.relu");
    uint16_t op_else = b.add_op(TIGRIS_OP_RELU6, {c}, {d}, "else.relu6");
    b.add_attribute(op_if, TIGRIS_ATTR_SUBGRAPHS, le_u16({1, 2}));
    b.add_stage({op_if}, {cond, x}, {y});
    b.add_stage({op_then}, {a}, {bo});
    b.add_stage({op_else}, {c}, {d});
    b.add_subgraph(0, 1, {cond, x}, {y});
    b.add_subgraph(1, 1, {a}, {bo});
    b.add_subgraph(2, 1, {c}, {d});
    return b;
}

// ---------------------------------------------------------------------------
// Byte helpers

void put_u8(std::vector<uint8_t> &b, size_t off, uint8_t v) { b.at(off) = v; }
void put_u16(std::vector<uint8_t> &b, size_t off, uint16_t v) {
    b.at(off + 1);
    std::memcpy(&b[off], &v, 2);
}
void put_u32(std::vector<uint8_t> &b, size_t off, uint32_t v) {
    b.at(off + 3);
    std::memcpy(&b[off], &v, 4);
}
void put_f32(std::vector<uint8_t> &b, size_t off, float v) {
    b.at(off + 3);
    std::memcpy(&b[off], &v, 4);
}
uint16_t get_u16(const std::vector<uint8_t> &b, size_t off) {
    return (uint16_t)(b.at(off) | (b.at(off + 1) << 8));
}
uint32_t get_u32(const std::vector<uint8_t> &b, size_t off) {
    return (uint32_t)b.at(off) | ((uint32_t)b.at(off + 1) << 8) | ((uint32_t)b.at(off + 2) << 16) |
           ((uint32_t)b.at(off + 3) << 24);
}

std::vector<uint8_t> le_i32(const std::vector<int32_t> &v) {
    std::vector<uint8_t> out;
    for (int32_t x : v) append(out, x);
    return out;
}
std::vector<uint8_t> le_u16(const std::vector<uint16_t> &v) {
    std::vector<uint8_t> out;
    for (uint16_t x : v) append(out, x);
    return out;
}
std::vector<uint8_t> le_f32(const std::vector<float> &v) {
    std::vector<uint8_t> out;
    for (float x : v) append(out, x);
    return out;
}

}  // namespace tigris::planfile
