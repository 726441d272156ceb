// band_rewrite.cpp - computes one run of operators in horizontal row bands:
// per band, SLICE the rows each operator reads (with the overlap its kernel
// needs), PAD / PADV2 the padding the original applied at the band's edges,
// run copies of the operators with VALID padding (sharing the original
// weights and quantization), and CONCATENATE the band outputs into the
// original output tensor. Orphaned tensors are dropped and the rest
// renumbered (TFLM would still plan an unused tensor; tflm-arena.md s. 2).
#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#include "rewrite.hpp"
#include "run_geometry.hpp"

namespace tigris::exporter::detail {

namespace tfl = tigris::tflite;

namespace {

struct Rows {
    int32_t lo = 0, hi = 0;  // [lo, hi)
    bool set = false;
    void merge(int32_t a, int32_t b) {
        if (!set) { lo = a; hi = b; set = true; return; }
        lo = std::min(lo, a);
        hi = std::max(hi, b);
    }
};

// Input rows an operator needs for output rows [lo, hi): clipped to the
// input, with the rows of padding the clip removed at each end.
struct Need {
    int32_t a, b, pad_top, pad_bottom;
};
Need rows_needed(const Node &n, int32_t lo, int32_t hi, int32_t h_in) {
    int64_t raw_a = lo, raw_b = hi;
    if (n.kind == Node::kSpatial) {
        raw_a = int64_t{lo} * n.stride - n.pt;
        raw_b = int64_t{hi - 1} * n.stride - n.pt + n.eff;
    } else if (n.kind == Node::kPad) {
        raw_a = lo - n.pt;
        raw_b = hi - n.pt;
    }
    const int64_t a = std::max<int64_t>(0, raw_a), b = std::min<int64_t>(h_in, raw_b);
    return {static_cast<int32_t>(a), static_cast<int32_t>(b), static_cast<int32_t>(a - raw_a),
            static_cast<int32_t>(raw_b - b)};
}

bool same_quant(const tfl::Quantization &x, const tfl::Quantization &y) {
    return x.scale == y.scale && x.zero_point == y.zero_point && x.quantized_dimension == y.quantized_dimension;
}

class Builder {
public:
    Builder(const tfl::Model &m, const BandPlan &plan) : src_(m), plan_(plan), out_(m) {
        sg_ = &out_.subgraphs[0];
        n_orig_ = sg_->tensors.size();
        // Room for every band tensor and constant, so the table is not
        // moved while the rewrite grows it (a band adds at most a slice, a
        // pad and an output per operator, plus their constants).
        const size_t run_ops = plan.run.last >= plan.run.first ? plan.run.last - plan.run.first + 1 : 0;
        sg_->tensors.reserve(n_orig_ + static_cast<size_t>(plan.bands) * (6 * run_ops + 4) + 8);
        emitted_.reserve(static_cast<size_t>(plan.bands) * 4 * run_ops + 1);
    }

    std::optional<Rewrite> run() {
        if (!make_nodes()) return std::nullopt;
        const int32_t out_t = nodes_.back().out;
        const int32_t h = tensor(out_t).shape[1];
        if (plan_.bands < 2 || plan_.bands > 10 || plan_.bands > h) return std::nullopt;
        std::vector<int32_t> band_outputs;
        for (int k = 0; k < plan_.bands; ++k) {
            const int32_t lo = static_cast<int32_t>(int64_t{h} * k / plan_.bands);
            const int32_t hi = static_cast<int32_t>(int64_t{h} * (k + 1) / plan_.bands);
            auto t = emit_band(k, lo, hi);
            if (!t) return std::nullopt;
            band_outputs.push_back(*t);
        }
        tfl::Operator concat;
        concat.opcode_index = opcode(tfl::kConcatenation);
        concat.inputs = band_outputs;
        concat.outputs = {out_t};
        concat.options.union_type = 10;
        concat.options.axis = 1;
        concat.has_option_table = true;
        concat.option_fields = {{0, tfl::OptionField::kScalar, 4, 1, {}}, {1, tfl::OptionField::kScalar, 1, 0, {}}};
        emitted_.push_back(std::move(concat));
        return finish();
    }

private:
    const tfl::Tensor &tensor(int32_t t) const { return sg_->tensors[static_cast<size_t>(t)]; }

