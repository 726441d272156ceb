// TFLM arena model: the greedy planner on hand-made buffer lists whose
// placement is worked out by hand, the lifetime rules on a tiny graph, and
// the head/tail recipe against the figures measured with TFLM itself
// (docs/tflm-arena.md A8) for every shared model it models.
#include <gtest/gtest.h>

#include "shared_data.h"
#include "tigris_export/arena.hpp"

namespace tfl = tigris::tflite;
namespace ex = tigris::exporter;

TEST(ExportArena, GreedyPlannerPlacesByHand) {
    // Three buffers: A 64 bytes [0,1], B 32 bytes [1,2], C 64 bytes [2,3].
    // Order: sizes desc, equal sizes later-in-planner-order first -> C, A, B.
    // C at 0. A overlaps nothing of C ([0,1] vs [2,3]) -> 0. B overlaps both:
    // walk by offset: C (placed first at 0): 0 - 0 < 32; A at 0: c = 64
    // (end of C), 0 - 64 < 32; end: c = max(64, 0 + 64) = 64. Head 96.
    int64_t head = 0;
    auto off = ex::greedy_plan({{64, 0, 1}, {32, 1, 2}, {64, 2, 3}}, &head);
    EXPECT_EQ(off, (std::vector<int64_t>{0, 64, 0}));
    EXPECT_EQ(head, 96);

    // A gap below an existing buffer is used: X 32 [0,0] at 0, Y 64 [0,2]
    // goes first (larger) at 0... so build the gap with lifetimes instead:
    // P 64 [0,1], Q 48 [2,3], R 16 [1,3]. Order P, Q, R. P at 0; Q disjoint
    // from P -> 0; R overlaps P (0..64) and Q (0..48): walk P then Q (both at
    // offset 0, P placed first): P: 0 - 0 < 16; Q: c = 64, 0 - 64 < 16; end:
    // c = max(64, 48) = 64. Head 80.
    off = ex::greedy_plan({{64, 0, 1}, {48, 2, 3}, {16, 1, 3}}, &head);
    EXPECT_EQ(off, (std::vector<int64_t>{0, 0, 64}));
    EXPECT_EQ(head, 80);

    // First fit into a gap: D 16 [0,0] at 0... larger first: E 64 [0,3] at 0,
    // F 32 [1,1] at 64, G 32 [2,2] at 64 (F is over [1,1] only), H 16 [1,2]:
    // walk E (0): 0 < 16; F (64): c = 64, 0 < 16; G (64): c = max(64, 96) = 96,
    // 64 - 96 < 0; end: c = max(96, 96) = 96. Head 112.
    off = ex::greedy_plan({{64, 0, 3}, {32, 1, 1}, {32, 2, 2}, {16, 1, 2}}, &head);
    EXPECT_EQ(off, (std::vector<int64_t>{0, 64, 64, 96}));
    EXPECT_EQ(head, 112);

    // A real gap: S 32 [0,0] and T 32 [0,0] equal size: T (later) first at 0,
    // S at 32. U 16 [1,1] overlaps neither -> 0. V 16 [0,1]: walk T (0):
    // 0 < 16; U (0, no... U is [1,1] and V [0,1] overlap): c = 32 (end of T),
    // 0 - 32 < 16; S (32): c = max(32, 16) = 32, 32 - 32 < 16; end: 64.
    off = ex::greedy_plan({{32, 0, 0}, {32, 0, 0}, {16, 1, 1}, {16, 0, 1}}, &head);
    EXPECT_EQ(off, (std::vector<int64_t>{32, 0, 0, 64}));
    EXPECT_EQ(head, 80);
}

