// band_by_hand.cpp - see band_by_hand.h.
#include "band_by_hand.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "option_tables.h"

namespace tigris_test {

namespace tfl = tigris::tflite;

namespace {

[[noreturn]] void cannot(const std::string &why) { throw std::invalid_argument("cannot band: " + why); }

// Row geometry of one operator of the run.
struct Rows {
    bool windowed = false;
    bool max_pool = false;
    int64_t k = 1, s = 1, d = 1;   // kernel, stride, dilation along the rows
    int64_t top = 0;               // rows of padding above (SAME: the smaller half)
    int64_t left = 0, right = 0;   // columns of padding (every band gets them)
    int64_t h_in = 0;
};

// TFLite SAME padding along one axis: the overhang, the smaller half first.
std::pair<int64_t, int64_t> same(int64_t in, int64_t out, int64_t k, int64_t s, int64_t d) {
    const int64_t total = std::max<int64_t>((out - 1) * s + (k - 1) * d + 1 - in, 0);
    return {total / 2, total - total / 2};
}

bool is_unary(int32_t b) {
    switch (b) {
    case tfl::kRelu: case tfl::kRelu6: case tfl::kLogistic: case tfl::kTanh: case tfl::kHardSwish:
    case tfl::kLeakyRelu: case tfl::kQuantize: case tfl::kAbs: return true;
    default: return false;
    }
}

bool is_binary(int32_t b) {
    return b == tfl::kAdd || b == tfl::kSub || b == tfl::kMul || b == tfl::kMaximum || b == tfl::kMinimum;
}

struct Builder {
    tfl::Model m;
    tfl::SubGraph &sg;
    explicit Builder(const tfl::Model &src) : m(src), sg(m.subgraphs.at(0)) {}

    const tfl::Tensor &t(int32_t i) const { return sg.tensors.at((size_t)i); }
    bool is_const(int32_t i) const {
        const tfl::Tensor &x = t(i);
        return x.buffer != 0 && x.buffer < m.buffers.size() && !m.buffers[x.buffer].data.empty();
    }

    uint32_t opcode(int32_t builtin, int32_t version) {
        for (size_t i = 0; i < m.operator_codes.size(); ++i)
            if (m.operator_codes[i].builtin == builtin) return (uint32_t)i;
        m.operator_codes.push_back({builtin, "", version});
        return (uint32_t)(m.operator_codes.size() - 1);
    }

    int32_t tensor(const std::string &name, const tfl::Tensor &like, std::vector<int32_t> shape) {
        tfl::Tensor x;
        x.name = name;
        x.type = like.type;
        x.shape = std::move(shape);
        x.quant.scale = like.quant.scale;
        x.quant.zero_point = like.quant.zero_point;
        x.quant.quantized_dimension = like.quant.quantized_dimension;
        sg.tensors.push_back(x);
        return (int32_t)(sg.tensors.size() - 1);
    }

    int32_t const_i32(const std::string &name, const std::vector<int32_t> &v, std::vector<int32_t> shape) {
        auto bytes = std::make_shared<std::vector<uint8_t>>(v.size() * 4);
        std::memcpy(bytes->data(), v.data(), bytes->size());
        tfl::Buffer b;
        b.owned = bytes;
        b.data = *bytes;
        m.buffers.push_back(b);
        tfl::Tensor x;
        x.name = name;
        x.type = tfl::TensorType::Int32;
        x.shape = std::move(shape);
        x.buffer = (uint32_t)(m.buffers.size() - 1);
        sg.tensors.push_back(x);
        return (int32_t)(sg.tensors.size() - 1);
    }

    int32_t const_i8(const std::string &name, int8_t v, const tfl::Tensor &like) {
        auto bytes = std::make_shared<std::vector<uint8_t>>(1, (uint8_t)v);
        tfl::Buffer b;
        b.owned = bytes;
        b.data = *bytes;
        m.buffers.push_back(b);
        tfl::Tensor x;
        x.name = name;
        x.type = tfl::TensorType::Int8;
        x.shape = {1};
        x.buffer = (uint32_t)(m.buffers.size() - 1);
        x.quant.scale = like.quant.scale;
        x.quant.zero_point = like.quant.zero_point;
        sg.tensors.push_back(x);
        return (int32_t)(sg.tensors.size() - 1);
    }

