// TiGrIS's int8 reference run of the imported plan against TFLite Micro's
// Invoke() (reference kernels, -O2 -DNDEBUG) on the same model and input,
// interleaved in one process so both see the same machine state.
//
//   tigris_vs_tflm [--rounds N] [--min-ms T] [--max-ratio R]
//
// For each shared model: import (one operator per stage), check both give
// the same bytes, then alternate the two, each timed over at least T ms per
// round, and report the median over rounds of ours / TFLite Micro. Exit 1 on
// differing bytes or a ratio above --max-ratio (default: no limit); exit 77
// (skip) without TFLite Micro or the shared models.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "oracle_case.hpp"
#include "shared_data.h"
#include "tflm_oracle.h"
extern "C" {
#include "tigris_iface.h"
}
#include "tigris_host/run.hpp"
#include "tigris_import/lower.hpp"

namespace {

using clk = std::chrono::steady_clock;

template <class F> double time_per_call_us(F &&f, double min_ms) {
    int n = 0;
    const auto t0 = clk::now();
    double el = 0.0;
    do {
        f();
        ++n;
        el = std::chrono::duration<double, std::milli>(clk::now() - t0).count();
    } while (el < min_ms);
    return el * 1000.0 / n;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char **argv) {
    int rounds = 7;
    double min_ms = 200.0, max_ratio = 0.0;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string a = argv[i];
        if (a == "--rounds") rounds = std::atoi(argv[i + 1]);
        else if (a == "--min-ms") min_ms = std::atof(argv[i + 1]);
        else if (a == "--max-ratio") max_ratio = std::atof(argv[i + 1]);
        else {
            std::fprintf(stderr, "usage: tigris_vs_tflm [--rounds N] [--min-ms T] [--max-ratio R]\n");
            return 2;
        }
    }
    if (!tigris::oracle::have_tflm()) {
        std::printf("skip: TFLite Micro oracle not built: %s\n", tigris::oracle::tflm_missing_reason());
        return 77;
    }
    if (!tigris_test::shared_available()) {
        std::printf("skip: shared models not found at %s\n", tigris_test::shared_dir().c_str());
        return 77;
    }
    int rc = 0;
    std::printf("%-28s %12s %12s %8s\n", "model", "tflm us", "tigris us", "ratio");
    for (const auto &path : tigris_test::shared_models()) {
        const std::string name = path.stem().string();
        const std::vector<uint8_t> model = tigris_test::read_file(path);
        const auto mc = tigris::oracle::case_of_model(name, model, 1);
        if (!mc.ok) continue;
        tigris::import::Result plan;
        try {
            plan = tigris::import::import_model(tigris::tflite::read_model(model), {});
        } catch (const std::exception &e) {
            std::printf("%-28s refused: %s\n", name.c_str(), e.what());
            continue;
        }
        tflm_oracle_result info;
        tflm_oracle_session *s = tflm_oracle_open(model.data(), model.size(), size_t{8} << 20, &info);
        if (!s) {
            std::printf("%-28s TFLite Micro: %s\n", name.c_str(), info.message);
            rc = 1;
            continue;
        }
        std::vector<uint8_t> want(info.output_bytes);
        const auto lp = tigris::host::LoadedPlan::load(plan.plan);
        tigris::host::RunScratch scratch;
        tigris::host::RunOptions ro;
        ro.backend = tigris::host::Backend::S8;
        // The plan's inputs, one span each (tigris_iface_bytes of each model input).
        std::vector<tigris::host::Bytes> inputs;
        size_t at = 0;
        for (uint8_t i = 0; i < lp->plan().header->num_model_inputs; ++i) {
            const uint32_t n = tigris_iface_bytes(&lp->plan(), lp->plan().model_inputs[i]);
            inputs.emplace_back(mc.c.input.data() + at, n);
            at += n;
        }
        if (tflm_oracle_invoke(s, mc.c.input.data(), mc.c.input.size(), want.data(), want.size()) != TFLM_ORACLE_OK) {
            std::printf("%-28s TFLite Micro Invoke failed\n", name.c_str());
            rc = 1;
            tflm_oracle_close(s);
            continue;
        }
        const auto first = tigris::host::run_loaded(*lp, inputs, ro, scratch);
        if (!first.ok() || first.outputs != want) {
            std::printf("%-28s DIFFERENT BYTES (%s)\n", name.c_str(), first.error.c_str());
            rc = 1;
            tflm_oracle_close(s);
            continue;
        }
        std::vector<double> ratio, t_tflm, t_ours;
        for (int r = 0; r < rounds; ++r) {
            const double a = time_per_call_us(
                [&] { tflm_oracle_invoke(s, mc.c.input.data(), mc.c.input.size(), want.data(), want.size()); }, min_ms);
            const double b = time_per_call_us([&] { (void)tigris::host::run_loaded(*lp, inputs, ro, scratch); }, min_ms);
            t_tflm.push_back(a);
            t_ours.push_back(b);
            ratio.push_back(b / a);
        }
        tflm_oracle_close(s);
        const double q = median(ratio);
        std::printf("%-28s %12.1f %12.1f %8.2f\n", name.c_str(), median(t_tflm), median(t_ours), q);
        if (max_ratio > 0 && q > max_ratio) rc = 1;
    }
    return rc;
}
