// Export on every shared model: it either writes a model whose arena total
// (recomputed from the written bytes) is lower, or refuses with one of the
// seed's reasons. The written model reads back, keeps the graph inputs and
// outputs, and only adds SLICE, PAD, PADV2 and CONCATENATION operators.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "shared_data.h"
#include "tigris_export/export.hpp"

namespace tfl = tigris::tflite;
namespace ex = tigris::exporter;

namespace {

bool is_seed_reason(const std::string &r) {
    static const char *fixed[] = {"no rewrite lowers the arena", "models with several subgraphs are not exported",
                                  "a tensor type TFLite Micro's arena model does not know"};
    for (const char *f : fixed)
        if (r == f) return true;
    auto starts = [&r](const std::string &p) { return r.rfind(p, 0) == 0; };
    auto ends = [&r](const std::string &s) { return r.size() >= s.size() && r.compare(r.size() - s.size(), s.size(), s) == 0; };
    return (starts("metadata ") && ends(" is not supported")) ||
           (starts("TFLite Micro's scratch buffers for ") && ends(" are not modeled")) ||
           (starts("TFLite Micro's persistent allocations for ") && ends(" are not modeled")) ||
           r.find(" is out of range for ") != std::string::npos ||
           (starts("the ") && ends(", which is not supported"));
}

std::map<std::string, int> op_histogram(const tfl::Model &m) {
    std::map<std::string, int> h;
    for (const auto &op : m.subgraphs[0].operators) ++h[tfl::builtin_name(m.operator_codes[op.opcode_index].builtin)];
    return h;
}

}  // namespace

TEST(ExportModels, EverySharedModelExportsOrRefusesWithASeedReason) {
    TIGRIS_REQUIRE_SHARED();
    int written = 0;
    for (const auto &p : tigris_test::shared_models()) {
        // Every model on the default target; the other two ABIs on the models
        // where the search has most to choose from (keeps the test fast).
        const std::string stem = p.stem().string();
        const bool all_targets = stem == "vww_96_int8" || stem == "pretrainedResnet_large_int8";
        for (ex::Target target : {ex::Target::ArmNoneEabi, ex::Target::Ilp32, ex::Target::Lp64}) {
            if (target != ex::Target::ArmNoneEabi && !all_targets) continue;
            SCOPED_TRACE(p.filename().string() + " " + ex::target_name(target));
            const auto file = tigris_test::read_file(p);
            const ex::ExportResult r = ex::export_model(file, target);
            ASSERT_TRUE(r.model_read) << r.reason;
            if (!r.written) {
                EXPECT_TRUE(is_seed_reason(r.reason)) << r.reason;
                EXPECT_TRUE(r.bytes.empty());
                continue;
            }
            ++written;
            const tfl::Model in = tfl::read_model(file);
            const tfl::Model out = tfl::read_model(r.bytes);
            // The figures are those of the written file.
            const ex::ArenaFigure f = ex::arena(out, target);
            EXPECT_EQ(f.head, r.after.head);
            EXPECT_EQ(f.tail, r.after.tail);
            EXPECT_LT(f.total(), ex::arena(in, target).total());
            EXPECT_EQ(r.operators_after, static_cast<int>(out.subgraphs[0].operators.size()));
            // Graph inputs and outputs keep their shapes and quantization.
            for (size_t i = 0; i < in.subgraphs[0].inputs.size(); ++i) {
                const auto &a = in.subgraphs[0].tensors[static_cast<size_t>(in.subgraphs[0].inputs[i])];
                const auto &b = out.subgraphs[0].tensors[static_cast<size_t>(out.subgraphs[0].inputs[i])];
                EXPECT_EQ(a.shape, b.shape);
                EXPECT_EQ(a.quant.scale, b.quant.scale);
                EXPECT_EQ(a.name, b.name);
            }
            // Only SLICE, PAD, PADV2, CONCATENATION and copies of existing operators were added.
            auto hi = op_histogram(in), ho = op_histogram(out);
            for (const auto &[name, n] : ho) {
                if (name == "SLICE" || name == "PAD" || name == "PADV2" || name == "CONCATENATION") continue;
                EXPECT_TRUE(hi.count(name)) << name;
            }
            EXPECT_EQ(ho["CONCATENATION"] - hi["CONCATENATION"], 1);
            EXPECT_GT(r.macs_after, r.macs_before - 1);
            std::printf("%s %s: ops %d-%d, %d bands, %d folds, +%.2f%% MACs, head %lld -> %lld, tail %lld -> %lld, %d ops, %d candidates\n",
                        p.filename().c_str(), ex::target_name(target), static_cast<int>(r.run_first),
                        static_cast<int>(r.run_last), r.bands, r.folds, r.mac_increase_percent(),
                        static_cast<long long>(r.before.head), static_cast<long long>(r.after.head),
                        static_cast<long long>(r.before.tail), static_cast<long long>(r.after.tail),
                        r.operators_after, r.candidates);
        }
    }
    EXPECT_GT(written, 0);
}
