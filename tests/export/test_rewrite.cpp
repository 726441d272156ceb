// The band rewrite on hand-made graphs whose bands, operators, shapes and
// MACs are worked out by hand, PAD folding, PADV2 in front of a max pool,
// the run rules, and the shape check on every model export writes.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "graph_builder.h"
#include "rewrite.hpp"
#include "shared_data.h"
#include "tigris_export/arena.hpp"
#include "tigris_export/export.hpp"
#include "tigris_export/writer.hpp"

namespace tfl = tigris::tflite;
namespace ex = tigris::exporter;
namespace dt = tigris::exporter::detail;
using tigris_test::GraphBuilder;

namespace {

std::vector<std::string> op_names(const tfl::Model &m) {
    std::vector<std::string> v;
    for (const auto &op : m.subgraphs[0].operators) v.push_back(tfl::builtin_name(m.operator_codes[op.opcode_index].builtin));
    return v;
}

const tfl::Tensor &out_of(const tfl::Model &m, size_t op) {
    return m.subgraphs[0].tensors[static_cast<size_t>(m.subgraphs[0].operators[op].outputs[0])];
}

// in [1,8,8,2] -> CONV 3x3 s2 SAME (4 ch) -> [1,4,4,4] -> RELU -> DW 3x3 s1 SAME -> out.
tfl::Model conv_relu_dw() {
    GraphBuilder g;
    const int32_t in = g.act("in", 8, 8, 2), a = g.act("a", 4, 4, 4), b = g.act("b", 4, 4, 4), out = g.act("out", 4, 4, 4);
    g.conv(false, in, a, 3, 3, 2, true);
    g.unary(tfl::kRelu, a, b);
    g.conv(true, b, out, 3, 3, 1, true);
    g.io({in}, {out});
    return g.model();
}

}  // namespace

TEST(ExportRewrite, TwoBandsOfConvReluDepthwiseByHand) {
    const tfl::Model m = conv_relu_dw();
    const auto runs = dt::bandable_runs(m);
    // Runs holding the strided conv (op 0): [0,0], [0,1], [0,2]. [0,0] and
    // [0,1] end where their output is read outside, which is allowed.
    ASSERT_EQ(runs.size(), 3u);
    auto rw = dt::band_rewrite(m, {runs[2], 2, false});
    ASSERT_TRUE(rw);
    const tfl::Model &r = rw->model;
    // Band 0: output rows [0,2): DW reads b rows [0,3) with 1 row of top
    // padding and the SAME width padding (1, 1); RELU rows [0,3); CONV rows
    // [0,3) reads input rows [0,7) (SAME 8->4 s2: top 0, bottom 1, left 0,
    // right 1), so the band pads width only. Band 1: DW rows [1,4) + bottom
    // pad; CONV rows [1,4) reads [2,8) + 1 bottom row.
    EXPECT_EQ(op_names(r), (std::vector<std::string>{"SLICE", "PAD", "CONV_2D", "RELU", "PAD", "DEPTHWISE_CONV_2D",
                                                     "SLICE", "PAD", "CONV_2D", "RELU", "PAD", "DEPTHWISE_CONV_2D",
                                                     "CONCATENATION"}));
    EXPECT_EQ(out_of(r, 0).shape, (std::vector<int32_t>{1, 7, 8, 2}));
    EXPECT_EQ(out_of(r, 1).shape, (std::vector<int32_t>{1, 7, 9, 2}));
    EXPECT_EQ(out_of(r, 2).shape, (std::vector<int32_t>{1, 3, 4, 4}));
    EXPECT_EQ(out_of(r, 4).shape, (std::vector<int32_t>{1, 4, 6, 4}));
    EXPECT_EQ(out_of(r, 5).shape, (std::vector<int32_t>{1, 2, 4, 4}));
    EXPECT_EQ(out_of(r, 6).shape, (std::vector<int32_t>{1, 6, 8, 2}));
    EXPECT_EQ(out_of(r, 7).shape, (std::vector<int32_t>{1, 7, 9, 2}));
    EXPECT_EQ(tigris_test::check_shapes(r), "");
    // Weights are shared: every CONV_2D copy reads the original filter tensor.
    const auto &ops = r.subgraphs[0].operators;
    EXPECT_EQ(ops[2].inputs[1], ops[8].inputs[1]);
    EXPECT_EQ(ops[2].options.padding, 1);
    // MACs: original conv 4*4*4 outputs x 3*3*2 = 1152, dw 64 x 9 = 576.
    // Banded: conv 2 x (3*4*4 x 18) = 1728, dw 2 x (2*4*4 x 9) = 576.
    EXPECT_EQ(dt::model_macs(m), 1728);
    EXPECT_EQ(dt::model_macs(r), 2304);
    // The original intermediates a and b are dropped; the graph output keeps its tensor.
    for (const auto &t : r.subgraphs[0].tensors) EXPECT_TRUE(t.name != "a" && t.name != "b") << t.name;
    EXPECT_EQ(r.subgraphs[0].tensors[static_cast<size_t>(r.subgraphs[0].outputs[0])].name, "out");
    // It writes and reads back.
    EXPECT_NO_THROW(tfl::read_model(ex::write_model(r)));
    // More bands than output rows: nothing.
    EXPECT_FALSE(dt::band_rewrite(m, {runs[2], 5, false}));
}

