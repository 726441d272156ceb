// plan_builder.h - the plan writer (service/planfile) as the tests use it:
// its names in namespace tigris_test, plus loading helpers that report
// through GoogleTest.
#pragma once

#include <string>
#include <vector>

#include "tigris.h"
#include "tigris_loader.h"
#include "tigris_planfile/plan_builder.hpp"

namespace tigris_test {

using namespace tigris::planfile;  // PlanBuilder, Tensor, Op, Stage, ... and the byte helpers

// True when every field of a plan handle is zero/NULL (the loader's promise on failure).
bool plan_is_zeroed(const tigris_plan_t &plan);

// Loads a 16-byte-aligned copy of bytes with tigris_plan_load and again with
// tigris_plan_load_ex; records a test failure when the two disagree or when a
// failed load leaves the handle non-zero. Returns the error code.
tigris_error_t load_plan(const std::vector<uint8_t> &bytes, tigris_plan_limits_t *required = nullptr);

// "-6 BAD_SECTION": readable error codes in assertion messages.
std::string err_name(int code);

}  // namespace tigris_test

// Load `bytes` (both entry points) and compare the error code by name.
#define EXPECT_LOAD(bytes, code) \
    EXPECT_EQ(::tigris_test::err_name(::tigris_test::load_plan(bytes)), ::tigris_test::err_name(code))
#define ASSERT_LOAD(bytes, code) \
    ASSERT_EQ(::tigris_test::err_name(::tigris_test::load_plan(bytes)), ::tigris_test::err_name(code))
