/* opclass.c - the operator lists the stage and band rules are written in
 * (docs/format.md P6.2/P7.3, docs/runtime-semantics.md R2.7). */
#include "loader_internal.h"

int tigris__op_is_unary(uint8_t t) {
    switch (t) {
    case TIGRIS_OP_RELU: case TIGRIS_OP_RELU6: case TIGRIS_OP_SIGMOID: case TIGRIS_OP_TANH:
    case TIGRIS_OP_SOFTMAX: case TIGRIS_OP_LEAKY_RELU: case TIGRIS_OP_ELU: case TIGRIS_OP_LOG_SOFTMAX:
    case TIGRIS_OP_L2_NORMALIZATION: case TIGRIS_OP_ERF: case TIGRIS_OP_HARDSWISH: case TIGRIS_OP_ABS:
    case TIGRIS_OP_RSQRT: case TIGRIS_OP_NEG: case TIGRIS_OP_LOGICAL_NOT: case TIGRIS_OP_CAST:
    case TIGRIS_OP_EXP: case TIGRIS_OP_LOG: case TIGRIS_OP_SQRT: case TIGRIS_OP_SQUARE:
    case TIGRIS_OP_FLOOR: case TIGRIS_OP_CEIL: case TIGRIS_OP_ROUND: case TIGRIS_OP_SIN:
    case TIGRIS_OP_COS: case TIGRIS_OP_LAYER_NORM: return 1;
    default: return 0;
    }
}

int tigris__op_is_binary(uint8_t t) {
    switch (t) {
    case TIGRIS_OP_ADD: case TIGRIS_OP_SUB: case TIGRIS_OP_MUL: case TIGRIS_OP_DIV:
    case TIGRIS_OP_SQUARED_DIFFERENCE: case TIGRIS_OP_MAXIMUM: case TIGRIS_OP_MINIMUM:
    case TIGRIS_OP_FLOOR_DIV: case TIGRIS_OP_FLOOR_MOD: case TIGRIS_OP_PRELU: case TIGRIS_OP_SELECT_V2:
    case TIGRIS_OP_ADD_N: return 1;
    default: return t >= TIGRIS_OP_EQUAL && t <= TIGRIS_OP_LOGICAL_OR;
    }
}

int tigris__op_is_spatial_h(uint8_t t) {
    return t == TIGRIS_OP_CONV || t == TIGRIS_OP_DEPTHWISE || t == TIGRIS_OP_MAX_POOL || t == TIGRIS_OP_AVG_POOL ||
           t == TIGRIS_OP_L2_POOL;
}

int tigris__op_is_chainable(uint8_t t) {
    if (tigris__op_is_spatial_h(t)) return 1;
    if (t >= TIGRIS_OP_EQUAL && t <= TIGRIS_OP_ADD_N) return 1;
    switch (t) {
    case TIGRIS_OP_RELU: case TIGRIS_OP_RELU6: case TIGRIS_OP_SIGMOID: case TIGRIS_OP_TANH:
    case TIGRIS_OP_SOFTMAX: case TIGRIS_OP_LEAKY_RELU: case TIGRIS_OP_PRELU: case TIGRIS_OP_ELU:
    case TIGRIS_OP_LOG_SOFTMAX: case TIGRIS_OP_L2_NORMALIZATION: case TIGRIS_OP_ERF: case TIGRIS_OP_HARDSWISH:
    case TIGRIS_OP_ABS: case TIGRIS_OP_RSQRT: case TIGRIS_OP_NEG: case TIGRIS_OP_EXP: case TIGRIS_OP_LOG:
    case TIGRIS_OP_SQRT: case TIGRIS_OP_SQUARE: case TIGRIS_OP_FLOOR: case TIGRIS_OP_CEIL:
    case TIGRIS_OP_ROUND: case TIGRIS_OP_SIN: case TIGRIS_OP_COS: case TIGRIS_OP_DIV:
    case TIGRIS_OP_SQUARED_DIFFERENCE: case TIGRIS_OP_MAXIMUM: case TIGRIS_OP_MINIMUM:
    case TIGRIS_OP_FLOOR_DIV: case TIGRIS_OP_FLOOR_MOD: case TIGRIS_OP_LAYER_NORM: case TIGRIS_OP_ADD:
    case TIGRIS_OP_SUB: case TIGRIS_OP_MUL: case TIGRIS_OP_CONCAT: return 1;
    default: return 0;
    }
}

int tigris__op_is_height_tiling(uint8_t t) {
    return tigris__op_is_spatial_h(t) || t == TIGRIS_OP_RESIZE || t == TIGRIS_OP_RESIZE_LINEAR ||
           t == TIGRIS_OP_CONV_TRANSPOSE || t == TIGRIS_OP_CONCAT || tigris__op_is_unary(t) ||
           tigris__op_is_binary(t);
}

int tigris__op_is_row_tiling(uint8_t t) {
    return t == TIGRIS_OP_FULLY_CONN || t == TIGRIS_OP_MATMUL || t == TIGRIS_OP_RESHAPE || t == TIGRIS_OP_FLATTEN ||
           tigris__op_is_unary(t) || tigris__op_is_binary(t);
}
