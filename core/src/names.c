/*
 * names.c - names of opcodes and dtypes for logs and tools. A file of its
 * own so that firmware which never prints a name does not link the strings.
 */
#include "tigris.h"

#include <stddef.h>

static const char *const op_names[TIGRIS_OP_MAX_KNOWN + 1] = {
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) [value] = #name,
#include "ops.def"
};

const char *tigris_op_type_name(uint32_t op_type) {
    if (op_type == TIGRIS_OP_UNKNOWN) return "UNKNOWN";
    return op_type <= TIGRIS_OP_MAX_KNOWN ? op_names[op_type] : NULL;
}

const char *tigris_dtype_name(uint32_t dtype) {
    switch (dtype) {
    case TIGRIS_DTYPE_FLOAT32: return "float32";
    case TIGRIS_DTYPE_UINT8: return "uint8";
    case TIGRIS_DTYPE_INT8: return "int8";
    case TIGRIS_DTYPE_INT16: return "int16";
    case TIGRIS_DTYPE_INT32: return "int32";
    case TIGRIS_DTYPE_INT64: return "int64";
    case TIGRIS_DTYPE_BOOL: return "bool";
    default: return NULL;
    }
}