    tfl::Operator make(int32_t builtin, int32_t version, std::vector<int32_t> in, std::vector<int32_t> out) {
        tfl::Operator o;
        o.opcode_index = opcode(builtin, version);
        o.inputs = std::move(in);
        o.outputs = std::move(out);
        return o;
    }
};

}  // namespace

tfl::Model band_by_hand(const tfl::Model &src, size_t first, size_t last, const std::vector<int32_t> &cuts) {
    Builder B(src);
    tfl::SubGraph &sg = B.sg;
    if (first > last || last >= sg.operators.size()) cannot("operator range out of the model");
    const std::vector<tfl::Operator> run(sg.operators.begin() + (long)first, sg.operators.begin() + (long)last + 1);

    // ---- check the run and work out each operator's row geometry ----
    std::vector<Rows> rows(run.size());
    for (size_t j = 0; j < run.size(); ++j) {
        const tfl::Operator &op = run[j];
        const int32_t builtin = src.operator_codes.at(op.opcode_index).builtin;
        const std::string w = "operator " + std::to_string(first + j);
        if (op.outputs.size() != 1 || op.inputs.empty()) cannot(w + ": one input and one output expected");
        const int32_t x = op.inputs[0], y = op.outputs[0];
        if (j > 0 && x != run[j - 1].outputs[0]) cannot(w + " does not read the previous operator's output");
        if (B.t(x).shape.size() != 4 || B.t(y).shape.size() != 4) cannot(w + ": rank-4 tensors only");
        if (B.t(x).type != tfl::TensorType::Int8 || B.t(y).type != tfl::TensorType::Int8) cannot(w + ": int8 only");
        if (j + 1 < run.size()) {  // its output feeds the next operator and nothing else
            for (size_t k = 0; k < sg.operators.size(); ++k)
                for (int32_t in : sg.operators[k].inputs)
                    if (in == y && k != first + j + 1) cannot(w + "'s output has a reader outside the run");
            for (int32_t o : sg.outputs)
                if (o == y) cannot(w + "'s output is a model output");
        }
        Rows &r = rows[j];
        r.h_in = B.t(x).shape[1];
        const tfl::Options &p = op.options;
        const auto &xs = B.t(x).shape, &ys = B.t(y).shape;
        if (builtin == tfl::kConv2D || builtin == tfl::kDepthwiseConv2D || builtin == tfl::kMaxPool2D ||
            builtin == tfl::kAveragePool2D) {
            r.windowed = true;
            r.max_pool = builtin == tfl::kMaxPool2D;
            int64_t kw, dw = 1;
            if (builtin == tfl::kConv2D || builtin == tfl::kDepthwiseConv2D) {
                const auto &fs = B.t(op.inputs.at(1)).shape;
                r.k = fs.at(1);
                kw = fs.at(2);
                r.d = std::max(1, p.dilation_h);
                dw = std::max(1, p.dilation_w);
            } else {
                r.k = p.filter_h;
                kw = p.filter_w;
            }
            r.s = p.stride_h;
            if (p.padding == 0) {
                const auto [top, bottom] = same(xs[1], ys[1], r.k, r.s, r.d);
                const auto [left, right] = same(xs[2], ys[2], kw, p.stride_w, dw);
                r.top = top;
                r.left = left;
                r.right = right;
                if (builtin == tfl::kAveragePool2D && (top || bottom || left || right))
                    cannot(w + ": an average pool that pads (its divisor counts only real taps)");
            }
        } else if (is_unary(builtin)) {
        } else if (is_binary(builtin)) {
            if (op.inputs.size() != 2 || !B.is_const(op.inputs[1]))
                cannot(w + ": a binary operator needs a constant second operand");
            const auto &cs = B.t(op.inputs[1]).shape;
            if (cs.size() >= 3 && cs[cs.size() - 3] != 1) cannot(w + ": its constant varies along the rows");
        } else {
            cannot(w + " is " + tfl::builtin_name(builtin) + ", which a band cannot hold");
        }
    }

    // ---- bands ----
    const int32_t run_in = run.front().inputs[0], run_out = run.back().outputs[0];
    const int64_t height = B.t(run_out).shape[1];
    std::vector<int64_t> edges{0};
    for (int32_t c : cuts) {
        if (c <= edges.back() || c >= height) cannot("band edges must rise strictly inside (0, " + std::to_string(height) + ")");
        edges.push_back(c);
    }
    edges.push_back(height);

    std::vector<tfl::Operator> ops;
    std::vector<int32_t> band_outputs;
    for (size_t band = 0; band + 1 < edges.size(); ++band) {
        const std::string tag = "/band" + std::to_string(band);
        // Backwards: the output rows [a, b) each operator must produce, and
        // the padding its window reads above and below the real rows.
        std::vector<int64_t> a(run.size()), b(run.size()), pt(run.size()), pb(run.size());
        int64_t lo = edges[band], hi = edges[band + 1];
        for (size_t j = run.size(); j-- > 0;) {
            a[j] = lo;
            b[j] = hi;
            const Rows &r = rows[j];
            if (r.windowed) {
                const int64_t from = lo * r.s - r.top, to = (hi - 1) * r.s - r.top + (r.k - 1) * r.d + 1;
                pt[j] = std::max<int64_t>(0, -from);
                pb[j] = std::max<int64_t>(0, to - r.h_in);
                lo = std::max<int64_t>(from, 0);
                hi = std::min<int64_t>(to, r.h_in);
            }
        }
        // Forwards: SLICE the run input's rows [lo, hi), then PAD + copy per operator.
        const tfl::Tensor xin = B.t(run_in);  // a copy: adding tensors moves the vector
        std::vector<int32_t> box = xin.shape;
        box[1] = (int32_t)(hi - lo);
        int32_t cur = B.tensor(xin.name + tag, xin, box);
        ops.push_back(B.make(tfl::kSlice, 2,
                             {run_in, B.const_i32(xin.name + tag + "/begin", {0, (int32_t)lo, 0, 0}, {4}),
                              B.const_i32(xin.name + tag + "/size", box, {4})},
                             {cur}));
        for (size_t j = 0; j < run.size(); ++j) {
            const tfl::Operator &op = run[j];
            const Rows &r = rows[j];
            if (r.windowed && (pt[j] || pb[j] || r.left || r.right)) {
                const tfl::Tensor c = B.t(cur);
                std::vector<int32_t> shape = c.shape;
                shape[1] += (int32_t)(pt[j] + pb[j]);
                shape[2] += (int32_t)(r.left + r.right);
                const std::string name = B.t(op.outputs[0]).name + tag + "/pad";
                const int32_t padded = B.tensor(name, c, shape);
                const int32_t amounts = B.const_i32(name + "/amounts",
                                                    {0, 0, (int32_t)pt[j], (int32_t)pb[j], (int32_t)r.left,
                                                     (int32_t)r.right, 0, 0},
                                                    {4, 2});
                if (r.max_pool)  // the lowest int8 value never wins a max
                    ops.push_back(B.make(tfl::kPadV2, 2, {cur, amounts, B.const_i8(name + "/fill", -128, c)}, {padded}));
                else  // the zero point: a padded tap adds (zp - zp) * w = 0, as TFLite's skipped taps
                    ops.push_back(B.make(tfl::kPad, 2, {cur, amounts}, {padded}));
                cur = padded;
            }
            const bool is_last = j + 1 == run.size();
            const tfl::Tensor y = B.t(op.outputs[0]);
            std::vector<int32_t> shape = y.shape;
            shape[1] = (int32_t)(b[j] - a[j]);
            const int32_t out = B.tensor(y.name + tag, y, shape);
            tfl::Operator copy = op;  // same weights, bias and options...
            copy.inputs[0] = cur;
            copy.outputs = {out};
            if (r.windowed) {  // ...but VALID: the padding is in the band now
                copy.options.padding = 1;
                if (copy.has_option_table) set_option_field(copy, 0, 1, 1);
            }
            ops.push_back(copy);
            cur = out;
            if (is_last) band_outputs.push_back(out);
        }
    }
    tfl::Operator cat = B.make(tfl::kConcatenation, 2, band_outputs, {run_out});
    cat.options.axis = 1;
    ops.push_back(cat);

    // New operators get option tables derived from their options; copies keep theirs.
    for (tfl::Operator &o : ops)
        if (!o.has_option_table) {
            const int32_t builtin = B.m.operator_codes.at(o.opcode_index).builtin;
            if (builtin == tfl::kSlice || builtin == tfl::kPad || builtin == tfl::kPadV2 || builtin == tfl::kConcatenation)
                derive_option_table(o, builtin);
        }
    sg.operators.erase(sg.operators.begin() + (long)first, sg.operators.begin() + (long)last + 1);
    sg.operators.insert(sg.operators.begin() + (long)first, ops.begin(), ops.end());
    return std::move(B.m);
}

tfl::Model band_by_hand(const tfl::Model &src, size_t first, size_t last, int bands) {
    const auto &sg = src.subgraphs.at(0);
    if (last >= sg.operators.size()) cannot("operator range out of the model");
    const int32_t h = sg.tensors.at((size_t)sg.operators[last].outputs.at(0)).shape.at(1);
    if (bands < 1 || bands > h) cannot(std::to_string(bands) + " bands of " + std::to_string(h) + " rows");
    std::vector<int32_t> cuts;
    int32_t at = 0;
    for (int i = 0; i + 1 < bands; ++i) {
        at += h / bands + (i < h % bands ? 1 : 0);
        cuts.push_back(at);
    }
    return band_by_hand(src, first, last, cuts);
}

}  // namespace tigris_test