    bool make_nodes() {
        for (size_t i = plan_.run.first; i <= plan_.run.last; ++i) {
            auto n = node_for(src_, i);
            if (!n) return false;
            nodes_.push_back(*n);
        }
        if (plan_.fold) fold_pads();
        return true;
    }

    // A PAD whose output only a VALID convolution reads, with exactly the
    // amounts SAME padding would add for that convolution and the input's
    // zero point as fill, becomes that convolution's implicit padding.
    void fold_pads() {
        const auto &sg = src_.subgraphs[0];
        for (size_t i = 0; i + 1 < nodes_.size(); ++i) {
            Node &p = nodes_[i];
            if (p.kind != Node::kPad || p.folded || p.pads[6] || p.pads[7]) continue;
            size_t readers = 0, ci = 0;
            for (size_t j = 0; j < nodes_.size(); ++j)
                for (int32_t t : sg.operators[nodes_[j].op].inputs)
                    if (t == p.out) ++readers, ci = j;
            if (readers != 1) continue;
            Node &c = nodes_[ci];
            if (c.kind != Node::kSpatial || (c.code != tfl::kConv2D && c.code != tfl::kDepthwiseConv2D)) continue;
            if (c.in != p.out || c.pt || c.pb || c.pl || c.pr) continue;
            const tfl::Tensor &pin = tensor(p.in), &pout = tensor(p.out);
            if (!same_quant(pin.quant, pout.quant) || pout.quant.zero_point.size() != 1) continue;
            if (p.code == tfl::kPadV2) {
                const tfl::Operator &op = sg.operators[p.op];
                const auto &v = src_.buffers[tensor(op.inputs[2]).buffer].data;
                if (v.size() != 1 || static_cast<int8_t>(v[0]) != pout.quant.zero_point[0]) continue;
            }
            const tfl::Operator &cop = sg.operators[c.op];
            const auto &o = cop.options;
            const auto &f = tensor(cop.inputs[1]).shape;
            const int32_t eff_h = (f[1] - 1) * o.dilation_h + 1, eff_w = (f[2] - 1) * o.dilation_w + 1;
            auto same = [](int32_t in, int32_t s, int32_t eff, int32_t &b, int32_t &a) {
                const int32_t out = (in + s - 1) / s;
                const int32_t total = std::max(0, (out - 1) * s + eff - in);
                b = total / 2;
                a = total - total / 2;
            };
            int32_t t, bo, l, r;
            same(pin.shape[1], o.stride_h, eff_h, t, bo);
            same(pin.shape[2], o.stride_w, eff_w, l, r);
            if (t != p.pt || bo != p.pb || l != p.pl || r != p.pr) continue;
            c.in = p.in;
            c.pt = t, c.pb = bo, c.pl = l, c.pr = r;
            p.folded = true;
            ++folds_;
        }
    }

    uint32_t opcode(int32_t builtin) {
        for (size_t i = 0; i < out_.operator_codes.size(); ++i)
            if (out_.operator_codes[i].builtin == builtin && out_.operator_codes[i].custom_name.empty())
                return static_cast<uint32_t>(i);
        // Version 2 is the int8 version of SLICE, PAD, PADV2 and CONCATENATION
        // (TFLM ignores versions when looking up kernels).
        out_.operator_codes.push_back({builtin, "", 2});
        return static_cast<uint32_t>(out_.operator_codes.size() - 1);
    }

    int32_t add_tensor(tfl::Tensor t) {
        sg_->tensors.push_back(std::move(t));
        return static_cast<int32_t>(sg_->tensors.size() - 1);
    }

    // Band tensors are named after the index of the tensor they split, which
    // keeps its place (and its full name) in the written tensor table. TFLite
    // names are often 150+ characters; repeating one per band and per slice
    // was most of what an export added to the file (docs/export.md).
    static std::string band_name(int32_t original, int k) {
        std::string name = "export/t";  // piece by piece: GCC bug 105329, see constant()
        name += std::to_string(original);
        name += "/band";
        name += std::to_string(k);
        return name;
    }

    static std::string rows_name(int32_t original, int k, int32_t a, int32_t b) {
        std::string name = band_name(original, k);
        name += "/rows";
        name += std::to_string(a);
        name += '_';
        name += std::to_string(b);
        return name;
    }

