// quant.cpp - see quant.hpp. Host code, so double and <cmath> are fine here;
// the core never recomputes these, it consumes them from the plan.
#include "tigris_import/quant.hpp"

#include <cmath>

namespace tigris::import {

Multiplier quantize_multiplier(double real) {
    if (real == 0.0) return {};
    int exp = 0;
    double mant = std::frexp(real, &exp);  // real = mant * 2^exp, mant in [0.5, 1)
    int64_t q = std::llround(mant * 2147483648.0);
    if (q == (int64_t{1} << 31)) {  // the mantissa rounded up to 1.0
        q /= 2;
        ++exp;
    }
    if (exp < -31) return {};  // below what a 31-bit right shift can express
    return {static_cast<int32_t>(q), exp};
}

std::vector<Multiplier> channel_multipliers(float input_scale, std::span<const float> filter_scales,
                                            float output_scale) {
    std::vector<Multiplier> out;
    out.reserve(filter_scales.size());
    for (float fs : filter_scales)
        out.push_back(quantize_multiplier(static_cast<double>(input_scale) * static_cast<double>(fs) /
                                          static_cast<double>(output_scale)));
    return out;
}

}  // namespace tigris::import
