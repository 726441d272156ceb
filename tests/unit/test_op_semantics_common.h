// test_op_semantics_common.h - one-operator plans for the operator-semantics
// tests (docs/format.md P5.5, P5.6, P8.1, P9, P10, P14). Each test builds a
// valid plan, checks that it loads, breaks exactly one rule and checks the
// error. Expected shapes and sizes in the tests are worked out by hand from
// the spec's formulas, not taken from the loader.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "plan_builder.h"

namespace opsem {

using tigris_test::PlanBuilder;

struct T {
    uint8_t dtype = TIGRIS_DTYPE_FLOAT32;
    std::vector<int32_t> shape;
    int quant = -1;
    uint8_t flags = 0;
};

inline T f32(std::vector<int32_t> s) { return T{TIGRIS_DTYPE_FLOAT32, std::move(s), -1, 0}; }
inline T s8(std::vector<int32_t> s, int q) { return T{TIGRIS_DTYPE_INT8, std::move(s), q, 0}; }
inline T b8(std::vector<int32_t> s) { return T{TIGRIS_DTYPE_BOOL, std::move(s), -1, 0}; }
inline T i32(std::vector<int32_t> s) { return T{TIGRIS_DTYPE_INT32, std::move(s), -1, 0}; }

// A plan of one operator in one stage: every input is a model input, every
// output a model output. Quant records must be added before (indices given in T).
struct OneOp {
    PlanBuilder b;
    uint16_t op = 0;
    std::vector<uint16_t> in, out;

    OneOp(uint8_t type, const std::vector<T> &ins, const std::vector<T> &outs, uint32_t rev = 11,
          std::function<void(PlanBuilder &)> pre = nullptr)
        : b(rev) {
        if (pre) pre(b);
        int k = 0;
        for (const T &t : ins)
            in.push_back(b.add_tensor("in" + std::to_string(k++), t.dtype, t.shape,
                                      (uint8_t)(TIGRIS_TENSOR_MODEL_INPUT | t.flags), t.quant));
        k = 0;
        for (const T &t : outs)
            out.push_back(b.add_tensor("out" + std::to_string(k++), t.dtype, t.shape,
                                       (uint8_t)(TIGRIS_TENSOR_MODEL_OUTPUT | t.flags), t.quant));
        op = b.add_op(type, in, out, "op");
        b.add_stage({op}, in, out);
    }
    tigris_test::Op &o() { return b.ops[op]; }
    void attr(uint8_t kind, std::vector<uint8_t> bytes) { b.add_attribute(op, kind, std::move(bytes)); }
    std::vector<uint8_t> bytes() { return b.build(); }
};

inline std::vector<uint8_t> cat(std::vector<uint8_t> a, const std::vector<uint8_t> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// CONSTANT_OPERAND payload: position, 0, quant index (+ optional shape).
inline std::vector<uint8_t> const_operand(uint8_t pos, uint16_t qidx = TIGRIS_NONE16,
                                          std::vector<int32_t> shape = {}) {
    std::vector<uint8_t> p = {pos, 0, (uint8_t)(qidx & 0xFF), (uint8_t)(qidx >> 8)};
    return cat(p, tigris_test::le_i32(shape));
}

inline std::vector<uint8_t> i8_bytes(size_t n) { return std::vector<uint8_t>(n, 1); }

}  // namespace opsem

// The valid plan loads; the broken one is refused with `code`.
#define EXPECT_VALID_THEN(good, bad, code)         \
    do {                                           \
        ASSERT_LOAD((good), TIGRIS_OK);            \
        EXPECT_LOAD((bad), (code));                \
    } while (0)
