// emu_test_support.cpp - see emu_test_support.h.
#include "emu_test_support.h"

#include <dirent.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "plan_builder.h"
#include "shared_data.h"

namespace emu_test {

std::string missing(const std::string &target) {
    const emu::Board *b = emu::find_board(target);
    if (!b) return "unknown target " + target;
    bool found = false;
    std::istringstream path(std::getenv("PATH") ? std::getenv("PATH") : "");
    for (std::string d; std::getline(path, d, ':');)
        if (!d.empty() && access((d + "/" + b->qemu).c_str(), X_OK) == 0) found = true;
    if (!found) return b->qemu + " is not installed; the emulated-device tests need it";
    const std::string img = emu::Paths::defaults().image(*b);
    if (!std::filesystem::exists(img))
        return "no firmware image at " + img + " (build the " + b->preset + " preset first, or set TIGRIS_FIRMWARE_DIR)";
    return {};
}

emu::Paths paths_without_counts() {
    emu::Paths p = emu::Paths::defaults();
    p.plugin.clear();
    p.timer_fallback = false;
    return p;
}

int qemu_children() {
    int n = 0;
    const pid_t me = getpid();
    DIR *d = opendir("/proc");
    if (!d) return -1;
    while (dirent *e = readdir(d)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        std::ifstream f(std::string("/proc/") + e->d_name + "/stat");
        std::string stat;
        std::getline(f, stat);
        // pid (comm) state ppid ...: comm may hold spaces, so parse after ')'.
        size_t open = stat.find('('), close = stat.rfind(')');
        if (open == std::string::npos || close == std::string::npos) continue;
        std::string comm = stat.substr(open + 1, close - open - 1);
        std::istringstream rest(stat.substr(close + 2));
        char state;
        long ppid = 0;
        rest >> state >> ppid;
        if (ppid == me && comm.rfind("qemu-system", 0) == 0) n++;
    }
    closedir(d);
    return n;
}

bool no_qemu_left() {
    int quiet_ms = 0;
    for (int i = 0; i < 400 && quiet_ms < 400; i++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
        quiet_ms = qemu_children() == 0 ? quiet_ms + 25 : 0;
    }
    return quiet_ms >= 400;
}

std::vector<uint8_t> corpus(const std::string &file) {
    return tigris_test::read_file(tigris_test::shared_dir() / "corpus" / file);
}

std::vector<uint8_t> big_relu_plan() {
    tigris_test::PlanBuilder b(11);
    b.model_name = "big_relu";
    uint16_t x = b.add_tensor("x", TIGRIS_DTYPE_FLOAT32, {1, 128, 256, 4}, TIGRIS_TENSOR_MODEL_INPUT);
    uint16_t y = b.add_tensor("y", TIGRIS_DTYPE_FLOAT32, {1, 128, 256, 4}, TIGRIS_TENSOR_MODEL_OUTPUT);
    uint16_t op = b.add_op(TIGRIS_OP_RELU, {x}, {y}, "relu");
    b.add_stage({op}, {x}, {y});
    return b.build();
}

}  // namespace emu_test
