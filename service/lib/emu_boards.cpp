// emu_boards.cpp - the four emulated boards and where their images are.
//
// Each board's load region must match LOAD in emu/boards/<board>/board.ld;
// the timer periods are QEMU's SysTick clocks (25, 25, 32 MHz) and the lx106
// CCOUNT clock (40 MHz) in virtual time;
// the harness refuses a descriptor whose ranges leave its region, so a
// mismatch shows up as a clear "descriptor" error, never as a wrong answer.
#include <cstdlib>

#include "tigris_host/emu.hpp"

#ifndef TIGRIS_FIRMWARE_DIR_DEFAULT
#define TIGRIS_FIRMWARE_DIR_DEFAULT ""
#endif
#ifndef TIGRIS_EMU_PLUGIN_DEFAULT
#define TIGRIS_EMU_PLUGIN_DEFAULT ""
#endif

namespace tigris::host::emu {

const std::vector<Board> &boards() {
    static const std::vector<Board> table = {
        {"cortex-m4", "mps2-an386", "Cortex-M4 (DSP, FPU)", "qemu-system-arm", {"-M", "mps2-an386"}, "cortex-m4",
         0x21000000u, 16u << 20, 4u << 20, 40.0},
        {"cortex-m7", "mps2-an500", "Cortex-M7 (DSP, FPU)", "qemu-system-arm", {"-M", "mps2-an500"}, "cortex-m7",
         0x60000000u, 16u << 20, 4u << 20, 40.0},
        {"cortex-m55", "mps3-an547", "Cortex-M55 (MVE/Helium, FPU)", "qemu-system-arm", {"-M", "mps3-an547"},
         "cortex-m55", 0x60000000u, 16u << 20, 512u << 10, 31.25},
        {"xtensa-lx106", "sim-lx106", "Xtensa lx106 (no FPU)", "qemu-system-xtensa", {"-M", "sim", "-cpu", "lx106"},
         "xtensa-lx106", 0x60000000u, 16u << 20, 512u << 10, 25.0},
    };
    return table;
}

const Board *find_board(const std::string &target) {
    for (const Board &b : boards())
        if (b.target == target || b.board == target) return &b;
    return nullptr;
}

std::string target_names() {
    std::string s;
    for (const Board &b : boards()) s += (s.empty() ? "" : "|") + b.target;
    return s;
}

const char *backend_name(Backend b) {
    return b == Backend::Accel ? "accel" : b == Backend::Vendor ? "vendor" : "ref";
}

Paths Paths::defaults() {
    Paths p{TIGRIS_FIRMWARE_DIR_DEFAULT, TIGRIS_EMU_PLUGIN_DEFAULT};
    if (const char *e = std::getenv("TIGRIS_FIRMWARE_DIR")) p.firmware_dir = e;
    if (const char *e = std::getenv("TIGRIS_EMU_PLUGIN")) p.plugin = e;
    return p;
}

std::string Paths::image(const Board &b) const {
    return firmware_dir + "/" + b.preset + "/emu/tigris-emu-" + b.board + ".elf";
}

const char *status_name(JobResult::Status s) {
    switch (s) {
    case JobResult::Status::Ok: return "ok";
    case JobResult::Status::Refused: return "refused";
    case JobResult::Status::Fault: return "fault";
    case JobResult::Status::Timeout: return "timeout";
    case JobResult::Status::Cancelled: return "cancelled";
    case JobResult::Status::Failed: return "failed";
    case JobResult::Status::Unavailable: return "unavailable";
    case JobResult::Status::Busy: return "busy";
    }
    return "?";
}

}  // namespace tigris::host::emu
