// write_example_plan.cpp - writes the example plan the build ships:
//
//   x [1,16,16,3] f32 -> Conv 3x3 pad 1 (3->8, bias) -> Relu -> MaxPool 2x2 s2 -> y [1,8,8,8]
//
// Stage 0 runs Conv and Relu, stage 1 the pool; schema 11 with its memory
// section. The numbers below are worked out by hand so that a reader (and the
// service tests) can check them:
//   x 16*16*3*4 = 3072 B, conv out and relu out 16*16*8*4 = 8192 B each,
//   y 8*8*8*4 = 2048 B (all multiples of the 32-byte allocation granule).
//   Stage 0 holds x + conv out + relu out = 19456 B; stage 1 holds relu out
//   + y = 10240 B. The largest stage is the scheduled peak: 19456 B.
#include <fstream>
#include <iostream>

#include "tigris_planfile/plan_builder.hpp"

namespace {

constexpr int kH = 16, kW = 16, kIn = 3, kOut = 8;

std::vector<uint8_t> example_plan() {
    using tigris::planfile::PlanBuilder;
    PlanBuilder b(11);
    b.model_name = "example_conv_relu_pool";

    const uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, kH, kW, kIn}, TIGRIS_TENSOR_MODEL_INPUT);
    const uint16_t c = b.add_tensor("conv0_out", TIGRIS_DTYPE_FLOAT32, {1, kH, kW, kOut});
    const uint16_t r = b.add_tensor("relu0_out", TIGRIS_DTYPE_FLOAT32, {1, kH, kW, kOut});
    const uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, kH / 2, kW / 2, kOut}, TIGRIS_TENSOR_MODEL_OUTPUT);

    // Small, sign-mixed weights so the Relu actually clips something; the
    // pattern is arbitrary but fixed, so the file is reproducible byte for byte.
    std::vector<float> w(static_cast<size_t>(kOut) * 3 * 3 * kIn);  // OHWI
    for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>((i * 7) % 13) - 6) * 0.0625f;
    std::vector<float> bias(kOut);
    for (int o = 0; o < kOut; ++o) bias[o] = static_cast<float>(o - 4) * 0.125f;
    const uint16_t wi = b.add_float_weight("conv0.weight", w);
    const uint16_t bi = b.add_float_weight("conv0.bias", bias);

    const uint16_t conv = b.add_op(TIGRIS_OP_CONV, {x}, {c}, "conv0");
    b.ops[conv].spatial = PlanBuilder::conv_spatial(3, 1, 1);
    b.ops[conv].weight = wi;
    b.ops[conv].bias = bi;
    const uint16_t relu = b.add_op(TIGRIS_OP_RELU, {c}, {r}, "relu0");
    const uint16_t pool = b.add_op(TIGRIS_OP_MAX_POOL, {r}, {y}, "pool0");
    b.ops[pool].spatial = PlanBuilder::conv_spatial(2, 2, 0);

    const uint16_t s0 = b.add_stage({conv, relu}, {x}, {r});
    const uint16_t s1 = b.add_stage({pool}, {r}, {y});
    b.stages[s0].peak = 3072 + 8192 + 8192;
    b.stages[s1].peak = 8192 + 2048;

    b.budget = 32768;  // the arena the model was compiled for
    b.peak = 19456;
    b.scheduled_peak = 19456;
    return b.build();
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::cerr << "usage: " << argv[0] << " OUT.tgrs\n";
        return 1;
    }
    const std::vector<uint8_t> bytes = example_plan();
    std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
        std::cerr << "error: cannot write " << argv[1] << '\n';
        return 1;
    }
    return 0;
}
