// The corpus plans run op by op on whole tensors through the reference
// dispatchers, compared with the outputs TFLite's reference kernels produced
// (shared corpus, MANIFEST.md). This checks the kernels alone, without the
// executor: every tensor gets its own whole buffer. The same ops are then run
// again one row band at a time through mem->tile to check banded computation
// against the same goldens.
#include <algorithm>
#include <cmath>
#include <string>

#include "shared_data.h"
#include "tigris_loader.h"
#include "test_kernels_plan.h"

namespace {

struct CorpusRun {
    std::vector<uint8_t> bytes;
    tigris_plan_t plan{};
    std::vector<std::vector<uint8_t>> bufs;
    std::vector<void *> ptrs;
    tigris_mem_t mem{};
    tigris_error_t err = TIGRIS_OK;

    explicit CorpusRun(const std::string &name) {
        bytes = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (name + ".pattern.tgrs"));
        err = tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan);
        if (err != TIGRIS_OK) return;
        uint16_t n = plan.header->num_tensors;
        bufs.resize(n);
        ptrs.resize(n);
        for (uint16_t i = 0; i < n; i++) {
            bufs[i].assign(plan.tensors[i].size_bytes, 0xA5);
            ptrs[i] = bufs[i].data();
        }
        mem.tensor_ptrs = ptrs.data();
        mem.num_tensors = n;
    }
    int run_all(bool s8) {
        for (uint16_t i = 0; i < plan.header->num_ops; i++) {
            int rc = s8 ? tigris_dispatch_kernel_s8(&plan, &plan.ops[i], i, &mem, nullptr)
                        : tigris_dispatch_kernel(&plan, &plan.ops[i], i, &mem, nullptr);
            if (rc) return rc;
        }
        return 0;
    }
    uint16_t in() const { return plan.model_inputs[0]; }
    uint16_t out() const { return plan.model_outputs[0]; }
};

void compare(const std::string &name, const std::vector<uint8_t> &got, const std::vector<uint8_t> &want,
             bool is_float, double tol) {
    ASSERT_EQ(got.size(), want.size()) << name;
    if (!is_float) {
        size_t bad = 0;
        for (size_t i = 0; i < got.size(); i++)
            if (got[i] != want[i]) bad++;
        EXPECT_EQ(bad, 0u) << name << ": int8 elements differing from TFLite";
        return;
    }
    const float *g = (const float *)got.data(), *w = (const float *)want.data();
    for (size_t i = 0; i < got.size() / 4; i++) ASSERT_NEAR(g[i], w[i], tol) << name << " element " << i;
}

struct Case {
    const char *plan;
    bool s8;
    double tol;  // 0: bit exact
};

class KernelCorpus : public ::testing::TestWithParam<Case> {};

TEST_P(KernelCorpus, WholeTensorsMatchReferenceOutputs) {
    TIGRIS_REQUIRE_SHARED();
    const Case &c = GetParam();
    for (const char *variant : {"pattern", "random"}) {
        std::string base = std::string(c.plan) + "." + variant;
        CorpusRun r(c.plan);
        ASSERT_EQ(r.err, TIGRIS_OK) << c.plan << ": the kernels need the loaded plan";
        auto input = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (base + ".input.bin"));
        auto expected = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (base + ".expected.bin"));
        ASSERT_EQ(input.size(), r.bufs[r.in()].size());
        r.bufs[r.in()] = input;
        ASSERT_EQ(r.run_all(c.s8), 0) << base;
        bool is_float = r.plan.tensors[r.out()].dtype == TIGRIS_DTYPE_FLOAT32;
        compare(base, r.bufs[r.out()], expected, is_float, c.tol);
    }
}

