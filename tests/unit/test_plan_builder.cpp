// The builder's bytes, read back with a parser written here from the format
// text (docs/format.md P1-P12, F1-F3), not through the
// builder's own structs or the loader.
#include <gtest/gtest.h>
#include <lz4.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "plan_builder.h"

using tigris_test::Compression;
using tigris_test::PlanBuilder;

namespace {

uint32_t rd16(const std::vector<uint8_t> &b, size_t o) { return (uint32_t)b.at(o) | ((uint32_t)b.at(o + 1) << 8); }
uint32_t rd32(const std::vector<uint8_t> &b, size_t o) { return rd16(b, o) | (rd16(b, o + 2) << 16); }
float rdf(const std::vector<uint8_t> &b, size_t o) {
    uint32_t u = rd32(b, o);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

struct Parsed {
    std::vector<std::pair<uint32_t, uint32_t>> dir;  // (id, offset)
    std::map<uint32_t, uint32_t> off;
    std::map<uint32_t, uint32_t> extent;
    uint32_t dir_end = 0;
};

// Directory walk and extents, per docs/format.md P1 and P3.
Parsed parse(const std::vector<uint8_t> &b) {
    Parsed p;
    uint32_t d = rd32(b, 12);
    for (uint32_t i = 0;; ++i) {
        uint32_t type = rd32(b, d + 8 * i);
        if (type == 0) {
            p.dir_end = d + 8 * (i + 1);
            break;
        }
        p.dir.emplace_back(type, rd32(b, d + 8 * i + 4));
    }
    for (size_t i = 0; i < p.dir.size(); ++i) {
        uint32_t next = i + 1 < p.dir.size() ? p.dir[i + 1].second : (uint32_t)b.size();
        p.off[p.dir[i].first] = p.dir[i].second;
        p.extent[p.dir[i].first] = next - p.dir[i].second;
    }
    return p;
}

uint32_t expected_tile_size(uint32_t rev, uint32_t flags) {
    if (rev >= 11) return 48;
    if (rev == 10 && (flags & 2u)) return 32;
    return 24;
}

// Everything docs/format.md P1-P12 says about the writer's output that holds for any plan.
void check_common(const std::vector<uint8_t> &b, const std::string &what) {
    SCOPED_TRACE(what);
    ASSERT_GE(b.size(), 48u);
    EXPECT_EQ(0, std::memcmp(b.data(), "TGRS", 4));
    const uint32_t rev = rd32(b, 4);
    EXPECT_EQ(rd32(b, 8), b.size());
    EXPECT_EQ(rd32(b, 12), 48u);
    const uint32_t n_tensors = rd16(b, 16), n_ops = rd16(b, 18), n_stages = rd16(b, 20), n_tiles = rd16(b, 22);
    const uint32_t n_weights = rd16(b, 40), n_quant = rd16(b, 42), flags = rd32(b, 44);
    Parsed p = parse(b);
    ASSERT_FALSE(p.dir.empty());

    // Ascending ids, the mandatory ones and the always-listed stage/tile sections.
    for (size_t i = 1; i < p.dir.size(); ++i) EXPECT_LT(p.dir[i - 1].first, p.dir[i].first);
    for (uint32_t id : {1u, 2u, 3u, 4u, 5u, 6u, 7u}) EXPECT_TRUE(p.off.count(id)) << "section " << id;
    EXPECT_GE(p.dir.front().second, p.dir_end);

    for (auto [id, off] : p.dir) {
        EXPECT_LE(off, b.size());
        if (id == 8) {
            EXPECT_EQ((off + 12 * n_weights) % 16, 0u) << "weight blob alignment";
        } else {
            EXPECT_EQ(off % 16, 0u) << "section " << id;
        }
    }
    auto fits = [&](uint32_t id, uint32_t bytes) {
        ASSERT_TRUE(p.extent.count(id)) << "section " << id;
        EXPECT_GE(p.extent[id], bytes) << "section " << id;
        EXPECT_LT(p.extent[id] - bytes, 16u) << "section " << id << " has more than alignment padding";
    };
    fits(1, 16 * n_tensors);
    fits(2, 38 * n_ops);
    fits(3, 28 * n_stages);
    fits(4, expected_tile_size(rev, flags) * n_tiles);

    // Strings: model name NUL-terminated inside the section.
    const uint32_t so = p.off[7], se = p.extent[7];
    ASSERT_GT(se, 0u);
    uint32_t name = rd32(b, 32);
    ASSERT_LT(name, se);
    EXPECT_NE(std::memchr(&b[so + name], 0, se - name), nullptr);

    // Model I/O inside the index pool and < num_tensors.
    const uint32_t io = rd16(b, 36), n_io = (uint32_t)b[38] + b[39];
    EXPECT_LE(2 * (io + n_io), p.extent[5]);
    for (uint32_t i = 0; i < n_io; ++i) EXPECT_LT(rd16(b, p.off[5] + 2 * (io + i)), n_tensors);

    // Tensors: shape range in pool and size = product * element size.
    for (uint32_t t = 0; t < n_tensors; ++t) {
        const uint32_t r = p.off[1] + 16 * t;
        const uint32_t shape_off = rd16(b, r + 8), ndim = b[r + 10], dtype = b[r + 11];
        ASSERT_LE(4 * (shape_off + ndim), p.extent[6]);
        uint64_t n = 1;
        for (uint32_t k = 0; k < ndim; ++k) n *= rd32(b, p.off[6] + 4 * (shape_off + k));
        const uint32_t es = dtype == 1 || dtype == 6 ? 4 : dtype == 5 ? 2 : 1;
        EXPECT_EQ(rd32(b, r + 4), n * es) << "tensor " << t;
    }

    // Weights: each 16-aligned and inside the blob when there is one.
    if (n_weights) {
        ASSERT_TRUE(p.off.count(8));
        const bool blocked = p.off.count(10) != 0;
        const uint32_t blob_len = p.extent[8] - 12 * n_weights;
        if (blocked) {
            EXPECT_LT(p.extent[8] - 12 * n_weights, 16u) << "no blob with weight blocks";
        }
        for (uint32_t w = 0; w < n_weights; ++w) {
            const uint32_t e = p.off[8] + 12 * w;
            EXPECT_EQ(rd32(b, e + 4) % 16, 0u);
            if (!blocked) {
                EXPECT_LE(rd32(b, e + 4) + rd32(b, e + 8), blob_len);
            }
        }
    } else {
        EXPECT_FALSE(p.off.count(8));
    }

    // Quant: count matches, page count from the data length, records in range.
    if (n_quant) {
        ASSERT_TRUE(p.off.count(9));
        const uint32_t q = p.off[9];
        EXPECT_EQ(q % 4, 0u);
        EXPECT_EQ(rd16(b, q), n_quant);
        const uint32_t pages = rd16(b, q + 2);
        const uint32_t data_bytes = p.extent[9] - 4 - 16 * n_quant;
        ASSERT_EQ(data_bytes % 4, 0u);
        const uint32_t len = data_bytes / 4;
        const uint32_t phys = (len + 65535) / 65536;
        EXPECT_TRUE(phys == pages || phys == pages + 1);
        EXPECT_GT(pages, 0u);
        for (uint32_t i = 0; i < n_quant; ++i) {
            const uint32_t r = q + 4 + 16 * i;
            const uint32_t nch = rd16(b, r + 8), m = rd16(b, r + 10), s = rd16(b, r + 12), pg = rd16(b, r + 14);
            EXPECT_GE(nch, 1u);
            EXPECT_LT(pg, pages);
            EXPECT_LE(m + nch, 65536u);
            EXPECT_LE(s + nch, 65536u);
            EXPECT_LE(pg * 65536 + m + nch, len);
            EXPECT_LE(pg * 65536 + s + nch, len);
            EXPECT_GT(rdf(b, r), 0.0f);
        }
    } else {
        EXPECT_FALSE(p.off.count(9));
    }

    // Attributes: sorted by (op, type), payloads inside the pool.
    if (p.off.count(11)) {
        const uint32_t a = p.off[11], n = rd16(b, a);
        EXPECT_GT(n, 0u);
        EXPECT_EQ(rd16(b, a + 2), 0u);
        const uint32_t pool = a + 4 + 8 * n, pool_len = p.extent[11] - 4 - 8 * n;
        uint32_t prev = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t r = a + 4 + 8 * i;
            const uint32_t key = (rd16(b, r) << 8) | b[r + 2];
            if (i) {
                EXPECT_GT(key, prev);
            }
            prev = key;
            EXPECT_LE(rd32(b, r + 4) + b[r + 3], pool_len);
            (void)pool;
        }
    }

    // Memory section: exactly in revision 11 plans (F1).
    if (rev >= 11) {
        ASSERT_TRUE(p.off.count(14));
        EXPECT_EQ(p.dir.back().first, 14u);
        EXPECT_GE(p.extent[14], 8u);
        EXPECT_GT(rd32(b, p.off[14]), 0u);
        EXPECT_EQ(rd32(b, p.off[14] + 4), 0u);
    } else {
        EXPECT_FALSE(p.off.count(14));
    }
    if (rev < 10) {
        EXPECT_FALSE(p.off.count(12));
        EXPECT_FALSE(p.off.count(13));
    }
}

struct Factory {
    const char *name;
    std::function<PlanBuilder(uint32_t)> make;
    uint32_t min_rev;
};

const std::vector<Factory> &factories() {
    static const std::vector<Factory> f = {
        {"minimal_float", [](uint32_t r) { return PlanBuilder::minimal_float(r); }, 4},
        {"float_conv", [](uint32_t r) { return PlanBuilder::float_conv(r); }, 4},
        {"int8_conv", [](uint32_t r) { return PlanBuilder::int8_conv(r); }, 4},
        {"conv_chain", [](uint32_t r) { return PlanBuilder::conv_chain(r); }, 4},
        {"tiled_stripe", [](uint32_t r) { return PlanBuilder::tiled_stripe(r); }, 4},
        {"lz4", [](uint32_t r) { return PlanBuilder::compressed_conv(r, Compression::Lz4Blocks); }, 4},
        {"stored", [](uint32_t r) { return PlanBuilder::compressed_conv(r, Compression::StoredBlocks); }, 4},
        {"state_add", [](uint32_t r) { return PlanBuilder::state_add(r); }, 10},
        {"if_subgraphs", [](uint32_t r) { return PlanBuilder::if_subgraphs(r); }, 10},
    };
    return f;
}

}  // namespace

