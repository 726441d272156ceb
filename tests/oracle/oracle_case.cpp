// oracle_case.cpp - see oracle_case.hpp.
#include "oracle_case.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "tigris_host/run.hpp"
#include "tigris_compile/compile.hpp"
#include "tigris_import/lower.hpp"
#include "tigris_tflite/model.hpp"

#ifdef TIGRIS_HAVE_TFLM
#include "tflm_oracle.h"
#endif

namespace tigris::oracle {

bool have_tflm() {
#ifdef TIGRIS_HAVE_TFLM
    return true;
#else
    return false;
#endif
}

const char *tflm_missing_reason() {
#ifdef TIGRIS_HAVE_TFLM
    return "";
#else
    return TIGRIS_TFLM_MISSING;
#endif
}

OracleRun run_tflm(const std::vector<uint8_t> &model, const std::vector<uint8_t> &input, size_t arena_bytes) {
    OracleRun out;
#ifdef TIGRIS_HAVE_TFLM
    tflm_oracle_result r;
    std::vector<uint8_t> buf(size_t{1} << 16);
    int rc = tflm_oracle_run(model.data(), model.size(), input.data(), input.size(), buf.data(), buf.size(),
                             arena_bytes, nullptr, nullptr, &r);
    if (rc == TFLM_ORACLE_OUTPUT) {
        buf.resize(r.output_bytes);
        rc = tflm_oracle_run(model.data(), model.size(), input.data(), input.size(), buf.data(), buf.size(),
                             arena_bytes, nullptr, nullptr, &r);
    }
    for (int32_t i = 0; i < r.n_inputs; ++i) {
        out.input_types.push_back(r.inputs[i].type);
        out.input_bytes.push_back(r.inputs[i].bytes);
    }
    if (rc != TFLM_ORACLE_OK) {
        out.error = r.message;
        return out;
    }
    out.ok = true;
    buf.resize(r.output_bytes);
    out.output = std::move(buf);
    out.arena_used_bytes = r.arena_used_bytes;
    for (int32_t i = 0; i < r.n_outputs; ++i) {
        out.output_types.push_back(r.outputs[i].type);
        out.output_bytes.push_back(r.outputs[i].bytes);
    }
#else
    (void)model;
    (void)input;
    (void)arena_bytes;
    out.error = TIGRIS_TFLM_MISSING;
#endif
    return out;
}

const char *verdict_name(Verdict v) {
    switch (v) {
    case Verdict::Match: return "match";
    case Verdict::Refused: return "refused";
    case Verdict::OracleRefused: return "oracle-refused";
    case Verdict::Mismatch: return "mismatch";
    case Verdict::RunFailed: return "run-failed";
    }
    return "?";
}

// TFLite Micro's float kernels and ours both accumulate in float32 but not
// always in the same order (and may contract a*b+c differently), so results
// differ in the last bits: the bound allows 2^-14 of the output's largest
// magnitude (about 1000 float32 ulps at that magnitude) plus a small absolute
// term for outputs near zero. int8 results must be identical.
double float_bound(double max_abs_expected) { return 1e-6 + std::ldexp(std::max(1.0, max_abs_expected), -14); }

namespace {

constexpr int32_t kTfLiteFloat32 = 1;

// First difference between `got` and TFLite Micro's output, or "" when equal.
std::string compare(const OracleRun &want, const std::vector<uint8_t> &got) {
    if (got.size() != want.output.size())
        return "output size " + std::to_string(got.size()) + ", TFLite Micro " + std::to_string(want.output.size());
    size_t at = 0;
    for (size_t o = 0; o < want.output_bytes.size(); ++o) {
        const size_t n = want.output_bytes[o];
        if (want.output_types[o] == kTfLiteFloat32) {
            std::vector<float> a(n / 4), b(n / 4);
            std::memcpy(a.data(), want.output.data() + at, n);
            std::memcpy(b.data(), got.data() + at, n);
            double max_abs = 0.0;
            for (float v : a) max_abs = std::max(max_abs, static_cast<double>(std::fabs(v)));
            const double bound = float_bound(max_abs);
            for (size_t i = 0; i < a.size(); ++i) {
                const double d = std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i]));
                if (!(d <= bound))  // catches NaN too
                    return "output " + std::to_string(o) + " element " + std::to_string(i) + ": " +
                           std::to_string(b[i]) + ", TFLite Micro " + std::to_string(a[i]) + " (bound " +
                           std::to_string(bound) + ")";
            }
        } else {
            for (size_t i = 0; i < n; ++i)
                if (want.output[at + i] != got[at + i])
                    return "output " + std::to_string(o) + " byte " + std::to_string(i) + ": " +
                           std::to_string(static_cast<int8_t>(got[at + i])) + ", TFLite Micro " +
                           std::to_string(static_cast<int8_t>(want.output[at + i]));
        }
        at += n;
    }
    return "";
}

