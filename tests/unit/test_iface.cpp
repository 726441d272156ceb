// Model interface: boundary byte counts, the four conversions (values worked
// out by hand from the rules in docs/format.md P4.5), error codes, and where
// tigris_input_alloc places inputs (docs/runtime-semantics.md R2.12.2).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "test_mem_plan.h"

extern "C" {
#include "tigris_iface.h"
}

using namespace tigris_mem_test;

namespace {

constexpr uint8_t IN = TIGRIS_TENSOR_MODEL_INPUT;
constexpr uint8_t OUT = TIGRIS_TENSOR_MODEL_OUTPUT;

struct Mem {
    std::vector<uint8_t> fast_store, slow_store;
    uint8_t *fast, *slow;
    std::vector<void *> ptrs;
    tigris_mem_t mem{};
    Mem(uint16_t n, uint32_t fsz = 64 * kAlign, uint32_t ssz = 64 * kAlign)
        : fast_store(fsz + 64), slow_store(ssz + 64), ptrs(n) {
        fast = align(fast_store.data());
        slow = align(slow_store.data());
        EXPECT_EQ(tigris_mem_init(&mem, ptrs.data(), n, fast, fsz, slow, ssz), TIGRIS_MEM_OK);
    }
    static uint8_t *align(uint8_t *p) {
        return reinterpret_cast<uint8_t *>((reinterpret_cast<uintptr_t>(p) + 63) & ~uintptr_t(63));
    }
    bool in_fast(uint16_t t) const { return tigris__mem_in_fast(&mem, ptrs[t]) != 0; }
    bool in_slow(uint16_t t) const { return tigris__mem_in_slow(&mem, ptrs[t]) != 0; }
    uint32_t fast_off(uint16_t t) const { return (uint32_t)((uint8_t *)ptrs[t] - fast); }
    uint32_t slow_off(uint16_t t) const { return (uint32_t)((uint8_t *)ptrs[t] - slow); }
};

uint32_t align_up(uint32_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

// Two stages, so inputs are never read in place: they go to slow.
void two_stages(MiniPlan &mp, uint16_t in, uint16_t out) {
    mp.stage({}, {in}, {in});
    mp.stage({}, {in}, {out});
}

// ---- byte counts ----

TEST(IfaceBytes, DeclaredElementSizeTimesElementCount) {
    MiniPlan mp;
    uint16_t q = mp.quant_param(0.5f, -3);
    uint16_t f = mp.tensor(TIGRIS_DTYPE_INT8, {1, 2, 3}, IN, q, TIGRIS_DTYPE_FLOAT32);
    uint16_t u = mp.tensor(TIGRIS_DTYPE_INT8, {1, 2, 3}, OUT, q, TIGRIS_DTYPE_UINT8);
    uint16_t s = mp.tensor(TIGRIS_DTYPE_INT8, {1, 2, 3}, IN, q);
    uint16_t w = mp.tensor(TIGRIS_DTYPE_INT32, {5}, OUT, TIGRIS_NONE16, TIGRIS_DTYPE_INT64);
    uint16_t fl = mp.tensor(TIGRIS_DTYPE_FLOAT32, {4}, OUT);
    uint16_t b = mp.tensor(TIGRIS_DTYPE_BOOL, {3}, OUT);
    uint16_t inner = mp.tensor(TIGRIS_DTYPE_FLOAT32, {4});
    const tigris_plan_t *plan = mp.get();
#if TIGRIS_ENABLE_F32
    EXPECT_EQ(tigris_iface_bytes(plan, f), 24u);
#else
    EXPECT_EQ(tigris_iface_bytes(plan, f), 0u);
#endif
    EXPECT_EQ(tigris_iface_bytes(plan, u), 6u);
    EXPECT_EQ(tigris_iface_bytes(plan, s), 6u);
    EXPECT_EQ(tigris_iface_bytes(plan, w), 40u);
    EXPECT_EQ(tigris_iface_bytes(plan, fl), 16u);
    EXPECT_EQ(tigris_iface_bytes(plan, b), 3u);
    EXPECT_EQ(tigris_iface_bytes(plan, inner), 0u);
    EXPECT_EQ(tigris_iface_bytes(plan, 99), 0u);
    EXPECT_EQ(tigris_iface_bytes(nullptr, 0), 0u);
}

TEST(IfaceBytes, PairsWithoutAConversionHaveNone) {
    MiniPlan mp;
    uint16_t q0 = mp.quant_param(0.0f, 0);
    uint16_t qn = mp.quant_param(std::numeric_limits<float>::quiet_NaN(), 0);
    uint16_t qi = mp.quant_param(std::numeric_limits<float>::infinity(), 0);
    uint16_t qneg = mp.quant_param(-0.5f, 0);
    uint16_t qz = mp.quant_param(0.5f, 200);  // zero point outside int8
    std::vector<uint16_t> bad = {
        mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN, TIGRIS_NONE16, TIGRIS_DTYPE_FLOAT32),  // no quant param
        mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN, TIGRIS_NONE16, TIGRIS_DTYPE_UINT8),
        mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN, q0, TIGRIS_DTYPE_FLOAT32),
        mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN, qn, TIGRIS_DTYPE_UINT8),
        mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN, qi, TIGRIS_DTYPE_FLOAT32),
        mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN, qneg, TIGRIS_DTYPE_UINT8),
        mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN, qz, TIGRIS_DTYPE_UINT8),
        mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN, 77, TIGRIS_DTYPE_UINT8),  // index past the table
        mp.tensor(TIGRIS_DTYPE_INT32, {4}, IN, TIGRIS_NONE16, TIGRIS_DTYPE_FLOAT32),
        mp.tensor(TIGRIS_DTYPE_FLOAT32, {4}, IN, TIGRIS_NONE16, TIGRIS_DTYPE_INT8),
        mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN, TIGRIS_NONE16, TIGRIS_DTYPE_INT64),
        mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN, TIGRIS_NONE16, 4),  // not a dtype
    };
    uint16_t out = mp.tensor(TIGRIS_DTYPE_INT8, {4}, OUT, q0, TIGRIS_DTYPE_FLOAT32);
    const tigris_plan_t *plan = mp.get();
    Mem m((uint16_t)mp.tensors.size());
    uint8_t buf[64] = {};
    for (uint16_t t : bad) {
        EXPECT_EQ(tigris_iface_bytes(plan, t), 0u) << t;
        EXPECT_EQ(tigris_input_write(plan, &m.mem, t, buf, 0), TIGRIS_ERR_BAD_INTERFACE) << t;
        EXPECT_EQ(tigris_input_write(plan, &m.mem, t, buf, 16), TIGRIS_ERR_BAD_INTERFACE) << t;
        EXPECT_EQ(m.ptrs[t], nullptr) << "refused write placed the input";
    }
    EXPECT_EQ(tigris_output_read(plan, &m.mem, out, buf, 16), TIGRIS_ERR_BAD_INTERFACE);
}

