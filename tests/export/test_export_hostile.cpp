// Export on corrupted files: every outcome is a written model that reads
// back or a refusal with a reason; never a crash (run under ASan by the
// host-asan preset). The reader bounds-checks the file; these cover what
// export does after it (run geometry, arena sums) on values it accepted.
#include <gtest/gtest.h>

#include <random>

#include "shared_data.h"
#include "tigris_export/export.hpp"

namespace ex = tigris::exporter;

TEST(ExportHostile, CorruptedModelsWriteOrRefuseNeverCrash) {
    TIGRIS_REQUIRE_SHARED();
    const auto clean = tigris_test::read_file(tigris_test::shared_dir() / "models" / "micro_speech_quantized.tflite");
    std::mt19937 rng(8);
    int written = 0, refused = 0;
    for (int i = 0; i < 400; ++i) {
        std::vector<uint8_t> f = clean;
        // Flip 4 random bytes, most of them in the graph part before the weights.
        for (int k = 0; k < 4; ++k) {
            const size_t at = rng() % (k < 3 ? std::min<size_t>(f.size(), 4096) : f.size());
            f[at] = static_cast<uint8_t>(rng());
        }
        ex::ExportResult r;
        try {
            r = ex::export_model(f, ex::Target::ArmNoneEabi);
        } catch (const std::exception &e) {
            ADD_FAILURE() << "export threw instead of refusing: " << e.what();
            continue;
        }
        if (r.written) {
            ++written;
            EXPECT_NO_THROW(tigris::tflite::read_model(r.bytes));
        } else {
            ++refused;
            EXPECT_FALSE(r.reason.empty());
        }
    }
    EXPECT_EQ(written + refused, 400);
}
