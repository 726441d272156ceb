// tigris-model-gen: write one generated case to files, to reproduce a sweep
// failure by hand or to feed tflm_run and `tigris import` directly.
//
//   tigris-model-gen --list
//   tigris-model-gen KIND int8|float32 SEED OUT.tflite IN.bin
//
// Exit codes: 0 written; 2 usage or unknown kind; 1 a file could not be written.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "model_gen.hpp"

namespace {

bool write_file(const char *path, const std::vector<uint8_t> &bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(f.flush());
}

int usage() {
    std::fprintf(stderr, "usage: tigris-model-gen --list\n"
                         "       tigris-model-gen KIND int8|float32 SEED OUT.tflite IN.bin\n");
    return 2;
}

}  // namespace

int main(int argc, char **argv) {
    using namespace tigris::oracle;
    if (argc == 2 && std::string(argv[1]) == "--list") {
        for (const std::string &k : single_op_kinds()) std::printf("%s\n", k.c_str());
        std::printf("graph\n");
        return 0;
    }
    if (argc != 6) return usage();
    const std::string kind = argv[1], dt = argv[2];
    if (dt != "int8" && dt != "float32") return usage();
    char *end = nullptr;
    const unsigned long long seed = std::strtoull(argv[3], &end, 10);
    if (!end || *end) return usage();
    Case c;
    try {
        c = generate(kind, dt == "int8" ? DType::Int8 : DType::Float32, seed);
    } catch (const std::invalid_argument &e) {
        std::fprintf(stderr, "tigris-model-gen: %s (see --list)\n", e.what());
        return 2;
    }
    if (!write_file(argv[4], c.model) || !write_file(argv[5], c.input)) {
        std::fprintf(stderr, "tigris-model-gen: cannot write %s or %s\n", argv[4], argv[5]);
        return 1;
    }
    std::printf("%s: %s\n", c.id().c_str(), c.what.c_str());
    return 0;
}