// ---- all inputs / outputs at once ----

// Two int8 inputs (the second read as uint8 at the boundary) and an int32
// output read as int64: one concatenated buffer each way, in the plan's order.
TEST(IfaceAll, ConcatenatedInputsAndOutputsInPlanOrder) {
    MiniPlan mp;
    uint16_t q = mp.quant_param(0.5f, 0);
    uint16_t a = mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN, q);
    uint16_t b = mp.tensor(TIGRIS_DTYPE_INT8, {2}, IN, q, TIGRIS_DTYPE_UINT8);
    uint16_t y = mp.tensor(TIGRIS_DTYPE_INT32, {2}, OUT, TIGRIS_NONE16, TIGRIS_DTYPE_INT64);
    const tigris_plan_t *plan = mp.get();
    EXPECT_EQ(tigris_inputs_bytes(plan), 6u);
    EXPECT_EQ(tigris_outputs_bytes(plan), 16u);
    EXPECT_EQ(tigris_inputs_bytes(nullptr), 0u);
    Mem m((uint16_t)mp.tensors.size());
    const uint8_t in[6] = {1, 2, 3, 4, 130, 126};  // b: uint8 130, 126 -> int8 2, -2
    EXPECT_EQ(tigris_inputs_write(plan, &m.mem, in, 5), TIGRIS_ERR_BAD_SIZE);
    EXPECT_EQ(m.ptrs[a], nullptr) << "a refused write placed an input";
    EXPECT_EQ(tigris_inputs_write(plan, nullptr, in, 6), TIGRIS_ERR_NULL);
    ASSERT_EQ(tigris_inputs_write(plan, &m.mem, in, 6), TIGRIS_OK);
    EXPECT_EQ(std::memcmp(m.ptrs[a], in, 4), 0);
    const int8_t *bp = static_cast<const int8_t *>(m.ptrs[b]);
    EXPECT_EQ(bp[0], 2);
    EXPECT_EQ(bp[1], -2);

    ASSERT_EQ(tigris_mem_alloc_slow(&m.mem, y, 8), TIGRIS_MEM_OK);  // where the run left the output
    const int32_t yv[2] = {-7, 9};
    std::memcpy(m.ptrs[y], yv, sizeof yv);
    int64_t out[2] = {};
    EXPECT_EQ(tigris_outputs_read(plan, &m.mem, out, 8), TIGRIS_ERR_BAD_SIZE);
    ASSERT_EQ(tigris_outputs_read(plan, &m.mem, out, sizeof out), TIGRIS_OK);
    EXPECT_EQ(out[0], -7);
    EXPECT_EQ(out[1], 9);
}

