// replay_main.cpp - runs a fuzz target's entry point over files, without
// libFuzzer, so ordinary (gcc, ASan) builds re-check the saved seeds and every
// crash reproducer in tests/fuzz/regressions/ on each test run.
//
// Usage: <target>_replay [--skip-if-missing] <file-or-dir>...
// Directories are read one level deep. With --skip-if-missing a path that does
// not exist (the optional shared corpus) makes the run exit 77, which ctest
// reports as skipped, instead of passing having checked nothing.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace fs = std::filesystem;

static int replay(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", p.c_str());
        return 1;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // A crash aborts the process; reaching the return means the input passed.
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    return 0;
}

int main(int argc, char **argv) {
    int failures = 0, count = 0;
    int first = 1;
    bool skip_if_missing = false;
    if (argc > 1 && std::string(argv[1]) == "--skip-if-missing") {
        skip_if_missing = true;
        first = 2;
    }
    for (int i = first; i < argc; ++i) {
        const fs::path arg = argv[i];
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            std::vector<fs::path> files;
            for (const auto &e : fs::directory_iterator(arg))
                if (e.is_regular_file()) files.push_back(e.path());
            std::sort(files.begin(), files.end());
            for (const auto &f : files) {
                failures += replay(f);
                ++count;
            }
        } else if (fs::exists(arg, ec)) {
            failures += replay(arg);
            ++count;
        } else if (skip_if_missing) {
            std::printf("skipped: %s not found\n", arg.c_str());
            return 77;
        } else {
            std::fprintf(stderr, "not found: %s\n", arg.c_str());
            ++failures;
        }
    }
    std::printf("replayed %d input(s)\n", count);
    return failures ? 1 : 0;
}
