// TFLite-style multipliers on values whose mantissa and exponent are known
// by hand (powers of two and simple binary fractions).
#include <gtest/gtest.h>

#include <cmath>

#include "tigris_import/quant.hpp"

using tigris::import::channel_multipliers;
using tigris::import::quantize_multiplier;

TEST(ImportQuant, HandDerivedMultipliers) {
    // 0.5 = 0.5 * 2^0 -> mantissa 0.5 -> 2^30
    EXPECT_EQ(quantize_multiplier(0.5).multiplier, 1 << 30);
    EXPECT_EQ(quantize_multiplier(0.5).shift, 0);
    // 1.0 = 0.5 * 2^1
    EXPECT_EQ(quantize_multiplier(1.0).multiplier, 1 << 30);
    EXPECT_EQ(quantize_multiplier(1.0).shift, 1);
    // 0.75 = 0.75 * 2^0 -> 0.75 * 2^31 = 0x60000000
    EXPECT_EQ(quantize_multiplier(0.75).multiplier, 0x60000000);
    EXPECT_EQ(quantize_multiplier(0.75).shift, 0);
    // 3/16 = 0.75 * 2^-2
    EXPECT_EQ(quantize_multiplier(0.1875).multiplier, 0x60000000);
    EXPECT_EQ(quantize_multiplier(0.1875).shift, -2);
    EXPECT_EQ(quantize_multiplier(0.0).multiplier, 0);
}

TEST(ImportQuant, MantissaRoundingUpToOneCarriesIntoTheShift) {
    // 1 - 2^-40 has mantissa just under 1 whose 31-bit rounding is 2^31
    auto m = quantize_multiplier(1.0 - std::ldexp(1.0, -40));
    EXPECT_EQ(m.multiplier, 1 << 30);
    EXPECT_EQ(m.shift, 1);
}

TEST(ImportQuant, TooSmallFlushesToZero) {
    auto m = quantize_multiplier(std::ldexp(0.75, -40));
    EXPECT_EQ(m.multiplier, 0);
    EXPECT_EQ(m.shift, 0);
    // 2^-32 = 0.5 * 2^-31 is still expressible
    EXPECT_EQ(quantize_multiplier(std::ldexp(1.0, -32)).shift, -31);
}

TEST(ImportQuant, PerChannelScalesCombineInDouble) {
    // input 0.5, filter {0.25, 0.375}, output 0.125: 1.0 and 1.5
    const float fs[] = {0.25f, 0.375f};
    auto v = channel_multipliers(0.5f, fs, 0.125f);
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].multiplier, 1 << 30);
    EXPECT_EQ(v[0].shift, 1);
    EXPECT_EQ(v[1].multiplier, 0x60000000);  // 1.5 = 0.75 * 2^1
    EXPECT_EQ(v[1].shift, 1);
}