// ---- conversions ----

#if TIGRIS_ENABLE_F32
TEST(IfaceConvert, Float32InQuantizesRoundingHalfAwayAndClamps) {
    MiniPlan mp;
    uint16_t q = mp.quant_param(0.5f, -3);
    uint16_t t = mp.tensor(TIGRIS_DTYPE_INT8, {16}, IN, q, TIGRIS_DTYPE_FLOAT32);
    const tigris_plan_t *plan = mp.get();
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    // x / 0.5 = v; round half away; + (-3); clamp to int8.
    const float x[16] = {1.25f, -1.25f, 0.0f, 0.24f, 0.26f, 1000.0f, -1000.0f, nan,
                         inf,   -inf,   0.75f, -0.75f, 65.0f, 65.5f, -62.5f, -62.0f};
    const int8_t want[16] = {0,    // 2.5 -> 3
                             -6,   // -2.5 -> -3
                             -3,   // 0
                             -3,   // 0.48 -> 0
                             -2,   // 0.52 -> 1
                             127,  // 2000
                             -128, // -2000
                             -3,   // NaN: the zero point (our choice)
                             127,  -128,
                             -1,   // 1.5 -> 2
                             -5,   // -1.5 -> -2
                             127,  // 130 - 3 = 127 exactly
                             127,  // 131 - 3 = 128 -> 127
                             -128, // -125 - 3
                             -127};// -124 - 3
    Mem m(1);
    ASSERT_EQ(tigris_input_write(plan, &m.mem, t, x, sizeof x), TIGRIS_OK);
    ASSERT_NE(m.ptrs[t], nullptr);
    const int8_t *got = static_cast<const int8_t *>(m.ptrs[t]);
    for (int i = 0; i < 16; i++) EXPECT_EQ(got[i], want[i]) << "x=" << x[i];
}

TEST(IfaceConvert, Float32OutDequantizes) {
    MiniPlan mp;
    uint16_t q = mp.quant_param(0.5f, -3);
    uint16_t t = mp.tensor(TIGRIS_DTYPE_INT8, {4}, OUT, q, TIGRIS_DTYPE_FLOAT32);
    const tigris_plan_t *plan = mp.get();
    Mem m(1);
    ASSERT_EQ(tigris_mem_alloc_slow(&m.mem, t, 4), TIGRIS_MEM_OK);
    const int8_t q8[4] = {-128, -3, 0, 127};
    std::memcpy(m.ptrs[t], q8, 4);
    float out[4];
    ASSERT_EQ(tigris_output_read(plan, &m.mem, t, out, sizeof out), TIGRIS_OK);
    EXPECT_EQ(out[0], -62.5f);  // (-128 + 3) * 0.5
    EXPECT_EQ(out[1], 0.0f);
    EXPECT_EQ(out[2], 1.5f);
    EXPECT_EQ(out[3], 65.0f);
}

