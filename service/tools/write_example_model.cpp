// write_example_model.cpp - writes the example model the build compiles for
// the viewer: a small MobileNet-like int8 classifier (96x96x3 input, a
// strided stem, four depthwise-separable blocks, mean, fully connected,
// softmax) with seeded weights, written with the project's own TFLite writer.
//
//   tigris_write_example_model OUT.tflite
//
// Its activations need about 54 KiB at once when each operator runs whole,
// so compiled for a much smaller fast budget the plan has what TiGrIS is
// about: stages of several operators, row bands with halos, streamed chains
// and spills to slow memory (docs/compile.md). The same bytes every run.
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "tigris_export/model_builder.hpp"

namespace {

namespace tfl = tigris::tflite;
namespace op = tigris::exporter::op;
namespace opt = tigris::exporter::opt;
using tigris::exporter::ModelBuilder;
using tigris::exporter::Quant;

// splitmix64, so the weights are the same on every machine and library.
struct Rng {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int32_t in(int32_t lo, int32_t hi) { return lo + static_cast<int32_t>(next() % uint64_t(hi - lo + 1)); }
};

class Net {
public:
    // The input: 1x96x96x3 int8 at scale 1/128 (an image mapped to [-1, 1)).
    int32_t input() {
        x_ = b_.tensor(tfl::TensorType::Int8, {1, 96, 96, 3}, Quant::per_tensor(1.0f / 128.0f, 0));
        in_ = x_;
        return x_;
    }

    // A KxK convolution (stride s, SAME) to `cout` channels with RELU6.
    void conv(int32_t k, int32_t s, int32_t cout) {
        const auto &sh = b_.t(x_).shape;
        const int32_t cin = sh[3];
        const int32_t y = activation({1, out(sh[1], s), out(sh[2], s), cout}, k * k * cin);
        const auto w = weights({cout, k, k, cin}, 0, cout);
        b_.op(op::kConv2D, {x_, w.first, w.second}, {y}, opt::kConv2D);
        b_.opt_i8(0, 0);  // SAME
        b_.opt_i32(1, s);
        b_.opt_i32(2, s);
        b_.opt_i8(3, 3);  // RELU6
        b_.opt_i32(4, 1);
        b_.opt_i32(5, 1);
        x_ = y;
    }

    // A 3x3 depthwise convolution (stride s, SAME, multiplier 1) with RELU6.
    void depthwise(int32_t s) {
        const auto &sh = b_.t(x_).shape;
        const int32_t c = sh[3];
        const int32_t y = activation({1, out(sh[1], s), out(sh[2], s), c}, 9);
        const auto w = weights({1, 3, 3, c}, 3, c);
        b_.op(op::kDepthwiseConv2D, {x_, w.first, w.second}, {y}, opt::kDepthwise);
        b_.opt_i8(0, 0);
        b_.opt_i32(1, s);
        b_.opt_i32(2, s);
        b_.opt_i32(3, 1);
        b_.opt_i8(4, 3);
        b_.opt_i32(5, 1);
        b_.opt_i32(6, 1);
        x_ = y;
    }

    // Mean over the image, a fully connected layer to `classes`, softmax.
    void head(int32_t classes) {
        const int32_t c = b_.t(x_).shape[3];
        const int32_t axes = b_.const_i32({2}, {1, 2});
        const int32_t m = b_.tensor(tfl::TensorType::Int8, {1, c}, quant_of(x_));
        b_.op(op::kMean, {x_, axes}, {m}, opt::kReducer);
        b_.opt_bool(0, false);
        x_ = m;
        const int32_t f = activation({1, classes}, c);
        const auto w = weights({classes, c}, 0, 1);
        b_.op(op::kFullyConnected, {x_, w.first, w.second}, {f}, opt::kFullyConnected);
        b_.opt_i8(0, 0);
        const int32_t p = b_.tensor(tfl::TensorType::Int8, {1, classes}, Quant::per_tensor(1.0f / 256.0f, -128));
        b_.op(op::kSoftmax, {f}, {p}, opt::kSoftmax);
        b_.opt_f32(0, 1.0f);
        x_ = p;
    }

    std::vector<uint8_t> write() {
        b_.io({in_}, {x_});
        return b_.write();
    }

private:
    static int32_t out(int32_t n, int32_t s) { return (n + s - 1) / s; }

    Quant quant_of(int32_t id) const {
        const tfl::Tensor &t = b_.t(id);
        Quant q;
        q.scale = t.quant.scale;
        q.zero_point = t.quant.zero_point;
        return q;
    }

    // An int8 output whose scale keeps a sum of `fan_in` products of the
    // current input and weights near full range (RELU6 clamps it anyway).
    int32_t activation(std::vector<int32_t> shape, int32_t fan_in) {
        const float in_scale = b_.t(x_).quant.scale[0];
        const float s = 40.0f * in_scale * 60.0f * kWeightScale * std::sqrt(float(fan_in)) / 127.0f;
        return b_.tensor(tfl::TensorType::Int8, std::move(shape), Quant::per_tensor(s, -128));
    }

    // int8 weights of `shape` quantized per channel along `dim` (`channels`
    // scales; 1 for per-tensor) and their int32 bias at input x weight scale.
    std::pair<int32_t, int32_t> weights(const std::vector<int32_t> &shape, int32_t dim, int32_t channels) {
        int64_t n = 1;
        for (int32_t d : shape) n *= d;
        std::vector<int8_t> v(static_cast<size_t>(n));
        for (int8_t &w : v) w = static_cast<int8_t>(rng_.in(-127, 127));
        Quant wq;
        wq.dim = dim;
        for (int32_t c = 0; c < channels; ++c) {
            wq.scale.push_back(kWeightScale * (0.75f + 0.5f * float(rng_.in(0, 100)) / 100.0f));
            wq.zero_point.push_back(0);
        }
        const int32_t outs = shape[static_cast<size_t>(dim)];
        const float in_scale = b_.t(x_).quant.scale[0];
        std::vector<int32_t> bias(static_cast<size_t>(outs));
        Quant bq;
        for (int32_t c = 0; c < outs; ++c) {
            bias[static_cast<size_t>(c)] = rng_.in(-2000, 2000);
            bq.scale.push_back(in_scale * wq.scale[static_cast<size_t>(channels > 1 ? c : 0)]);
            bq.zero_point.push_back(0);
        }
        return {b_.const_i8(shape, v, wq), b_.const_i32({outs}, bias, bq)};
    }

    static constexpr float kWeightScale = 0.01f;
    ModelBuilder b_;
    Rng rng_{0x7469677269730001ull};
    int32_t x_ = -1, in_ = -1;
};

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::cerr << "usage: tigris_write_example_model OUT.tflite\n";
        return 1;
    }
    Net net;
    net.input();
    net.conv(3, 2, 8);  // 48x48x8
    net.depthwise(1);
    net.conv(1, 1, 16);  // 48x48x16: 36 KiB
    net.depthwise(2);    // 24x24x16
    net.conv(1, 1, 24);
    net.depthwise(2);  // 12x12x24
    net.conv(1, 1, 48);
    net.depthwise(2);  // 6x6x48
    net.conv(1, 1, 64);
    net.head(10);
    const std::vector<uint8_t> bytes = net.write();
    std::ofstream f(argv[1], std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!f) {
        std::cerr << "error: cannot write " << argv[1] << '\n';
        return 1;
    }
    return 0;
}
