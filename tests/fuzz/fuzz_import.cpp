// fuzz_import.cpp - libFuzzer target for `tigris import`: arbitrary bytes as
// a TFLite file through the reader and the lowering. Every input must end in
// a model, a ReadError or an ImportError, never a crash or an out-of-bounds
// access (ASan); a plan that comes back must load (import checks it with the
// loader and would refuse it otherwise, so a plan handed out that does not
// load traps here). The options come from the input's length and a middle
// byte, so a seed model is read whole while budgets, schemas, LZ4 and XIP
// still vary.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tigris_import/lower.hpp"
#include "tigris_tflite/model.hpp"

extern "C" {
#include "tigris_loader.h"
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    tigris::import::Options o;
    const uint8_t k = (uint8_t)(size * 131u + data[size / 2]);
    o.schema = 4 + k % 8;
    o.fast_budget = (k & 0x08) ? 0 : 4096u << (k >> 5);
    o.lz4 = (k & 0x10) != 0;
    o.xip = !o.lz4 && (k & 0x20);
    try {
        const tigris::tflite::Model m = tigris::tflite::read_model({data, size});
        tigris::import::Result r = tigris::import::import_model(m, o);
        std::vector<uint8_t> copy(r.plan);
        tigris_plan_t plan;
        if (tigris_plan_load(copy.data(), (uint32_t)copy.size(), &plan) != TIGRIS_OK) __builtin_trap();
    } catch (const tigris::tflite::ReadError &) {
    } catch (const tigris::import::ImportError &) {
    }
    return 0;
}