TEST(IfaceConvert, Float32UnalignedCallerBuffers) {
    MiniPlan mp;
    uint16_t q = mp.quant_param(0.25f, 0);
    uint16_t i = mp.tensor(TIGRIS_DTYPE_INT8, {3}, IN | OUT, q, TIGRIS_DTYPE_FLOAT32);
    const tigris_plan_t *plan = mp.get();
    Mem m(1);
    alignas(8) uint8_t raw[32] = {};
    const float x[3] = {0.5f, -0.25f, 1.0f};  // -> 2, -1, 4
    std::memcpy(raw + 1, x, sizeof x);
    ASSERT_EQ(tigris_input_write(plan, &m.mem, i, raw + 1, 12), TIGRIS_OK);
    const int8_t *q8 = static_cast<const int8_t *>(m.ptrs[i]);
    EXPECT_EQ(q8[0], 2);
    EXPECT_EQ(q8[1], -1);
    EXPECT_EQ(q8[2], 4);
    uint8_t back[32] = {};
    ASSERT_EQ(tigris_output_read(plan, &m.mem, i, back + 3, 12), TIGRIS_OK);
    float y[3];
    std::memcpy(y, back + 3, 12);
    EXPECT_EQ(y[0], 0.5f);
    EXPECT_EQ(y[1], -0.25f);
    EXPECT_EQ(y[2], 1.0f);
}
#else
TEST(IfaceConvert, Float32InterfaceIsRefusedWithoutFloatSupport) {
    MiniPlan mp;
    uint16_t q = mp.quant_param(0.5f, 0);
    uint16_t t = mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN, q, TIGRIS_DTYPE_FLOAT32);
    const tigris_plan_t *plan = mp.get();
    Mem m(1);
    float x[4] = {};
    EXPECT_EQ(tigris_input_write(plan, &m.mem, t, x, 16), TIGRIS_ERR_BAD_INTERFACE);
}
#endif

TEST(IfaceConvert, Uint8ShiftsBy128BothWays) {
    MiniPlan mp;
    uint16_t q = mp.quant_param(0.1f, 5);
    uint16_t t = mp.tensor(TIGRIS_DTYPE_INT8, {5}, IN | OUT, q, TIGRIS_DTYPE_UINT8);
    const tigris_plan_t *plan = mp.get();
    Mem m(1);
    const uint8_t u[5] = {0, 128, 255, 1, 200};
    ASSERT_EQ(tigris_input_write(plan, &m.mem, t, u, 5), TIGRIS_OK);
    const int8_t want[5] = {-128, 0, 127, -127, 72};
    EXPECT_EQ(std::memcmp(m.ptrs[t], want, 5), 0);
    uint8_t back[5];
    ASSERT_EQ(tigris_output_read(plan, &m.mem, t, back, 5), TIGRIS_OK);
    EXPECT_EQ(std::memcmp(back, u, 5), 0);
}

TEST(IfaceConvert, Int64InSaturatesToInt32AndOutSignExtends) {
    MiniPlan mp;
    uint16_t t = mp.tensor(TIGRIS_DTYPE_INT32, {10}, IN | OUT, TIGRIS_NONE16, TIGRIS_DTYPE_INT64);
    const tigris_plan_t *plan = mp.get();
    Mem m(1);
    const int64_t in[10] = {0,           -1,           2147483647LL, 2147483648LL, -2147483648LL,
                            -2147483649LL, 1LL << 40, -(1LL << 40), INT64_MAX,   INT64_MIN};
    const int32_t want[10] = {0,         -1,        INT32_MAX, INT32_MAX, INT32_MIN,
                              INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN};
    ASSERT_EQ(tigris_iface_bytes(plan, t), 80u);
    ASSERT_EQ(tigris_input_write(plan, &m.mem, t, in, sizeof in), TIGRIS_OK);
    EXPECT_EQ(std::memcmp(m.ptrs[t], want, sizeof want), 0);
    int64_t back[10];
    ASSERT_EQ(tigris_output_read(plan, &m.mem, t, back, sizeof back), TIGRIS_OK);
    for (int i = 0; i < 10; i++) EXPECT_EQ(back[i], (int64_t)want[i]) << i;
}

