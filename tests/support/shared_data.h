// shared_data.h - where the read-only shared test data lives (../shared next
// to the repository; CI has it). Tests that need it skip, saying why, when
// it is absent - never pass silently.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tigris_test {

std::filesystem::path shared_dir();
bool shared_available();
std::vector<uint8_t> read_file(const std::filesystem::path &p);
// The TFLite models in shared/models, sorted by path.
std::vector<std::filesystem::path> shared_models();

}  // namespace tigris_test

#define TIGRIS_REQUIRE_SHARED()                                                                 \
    do {                                                                                        \
        if (!::tigris_test::shared_available())                                                 \
            GTEST_SKIP() << "shared test data not found at " << ::tigris_test::shared_dir()     \
                         << " (set TIGRIS_SHARED_DIR); this test needs it";                     \
    } while (0)
