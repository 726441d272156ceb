// Kernel families a plan needs (docs/format.md F8) for every build
// configuration: the host builds both families, so the decision function is
// checked directly, and the refusal it causes on a build without one.
#include <gtest/gtest.h>

#include <memory>

extern "C" {
#include "../../core/src/loader/loader_internal.h"
}
#include "test_op_semantics_common.h"

namespace {

using opsem::OneOp;
using tigris_test::PlanBuilder;

// Loads bytes and returns the families the loaded plan needs (~0u if refused).
uint32_t needed(const std::vector<uint8_t> &bytes) {
    auto copy = std::make_unique<std::vector<uint8_t>>(bytes);
    tigris_plan_t plan;
    if (tigris_plan_load(copy->data(), (uint32_t)copy->size(), &plan) != TIGRIS_OK) return ~0u;
    return tigris__ld_families_needed(&plan);
}

TEST(LoaderFamilies, FloatPlanNeedsTheFloatFamily) {
    OneOp p(TIGRIS_OP_RELU, {opsem::f32({1, 4})}, {opsem::f32({1, 4})});
    EXPECT_EQ(needed(p.bytes()), TIGRIS__FAM_F32);
}

TEST(LoaderFamilies, Int8PlanNeedsTheInt8Family) {
    OneOp p(TIGRIS_OP_RELU, {opsem::s8({1, 4}, 0)}, {opsem::s8({1, 4}, 0)}, 11,
            [](PlanBuilder &b) { b.add_quant(0.5f, 3); });
    EXPECT_EQ(needed(p.bytes()), TIGRIS__FAM_S8);
}

TEST(LoaderFamilies, DataMovementNeedsNoFamily) {
    OneOp p(TIGRIS_OP_RESHAPE, {opsem::f32({2, 4})}, {opsem::f32({8})});
    EXPECT_EQ(needed(p.bytes()), 0u);
}

TEST(LoaderFamilies, BoolOnlyOpRunsInThePlanDataFamily) {
    OneOp p(TIGRIS_OP_LOGICAL_NOT, {opsem::b8({4})}, {opsem::b8({4})});
    EXPECT_EQ(needed(p.bytes()), TIGRIS__FAM_F32);  // no int8 tensor: the data dtype is float32
}

// int8 kernels defined by float math (TFLite builds their tables or
// statistics in float) need the float family as well.
TEST(LoaderFamilies, FloatDefinedInt8KernelsNeedBothFamilies) {
    for (uint8_t type : {TIGRIS_OP_ELU, TIGRIS_OP_ERF}) {
        OneOp p(type, {opsem::s8({1, 4}, 0)}, {opsem::s8({1, 4}, 1)}, 11, [](PlanBuilder &b) {
            b.add_quant(0.05f, -3);
            b.add_quant(0.02f, 5);
        });
        EXPECT_EQ(needed(p.bytes()), TIGRIS__FAM_S8 | TIGRIS__FAM_F32) << (int)type;
    }
}

TEST(LoaderFamilies, Int8ResizeLinearNeedsFloatOnlyWhenEncodingsDiffer) {
    auto plan = [](float out_scale) {
        OneOp p(TIGRIS_OP_RESIZE_LINEAR, {opsem::s8({1, 2, 2, 1}, 0)}, {opsem::s8({1, 4, 4, 1}, 1)}, 11,
                [out_scale](PlanBuilder &b) {
                    b.add_quant(0.1f, 2);
                    b.add_quant(out_scale, 2);
                });
        p.o().spatial.stride_h = 2;
        p.o().spatial.stride_w = 2;
        return p.bytes();
    };
    EXPECT_EQ(needed(plan(0.1f)), TIGRIS__FAM_S8);
    EXPECT_EQ(needed(plan(0.2f)), TIGRIS__FAM_S8 | TIGRIS__FAM_F32);
}

// This host build has both families, so every one of these plans loads; a
// build without one refuses exactly the plans whose need it lacks.
TEST(LoaderFamilies, RefusalFollowsTheBuild) {
    OneOp p(TIGRIS_OP_RELU, {opsem::f32({1, 4})}, {opsem::f32({1, 4})});
    auto bytes = p.bytes();
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    const uint32_t built = (TIGRIS_ENABLE_F32 ? TIGRIS__FAM_F32 : 0u) | (TIGRIS_ENABLE_S8 ? TIGRIS__FAM_S8 : 0u);
    const tigris_error_t want =
        (tigris__ld_families_needed(&plan) & ~built) ? TIGRIS_ERR_KERNEL_DISABLED : TIGRIS_OK;
    EXPECT_EQ(tigris__ld_kernel_families(&plan), want);
}

}  // namespace