TEST(IfaceConvert, SameDtypeIsAByteCopy) {
    MiniPlan mp;
    uint16_t t = mp.tensor(TIGRIS_DTYPE_FLOAT32, {2, 3}, IN | OUT);
    const tigris_plan_t *plan = mp.get();
    Mem m(1);
    const float x[6] = {1.5f, -2.0f, 3.25f, 0.0f, -0.0f, 1e30f};
    ASSERT_EQ(tigris_input_write(plan, &m.mem, t, x, sizeof x), TIGRIS_OK);
    EXPECT_EQ(std::memcmp(m.ptrs[t], x, sizeof x), 0);
    float y[6];
    ASSERT_EQ(tigris_output_read(plan, &m.mem, t, y, sizeof y), TIGRIS_OK);
    EXPECT_EQ(std::memcmp(x, y, sizeof x), 0);
}

// ---- errors ----

TEST(IfaceErrors, CodesForEachRefusal) {
    MiniPlan mp;
    uint16_t in = mp.tensor(TIGRIS_DTYPE_FLOAT32, {4}, IN);
    uint16_t out = mp.tensor(TIGRIS_DTYPE_FLOAT32, {4}, OUT);
    uint16_t mid = mp.tensor(TIGRIS_DTYPE_FLOAT32, {4});
    two_stages(mp, in, out);
    const tigris_plan_t *plan = mp.get();
    Mem m(3);
    float buf[4] = {};
    EXPECT_EQ(tigris_input_write(nullptr, &m.mem, in, buf, 16), TIGRIS_ERR_NULL);
    EXPECT_EQ(tigris_input_write(plan, nullptr, in, buf, 16), TIGRIS_ERR_NULL);
    EXPECT_EQ(tigris_input_write(plan, &m.mem, out, buf, 16), TIGRIS_ERR_BAD_TENSOR);
    EXPECT_EQ(tigris_input_write(plan, &m.mem, mid, buf, 16), TIGRIS_ERR_BAD_TENSOR);
    EXPECT_EQ(tigris_input_write(plan, &m.mem, 3, buf, 16), TIGRIS_ERR_BAD_TENSOR);
    EXPECT_EQ(tigris_input_write(plan, &m.mem, in, buf, 15), TIGRIS_ERR_BAD_SIZE);
    EXPECT_EQ(tigris_input_write(plan, &m.mem, in, buf, 17), TIGRIS_ERR_BAD_SIZE);
    EXPECT_EQ(tigris_input_write(plan, &m.mem, in, nullptr, 16), TIGRIS_ERR_NULL);
    EXPECT_EQ(m.ptrs[in], nullptr);
    EXPECT_EQ(tigris_output_read(plan, &m.mem, in, buf, 16), TIGRIS_ERR_BAD_TENSOR);
    EXPECT_EQ(tigris_output_read(plan, &m.mem, out, buf, 16), TIGRIS_ERR_NULL);  // unplaced
    EXPECT_EQ(tigris_output_read(plan, nullptr, out, buf, 16), TIGRIS_ERR_NULL);
    ASSERT_EQ(tigris_mem_alloc_slow(&m.mem, out, 16), TIGRIS_MEM_OK);
    EXPECT_EQ(tigris_output_read(plan, &m.mem, out, nullptr, 16), TIGRIS_ERR_NULL);
    EXPECT_EQ(tigris_output_read(plan, &m.mem, out, buf, 8), TIGRIS_ERR_BAD_SIZE);
    EXPECT_EQ(tigris_output_read(plan, &m.mem, out, buf, 16), TIGRIS_OK);
}

TEST(IfaceErrors, TooFewTensorSlots) {
    MiniPlan mp;
    uint16_t in = mp.tensor(TIGRIS_DTYPE_FLOAT32, {4}, IN);
    mp.tensor(TIGRIS_DTYPE_FLOAT32, {4});
    uint16_t out = mp.tensor(TIGRIS_DTYPE_FLOAT32, {4}, OUT);
    two_stages(mp, in, out);
    const tigris_plan_t *plan = mp.get();
    Mem m(1);  // one slot for a three-tensor plan
    float buf[4] = {};
    MemBytes before = bytes_of(m.mem);
    EXPECT_EQ(tigris_input_alloc(plan, &m.mem, in), TIGRIS_ERR_TENSOR_SLOTS);
    EXPECT_EQ(tigris_input_write(plan, &m.mem, in, buf, 16), TIGRIS_ERR_TENSOR_SLOTS);
    EXPECT_EQ(tigris_output_read(plan, &m.mem, out, buf, 16), TIGRIS_ERR_TENSOR_SLOTS);
    EXPECT_EQ(bytes_of(m.mem), before);
}

