#include "shared_data.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace tigris_test {

std::filesystem::path shared_dir() {
    if (const char *env = std::getenv("TIGRIS_SHARED_DIR")) return env;
    return TIGRIS_SHARED_DIR;
}

bool shared_available() { return std::filesystem::exists(shared_dir() / "corpus" / "MANIFEST.md"); }

std::vector<uint8_t> read_file(const std::filesystem::path &p) {
    std::ifstream f(p, std::ios::binary);
    if (!f) throw std::runtime_error("cannot open " + p.string());
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::vector<std::filesystem::path> shared_models() {
    std::vector<std::filesystem::path> out;
    for (const auto &e : std::filesystem::directory_iterator(shared_dir() / "models"))
        if (e.path().extension() == ".tflite") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace tigris_test
