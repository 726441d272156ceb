// op_cases.h - one small plan per opcode and route, run through `tigris run`.
//
// Each kernel family registers its cases from its own file
// (tests/service/op_cases_<family>.cpp) with TIGRIS_OP_CASE. A case is a
// complete plan written by the plan builder, the model inputs' bytes and the
// model outputs' bytes expected, derived independently of the kernels (by
// hand or with a different formulation in the test). test_op_plans_cli.cpp
// writes each case to disk, runs the CLI on it and compares the bytes, and
// checks that every opcode with a kernel route has a case for that route.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan_builder.h"

namespace tigris_test {

struct OpCase {
    std::string name;            // unique, e.g. "abs_f32"; becomes the file name
    uint8_t opcode = 0;          // the operator the case exists for
    std::string route;           // "f32" or "s8": the backend `tigris run` is given
    std::vector<uint8_t> plan;   // PlanBuilder::build() output
    std::vector<uint8_t> input;  // model inputs in declared dtypes, concatenated
    std::vector<uint8_t> expected;  // model outputs in declared dtypes, concatenated
};

using OpCaseFn = OpCase (*)();

// Adds fn to the list every op-case test walks; returns an int so it can
// initialise a static.
int register_op_case(OpCaseFn fn);
const std::vector<OpCaseFn> &op_cases();

// Raw bytes of a vector of trivially copyable values.
template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T> &v) {
    const uint8_t *p = reinterpret_cast<const uint8_t *>(v.data());
    return std::vector<uint8_t>(p, p + v.size() * sizeof(T));
}

}  // namespace tigris_test

// TIGRIS_OP_CASE(make_abs_f32) { ... return c; } defines and registers a case.
#define TIGRIS_OP_CASE(fn)                                                              \
    static ::tigris_test::OpCase fn();                                                  \
    [[maybe_unused]] static const int fn##_registered = ::tigris_test::register_op_case(fn); \
    static ::tigris_test::OpCase fn()