TEST(IfaceErrors, AllocArgumentChecks) {
    MiniPlan mp;
    uint16_t in = mp.tensor(TIGRIS_DTYPE_FLOAT32, {4}, IN);
    uint16_t out = mp.tensor(TIGRIS_DTYPE_FLOAT32, {4}, OUT);
    two_stages(mp, in, out);
    const tigris_plan_t *plan = mp.get();
    Mem m(2);
    EXPECT_EQ(tigris_input_alloc(nullptr, &m.mem, in), TIGRIS_ERR_NULL);
    EXPECT_EQ(tigris_input_alloc(plan, nullptr, in), TIGRIS_ERR_NULL);
    tigris_mem_t no_table = m.mem;
    no_table.tensor_ptrs = nullptr;
    EXPECT_EQ(tigris_input_alloc(plan, &no_table, in), TIGRIS_ERR_NULL);
    EXPECT_EQ(tigris_input_alloc(plan, &m.mem, out), TIGRIS_ERR_BAD_TENSOR);
    EXPECT_EQ(tigris_input_alloc(plan, &m.mem, 2), TIGRIS_ERR_BAD_TENSOR);
}

// ---- placement ----

TEST(IfacePlace, InputsOfOtherPlansGoToSlowInCallOrder) {
    MiniPlan mp;
    uint16_t a = mp.tensor(TIGRIS_DTYPE_FLOAT32, {3}, IN);
    uint16_t b = mp.tensor(TIGRIS_DTYPE_INT8, {5}, IN);
    uint16_t out = mp.tensor(TIGRIS_DTYPE_FLOAT32, {4}, OUT);
    mp.stage({}, {a, b}, {a});
    mp.stage({}, {a}, {out});
    const tigris_plan_t *plan = mp.get();
    EXPECT_EQ(tigris__plan_reads_inputs_in_place(plan), 0);
    Mem m(3);
    ASSERT_EQ(tigris_input_alloc(plan, &m.mem, b), TIGRIS_OK);
    ASSERT_EQ(tigris_input_alloc(plan, &m.mem, a), TIGRIS_OK);
    EXPECT_TRUE(m.in_slow(b));
    EXPECT_EQ(m.slow_off(b), 0u);
    EXPECT_EQ(m.slow_off(a), kAlign);
    EXPECT_EQ(m.mem.slow_used, 2 * kAlign);
    EXPECT_EQ(m.mem.fast_used, 0u);
    // Already placed: kept, nothing allocated.
    void *pa = m.ptrs[a];
    ASSERT_EQ(tigris_input_alloc(plan, &m.mem, a), TIGRIS_OK);
    EXPECT_EQ(m.ptrs[a], pa);
    EXPECT_EQ(m.mem.slow_used, 2 * kAlign);
}

TEST(IfacePlace, CallerBufferIsUsedAsItIs) {
    MiniPlan mp;
    uint16_t a = mp.tensor(TIGRIS_DTYPE_INT8, {4}, IN);
    uint16_t out = mp.tensor(TIGRIS_DTYPE_INT8, {4}, OUT);
    two_stages(mp, a, out);
    const tigris_plan_t *plan = mp.get();
    Mem m(2);
    ASSERT_EQ(tigris__mem_alloc_fast(&m.mem, a, 4), TIGRIS_MEM_OK);
    const int8_t v[4] = {1, 2, 3, 4};
    ASSERT_EQ(tigris_input_write(plan, &m.mem, a, v, 4), TIGRIS_OK);
    EXPECT_EQ(m.ptrs[a], m.fast);
    EXPECT_EQ(std::memcmp(m.fast, v, 4), 0);
    EXPECT_EQ(m.mem.slow_used, 0u);
}