    // An image tensor like `like` (type and quantization) with `rows` rows.
    int32_t band_tensor(const tfl::Tensor &like, const std::string &name, int32_t rows, int32_t w, int32_t c) {
        tfl::Tensor t;
        t.name = name;
        t.type = like.type;
        t.shape = {1, rows, w, c};
        t.quant = like.quant;
        return add_tensor(std::move(t));
    }

    // A constant tensor, shared between bands when the bytes are the same.
    int32_t constant(tfl::TensorType type, std::vector<int32_t> shape, std::vector<uint8_t> bytes,
                     const std::string &name, const tfl::Quantization *quant = nullptr) {
        std::string key(reinterpret_cast<const char *>(bytes.data()), bytes.size());
        key += static_cast<char>(type);
        // Piece by piece, not `"," + std::to_string(d)`: GCC 12 at -O3 reports a
        // false -Wrestrict on the temporary (GCC bug 105329).
        for (int32_t d : shape) {
            key += ',';
            key += std::to_string(d);
        }
        if (quant && !quant->scale.empty()) {
            key += 'q';
            key += std::to_string(quant->scale[0]);
            key += '/';
            key += std::to_string(quant->zero_point[0]);
        }
        if (auto it = consts_.find(key); it != consts_.end()) return it->second;
        auto owned = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
        tfl::Buffer b;
        b.owned = owned;
        b.data = *owned;
        out_.buffers.push_back(std::move(b));
        tfl::Tensor t;
        t.name = name;
        t.type = type;
        t.shape = std::move(shape);
        t.buffer = static_cast<uint32_t>(out_.buffers.size() - 1);
        if (quant) t.quant = *quant;
        const int32_t idx = add_tensor(std::move(t));
        consts_.emplace(std::move(key), idx);
        return idx;
    }

    int32_t int32_const(const std::vector<int32_t> &v, std::vector<int32_t> shape, const std::string &name) {
        std::vector<uint8_t> bytes(v.size() * 4);
        std::memcpy(bytes.data(), v.data(), bytes.size());
        return constant(tfl::TensorType::Int32, std::move(shape), std::move(bytes), name);
    }

    // Rows [a, b) of tensor `t` for band k: the band's own tensor, or a SLICE
    // of it (or of a tensor from before the run) when it holds more rows.
    int32_t view(int k, int32_t t, int32_t a, int32_t b) {
        int32_t src = t, src_lo = 0, src_hi = tensor(t).shape[1];
        if (auto it = band_.find(t); it != band_.end()) src = it->second.idx, src_lo = it->second.lo, src_hi = it->second.hi;
        if (a == src_lo && b == src_hi) return src;
        const auto key = std::make_tuple(src, a, b);
        if (auto it = slices_.find(key); it != slices_.end()) return it->second;
        const int32_t w = tensor(src).shape[2], c = tensor(src).shape[3];
        const int32_t begin = int32_const({0, a - src_lo, 0, 0}, {4}, "export/slice_begin");
        const int32_t size = int32_const({1, b - a, w, c}, {4}, "export/slice_size");
        const tfl::Tensor like = tensor(src);
        const int32_t o = band_tensor(like, rows_name(t, k, a, b), b - a, w, c);
        tfl::Operator op;
        op.opcode_index = opcode(tfl::kSlice);
        op.inputs = {src, begin, size};
        op.outputs = {o};
        op.options.union_type = 48;
        op.has_option_table = true;
        emitted_.push_back(std::move(op));
        slices_.emplace(key, o);
        return o;
    }

    // PAD (or PADV2 with the int8 minimum in front of a max pool, which then
    // never wins) that adds `pads` (N, H, W, C pairs) to `in`.
    // `quant_of` is taken by value: adding tensors moves the tensor table.
    int32_t pad(int32_t in, const std::array<int32_t, 8> &pads, bool for_max_pool, tfl::Tensor quant_of) {
        const tfl::Tensor x = tensor(in);
        const int32_t o = band_tensor(quant_of, x.name + "/pad", x.shape[1] + pads[2] + pads[3],
                                      x.shape[2] + pads[4] + pads[5], x.shape[3] + pads[6] + pads[7]);
        tfl::Operator op;
        const int32_t amounts = int32_const(std::vector<int32_t>(pads.begin(), pads.end()), {4, 2}, "export/paddings");
        if (for_max_pool) {
            tfl::Quantization q = quant_of.quant;
            q.min.clear();
            q.max.clear();
            const int32_t lowest = constant(tfl::TensorType::Int8, {1}, {0x80}, "export/pad_value", &q);
            op.opcode_index = opcode(tfl::kPadV2);
            op.inputs = {in, amounts, lowest};
            op.options.union_type = 43;
        } else {
            op.opcode_index = opcode(tfl::kPad);
            op.inputs = {in, amounts};
            op.options.union_type = 22;
        }
        op.outputs = {o};
        op.has_option_table = true;
        emitted_.push_back(std::move(op));
        return o;
    }