TEST(ExportRewrite, PadEqualToSameIsFoldedAndMaxPoolGetsPadV2) {
    GraphBuilder g;
    // in [1,8,8,2] -> PAD (1,1,1,1) -> [1,10,10,2] -> CONV 3x3 s1 VALID ->
    // [1,8,8,4] -> MAX_POOL 3x3 s2 SAME -> [1,4,4,4] (SAME 8->4: bottom and
    // right 1).
    const int32_t in = g.act("in", 8, 8, 2), p = g.act("p", 10, 10, 2), c = g.act("c", 8, 8, 4), out = g.act("out", 4, 4, 4);
    g.pad(in, p, {0, 0, 1, 1, 1, 1, 0, 0});
    g.conv(false, p, c, 3, 3, 1, false);
    g.pool(true, c, out, 3, 2, true);
    g.io({in}, {out});
    const tfl::Model &m = g.model();
    const auto runs = dt::bandable_runs(m);
    // Runs: [0,2], [1,2], [2,2] (each must reach the strided pool).
    ASSERT_EQ(runs.size(), 3u);
    const dt::Run all = runs.front();
    ASSERT_EQ(all.first, 0u);
    ASSERT_EQ(all.last, 2u);
    ASSERT_TRUE(all.has_foldable_pad);
    auto folded = dt::band_rewrite(m, {all, 2, true});
    auto kept = dt::band_rewrite(m, {all, 2, false});
    ASSERT_TRUE(folded && kept);
    EXPECT_EQ(folded->folds, 1);
    EXPECT_EQ(kept->folds, 0);
    // Band 0: pool rows [0,2) read conv rows [0,5) (pool window 3, stride 2, no
    // top pad); the folded conv reads input rows [0,6) with 1 top row of
    // padding. Band 1: pool rows [2,4) read conv [4,8) + 1 bottom row of
    // -128 (PADV2) and the right column; conv [4,8) reads input [3,8) + 1
    // bottom row.
    EXPECT_EQ(op_names(folded->model),
              (std::vector<std::string>{"SLICE", "PAD", "CONV_2D", "PADV2", "MAX_POOL_2D", "SLICE", "PAD", "CONV_2D",
                                        "PADV2", "MAX_POOL_2D", "CONCATENATION"}));
    EXPECT_EQ(tigris_test::check_shapes(folded->model), "");
    EXPECT_EQ(tigris_test::check_shapes(kept->model), "");
    // The PADV2 value is the int8 minimum with the pool input's quantization.
    const tfl::Model &f = folded->model;
    const auto &padv2 = f.subgraphs[0].operators[3];
    const tfl::Tensor &v = f.subgraphs[0].tensors[static_cast<size_t>(padv2.inputs[2])];
    ASSERT_EQ(f.buffers[v.buffer].data.size(), 1u);
    EXPECT_EQ(static_cast<int8_t>(f.buffers[v.buffer].data[0]), -128);
    EXPECT_EQ(v.quant.zero_point, std::vector<int64_t>{-3});
    // The folded PAD's tensor is gone; without folding PAD copies remain.
    for (const auto &t : f.subgraphs[0].tensors) EXPECT_NE(t.name, "p");
}

