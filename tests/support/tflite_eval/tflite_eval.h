// tflite_eval.h - an int8 TFLite-graph evaluator for tests: a TFLite model is
// lowered by `tigris import` (one operator per stage, no tiling) and run by
// the core's int8 reference kernels in arenas far larger than the plan asks
// for, so nothing but the arithmetic decides the output bytes. The import
// lowering is TFLite-exact per operator (docs/import.md; every oracle case of
// TFLite Micro is reproduced byte for byte, tests/import/exact/), which makes
// this the judge of whether two TFLite models compute the same bytes.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "tigris_tflite/model.hpp"

namespace tigris_test {

// Anything that stops an evaluation: an unreadable file, a refused lowering,
// wrong input bytes, a kernel failure. The message says which step and, for
// a kernel failure, which operator (its index and TFLite output tensor).
class TfliteEvalError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct TfliteEvalResult {
    std::vector<uint8_t> outputs;        // model outputs concatenated, model-output order
    std::vector<uint32_t> output_sizes;  // bytes of each output
    size_t operators = 0;                // plan operators run
};

// Bytes each model input takes, model-input order: element count times the
// size of the input's TFLite type (float32 inputs stay float32: a QUANTIZE
// behind them is done by the plan's interface conversion, as TFLite does).
std::vector<size_t> tflite_input_sizes(const tigris::tflite::Model &m);

// Evaluates subgraph 0 on `inputs` (every model input's raw bytes,
// concatenated in model-input order). Throws TfliteEvalError.
TfliteEvalResult tflite_evaluate(const tigris::tflite::Model &m, std::span<const uint8_t> inputs);
TfliteEvalResult tflite_evaluate(std::span<const uint8_t> model_file, std::span<const uint8_t> inputs);

// Seeded inputs for a model: int8 inputs uniform over all 256 values; float32
// inputs uniform over the range the int8 tensor behind their QUANTIZE can
// represent ([-1, 1) when there is none). Same seed, same bytes.
std::vector<uint8_t> tflite_seeded_inputs(const tigris::tflite::Model &m, uint32_t seed);

}  // namespace tigris_test
