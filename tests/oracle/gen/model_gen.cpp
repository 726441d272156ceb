// model_gen.cpp - see model_gen.hpp. Each generator draws shapes, options
// and quantisation the way a converter could have produced them (what TFLite
// Micro's Prepare accepts), so a refusal by `tigris import` or a difference
// in bytes is ours to explain.
#include "model_gen.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "tigris_export/model_builder.hpp"

namespace tigris::oracle {

namespace {

namespace tfl = tigris::tflite;
namespace op = exporter::op;
namespace opt = exporter::opt;
using exporter::ModelBuilder;
using exporter::Quant;

using TT = tfl::TensorType;
using Shape = std::vector<int32_t>;

// splitmix64: a fixed, documented generator, identical everywhere.
class Rng {
public:
    explicit Rng(uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
    uint64_t next() {
        uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int32_t in(int32_t lo, int32_t hi) {  // [lo, hi]
        return lo + static_cast<int32_t>(next() % static_cast<uint64_t>(hi - lo + 1));
    }
    double unit() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
    float real(float lo, float hi) { return lo + static_cast<float>(unit()) * (hi - lo); }
    float log_real(float lo, float hi) { return lo * std::pow(hi / lo, static_cast<float>(unit())); }
    bool coin(double p = 0.5) { return unit() < p; }
    template <class T> const T &pick(const std::vector<T> &v) { return v[next() % v.size()]; }

private:
    uint64_t s_;
};

int64_t elements(const Shape &s) {
    int64_t n = 1;
    for (int32_t d : s) n *= d;
    return n;
}

std::string shape_str(const Shape &s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) out += (i ? "x" : "") + std::to_string(s[i]);
    return out.empty() ? "scalar" : out;
}

// Generation state of one case.
struct Gen {
    Gen(DType d, uint64_t seed) : dt(d), r(seed) {}
    DType dt;
    Rng r;
    ModelBuilder b;
    bool positive = false;  // inputs (and constants) strictly above zero: LOG, SQRT, RSQRT, divisors
    std::ostringstream what;
    std::vector<int32_t> inputs;

    bool q() const { return dt == DType::Int8; }
    Quant act_quant() { return Quant::per_tensor(r.log_real(0.004f, 0.2f), r.in(-60, 60)); }
    // An activation tensor: int8 with `qn` (a fresh random one when empty), or float32.
    int32_t act(const Shape &s, Quant qn = {}) {
        if (!q()) return b.tensor(TT::Float32, s);
        if (qn.scale.empty()) qn = act_quant();
        return b.tensor(TT::Int8, s, qn);
    }
    int32_t input(const Shape &s, Quant qn = {}) {
        int32_t id = act(s, std::move(qn));
        inputs.push_back(id);
        return id;
    }
    Quant quant_of(int32_t id) const {
        const tfl::Tensor &x = b.t(id);
        Quant out;
        out.scale = x.quant.scale;
        out.zero_point = x.quant.zero_point;
        return out;
    }
    float scale_of(int32_t id) const { return b.t(id).quant.scale.empty() ? 1.0f : b.t(id).quant.scale[0]; }
    const Shape &shape(int32_t id) const { return b.t(id).shape; }

