// model_compare.h - field-by-field equality of two read TFLite models (the
// model struct holds spans into file images, so it has no operator==).
#pragma once

#include <algorithm>
#include <string>

#include "tigris_tflite/model.hpp"

namespace tigris_test {

// Empty when equal, else the first difference found (for test messages).
inline std::string model_difference(const tigris::tflite::Model &a, const tigris::tflite::Model &b) {
    namespace tfl = tigris::tflite;
    auto span_eq = [](std::span<const uint8_t> x, std::span<const uint8_t> y) {
        return std::equal(x.begin(), x.end(), y.begin(), y.end());
    };
    if (a.version != b.version) return "version";
    if (a.description != b.description) return "description";
    if (a.operator_codes.size() != b.operator_codes.size()) return "operator code count";
    for (size_t i = 0; i < a.operator_codes.size(); ++i) {
        const auto &x = a.operator_codes[i], &y = b.operator_codes[i];
        if (x.builtin != y.builtin || x.custom_name != y.custom_name || x.version != y.version)
            return "operator code " + std::to_string(i);
    }
    if (a.buffers.size() != b.buffers.size()) return "buffer count";
    for (size_t i = 0; i < a.buffers.size(); ++i)
        if (!span_eq(a.buffers[i].data, b.buffers[i].data) || a.buffers[i].offset != b.buffers[i].offset ||
            a.buffers[i].size != b.buffers[i].size)
            return "buffer " + std::to_string(i);
    if (a.subgraphs.size() != b.subgraphs.size()) return "subgraph count";
    for (size_t s = 0; s < a.subgraphs.size(); ++s) {
        const tfl::SubGraph &x = a.subgraphs[s], &y = b.subgraphs[s];
        const std::string w = "subgraph " + std::to_string(s) + " ";
        if (x.name != y.name || x.inputs != y.inputs || x.outputs != y.outputs) return w + "name or io";
        if (x.tensors.size() != y.tensors.size()) return w + "tensor count";
        for (size_t i = 0; i < x.tensors.size(); ++i) {
            const tfl::Tensor &p = x.tensors[i], &q = y.tensors[i];
            if (p.name != q.name || p.type != q.type || p.shape != q.shape || p.buffer != q.buffer ||
                p.is_variable != q.is_variable || p.shape_signature != q.shape_signature ||
                p.has_rank != q.has_rank || p.quant.min != q.quant.min || p.quant.max != q.quant.max ||
                p.quant.scale != q.quant.scale || p.quant.zero_point != q.quant.zero_point ||
                p.quant.quantized_dimension != q.quant.quantized_dimension)
                return w + "tensor " + std::to_string(i);
        }
        if (x.operators.size() != y.operators.size()) return w + "operator count";
        for (size_t i = 0; i < x.operators.size(); ++i) {
            const tfl::Operator &p = x.operators[i], &q = y.operators[i];
            if (p.opcode_index != q.opcode_index || p.inputs != q.inputs || p.outputs != q.outputs ||
                p.intermediates != q.intermediates || p.options.union_type != q.options.union_type ||
                p.has_option_table != q.has_option_table || p.option_fields != q.option_fields ||
                p.has_custom_options != q.has_custom_options || !span_eq(p.custom_options, q.custom_options) ||
                p.custom_options_format != q.custom_options_format)
                return w + "operator " + std::to_string(i);
        }
    }
    if (a.metadata.size() != b.metadata.size()) return "metadata count";
    for (size_t i = 0; i < a.metadata.size(); ++i)
        if (a.metadata[i].name != b.metadata[i].name || a.metadata[i].buffer != b.metadata[i].buffer)
            return "metadata " + std::to_string(i);
    if (a.signature_defs.size() != b.signature_defs.size()) return "signature count";
    for (size_t i = 0; i < a.signature_defs.size(); ++i) {
        const auto &x = a.signature_defs[i], &y = b.signature_defs[i];
        if (x.signature_key != y.signature_key || x.subgraph_index != y.subgraph_index ||
            x.inputs.size() != y.inputs.size() || x.outputs.size() != y.outputs.size())
            return "signature " + std::to_string(i);
        for (size_t k = 0; k < x.inputs.size(); ++k)
            if (x.inputs[k].name != y.inputs[k].name || x.inputs[k].tensor_index != y.inputs[k].tensor_index)
                return "signature input";
        for (size_t k = 0; k < x.outputs.size(); ++k)
            if (x.outputs[k].name != y.outputs[k].name || x.outputs[k].tensor_index != y.outputs[k].tensor_index)
                return "signature output";
    }
    if (a.uncarried != b.uncarried) return "uncarried notes";
    return {};
}

}  // namespace tigris_test