TEST(IfacePlace, SlowPlacementThatDoesNotFitIsErrMemAndChangesNothing) {
    MiniPlan mp;
    uint16_t a = mp.tensor(TIGRIS_DTYPE_FLOAT32, {100}, IN);
    uint16_t out = mp.tensor(TIGRIS_DTYPE_FLOAT32, {4}, OUT);
    two_stages(mp, a, out);
    const tigris_plan_t *plan = mp.get();
    Mem m(2, 64 * kAlign, 2 * kAlign);
    MemBytes before = bytes_of(m.mem);
    float x[100] = {};
    EXPECT_EQ(tigris_input_alloc(plan, &m.mem, a), TIGRIS_ERR_MEM);
    EXPECT_EQ(tigris_input_write(plan, &m.mem, a, x, sizeof x), TIGRIS_ERR_MEM);
    EXPECT_EQ(bytes_of(m.mem), before);
    EXPECT_EQ(m.ptrs[a], nullptr);
}

// A plan that reads its inputs in place: schema >= 5, one plain stage that
// reads both inputs and writes the output.
struct InPlace {
    MiniPlan mp;
    uint16_t a, b, out;
    InPlace(uint32_t uncompressed = 0) {
        a = mp.tensor(TIGRIS_DTYPE_INT8, {1, 10}, IN);
        b = mp.tensor(TIGRIS_DTYPE_FLOAT32, {3}, IN);
        out = mp.tensor(TIGRIS_DTYPE_INT8, {4}, OUT);
        uint16_t o = mp.op(TIGRIS_OP_ADD, 0);
        mp.stage({o}, {b, a}, {out});
        if (uncompressed) {
            tigris_weight_block_t blk{};
            blk.stage_idx = 0;
            blk.compressed_size = 10;
            blk.uncompressed_size = uncompressed;
            mp.blocks.push_back(blk);
        }
        mp.header.version = 5;
    }
};

TEST(IfacePlace, InPlaceInputsSitTogetherAtTheTopOfTheFill) {
    InPlace ip;
    const tigris_plan_t *plan = ip.mp.get();
    ASSERT_EQ(tigris__plan_reads_inputs_in_place(plan), 1);
    Mem m(3);
    ASSERT_EQ(tigris_input_alloc(plan, &m.mem, ip.a), TIGRIS_OK);
    ASSERT_EQ(tigris_input_alloc(plan, &m.mem, ip.b), TIGRIS_OK);
    EXPECT_TRUE(m.in_fast(ip.a));
    EXPECT_EQ(m.fast_off(ip.a), 0u);  // no compressed weights: no room needed
    EXPECT_EQ(m.fast_off(ip.b), kAlign);
    EXPECT_EQ(m.mem.fast_used, 2 * kAlign);
    EXPECT_EQ(m.mem.fast_peak, 2 * kAlign);
    EXPECT_EQ(m.mem.slow_used, 0u);
}

TEST(IfacePlace, FirstInPlaceInputLeavesTheDecompressionRoomBelowIt) {
    InPlace ip(100);
    const tigris_plan_t *plan = ip.mp.get();
    ASSERT_EQ(tigris_weight_decompression_overhead(plan), align_up(100));
    Mem m(3);
    // Something the caller placed first: the room starts above it.
    ASSERT_EQ(tigris__mem_alloc_fast(&m.mem, ip.out, 1), TIGRIS_MEM_OK);
    const float xb[3] = {1, 2, 3};
    ASSERT_EQ(tigris_input_write(plan, &m.mem, ip.b, xb, sizeof xb), TIGRIS_OK);  // b placed first
    ASSERT_EQ(tigris_input_alloc(plan, &m.mem, ip.a), TIGRIS_OK);
    const uint32_t room = align_up(100);
    EXPECT_EQ(m.fast_off(ip.b), kAlign + room);
    EXPECT_EQ(m.fast_off(ip.a), kAlign + room + align_up(12));
    EXPECT_EQ(m.mem.fast_used, kAlign + room + align_up(12) + align_up(10));
    EXPECT_EQ(m.mem.fast_peak, m.mem.fast_used);
    EXPECT_EQ(std::memcmp(m.ptrs[ip.b], xb, sizeof xb), 0);
    // Nothing is placed in the room itself.
    for (uint16_t t = 0; t < 3; t++) {
        uint32_t off = m.fast_off(t);
        EXPECT_FALSE(off >= kAlign && off < kAlign + room) << t;
    }
}

