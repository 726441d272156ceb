// model_gen.hpp - seeded random TFLite models and inputs for the oracle
// (docs/oracle.md): single operators of every builtin `tigris import` maps to
// a runtime opcode, with random shapes, options and quantisation, and random
// multi-operator graphs. The same (kind, dtype, seed) gives the same bytes on
// every run and machine: the generator uses its own integer mixing, not the
// standard library's distributions, whose results differ between libraries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tigris::oracle {

enum class DType { Int8, Float32 };
const char *dtype_name(DType d);

struct Case {
    std::string kind;  // "CONV_2D", ..., or "graph"
    DType dtype = DType::Int8;
    uint64_t seed = 0;
    std::string what;               // shapes and options, for a failure message
    std::vector<uint8_t> model;     // the .tflite file
    std::vector<uint8_t> input;     // every model input's bytes, in input order
    std::string id() const;         // "CONV_2D/int8/seed=17": regenerates the case
};

// Every single-operator kind the generator makes.
const std::vector<std::string> &single_op_kinds();

// Whether `kind` is made in `dtype`: some builtins have float32 kernels only
// in TFLite Micro (FLOOR, EXP, DIV, ...), so an int8 model of them would be
// refused by the oracle itself.
bool generates(const std::string &kind, DType dtype);

// A model of one operator of `kind` (one of single_op_kinds()), or of a random
// graph when kind is "graph". Throws std::invalid_argument for an unknown
// kind or one generates() says no to.
Case generate(const std::string &kind, DType dtype, uint64_t seed);

}  // namespace tigris::oracle
