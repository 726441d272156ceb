// validate.cpp - `tigris validate` and the Validate RPC: on every asked board,
// run the plan with the reference and the accelerated backend; compare both
// to each other and to the host's own run; report instruction counts.
#include "tigris_host/validate.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tigris_host/names.hpp"
#include "tigris_host/run.hpp"

extern "C" {
#include "tigris_iface.h"
#include "tigris_loader.h"
}

namespace tigris::host {
namespace {

using emu::Executor;
using emu::JobResult;

std::optional<uint64_t> first_difference(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
    const size_t n = a.size() < b.size() ? a.size() : b.size();
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return i;
    if (a.size() != b.size()) return n;
    return std::nullopt;
}

void add_error(TargetResult &t, const std::string &what, const JobResult &r) {
    if (!t.error.empty()) t.error += "; ";
    t.error += what + ": " + r.error;
    if (r.status == JobResult::Status::Cancelled) t.cancelled = true;
    if (r.status == JobResult::Status::Timeout) t.timed_out = true;
}

}  // namespace

std::optional<std::vector<uint8_t>> pattern_input(const std::vector<uint8_t> &bytes, std::string &error) {
    RunResult refusal;
    const auto lp = LoadedPlan::load(bytes, &refusal);
    if (!lp) {
        error = refusal.error;
        return std::nullopt;
    }
    const tigris_plan_t &plan = lp->plan();
    std::vector<uint8_t> in;
    for (uint8_t i = 0; i < plan.header->num_model_inputs; i++) {
        const uint16_t t = plan.model_inputs[i];
        const uint32_t n = tigris_iface_bytes(&plan, t);
        const uint8_t dt = tigris_tensor_declared_dtype(&plan.tensors[t]);
        if (dt == TIGRIS_DTYPE_FLOAT32) {
            for (uint32_t j = 0; j < n / 4; j++) {
                float f = static_cast<float>(static_cast<int>(j % 17) - 8) * 0.25f;
                uint8_t b[4];
                std::memcpy(b, &f, 4);
                in.insert(in.end(), b, b + 4);
            }
        } else {
            for (uint32_t j = 0; j < n; j++) {
                int v = static_cast<int>((73ull * j + 17) % 201) - 100;
                in.push_back(dt == TIGRIS_DTYPE_BOOL ? static_cast<uint8_t>(v & 1) : static_cast<uint8_t>(v));
            }
        }
    }
    return in;
}

std::optional<std::vector<std::string>> resolve_targets(const std::vector<std::string> &names, std::string &error) {
    std::vector<std::string> out;
    for (const std::string &n : names) {
        if (n == "all") {
            out.clear();
            for (const emu::Board &b : emu::boards()) out.push_back(b.target);
            return out;
        }
        const emu::Board *b = emu::find_board(n);
        if (!b) {
            error = "unknown target '" + n + "' (known: " + emu::target_names() + "|all)";
            return std::nullopt;
        }
        out.push_back(b->target);
    }
    if (out.empty())
        for (const emu::Board &b : emu::boards()) out.push_back(b.target);
    return out;
}

namespace {

// One target of one plan: its jobs, then its result.
struct Pending {
    size_t plan = 0;
    std::string target;
    Executor::Ticket ref, accel;
    bool reported = false;
};

TargetResult combine(const Pending &p, const std::vector<uint8_t> &host_out, const std::vector<uint8_t> &types) {
    const emu::Board *b = emu::find_board(p.target);
    TargetResult t;
    t.target = p.target;
    t.board = b->board;
    const bool want_ref = p.ref != nullptr, want_acc = p.accel != nullptr;
    JobResult ref, acc;
    if (want_ref) ref = Executor::wait(p.ref);
    if (want_acc) acc = Executor::wait(p.accel);
    if (want_ref && !ref.ok()) add_error(t, "reference run", ref);
    if (want_acc && !acc.ok()) add_error(t, "accelerated run", acc);
    t.ref_instructions = ref.run_instructions;
    t.accel_instructions = acc.run_instructions;
    t.accel_kernel = acc.kernel;
    t.count_method = ref.count_method.empty() ? acc.count_method : ref.count_method;
    if (acc.ok()) t.fast_peak = acc.fast_peak;
    else if (ref.ok()) t.fast_peak = ref.fast_peak;
    if (ref.ok()) t.ref_matches_host = !first_difference(ref.outputs, host_out);
    if (ref.ok() && acc.ok()) t.accel_matches_ref = !first_difference(acc.outputs, ref.outputs);
    if (acc.ok() && ref.ok() && !t.accel_matches_ref) t.first_mismatch = first_difference(acc.outputs, ref.outputs);
    else if (ref.ok() && !t.ref_matches_host) t.first_mismatch = first_difference(ref.outputs, host_out);
    else if (acc.ok() && !ref.ok()) t.first_mismatch = first_difference(acc.outputs, host_out);
    if (want_ref && want_acc) t.parity = ref.ok() && acc.ok() && t.ref_matches_host && t.accel_matches_ref;
    else if (want_ref) t.parity = ref.ok() && t.ref_matches_host;
    else t.parity = acc.ok() && !first_difference(acc.outputs, host_out);

    // Per op type, when both runs bracketed every kernel call.
    std::map<std::string, OpTypeCount> per;
    auto add = [&](const JobResult &r, bool accel) {
        for (const emu::OpCount &c : r.ops) {
            if (c.op >= types.size()) continue;
            OpTypeCount &o = per[op_type_name(types[c.op])];
            o.op_type = op_type_name(types[c.op]);
            (accel ? o.accel_instructions : o.ref_instructions) += c.instructions;
            if (!accel) o.ops++;
        }
    };
    if (ref.ok() && acc.ok() && !ref.ops.empty() && !acc.ops.empty()) {
        add(ref, false);
        add(acc, true);
        for (auto &[name, o] : per) t.op_types.push_back(o);
    }
    return t;
}

}  // namespace

std::string backend_names(const std::vector<emu::Backend> &b) {
    std::string s;
    for (emu::Backend x : b) s += (s.empty() ? "" : ",") + std::string(emu::backend_name(x));
    return s;
}

MatrixReport validate_matrix(Executor &fleet, const std::vector<MatrixPlan> &plans, const ValidateOptions &opt) {
    const auto t0 = std::chrono::steady_clock::now();
    MatrixReport out;
    out.plans.resize(plans.size());
    for (const MatrixPlan &p : plans) out.names.push_back(p.name);
    std::string terr;
    auto targets = resolve_targets(opt.targets, terr);
    if (!targets) {
        for (ValidateReport &r : out.plans) r.error = terr;
        return out;
    }
    const bool want_ref = std::find(opt.backends.begin(), opt.backends.end(), emu::Backend::Ref) != opt.backends.end();
    const bool want_acc =
        std::find(opt.backends.begin(), opt.backends.end(), emu::Backend::Accel) != opt.backends.end();
    auto progress = [&opt](size_t plan, const std::string &t, const std::string &s) {
        if (opt.plan_progress) opt.plan_progress(plan, t, s);
        if (opt.progress) opt.progress(t, s);
    };

    // The host's own run is each plan's yardstick; a plan the host refuses
    // is not sent to any board.
    std::vector<std::vector<uint8_t>> host_out(plans.size()), types(plans.size());
    std::vector<bool> refused(plans.size(), false);
    bool any_refused = false;
    for (size_t i = 0; i < plans.size(); i++) {
        ValidateReport &rep = out.plans[i];
        RunResult host = run_plan(plans[i].plan, plans[i].input);
        if (!host.ok()) {
            rep.error = "the host run refuses this plan: " + host.error;
            for (const std::string &name : *targets) {
                TargetResult t;
                t.target = name;
                t.board = emu::find_board(name)->board;
                t.error = rep.error;
                rep.results.push_back(t);
            }
            refused[i] = any_refused = true;
            continue;
        }
        host_out[i] = host.outputs;
        if (const auto lp = LoadedPlan::load(plans[i].plan))
            for (uint16_t k = 0; k < lp->plan().header->num_ops; k++) types[i].push_back(lp->plan().ops[k].op_type);
    }
    if (any_refused && opt.all_or_nothing) return out;
    std::vector<Pending> pending;
    for (size_t i = 0; i < plans.size(); i++) {
        ValidateReport &rep = out.plans[i];
        if (refused[i]) continue;
        rep.results.resize(targets->size());
        for (const std::string &name : *targets) {
            Pending p;
            p.plan = i;
            p.target = name;
            for (emu::Backend be : {emu::Backend::Ref, emu::Backend::Accel}) {
                if ((be == emu::Backend::Ref && !want_ref) || (be == emu::Backend::Accel && !want_acc)) continue;
                emu::JobSpec spec;
                spec.target = name;
                spec.plan = plans[i].plan;
                spec.input = plans[i].input;
                spec.backend = be;
                spec.timeout = opt.timeout;
                const std::string label = emu::backend_name(be);
                progress(i, name, label + " queued");
                auto ticket = fleet.submit(std::move(spec), [progress, i, name, label](Executor::Event e,
                                                                                   const std::string &detail) {
                    const std::string what = e == Executor::Event::Started ? " running"
                                             : e == Executor::Event::Finished ? " finished"
                                                                              : "";
                    progress(i, name, label + what + (detail.empty() ? "" : (what.empty() ? " " : ": ") + detail));
                });
                out.jobs++;
                (be == emu::Backend::Ref ? p.ref : p.accel) = ticket;
            }
            pending.push_back(p);
        }
    }

    // Collect as the results arrive, watching for a stop request; on one,
    // cancel everything. Each pass either reports a target or waits 50 ms
    // on a job, and every job is bounded by its timeout.
    auto cancel_all = [&] {
        out.cancelled = true;
        for (const Pending &p : pending) {
            if (p.ref) fleet.cancel(p.ref);
            if (p.accel) fleet.cancel(p.accel);
        }
    };
    std::vector<size_t> slot(pending.size());
    {
        std::vector<size_t> next(plans.size(), 0);
        for (size_t k = 0; k < pending.size(); k++) slot[k] = next[pending[k].plan]++;
    }
    size_t left = pending.size();
    while (left > 0) {
        if (!out.cancelled && opt.should_stop && opt.should_stop()) cancel_all();
        bool reported = false;
        for (size_t k = 0; k < pending.size(); k++) {
            Pending &p = pending[k];
            if (p.reported) continue;
            if ((p.ref && !Executor::is_done(p.ref)) || (p.accel && !Executor::is_done(p.accel))) continue;
            TargetResult t = combine(p, host_out[p.plan], types[p.plan]);
            progress(p.plan, p.target,
                     t.parity ? "done: bit-exact" : "done: " + (t.error.empty() ? "outputs differ" : t.error));
            if (opt.on_result) opt.on_result(p.plan, t);
            out.plans[p.plan].results[slot[k]] = std::move(t);
            p.reported = true;
            reported = true;
            left--;
        }
        if (reported || left == 0) continue;
        for (const Pending &p : pending) {
            if (p.reported) continue;
            const Executor::Ticket &t = p.ref && !Executor::is_done(p.ref) ? p.ref : p.accel;
            if (t) Executor::wait_for(t, std::chrono::milliseconds(50));
            break;
        }
    }
    for (ValidateReport &r : out.plans) r.cancelled = out.cancelled;
    out.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

ValidateReport validate_plan(Executor &fleet, const std::vector<uint8_t> &plan, const std::vector<uint8_t> &input,
                             const ValidateOptions &opt) {
    MatrixReport m = validate_matrix(fleet, {MatrixPlan{"", plan, input}}, opt);
    ValidateReport r = std::move(m.plans.front());
    r.cancelled = m.cancelled;
    return r;
}

namespace {

nlohmann::json to_json(const TargetResult &t) {
    nlohmann::json j;
    j["target"] = t.target;
    j["board"] = t.board;
    j["parity"] = t.parity;
    j["ref_instructions"] = t.ref_instructions ? nlohmann::json(*t.ref_instructions) : nlohmann::json(nullptr);
    j["accel_instructions"] = t.accel_instructions ? nlohmann::json(*t.accel_instructions) : nlohmann::json(nullptr);
    j["fast_peak"] = t.fast_peak ? nlohmann::json(*t.fast_peak) : nlohmann::json(nullptr);
    j["first_mismatch"] = t.first_mismatch ? nlohmann::json(*t.first_mismatch) : nlohmann::json(nullptr);
    j["error"] = t.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(t.error);
    j["ref_matches_host"] = t.ref_matches_host;
    j["accel_matches_ref"] = t.accel_matches_ref;
    j["accel_kernel"] = t.accel_kernel;
    j["count_method"] = t.count_method.empty() ? nlohmann::json(nullptr) : nlohmann::json(t.count_method);
    nlohmann::json ops = nlohmann::json::array();
    for (const OpTypeCount &o : t.op_types) {
        nlohmann::json oj{{"op_type", o.op_type},
                          {"ops", o.ops},
                          {"ref_instructions", o.ref_instructions},
                          {"accel_instructions", o.accel_instructions}};
        oj["ratio"] = o.accel_instructions ? nlohmann::json(static_cast<double>(o.ref_instructions) /
                                                            static_cast<double>(o.accel_instructions))
                                           : nlohmann::json(nullptr);
        ops.push_back(oj);
    }
    j["op_types"] = ops;
    return j;
}

}  // namespace

std::string target_result_json(const TargetResult &t) { return to_json(t).dump(); }

std::string validate_to_json(const ValidateReport &r, int indent) {
    nlohmann::json j;
    j["results"] = nlohmann::json::array();
    for (const TargetResult &t : r.results) j["results"].push_back(to_json(t));
    if (!r.error.empty()) j["error"] = r.error;
    if (r.cancelled) j["cancelled"] = true;
    return j.dump(indent);
}

std::string validate_to_text(const ValidateReport &r) {
    std::ostringstream o;
    if (!r.error.empty()) o << "error: " << r.error << '\n';
    for (const TargetResult &t : r.results) {
        o << t.target << " (" << t.board << "): " << (t.parity ? "bit-exact" : "NOT bit-exact");
        if (t.first_mismatch) o << ", first mismatch at byte " << *t.first_mismatch;
        o << '\n';
        if (t.ref_instructions || t.accel_instructions) {
            o << "  instructions (" << (t.count_method == "timer" ? "cycle timer under -icount" : "exact")
              << "): reference " << (t.ref_instructions ? std::to_string(*t.ref_instructions) : "-")
              << ", accelerated " << (t.accel_instructions ? std::to_string(*t.accel_instructions) : "-");
            if (t.ref_instructions && t.accel_instructions && *t.accel_instructions)
                o << " (" << static_cast<double>(*t.ref_instructions) / static_cast<double>(*t.accel_instructions)
                  << "x)";
            o << '\n';
        }
        for (const OpTypeCount &op : t.op_types) {
            o << "    " << op.op_type << " x" << op.ops << ": " << op.ref_instructions << " / "
              << op.accel_instructions;
            if (op.accel_instructions)
                o << " = " << static_cast<double>(op.ref_instructions) / static_cast<double>(op.accel_instructions)
                  << "x";
            o << '\n';
        }
        if (t.fast_peak) o << "  fast_peak: " << *t.fast_peak << " bytes\n";
        if (!t.error.empty()) o << "  error: " << t.error << '\n';
    }
    return o.str();
}

std::string matrix_to_json(const MatrixReport &r, int indent) {
    nlohmann::json j;
    j["plans"] = nlohmann::json::array();
    size_t exact = 0, targets = 0;
    for (size_t i = 0; i < r.plans.size(); i++) {
        nlohmann::json p;
        p["plan"] = i < r.names.size() ? r.names[i] : std::string();
        p["results"] = nlohmann::json::array();
        for (const TargetResult &t : r.plans[i].results) {
            p["results"].push_back(to_json(t));
            targets++;
            if (t.parity) exact++;
        }
        if (!r.plans[i].error.empty()) p["error"] = r.plans[i].error;
        j["plans"].push_back(p);
    }
    j["summary"] = {{"plans", r.plans.size()}, {"targets", targets}, {"bit_exact", exact}, {"jobs", r.jobs},
                    {"wall_ms", r.wall_ms}};
    if (r.cancelled) j["cancelled"] = true;
    return j.dump(indent);
}

std::string matrix_to_text(const MatrixReport &r) {
    std::ostringstream o;
    size_t exact = 0, targets = 0;
    for (size_t i = 0; i < r.plans.size(); i++)
        for (const TargetResult &t : r.plans[i].results) {
            targets++;
            if (t.parity) exact++;
        }
    // The summary table: one row per plan and target.
    size_t w = 4;
    for (const std::string &n : r.names) w = std::max(w, n.size());
    auto pad = [](std::string s, size_t n) {
        if (s.size() < n) s.append(n - s.size(), ' ');
        return s;
    };
    auto num = [](const std::optional<uint64_t> &v) { return v ? std::to_string(*v) : std::string("-"); };
    o << pad("plan", w) << "  " << pad("target", 12) << "  " << pad("parity", 13) << "  " << pad("ref instr", 12)
      << "  " << pad("accel instr", 12) << "  " << pad("ratio", 7) << "  first mismatch\n";
    for (size_t i = 0; i < r.plans.size(); i++) {
        for (const TargetResult &t : r.plans[i].results) {
            std::string ratio = "-";
            if (t.ref_instructions && t.accel_instructions && *t.accel_instructions) {
                char b[32];
                std::snprintf(b, sizeof b, "%.2fx",
                              static_cast<double>(*t.ref_instructions) / static_cast<double>(*t.accel_instructions));
                ratio = b;
            }
            o << pad(r.names[i], w) << "  " << pad(t.target, 12) << "  "
              << pad(t.parity ? "bit-exact" : "NOT bit-exact", 13) << "  " << pad(num(t.ref_instructions), 12) << "  "
              << pad(num(t.accel_instructions), 12) << "  " << pad(ratio, 7) << "  "
              << (t.first_mismatch ? "byte " + std::to_string(*t.first_mismatch) : std::string("-")) << '\n';
            if (!t.error.empty()) o << pad("", w) << "  error: " << t.error << '\n';
        }
    }
    o << exact << " of " << targets << " bit-exact (" << r.plans.size() << " plans, " << r.jobs << " jobs, "
      << static_cast<long long>(r.wall_ms) << " ms)" << (r.cancelled ? ", cancelled" : "") << '\n';
    return o.str();
}

}  // namespace tigris::host
