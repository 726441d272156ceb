// run_geometry.hpp (internal) - one operator of a bandable run with the row
// geometry the band rewrite needs.
#pragma once

#include <array>
#include <optional>

#include "tigris_tflite/model.hpp"

namespace tigris::exporter::detail {

struct Node {
    enum Kind { kSpatial, kPad, kUnary, kBinary };
    size_t op = 0;
    int32_t code = 0;
    Kind kind = kUnary;
    int32_t in = -1, out = -1;  // the row-carrying input (input 0) and the output
    // Rows: output row o reads input rows [o*stride - pt, o*stride - pt + eff).
    int32_t stride = 1, eff = 1;
    // Padding the operator applies: implicit (SAME) for kSpatial, explicit for kPad.
    int32_t pt = 0, pb = 0, pl = 0, pr = 0;
    std::array<int32_t, 8> pads{};  // kPad: the paddings tensor as stored
    bool max_pool = false;
    bool strided_or_pool = false;
    bool folded = false;             // a kPad folded into the convolution that reads it
};

// The node for operator `op_index` of subgraph 0, or nullopt when it cannot
// be part of a run.
std::optional<Node> node_for(const tflite::Model &m, size_t op_index);
bool is_const(const tflite::Model &m, int32_t tensor);
std::optional<std::array<int32_t, 8>> const_paddings(const tflite::Model &m, int32_t tensor);

}  // namespace tigris::exporter::detail