TEST(PlanBuilder, EveryFactoryAtEveryRevisionFollowsTheWriterLayout) {
    for (const Factory &f : factories())
        for (uint32_t rev = f.min_rev; rev <= 11; ++rev) {
            PlanBuilder b = f.make(rev);
            std::vector<uint8_t> bytes = b.build();
            EXPECT_EQ(rd32(bytes, 4), rev);
            check_common(bytes, std::string(f.name) + " v" + std::to_string(rev));
        }
}

// Hand layout of minimal_float v9 (docs/format.md P1, P3.2): header 48, 7 directory entries
// + sentinel = 64 bytes, then 16-aligned bodies.
TEST(PlanBuilder, MinimalFloatV9MatchesHandComputedLayout) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    Parsed p = parse(bytes);
    ASSERT_EQ(p.dir.size(), 7u);
    EXPECT_EQ(p.dir_end, 112u);
    EXPECT_EQ(p.off[1], 112u);  // 2 tensors = 32 bytes -> 144
    EXPECT_EQ(p.off[2], 144u);  // 1 op = 38 bytes -> 182
    EXPECT_EQ(p.off[3], 192u);  // 1 stage = 28 bytes -> 220
    EXPECT_EQ(p.off[4], 224u);  // empty
    EXPECT_EQ(p.off[5], 224u);  // 7 u16 = 14 bytes -> 238
    EXPECT_EQ(p.off[6], 240u);  // 8 dims = 32 bytes -> 272
    EXPECT_EQ(p.off[7], 272u);  // "minimal\0x\0y\0relu\0" = 17 bytes
    EXPECT_EQ(bytes.size(), 289u);
    const uint16_t pool[7] = {0, 1, 0, 1, 0, 0, 1};  // io, op in/out, stage ops/in/out
    for (int i = 0; i < 7; ++i) EXPECT_EQ(rd16(bytes, 224 + 2 * i), pool[i]) << i;
    EXPECT_EQ(0, std::memcmp(&bytes[272], "minimal\0x\0y\0relu\0", 17));
    // Op record: name "relu" at 12, type 3, 1 in, 1 out, stage 0, lists at 2 and 3.
    EXPECT_EQ(rd32(bytes, 144), 12u);
    EXPECT_EQ(bytes[148], 3u);
    EXPECT_EQ(bytes[149], 1u);
    EXPECT_EQ(bytes[150], 1u);
    EXPECT_EQ(bytes[151], 0u);
    EXPECT_EQ(rd16(bytes, 152), 2u);
    EXPECT_EQ(rd16(bytes, 154), 3u);
    EXPECT_EQ(rd16(bytes, 144 + 30), 0xFFFFu);
    EXPECT_EQ(rd16(bytes, 144 + 32), 0xFFFFu);
    // Tensor 0: 1*4*4*2 floats = 128 bytes, ndim 4, dtype 1, MODEL_INPUT, no quant.
    EXPECT_EQ(rd32(bytes, 112 + 4), 128u);
    EXPECT_EQ(bytes[112 + 10], 4u);
    EXPECT_EQ(bytes[112 + 12], 2u);
    EXPECT_EQ(rd16(bytes, 112 + 13), 0xFFFFu);
    // Stage: ops at 4, inputs at 5, outputs at 6, no tile, not chained.
    EXPECT_EQ(rd16(bytes, 192 + 4), 4u);
    EXPECT_EQ(rd16(bytes, 192 + 16), 0xFFFFu);
    EXPECT_EQ(rd16(bytes, 192 + 20), 0xFFFFu);
    EXPECT_EQ(rd16(bytes, 192 + 22), 0u);
}