TEST(ExportRewrite, RunRules) {
    // A tensor of the run read outside it ends the run there: in -> CONV s2
    // -> a -> RELU -> b (graph output) and a is also a graph output.
    GraphBuilder g;
    const int32_t in = g.act("in", 8, 8, 2), a = g.act("a", 4, 4, 4), b = g.act("b", 4, 4, 4);
    g.conv(false, in, a, 3, 3, 2, true);
    g.unary(tfl::kRelu, a, b);
    g.io({in}, {a, b});
    auto runs = dt::bandable_runs(g.model());
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].last, 0u);

    // No strided or pooling operator: no run.
    GraphBuilder h;
    const int32_t x = h.act("x", 8, 8, 2), y = h.act("y", 8, 8, 4);
    h.conv(false, x, y, 3, 3, 1, true);
    h.io({x}, {y});
    EXPECT_TRUE(dt::bandable_runs(h.model()).empty());

    // AVERAGE_POOL_2D that pads (SAME 3x3 s2 on 8) is not allowed; 2x2 s2 is.
    for (int k : {3, 2}) {
        GraphBuilder p;
        const int32_t i = p.act("i", 8, 8, 2), o = p.act("o", 4, 4, 2);
        p.pool(false, i, o, k, 2, true);
        p.io({i}, {o});
        EXPECT_EQ(dt::bandable_runs(p.model()).size(), k == 2 ? 1u : 0u) << k;
    }

    // A residual ADD inside the run reads a tensor from before the run: the
    // bands SLICE it.
    GraphBuilder r;
    const int32_t i0 = r.act("i0", 8, 8, 4), s = r.act("s", 8, 8, 4), c1 = r.act("c1", 4, 4, 4), c2 = r.act("c2", 4, 4, 4),
                  sc = r.act("sc", 4, 4, 4), sum = r.act("sum", 4, 4, 4);
    r.unary(tfl::kRelu, i0, s);
    r.conv(false, s, c1, 3, 3, 2, true);
    r.conv(false, c1, c2, 3, 3, 1, true);
    r.conv(false, s, sc, 1, 1, 2, true);
    r.binary(tfl::kAdd, c2, sc, sum);
    r.io({i0}, {sum});
    runs = dt::bandable_runs(r.model());
    bool whole = false;
    for (const auto &run : runs) {
        if (run.first != 1 || run.last != 4) continue;
        whole = true;
        for (int k = 2; k <= 4; ++k) {
            auto rw = dt::band_rewrite(r.model(), {run, k, false});
            ASSERT_TRUE(rw) << k;
            EXPECT_EQ(tigris_test::check_shapes(rw->model), "") << k;
        }
    }
    EXPECT_TRUE(whole);
}

TEST(ExportRewrite, EveryWrittenSharedModelHasKernelShapes) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *name : {"vww_96_int8.tflite", "person_detect.tflite", "pretrainedResnet_quant.tflite"}) {
        SCOPED_TRACE(name);
        const auto file = tigris_test::read_file(tigris_test::shared_dir() / "models" / name);
        const tfl::Model m = tfl::read_model(file);
        // Every candidate the search builds, not only the winner.
        int checked = 0;
        for (const auto &run : dt::bandable_runs(m))
            for (int k = 2; k <= 10; k += 4)
                if (auto rw = dt::band_rewrite(m, {run, k, false})) {
                    ASSERT_EQ(tigris_test::check_shapes(rw->model), "") << run.first << "-" << run.last << " k=" << k;
                    ++checked;
                }
        EXPECT_GT(checked, 10);
    }
}
