// test_executor_harness.h - loads a built plan, sets up both arenas and runs
// it, so executor tests state only what differs between them; plus a plain
// NHWC convolution written directly from its definition, the independent
// reference the executor's results are compared with.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "plan_builder.h"

extern "C" {
#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_iface.h"
#include "tigris_kernels.h"
#include "tigris_loader.h"
#include "tigris_mem.h"
#include "tigris_trace.h"
}

namespace tigris_exec_test {

struct Aligned {
    explicit Aligned(size_t n) : n(n), p(static_cast<uint8_t *>(::operator new(n ? n : 1, std::align_val_t(64)))) {
        std::memset(p, 0x5A, n ? n : 1);
    }
    ~Aligned() { ::operator delete(p, std::align_val_t(64)); }
    Aligned(const Aligned &) = delete;
    Aligned &operator=(const Aligned &) = delete;
    size_t n;
    uint8_t *p;
};

// One loaded plan with its arenas. Build, then load(), then write inputs and run.
struct Harness {
    std::vector<uint8_t> bytes;
    tigris_plan_t plan{};
    std::vector<void *> ptrs;
    tigris_mem_t mem{};
    Aligned *fast = nullptr, *slow = nullptr;
    std::vector<uint8_t> ws;
    tigris_exec_stats_t stats{};

    ~Harness() {
        delete fast;
        delete slow;
    }

    ::testing::AssertionResult load(std::vector<uint8_t> b, uint32_t fast_size, uint32_t slow_size) {
        bytes = std::move(b);
        tigris_error_t e = tigris_plan_load(bytes.data(), (uint32_t)bytes.size(), &plan);
        if (e != TIGRIS_OK) return ::testing::AssertionFailure() << "load: " << tigris_error_str(e);
        ptrs.assign(plan.header->num_tensors, nullptr);
        delete fast;
        delete slow;
        fast = new Aligned(fast_size);
        slow = new Aligned(slow_size);
        if (tigris_mem_init(&mem, ptrs.data(), plan.header->num_tensors, fast->p, fast_size, slow->p, slow_size) !=
            TIGRIS_MEM_OK)
            return ::testing::AssertionFailure() << "mem init";
        size_t need = tigris_executor_workspace_required(&plan);
        if (need == 0) return ::testing::AssertionFailure() << "workspace_required = 0";
        ws.assign(need, 0);
        return ::testing::AssertionSuccess();
    }

    void write_f32(uint16_t t, const std::vector<float> &v) {
        ASSERT_EQ(tigris_input_write(&plan, &mem, t, v.data(), (uint32_t)(v.size() * 4)), TIGRIS_OK);
    }
    void write_bytes(uint16_t t, const std::vector<uint8_t> &v) {
        ASSERT_EQ(tigris_input_write(&plan, &mem, t, v.data(), (uint32_t)v.size()), TIGRIS_OK);
    }
    std::vector<float> read_f32(uint16_t t) {
        std::vector<float> v(tigris_iface_bytes(&plan, t) / 4);
        EXPECT_EQ(tigris_output_read(&plan, &mem, t, v.data(), (uint32_t)(v.size() * 4)), TIGRIS_OK);
        return v;
    }

    tigris_exec_error_t run(tigris_kernel_fn k = tigris_dispatch_kernel, void *ctx = nullptr) {
        return tigris_run_with_workspace_buffer(&plan, &mem, k, ctx, &stats, ws.data(), ws.size());
    }
};

inline std::vector<float> floats_of(const tigris_test::Weight &w) {
    std::vector<float> v(w.bytes.size() / 4);
    std::memcpy(v.data(), w.bytes.data(), v.size() * 4);
    return v;
}

// out[h][w][oc] = bias[oc] + sum over taps inside the image of
// x[h*s - pad + kh][w*s - pad + kw][ic] * wt[oc][kh][kw][ic]   (batch 1, NHWC, OHWI)
inline std::vector<float> ref_conv(const std::vector<float> &x, int H, int W, int C, const std::vector<float> &wt,
                                   const std::vector<float> &bias, int OC, int K, int stride, int pad) {
    int OH = (H + 2 * pad - K) / stride + 1, OW = (W + 2 * pad - K) / stride + 1;
    std::vector<float> out((size_t)OH * OW * OC);
    for (int oh = 0; oh < OH; ++oh)
        for (int ow = 0; ow < OW; ++ow)
            for (int oc = 0; oc < OC; ++oc) {
                double acc = bias.empty() ? 0.0 : bias[oc];
                for (int kh = 0; kh < K; ++kh)
                    for (int kw = 0; kw < K; ++kw) {
                        int ih = oh * stride - pad + kh, iw = ow * stride - pad + kw;
                        if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                        for (int ic = 0; ic < C; ++ic)
                            acc += (double)x[((size_t)ih * W + iw) * C + ic] *
                                   wt[(((size_t)oc * K + kh) * K + kw) * C + ic];
                    }
                out[((size_t)oh * OW + ow) * OC + oc] = (float)acc;
            }
    return out;
}

inline std::vector<float> pattern(size_t n) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = (float)((int)(i % 13) - 6) * 0.25f;
    return v;
}

inline float max_diff(const std::vector<float> &a, const std::vector<float> &b) {
    float d = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i]));
    return a.size() == b.size() ? d : 1e30f;
}

}  // namespace tigris_exec_test
