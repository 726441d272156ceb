// `tigris export` checked by the real TFLite Micro: every model export
// writes runs in TFLite Micro with the original's outputs on several seeded
// inputs, and TFLite Micro's arena_used_bytes() on lp64 (this host) is the
// figure export states (head + persistent), for the input and the rewrite.
#include <gtest/gtest.h>

#include <cstdio>

#include "oracle_case.hpp"
#include "shared_data.h"
#include "tigris_export/export.hpp"

namespace tigris::oracle {
namespace {

TEST(OracleExport, ExportedModelsRunInTfliteMicroWithTheOriginalsBytesAndStatedArena) {
    if (!have_tflm()) GTEST_SKIP() << "TFLite Micro oracle not built: " << tflm_missing_reason();
    TIGRIS_REQUIRE_SHARED();
    static_assert(sizeof(void *) == 8, "the arena figures below are lp64's");
    int written = 0;
    for (const auto &path : tigris_test::shared_models()) {
        const std::string name = path.stem().string();
        const std::vector<uint8_t> model = tigris_test::read_file(path);
        const exporter::ExportResult r = exporter::export_model(model, exporter::Target::Lp64);
        if (r.have_before) {
            const OracleRun orig = run_tflm(model, case_of_model(name, model, 0).c.input);
            ASSERT_TRUE(orig.ok) << name << ": " << orig.error;
            EXPECT_EQ(static_cast<int64_t>(orig.arena_used_bytes), r.before.total())
                << name << ": export's figure for the input model is not TFLite Micro's";
        }
        if (!r.written) {
            std::printf("[ export ] %s: not written (%s)\n", name.c_str(), r.reason.c_str());
            continue;
        }
        ++written;
        for (uint64_t seed = 0; seed < 3; ++seed) {
            const ModelCase mc = case_of_model(name, model, seed);
            ASSERT_TRUE(mc.ok) << name;
            const OracleRun want = run_tflm(model, mc.c.input), got = run_tflm(r.bytes, mc.c.input);
            ASSERT_TRUE(want.ok && got.ok) << name << ": " << want.error << got.error;
            EXPECT_EQ(got.output, want.output) << name << " seed " << seed << ": the rewrite changes the outputs";
            if (seed == 0) {
                EXPECT_EQ(static_cast<int64_t>(got.arena_used_bytes), r.after.total())
                    << name << ": TFLite Micro needs another arena than export states";
            }
        }
        std::printf("[ export ] %s: arena %lld -> %lld bytes (TFLite Micro agrees), file %zu -> %zu bytes (+%lld)\n",
                    name.c_str(), static_cast<long long>(r.before.total()), static_cast<long long>(r.after.total()),
                    model.size(), r.bytes.size(), static_cast<long long>(r.bytes.size()) - static_cast<long long>(model.size()));
    }
    EXPECT_GE(written, 1);
}

}  // namespace
}  // namespace tigris::oracle