// v11: the memory section (id 14) is listed last and tile records are 48 bytes
// with the facts block at 32 (F1, F3).
TEST(PlanBuilder, V11TiledStripeCarriesFactsAndMemorySection) {
    PlanBuilder b = PlanBuilder::tiled_stripe(11);
    std::vector<uint8_t> bytes = b.build();
    Parsed p = parse(bytes);
    ASSERT_TRUE(p.off.count(14));
    const uint32_t t = p.off[4];
    EXPECT_EQ(p.extent[4], 48u);
    EXPECT_EQ(bytes[t + 0], 1u);                 // tileable
    EXPECT_EQ(bytes[t + 1], 1u);                 // axis height
    EXPECT_EQ(rd32(bytes, t + 4), 2u);           // tile_height
    EXPECT_EQ(rd32(bytes, t + 8), 4u);           // num_tiles = ceil(8 / 2)
    EXPECT_EQ(rd32(bytes, t + 12), 8u);          // original_height
    EXPECT_EQ(rd16(bytes, t + 16), 2u);          // halo = 3 - 1
    EXPECT_EQ(rd16(bytes, t + 18), 3u);          // receptive field
    EXPECT_EQ(rd32(bytes, t + 32), 2u);          // facts: tile_extent
    EXPECT_EQ(rd32(bytes, t + 36), 4u);          // num_tiles
    EXPECT_EQ(rd32(bytes, t + 40), 8u);          // original_extent
    EXPECT_EQ(rd16(bytes, t + 44), 2u);          // halo
    EXPECT_EQ(bytes[t + 46], 1u);                // band_axis
    EXPECT_EQ(bytes[t + 47], 1u);                // STRIPE, mode 0
    // x 512 + y 768 bytes, both already 32-aligned: the one stage holds both.
    EXPECT_EQ(rd32(bytes, p.off[14]), 512u + 768u);
}

