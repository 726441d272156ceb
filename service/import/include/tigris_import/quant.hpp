// quant.hpp - int8 requantization parameters exactly as TFLite derives them
// from float scales, for the plan's per-channel multiplier/shift tables.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tigris::import {

struct Multiplier {
    int32_t multiplier = 0;  // Q0.31, in [2^30, 2^31) or 0
    int32_t shift = 0;       // real = multiplier * 2^(shift - 31)
};

// TFLite's QuantizeMultiplier: frexp, round the mantissa to 31 bits, carry a
// rounded-up 1.0 into the exponent, and flush values too small to express.
Multiplier quantize_multiplier(double real);

// Per output channel: input_scale * filter_scale[c] / output_scale computed
// in double from the float scales (as TFLite's conv/FC preparation does).
// A single filter scale yields a single multiplier.
std::vector<Multiplier> channel_multipliers(float input_scale, std::span<const float> filter_scales,
                                            float output_scale);

}  // namespace tigris::import
