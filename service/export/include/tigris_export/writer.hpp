// writer.hpp - TFLite model -> flatbuffer bytes (the inverse of
// tigris::tflite::read_model). Uses flatbuffers' FlatBufferBuilder from
// Debian's libflatbuffers-dev; no schema or generated code, the field ids
// are those of tflm-arena.md section 10 (the same ones the reader walks).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "tigris_tflite/model.hpp"

namespace tigris::exporter {

class WriteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Writes every part of `m` the reader keeps: operator codes (builtin_code
// and deprecated_builtin_code = min(code, 127)), buffers (data 16-byte
// aligned; buffer 0 should be the empty sentinel, as the reader found it),
// subgraphs with tensors (shape, type, buffer, name, quantization min/max/
// scale/zero_point/quantized_dimension, is_variable, shape_signature,
// has_rank), operators (opcode, inputs, outputs, intermediates, the builtin
// option table field by field as the reader stored it, custom options),
// description, metadata and signature defs; file identifier "TFL3".
//
// Guarantee: read_model(write_model(m)) yields a model equal to `m` field by
// field, and write_model of that model gives the same bytes again.
//
// Throws WriteError when `m.uncarried` is not empty (those parts of the
// source file are not in `m`, so writing would drop them silently) or when
// an index in `m` (opcode, tensor, buffer, subgraph) is out of range.
std::vector<uint8_t> write_model(const tflite::Model &m);

}  // namespace tigris::exporter