TEST(PlanBuilder, TileRecordSizeFollowsRevisionAndFlag) {
    for (uint32_t rev = 4; rev <= 11; ++rev) {
        PlanBuilder b = PlanBuilder::tiled_stripe(rev);
        std::vector<uint8_t> bytes = b.build();
        Parsed p = parse(bytes);
        const uint32_t want = rev >= 11 ? 48 : 24;
        EXPECT_GE(p.extent[4], want) << rev;
        EXPECT_LT(p.extent[4] - want, 16u) << rev;
        // 24-byte layout: u16 fields at 2 (tile_height), 10 (original height).
        if (want == 24) {
            EXPECT_EQ(rd16(bytes, p.off[4] + 2), 2u);
            EXPECT_EQ(rd16(bytes, p.off[4] + 4), 4u);
            EXPECT_EQ(rd16(bytes, p.off[4] + 10), 8u);
            EXPECT_EQ(bytes[p.off[4] + 1], rev >= 5 ? 1u : 0u);
        }
    }
    PlanBuilder b = PlanBuilder::tiled_stripe(10);
    b.flags |= TIGRIS_FLAG_TILE_V10;
    std::vector<uint8_t> bytes = b.build();
    Parsed p = parse(bytes);
    EXPECT_EQ(p.extent[4], 32u);
    EXPECT_EQ(rd32(bytes, 44), 2u);
    EXPECT_EQ(rd32(bytes, p.off[4] + 4), 2u);
}

