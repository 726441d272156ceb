// tiny_graph.cpp - see tiny_graph.h.
#include "tiny_graph.h"

#include <cstring>

namespace tigris_test {

namespace tfl = tigris::tflite;

TinyGraph::TinyGraph() {
    m_.version = 3;
    m_.buffers.resize(1);  // buffer 0: the empty buffer of runtime tensors
    m_.subgraphs.resize(1);
}

int32_t TinyGraph::tensor(const std::string &name, tfl::TensorType type, std::vector<int32_t> shape, Q q,
                          std::vector<uint8_t> data) {
    tfl::Tensor t;
    t.name = name;
    t.type = type;
    t.shape = std::move(shape);
    if (q.scale > 0.0f) {
        t.quant.scale = {q.scale};
        t.quant.zero_point = {q.zero_point};
    }
    if (!data.empty()) {
        store_.push_back(std::move(data));
        tfl::Buffer b;
        b.data = store_.back();
        m_.buffers.push_back(b);
        t.buffer = (uint32_t)(m_.buffers.size() - 1);
    }
    sg().tensors.push_back(t);
    return (int32_t)(sg().tensors.size() - 1);
}

int32_t TinyGraph::const_i8(const std::string &name, std::vector<int32_t> shape, Q q, const std::vector<int8_t> &v) {
    std::vector<uint8_t> d(v.size());
    std::memcpy(d.data(), v.data(), v.size());
    return tensor(name, tfl::TensorType::Int8, std::move(shape), q, std::move(d));
}

int32_t TinyGraph::const_i32(const std::string &name, std::vector<int32_t> shape, const std::vector<int32_t> &v, Q q) {
    std::vector<uint8_t> d(v.size() * 4);
    std::memcpy(d.data(), v.data(), d.size());  // the hosts we test are little-endian, as the file format
    return tensor(name, tfl::TensorType::Int32, std::move(shape), q, std::move(d));
}

int32_t TinyGraph::const_i64(const std::string &name, std::vector<int32_t> shape, const std::vector<int64_t> &v) {
    std::vector<uint8_t> d(v.size() * 8);
    std::memcpy(d.data(), v.data(), d.size());
    return tensor(name, tfl::TensorType::Int64, std::move(shape), {}, std::move(d));
}

int32_t TinyGraph::const_i8_channels(const std::string &name, std::vector<int32_t> shape, std::vector<float> scales,
                                     const std::vector<int8_t> &v, int32_t dim) {
    const int32_t id = const_i8(name, std::move(shape), {}, v);
    tfl::Tensor &t = sg().tensors[(size_t)id];
    t.quant.scale = std::move(scales);
    t.quant.zero_point.assign(t.quant.scale.size(), 0);
    t.quant.quantized_dimension = dim;
    return id;
}

uint32_t TinyGraph::opcode(int32_t builtin) {
    for (size_t i = 0; i < m_.operator_codes.size(); ++i)
        if (m_.operator_codes[i].builtin == builtin) return (uint32_t)i;
    m_.operator_codes.push_back({builtin, "", 1});
    return (uint32_t)(m_.operator_codes.size() - 1);
}

tfl::Operator &TinyGraph::op(int32_t builtin, std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
    tfl::Operator o;
    o.opcode_index = opcode(builtin);
    o.inputs = std::move(inputs);
    o.outputs = std::move(outputs);
    o.options.stride_w = o.options.stride_h = 1;
    sg().operators.push_back(o);
    return sg().operators.back();
}

void TinyGraph::io(std::vector<int32_t> inputs, std::vector<int32_t> outputs) {
    sg().inputs = std::move(inputs);
    sg().outputs = std::move(outputs);
}

}  // namespace tigris_test
