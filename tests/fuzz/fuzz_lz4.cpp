// fuzz_lz4.cpp - libFuzzer target for the LZ4 block decoder.
//
// Two properties per input:
//  1. Hostile block: the input (after a 2-byte capacity prefix) is decoded
//     into a heap buffer of exactly that capacity, so ASan sees any write
//     past it or read past the input. When liblz4's own bounded decoder
//     accepts the block, ours must produce the same bytes - except for blocks
//     carrying offset 0, which the format calls corrupt and only we refuse.
//  2. Round trip: the whole input, compressed by liblz4, must decode to
//     itself into an exactly-sized buffer and be refused one byte shorter.
// A broken property traps, so libFuzzer records the input as a crash.
#include <lz4.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

extern "C" {
#include "../../core/src/lz4.h"
}

namespace {

void require(bool ok) {
    if (!ok) __builtin_trap();
}

bool has_zero_offset(const uint8_t *b, size_t n) {
    size_t ip = 0;
    while (ip < n) {
        uint8_t t = b[ip++];
        size_t lit = t >> 4;
        if (lit == 15) {
            uint8_t x;
            do {
                if (ip >= n) return false;
                x = b[ip++];
                lit += x;
            } while (x == 255);
        }
        if (lit > n - ip) return false;
        ip += lit;
        if (n - ip < 2) return false;
        if (b[ip] == 0 && b[ip + 1] == 0) return true;
        ip += 2;
        if ((t & 15) == 15) {
            uint8_t x;
            do {
                if (ip >= n) return false;
                x = b[ip++];
            } while (x == 255);
        }
    }
    return false;
}

void hostile_block(const uint8_t *data, size_t size) {
    if (size < 2) return;
    uint32_t cap = (uint32_t)data[0] | ((uint32_t)data[1] << 8);
    const uint8_t *blk = data + 2;
    uint32_t n = (uint32_t)(size - 2);
    // Copies keep the exact extents visible to ASan: the block ends where
    // its heap copy ends, the output where its allocation ends.
    std::unique_ptr<uint8_t[]> in(new uint8_t[n ? n : 1]);
    if (n) std::memcpy(in.get(), blk, n);
    std::unique_ptr<uint8_t[]> out(new uint8_t[cap ? cap : 1]);
    uint32_t got = 0;
    int rc = tigris__lz4_decode(in.get(), n, cap ? out.get() : nullptr, cap, &got);
    if (rc == 0) require(got <= cap);
    if (n == 0 || n > (uint32_t)INT32_MAX) return;
    std::vector<uint8_t> ref((size_t)cap + 1);
    int r = LZ4_decompress_safe(reinterpret_cast<const char *>(in.get()), reinterpret_cast<char *>(ref.data()),
                                (int)n, (int)cap);
    if (r >= 0 && !(rc != 0 && has_zero_offset(in.get(), n))) {
        require(rc == 0);
        require(got == (uint32_t)r);
        require(got == 0 || std::memcmp(out.get(), ref.data(), got) == 0);
    }
}

void round_trip(const uint8_t *data, size_t size) {
    if (size > (1u << 20)) return;
    int bound = LZ4_compressBound((int)size);
    std::vector<char> blk((size_t)bound + 1);
    int c = LZ4_compress_default(reinterpret_cast<const char *>(data), blk.data(), (int)size, bound);
    require(c > 0);
    std::unique_ptr<uint8_t[]> out(new uint8_t[size ? size : 1]);
    uint32_t got = 0;
    require(tigris__lz4_decode(reinterpret_cast<const uint8_t *>(blk.data()), (uint32_t)c,
                               size ? out.get() : nullptr, (uint32_t)size, &got) == 0);
    require(got == size);
    require(size == 0 || std::memcmp(out.get(), data, size) == 0);
    if (size > 0) {
        std::unique_ptr<uint8_t[]> small(new uint8_t[size - 1 ? size - 1 : 1]);
        require(tigris__lz4_decode(reinterpret_cast<const uint8_t *>(blk.data()), (uint32_t)c,
                                   size - 1 ? small.get() : nullptr, (uint32_t)(size - 1), &got) != 0);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    hostile_block(data, size);
    round_trip(data, size);
    return 0;
}
