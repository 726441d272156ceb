// graph_builder.h - small int8 TFLite graphs built in memory for the export
// tests (the model struct the reader produces), and a checker that every
// operator of a model has the shapes TFLite's kernels compute.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "tigris_tflite/model.hpp"

namespace tigris_test {

namespace tfl = tigris::tflite;

class GraphBuilder {
public:
    GraphBuilder() {
        m_.version = 3;
        m_.buffers.resize(1);
        m_.subgraphs.resize(1);
    }
    // An int8 activation [1,h,w,c] with scale 0.5 and the given zero point.
    int32_t act(const std::string &name, int32_t h, int32_t w, int32_t c, int64_t zp = -3) {
        tfl::Tensor t;
        t.name = name;
        t.type = tfl::TensorType::Int8;
        t.shape = {1, h, w, c};
        t.quant.scale = {0.5f};
        t.quant.zero_point = {zp};
        return add(std::move(t));
    }
    int32_t constant(const std::string &name, tfl::TensorType type, std::vector<int32_t> shape, std::vector<uint8_t> bytes) {
        auto owned = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
        tfl::Buffer b;
        b.owned = owned;
        b.data = *owned;
        m_.buffers.push_back(b);
        tfl::Tensor t;
        t.name = name;
        t.type = type;
        t.shape = std::move(shape);
        t.buffer = static_cast<uint32_t>(m_.buffers.size() - 1);
        if (type == tfl::TensorType::Int8) {
            t.quant.scale = {0.25f};
            t.quant.zero_point = {0};
        }
        return add(std::move(t));
    }
    int32_t int32s(const std::string &name, std::vector<int32_t> shape, const std::vector<int32_t> &v) {
        std::vector<uint8_t> b(v.size() * 4);
        std::memcpy(b.data(), v.data(), b.size());
        return constant(name, tfl::TensorType::Int32, std::move(shape), std::move(b));
    }
    // CONV_2D (depthwise = false) or DEPTHWISE_CONV_2D with kh x kw filters.
    void conv(bool depthwise, int32_t in, int32_t out, int32_t kh, int32_t kw, int32_t stride, bool same) {
        const int32_t cin = sg().tensors[static_cast<size_t>(in)].shape[3];
        const int32_t cout = sg().tensors[static_cast<size_t>(out)].shape[3];
        std::vector<int32_t> fshape = depthwise ? std::vector<int32_t>{1, kh, kw, cout} : std::vector<int32_t>{cout, kh, kw, cin};
        size_t n = 1;
        for (int32_t d : fshape) n *= static_cast<size_t>(d);
        const int32_t f = constant("filter", tfl::TensorType::Int8, fshape, std::vector<uint8_t>(n, 1));
        const int32_t b = int32s("bias", {cout}, std::vector<int32_t>(static_cast<size_t>(cout), 0));
        tfl::Operator op = make(depthwise ? tfl::kDepthwiseConv2D : tfl::kConv2D, {in, f, b}, out);
        op.options.union_type = depthwise ? 2 : 1;
        op.options.padding = same ? 0 : 1;
        op.options.stride_h = op.options.stride_w = stride;
        op.has_option_table = true;
        op.option_fields = {{0, tfl::OptionField::kScalar, 1, same ? 0u : 1u, {}},
                            {1, tfl::OptionField::kScalar, 4, static_cast<uint64_t>(stride), {}},
                            {2, tfl::OptionField::kScalar, 4, static_cast<uint64_t>(stride), {}}};
        if (depthwise) op.option_fields.push_back({3, tfl::OptionField::kScalar, 4, 1, {}});
        sg().operators.push_back(op);
    }
    void pool(bool max, int32_t in, int32_t out, int32_t k, int32_t stride, bool same) {
        tfl::Operator op = make(max ? tfl::kMaxPool2D : tfl::kAveragePool2D, {in}, out);
        op.options.union_type = 5;
        op.options.padding = same ? 0 : 1;
        op.options.stride_h = op.options.stride_w = stride;
        op.options.filter_h = op.options.filter_w = k;
        op.has_option_table = true;
        op.option_fields = {{0, tfl::OptionField::kScalar, 1, same ? 0u : 1u, {}},
                            {1, tfl::OptionField::kScalar, 4, static_cast<uint64_t>(stride), {}},
                            {2, tfl::OptionField::kScalar, 4, static_cast<uint64_t>(stride), {}},
                            {3, tfl::OptionField::kScalar, 4, static_cast<uint64_t>(k), {}},
                            {4, tfl::OptionField::kScalar, 4, static_cast<uint64_t>(k), {}}};
        sg().operators.push_back(op);
    }
    void pad(int32_t in, int32_t out, const std::vector<int32_t> &amounts) {
        const int32_t p = int32s("paddings", {4, 2}, amounts);
        tfl::Operator op = make(tfl::kPad, {in, p}, out);
        op.options.union_type = 22;
        op.has_option_table = true;
        sg().operators.push_back(op);
    }
    void unary(int32_t code, int32_t in, int32_t out) { sg().operators.push_back(make(code, {in}, out)); }
    void binary(int32_t code, int32_t a, int32_t b, int32_t out) { sg().operators.push_back(make(code, {a, b}, out)); }
    void io(std::vector<int32_t> in, std::vector<int32_t> out) {
        sg().inputs = std::move(in);
        sg().outputs = std::move(out);
    }
    tfl::Model &model() { return m_; }

private:
    tfl::SubGraph &sg() { return m_.subgraphs[0]; }
    int32_t add(tfl::Tensor t) {
        sg().tensors.push_back(std::move(t));
        return static_cast<int32_t>(sg().tensors.size() - 1);
    }
    uint32_t opcode(int32_t code) {
        for (size_t i = 0; i < m_.operator_codes.size(); ++i)
            if (m_.operator_codes[i].builtin == code) return static_cast<uint32_t>(i);
        m_.operator_codes.push_back({code, "", 1});
        return static_cast<uint32_t>(m_.operator_codes.size() - 1);
    }
    tfl::Operator make(int32_t code, std::vector<int32_t> in, int32_t out) {
        tfl::Operator op;
        op.opcode_index = opcode(code);
        op.inputs = std::move(in);
        op.outputs = {out};
        return op;
    }
    tfl::Model m_;
};

// Empty when every SLICE, PAD/PADV2, CONV_2D/DEPTHWISE_CONV_2D/pool with
// VALID padding, elementwise operator and CONCATENATION (axis 1) has the
// output shape its kernel computes and the quantization rules hold; else
// the first problem found.
std::string check_shapes(const tfl::Model &m);

}  // namespace tigris_test