    Shape nhwc(int32_t max_hw = 10, int32_t max_c = 8) {
        return {1, r.in(1, max_hw), r.in(1, max_hw), r.in(1, max_c)};
    }
    Shape any_rank(int32_t lo, int32_t hi, int32_t max_dim = 6) {
        Shape s(static_cast<size_t>(r.in(lo, hi)));
        for (int32_t &d : s) d = r.in(1, max_dim);
        return s;
    }
    int8_t fused() { return static_cast<int8_t>(r.pick(std::vector<int>{0, 0, 1, 2, 3})); }
};

// Output size of a window along one axis (TFLite's SAME and VALID).
int32_t window_out(int32_t in, int32_t k, int32_t stride, int32_t dil, bool same) {
    if (same) return (in + stride - 1) / stride;
    const int32_t eff = (k - 1) * dil + 1;
    return in < eff ? 0 : (in - eff) / stride + 1;
}

// Window geometry with at least one output on each axis.
struct Window {
    int32_t kh, kw, sh, sw, dh = 1, dw = 1;
    bool same;
    int32_t oh, ow;
};
Window draw_window(Gen &g, int32_t h, int32_t w, bool dilate) {
    for (;;) {
        Window x{};
        x.kh = g.r.in(1, 4);
        x.kw = g.r.in(1, 4);
        x.sh = g.r.in(1, 3);
        x.sw = g.r.coin(0.7) ? x.sh : g.r.in(1, 3);
        if (dilate && g.r.coin(0.25)) {
            x.dh = g.r.in(1, 2);
            x.dw = g.r.in(1, 2);
        }
        x.same = g.r.coin();
        x.oh = window_out(h, x.kh, x.sh, x.dh, x.same);
        x.ow = window_out(w, x.kw, x.sw, x.dw, x.same);
        if (x.oh > 0 && x.ow > 0) return x;
    }
}

// Weights and bias of a conv-like op with `n_out` output channels and
// `fan_in` products per output: int8 (per-channel along `dim` or per-tensor)
// with an int32 bias at scale in_scale * w_scale, or float32.
struct Weights {
    int32_t filter, bias;
    float out_scale;  // a scale that keeps outputs mostly inside int8
};
Weights draw_weights(Gen &g, const Shape &fshape, int32_t dim, int32_t n_out, int32_t fan_in, int32_t in_id,
                     bool per_channel, bool with_bias = true) {
    const int64_t n = elements(fshape);
    Weights w{};
    if (!g.q()) {
        std::vector<float> v(static_cast<size_t>(n)), bv(static_cast<size_t>(n_out));
        for (float &x : v) x = g.r.real(-1.0f, 1.0f);
        for (float &x : bv) x = g.r.real(-0.5f, 0.5f);
        w.filter = g.b.const_f32(fshape, v);
        w.bias = with_bias ? g.b.const_f32({n_out}, bv) : -1;
        return w;
    }
    std::vector<int8_t> v(static_cast<size_t>(n));
    for (int8_t &x : v) x = static_cast<int8_t>(g.r.in(-127, 127));
    Quant wq;
    wq.dim = dim;
    const int32_t n_scales = per_channel ? n_out : 1;
    for (int32_t c = 0; c < n_scales; ++c) {
        wq.scale.push_back(g.r.log_real(0.002f, 0.05f));
        wq.zero_point.push_back(0);
    }
    const float in_scale = g.scale_of(in_id);
    w.filter = g.b.const_i8(fshape, v, wq);
    if (with_bias) {
        std::vector<int32_t> bv(static_cast<size_t>(n_out));
        Quant bq;
        for (int32_t c = 0; c < n_out; ++c) {
            bv[static_cast<size_t>(c)] = g.r.in(-3000, 3000);
            bq.scale.push_back(in_scale * wq.scale[static_cast<size_t>(per_channel ? c : 0)]);
            bq.zero_point.push_back(0);
        }
        w.bias = g.b.const_i32({n_out}, bv, bq);
    } else {
        w.bias = -1;
    }
    float mean_w = 0.0f;
    for (float s : wq.scale) mean_w += s;
    mean_w /= static_cast<float>(wq.scale.size());
    const float spread = 60.0f * in_scale * 60.0f * mean_w * std::sqrt(static_cast<float>(fan_in));
    w.out_scale = std::max(spread * 3.0f / 127.0f * g.r.log_real(0.5f, 2.0f), 1e-5f);
    return w;
}

void conv2d(Gen &g) {
    const Shape in = g.nhwc();
    const int32_t x = g.input(in);
    const Window w = draw_window(g, in[1], in[2], true);
    const int32_t cout = g.r.in(1, 8);
    const bool per_channel = g.r.coin(0.8);
    Weights wt = draw_weights(g, {cout, w.kh, w.kw, in[3]}, 0, cout, w.kh * w.kw * in[3], x, per_channel);
    const int32_t y = g.act({1, w.oh, w.ow, cout}, Quant::per_tensor(wt.out_scale, g.r.in(-30, 30)));
    const int8_t act = g.fused();
    g.b.op(op::kConv2D, {x, wt.filter, wt.bias}, {y}, opt::kConv2D);
    g.b.opt_i8(0, w.same ? 0 : 1);
    g.b.opt_i32(1, w.sw);
    g.b.opt_i32(2, w.sh);
    g.b.opt_i8(3, act);
    g.b.opt_i32(4, w.dw);
    g.b.opt_i32(5, w.dh);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " k" << w.kh << "x" << w.kw << " s" << w.sh << "," << w.sw << " d" << w.dh << ","
           << w.dw << (w.same ? " SAME" : " VALID") << " cout " << cout << " act " << int(act)
           << (per_channel ? " per-channel" : " per-tensor");
}

void depthwise(Gen &g) {
    const Shape in = g.nhwc();
    const int32_t x = g.input(in);
    const Window w = draw_window(g, in[1], in[2], true);
    const int32_t mult = g.r.coin(0.75) ? 1 : 2;
    const int32_t cout = in[3] * mult;
    Weights wt = draw_weights(g, {1, w.kh, w.kw, cout}, 3, cout, w.kh * w.kw, x, g.r.coin(0.8));
    const int32_t y = g.act({1, w.oh, w.ow, cout}, Quant::per_tensor(wt.out_scale, g.r.in(-30, 30)));
    const int8_t act = g.fused();
    g.b.op(op::kDepthwiseConv2D, {x, wt.filter, wt.bias}, {y}, opt::kDepthwise);
    g.b.opt_i8(0, w.same ? 0 : 1);
    g.b.opt_i32(1, w.sw);
    g.b.opt_i32(2, w.sh);
    g.b.opt_i32(3, mult);
    g.b.opt_i8(4, act);
    g.b.opt_i32(5, w.dw);
    g.b.opt_i32(6, w.dh);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " k" << w.kh << "x" << w.kw << " s" << w.sh << "," << w.sw << " d" << w.dh << ","
           << w.dw << (w.same ? " SAME" : " VALID") << " mult " << mult << " act " << int(act);
}

void fully_connected(Gen &g) {
    const int32_t batch = g.r.coin(0.7) ? 1 : g.r.in(2, 3);
    const int32_t depth = g.r.in(1, 40);
    const int32_t units = g.r.in(1, 16);
    const Shape in = {batch, depth};
    const int32_t x = g.input(in);
    Weights wt = draw_weights(g, {units, depth}, 0, units, depth, x, false, g.r.coin(0.8));
    const int32_t y = g.act({batch, units}, Quant::per_tensor(wt.out_scale, g.r.in(-30, 30)));
    const int8_t act = g.fused();
    g.b.op(op::kFullyConnected, {x, wt.filter, wt.bias}, {y}, opt::kFullyConnected);
    g.b.opt_i8(0, act);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " units " << units << (wt.bias < 0 ? " no bias" : "") << " act " << int(act);
}

void pool(Gen &g, int32_t builtin) {
    const Shape in = g.nhwc();
    const int32_t x = g.input(in);
    const Window w = draw_window(g, in[1], in[2], false);
    const int32_t y = g.act({1, w.oh, w.ow, in[3]}, g.quant_of(x));  // TFLite pools keep the encoding
    g.b.op(builtin, {x}, {y}, opt::kPool2D);
    g.b.opt_i8(0, w.same ? 0 : 1);
    g.b.opt_i32(1, w.sw);
    g.b.opt_i32(2, w.sh);
    g.b.opt_i32(3, w.kw);
    g.b.opt_i32(4, w.kh);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " k" << w.kh << "x" << w.kw << " s" << w.sh << "," << w.sw
           << (w.same ? " SAME" : " VALID");
}

void global_average(Gen &g) {
    const Shape in = g.nhwc(12, 8);
    const int32_t x = g.input(in);
    const int32_t y = g.act({1, 1, 1, in[3]}, g.quant_of(x));
    g.b.op(op::kAveragePool2D, {x}, {y}, opt::kPool2D);
    g.b.opt_i8(0, 1);
    g.b.opt_i32(1, 1);
    g.b.opt_i32(2, 1);
    g.b.opt_i32(3, in[2]);
    g.b.opt_i32(4, in[1]);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " global";
}

// A second operand shape that broadcasts against `full`: each axis is kept
// or made 1, and leading axes may be dropped.
Shape broadcast_of(Gen &g, const Shape &full) {
    Shape s = full;
    for (int32_t &d : s)
        if (g.r.coin(0.4)) d = 1;
    const int32_t drop = g.r.coin(0.3) ? g.r.in(0, static_cast<int32_t>(s.size()) - 1) : 0;
    s.erase(s.begin(), s.begin() + drop);
    return s;
}

void binary(Gen &g, int32_t builtin, uint8_t options, bool same_quant) {
    const Shape full = g.any_rank(1, 5, 6);
    Shape a = full, c = g.r.coin(0.6) ? broadcast_of(g, full) : full;
    if (g.r.coin(0.2)) std::swap(a, c);
    const int32_t x = g.input(a);
    const bool constant = g.r.coin(0.2);
    int32_t y;
    Quant qy = same_quant ? g.quant_of(x) : Quant{};
    if (constant && g.q()) {
        const Quant qc = same_quant ? g.quant_of(x) : g.act_quant();
        const int32_t lo = g.positive ? static_cast<int32_t>(qc.zero_point[0]) + 1 : -128;
        std::vector<int8_t> v(static_cast<size_t>(elements(c)));
        for (int8_t &e : v) e = static_cast<int8_t>(g.r.in(lo, 127));
        y = g.b.const_i8(c, v, qc);
    } else if (constant) {
        std::vector<float> v(static_cast<size_t>(elements(c)));
        for (float &e : v) e = g.positive ? g.r.real(0.05f, 4.0f) : g.r.real(-2.0f, 2.0f);
        y = g.b.const_f32(c, v);
    } else {
        y = g.input(c, qy);
    }
    Shape out = full;
    const int32_t z = g.act(out, same_quant ? g.quant_of(x) : Quant{});
    // Only ADD, SUB, MUL and DIV have a fused activation (field 0 of their options).
    const bool has_act = options == opt::kAdd || options == opt::kSub || options == opt::kMul || options == opt::kDiv;
    const int8_t act = has_act ? g.fused() : 0;
    g.b.op(builtin, {x, y}, {z}, options);
    if (has_act) g.b.opt_i8(0, act);
    g.b.io(g.inputs, {z});
    g.what << shape_str(a) << " with " << shape_str(c) << (constant ? " (constant)" : "") << " act " << int(act);
}

void concatenation(Gen &g) {
    const int32_t rank = g.r.in(1, 4);
    Shape base = g.any_rank(rank, rank, 6);
    const int32_t axis = g.r.in(0, rank - 1);
    const int32_t n = g.r.in(2, 3);
    Quant qn = g.act_quant();
    std::vector<int32_t> ins;
    Shape out = base;
    out[static_cast<size_t>(axis)] = 0;
    for (int32_t i = 0; i < n; ++i) {
        Shape s = base;
        s[static_cast<size_t>(axis)] = g.r.in(1, 5);
        out[static_cast<size_t>(axis)] += s[static_cast<size_t>(axis)];
        ins.push_back(g.input(s, qn));
        g.what << (i ? " + " : "") << shape_str(s);
    }
    const int32_t y = g.act(out, qn);
    const int32_t stored_axis = g.r.coin(0.3) ? axis - rank : axis;
    g.b.op(op::kConcatenation, ins, {y}, opt::kConcatenation);
    g.b.opt_i32(0, stored_axis);
    g.b.io(g.inputs, {y});
    g.what << " axis " << stored_axis;
}

void reshape(Gen &g) {
    const Shape in = g.any_rank(1, 4, 6);
    const int32_t x = g.input(in);
    // Factor the element count into a new shape of rank 1..4.
    int64_t n = elements(in);
    Shape out;
    const int32_t rank = g.r.in(1, 4);
    for (int32_t i = 0; i + 1 < rank; ++i) {
        std::vector<int32_t> divs;
        for (int32_t d = 1; d <= n; ++d)
            if (n % d == 0) divs.push_back(d);
        const int32_t d = g.r.pick(divs);
        out.push_back(d);
        n /= d;
    }
    out.push_back(static_cast<int32_t>(n));
    const int32_t y = g.act(out, g.quant_of(x));
    const int32_t shape_t = g.b.const_i32({static_cast<int32_t>(out.size())}, out);
    g.b.op(op::kReshape, {x, shape_t}, {y}, opt::kReshape);
    g.b.opt_ints(0, out);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " -> " << shape_str(out);
}

// SQUEEZE drops axes of extent 1, EXPAND_DIMS adds one; both keep the bytes.
void squeeze(Gen &g, bool expand) {
    Shape in = g.any_rank(1, 4, 5);
    if (!expand) in.insert(in.begin() + g.r.in(0, static_cast<int32_t>(in.size())), 1);
    const int32_t x = g.input(in);
    Shape out = in;
    int32_t axis = 0;
    if (expand) {
        axis = g.r.in(0, static_cast<int32_t>(in.size()));
        out.insert(out.begin() + axis, 1);
    } else {
        std::vector<int32_t> ones;
        for (int32_t a = 0; a < static_cast<int32_t>(in.size()); ++a)
            if (in[static_cast<size_t>(a)] == 1) ones.push_back(a);
        axis = g.r.pick(ones);
        out.erase(out.begin() + axis);
    }
    const int32_t y = g.act(out, g.quant_of(x));
    if (expand) {
        const int32_t at = g.b.const_i32({1}, {axis});
        g.b.op(op::kExpandDims, {x, at}, {y}, opt::kExpandDims);
    } else {
        g.b.op(op::kSqueeze, {x}, {y}, opt::kSqueeze);
        g.b.opt_ints(0, {axis});
    }
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " -> " << shape_str(out);
}

void softmax(Gen &g) {
    const Shape in = g.r.coin() ? Shape{g.r.in(1, 3), g.r.in(1, 20)} : g.nhwc(4, 12);
    const int32_t x = g.input(in);
    // TFLite's int8 softmax output is fixed at scale 1/256, zero point -128.
    const int32_t y = g.act(in, Quant::per_tensor(1.0f / 256.0f, -128));
    g.b.op(op::kSoftmax, {x}, {y}, opt::kSoftmax);
    g.b.opt_f32(0, 1.0f);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in);
}

void unary(Gen &g, int32_t builtin, uint8_t options) {
    const Shape in = g.any_rank(1, 4, 7);
    const int32_t x = g.input(in);
    Quant qy;
    if (builtin == op::kLogistic) qy = Quant::per_tensor(1.0f / 256.0f, -128);  // TFLite's fixed int8 outputs
    if (builtin == op::kTanh) qy = Quant::per_tensor(1.0f / 128.0f, 0);
    if (builtin == op::kLogSoftmax) qy = Quant::per_tensor(16.0f / 256.0f, 127);
    if (builtin == op::kL2Normalization) qy = Quant::per_tensor(1.0f / 128.0f, 0);
    // TFLite's RELU6 clamps raw bytes and keeps the input encoding when a
    // converter writes it standalone; half the cases draw another one.
    if (builtin == op::kRelu6 && g.r.coin()) qy = g.quant_of(x);
    const int32_t y = g.act(in, qy);
    g.b.op(builtin, {x}, {y}, options);
    float alpha = 0.0f;
    if (builtin == op::kLeakyRelu) {
        alpha = g.r.real(0.01f, 0.5f);
        g.b.opt_f32(0, alpha);
    }
    g.b.io(g.inputs, {y});
    g.what << shape_str(in);
    if (builtin == op::kLeakyRelu) g.what << " alpha " << alpha;
}

void pad(Gen &g, bool v2) {
    const Shape in = g.any_rank(1, 4, 6);
    const int32_t x = g.input(in);
    std::vector<int32_t> pads;
    Shape out = in;
    for (size_t i = 0; i < in.size(); ++i) {
        const int32_t before = g.r.in(0, 2), after = g.r.in(0, 2);
        pads.push_back(before);
        pads.push_back(after);
        out[i] += before + after;
    }
    const int32_t p = g.b.const_i32({static_cast<int32_t>(in.size()), 2}, pads);
    const int32_t y = g.act(out, g.quant_of(x));
    std::vector<int32_t> ins = {x, p};
    if (v2) {
        ins.push_back(g.q() ? g.b.const_i8({1}, {static_cast<int8_t>(g.r.in(-128, 127))}, g.quant_of(x))
                            : g.b.const_f32({1}, {g.r.real(-1.0f, 1.0f)}));
    }
    g.b.op(v2 ? op::kPadV2 : op::kPad, ins, {y}, v2 ? opt::kPadV2 : opt::kPad);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " -> " << shape_str(out);
}

void slice(Gen &g) {
    const Shape in = g.any_rank(1, 4, 7);
    const int32_t x = g.input(in);
    std::vector<int32_t> begin, size;
    Shape out;
    for (int32_t d : in) {
        const int32_t bgn = g.r.in(0, d - 1);
        const int32_t len = g.r.coin(0.2) ? -1 : g.r.in(1, d - bgn);
        begin.push_back(bgn);
        size.push_back(len);
        out.push_back(len < 0 ? d - bgn : len);
    }
    const int32_t r = static_cast<int32_t>(in.size());
    const int32_t bt = g.b.const_i32({r}, begin), st = g.b.const_i32({r}, size);
    const int32_t y = g.act(out, g.quant_of(x));
    g.b.op(op::kSlice, {x, bt, st}, {y}, opt::kSlice);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " -> " << shape_str(out);
}

void reduce(Gen &g, int32_t builtin) {
    const Shape in = g.any_rank(2, 4, 6);
    const int32_t x = g.input(in);
    std::vector<int32_t> axes;
    for (int32_t a = 0; a < static_cast<int32_t>(in.size()); ++a)
        if (g.r.coin(0.5)) axes.push_back(a);
    if (axes.empty()) axes.push_back(g.r.in(0, static_cast<int32_t>(in.size()) - 1));
    const bool keep = g.r.coin();
    Shape out;
    for (int32_t a = 0; a < static_cast<int32_t>(in.size()); ++a) {
        const bool reduced = std::find(axes.begin(), axes.end(), a) != axes.end();
        if (!reduced) out.push_back(in[static_cast<size_t>(a)]);
        else if (keep) out.push_back(1);
    }
    const int32_t at = g.b.const_i32({static_cast<int32_t>(axes.size())}, axes);
    // MAX and MIN compare raw bytes: TFLite keeps the input encoding.
    const bool raw = builtin == op::kReduceMax || builtin == op::kReduceMin;
    const int32_t y = g.act(out, raw ? g.quant_of(x) : Quant{});
    g.b.op(builtin, {x, at}, {y}, opt::kReducer);
    g.b.opt_bool(0, keep);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " axes";
    for (int32_t a : axes) g.what << " " << a;
    g.what << (keep ? " keep_dims" : "");
}

// Conversions at the model's edge: a lone QUANTIZE (float32 -> int8) or
// DEQUANTIZE (int8 -> float32); with dtype int8, QUANTIZE is int8 -> int8.
void quantize(Gen &g) {
    const Shape in = g.nhwc(6, 6);
    if (g.q()) {
        const int32_t x = g.input(in);
        const int32_t y = g.b.tensor(TT::Int8, in, g.act_quant());
        g.b.op(op::kQuantize, {x}, {y}, opt::kQuantize);
        g.b.io(g.inputs, {y});
        g.what << shape_str(in) << " int8 -> int8";
        return;
    }
    const int32_t x = g.b.tensor(TT::Float32, in);
    g.inputs.push_back(x);
    const int32_t y = g.b.tensor(TT::Int8, in, g.act_quant());
    g.b.op(op::kQuantize, {x}, {y}, opt::kQuantize);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " float32 -> int8";
}

void dequantize(Gen &g) {
    const Shape in = g.nhwc(6, 6);
    const int32_t x = g.b.tensor(TT::Int8, in, g.act_quant());
    g.inputs.push_back(x);
    const int32_t y = g.b.tensor(TT::Float32, in);
    g.b.op(op::kDequantize, {x}, {y}, opt::kDequantize);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " int8 -> float32";
}

// --- movements, resizes, PRELU, SELECT_V2, TRANSPOSE_CONV ------------------

// A shuffle of 0..n-1 (Fisher-Yates on the generator's own draws).
std::vector<int32_t> permutation(Gen &g, int32_t n) {
    std::vector<int32_t> p(static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i) p[static_cast<size_t>(i)] = i;
    for (int32_t i = n - 1; i > 0; --i) std::swap(p[static_cast<size_t>(i)], p[static_cast<size_t>(g.r.in(0, i))]);
    return p;
}

void transpose(Gen &g) {
    const Shape in = g.any_rank(1, 5, 5);
    const int32_t x = g.input(in);
    const int32_t r = static_cast<int32_t>(in.size());
    std::vector<int32_t> perm = permutation(g, r);
    Shape out;
    for (int32_t p : perm) out.push_back(in[static_cast<size_t>(p)]);
    // Non-negative entries only: TFLite Micro's Prepare refuses negative ones.
    const std::vector<int32_t> &stored = perm;
    const int32_t pt = g.b.const_i32({r}, stored);
    const int32_t y = g.act(out, g.quant_of(x));
    g.b.op(op::kTranspose, {x, pt}, {y}, opt::kTranspose);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " perm";
    for (int32_t p : stored) g.what << " " << p;
}

// TFLite Micro's start and stop of one strided-slice axis (Prepare's rules).
struct SliceAxis {
    int32_t begin, end, stride;
    bool bmask, emask, shrink;
};
int32_t slice_extent(const SliceAxis &a, int32_t dim) {
    auto clampv = [&](int64_t v) {
        return a.stride > 0 ? std::clamp<int64_t>(v, 0, dim) : std::clamp<int64_t>(v, -1, dim - 1);
    };
    int64_t s = a.bmask ? (a.stride > 0 ? 0 : dim - 1) : clampv(a.begin < 0 ? a.begin + dim : a.begin);
    int64_t e = a.shrink ? s + 1 : a.emask ? (a.stride > 0 ? dim : -1) : clampv(a.end < 0 ? a.end + dim : a.end);
    const int64_t span = a.stride > 0 ? e - s : s - e, mag = a.stride > 0 ? a.stride : -a.stride;
    if (a.shrink && (s < 0 || s >= dim)) return 0;
    return span <= 0 ? 0 : static_cast<int32_t>((span + mag - 1) / mag);
}

void strided_slice(Gen &g) {
    const Shape in = g.any_rank(1, 4, 7);
    const int32_t x = g.input(in);
    const int32_t r = static_cast<int32_t>(in.size());
    std::vector<SliceAxis> axes;
    Shape out;
    int32_t bm = 0, em = 0, sm = 0;
    for (int32_t k = 0; k < r; ++k) {
        const int32_t dim = in[static_cast<size_t>(k)];
        SliceAxis a{};
        for (;;) {
            a.stride = g.r.pick(std::vector<int32_t>{1, 1, 1, 2, 3, -1, -2});
            a.begin = g.r.in(-dim - 1, dim + 1);
            a.end = g.r.in(-dim - 1, dim + 1);
            a.bmask = g.r.coin(0.2);
            a.emask = g.r.coin(0.2);
            // Shrink one element; never every axis (a scalar output).
            a.shrink = a.stride > 0 && k > 0 && sm == 0 && g.r.coin(0.15);
            if (a.shrink) {
                a.begin = g.r.in(-dim, dim - 1);
                a.bmask = false;
            }
            if (slice_extent(a, dim) > 0) break;
        }
        if (a.bmask) bm |= 1 << k;
        if (a.emask) em |= 1 << k;
        if (a.shrink) sm |= 1 << k;
        else out.push_back(slice_extent(a, dim));
        axes.push_back(a);
    }
    std::vector<int32_t> b, e, s;
    for (const SliceAxis &a : axes) {
        b.push_back(a.begin);
        e.push_back(a.end);
        s.push_back(a.stride);
    }
    const int32_t bt = g.b.const_i32({r}, b), et = g.b.const_i32({r}, e), st = g.b.const_i32({r}, s);
    const int32_t y = g.act(out, g.quant_of(x));
    g.b.op(op::kStridedSlice, {x, bt, et, st}, {y}, opt::kStridedSlice);
    g.b.opt_i32(0, bm);
    g.b.opt_i32(1, em);
    g.b.opt_i32(4, sm);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " -> " << shape_str(out) << " masks b" << bm << " e" << em << " s" << sm;
}

void gather(Gen &g) {
    const Shape in = g.any_rank(1, 4, 6);
    const int32_t x = g.input(in);
    const int32_t r = static_cast<int32_t>(in.size());
    const int32_t axis = g.r.in(0, r - 1);
    const int32_t batch = axis > 0 && g.r.coin(0.25) ? 1 : 0;
    Shape is;
    if (batch) is.push_back(in[0]);
    const int32_t extra = g.r.in(0, 2);
    for (int32_t k = 0; k < extra; ++k) is.push_back(g.r.in(1, 4));
    std::vector<int32_t> idx(static_cast<size_t>(elements(is)));
    for (int32_t &v : idx) v = g.r.in(0, in[static_cast<size_t>(axis)] - 1);
    const int32_t it = g.b.const_i32(is, idx);
    Shape out(in.begin(), in.begin() + axis);
    out.insert(out.end(), is.begin() + batch, is.end());
    out.insert(out.end(), in.begin() + axis + 1, in.end());
    const int32_t y = g.act(out, g.quant_of(x));
    g.b.op(op::kGather, {x, it}, {y}, opt::kGather);
    g.b.opt_i32(0, g.r.coin(0.2) ? axis - r : axis);
    g.b.opt_i32(1, batch);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " axis " << axis << " batch " << batch << " indices " << shape_str(is);
}

// SPLIT (equal pieces), SPLIT_V (sizes, one may be -1) and UNPACK.
void split(Gen &g, int32_t builtin) {
    Shape in = g.any_rank(1, 4, 6);
    const int32_t r = static_cast<int32_t>(in.size());
    const int32_t axis = g.r.in(0, r - 1);
    int32_t &dim = in[static_cast<size_t>(axis)];
    std::vector<int32_t> sizes;
    if (builtin == op::kSplit) {
        const int32_t n = g.r.in(1, 4);
        dim = n * g.r.in(1, 3);
        sizes.assign(static_cast<size_t>(n), dim / n);
    } else if (builtin == op::kSplitV) {
        const int32_t n = g.r.in(1, 4);
        dim = 0;
        for (int32_t k = 0; k < n; ++k) {
            sizes.push_back(g.r.in(1, 4));
            dim += sizes.back();
        }
    } else {
        dim = g.r.in(1, 4);
        sizes.assign(static_cast<size_t>(dim), 1);
    }
    const int32_t x = g.input(in);
    std::vector<int32_t> outs;
    for (int32_t sz : sizes) {
        Shape s = in;
        if (builtin == op::kUnpack) s.erase(s.begin() + axis);
        else s[static_cast<size_t>(axis)] = sz;
        outs.push_back(g.act(s, g.quant_of(x)));
    }
    const int32_t stored_axis = g.r.coin(0.2) ? axis - r : axis;
    const int32_t n = static_cast<int32_t>(sizes.size());
    if (builtin == op::kSplit) {
        const int32_t at = g.b.const_i32({}, {stored_axis});
        g.b.op(op::kSplit, {at, x}, outs, opt::kSplit);
        g.b.opt_i32(0, n);
    } else if (builtin == op::kSplitV) {
        std::vector<int32_t> stored = sizes;
        if (g.r.coin(0.3)) stored[static_cast<size_t>(g.r.in(0, n - 1))] = -1;
        const int32_t st = g.b.const_i32({n}, stored);
        const int32_t at = g.b.const_i32({}, {stored_axis});
        g.b.op(op::kSplitV, {x, st, at}, outs, opt::kSplitV);
        g.b.opt_i32(0, n);
    } else {
        g.b.op(op::kUnpack, {x}, outs, opt::kUnpack);
        g.b.opt_i32(0, n);
        g.b.opt_i32(1, stored_axis);
    }
    g.b.io(g.inputs, outs);
    g.what << shape_str(in) << " axis " << stored_axis << " into " << n;
}

void pack(Gen &g) {
    const Shape in = g.any_rank(1, 4, 5);
    const int32_t r = static_cast<int32_t>(in.size());
    const int32_t n = g.r.in(1, 4);
    const int32_t axis = g.r.in(0, r);
    const Quant qn = g.act_quant();
    std::vector<int32_t> ins;
    for (int32_t k = 0; k < n; ++k) ins.push_back(g.input(in, qn));
    Shape out = in;
    out.insert(out.begin() + axis, n);
    const int32_t y = g.act(out, qn);
    g.b.op(op::kPack, ins, {y}, opt::kPack);
    g.b.opt_i32(0, n);
    g.b.opt_i32(1, g.r.coin(0.2) ? axis - r - 1 : axis);
    g.b.io(g.inputs, {y});
    g.what << n << " x " << shape_str(in) << " axis " << axis;
}

void space_depth(Gen &g, bool to_space) {
    const int32_t bs = g.r.in(1, 3);
    Shape in = {g.r.in(1, 2), g.r.in(1, 4), g.r.in(1, 4), g.r.in(1, 3)};
    Shape out;
    if (to_space) {
        in[3] *= bs * bs;
        out = {in[0], in[1] * bs, in[2] * bs, in[3] / (bs * bs)};
    } else {
        in[1] *= bs;
        in[2] *= bs;
        out = {in[0], in[1] / bs, in[2] / bs, in[3] * bs * bs};
    }
    const int32_t x = g.input(in);
    const int32_t y = g.act(out, g.quant_of(x));
    g.b.op(to_space ? op::kDepthToSpace : op::kSpaceToDepth, {x}, {y}, to_space ? opt::kDepthToSpace : opt::kSpaceToDepth);
    g.b.opt_i32(0, bs);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " block " << bs;
}

void resize(Gen &g, bool bilinear) {
    const Shape in = {1, g.r.in(1, 8), g.r.in(1, 8), g.r.in(1, 5)};
    const int32_t x = g.input(in);
    const int32_t oh = g.r.coin(0.3) ? in[1] * g.r.in(1, 3) : g.r.in(1, 12);
    const int32_t ow = g.r.coin(0.3) ? in[2] * g.r.in(1, 3) : g.r.in(1, 12);
    const int32_t st = g.b.const_i32({2}, {oh, ow});
    const int32_t y = g.act({1, oh, ow, in[3]}, g.quant_of(x));
    // Not both: TFLite refuses align_corners with half_pixel_centers.
    const int32_t mode = g.r.in(0, 2);
    const bool align = mode == 1, half = mode == 2;
    g.b.op(bilinear ? op::kResizeBilinear : op::kResizeNearestNeighbor, {x, st}, {y},
           bilinear ? opt::kResizeBilinear : opt::kResizeNearestNeighbor);
    g.b.opt_bool(bilinear ? 2 : 0, align);
    g.b.opt_bool(bilinear ? 3 : 1, half);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " -> " << oh << "x" << ow << (align ? " align_corners" : "")
           << (half ? " half_pixel_centers" : "");
}

void prelu(Gen &g) {
    const Shape in = g.any_rank(1, 4, 6);
    const int32_t x = g.input(in);
    // The slope broadcasts: per channel (the usual form), full, or one value.
    Shape as;
    switch (g.r.in(0, 2)) {
    case 0: as = {in.back()}; break;
    case 1: as = Shape(in.begin() + (in.size() > 1 ? 1 : 0), in.end()); break;
    default: as = {1}; break;
    }
    int32_t alpha;
    if (g.q()) {
        std::vector<int8_t> v(static_cast<size_t>(elements(as)));
        for (int8_t &e : v) e = static_cast<int8_t>(g.r.in(-127, 127));
        alpha = g.b.const_i8(as, v, Quant::per_tensor(g.r.log_real(0.001f, 0.02f), g.r.in(-20, 20)));
    } else {
        std::vector<float> v(static_cast<size_t>(elements(as)));
        for (float &e : v) e = g.r.real(-0.5f, 1.0f);
        alpha = g.b.const_f32(as, v);
    }
    const int32_t y = g.act(in);
    g.b.op(op::kPrelu, {x, alpha}, {y});
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " alpha " << shape_str(as);
}

void select_v2(Gen &g) {
    const Shape full = g.any_rank(1, 4, 5);
    const Quant qn = g.act_quant();
    Shape cs = g.r.coin(0.5) ? broadcast_of(g, full) : full;
    Shape xs = g.r.coin(0.4) ? broadcast_of(g, full) : full;
    Shape ys = g.r.coin(0.4) ? broadcast_of(g, full) : full;
    const int32_t c = g.b.tensor(TT::Bool, cs);
    g.inputs.push_back(c);
    const int32_t x = g.input(xs, qn), y = g.input(ys, qn);
    // The output shape is the broadcast of all three: the highest operand
    // rank (leading axes every operand dropped are not in it), each axis the
    // largest extent any operand has there.
    const size_t rank = std::max({cs.size(), xs.size(), ys.size()});
    Shape out(rank, 1);
    for (const Shape *s : {&cs, &xs, &ys})
        for (size_t k = 0; k < s->size(); ++k) {
            const size_t at = rank - s->size() + k;
            out[at] = std::max(out[at], (*s)[k]);
        }
    const int32_t z = g.act(out, qn);
    g.b.op(op::kSelectV2, {c, x, y}, {z}, opt::kSelectV2);
    g.b.io(g.inputs, {z});
    g.what << shape_str(cs) << " ? " << shape_str(xs) << " : " << shape_str(ys);
}

// --- comparisons and control flow ------------------------------------------

// EQUAL, LESS, ...: two operands (each broadcast, or one a constant), a bool
// result; int8 operands in two random encodings.
void compare(Gen &g, int32_t builtin, uint8_t options) {
    const Shape full = g.any_rank(1, 4, 6);
    Shape a = full, c = g.r.coin(0.5) ? broadcast_of(g, full) : full;
    if (g.r.coin(0.2)) std::swap(a, c);
    const int32_t x = g.input(a);
    const bool constant = g.r.coin(0.25);
    int32_t y;
    if (constant && g.q()) {
        std::vector<int8_t> v(static_cast<size_t>(elements(c)));
        for (int8_t &e : v) e = static_cast<int8_t>(g.r.in(-128, 127));
        y = g.b.const_i8(c, v, g.act_quant());
    } else if (constant) {
        std::vector<float> v(static_cast<size_t>(elements(c)));
        for (float &e : v) e = g.r.real(-2.0f, 2.0f);
        y = g.b.const_f32(c, v);
    } else {
        // Sometimes the very encoding of x, so equal codes compare equal.
        y = g.input(c, g.r.coin(0.3) ? g.quant_of(x) : Quant{});
    }
    const int32_t z = g.b.tensor(TT::Bool, full);
    g.b.op(builtin, {x, y}, {z}, options);
    g.b.io(g.inputs, {z});
    g.what << shape_str(a) << " vs " << shape_str(c) << (constant ? " (constant)" : "");
}

// A constant of `s` in x's dtype (int8 codes in `qn`), values in [lo, hi].
int32_t const_like(Gen &g, const Shape &s, const Quant &qn, float lo, float hi) {
    if (g.q()) {
        std::vector<int8_t> v(static_cast<size_t>(elements(s)));
        for (int8_t &e : v) e = static_cast<int8_t>(g.r.in(-128, 127));
        return g.b.const_i8(s, v, qn);
    }
    std::vector<float> v(static_cast<size_t>(elements(s)));
    for (float &e : v) e = g.r.real(lo, hi);
    return g.b.const_f32(s, v);
}

// One branch of an IF: ADD, SUB or MUL of its inputs (or of the first and a
// constant), sometimes followed by a RELU; every result in `qo`.
void branch(Gen &g, const std::vector<Shape> &ins, const Quant &qx, const std::vector<Quant> &qo,
            size_t outs) {
    std::vector<int32_t> in;
    for (const Shape &s : ins) in.push_back(g.act(s, qx));
    std::vector<int32_t> res;
    static const std::vector<std::pair<int32_t, uint8_t>> ops = {
        {op::kAdd, opt::kAdd}, {op::kSub, opt::kSub}, {op::kMul, opt::kMul}};
    for (size_t k = 0; k < outs; ++k) {
        const auto [code, options] = g.r.pick(ops);
        const int32_t a = in[k % in.size()];
        const int32_t c = in.size() > 1 && g.r.coin(0.5) ? in[(k + 1) % in.size()]
                                                          : const_like(g, ins[k % ins.size()], qx, -2.0f, 2.0f);
        int32_t r = g.act(ins[0], qo[k]);
        g.b.op(code, {a, c}, {r}, options);
        g.b.opt_i8(0, 0);
        if (g.r.coin(0.3)) {
            const int32_t r2 = g.act(ins[0], qo[k]);
            g.b.op(op::kRelu, {r}, {r2});
            r = r2;
        }
        res.push_back(r);
        g.what << " " << (code == op::kAdd ? "ADD" : code == op::kSub ? "SUB" : "MUL");
    }
    g.b.io(in, res);
}

// IF(cond, x[, y]) with two small branch graphs (subgraphs 1 and 2).
void if_op(Gen &g) {
    const Shape s = g.any_rank(1, 4, 5);
    const Quant qx = g.act_quant();
    const int32_t cond = g.b.tensor(TT::Bool, {1});
    g.inputs.push_back(cond);
    const size_t n_in = g.r.coin(0.5) ? 2 : 1, n_out = g.r.coin(0.3) ? 2 : 1;
    std::vector<int32_t> ops{cond};
    for (size_t k = 0; k < n_in; ++k) ops.push_back(g.input(s, qx));
    std::vector<Quant> qo;
    std::vector<int32_t> outs;
    for (size_t k = 0; k < n_out; ++k) {
        qo.push_back(g.q() ? g.act_quant() : Quant{});
        outs.push_back(g.act(s, qo.back()));
    }
    g.b.op(op::kIf, ops, outs, opt::kIf);
    g.b.opt_i32(0, 1);
    g.b.opt_i32(1, 2);
    g.b.io(g.inputs, outs);
    g.what << shape_str(s) << " inputs " << n_in << " outputs " << n_out << " then";
    const std::vector<Shape> ins(n_in, s);
    g.b.add_subgraph();
    branch(g, ins, qx, qo, n_out);
    g.what << " else";
    g.b.add_subgraph();
    branch(g, ins, qx, qo, n_out);
    g.b.use_subgraph(0);
}

// WHILE over a counter i and a value x: the condition graph is LESS(i, N),
// the body i + step and x ADD or MUL a constant. int8 keeps one encoding for
// i, N and step (step a positive code difference), so the counter rises
// exactly and the loop ends (at the latest when i saturates at 127 >= N);
// float steps are at least 0.25 from inputs in [-2, 2] to N <= 3.
void while_op(Gen &g) {
    const Shape s = g.any_rank(1, 3, 4);
    const Quant qi = g.act_quant(), qx = g.act_quant();
    const int32_t i = g.input({1}, qi), x = g.input(s, qx);
    const int32_t io = g.act({1}, qi), xo = g.act(s, qx);
    g.b.op(op::kWhile, {i, x}, {io, xo}, opt::kWhile);
    g.b.opt_i32(0, 1);
    g.b.opt_i32(1, 2);
    g.b.io(g.inputs, {io, xo});
    const bool mul = g.r.coin(0.5);
    g.what << shape_str(s) << (mul ? " MUL" : " ADD");
    // Condition: i < N.
    g.b.add_subgraph();
    {
        const int32_t ci = g.act({1}, qi), cx = g.act(s, qx);
        int32_t n;
        if (g.q()) {
            const int32_t zp = static_cast<int32_t>(qi.zero_point[0]);
            n = g.b.const_i8({1}, {static_cast<int8_t>(g.r.in(std::max(-128, zp - 20), 127))}, qi);
        } else {
            n = g.b.const_f32({1}, {g.r.real(-1.0f, 3.0f)});
        }
        const int32_t cv = g.b.tensor(TT::Bool, {1});
        g.b.op(op::kLess, {ci, n}, {cv}, opt::kLess);
        g.b.io({ci, cx}, {cv});
    }
    // Body.
    g.b.add_subgraph();
    {
        const int32_t bi = g.act({1}, qi), bx = g.act(s, qx);
        int32_t step;
        if (g.q()) {
            const int32_t zp = static_cast<int32_t>(qi.zero_point[0]);
            step = g.b.const_i8({1}, {static_cast<int8_t>(std::min(127, zp + g.r.in(1, 12)))}, qi);
        } else {
            step = g.b.const_f32({1}, {g.r.real(0.25f, 1.5f)});
        }
        const int32_t bio = g.act({1}, qi), bxo = g.act(s, qx);
        g.b.op(op::kAdd, {bi, step}, {bio}, opt::kAdd);
        g.b.opt_i8(0, 0);
        const int32_t c = const_like(g, g.r.coin(0.5) ? Shape{1} : s, qx, mul ? 0.5f : -0.5f, mul ? 1.25f : 0.5f);
        g.b.op(mul ? op::kMul : op::kAdd, {bx, c}, {bxo}, mul ? opt::kMul : opt::kAdd);
        g.b.opt_i8(0, 0);
        g.b.io({bi, bx}, {bio, bxo});
    }
    g.b.use_subgraph(0);
}

// SVDF (float32: TFLite Micro's int8 SVDF has int16 time weights and state,
// which the import refuses): input [batch, features], feature weights
// [filters, features], time weights [filters, memory], bias [units], a zero
// variable state [batch, filters * memory], output [batch, units].
void svdf(Gen &g) {
    const int32_t batch = g.r.in(1, 3), features = g.r.in(1, 8), rank = g.r.in(1, 2), units = g.r.in(1, 4),
                  memory = g.r.in(1, 6), filters = units * rank;
    const int32_t x = g.input({batch, features});
    auto weights = [&](Shape s) {
        std::vector<float> v(static_cast<size_t>(elements(s)));
        for (float &e : v) e = g.r.real(-1.0f, 1.0f);
        return g.b.const_f32(s, v);
    };
    const int32_t wf = weights({filters, features}), wt = weights({filters, memory}), bias = weights({units});
    const int32_t st = g.b.tensor(TT::Float32, {batch, filters * memory});
    g.b.variable(st);
    const int32_t y = g.act({batch, units});
    const int8_t act = static_cast<int8_t>(g.r.pick(std::vector<int>{0, 0, 1, 3}));
    g.b.op(op::kSvdf, {x, wf, wt, bias, st}, {y}, opt::kSvdf);
    g.b.opt_i32(0, rank);
    g.b.opt_i8(1, act);
    g.b.io(g.inputs, {y});
    g.what << "batch " << batch << " features " << features << " rank " << rank << " units " << units << " memory "
           << memory << " act " << int(act);
}

void transpose_conv(Gen &g) {
    const Shape in = g.nhwc(6, 6);
    const int32_t x = g.input(in);
    const int32_t kh = g.r.in(1, 4), kw = g.r.in(1, 4), sh = g.r.in(1, 3), sw = g.r.coin(0.7) ? sh : g.r.in(1, 3);
    const bool same = g.r.coin();
    // The output extents a converter writes: SAME in·s, VALID (in − 1)·s + k.
    const int32_t oh = same ? in[1] * sh : (in[1] - 1) * sh + kh;
    const int32_t ow = same ? in[2] * sw : (in[2] - 1) * sw + kw;
    const int32_t cout = g.r.in(1, 6);
    Weights wt = draw_weights(g, {cout, kh, kw, in[3]}, 0, cout, kh * kw * in[3], x, g.r.coin(0.8), g.r.coin(0.8));
    const int32_t y = g.act({1, oh, ow, cout}, Quant::per_tensor(wt.out_scale, g.r.in(-30, 30)));
    const int32_t shape_t = g.b.const_i32({4}, {1, oh, ow, cout});
    std::vector<int32_t> ins = {shape_t, wt.filter, x};
    if (wt.bias >= 0) ins.push_back(wt.bias);
    g.b.op(op::kTransposeConv, ins, {y}, opt::kTransposeConv);
    g.b.opt_i8(0, same ? 0 : 1);
    g.b.opt_i32(1, sw);
    g.b.opt_i32(2, sh);
    const int8_t act = g.fused();
    g.b.opt_i8(3, act);
    g.b.io(g.inputs, {y});
    g.what << shape_str(in) << " k" << kh << "x" << kw << " s" << sh << "," << sw << (same ? " SAME" : " VALID")
           << " cout " << cout << (wt.bias < 0 ? " no bias" : "") << " act " << int(act);
}

// --- random graphs -------------------------------------------------------

// One conv-like layer on x (SAME, stride 1 unless `stride`), returns its output.
int32_t layer_conv(Gen &g, int32_t x, int32_t cout, int32_t stride, bool depthwise) {
    const Shape in = g.shape(x);
    const int32_t k = g.r.pick(std::vector<int32_t>{1, 3, 3, 5});
    const int32_t oh = window_out(in[1], k, stride, 1, true), ow = window_out(in[2], k, stride, 1, true);
    Weights wt = depthwise ? draw_weights(g, {1, k, k, in[3]}, 3, in[3], k * k, x, true)
                           : draw_weights(g, {cout, k, k, in[3]}, 0, cout, k * k * in[3], x, true);
    const int32_t c = depthwise ? in[3] : cout;
    const int32_t y = g.act({1, oh, ow, c}, Quant::per_tensor(wt.out_scale, g.r.in(-20, 20)));
    const int8_t act = g.r.pick(std::vector<int8_t>{0, 1, 3});
    if (depthwise) {
        g.b.op(op::kDepthwiseConv2D, {x, wt.filter, wt.bias}, {y}, opt::kDepthwise);
        g.b.opt_i8(0, 0);
        g.b.opt_i32(1, stride);
        g.b.opt_i32(2, stride);
        g.b.opt_i32(3, 1);
        g.b.opt_i8(4, act);
    } else {
        g.b.op(op::kConv2D, {x, wt.filter, wt.bias}, {y}, opt::kConv2D);
        g.b.opt_i8(0, 0);
        g.b.opt_i32(1, stride);
        g.b.opt_i32(2, stride);
        g.b.opt_i8(3, act);
    }
    g.what << (depthwise ? " dw" : " conv") << k << (stride > 1 ? "/2" : "") << "->" << shape_str(g.shape(y));
    return y;
}

void graph(Gen &g) {
    Shape in = {1, g.r.in(4, 16), g.r.in(4, 16), g.r.in(1, 4)};
    int32_t x = g.input(in);
    g.what << shape_str(in) << ":";
    const int32_t layers = g.r.in(2, 6);
    for (int32_t i = 0; i < layers; ++i) {
        const Shape s = g.shape(x);
        switch (g.r.in(0, 5)) {
        case 0: x = layer_conv(g, x, g.r.in(1, 8), g.r.coin(0.3) && s[1] > 2 ? 2 : 1, false); break;
        case 1: x = layer_conv(g, x, 0, g.r.coin(0.3) && s[1] > 2 ? 2 : 1, true); break;
        case 2: {  // residual: x + conv(x)
            const int32_t y = layer_conv(g, x, s[3], 1, false);
            const int32_t z = g.act(s);
            g.b.op(op::kAdd, {x, y}, {z}, opt::kAdd);
            g.b.opt_i8(0, 0);
            g.what << " add";
            x = z;
            break;
        }
        case 3: {  // two branches concatenated on channels (one encoding, as TFLite's int8 concat needs)
            const int32_t a = layer_conv(g, x, g.r.in(1, 4), 1, false);
            const int32_t c = layer_conv(g, x, g.r.in(1, 4), 1, false);
            // Requantize both to one encoding with int8 QUANTIZE ops.
            const Quant qn = g.act_quant();
            int32_t parts[2] = {a, c};
            if (g.q()) {
                for (int32_t &p : parts) {
                    const int32_t rq = g.act(g.shape(p), qn);
                    g.b.op(op::kQuantize, {p}, {rq}, opt::kQuantize);
                    p = rq;
                }
            }
            Shape o = g.shape(a);
            o[3] += g.shape(c)[3];
            const int32_t y = g.act(o, qn);
            g.b.op(op::kConcatenation, {parts[0], parts[1]}, {y}, opt::kConcatenation);
            g.b.opt_i32(0, 3);
            g.what << " concat";
            x = y;
            break;
        }
        case 4: {  // a pool between convs
            if (s[1] < 2 || s[2] < 2) break;
            const int32_t y = g.act({1, s[1] / 2, s[2] / 2, s[3]}, g.quant_of(x));
            g.b.op(g.r.coin() ? op::kMaxPool2D : op::kAveragePool2D, {x}, {y}, opt::kPool2D);
            g.b.opt_i8(0, 1);
            g.b.opt_i32(1, 2);
            g.b.opt_i32(2, 2);
            g.b.opt_i32(3, 2);
            g.b.opt_i32(4, 2);
            g.what << " pool";
            x = y;
            break;
        }
        default: {
            const int32_t y = g.act(s, g.quant_of(x));
            g.b.op(op::kRelu, {x}, {y});
            g.what << " relu";
            x = y;
            break;
        }
        }
    }
    // A head: mean over the image, then a fully connected layer and softmax.
    if (g.r.coin(0.5)) {
        const Shape s = g.shape(x);
        const int32_t axes = g.b.const_i32({2}, {1, 2});
        const int32_t m = g.act({1, s[3]});
        g.b.op(op::kMean, {x, axes}, {m}, opt::kReducer);
        g.b.opt_bool(0, false);
        const int32_t units = g.r.in(2, 10);
        Weights wt = draw_weights(g, {units, s[3]}, 0, units, s[3], m, false);
        const int32_t f = g.act({1, units}, Quant::per_tensor(wt.out_scale, 0));
        g.b.op(op::kFullyConnected, {m, wt.filter, wt.bias}, {f}, opt::kFullyConnected);
        g.b.opt_i8(0, 0);
        const int32_t sm = g.act({1, units}, Quant::per_tensor(1.0f / 256.0f, -128));
        g.b.op(op::kSoftmax, {f}, {sm}, opt::kSoftmax);
        g.b.opt_f32(0, 1.0f);
        g.what << " mean fc" << units << " softmax";
        x = sm;
    }
    g.b.io(g.inputs, {x});
}

using GenFn = std::function<void(Gen &)>;
const std::map<std::string, GenFn> &generators() {
    static const std::map<std::string, GenFn> m = {
        {"CONV_2D", conv2d},
        {"DEPTHWISE_CONV_2D", depthwise},
        {"FULLY_CONNECTED", fully_connected},
        {"MAX_POOL_2D", [](Gen &g) { pool(g, op::kMaxPool2D); }},
        {"AVERAGE_POOL_2D", [](Gen &g) { pool(g, op::kAveragePool2D); }},
        {"AVERAGE_POOL_2D_GLOBAL", global_average},
        {"ADD", [](Gen &g) { binary(g, op::kAdd, opt::kAdd, false); }},
        {"SUB", [](Gen &g) { binary(g, op::kSub, opt::kSub, false); }},
        {"MUL", [](Gen &g) { binary(g, op::kMul, opt::kMul, false); }},
        {"MAXIMUM", [](Gen &g) { binary(g, op::kMaximum, opt::kMaximumMinimum, true); }},
        {"MINIMUM", [](Gen &g) { binary(g, op::kMinimum, opt::kMaximumMinimum, true); }},
        {"CONCATENATION", concatenation},
        {"RESHAPE", reshape},
        {"SOFTMAX", softmax},
        {"LOGISTIC", [](Gen &g) { unary(g, op::kLogistic, 0); }},
        {"TANH", [](Gen &g) { unary(g, op::kTanh, 0); }},
        {"RELU", [](Gen &g) { unary(g, op::kRelu, 0); }},
        {"RELU6", [](Gen &g) { unary(g, op::kRelu6, 0); }},
        {"LEAKY_RELU", [](Gen &g) { unary(g, op::kLeakyRelu, opt::kLeakyRelu); }},
        {"HARD_SWISH", [](Gen &g) { unary(g, op::kHardSwish, opt::kHardSwish); }},
        {"ABS", [](Gen &g) { unary(g, op::kAbs, opt::kAbs); }},
        {"PAD", [](Gen &g) { pad(g, false); }},
        {"PADV2", [](Gen &g) { pad(g, true); }},
        {"SLICE", slice},
        {"MEAN", [](Gen &g) { reduce(g, op::kMean); }},
        {"SUM", [](Gen &g) { reduce(g, op::kSum); }},
        {"REDUCE_MAX", [](Gen &g) { reduce(g, op::kReduceMax); }},
        {"REDUCE_MIN", [](Gen &g) { reduce(g, op::kReduceMin); }},
        {"SQUEEZE", [](Gen &g) { squeeze(g, false); }},
        {"EXPAND_DIMS", [](Gen &g) { squeeze(g, true); }},
        {"FLOOR", [](Gen &g) { unary(g, op::kFloor, 0); }},
        {"CEIL", [](Gen &g) { unary(g, op::kCeil, 0); }},
        {"ROUND", [](Gen &g) { unary(g, op::kRound, 0); }},
        {"EXP", [](Gen &g) { unary(g, op::kExp, opt::kExp); }},
        {"LOG", [](Gen &g) { unary(g, op::kLog, 0); }},
        {"SQRT", [](Gen &g) { unary(g, op::kSqrt, 0); }},
        {"RSQRT", [](Gen &g) { unary(g, op::kRsqrt, 0); }},
        {"SQUARE", [](Gen &g) { unary(g, op::kSquare, opt::kSquare); }},
        {"NEG", [](Gen &g) { unary(g, op::kNeg, opt::kNeg); }},
        {"SIN", [](Gen &g) { unary(g, op::kSin, 0); }},
        {"COS", [](Gen &g) { unary(g, op::kCos, opt::kCos); }},
        {"ELU", [](Gen &g) { unary(g, op::kElu, 0); }},
        {"LOG_SOFTMAX", [](Gen &g) { unary(g, op::kLogSoftmax, opt::kLogSoftmax); }},
        {"L2_NORMALIZATION", [](Gen &g) { unary(g, op::kL2Normalization, opt::kL2Norm); }},
        {"DIV", [](Gen &g) { binary(g, op::kDiv, opt::kDiv, false); }},
        {"SQUARED_DIFFERENCE", [](Gen &g) { binary(g, op::kSquaredDifference, opt::kSquaredDifference, false); }},
        {"FLOOR_DIV", [](Gen &g) { binary(g, op::kFloorDiv, opt::kFloorDiv, false); }},
        {"FLOOR_MOD", [](Gen &g) { binary(g, op::kFloorMod, opt::kFloorMod, false); }},
        {"TRANSPOSE", transpose},
        {"STRIDED_SLICE", strided_slice},
        {"GATHER", gather},
        {"SPLIT", [](Gen &g) { split(g, op::kSplit); }},
        {"SPLIT_V", [](Gen &g) { split(g, op::kSplitV); }},
        {"UNPACK", [](Gen &g) { split(g, op::kUnpack); }},
        {"PACK", pack},
        {"DEPTH_TO_SPACE", [](Gen &g) { space_depth(g, true); }},
        {"SPACE_TO_DEPTH", [](Gen &g) { space_depth(g, false); }},
        {"RESIZE_NEAREST_NEIGHBOR", [](Gen &g) { resize(g, false); }},
        {"RESIZE_BILINEAR", [](Gen &g) { resize(g, true); }},
        {"PRELU", prelu},
        {"SELECT_V2", select_v2},
        {"TRANSPOSE_CONV", transpose_conv},
        {"EQUAL", [](Gen &g) { compare(g, op::kEqual, opt::kEqual); }},
        {"LESS", [](Gen &g) { compare(g, op::kLess, opt::kLess); }},
        {"LESS_EQUAL", [](Gen &g) { compare(g, op::kLessEqual, opt::kLessEqual); }},
        {"GREATER", [](Gen &g) { compare(g, op::kGreater, opt::kGreater); }},
        {"GREATER_EQUAL", [](Gen &g) { compare(g, op::kGreaterEqual, opt::kGreaterEqual); }},
        {"IF", if_op},
        {"SVDF", svdf},
        {"WHILE", while_op},
        {"QUANTIZE", quantize},
        {"DEQUANTIZE", dequantize},
        {"graph", graph},
    };
    return m;
}

// Seeded input bytes for every model input (int8 uniform, float32 in [-2, 2]).
std::vector<uint8_t> draw_input(Gen &g) {
    std::vector<uint8_t> out;
    for (int32_t id : g.inputs) {
        const tfl::Tensor &x = g.b.t(id);
        const int64_t n = elements(x.shape);
        if (x.type == TT::Bool) {
            for (int64_t i = 0; i < n; ++i) out.push_back(g.r.coin() ? 1 : 0);
        } else if (x.type == TT::Float32) {
            for (int64_t i = 0; i < n; ++i) {
                const float v = g.positive ? g.r.real(0.05f, 4.0f) : g.r.real(-2.0f, 2.0f);
                uint8_t b4[4];
                std::memcpy(b4, &v, 4);
                out.insert(out.end(), b4, b4 + 4);
            }
        } else {
            // Positive inputs: codes above the zero point (real value > 0).
            const int32_t lo = g.positive && !x.quant.zero_point.empty()
                                   ? static_cast<int32_t>(std::min<int64_t>(x.quant.zero_point[0] + 1, 127))
                                   : -128;
            for (int64_t i = 0; i < n; ++i) out.push_back(static_cast<uint8_t>(static_cast<int8_t>(g.r.in(lo, 127))));
        }
    }
    return out;
}

}  // namespace

bool generates(const std::string &kind, DType dtype) {
    // TFLite Micro has float32 kernels only for these (SVDF: its int8 form
    // has int16 tensors, which the import refuses, so it is not generated).
    static const std::set<std::string> float_only = {"FLOOR", "CEIL", "ROUND", "EXP",       "LOG", "SQRT",
                                                     "SIN",   "COS",  "SQUARE", "FLOOR_DIV", "FLOOR_MOD", "NEG",
                                                     "SVDF"};
    return generators().count(kind) && (dtype == DType::Float32 || !float_only.count(kind));
}

const char *dtype_name(DType d) { return d == DType::Int8 ? "int8" : "float32"; }

std::string Case::id() const { return kind + "/" + dtype_name(dtype) + "/seed=" + std::to_string(seed); }

const std::vector<std::string> &single_op_kinds() {
    static const std::vector<std::string> kinds = [] {
        std::vector<std::string> v;
        for (const auto &[name, fn] : generators())
            if (name != "graph") v.push_back(name);
        return v;
    }();
    return kinds;
}

Case generate(const std::string &kind, DType dtype, uint64_t seed) {
    auto it = generators().find(kind);
    if (it == generators().end()) throw std::invalid_argument("no generator for \"" + kind + "\"");
    // The kind is mixed into the seed so that kinds do not share draws.
    uint64_t mixed = seed;
    for (char ch : kind) mixed = mixed * 131 + static_cast<uint8_t>(ch);
    if (!generates(kind, dtype))
        throw std::invalid_argument("\"" + kind + "\" is not generated in " + dtype_name(dtype));
    Gen g(dtype, mixed + (dtype == DType::Int8 ? 0 : 0x5bd1e995));
    static const std::set<std::string> positive = {"LOG", "SQRT", "RSQRT", "DIV", "FLOOR_DIV", "FLOOR_MOD"};
    g.positive = positive.count(kind) > 0;
    it->second(g);
    Case c;
    c.kind = kind;
    c.dtype = dtype;
    c.seed = seed;
    c.input = draw_input(g);
    c.model = g.b.write();
    c.what = g.what.str();
    return c;
}

}  // namespace tigris::oracle
