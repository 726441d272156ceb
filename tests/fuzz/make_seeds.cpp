// make_seeds.cpp - writes the plan builder's ready-made plans as fuzz seeds.
//
// Usage: tigris_make_seeds <dir>. Every factory plan is written at each
// revision it exists in, so the fuzzer starts from valid files of every
// schema (and every tile-record layout) rather than having to discover the
// format from nothing.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "plan_builder.h"

namespace fs = std::filesystem;
using tigris_test::Compression;
using tigris_test::PlanBuilder;

namespace {

struct Factory {
    const char *name;
    uint32_t first_revision;  // state and subgraphs arrived with schema 10
    std::function<PlanBuilder(uint32_t)> make;
};

bool write_file(const fs::path &path, const std::vector<uint8_t> &bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()), (std::streamsize)bytes.size());
    return (bool)out;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <output-dir>\n", argv[0]);
        return 2;
    }
    const fs::path dir = argv[1];
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        std::fprintf(stderr, "cannot create %s: %s\n", dir.c_str(), ec.message().c_str());
        return 1;
    }

    const std::vector<Factory> factories = {
        {"minimal_float", TIGRIS_SCHEMA_VERSION_MIN, PlanBuilder::minimal_float},
        {"float_conv", TIGRIS_SCHEMA_VERSION_MIN, PlanBuilder::float_conv},
        {"int8_conv", TIGRIS_SCHEMA_VERSION_MIN, PlanBuilder::int8_conv},
        {"conv_chain", TIGRIS_SCHEMA_VERSION_MIN, PlanBuilder::conv_chain},
        {"tiled_stripe", TIGRIS_SCHEMA_VERSION_MIN, PlanBuilder::tiled_stripe},
        {"lz4_conv", TIGRIS_SCHEMA_VERSION_MIN,
         [](uint32_t r) { return PlanBuilder::compressed_conv(r, Compression::Lz4Blocks); }},
        {"stored_conv", TIGRIS_SCHEMA_VERSION_MIN,
         [](uint32_t r) { return PlanBuilder::compressed_conv(r, Compression::StoredBlocks); }},
        {"state_add", 10, PlanBuilder::state_add},
        {"if_subgraphs", 10, PlanBuilder::if_subgraphs},
    };

    int written = 0;
    for (const Factory &f : factories) {
        for (uint32_t rev = f.first_revision; rev <= TIGRIS_SCHEMA_VERSION; ++rev) {
            PlanBuilder b = f.make(rev);
            std::vector<uint8_t> bytes = b.build();
            const fs::path path = dir / (std::string(f.name) + "_v" + std::to_string(rev) + ".tgrs");
            if (!write_file(path, bytes)) {
                std::fprintf(stderr, "cannot write %s\n", path.c_str());
                return 1;
            }
            ++written;
            // Schema 10 has two tile-record layouts; the 32-byte one is chosen by a flag.
            if (rev == 10) {
                PlanBuilder v10b = f.make(rev);
                v10b.flags |= TIGRIS_FLAG_TILE_V10;
                const fs::path p2 = dir / (std::string(f.name) + "_v10_tile32.tgrs");
                if (!write_file(p2, v10b.build())) {
                    std::fprintf(stderr, "cannot write %s\n", p2.c_str());
                    return 1;
                }
                ++written;
            }
        }
    }
    std::printf("wrote %d seed plans to %s\n", written, dir.c_str());
    return 0;
}
