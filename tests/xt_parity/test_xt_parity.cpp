// The lx106 backend built for the host against the int8 reference: seeded
// single-op cases of every tuned op type, whole tensors and random bands or
// tiles, compared byte for byte (output buffer and the guard bytes after it).
// Each op type must also mostly run its tuned kernel, not the fallback.
#include <gtest/gtest.h>

#include <vector>

#include "tigris_kernels_tigris_xtensa.h"
#include "xt_cases.h"

namespace {

struct KindParam {
    int kind;
    int min_tuned_pct;  // share of the cases valid for the reference that the tuned kernel must take
};

class XtParity : public ::testing::TestWithParam<KindParam> {};

void run_cases(int kind, int banded, int big, uint32_t count, int min_tuned_pct) {
    std::vector<uint8_t> arena(4u << 20);
    uint32_t tuned = 0, ran = 0;
    for (uint32_t seed = 1; seed <= count; seed++) {
        xt_case_result_t r;
        ASSERT_EQ(xt_case_run(kind, seed, banded, big, arena.data(), (uint32_t)arena.size(), nullptr, &r), 0)
            << "seed " << seed;
        ASSERT_EQ(r.rc_acc, r.rc_ref) << xt_kind_names[kind] << " seed " << seed << " " << r.desc;
        ASSERT_EQ(r.mismatch, 0u) << xt_kind_names[kind] << " seed " << seed << " banded " << banded << " " << r.desc
                                  << ": first differing byte " << (r.mismatch - 1) << " of " << r.out_bytes;
        if (r.rc_ref == 0) ran++;
        if (r.tuned) tuned++;
        // The tuned kernel never takes an op the reference refuses.
        if (r.rc_ref != 0) EXPECT_FALSE(r.tuned) << "seed " << seed;
    }
    EXPECT_GE(tuned * 100u, ran * (uint32_t)min_tuned_pct)
        << xt_kind_names[kind] << ": tuned kernel took " << tuned << " of " << ran;
}

TEST_P(XtParity, WholeTensorsMatchReference) { run_cases(GetParam().kind, 0, 0, 1000, GetParam().min_tuned_pct); }

TEST_P(XtParity, BandsAndTilesMatchReference) { run_cases(GetParam().kind, 1, 0, 1000, GetParam().min_tuned_pct / 2); }

TEST_P(XtParity, BenchmarkShapesMatchReference) { run_cases(GetParam().kind, 0, 1, 4, 100); }

// Pools decline other encodings (~15% of cases); everything else is taken.
INSTANTIATE_TEST_SUITE_P(Ops, XtParity,
                         ::testing::Values(KindParam{XT_K_CONV, 95}, KindParam{XT_K_DW, 95}, KindParam{XT_K_FC, 95},
                                           KindParam{XT_K_MAXPOOL, 70}, KindParam{XT_K_AVGPOOL, 70},
                                           KindParam{XT_K_ADD, 90}),
                         [](const auto &info) { return std::string(xt_kind_names[info.param.kind]); });

// Every benchmark-sized case runs its tuned kernel (the models test checks
// the reservation itself).
TEST(XtBackend, BenchmarkShapesRunTheTunedKernels) {
    std::vector<uint8_t> arena(4u << 20);
    for (int kind = 0; kind < XT_K_COUNT; kind++) {
        xt_case_result_t r;
        ASSERT_EQ(xt_case_run(kind, 2, 0, 1, arena.data(), (uint32_t)arena.size(), nullptr, &r), 0);
        EXPECT_TRUE(r.tuned) << xt_kind_names[kind];
    }
}

}  // namespace
