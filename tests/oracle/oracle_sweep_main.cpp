// tigris_oracle_sweep: the long differential sweep (docs/oracle.md O3), every
// generated kind in every dtype for seeds [first, first + seeds), each case as
// the CI sweep runs it. Prints the tally per kind, every mismatch or failure
// with the command that regenerates it, and the totals and wall time.
//
//   tigris_oracle_sweep [--seeds N] [--first S]
//
// Exit 0: no mismatch, no failed run, no model TFLite Micro refused; 1
// otherwise; 2 usage; 77 (skip) without TFLite Micro.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "model_gen.hpp"
#include "oracle_case.hpp"

int main(int argc, char **argv) {
    using namespace tigris::oracle;
    uint64_t seeds = 1200, first = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--seeds" && i + 1 < argc) seeds = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--first" && i + 1 < argc) first = std::strtoull(argv[++i], nullptr, 10);
        else {
            std::fprintf(stderr, "usage: tigris_oracle_sweep [--seeds N] [--first S]\n");
            return 2;
        }
    }
    if (!have_tflm()) {
        std::printf("skip: TFLite Micro oracle not built: %s\n", tflm_missing_reason());
        return 77;
    }
    std::vector<std::string> kinds = single_op_kinds();
    kinds.push_back("graph");
    std::map<Verdict, uint64_t> total;
    uint64_t cases = 0, runs = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (const std::string &k : kinds)
        for (DType d : {DType::Int8, DType::Float32}) {
            if (!generates(k, d)) continue;
            std::map<Verdict, uint64_t> tally;
            for (uint64_t s = first; s < first + seeds; ++s) {
                const Case c = generate(k, d, s);
                const CaseResult r = run_case(c);
                ++tally[r.verdict];
                ++total[r.verdict];
                ++cases;
                runs += static_cast<uint64_t>(r.runs);
                if (r.verdict == Verdict::Mismatch || r.verdict == Verdict::RunFailed ||
                    r.verdict == Verdict::OracleRefused)
                    std::printf("%s %s (%s): %s\n  regenerate: tigris-model-gen %s %s %llu m.tflite in.bin\n",
                                verdict_name(r.verdict), c.id().c_str(), c.what.c_str(), r.detail.c_str(), k.c_str(),
                                dtype_name(d), static_cast<unsigned long long>(s));
            }
            std::printf("%-24s %-7s match %6llu  refused %6llu  mismatch %llu  run-failed %llu  oracle-refused %llu\n",
                        k.c_str(), dtype_name(d), static_cast<unsigned long long>(tally[Verdict::Match]),
                        static_cast<unsigned long long>(tally[Verdict::Refused]),
                        static_cast<unsigned long long>(tally[Verdict::Mismatch]),
                        static_cast<unsigned long long>(tally[Verdict::RunFailed]),
                        static_cast<unsigned long long>(tally[Verdict::OracleRefused]));
        }
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("cases %llu, plan runs %llu, match %llu, refused %llu, mismatch %llu, run-failed %llu, "
                "oracle-refused %llu, %.1f s\n",
                static_cast<unsigned long long>(cases), static_cast<unsigned long long>(runs),
                static_cast<unsigned long long>(total[Verdict::Match]),
                static_cast<unsigned long long>(total[Verdict::Refused]),
                static_cast<unsigned long long>(total[Verdict::Mismatch]),
                static_cast<unsigned long long>(total[Verdict::RunFailed]),
                static_cast<unsigned long long>(total[Verdict::OracleRefused]), sec);
    return total[Verdict::Mismatch] || total[Verdict::RunFailed] || total[Verdict::OracleRefused] ? 1 : 0;
}