// Runs one plan at its declared fast arena, half as much again and a huge
// one: every run must succeed, stay within the declared arena and give
// TFLite Micro's bytes (the bytes must not depend on the arena,
// docs/oracle.md). False (with res filled) at the first failure.
bool check_plan(const OracleRun &want, const std::vector<uint8_t> &plan, const std::vector<uint8_t> &input,
                const std::string &label, CaseResult &res) {
    host::RunResult load_refusal;
    const auto loaded = host::LoadedPlan::load(plan, &load_refusal);
    if (!loaded) {
        res.verdict = Verdict::RunFailed;
        res.detail = label + ": the plan does not load: " + load_refusal.error;
        return false;
    }
    const uint32_t req = tigris_fast_arena_required(&loaded->plan());
    for (int arena = 0; arena < 3; ++arena) {
        host::RunOptions ro;
        ro.backend = host::Backend::Auto;  // s8 for int8 plans, f32 for float32 ones
        if (arena > 0) ro.fast_bytes = arena == 1 ? req + req / 2 : std::max<uint32_t>(req * 4, 1u << 22);
        const host::RunResult r = host::run_plan(plan, input, ro);
        ++res.runs;
        const std::string where = label + ", backend " + r.backend + ", fast arena " + std::to_string(r.fast_size) +
                                  " (declared " + std::to_string(r.fast_required) + ")";
        if (!r.ok()) {
            res.verdict = Verdict::RunFailed;
            res.detail = where + ": " + r.error_name + ": " + r.error;
            return false;
        }
        if (r.fast_peak > r.fast_required) {
            res.verdict = Verdict::RunFailed;
            res.detail = where + ": fast peak " + std::to_string(r.fast_peak) + " above the declared arena";
            return false;
        }
        const std::string diff = compare(want, r.outputs);
        if (!diff.empty()) {
            res.verdict = Verdict::Mismatch;
            res.detail = where + ": " + diff;
            return false;
        }
    }
    return true;
}

// TFLite Micro's outputs for the case and our reading of its model; false
// (with the verdict in `res`) when either cannot be had.
bool oracle_and_model(const Case &c, OracleRun &want, tflite::Model &m, CaseResult &res) {
    want = run_tflm(c.model, c.input);
    if (!want.ok) {
        res.verdict = Verdict::OracleRefused;
        res.detail = want.error;
        return false;
    }
    try {
        m = tflite::read_model(c.model);
    } catch (const tflite::ReadError &e) {
        // Our reader refusing a file TFLite Micro ran is a mismatch of ours.
        res.verdict = Verdict::Mismatch;
        res.detail = std::string("the TFLite reader refused it: ") + e.what();
        return false;
    }
    return true;
}

void set_refused(CaseResult &res, const import::ImportError &e) {
    res.verdict = Verdict::Refused;
    res.refusal = import::refusal_name(e.refusal.kind);
    res.detail = e.what();
}

}  // namespace

CaseResult run_case(const Case &c, const CasePlan &cp) {
    CaseResult res;
    OracleRun want;
    tflite::Model m;
    if (!oracle_and_model(c, want, m, res)) return res;
    for (uint32_t budget : cp.budgets) {
        import::Options io;
        io.fast_budget = budget;
        import::Result plan;
        try {
            plan = import::import_model(m, io);
        } catch (const import::ImportError &e) {
            set_refused(res, e);
            return res;
        }
        if (!check_plan(want, plan.plan, c.input, "budget " + std::to_string(budget), res)) return res;
    }
    return res;
}

CaseResult run_compiled_case(const Case &c, const std::vector<uint32_t> &budgets) {
    CaseResult res;
    OracleRun want;
    tflite::Model m;
    if (!oracle_and_model(c, want, m, res)) return res;
    for (uint32_t budget : budgets) {
        compile::Options co;
        co.fast_budget = budget;
        compile::Result plan;
        try {
            plan = compile::compile_model(m, co);
        } catch (const import::ImportError &e) {
            set_refused(res, e);
            return res;
        } catch (const compile::BudgetError &) {
            ++res.below_floor;  // a budget under the model's floor: nothing to run
            continue;
        }
        const std::string label = "compiled at " + std::to_string(budget) + " (" +
                                  std::to_string(plan.report.stages) + " stages, " +
                                  std::to_string(plan.report.tiled) + " tiled)";
        if (plan.report.fast_required > budget) {
            res.verdict = Verdict::RunFailed;
            res.detail = label + ": declares " + std::to_string(plan.report.fast_required) + " bytes";
            return res;
        }
        if (!check_plan(want, plan.plan, c.input, label, res)) return res;
        ++res.compiled;
        res.tiled_stages += plan.report.tiled;
        res.chains += plan.report.chains;
    }
    return res;
}

ModelCase case_of_model(const std::string &name, const std::vector<uint8_t> &model, uint64_t seed) {
    ModelCase mc;
    const OracleRun probe = run_tflm(model, {});
    if (probe.input_bytes.empty()) {
        mc.error = probe.error;
        return mc;
    }
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    auto next = [&s] {  // splitmix64, as the generator
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    };
    for (size_t i = 0; i < probe.input_bytes.size(); ++i) {
        const size_t n = probe.input_bytes[i];
        if (probe.input_types[i] == kTfLiteFloat32) {
            for (size_t k = 0; k < n / 4; ++k) {
                const float v = static_cast<float>(static_cast<double>(next() >> 11) / 9007199254740992.0 * 2.0 - 1.0);
                uint8_t b[4];
                std::memcpy(b, &v, 4);
                mc.c.input.insert(mc.c.input.end(), b, b + 4);
            }
        } else {
            for (size_t k = 0; k < n; ++k) mc.c.input.push_back(static_cast<uint8_t>(next()));
        }
    }
    mc.ok = true;
    mc.c.kind = name;
    mc.c.seed = seed;
    mc.c.model = model;
    mc.c.what = "shared model";
    return mc;
}

}  // namespace tigris::oracle