TEST(PlanBuilder, Lz4BlockDecompressesToTheWeightsAt16ByteOffsets) {
    PlanBuilder b = PlanBuilder::compressed_conv(9, Compression::Lz4Blocks);
    std::vector<uint8_t> bytes = b.build();
    Parsed p = parse(bytes);
    ASSERT_TRUE(p.off.count(10));
    const uint32_t s = p.off[10];
    ASSERT_EQ(rd16(bytes, s), 1u);      // one block (one stage)
    EXPECT_EQ(rd16(bytes, s + 2), 1u);  // LZ4
    const uint32_t r = s + 4;
    EXPECT_EQ(rd16(bytes, r), 0u);      // stage 0
    EXPECT_EQ(rd16(bytes, r + 2), 0u);  // first weight
    EXPECT_EQ(rd16(bytes, r + 4), 2u);  // weight + bias
    const uint32_t data = s + 4 + 20, off = rd32(bytes, r + 8), csize = rd32(bytes, r + 12), usize = rd32(bytes, r + 16);
    // 54 floats = 216 bytes, bias at the next 16-byte boundary 224, 12 bytes.
    EXPECT_EQ(usize, 236u);
    std::vector<char> out(usize);
    ASSERT_EQ(LZ4_decompress_safe(reinterpret_cast<const char *>(&bytes[data + off]), out.data(), (int)csize,
                                  (int)usize),
              (int)usize);
    EXPECT_EQ(rd32(bytes, p.off[8] + 12 + 4), 224u);  // bias entry offset inside the block
    EXPECT_EQ(0, std::memcmp(out.data(), b.weights[0].bytes.data(), 216));
    EXPECT_EQ(0, std::memcmp(out.data() + 224, b.weights[1].bytes.data(), 12));
    float b0;
    std::memcpy(&b0, out.data() + 224, 4);
    EXPECT_EQ(b0, 0.5f);
}

