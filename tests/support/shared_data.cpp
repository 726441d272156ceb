#include "shared_data.h"

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

}  // namespace tigris_test
