// Every corpus plan on every board, with the reference and the accelerated
// backend: the outputs must be the expected bytes exactly, and the two
// backends' bytes identical, float plans included (on lx106 through GCC's
// soft-float). The float sigmoid plans check that each image's expf gives
// glibc's bits (on Cortex-M4 and lx106 that needs newlib's current float
// math linked in; docs/emu.md).
#include <gtest/gtest.h>

#include <tuple>

#include "emu_test_support.h"
#include "shared_data.h"

namespace {

namespace emu = tigris::host::emu;

const char *const kCases[] = {"pool_chain_v5.pattern",
                              "pool_chain_v5.random",
                              "linebuf_conv_chain_v5.pattern",
                              "linebuf_conv_chain_v5.random",
                              "linebuf_conv_sig_chain_v5.pattern",
                              "linebuf_conv_sig_chain_v5.random",
                              "linebuf_s8_conv_sig_chain_v5.pattern",
                              "linebuf_s8_conv_sig_chain_v5.random"};
const char *const kTargets[] = {"cortex-m4", "cortex-m7", "cortex-m55", "xtensa-lx106"};

// Corpus case c on one board and backend, without instruction counts.
emu::JobResult run_corpus_case(const std::string &c, const std::string &target, emu::Backend be) {
    emu::JobSpec s;
    s.target = target;
    s.plan = emu_test::corpus(c + ".tgrs");
    s.input = emu_test::corpus(c + ".input.bin");
    s.backend = be;
    s.op_counts = false;
    return emu::run_job(s, emu_test::paths_without_counts(), std::chrono::seconds(60));
}

class EmuCorpus : public ::testing::TestWithParam<std::tuple<const char *, const char *>> {};

TEST_P(EmuCorpus, ReferenceAndAcceleratedGiveTheExpectedBytes) {
    TIGRIS_REQUIRE_SHARED();
    const std::string c = std::get<0>(GetParam()), target = std::get<1>(GetParam());
    EMU_REQUIRE(target);

    std::vector<uint8_t> ref_out;
    for (emu::Backend be : {emu::Backend::Ref, emu::Backend::Accel}) {
        const emu::JobResult r = run_corpus_case(c, target, be);
        SCOPED_TRACE(std::string(emu::backend_name(be)) + " on " + target + ": " + r.error);
        ASSERT_EQ(r.status, emu::JobResult::Status::Ok) << r.report.substr(0, 2000);
        if (be == emu::Backend::Accel) EXPECT_TRUE(r.kernel == "tigris-arm" || r.kernel == "tigris-xtensa") << r.kernel;
        const std::vector<uint8_t> expected = emu_test::corpus(c + ".expected.bin");
        ASSERT_EQ(r.outputs.size(), expected.size());
        EXPECT_TRUE(r.outputs == expected) << "outputs differ from " << c << ".expected.bin";
        if (be == emu::Backend::Ref) ref_out = r.outputs;
        else EXPECT_TRUE(r.outputs == ref_out) << "accelerated and reference outputs differ";
        EXPECT_GT(r.fast_peak, 0u);
        EXPECT_LE(r.fast_peak, r.fast_size);
    }
}

// The CMSIS-NN adapter (backend "vendor" of the Arm images built against
// Arm's CMSIS-NN, docs/kernels-cmsis-nn.md): every corpus case gives the
// expected bytes, which are the int8 reference's for the int8 cases (float
// plans go to the float kernels through the reference dispatcher). Images
// built without CMSIS-NN (no ../shared/third_party/CMSIS-NN at configure
// time) refuse the backend, and the test skips saying so.
class EmuCorpusCmsisNn : public ::testing::TestWithParam<std::tuple<const char *, const char *>> {};

TEST_P(EmuCorpusCmsisNn, GivesTheReferenceBytes) {
    TIGRIS_REQUIRE_SHARED();
    const std::string c = std::get<0>(GetParam()), target = std::get<1>(GetParam());
    EMU_REQUIRE(target);
    std::vector<uint8_t> ref_out;
    for (emu::Backend be : {emu::Backend::Vendor, emu::Backend::Ref}) {
        const emu::JobResult r = run_corpus_case(c, target, be);
        SCOPED_TRACE(std::string(emu::backend_name(be)) + " on " + target + ": " + r.error);
        if (be == emu::Backend::Vendor && r.status == emu::JobResult::Status::Refused && r.error_kind == "no-accel")
            GTEST_SKIP() << "the " << target
                         << " image was built without CMSIS-NN (configure the preset with "
                            "../shared/third_party/CMSIS-NN present, or -DTIGRIS_CMSIS_NN_DIR=...): "
                         << r.error;
        ASSERT_EQ(r.status, emu::JobResult::Status::Ok) << r.report.substr(0, 2000);
        const std::vector<uint8_t> expected = emu_test::corpus(c + ".expected.bin");
        EXPECT_TRUE(r.outputs == expected) << "outputs differ from " << c << ".expected.bin";
        if (be == emu::Backend::Vendor) {
            EXPECT_EQ(r.kernel, "cmsis-nn");
            ref_out = r.outputs;
        } else {
            EXPECT_EQ(r.kernel, c.find("_s8_") != std::string::npos ? "s8" : "f32");
            EXPECT_TRUE(r.outputs == ref_out) << "cmsis-nn and reference outputs differ";
        }
    }
}

const char *const kArmTargets[] = {"cortex-m4", "cortex-m7", "cortex-m55"};

INSTANTIATE_TEST_SUITE_P(ArmBoards, EmuCorpusCmsisNn,
                         ::testing::Combine(::testing::ValuesIn(kCases), ::testing::ValuesIn(kArmTargets)),
                         [](const auto &info) {
                             std::string n = std::string(std::get<0>(info.param)) + "_" + std::get<1>(info.param);
                             for (char &ch : n)
                                 if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return n;
                         });

INSTANTIATE_TEST_SUITE_P(AllBoards, EmuCorpus, ::testing::Combine(::testing::ValuesIn(kCases), ::testing::ValuesIn(kTargets)),
                         [](const auto &info) {
                             std::string n = std::string(std::get<0>(info.param)) + "_" + std::get<1>(info.param);
                             for (char &ch : n)
                                 if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return n;
                         });

}  // namespace
