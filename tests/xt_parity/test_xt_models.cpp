// The lx106 backend (built for the host) running whole imported models
// through the executor: the shared oracle models lowered by `tigris import`
// one op per stage, with a tight fast budget (multi-op stages, bands and
// chains) and with LZ4 weights (kernels read weights decoded into the fast
// arena), run with tigris_dispatch_kernel_tigris_xtensa after tigris_xtensa_prepare
// in an arena sized by tigris_xtensa_fast_arena_required, must give TFLite
// Micro's reference bytes exactly. A counting dispatcher shows that the
// tuned kernels, not only the fallback, ran.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "shared_data.h"
#include "tigris_import/lower.hpp"
#include "tigris_tflite/model.hpp"

extern "C" {
#include "tigris_executor.h"
#include "tigris_iface.h"
#include "tigris_kernels.h"
#include "tigris_kernels_tigris_xtensa.h"
#include "tigris_loader.h"
int xt_dispatch_tuned(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);
}

namespace {

struct Buf {
    explicit Buf(size_t n) : p(static_cast<uint8_t *>(::operator new(n ? n : 1, std::align_val_t(64)))) {
        std::memset(p, 0x5A, n ? n : 1);
    }
    ~Buf() { ::operator delete(p, std::align_val_t(64)); }
    Buf(const Buf &) = delete;
    Buf &operator=(const Buf &) = delete;
    uint8_t *p;
};

struct Counts {
    uint32_t tuned = 0, fallback = 0;
};

// The backend's dispatcher spelled out, counting which side ran each call.
int counting_kernel(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t i, tigris_mem_t *mem, void *ctx) {
    auto *c = static_cast<Counts *>(ctx);
    int rc = xt_dispatch_tuned(plan, op, i, mem);
    if (rc != 1) {
        c->tuned++;
        return rc;
    }
    c->fallback++;
    return tigris_dispatch_kernel_s8(plan, op, i, mem, nullptr);
}

// Runs plan on input with the lx106 backend; returns the outputs ("" error on failure).
// core_only: a fast arena of the core's need only (no room for the scratch:
// every op must then run on the reference, still bit-exact).
std::vector<uint8_t> run_tigris_xtensa(const std::vector<uint8_t> &bytes, const std::vector<uint8_t> &input, bool counting,
                                Counts *counts, std::string *err, bool core_only = false) {
    Buf blob(bytes.size());
    std::memcpy(blob.p, bytes.data(), bytes.size());
    tigris_plan_t plan;
    if (tigris_plan_load(blob.p, (uint32_t)bytes.size(), &plan) != TIGRIS_OK) return *err = "load", std::vector<uint8_t>{};
    const uint16_t nt = plan.header->num_tensors;
    uint32_t fast_size = core_only ? tigris_fast_arena_required(&plan) : tigris_xtensa_fast_arena_required(&plan);
    if (fast_size == UINT32_MAX) return *err = "fast_arena_required", std::vector<uint8_t>{};
    uint64_t slow = 4096;
    for (uint16_t t = 0; t < nt; t++) slow += 2ull * (plan.tensors[t].size_bytes + 64);
    Buf fast(fast_size), slowbuf(slow);
    std::vector<void *> ptrs(nt, nullptr);
    tigris_mem_t mem;
    if (tigris_mem_init(&mem, ptrs.data(), nt, fast.p, fast_size, slowbuf.p, (uint32_t)slow) != TIGRIS_MEM_OK)
        return *err = "mem_init", std::vector<uint8_t>{};
    if (tigris_xtensa_prepare(&plan, &mem) != 0) return *err = "prepare", std::vector<uint8_t>{};
    size_t at = 0;
    for (uint8_t i = 0; i < plan.header->num_model_inputs; i++) {
        uint16_t t = plan.model_inputs[i];
        uint32_t n = tigris_iface_bytes(&plan, t);
        if (at + n > input.size() || tigris_input_write(&plan, &mem, t, input.data() + at, n) != TIGRIS_OK)
            return *err = "input", std::vector<uint8_t>{};
        at += n;
    }
    std::vector<uint8_t> ws(tigris_executor_workspace_required(&plan));
    std::vector<uint8_t> state(tigris_state_required(&plan));
    if (!state.empty() && tigris_state_init(&plan, state.data(), state.size()) != TIGRIS_EXEC_OK)
        return *err = "state", std::vector<uint8_t>{};
    tigris_exec_stats_t stats{};
    tigris_exec_error_t xe =
        tigris_run_with_state(&plan, &mem, counting ? counting_kernel : tigris_dispatch_kernel_tigris_xtensa,
                              counting ? counts : nullptr, &stats, ws.data(), ws.size(), state.data(), state.size());
    std::vector<uint8_t> out;
    if (xe == TIGRIS_EXEC_OK) {
        for (uint8_t i = 0; i < plan.header->num_model_outputs; i++) {
            uint16_t t = plan.model_outputs[i];
            uint32_t n = tigris_iface_bytes(&plan, t);
            size_t base = out.size();
            out.resize(base + n);
            if (tigris_output_read(&plan, &mem, t, out.data() + base, n) != TIGRIS_OK) *err = "output";
        }
    } else {
        *err = std::string("run: ") + tigris_exec_error_str(xe);
    }
    tigris_xtensa_deinit();
    EXPECT_EQ(mem.fast_size, fast_size) << "deinit gives the reservation back";
    return out;
}

const char *const kModels[] = {"ad01_int8",      "kws_ref_model",          "micro_speech_quantized",
                               "model_ToyCar_quant_fullint", "person_detect", "pretrainedResnet_large_int8",
                               "pretrainedResnet_quant", "str_ww_ref_model", "vww_96_int8"};

std::vector<uint8_t> oracle(const std::string &model, const char *variant, const char *what) {
    return tigris_test::read_file(tigris_test::shared_dir() / "corpus" / "oracle" /
                                  (model + "." + variant + "." + what + ".bin"));
}

TEST(XtModels, ImportedOracleModelsGiveTfliteBytes) {
    TIGRIS_REQUIRE_SHARED();
    uint32_t tuned = 0, fallback = 0;
    for (const char *name : kModels) {
        auto file = tigris_test::read_file(tigris_test::shared_dir() / "models" / (std::string(name) + ".tflite"));
        ASSERT_FALSE(file.empty()) << name;
        auto model = tigris::tflite::read_model(file);
        tigris::import::Options one;
        const auto whole = tigris::import::import_model(model, one);
        tigris::import::Options tight;
        tight.fast_budget = whole.report.scheduled_peak;
        tigris::import::Options lz4;
        lz4.lz4 = true;
        const std::pair<const char *, std::vector<uint8_t>> plans[] = {
            {"one op per stage", whole.plan},
            {"tight budget", tigris::import::import_model(model, tight).plan},
            {"lz4", tigris::import::import_model(model, lz4).plan}};
        for (const auto &[what, plan] : plans) {
            for (const char *v : {"mid", "rand"}) {
                const auto in = oracle(name, v, "input"), want = oracle(name, v, "expected");
                ASSERT_FALSE(in.empty()) << name;
                for (bool counting : {false, true}) {
                    Counts c;
                    std::string err;
                    const auto got = run_tigris_xtensa(plan, in, counting, &c, &err);
                    ASSERT_TRUE(err.empty()) << name << " " << what << ": " << err;
                    ASSERT_EQ(got.size(), want.size()) << name;
                    size_t diff = 0;
                    for (size_t i = 0; i < want.size(); ++i) diff += got[i] != want[i];
                    EXPECT_EQ(diff, 0u) << name << "." << v << " " << what << " (counting " << counting
                                        << "): bytes differing from TFLite Micro";
                    tuned += c.tuned;
                    fallback += c.fallback;
                }
            }
        }
    }
    // Most kernel calls of these conv nets are conv, depthwise, FC, pool or add.
    EXPECT_GT(tuned, fallback) << "tuned " << tuned << ", reference " << fallback;
    EXPECT_GT(tuned, 0u);
    std::printf("lx106 backend on the oracle models: %u kernel calls tuned, %u on the reference\n", tuned, fallback);
}

// Sized for the core alone, the arena has no room for the backend's scratch:
// prepare leaves it untouched and every op runs on the reference.
TEST(XtModels, ArenaWithoutRoomForScratchRunsOnTheReference) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *name : {"kws_ref_model", "ad01_int8", "person_detect"}) {
        auto file = tigris_test::read_file(tigris_test::shared_dir() / "models" / (std::string(name) + ".tflite"));
        auto model = tigris::tflite::read_model(file);
        const auto plan = tigris::import::import_model(model, tigris::import::Options{}).plan;
        const auto in = oracle(name, "mid", "input"), want = oracle(name, "mid", "expected");
        Counts c;
        std::string err;
        const auto got = run_tigris_xtensa(plan, in, true, &c, &err, true);
        ASSERT_TRUE(err.empty()) << name << ": " << err;
        EXPECT_EQ(got, want) << name;
        EXPECT_EQ(c.tuned, 0u) << name;
        EXPECT_GT(c.fallback, 0u) << name;
    }
}