TEST(PlanBuilder, StoredBlockHasEqualSizes) {
    PlanBuilder b = PlanBuilder::compressed_conv(9, Compression::StoredBlocks);
    std::vector<uint8_t> bytes = b.build();
    Parsed p = parse(bytes);
    const uint32_t s = p.off[10];
    EXPECT_EQ(rd16(bytes, s + 2), 0u);
    EXPECT_EQ(rd32(bytes, s + 4 + 12), rd32(bytes, s + 4 + 16));
}

TEST(PlanBuilder, Int8QuantRecordsHoldMultipliersOfTheEffectiveScale) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    std::vector<uint8_t> bytes = b.build();
    Parsed p = parse(bytes);
    const uint32_t q = p.off[9];
    ASSERT_EQ(rd16(bytes, q), 2u);
    EXPECT_EQ(rd16(bytes, q + 2), 1u);  // one page
    // Record 0: x, scale 0.5 = 0.5 * 2^0 -> multiplier 2^30, shift 0.
    const uint32_t r0 = q + 4, data = q + 4 + 32;
    EXPECT_EQ(rdf(bytes, r0), 0.5f);
    EXPECT_EQ((int32_t)rd32(bytes, r0 + 4), -1);
    EXPECT_EQ(rd16(bytes, r0 + 8), 1u);
    EXPECT_EQ(rd32(bytes, data + 4 * rd16(bytes, r0 + 10)), 1u << 30);
    EXPECT_EQ(rd32(bytes, data + 4 * rd16(bytes, r0 + 12)), 0u);
    // Record 1: y, 3 channels. Channel 0: 0.01f is 0x3C23D70A = 10737418 * 2^-30,
    // so 0.5 * 0.01f / 0.25 = 10737418 * 2^-29 = (10737418 * 2^-24) * 2^-5,
    // a mantissa in [0.5, 1): multiplier 10737418 * 2^7 = 1374389504, shift -5.
    const uint32_t r1 = q + 4 + 16;
    EXPECT_EQ(rd16(bytes, r1 + 8), 3u);
    EXPECT_EQ((int32_t)rd32(bytes, data + 4 * rd16(bytes, r1 + 10)), 1374389504);
    EXPECT_EQ((int32_t)rd32(bytes, data + 4 * rd16(bytes, r1 + 12)), -5);
}

TEST(PlanBuilder, StateSectionLaysOutInitialValues) {
    PlanBuilder b = PlanBuilder::state_add(10);
    std::vector<uint8_t> bytes = b.build();
    Parsed p = parse(bytes);
    ASSERT_TRUE(p.off.count(12));
    const uint32_t s = p.off[12];
    EXPECT_EQ(rd16(bytes, s), 1u);
    EXPECT_EQ(rd16(bytes, s + 2), 0u);
    EXPECT_EQ(rd32(bytes, s + 4), 16u);  // state_bytes
    EXPECT_EQ(rd16(bytes, s + 8), 1u);   // input tensor s
    EXPECT_EQ(rd16(bytes, s + 10), 0xFFFFu);
    EXPECT_EQ(rd32(bytes, s + 12), 0u);
    EXPECT_EQ(rd32(bytes, s + 16), 16u);
    const uint32_t init = rd32(bytes, s + 20);
    EXPECT_EQ(init, 24u);  // right after the 8-byte header and the entry
    for (int i = 0; i < 4; ++i) EXPECT_EQ(rdf(bytes, s + init + 4 * i), (float)(i + 1));
}

