// rewrite.hpp (internal to tigris_export) - the row-band rewrite of one run
// of operators, and the enumeration of the runs it can act on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "tigris_tflite/model.hpp"

namespace tigris::exporter::detail {

// A contiguous range of operators [first, last] of subgraph 0 that may be
// banded: every operator is of an allowed kind on int8 [1,H,W,C] tensors,
// every tensor it produces except the last operator's output is read only
// inside it, and it holds at least one strided or pooling operator.
struct Run {
    size_t first = 0, last = 0;
    bool has_foldable_pad = false;  // folding could change the rewrite
};
std::vector<Run> bandable_runs(const tflite::Model &m);

struct BandPlan {
    Run run;
    int bands = 2;      // 2..10 (CONCATENATION takes at most 10 inputs)
    bool fold = false;  // fold PADs equal to a conv's SAME padding
};

struct Rewrite {
    tflite::Model model;  // a complete model (spans into the source image or owned buffers)
    int folds = 0;        // PAD operators folded into a convolution
};

// The rewritten model for `plan`, or nullopt when that band count does not
// fit the run (a band with no rows, an output shorter than the band count).
std::optional<Rewrite> band_rewrite(const tflite::Model &m, const BandPlan &plan);

// Multiply-accumulates of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED
// (the operators whose cost is MACs), from tensor shapes.
int64_t model_macs(const tflite::Model &m);

}  // namespace tigris::exporter::detail
