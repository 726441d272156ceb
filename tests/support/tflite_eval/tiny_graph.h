// tiny_graph.h - small TFLite graphs built in memory (a tigris::tflite::Model
// plus the bytes its buffers point at), for tests of the lowering and of
// row-banded graphs. Tensor and operator indices are plain integers, as in
// the file format.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "tigris_tflite/model.hpp"

namespace tigris_test {

struct Q {
    float scale = 0.0f;  // 0: no quantization
    int64_t zero_point = 0;
};

class TinyGraph {
public:
    TinyGraph();
    TinyGraph(const TinyGraph &) = delete;  // the model points into this object's storage
    TinyGraph &operator=(const TinyGraph &) = delete;
    TinyGraph(TinyGraph &&) = default;  // deque elements keep their addresses

    // A runtime tensor (no data) or a constant one (data given).
    int32_t tensor(const std::string &name, tigris::tflite::TensorType type, std::vector<int32_t> shape, Q q = {},
                   std::vector<uint8_t> data = {});
    int32_t i8(const std::string &name, std::vector<int32_t> shape, Q q) {
        return tensor(name, tigris::tflite::TensorType::Int8, std::move(shape), q);
    }
    int32_t const_i8(const std::string &name, std::vector<int32_t> shape, Q q, const std::vector<int8_t> &v);
    int32_t const_i32(const std::string &name, std::vector<int32_t> shape, const std::vector<int32_t> &v, Q q = {});
    int32_t const_i64(const std::string &name, std::vector<int32_t> shape, const std::vector<int64_t> &v);
    // Per-channel filter quantization (scales along `dim`).
    int32_t const_i8_channels(const std::string &name, std::vector<int32_t> shape, std::vector<float> scales,
                              const std::vector<int8_t> &v, int32_t dim = 0);

    // An operator; options start from the schema's defaults.
    tigris::tflite::Operator &op(int32_t builtin, std::vector<int32_t> inputs, std::vector<int32_t> outputs);
    void io(std::vector<int32_t> inputs, std::vector<int32_t> outputs);

    const tigris::tflite::Model &model() const { return m_; }
    tigris::tflite::SubGraph &sg() { return m_.subgraphs[0]; }

private:
    uint32_t opcode(int32_t builtin);
    tigris::tflite::Model m_;
    std::deque<std::vector<uint8_t>> store_;
};

}  // namespace tigris_test