TEST(PlanBuilder, SubgraphSectionSplitsStages) {
    PlanBuilder b = PlanBuilder::if_subgraphs(10);
    std::vector<uint8_t> bytes = b.build();
    Parsed p = parse(bytes);
    ASSERT_TRUE(p.off.count(13));
    ASSERT_TRUE(p.off.count(11));
    const uint32_t g = p.off[13];
    EXPECT_EQ(rd16(bytes, g), 3u);
    uint32_t next = 0;
    for (uint32_t i = 0; i < 3; ++i) {
        EXPECT_EQ(rd16(bytes, g + 4 + 12 * i), next);
        next += rd16(bytes, g + 4 + 12 * i + 2);
    }
    EXPECT_EQ(next, rd16(bytes, 20));
    // Graph 0's input list equals the header's model inputs.
    const uint32_t pool = p.off[5];
    EXPECT_EQ(rd16(bytes, g + 4 + 6), bytes[38]);
    for (uint32_t i = 0; i < bytes[38]; ++i)
        EXPECT_EQ(rd16(bytes, pool + 2 * (rd16(bytes, g + 4 + 4) + i)), rd16(bytes, pool + 2 * (rd16(bytes, 36) + i)));
    // SUBGRAPHS payload {1, 2} on op 0.
    const uint32_t a = p.off[11];
    EXPECT_EQ(rd16(bytes, a + 4), 0u);
    EXPECT_EQ(bytes[a + 4 + 2], 17u);
    EXPECT_EQ(bytes[a + 4 + 3], 4u);
    const uint32_t pd = a + 4 + 8 + rd32(bytes, a + 4 + 4);
    EXPECT_EQ(rd16(bytes, pd), 1u);
    EXPECT_EQ(rd16(bytes, pd + 2), 2u);
}

TEST(PlanBuilder, OptionsDropReorderAndEditHeader) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.drop_sections.insert(TIGRIS_SEC_SHAPE_POOL);
    Parsed p = parse(b.build());
    EXPECT_FALSE(p.off.count(6));
    EXPECT_EQ(p.dir.size(), 6u);

    PlanBuilder d = PlanBuilder::minimal_float(9);
    d.edit_directory = [](std::vector<tigris_section_entry_t> &e, uint32_t) { e.push_back(e[1]); };
    std::vector<uint8_t> bytes = d.build();
    p = parse(bytes);
    ASSERT_EQ(p.dir.size(), 8u);
    EXPECT_EQ(p.dir[7].first, 2u);
    EXPECT_EQ(p.dir_end, 48u + 9 * 8);
    EXPECT_EQ(d.layout().dir_entry(2), 48u + 8);
    EXPECT_GE(p.dir[0].second, p.dir_end);

    PlanBuilder h = PlanBuilder::minimal_float(9);
    h.edit_header = [](tigris_file_header_t &hd) { hd.version = 3; };
    bytes = h.build();
    EXPECT_EQ(rd32(bytes, 4), 3u);

    PlanBuilder a = PlanBuilder::minimal_float(9);
    a.add_attribute(0, 2, {1});
    a.add_attribute(0, 1, {2});
    bytes = a.build();
    p = parse(bytes);
    EXPECT_EQ(bytes[p.off[11] + 4 + 2], 1u);  // sorted by kind
    a.sort_attributes = false;
    bytes = a.build();
    EXPECT_EQ(bytes[p.off[11] + 4 + 2], 2u);
}

TEST(PlanBuilder, LayoutPointsAtTheRecords) {
    PlanBuilder b = PlanBuilder::int8_conv(11);
    std::vector<uint8_t> bytes = b.build();
    const tigris_test::Layout &L = b.layout();
    Parsed p = parse(bytes);
    EXPECT_EQ(L.tensors, p.off[1]);
    EXPECT_EQ(L.op(0), p.off[2]);
    EXPECT_EQ(L.quant_record(1), p.off[9] + 4 + 16);
    EXPECT_EQ(L.memory, p.off[14]);
    EXPECT_EQ(L.weight_blob, p.off[8] + 24);
    EXPECT_EQ(L.file_size, bytes.size());
    EXPECT_EQ(L.strings.at("conv"), rd32(bytes, L.op(0)));
}
