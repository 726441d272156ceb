// emu_test_support.h - what the emulated-device tests share: skipping when
// QEMU or a firmware image is missing, corpus access, and counting the QEMU
// processes this test process has started.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tigris_host/emu.hpp"

namespace emu_test {

namespace emu = tigris::host::emu;

// Empty when the target can run here; otherwise why not.
std::string missing(const std::string &target);

// Paths without any counting (no plugin, no -icount): parity runs go faster.
emu::Paths paths_without_counts();

// Our own child processes that are QEMU (from /proc).
int qemu_children();

// True once no QEMU child has been seen for 400 ms in a row (within 10 s).
// A cancelled server notices within its 50 ms polling and kills what runs,
// but a worker may still be starting a QEMU, so "none left" must hold for
// eight polling periods, not at one glance.
bool no_qemu_left();

std::vector<uint8_t> corpus(const std::string &file);

// A float32 plan: one RELU on [1,128,256,4] (512 KiB in, 512 KiB out).
std::vector<uint8_t> big_relu_plan();

}  // namespace emu_test

#define EMU_REQUIRE(target)                                             \
    do {                                                                \
        std::string why_ = ::emu_test::missing(target);                 \
        if (!why_.empty()) GTEST_SKIP() << why_;                        \
    } while (0)