    static void set_valid(tfl::Operator &op) {
        op.options.padding = 1;
        for (tfl::OptionField &f : op.option_fields)
            if (f.id == 0) { f.bits = 1; return; }
        op.option_fields.insert(op.option_fields.begin(), tfl::OptionField{0, tfl::OptionField::kScalar, 1, 1, {}});
        op.has_option_table = true;
    }

    struct BandTensor {
        int32_t idx, lo, hi;
    };

    std::optional<int32_t> emit_band(int k, int32_t lo, int32_t hi) {
        band_.clear();
        slices_.clear();
        const auto &sg = src_.subgraphs[0];
        // Rows each tensor must hold in this band: the hull over its readers.
        std::map<int32_t, Rows> need;
        need[nodes_.back().out].merge(lo, hi);
        for (size_t i = nodes_.size(); i-- > 0;) {
            const Node &n = nodes_[i];
            if (n.folded) continue;
            auto it = need.find(n.out);
            if (it == need.end()) return std::nullopt;
            for (int32_t t : row_inputs(n)) {
                const Need nd = rows_needed(n, it->second.lo, it->second.hi, tensor(t).shape[1]);
                if (nd.b <= nd.a) return std::nullopt;  // a band that reads no input row
                need[t].merge(nd.a, nd.b);
            }
        }
        for (const Node &n : nodes_) {
            if (n.folded) continue;
            const Rows r = need[n.out];
            const tfl::Operator &orig = sg.operators[n.op];
            tfl::Operator op = orig;
            std::optional<int32_t> alias;
            for (size_t j = 0; j < orig.inputs.size(); ++j) {
                const int32_t t = j == 0 ? n.in : orig.inputs[j];
                if (!carries_rows(n, j, t)) continue;
                const Need nd = rows_needed(n, r.lo, r.hi, tensor(t).shape[1]);
                int32_t v = view(k, t, nd.a, nd.b);
                if (n.kind == Node::kSpatial && (nd.pad_top || nd.pad_bottom || n.pl || n.pr))
                    v = pad(v, {0, 0, nd.pad_top, nd.pad_bottom, n.pl, n.pr, 0, 0}, n.max_pool, tensor(t));
                if (n.kind == Node::kPad) {
                    std::array<int32_t, 8> p = n.pads;
                    p[2] = nd.pad_top;
                    p[3] = nd.pad_bottom;
                    const bool none = std::all_of(p.begin(), p.end(), [](int32_t x) { return x == 0; });
                    if (none && same_quant(tensor(v).quant, tensor(n.out).quant)) alias = v;
                    op.inputs[1] = int32_const(std::vector<int32_t>(p.begin(), p.end()), {4, 2}, "export/paddings");
                }
                op.inputs[j] = v;
            }
            if (n.kind == Node::kSpatial) set_valid(op);
            if (alias) {
                band_[n.out] = {*alias, r.lo, r.hi};
                continue;
            }
            const tfl::Tensor ot = tensor(n.out);
            const int32_t o = band_tensor(ot, band_name(n.out, k), r.hi - r.lo, ot.shape[2], ot.shape[3]);
            op.outputs = {o};
            emitted_.push_back(std::move(op));
            band_[n.out] = {o, r.lo, r.hi};
        }
        const BandTensor &last = band_.at(nodes_.back().out);
        if (last.lo != lo || last.hi != hi) return std::nullopt;
        return last.idx;
    }