TEST(IfacePlace, InPlaceInputThatDoesNotFitIsErrMemAndChangesNothing) {
    InPlace ip(100);
    const tigris_plan_t *plan = ip.mp.get();
    // Room (align_up(100)) fits but the 12-byte input on top of it does not.
    Mem m(3, align_up(100) + 8, 64 * kAlign);
    MemBytes before = bytes_of(m.mem);
    EXPECT_EQ(tigris_input_alloc(plan, &m.mem, ip.b), TIGRIS_ERR_MEM);
    EXPECT_EQ(bytes_of(m.mem), before);
    EXPECT_EQ(m.ptrs[ip.b], nullptr);
    // Not even the room fits.
    Mem m2(3, kAlign, 64 * kAlign);
    EXPECT_EQ(tigris_input_alloc(plan, &m2.mem, ip.a), TIGRIS_ERR_MEM);
    EXPECT_EQ(m2.mem.fast_used, 0u);
}

#ifdef TIGRIS_TRACE
TEST(IfacePlace, InPlacePlacementIsTracedAsAnAlloc) {
    InPlace ip(100);
    const tigris_plan_t *plan = ip.mp.get();
    Mem m(3);
    std::vector<tigris_trace_event_t> ev;
    tigris_mem_set_trace(
        &m.mem, [](const tigris_trace_event_t *e, void *ctx) {
            static_cast<std::vector<tigris_trace_event_t> *>(ctx)->push_back(*e);
        },
        &ev);
    ASSERT_EQ(tigris_input_alloc(plan, &m.mem, ip.a), TIGRIS_OK);
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(ev[0].kind, TIGRIS_TRACE_ALLOC);
    EXPECT_EQ(ev[0].pool, TIGRIS_TRACE_POOL_FAST);
    EXPECT_EQ(ev[0].tensor, ip.a);
    EXPECT_EQ(ev[0].offset, align_up(100));
    EXPECT_EQ(ev[0].bytes, kAlign);
    EXPECT_EQ(ev[0].fast_used, align_up(100) + kAlign);
}
#endif

TEST(IfacePlace, WhatMakesAPlanNotReadInPlace) {
    auto check = [](const char *why, auto tweak) {
        InPlace ip;
        tweak(ip);
        const tigris_plan_t *plan = ip.mp.get();
        EXPECT_EQ(tigris__plan_reads_inputs_in_place(plan), 0) << why;
        Mem m(3);
        ASSERT_EQ(tigris_input_alloc(plan, &m.mem, ip.a), TIGRIS_OK) << why;
        EXPECT_TRUE(m.in_slow(ip.a)) << why;
    };
    check("schema 4", [](InPlace &ip) { ip.mp.header.version = 4; });
    check("tile record", [](InPlace &ip) { ip.mp.stages[0].tile_plan_idx = 0; });
    check("chain", [](InPlace &ip) { ip.mp.stages[0].chain_len = 2; });
    check("two stages", [](InPlace &ip) { ip.mp.stage({}, {ip.out}, {ip.out}); });
    check("stage misses an input", [](InPlace &ip) { ip.mp.pool[ip.mp.stages[0].inputs_off] = ip.out; });
    check("stage misses the output", [](InPlace &ip) { ip.mp.pool[ip.mp.stages[0].outputs_off] = ip.a; });
    check("control flow op", [](InPlace &ip) { ip.mp.ops[0].op_type = TIGRIS_OP_IF; });
}

TEST(IfacePlace, StateOrSubgraphsAlsoPreventInPlace) {
    InPlace ip;
    const tigris_plan_t *plan = ip.mp.get();
    ASSERT_EQ(tigris__plan_reads_inputs_in_place(plan), 1);
    ip.mp.plan.num_state = 1;
    EXPECT_EQ(tigris__plan_reads_inputs_in_place(plan), 0);
    ip.mp.plan.num_state = 0;
    ip.mp.plan.num_subgraphs = 1;
    EXPECT_EQ(tigris__plan_reads_inputs_in_place(plan), 0);
    EXPECT_EQ(tigris__plan_reads_inputs_in_place(nullptr), 0);
}

}  // namespace
