// Export's full search on vww_96_int8.tflite (issue 8: under 1 s): read,
// refusal checks, every bandable run x band count 2..10 (x folds), the arena
// of every candidate, and writing the best. Also the pieces on their own.
// Run by hand: build/host/tests/bench/tigris_export_bench
#include <benchmark/benchmark.h>

#include "shared_data.h"
#include "tigris_export/export.hpp"

namespace {

namespace ex = tigris::exporter;

const std::vector<uint8_t> &vww() {
    static const std::vector<uint8_t> b =
        tigris_test::read_file(tigris_test::shared_dir() / "models" / "vww_96_int8.tflite");
    return b;
}

void BM_ExportFullSearchVww(benchmark::State &state) {
    if (!tigris_test::shared_available()) {
        state.SkipWithError("shared models not found");
        return;
    }
    const auto target = static_cast<ex::Target>(state.range(0));
    int candidates = 0;
    double growth = 0;
    for (auto _ : state) {
        const ex::ExportResult r = ex::export_model(vww(), target);
        if (!r.written) state.SkipWithError("vww_96_int8 was not exported");
        candidates = r.candidates;
        growth = static_cast<double>(r.bytes.size()) - static_cast<double>(vww().size());
        benchmark::DoNotOptimize(r.bytes.data());
    }
    state.counters["candidates"] = candidates;
    state.counters["file_growth_bytes"] = growth;  // written model minus the input file
    state.SetLabel(ex::target_name(target));
}
BENCHMARK(BM_ExportFullSearchVww)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_ArenaOfVww(benchmark::State &state) {
    if (!tigris_test::shared_available()) {
        state.SkipWithError("shared models not found");
        return;
    }
    const tigris::tflite::Model m = tigris::tflite::read_model(vww());
    for (auto _ : state) benchmark::DoNotOptimize(ex::arena(m, ex::Target::ArmNoneEabi).total());
}
BENCHMARK(BM_ArenaOfVww)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