    // Inputs whose rows follow the band (the rest, weights and broadcast
    // operands, are used whole).
    bool carries_rows(const Node &n, size_t j, int32_t t) const {
        if (t < 0) return false;
        if (n.kind != Node::kBinary) return j == 0;
        return tensor(t).shape == tensor(n.out).shape;
    }
    std::vector<int32_t> row_inputs(const Node &n) const {
        std::vector<int32_t> v;
        const auto &op = src_.subgraphs[0].operators[n.op];
        for (size_t j = 0; j < op.inputs.size(); ++j) {
            const int32_t t = j == 0 ? n.in : op.inputs[j];
            if (carries_rows(n, j, t)) v.push_back(t);
        }
        return v;
    }

    std::optional<Rewrite> finish() {
        tfl::SubGraph &sg = *sg_;
        const auto &orig_ops = src_.subgraphs[0].operators;
        std::vector<tfl::Operator> ops;
        ops.reserve(orig_ops.size() + emitted_.size());
        ops.insert(ops.end(), orig_ops.begin(), orig_ops.begin() + static_cast<long>(plan_.run.first));
        for (auto &op : emitted_) ops.push_back(std::move(op));
        ops.insert(ops.end(), orig_ops.begin() + static_cast<long>(plan_.run.last + 1), orig_ops.end());
        sg.operators = std::move(ops);

        // Drop the tensors the rewrite orphaned (originally referenced by an
        // operator, now referenced by nothing); keep everything else in order.
        const size_t nt = sg.tensors.size();
        std::vector<bool> used(nt, false), was_used(nt, false);
        auto mark = [](std::vector<bool> &v, int32_t t) { if (t >= 0) v[static_cast<size_t>(t)] = true; };
        for (const auto &op : orig_ops) {
            for (int32_t t : op.inputs) mark(was_used, t);
            for (int32_t t : op.outputs) mark(was_used, t);
        }
        for (const auto &op : sg.operators) {
            for (int32_t t : op.inputs) mark(used, t);
            for (int32_t t : op.outputs) mark(used, t);
            for (int32_t t : op.intermediates) mark(used, t);
        }
        for (int32_t t : sg.inputs) mark(used, t);
        for (int32_t t : sg.outputs) mark(used, t);
        for (const auto &s : out_.signature_defs)
            for (const auto *side : {&s.inputs, &s.outputs})
                for (const auto &x : *side) mark(used, static_cast<int32_t>(x.tensor_index));
        std::vector<int32_t> remap(nt, -1);
        std::vector<tfl::Tensor> kept;
        kept.reserve(nt);
        for (size_t t = 0; t < nt; ++t) {
            if (t < n_orig_ && was_used[t] && !used[t]) continue;
            remap[t] = static_cast<int32_t>(kept.size());
            kept.push_back(std::move(sg.tensors[t]));
        }
        sg.tensors = std::move(kept);
        auto re = [&remap](int32_t &t) { if (t >= 0) t = remap[static_cast<size_t>(t)]; };
        for (auto &op : sg.operators) {
            for (int32_t &t : op.inputs) re(t);
            for (int32_t &t : op.outputs) re(t);
            for (int32_t &t : op.intermediates) re(t);
        }
        for (int32_t &t : sg.inputs) re(t);
        for (int32_t &t : sg.outputs) re(t);
        for (auto &s : out_.signature_defs)
            for (auto *side : {&s.inputs, &s.outputs})
                for (auto &x : *side) x.tensor_index = static_cast<uint32_t>(remap[x.tensor_index]);
        // An offline memory plan would name tensors by their old numbers;
        // export refuses such models before this point.
        Rewrite r;
        r.model = std::move(out_);
        r.folds = folds_;
        return r;
    }

    const tfl::Model &src_;
    BandPlan plan_;
    tfl::Model out_;
    tfl::SubGraph *sg_ = nullptr;
    size_t n_orig_ = 0;
    std::vector<Node> nodes_;
    std::vector<tfl::Operator> emitted_;
    std::map<std::string, int32_t> consts_;
    std::map<int32_t, BandTensor> band_;
    std::map<std::tuple<int32_t, int32_t, int32_t>, int32_t> slices_;
    int folds_ = 0;
};

}  // namespace

std::optional<Rewrite> band_rewrite(const tfl::Model &m, const BandPlan &plan) {
    if (m.subgraphs.size() != 1 || plan.run.last >= m.subgraphs[0].operators.size() || plan.run.first > plan.run.last)
        return std::nullopt;
    return Builder(m, plan).run();
}

}  // namespace tigris::exporter::detail
