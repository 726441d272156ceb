// option_tables.h - the builtin option table of an operator built in memory.
// The TFLite writer (tigris_export) writes an operator's option table field by
// field as the reader stored it (Operator::option_fields); an operator a test
// builds has only the parsed Options. This derives the stored form from them,
// with the union type and field ids of TFLite's schema (docs/tflm-arena.md A10).
#pragma once

#include "tigris_tflite/model.hpp"

namespace tigris_test {

// Sets union_type, has_option_table and option_fields of `op` (a `builtin`
// operator) from op.options. Throws std::invalid_argument for a builtin it
// does not know.
void derive_option_table(tigris::tflite::Operator &op, int32_t builtin);

// Does that for every operator of subgraph 0 that has no option table yet.
void derive_option_tables(tigris::tflite::Model &m);

// Replaces (or adds) one scalar field of a stored option table.
void set_option_field(tigris::tflite::Operator &op, uint16_t id, uint8_t width, uint64_t bits);

}  // namespace tigris_test
