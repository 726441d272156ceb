// validate.cpp - `tigris validate` and the Validate RPC: on every asked board,
// run the plan with the reference and the accelerated backend; compare both
// to each other and to the host's own run; report instruction counts.
#include "tigris_host/validate.hpp"

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

using emu::Fleet;
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

ValidateReport validate_plan(Fleet &fleet, const std::vector<uint8_t> &plan, const std::vector<uint8_t> &input,
                             const ValidateOptions &opt) {
    ValidateReport rep;
    auto targets = resolve_targets(opt.targets, rep.error);
    if (!targets) return rep;
    auto progress = [&opt](const std::string &t, const std::string &s) {
        if (opt.progress) opt.progress(t, s);
    };

    // The host's own run is the yardstick; a plan the host refuses is not
    // sent to any board.
    RunResult host = run_plan(plan, input);
    if (!host.ok()) {
        rep.error = "the host run refuses this plan: " + host.error;
        for (const std::string &name : *targets) {
            TargetResult t;
            t.target = name;
            t.board = emu::find_board(name)->board;
            t.error = rep.error;
            rep.results.push_back(t);
        }
        return rep;
    }

    struct Pending {
        std::string target;
        Fleet::Ticket ref, accel;
    };
    std::vector<Pending> pending;
    for (const std::string &name : *targets) {
        Pending p{name, nullptr, nullptr};
        for (emu::Backend be : {emu::Backend::Ref, emu::Backend::Accel}) {
            emu::JobSpec spec;
            spec.target = name;
            spec.plan = plan;
            spec.input = input;
            spec.backend = be;
            spec.timeout = opt.timeout;
            const std::string label = emu::backend_name(be);
            progress(name, label + " queued");
            auto ticket = fleet.submit(std::move(spec), [progress, name, label](Fleet::Event e) {
                progress(name, label + (e == Fleet::Event::Started ? " running" : " finished"));
            });
            (be == emu::Backend::Ref ? p.ref : p.accel) = ticket;
        }
        pending.push_back(p);
    }

    // Wait, watching for a stop request; on one, cancel everything.
    auto wait = [&](const Fleet::Ticket &t) {
        while (!fleet.wait_for(t, std::chrono::milliseconds(50))) {
            if (!rep.cancelled && opt.should_stop && opt.should_stop()) {
                rep.cancelled = true;
                for (const Pending &p : pending) {
                    fleet.cancel(p.ref);
                    fleet.cancel(p.accel);
                }
            }
        }
        return fleet.wait(t);
    };

    std::vector<uint8_t> types;  // op type by op index
    if (const auto lp = LoadedPlan::load(plan))
        for (uint16_t i = 0; i < lp->plan().header->num_ops; i++) types.push_back(lp->plan().ops[i].op_type);
    for (const Pending &p : pending) {
        const emu::Board *b = emu::find_board(p.target);
        TargetResult t;
        t.target = p.target;
        t.board = b->board;
        JobResult ref = wait(p.ref);
        JobResult acc = wait(p.accel);
        if (!ref.ok()) add_error(t, "reference run", ref);
        if (!acc.ok()) add_error(t, "accelerated run", acc);
        t.ref_instructions = ref.run_instructions;
        t.accel_instructions = acc.run_instructions;
        t.accel_kernel = acc.kernel;
        t.count_method = ref.count_method.empty() ? acc.count_method : ref.count_method;
        if (acc.ok()) t.fast_peak = acc.fast_peak;
        else if (ref.ok()) t.fast_peak = ref.fast_peak;
        if (ref.ok()) t.ref_matches_host = !first_difference(ref.outputs, host.outputs);
        if (ref.ok() && acc.ok()) t.accel_matches_ref = !first_difference(acc.outputs, ref.outputs);
        if (acc.ok() && ref.ok() && !t.accel_matches_ref) t.first_mismatch = first_difference(acc.outputs, ref.outputs);
        else if (ref.ok() && !t.ref_matches_host) t.first_mismatch = first_difference(ref.outputs, host.outputs);
        else if (acc.ok() && !ref.ok()) t.first_mismatch = first_difference(acc.outputs, host.outputs);
        t.parity = ref.ok() && acc.ok() && t.ref_matches_host && t.accel_matches_ref;

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
        progress(p.target, t.parity ? "done: bit-exact" : "done: " + (t.error.empty() ? "outputs differ" : t.error));
        rep.results.push_back(std::move(t));
    }
    return rep;
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

}  // namespace tigris::host
