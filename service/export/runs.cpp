// runs.cpp - which operators can be banded, their row geometry, and the
// enumeration of bandable runs (export seed, "What export changes").
#include <algorithm>
#include <cstring>

#include "rewrite.hpp"
#include "run_geometry.hpp"

namespace tigris::exporter::detail {

namespace tfl = tigris::tflite;

namespace {

bool is_unary(int32_t c) {
    switch (c) {
    case tfl::kRelu: case tfl::kRelu6: case tfl::kLogistic: case tfl::kTanh: case tfl::kHardSwish:
    case tfl::kLeakyRelu: case tfl::kQuantize: case tfl::kAbs: return true;
    default: return false;
    }
}
bool is_binary(int32_t c) {
    return c == tfl::kAdd || c == tfl::kSub || c == tfl::kMul || c == tfl::kMaximum || c == tfl::kMinimum;
}

bool image_int8(const tfl::Tensor &t) {
    return t.type == tfl::TensorType::Int8 && t.shape.size() == 4 && t.shape[0] == 1 && t.shape[1] > 0 &&
           t.shape[2] > 0 && t.shape[3] > 0;
}

void same_pads(int32_t in, int32_t out, int32_t stride, int32_t eff, int32_t &before, int32_t &after) {
    const int64_t total = std::max<int64_t>(0, static_cast<int64_t>(out - 1) * stride + eff - in);
    before = static_cast<int32_t>(total / 2);
    after = static_cast<int32_t>(total - total / 2);
}

}  // namespace

bool is_const(const tfl::Model &m, int32_t t) {
    return !m.buffers[m.subgraphs[0].tensors[static_cast<size_t>(t)].buffer].data.empty();
}

std::optional<std::array<int32_t, 8>> const_paddings(const tfl::Model &m, int32_t t) {
    if (t < 0) return std::nullopt;
    const tfl::Tensor &x = m.subgraphs[0].tensors[static_cast<size_t>(t)];
    const auto &data = m.buffers[x.buffer].data;
    if (x.type != tfl::TensorType::Int32 || x.shape != std::vector<int32_t>{4, 2} || data.size() != 32)
        return std::nullopt;
    std::array<int32_t, 8> v{};
    std::memcpy(v.data(), data.data(), 32);
    for (int32_t p : v)
        if (p < 0) return std::nullopt;
    return v;
}

std::optional<Node> node_for(const tfl::Model &m, size_t op_index) {
    const tfl::SubGraph &sg = m.subgraphs[0];
    const tfl::Operator &op = sg.operators[op_index];
    const int32_t code = m.operator_codes[op.opcode_index].builtin;
    if (op.outputs.size() != 1 || op.inputs.empty() || op.inputs[0] < 0 || !op.intermediates.empty())
        return std::nullopt;
    const tfl::Tensor &out = sg.tensors[static_cast<size_t>(op.outputs[0])];
    const tfl::Tensor &in = sg.tensors[static_cast<size_t>(op.inputs[0])];
    if (!image_int8(out) || is_const(m, op.outputs[0]) || out.is_variable) return std::nullopt;
    Node n;
    n.op = op_index;
    n.code = code;
    n.in = op.inputs[0];
    n.out = op.outputs[0];
    const auto &o = op.options;
    if (code == tfl::kConv2D || code == tfl::kDepthwiseConv2D || code == tfl::kMaxPool2D ||
        code == tfl::kAveragePool2D) {
        if (!image_int8(in) || is_const(m, n.in)) return std::nullopt;
        const bool pool = code == tfl::kMaxPool2D || code == tfl::kAveragePool2D;
        const uint8_t want_union = pool ? 5 : (code == tfl::kConv2D ? 1 : 2);
        if (o.union_type != want_union || o.stride_h < 1 || o.stride_w < 1) return std::nullopt;
        int32_t kh = 0, kw = 0;
        if (pool) {
            kh = o.filter_h;
            kw = o.filter_w;
        } else {
            if (op.inputs.size() < 2 || op.inputs[1] < 0) return std::nullopt;
            const tfl::Tensor &f = sg.tensors[static_cast<size_t>(op.inputs[1])];
            if (f.shape.size() != 4 || f.type != tfl::TensorType::Int8) return std::nullopt;  // int8 filters only
            kh = f.shape[1];
            kw = f.shape[2];
        }
        // Bounds keep the row arithmetic far from overflow on hostile files.
        constexpr int32_t kMax = 1 << 12;
        if (kh < 1 || kw < 1 || o.dilation_h < 1 || o.dilation_w < 1 || kh > kMax || kw > kMax ||
            o.dilation_h > kMax || o.dilation_w > kMax || o.stride_h > kMax || o.stride_w > kMax)
            return std::nullopt;
        n.kind = Node::kSpatial;
        n.stride = o.stride_h;
        n.eff = (kh - 1) * (pool ? 1 : o.dilation_h) + 1;
        const int32_t eff_w = (kw - 1) * (pool ? 1 : o.dilation_w) + 1;
        if (o.padding == 0) {
            same_pads(in.shape[1], out.shape[1], o.stride_h, n.eff, n.pt, n.pb);
            same_pads(in.shape[2], out.shape[2], o.stride_w, eff_w, n.pl, n.pr);
        } else if (o.padding != 1) {
            return std::nullopt;
        }
        // The geometry must be the one TFLM computes, or bands would not add up.
        const int64_t ph = int64_t{in.shape[1]} + n.pt + n.pb, pw = int64_t{in.shape[2]} + n.pl + n.pr;
        if (ph < n.eff || pw < eff_w || (ph - n.eff) / o.stride_h + 1 != out.shape[1] ||
            (pw - eff_w) / o.stride_w + 1 != out.shape[2])
            return std::nullopt;
        if (code == tfl::kAveragePool2D && (n.pt || n.pb || n.pl || n.pr)) return std::nullopt;  // averages in-image cells only
        n.max_pool = code == tfl::kMaxPool2D;
        n.strided_or_pool = pool || o.stride_h > 1 || o.stride_w > 1;
        return n;
    }
    if (code == tfl::kPad || code == tfl::kPadV2) {
        if (!image_int8(in) || is_const(m, n.in) || op.inputs.size() < 2) return std::nullopt;
        auto p = const_paddings(m, op.inputs[1]);
        if (!p || (*p)[0] || (*p)[1]) return std::nullopt;  // no batch padding
        if (code == tfl::kPadV2 && (op.inputs.size() < 3 || op.inputs[2] < 0 || !is_const(m, op.inputs[2])))
            return std::nullopt;
        n.kind = Node::kPad;
        n.pads = *p;
        n.pt = (*p)[2];
        n.pb = (*p)[3];
        n.pl = (*p)[4];
        n.pr = (*p)[5];
        if (out.shape[1] != int64_t{in.shape[1]} + n.pt + n.pb || out.shape[2] != int64_t{in.shape[2]} + n.pl + n.pr ||
            out.shape[3] != int64_t{in.shape[3]} + (*p)[6] + (*p)[7])
            return std::nullopt;
        return n;
    }
    if (is_unary(code)) {
        if (!image_int8(in) || in.shape != out.shape || is_const(m, n.in)) return std::nullopt;
        n.kind = Node::kUnary;
        return n;
    }
    if (is_binary(code)) {
        if (op.inputs.size() != 2) return std::nullopt;
        n.kind = Node::kBinary;
        bool any_rows = false;
        for (int32_t t : op.inputs) {
            if (t < 0) return std::nullopt;
            const tfl::Tensor &x = sg.tensors[static_cast<size_t>(t)];
            if (x.type != tfl::TensorType::Int8) return std::nullopt;
            if (x.shape == out.shape) {
                any_rows = true;
                continue;
            }
            // A broadcast operand without a row axis is used whole by every band.
            const size_t r = x.shape.size();
            if (r > 4 || (r >= 3 && x.shape[r - 3] != 1)) return std::nullopt;
        }
        if (!any_rows) return std::nullopt;
        return n;
    }
    return std::nullopt;
}

std::vector<Run> bandable_runs(const tfl::Model &m) {
    std::vector<Run> runs;
    if (m.subgraphs.size() != 1) return runs;
    const tfl::SubGraph &sg = m.subgraphs[0];
    const size_t nops = sg.operators.size(), nt = sg.tensors.size();
    std::vector<std::vector<size_t>> readers(nt);
    for (size_t i = 0; i < nops; ++i)
        for (int32_t t : sg.operators[i].inputs)
            if (t >= 0) readers[static_cast<size_t>(t)].push_back(i);
    std::vector<bool> graph_out(nt, false);
    for (int32_t t : sg.outputs) graph_out[static_cast<size_t>(t)] = true;
    std::vector<std::optional<Node>> nodes(nops);
    for (size_t i = 0; i < nops; ++i) nodes[i] = node_for(m, i);

    for (size_t a = 0; a < nops; ++a) {
        bool strided = false, pad = false;
        for (size_t b = a; b < nops && nodes[b]; ++b) {
            strided = strided || nodes[b]->strided_or_pool;
            pad = pad || nodes[b]->kind == Node::kPad;
            if (!strided) continue;
            bool ok = true;
            for (size_t i = a; i <= b && ok; ++i) {
                const int32_t t = nodes[i]->out;
                const auto &r = readers[static_cast<size_t>(t)];
                if (i == b) {
                    for (size_t x : r) ok = ok && !(x >= a && x <= b);
                    continue;
                }
                ok = !graph_out[static_cast<size_t>(t)] && !r.empty();
                for (size_t x : r) ok = ok && x > i && x <= b;
            }
            if (ok) runs.push_back({a, b, pad});
        }
    }
    return runs;
}

int64_t model_macs(const tfl::Model &m) {
    int64_t total = 0;
    for (const tfl::SubGraph &sg : m.subgraphs) {
        for (const tfl::Operator &op : sg.operators) {
            const int32_t code = m.operator_codes[op.opcode_index].builtin;
            if (code != tfl::kConv2D && code != tfl::kDepthwiseConv2D && code != tfl::kFullyConnected) continue;
            if (op.outputs.empty() || op.inputs.size() < 2 || op.inputs[1] < 0) continue;
            // Element counts (saturating, like tensor_bytes) of the output and
            // of the filter's per-output-element part.
            auto count = [](const std::vector<int32_t> &shape, size_t from) {
                double n = 1;
                for (size_t i = from; i < shape.size(); ++i) n *= shape[i];
                return n;
            };
            const auto &f = sg.tensors[static_cast<size_t>(op.inputs[1])].shape;
            double per = 0;
            if (code == tfl::kConv2D && f.size() == 4) per = count(f, 1);
            else if (code == tfl::kDepthwiseConv2D && f.size() == 4) per = count({f[1], f[2]}, 0);
            else if (code == tfl::kFullyConnected && f.size() == 2) per = f[1];
            const double macs = count(sg.tensors[static_cast<size_t>(op.outputs[0])].shape, 0) * per;
            total += macs < 1e18 ? static_cast<int64_t>(macs) : int64_t{1000000000000000000};
        }
    }
    return total;
}

}  // namespace tigris::exporter::detail
