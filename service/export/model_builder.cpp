// model_builder.cpp - see model_builder.hpp.
#include "tigris_export/model_builder.hpp"

#include <cstring>
#include <memory>

#include "tigris_export/writer.hpp"

namespace tigris::exporter {

ModelBuilder::ModelBuilder() {
    m_.version = 3;
    m_.description = "tigris-model-gen";
    m_.buffers.resize(1);  // buffer 0: the empty buffer of runtime tensors, as converters write it
    m_.subgraphs.resize(1);
}

int32_t ModelBuilder::tensor(tfl::TensorType type, std::vector<int32_t> shape, Quant q, std::vector<uint8_t> data) {
    tfl::SubGraph &sg = m_.subgraphs[cur_];
    tfl::Tensor x;
    x.name = "t" + std::to_string(sg.tensors.size());
    x.type = type;
    x.shape = std::move(shape);
    x.quant.scale = std::move(q.scale);
    x.quant.zero_point = std::move(q.zero_point);
    x.quant.quantized_dimension = q.dim;
    if (!data.empty()) {
        auto owned = std::make_shared<const std::vector<uint8_t>>(std::move(data));
        tfl::Buffer b;
        b.data = *owned;
        b.owned = owned;
        m_.buffers.push_back(std::move(b));
        x.buffer = static_cast<uint32_t>(m_.buffers.size() - 1);
    }
    sg.tensors.push_back(std::move(x));
    return static_cast<int32_t>(sg.tensors.size() - 1);
}

int32_t ModelBuilder::const_i32(std::vector<int32_t> shape, const std::vector<int32_t> &v, Quant q) {
    std::vector<uint8_t> d(v.size() * 4);
    std::memcpy(d.data(), v.data(), d.size());  // TFLite files are little-endian, as the hosts we run on
    return tensor(tfl::TensorType::Int32, std::move(shape), std::move(q), std::move(d));
}

int32_t ModelBuilder::const_i8(std::vector<int32_t> shape, const std::vector<int8_t> &v, Quant q) {
    std::vector<uint8_t> d(v.size());
    std::memcpy(d.data(), v.data(), d.size());
    return tensor(tfl::TensorType::Int8, std::move(shape), std::move(q), std::move(d));
}

int32_t ModelBuilder::const_f32(std::vector<int32_t> shape, const std::vector<float> &v) {
    std::vector<uint8_t> d(v.size() * 4);
    std::memcpy(d.data(), v.data(), d.size());
    return tensor(tfl::TensorType::Float32, std::move(shape), {}, std::move(d));
}

void ModelBuilder::variable(int32_t id) { m_.subgraphs[cur_].tensors.at(static_cast<size_t>(id)).is_variable = true; }

uint32_t ModelBuilder::opcode(int32_t builtin) {
    for (size_t i = 0; i < m_.operator_codes.size(); ++i)
        if (m_.operator_codes[i].builtin == builtin) return static_cast<uint32_t>(i);
    m_.operator_codes.push_back({builtin, "", 1});
    return static_cast<uint32_t>(m_.operator_codes.size() - 1);
}

tfl::Operator &ModelBuilder::op(int32_t builtin, std::vector<int32_t> inputs, std::vector<int32_t> outputs,
                                uint8_t options) {
    tfl::Operator o;
    o.opcode_index = opcode(builtin);
    o.inputs = std::move(inputs);
    o.outputs = std::move(outputs);
    o.options.union_type = options;
    o.has_option_table = options != 0;
    m_.subgraphs[cur_].operators.push_back(std::move(o));
    return m_.subgraphs[cur_].operators.back();
}

void ModelBuilder::field(uint16_t id, uint8_t width, uint64_t bits) {
    tfl::OptionField f;
    f.id = id;
    f.kind = tfl::OptionField::kScalar;
    f.width = width;
    f.bits = bits;
    m_.subgraphs[cur_].operators.back().option_fields.push_back(f);
}

void ModelBuilder::opt_f32(uint16_t id, float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    field(id, 4, bits);
}

void ModelBuilder::opt_ints(uint16_t id, std::vector<int32_t> v) {
    tfl::OptionField f;
    f.id = id;
    f.kind = tfl::OptionField::kIntVector;
    f.ints = std::move(v);
    m_.subgraphs[cur_].operators.back().option_fields.push_back(std::move(f));
}

void ModelBuilder::io(std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
    m_.subgraphs[cur_].inputs = std::move(inputs);
    m_.subgraphs[cur_].outputs = std::move(outputs);
}

size_t ModelBuilder::add_subgraph() {
    m_.subgraphs.emplace_back();
    cur_ = m_.subgraphs.size() - 1;
    return cur_;
}

void ModelBuilder::use_subgraph(size_t k) { cur_ = k < m_.subgraphs.size() ? k : cur_; }

std::vector<uint8_t> ModelBuilder::write() const { return exporter::write_model(m_); }

}  // namespace tigris::exporter
