// band_by_hand.h - the row-band rewrite of `tigris export` (seed export.txt,
// "What export changes") done by hand for tests, on a linear run of int8
// operators: each band SLICEs the input rows it needs (with the overlap the
// windows read), PADs (PADV2 with -128 in front of a max pool) what the
// original operator padded at that band's edges, runs copies of the
// operators with VALID padding on the original weights, and a CONCATENATION
// along the rows joins the bands into the run's original output tensor.
//
// This is a second, independent statement of the banding arithmetic (the
// export branch has its own): the bit-exactness tests compare the banded
// graph with the original through the int8 evaluator.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "tigris_tflite/model.hpp"

namespace tigris_test {

// Operators [first, last] of subgraph 0 must form a chain (each one's first
// input is the previous one's output, which nothing else reads), of rank-4
// int8 tensors, each CONV_2D, DEPTHWISE_CONV_2D, MAX_POOL_2D, AVERAGE_POOL_2D
// without padding, an elementwise unary (RELU, RELU6, LOGISTIC, TANH,
// HARD_SWISH, LEAKY_RELU, QUANTIZE, ABS) or ADD/SUB/MUL/MAXIMUM/MINIMUM with
// a constant that does not vary along the rows. `cuts` are the band edges in
// the run's output rows: 0 < c1 < ... < H (0 and H implied). Throws
// std::invalid_argument when the run cannot be banded.
tigris::tflite::Model band_by_hand(const tigris::tflite::Model &src, size_t first, size_t last,
                                   const std::vector<int32_t> &cuts);

// `bands` bands of near-equal height (the first ones one row taller).
tigris::tflite::Model band_by_hand(const tigris::tflite::Model &src, size_t first, size_t last, int bands);

}  // namespace tigris_test