// Every op again in row bands of 3 output rows: spatial ops read the input
// rows docs/runtime-semantics.md R2.6.2 names and get the band's effective pads; pointwise ops get the
// same rows. Results must equal the whole-tensor run, byte for byte.
TEST_P(KernelCorpus, RowBandsReproduceWholeTensorRun) {
    TIGRIS_REQUIRE_SHARED();
    const Case &c = GetParam();
    CorpusRun whole(c.plan), banded(c.plan);
    ASSERT_EQ(whole.err, TIGRIS_OK);
    auto input = tigris_test::read_file(tigris_test::shared_dir() / "corpus" / (std::string(c.plan) + ".random.input.bin"));
    whole.bufs[whole.in()] = input;
    banded.bufs[banded.in()] = input;
    ASSERT_EQ(whole.run_all(c.s8), 0);
    const tigris_plan_t &p = banded.plan;
    for (uint16_t i = 0; i < p.header->num_ops; i++) {
        const tigris_op_t &op = p.ops[i];
        uint16_t ti = tigris_op_inputs(&p, &op)[0], to = tigris_op_outputs(&p, &op)[0];
        const int32_t *is = tigris_tensor_shape(&p, &p.tensors[ti]), *os = tigris_tensor_shape(&p, &p.tensors[to]);
        ASSERT_EQ(p.tensors[ti].ndim, 4);
        int H = is[1], OH = os[1];
        size_t irow = p.tensors[ti].size_bytes / (size_t)H, orow = p.tensors[to].size_bytes / (size_t)OH;
        bool spatial = op.op_type == TIGRIS_OP_CONV || op.op_type == TIGRIS_OP_MAX_POOL ||
                       op.op_type == TIGRIS_OP_AVG_POOL || op.op_type == TIGRIS_OP_DEPTHWISE;
        int sh = spatial ? op.spatial.stride_h : 1, pt = spatial ? op.spatial.pad_top : 0;
        int effk = spatial ? (op.spatial.kernel_h - 1) * std::max<int>(1, op.spatial.dilation_h) + 1 : 1;
        std::vector<uint8_t> result(p.tensors[to].size_bytes);
        for (int o0 = 0; o0 < OH; o0 += 3) {
            int o1 = std::min(OH, o0 + 3);
            int i0 = o0 * sh - pt, i1 = (o1 - 1) * sh - pt + effk;
            int ptop = std::max(0, -i0), pbot = std::max(0, i1 - H);
            i0 = std::max(0, i0);
            i1 = std::min(H, i1);
            std::vector<uint8_t> xin(whole.bufs[ti].begin() + (size_t)i0 * irow, whole.bufs[ti].begin() + (size_t)i1 * irow);
            std::vector<uint8_t> y((size_t)(o1 - o0) * orow, 0xA5);
            banded.ptrs[ti] = xin.data();
            banded.ptrs[to] = y.data();
            banded.mem.tile = tigris_tile_ctx_t{};
            banded.mem.tile.active = 1;
            banded.mem.tile.in_h = i1 - i0;
            banded.mem.tile.out_h = o1 - o0;
            banded.mem.tile.in_w = is[2];
            banded.mem.tile.out_w = os[2];
            banded.mem.tile.pad_top = ptop;
            banded.mem.tile.pad_bottom = pbot;
            int rc = c.s8 ? tigris_dispatch_kernel_s8(&p, &op, i, &banded.mem, nullptr)
                          : tigris_dispatch_kernel(&p, &op, i, &banded.mem, nullptr);
            ASSERT_EQ(rc, 0) << "op " << i << " band " << o0;
            std::copy(y.begin(), y.end(), result.begin() + (size_t)o0 * orow);
        }
        EXPECT_TRUE(result == whole.bufs[to]) << c.plan << " op " << i << " differs when banded";
    }
}

INSTANTIATE_TEST_SUITE_P(Plans, KernelCorpus,
                         ::testing::Values(Case{"pool_chain_v5", false, 0.0}, Case{"linebuf_conv_chain_v5", false, 1e-6},
                                           Case{"linebuf_conv_sig_chain_v5", false, 1e-6},
                                           Case{"linebuf_s8_conv_sig_chain_v5", true, 0.0},
                                           // The int8 dispatcher must route nothing of a float plan wrongly.
                                           Case{"pool_chain_v5", true, 0.0}));

}  // namespace