namespace {

// input (1x8x8x4 int8, 256 B) -> RELU -> a (256 B) -> RELU -> b -> MEAN over
// axes {1,2} (const int32 [2]) -> out (1x1x1x4, 4 B -> 16). One unused
// 4096 B activation tensor (lifetime [-1,-1]).
tfl::Model tiny_graph() {
    tfl::Model m;
    m.version = 3;
    m.buffers.resize(2);
    static const std::vector<uint8_t> axes = {1, 0, 0, 0, 2, 0, 0, 0};
    m.buffers[1].data = axes;
    m.operator_codes.push_back({tfl::kRelu, "", 1});
    m.operator_codes.push_back({tfl::kMean, "", 1});
    tfl::SubGraph sg;
    auto t8 = [](std::string n, std::vector<int32_t> s) {
        tfl::Tensor t;
        t.name = std::move(n);
        t.type = tfl::TensorType::Int8;
        t.shape = std::move(s);
        t.quant.scale = {0.5f};
        t.quant.zero_point = {-3};
        return t;
    };
    sg.tensors.push_back(t8("in", {1, 8, 8, 4}));
    sg.tensors.push_back(t8("a", {1, 8, 8, 4}));
    sg.tensors.push_back(t8("b", {1, 8, 8, 4}));
    tfl::Tensor ax;
    ax.name = "axes";
    ax.type = tfl::TensorType::Int32;
    ax.shape = {2};
    ax.buffer = 1;
    sg.tensors.push_back(ax);
    sg.tensors.push_back(t8("out", {1, 1, 1, 4}));
    sg.tensors.push_back(t8("unused", {1, 4096}));
    sg.inputs = {0};
    sg.outputs = {4};
    tfl::Operator r1, r2, mean;
    r1.inputs = {0};
    r1.outputs = {1};
    r2.inputs = {1};
    r2.outputs = {2};
    mean.opcode_index = 1;
    mean.inputs = {2, 3};
    mean.outputs = {4};
    sg.operators = {r1, r2, mean};
    m.subgraphs.push_back(sg);
    return m;
}

}  // namespace

TEST(ExportArena, LifetimesAndScratchOfATinyGraph) {
    const tfl::Model m = tiny_graph();
    auto bufs = ex::planner_buffers(m);
    // Tensors in index order (the constant axes are skipped), then MEAN's
    // three scratch requests: 4 x 4 output elements, 4 x rank 4, 4 x 2 axes.
    ASSERT_EQ(bufs.size(), 8u);
    EXPECT_EQ(bufs[0].size, 256); EXPECT_EQ(bufs[0].first, 0); EXPECT_EQ(bufs[0].last, 1);
    EXPECT_EQ(bufs[1].first, 1); EXPECT_EQ(bufs[1].last, 2);
    EXPECT_EQ(bufs[2].first, 2); EXPECT_EQ(bufs[2].last, 3);
    EXPECT_EQ(bufs[3].size, 16); EXPECT_EQ(bufs[3].first, 3); EXPECT_EQ(bufs[3].last, 3);
    EXPECT_EQ(bufs[4].size, 4096); EXPECT_EQ(bufs[4].first, -1); EXPECT_EQ(bufs[4].last, -1);
    for (int i = 5; i < 8; ++i) {
        EXPECT_EQ(bufs[static_cast<size_t>(i)].size, 16);
        EXPECT_EQ(bufs[static_cast<size_t>(i)].first, 3);
    }
    // The unused 4096 B tensor sits alone at 0 and sets the head (section 2);
    // everything else fits beside it in time.
    EXPECT_EQ(ex::arena_head(m), 4096);
    tfl::Model used = m;
    used.subgraphs[0].tensors[5].shape = {1, 0};  // zero bytes: not planned
    // Hand placement: b 256 [2,3] at 0 (later of the equal-size 256s first),
    // a [1,2] overlaps b -> 256, in [0,1] overlaps only a (256..512) and fits
    // below it at 0; the four 16 B [3,3] buffers overlap b (0..256) only:
    // 256, 272, 288, 304 (end 320). Head = end of a = 512.
    EXPECT_EQ(ex::arena_head(used), 512);
}

TEST(ExportArena, TailRecipeOfTheTinyGraph) {
    // arm: fixed 132; 6 eval tensors x 12 = 72 -> 204; 3 nodes x 32 = 96 ->
    // 300; parse: MEAN's reducer params 1/1 -> 301; init: RELU 28 @16 ->
    // round_up(329,16)=336, RELU 28 -> 368 (364 -> 368), MEAN 44 -> 412 -> 416;
    // scratch handles 3 x 4 = 12 -> 428; inputs: pointer array 4 @16 -> 432
    // (428+4), TfLiteTensor 32 -> 464, quant 12 -> 476, zero points 8 -> 484;
    // outputs: array 4 @16 -> 496 (488 -> 496), tensor 32 -> 528, 12 -> 540,
    // 8 -> 548.
    EXPECT_EQ(ex::arena_tail(tiny_graph(), ex::Target::ArmNoneEabi), 548);
}

