/*
 * ops.c - the class table generated from ops.def, and the compile-time
 * proof that the table and the TIGRIS_OP_* enum of tigris.h agree.
 */
#include "ops.h"

/* Every row's value is its enum value... */
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) \
    _Static_assert(TIGRIS_OP_##name == (value), "ops.def: " #name " differs from tigris.h");
#include "ops.def"

/* ...and the rows are 1, 2, ... TIGRIS_OP_MAX_KNOWN in order, so the table
 * has a row for every opcode the enum assigns. */
enum {
    TG_ROW_BEFORE_FIRST = 0,
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) TG_ROW_##name,
#include "ops.def"
    TG_ROW_COUNT_PLUS_ONE
};
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) \
    _Static_assert(TG_ROW_##name == (value), "ops.def: " #name " is out of order");
#include "ops.def"
_Static_assert(TG_ROW_COUNT_PLUS_ONE - 1 == TIGRIS_OP_MAX_KNOWN, "ops.def: a row per opcode up to TIGRIS_OP_MAX_KNOWN");

const uint16_t tigris__op_classes[TIGRIS_OP_MAX_KNOWN + 1] = {
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) [value] = (uint16_t)(classes),
#include "ops.def"
};
