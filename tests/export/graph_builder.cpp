// graph_builder.cpp - the shape checker of graph_builder.h.
#include "graph_builder.h"

namespace tigris_test {

namespace {

std::vector<int32_t> ints(const tfl::Model &m, const tfl::Tensor &t) {
    const auto &d = m.buffers[t.buffer].data;
    std::vector<int32_t> v(d.size() / 4);
    std::memcpy(v.data(), d.data(), v.size() * 4);
    return v;
}

std::string shape_str(const std::vector<int32_t> &s) {
    std::string o = "[";
    for (size_t i = 0; i < s.size(); ++i) o += (i ? "," : "") + std::to_string(s[i]);
    return o + "]";
}

bool same_q(const tfl::Tensor &a, const tfl::Tensor &b) {
    return a.quant.scale == b.quant.scale && a.quant.zero_point == b.quant.zero_point;
}

}  // namespace

std::string check_shapes(const tfl::Model &m) {
    const tfl::SubGraph &sg = m.subgraphs.at(0);
    auto T = [&sg](int32_t i) -> const tfl::Tensor & { return sg.tensors.at(static_cast<size_t>(i)); };
    for (size_t i = 0; i < sg.operators.size(); ++i) {
        const tfl::Operator &op = sg.operators[i];
        const int32_t code = m.operator_codes.at(op.opcode_index).builtin;
        const std::string where = "operator " + std::to_string(i) + " (" + tfl::builtin_name(code) + "): ";
        const tfl::Tensor &out = T(op.outputs.at(0));
        const tfl::Tensor &in = T(op.inputs.at(0));
        switch (code) {
        case tfl::kSlice: {
            const auto begin = ints(m, T(op.inputs.at(1))), size = ints(m, T(op.inputs.at(2)));
            if (size != out.shape) return where + "size " + shape_str(size) + " vs output " + shape_str(out.shape);
            for (size_t d = 0; d < 4; ++d)
                if (begin[d] < 0 || begin[d] + size[d] > in.shape[d]) return where + "slice beyond the input";
            if (!same_q(in, out)) return where + "quantization changes";
            break;
        }
        case tfl::kPad:
        case tfl::kPadV2: {
            const auto p = ints(m, T(op.inputs.at(1)));
            for (size_t d = 0; d < 4; ++d)
                if (out.shape[d] != in.shape[d] + p[2 * d] + p[2 * d + 1]) return where + "padded shape";
            if (!same_q(in, out)) return where + "quantization changes";
            if (code == tfl::kPadV2) {
                const tfl::Tensor &v = T(op.inputs.at(2));
                if (!same_q(v, out) || m.buffers[v.buffer].data.size() != 1) return where + "PADV2 value";
            }
            break;
        }
        case tfl::kConv2D:
        case tfl::kDepthwiseConv2D:
        case tfl::kMaxPool2D:
        case tfl::kAveragePool2D: {
            const auto &o = op.options;
            if (o.padding != 1) break;  // SAME operators outside the run keep their shapes
            int32_t kh = o.filter_h, kw = o.filter_w;
            if (code == tfl::kConv2D || code == tfl::kDepthwiseConv2D) {
                kh = T(op.inputs.at(1)).shape[1];
                kw = T(op.inputs.at(1)).shape[2];
            }
            const int32_t oh = (in.shape[1] - ((kh - 1) * o.dilation_h + 1)) / o.stride_h + 1;
            const int32_t ow = (in.shape[2] - ((kw - 1) * o.dilation_w + 1)) / o.stride_w + 1;
            if (out.shape[1] != oh || out.shape[2] != ow)
                return where + "VALID output " + shape_str(out.shape) + " from input " + shape_str(in.shape);
            break;
        }
        case tfl::kConcatenation: {
            if (op.options.axis != 1) return where + "axis";
            int32_t rows = 0;
            for (int32_t t : op.inputs) {
                rows += T(t).shape[1];
                if (T(t).shape[2] != out.shape[2] || T(t).shape[3] != out.shape[3]) return where + "band width";
                if (!same_q(T(t), out)) return where + "band quantization";
            }
            if (rows != out.shape[1]) return where + "rows add up to " + std::to_string(rows);
            break;
        }
        default:
            break;
        }
    }
    return {};
}

}  // namespace tigris_test