// prepare reserves the scratch at the top of the fast arena (aligned, above
// the core's need) and lowers fast_size; a second prepare does not stack a
// second reservation; deinit restores the size; invalid arguments give -1.
TEST(XtBackend, PrepareReservesTopOfFastArenaAndDeinitRestoresIt) {
    TIGRIS_REQUIRE_SHARED();
    auto file = tigris_test::read_file(tigris_test::shared_dir() / "models" / "kws_ref_model.tflite");
    const auto bytes = tigris::import::import_model(tigris::tflite::read_model(file), {}).plan;
    Buf blob(bytes.size());
    std::memcpy(blob.p, bytes.data(), bytes.size());
    tigris_plan_t plan;
    ASSERT_EQ(tigris_plan_load(blob.p, (uint32_t)bytes.size(), &plan), TIGRIS_OK);
    const uint32_t scratch = tigris_xtensa_scratch_required(&plan), core = tigris_fast_arena_required(&plan);
    const uint32_t fast_size = tigris_xtensa_fast_arena_required(&plan);
    ASSERT_GT(scratch, 0u);
    ASSERT_NE(scratch, UINT32_MAX);
    EXPECT_EQ(fast_size, core + scratch + TIGRIS_TENSOR_ALIGN - 1u);
    Buf fast(fast_size), slow(1 << 20);
    std::vector<void *> ptrs(plan.header->num_tensors, nullptr);
    tigris_mem_t mem;
    ASSERT_EQ(tigris_mem_init(&mem, ptrs.data(), plan.header->num_tensors, fast.p, fast_size, slow.p, 1 << 20),
              TIGRIS_MEM_OK);
    ASSERT_EQ(tigris_xtensa_prepare(&plan, &mem), 0);
    const uint32_t reserved = fast_size - mem.fast_size;
    EXPECT_GE(reserved, scratch);
    EXPECT_LT(reserved, scratch + TIGRIS_TENSOR_ALIGN);
    EXPECT_GE(mem.fast_size, core);
    EXPECT_EQ(((uintptr_t)mem.fast_base + mem.fast_size) % TIGRIS_TENSOR_ALIGN, 0u);
    ASSERT_EQ(tigris_xtensa_prepare(&plan, &mem), 0);
    EXPECT_EQ(fast_size - mem.fast_size, reserved) << "a second prepare replaces the first";
    tigris_xtensa_deinit();
    EXPECT_EQ(mem.fast_size, fast_size);
    tigris_xtensa_deinit();  // harmless twice
    EXPECT_EQ(mem.fast_size, fast_size);
    EXPECT_EQ(tigris_xtensa_prepare(nullptr, &mem), -1);
    EXPECT_EQ(tigris_xtensa_prepare(&plan, nullptr), -1);
    EXPECT_EQ(tigris_xtensa_scratch_required(nullptr), UINT32_MAX);
    EXPECT_EQ(tigris_xtensa_fast_arena_required(nullptr), UINT32_MAX);
    // Without prepare the dispatcher is the reference (a tuned call declines).
    EXPECT_EQ(xt_dispatch_tuned(&plan, &plan.ops[0], 0, &mem), 1);
}

}  // namespace
