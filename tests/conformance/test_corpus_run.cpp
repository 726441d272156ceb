// test_corpus_run.cpp - every compiler-made plan of the shared corpus runs to
// the reference outputs made independently with TFLite's reference kernels
// (corpus/MANIFEST.md), within the fast arena the plan asks for, and the
// line-buffer flag of its chain head changes no output byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "shared_data.h"

extern "C" {
#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_iface.h"
#include "tigris_kernels.h"
#include "tigris_loader.h"
#include "tigris_mem.h"
}

namespace {

using tigris_test::read_file;
using tigris_test::shared_dir;

struct AlignedBuf {
    explicit AlignedBuf(size_t n) : size(n), p(static_cast<uint8_t *>(::operator new(n ? n : 1, std::align_val_t(64)))) {
        std::memset(p, 0xA5, size);
    }
    ~AlignedBuf() { ::operator delete(p, std::align_val_t(64)); }
    AlignedBuf(const AlignedBuf &) = delete;
    AlignedBuf &operator=(const AlignedBuf &) = delete;
    size_t size;
    uint8_t *p;
};

struct RunResult {
    tigris_exec_error_t err = TIGRIS_EXEC_OK;
    std::vector<uint8_t> outputs;  // model outputs concatenated, declared dtype
    tigris_exec_stats_t stats{};
    uint32_t fast_peak = 0;
    uint32_t fast_required = 0;
};

// Loads `bytes`, runs it on `input` with fast = tigris_fast_arena_required and
// a roomy slow buffer, and reads every model output back.
RunResult run_plan(const std::vector<uint8_t> &bytes, const std::vector<uint8_t> &input) {
    RunResult res;
    tigris_plan_t plan;
    tigris_error_t le = tigris_plan_load(bytes.data(), static_cast<uint32_t>(bytes.size()), &plan);
    EXPECT_EQ(le, TIGRIS_OK) << tigris_error_str(le);
    if (le != TIGRIS_OK) {
        res.err = TIGRIS_EXEC_ERR_NULL;
        return res;
    }
    res.fast_required = tigris_fast_arena_required(&plan);
    uint64_t slow = 0;
    for (uint32_t t = 0; t < plan.header->num_tensors; t++) slow += plan.tensors[t].size_bytes + 64;
    slow = 2 * slow + 4096;

    AlignedBuf fast(res.fast_required), slowbuf(static_cast<size_t>(slow));
    std::vector<void *> ptrs(plan.header->num_tensors, nullptr);
    tigris_mem_t mem;
    EXPECT_EQ(tigris_mem_init(&mem, ptrs.data(), plan.header->num_tensors, fast.p, res.fast_required, slowbuf.p,
                              static_cast<uint32_t>(slow)),
              TIGRIS_MEM_OK);

    size_t at = 0;
    for (uint32_t i = 0; i < plan.header->num_model_inputs; i++) {
        uint16_t t = plan.model_inputs[i];
        uint32_t n = tigris_iface_bytes(&plan, t);
        EXPECT_LE(at + n, input.size());
        if (at + n > input.size()) return res;
        EXPECT_EQ(tigris_input_write(&plan, &mem, t, input.data() + at, n), TIGRIS_OK);
        at += n;
    }
    EXPECT_EQ(at, input.size()) << "input.bin holds more than the model inputs";

    size_t ws_size = tigris_executor_workspace_required(&plan);
    EXPECT_GT(ws_size, 0u);
    std::vector<uint8_t> ws(ws_size + 1);
    tigris_kernel_fn kernel =
        tigris_plan_data_dtype(&plan) == TIGRIS_DTYPE_INT8 ? tigris_dispatch_kernel_s8 : tigris_dispatch_kernel;
    // An odd workspace start: the size includes the alignment headroom.
    res.err = tigris_run_with_workspace_buffer(&plan, &mem, kernel, nullptr, &res.stats, ws.data() + 1, ws_size);
    res.fast_peak = mem.fast_peak;
    if (res.err != TIGRIS_EXEC_OK) return res;

    for (uint32_t i = 0; i < plan.header->num_model_outputs; i++) {
        uint16_t t = plan.model_outputs[i];
        uint32_t n = tigris_iface_bytes(&plan, t);
        size_t base = res.outputs.size();
        res.outputs.resize(base + n);
        EXPECT_EQ(tigris_output_read(&plan, &mem, t, res.outputs.data() + base, n), TIGRIS_OK);
    }
    return res;
}

// File offset of the chain head's stage flags (_reserved1), found through
// the loaded plan's own pointers.
long chain_head_flags_offset(const std::vector<uint8_t> &bytes) {
    tigris_plan_t plan;
    if (tigris_plan_load(bytes.data(), static_cast<uint32_t>(bytes.size()), &plan) != TIGRIS_OK) return -1;
    for (uint32_t s = 0; s < plan.header->num_stages; s++) {
        const tigris_stage_t *st = &plan.stages[s];
        if (st->chain_len >= 2 && st->chain_id == s)
            return static_cast<long>(reinterpret_cast<const uint8_t *>(&st->_reserved1) - bytes.data());
    }
    return -1;
}

struct Case {
    const char *plan;
    bool exact;       // pool chain and int8: byte-exact; float convs: 1e-6
    int chain_len;    // MANIFEST: chain length
};

const Case kCases[] = {
    {"pool_chain_v5", true, 2},
    {"linebuf_conv_chain_v5", false, 3},
    {"linebuf_conv_sig_chain_v5", false, 3},
    {"linebuf_s8_conv_sig_chain_v5", true, 2},
};

float max_float_diff(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
    float worst = 0.0f;
    for (size_t i = 0; i + 4 <= a.size(); i += 4) {
        float x, y;
        std::memcpy(&x, &a[i], 4);
        std::memcpy(&y, &b[i], 4);
        if (std::isnan(x) || std::isnan(y)) return INFINITY;
        worst = std::max(worst, std::fabs(x - y));
    }
    return worst;
}

void compare(const Case &c, const std::string &variant, const std::vector<uint8_t> &got,
             const std::vector<uint8_t> &want) {
    ASSERT_EQ(got.size(), want.size());
    if (c.exact) {
        size_t mismatches = 0, first = got.size();
        for (size_t i = 0; i < got.size(); i++) {
            if (got[i] != want[i]) {
                if (first == got.size()) first = i;
                mismatches++;
            }
        }
        EXPECT_EQ(mismatches, 0u) << c.plan << "." << variant << ": first differing byte " << first;
    } else {
        float d = max_float_diff(got, want);
        std::cout << "[ corpus   ] " << c.plan << "." << variant << " max |diff| = " << d << "\n";
        ::testing::Test::RecordProperty(std::string(c.plan) + "." + variant + ".max_abs_diff", std::to_string(d));
        EXPECT_LE(d, 1e-6f) << c.plan << "." << variant;
    }
}

class CorpusRun : public ::testing::TestWithParam<Case> {};

TEST_P(CorpusRun, MatchesReferenceOutputs) {
    TIGRIS_REQUIRE_SHARED();
    const Case &c = GetParam();
    auto dir = shared_dir() / "corpus";
    for (const char *variant : {"pattern", "random"}) {
        SCOPED_TRACE(std::string(c.plan) + "." + variant);
        std::string stem = std::string(c.plan) + "." + variant;
        auto bytes = read_file(dir / (stem + ".tgrs"));
        auto input = read_file(dir / (stem + ".input.bin"));
        auto want = read_file(dir / (stem + ".expected.bin"));
        ASSERT_FALSE(bytes.empty());
        RunResult r = run_plan(bytes, input);
        ASSERT_EQ(r.err, TIGRIS_EXEC_OK) << tigris_exec_error_str(r.err);
        compare(c, variant, r.outputs, want);
        EXPECT_LE(r.fast_peak, r.fast_required);
        EXPECT_EQ(r.stats.stages_chain, c.chain_len);
        EXPECT_EQ(r.stats.stages_normal, 0);
        EXPECT_EQ(r.stats.stages_tiled, 0);
        EXPECT_GT(r.stats.total_tiles, 0);
    }
}

TEST_P(CorpusRun, LineBufferFlagChangesNoOutputByte) {
    TIGRIS_REQUIRE_SHARED();
    const Case &c = GetParam();
    auto dir = shared_dir() / "corpus";
    std::string stem = std::string(c.plan) + ".random";
    auto bytes = read_file(dir / (stem + ".tgrs"));
    auto input = read_file(dir / (stem + ".input.bin"));
    long off = chain_head_flags_offset(bytes);
    ASSERT_GE(off, 0) << "no chain head found";
    RunResult as_compiled = run_plan(bytes, input);
    ASSERT_EQ(as_compiled.err, TIGRIS_EXEC_OK) << tigris_exec_error_str(as_compiled.err);
    auto flipped = bytes;
    flipped[static_cast<size_t>(off)] ^= static_cast<uint8_t>(TIGRIS_STAGE_LINE_BUFFERED);
    RunResult other = run_plan(flipped, input);
    ASSERT_EQ(other.err, TIGRIS_EXEC_OK) << tigris_exec_error_str(other.err);
    EXPECT_EQ(other.outputs, as_compiled.outputs);
    EXPECT_LE(other.fast_peak, other.fast_required);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusRun, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case> &i) { return std::string(i.param.plan); });

// The runtime's own test comments (MANIFEST "Arena figures") state that at
// the header budget this chain runs in bands of 3 rows: 22 tiles for an
// output 64 rows high.
TEST(CorpusRunFacts, ConvChainRunsInTwentyTwoBandsAtItsBudget) {
    TIGRIS_REQUIRE_SHARED();
    auto dir = shared_dir() / "corpus";
    auto bytes = read_file(dir / "linebuf_conv_chain_v5.pattern.tgrs");
    auto input = read_file(dir / "linebuf_conv_chain_v5.pattern.input.bin");
    RunResult r = run_plan(bytes, input);
    ASSERT_EQ(r.err, TIGRIS_EXEC_OK) << tigris_exec_error_str(r.err);
    EXPECT_EQ(r.fast_required, 32768u);
    EXPECT_EQ(r.stats.total_tiles, 22);
}

}  // namespace