TEST(ExportArena, RefusesWhatItDoesNotModel) {
    tfl::Model m = tiny_graph();
    m.subgraphs.push_back(m.subgraphs[0]);
    try { ex::arena_head(m); FAIL(); } catch (const ex::Refusal &e) {
        EXPECT_STREQ(e.what(), "models with several subgraphs are not exported");
    }
    m = tiny_graph();
    m.subgraphs[0].tensors[2].type = tfl::TensorType::Int4;
    try { ex::arena_head(m); FAIL(); } catch (const ex::Refusal &e) {
        EXPECT_STREQ(e.what(), "a tensor type TFLite Micro's arena model does not know");
    }
    m = tiny_graph();
    m.operator_codes[0].builtin = 100;  // MIRROR_PAD
    try { ex::arena_head(m); FAIL(); } catch (const ex::Refusal &e) {
        EXPECT_STREQ(e.what(), "TFLite Micro's scratch buffers for MIRROR_PAD are not modeled");
    }
    m.operator_codes[0].builtin = 32;  // CUSTOM
    try { ex::arena_head(m); FAIL(); } catch (const ex::Refusal &e) {
        EXPECT_STREQ(e.what(), "TFLite Micro's scratch buffers for CUSTOM are not modeled");
    }
    m.operator_codes[0].builtin = 250;  // a code outside the persistent table (and the schema)
    try { ex::arena_tail(m, ex::Target::Lp64); FAIL(); } catch (const ex::Refusal &e) {
        EXPECT_STREQ(e.what(), "TFLite Micro's persistent allocations for BUILTIN_250 are not modeled");
    }
}

namespace {
struct Measured {
    const char *file;
    int64_t head, arm_tail, ilp32_tail, lp64_tail;
};
// tflm-arena.md section 8: head and tail measured with TFLM's reference kernels.
const Measured kMeasured[] = {
    {"vww_96_int8.tflite", 73728, 26932, 26940, 29664},
    {"person_detect.tflite", 55296, 26996, 27004, 29728},
    {"kws_ref_model.tflite", 16000, 6772, 6780, 8000},
    {"micro_speech_quantized.tflite", 5968, 820, 844, 1344},
    {"pretrainedResnet_quant.tflite", 49152, 5188, 5212, 6560},
    {"pretrainedResnet_large_int8.tflite", 122880, 9220, 9244, 10592},
    {"str_ww_ref_model.tflite", 6656, 8596, 8620, 9696},
    {"ad01_int8.tflite", 768, 1492, 1612, 2656},
    {"model_ToyCar_quant_fullint.tflite", 3200, 1616, 1720, 2832},
};
}  // namespace

TEST(ExportArena, MatchesTheFiguresMeasuredWithTflm) {
    TIGRIS_REQUIRE_SHARED();
    for (const Measured &x : kMeasured) {
        SCOPED_TRACE(x.file);
        const auto file = tigris_test::read_file(tigris_test::shared_dir() / "models" / x.file);
        const tfl::Model m = tfl::read_model(file);
        EXPECT_EQ(ex::arena_head(m), x.head);
        EXPECT_EQ(ex::arena_tail(m, ex::Target::ArmNoneEabi), x.arm_tail);
        EXPECT_EQ(ex::arena_tail(m, ex::Target::Ilp32), x.ilp32_tail);
        EXPECT_EQ(ex::arena_tail(m, ex::Target::Lp64), x.lp64_tail);
    }
    // keyword_scrambled_8bit has SVDF, whose scratch is not modeled.
    const auto file = tigris_test::read_file(tigris_test::shared_dir() / "models" / "keyword_scrambled_8bit.tflite");
    EXPECT_THROW(ex::arena_head(tfl::read_model(file)), ex::Refusal);
}
