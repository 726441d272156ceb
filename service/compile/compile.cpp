// compile.cpp - the budget scheduler of `tigris compile` (docs/compile.md).
//
// Two halves. The estimate (this file) groups operators into stages by a
// model of what the executor holds at once, and gives a lone operator that
// cannot fit a height-stripe record. The measurement (dry_run.cpp) then runs
// the real runtime on the candidate plan and writes what each stage reached
// into its peak: the executor caps every normal and banded stage at that
// peak (docs/runtime-semantics.md R2.4), so the plan behaves the same at its
// declared arena and at any larger one.
#include "tigris_compile/compile.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "dry_run.hpp"
#include "tigris_import/schedule.hpp"

extern "C" {
#include "tigris.h"
#include "tigris_trace.h"
}

namespace tigris::compile {

namespace pf = tigris::planfile;

namespace {

// The executor's allocation granule on the host, and the largest any compiled
// plan assumes (docs/runtime-semantics.md R1.2).
constexpr uint32_t kAlign = 32;
uint32_t align(uint64_t v) {
    const uint64_t a = (v + kAlign - 1) / kAlign * kAlign;
    return a > UINT32_MAX ? UINT32_MAX : (uint32_t)a;
}

std::string shape_text(const pf::Tensor &t) {
    std::string s;
    for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? "x" : "") + std::to_string(t.shape[i]);
    return s.empty() ? "scalar" : s;
}

bool is_spatial(uint8_t type) {
    return type == TIGRIS_OP_CONV || type == TIGRIS_OP_DEPTHWISE || type == TIGRIS_OP_MAX_POOL ||
           type == TIGRIS_OP_AVG_POOL;
}
bool is_unary_pointwise(uint8_t type) {
    switch (type) {
        case TIGRIS_OP_RELU: case TIGRIS_OP_RELU6: case TIGRIS_OP_SIGMOID: case TIGRIS_OP_TANH:
        case TIGRIS_OP_LEAKY_RELU: case TIGRIS_OP_HARDSWISH: case TIGRIS_OP_ABS: return true;
        default: return false;
    }
}
bool is_binary_pointwise(uint8_t type) {
    switch (type) {
        case TIGRIS_OP_ADD: case TIGRIS_OP_SUB: case TIGRIS_OP_MUL: case TIGRIS_OP_MAXIMUM:
        case TIGRIS_OP_MINIMUM: return true;
        default: return false;
    }
}

// What the scheduler knows about the lowered graph.
struct Graph {
    const pf::PlanBuilder &b;
    std::vector<int> last_reader;  // op index of a tensor's last reader, -1 = none
    explicit Graph(const pf::PlanBuilder &pb) : b(pb), last_reader(pb.tensors.size(), -1) {
        for (size_t o = 0; o < b.ops.size(); ++o)
            for (uint16_t t : b.ops[o].inputs) last_reader[t] = std::max(last_reader[t], (int)o);
    }
    uint32_t bytes(uint16_t t) const { return align(b.tensor_bytes(t)); }
    bool model_output(uint16_t t) const { return b.tensors[t].flags & TIGRIS_TENSOR_MODEL_OUTPUT; }

    // What a normal stage of ops [first, last] holds at most, by the rules of
    // docs/runtime-semantics.md R2.5: every stage input loaded whole first,
    // each operator's outputs allocated before it runs, inputs released at
    // their last use inside the stage, stage outputs kept to the end. Also
    // the stage's input and output counts (the format caps both).
    struct Estimate {
        uint32_t peak = 0;
        size_t inputs = 0, outputs = 0;
    };
    Estimate normal(uint16_t first, uint16_t last) const {
        std::set<uint16_t> written, ins;
        for (uint16_t o = first; o <= last; ++o) {
            for (uint16_t t : b.ops[o].inputs)
                if (!written.count(t)) ins.insert(t);
            for (uint16_t t : b.ops[o].outputs) written.insert(t);
        }
        auto stage_output = [&](uint16_t t) { return model_output(t) || last_reader[t] > (int)last; };
        Estimate e;
        e.inputs = ins.size();
        for (uint16_t t : written) e.outputs += stage_output(t);
        uint64_t live = 0;
        for (uint16_t t : ins) live += bytes(t);
        uint64_t peak = live;
        for (uint16_t o = first; o <= last; ++o) {
            for (uint16_t t : b.ops[o].outputs) live += bytes(t);
            peak = std::max(peak, live);
            std::set<uint16_t> done;
            for (uint16_t t : b.ops[o].inputs) {
                if (done.count(t) || stage_output(t)) continue;
                int last_in_stage = std::min(last_reader[t], (int)last);
                if (last_in_stage == (int)o) {
                    live -= bytes(t);
                    done.insert(t);
                }
            }
        }
        e.peak = peak > UINT32_MAX ? UINT32_MAX : (uint32_t)peak;
        return e;
    }

    // A lone operator the executor's STRIPE path can band (R2.7.1, and the
    // loader's P7.3/F7 contracts): rank-4 tensors, one spatial op or a
    // pointwise one, the operands cut along the output's rows (or broadcast
    // with H = 1), more than one output row.
    bool stripe_ok(uint16_t o) const {
        const pf::Op &op = b.ops[o];
        if (op.outputs.size() != 1 || op.inputs.empty()) return false;
        const pf::Tensor &out = b.tensors[op.outputs[0]];
        if (out.shape.size() != 4 || out.shape[1] < 2) return false;
        for (uint16_t t : op.inputs)
            if (b.tensors[t].shape.size() != 4) return false;
        const pf::Tensor &in0 = b.tensors[op.inputs[0]];
        if (is_spatial(op.type)) return op.inputs.size() == 1;
        if (is_unary_pointwise(op.type)) return op.inputs.size() == 1 && in0.shape[1] == out.shape[1];
        if (is_binary_pointwise(op.type)) {
            if (op.inputs.size() != 2 || in0.shape[1] != out.shape[1]) return false;
            const int32_t h2 = b.tensors[op.inputs[1]].shape[1];
            return h2 == out.shape[1] || h2 == 1;
        }
        return false;
    }
    int32_t eff_k(const pf::Op &op) const {
        const int32_t d = op.spatial.dilation_h ? op.spatial.dilation_h : 1;
        return (op.spatial.kernel_h - 1) * d + 1;
    }
    // The stripe path's working set for e output rows (its own formula, in
    // core/src/executor/stripe.c, restated: each operand's rows rounded up).
    uint32_t stripe_ws(uint16_t o, uint32_t e) const {
        const pf::Op &op = b.ops[o];
        auto rows = [&](uint16_t t, uint32_t r) {
            const uint32_t h = (uint32_t)b.tensors[t].shape[1];
            return align((uint64_t)(b.tensor_bytes(t) / h) * std::min(r, h));
        };
        uint32_t in_rows = e;
        if (is_spatial(op.type)) in_rows = (e - 1) * op.spatial.stride_h + (uint32_t)eff_k(op);
        uint64_t total = 0;
        std::set<uint16_t> seen;
        for (uint16_t t : op.inputs)
            if (seen.insert(t).second) total += rows(t, in_rows);
        total += rows(op.outputs[0], e);
        return total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
    }
    uint32_t op_weights(uint16_t o) const {
        uint64_t w = 0;
        if (b.ops[o].weight >= 0) w += b.weights[(size_t)b.ops[o].weight].bytes.size();
        if (b.ops[o].bias >= 0) w += b.weights[(size_t)b.ops[o].bias].bytes.size();
        return (uint32_t)std::min<uint64_t>(w, UINT32_MAX);
    }
    // The smallest fast arena op o can run in alone, and why.
    std::pair<uint32_t, std::string> unit(uint16_t o) const {
        const pf::Op &op = b.ops[o];
        const char *name = tigris_op_type_name(op.type);
        std::string who = std::string(name ? name : "op") + " (op " + std::to_string(o) + ")";
        if (stripe_ok(o)) return {stripe_ws(o, 1), who + " needs one output row band of " + shape_text(b.tensors[op.outputs[0]])};
        std::string what = who + " reads";
        for (size_t i = 0; i < op.inputs.size(); ++i) what += (i ? ", " : " ") + shape_text(b.tensors[op.inputs[i]]);
        what += " whole and writes";
        for (size_t i = 0; i < op.outputs.size(); ++i) what += (i ? ", " : " ") + shape_text(b.tensors[op.outputs[i]]);
        return {normal(o, o).peak, what};
    }
};

struct Group {
    uint16_t first = 0, last = 0;
    bool stripe = false;
    uint32_t tile_h = 0;
};

// Greedy temporal partitioning under `room` bytes of activations: a stage
// grows by the next operator while the estimate fits (and, with compressed
// weights, while its weight block stays within max_block); a lone operator
// that does not fit becomes a stripe with the tallest band that fits.
std::vector<Group> partition(const Graph &g, uint32_t room, uint32_t max_block) {
    std::vector<Group> out;
    const uint16_t n = (uint16_t)g.b.ops.size();
    auto weights_of = [&](uint16_t a, uint16_t z) {
        uint64_t w = 0;
        for (uint16_t o = a; o <= z; ++o) w += g.op_weights(o);
        return w;
    };
    for (uint16_t o = 0; o < n; ++o) {
        if (!out.empty() && !out.back().stripe) {
            const Graph::Estimate e = g.normal(out.back().first, o);
            if (e.peak <= room && (!max_block || align(weights_of(out.back().first, o)) <= max_block) &&
                e.inputs <= TIGRIS_MAX_STAGE_INPUTS && e.outputs <= TIGRIS_MAX_STAGE_OUTPUTS) {
                out.back().last = o;
                continue;
            }
        }
        Group grp{o, o, false, 0};
        if (g.normal(o, o).peak > room && g.stripe_ok(o)) {
            const uint32_t h = (uint32_t)g.b.tensors[g.b.ops[o].outputs[0]].shape[1];
            uint32_t lo = 0, hi = h;
            while (lo < hi) {
                const uint32_t mid = lo + (hi - lo + 1) / 2;
                if (g.stripe_ws(o, mid) <= room) lo = mid;
                else hi = mid - 1;
            }
            if (lo > 0) {
                grp.stripe = true;
                grp.tile_h = lo;
            }
        }
        out.push_back(grp);
    }
    return out;
}

// A streamed chain: stages [head, head + len) run band by band together
// (docs/runtime-semantics.md R2.8), so no intermediate tensor is held whole.
struct Chain {
    size_t head = 0, len = 0;
    uint32_t tile_h = 0;  // output rows per band of the last stage; 0 = its full height
    bool line_buffered = true;
};

uint32_t last_rows(const pf::PlanBuilder &b, const std::vector<Group> &groups, const Chain &c) {
    const Group &last = groups[c.head + c.len - 1];
    return (uint32_t)b.tensors[b.ops[last.last].outputs[0]].shape[1];
}

// The stage table, stripe records with the facts the loader derives
// (docs/format.md F5), chains, and every stage capped at `cap[s]`.
void apply(pf::PlanBuilder &b, const Graph &g, const std::vector<Group> &groups, const std::vector<uint32_t> &cap,
           const std::vector<Chain> &chains) {
    std::vector<std::vector<uint16_t>> ops;
    for (const Group &grp : groups) {
        ops.emplace_back();
        for (uint16_t o = grp.first; o <= grp.last; ++o) ops.back().push_back(o);
    }
    import::set_stages(b, ops);
    b.tiles.clear();
    std::vector<bool> chained(groups.size(), false);
    for (const Chain &c : chains) {
        for (size_t m = c.head; m < c.head + c.len; ++m) {
            chained[m] = true;
            b.stages[m].chain_id = (uint16_t)c.head;
            b.stages[m].chain_len = (uint16_t)c.len;
        }
        pf::Stage &head = b.stages[c.head];
        head.chain_tile_h = (uint16_t)std::min<uint32_t>(c.tile_h ? c.tile_h : last_rows(b, groups, c), 65535);
        // Line buffers keep the rows neighbouring bands share instead of
        // computing them again (no extra MACs).
        head.flags = c.line_buffered ? TIGRIS_STAGE_LINE_BUFFERED : 0;
    }
    uint32_t top = 0;
    for (size_t s = 0; s < groups.size(); ++s) {
        pf::Stage &st = b.stages[s];
        st.peak = std::max<uint32_t>(cap[s], 1);  // 0 would mean "uncapped"
        top = std::max(top, st.peak);
        if (!groups[s].stripe || chained[s]) continue;  // chain members carry no tile record
        const pf::Op &op = b.ops[groups[s].first];
        const uint32_t h = (uint32_t)b.tensors[op.outputs[0]].shape[1];
        const bool sp = is_spatial(op.type);
        const int32_t k = sp ? g.eff_k(op) : 1;
        const int32_t halo = sp ? std::max<int32_t>(0, k - op.spatial.stride_h) : 0;
        const uint32_t th = std::min(groups[s].tile_h, h);
        pf::TilePlan tp = pf::PlanBuilder::stripe_tile(th, h, (uint16_t)halo, (uint16_t)k);
        tp.choices.tiled_peak_bytes = st.peak;
        st.tile = b.add_tile(tp);
    }
    b.scheduled_peak = top;
    b.budget = top;
    b.peak = top;
}

// Whether stages [head, last] make a chain the executor and the loader
// accept (R2.8 and docs/format.md F6): chainable operators on rank-4
// tensors, every member reading only what the chain produced, non-spatial
// operators keeping the row count, and nothing written before the last
// member read outside the chain.
struct ChainRules {
    const pf::PlanBuilder &b;
    const Graph &g;
    const std::vector<Group> &groups;
    std::vector<int> producer;
    ChainRules(const pf::PlanBuilder &pb, const Graph &gr, const std::vector<Group> &gs)
        : b(pb), g(gr), groups(gs), producer(pb.tensors.size(), -1) {
        for (size_t o = 0; o < b.ops.size(); ++o)
            for (uint16_t t : b.ops[o].outputs) producer[t] = (int)o;
    }
    bool rank4(uint16_t t) const { return b.tensors[t].shape.size() == 4; }
    bool stage_ok(size_t s) const {
        const Group &grp = groups[s];
        int spatial = 0;
        for (uint16_t o = grp.first; o <= grp.last; ++o) {
            const pf::Op &op = b.ops[o];
            const bool sp = is_spatial(op.type);
            if (!sp && !is_unary_pointwise(op.type) && !is_binary_pointwise(op.type)) return false;
            spatial += sp;
            for (uint16_t t : op.inputs)
                if (!rank4(t) || (!sp && b.tensors[t].shape[1] != b.tensors[op.outputs[0]].shape[1])) return false;
            for (uint16_t t : op.outputs)
                if (!rank4(t)) return false;
        }
        return spatial <= TIGRIS_MAX_SPATIAL_OPS_PER_STAGE;
    }
    bool member_ok(size_t s, size_t head) const {
        for (uint16_t o = groups[s].first; o <= groups[s].last; ++o)
            for (uint16_t t : b.ops[o].inputs)
                if (producer[t] < (int)groups[head].first) return false;
        return true;
    }
    bool close_ok(size_t head, size_t last) const {
        for (size_t m = head; m < last; ++m)
            for (uint16_t o = groups[m].first; o <= groups[m].last; ++o)
                for (uint16_t t : b.ops[o].outputs)
                    if (g.model_output(t) || g.last_reader[t] > (int)groups[last].last) return false;
        return true;
    }
    bool valid(size_t head, size_t last) const {
        if (last <= head || last - head + 1 > TIGRIS_MAX_CHAIN_STAGES) return false;
        for (size_t s = head; s <= last; ++s)
            if (!stage_ok(s) || (s > head && !member_ok(s, head))) return false;
        return close_ok(head, last);
    }
    // The longest valid chains, left to right.
    std::vector<Chain> find() const {
        std::vector<Chain> out;
        for (size_t s = 0; s < groups.size();) {
            if (!stage_ok(s)) {
                ++s;
                continue;
            }
            size_t e = s;
            while (e + 1 < groups.size() && e + 2 - s <= TIGRIS_MAX_CHAIN_STAGES && stage_ok(e + 1) && member_ok(e + 1, s))
                ++e;
            while (e > s && !close_ok(s, e)) --e;
            if (e > s) {
                out.push_back(Chain{s, e - s + 1, 0, true});
                s = e + 1;
            } else {
                ++s;
            }
        }
        return out;
    }
    // A chain whose band does not fit, cut in two valid halves (none when
    // it cannot be cut).
    std::vector<Chain> split(const Chain &c) const {
        for (size_t cut = c.len / 2; cut >= 1 && cut < c.len; ++cut) {
            const size_t a0 = c.head, a1 = c.head + cut - 1, b0 = c.head + cut, b1 = c.head + c.len - 1;
            std::vector<Chain> out;
            if (a1 > a0 && valid(a0, a1)) out.push_back(Chain{a0, cut, 0, true});
            if (b1 > b0 && valid(b0, b1)) out.push_back(Chain{b0, c.len - cut, 0, true});
            if (!out.empty()) return out;
        }
        return {};
    }
};

uint32_t naive_peak_of(const pf::PlanBuilder &b) {
    uint64_t sum = 0;
    for (size_t t = 0; t < b.tensors.size(); ++t) sum += align(b.tensor_bytes(t));
    return sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
}

import::Options import_options(const Options &opt) {
    import::Options io;
    io.schema = 11;
    io.lz4 = opt.lz4;
    io.xip = opt.xip;
    io.model_name = opt.model_name;
    return io;
}

// One schedule measured to the end: caps start at the estimate of each
// normal stage (a stripe: the room it was banded for) and then follow what
// the runtime reached until they stop moving. A normal stage capped at its
// live set compacts instead of filling the whole budget; one whose output
// still fell back to slow (the estimate was short) gets the whole room back.
// Chains first run in the room itself so the executor picks each band
// height; that height is then written into the chain.
struct Outcome {
    bool ok = false;
    std::string error;
    int failed_stage = -1;
    std::vector<uint8_t> plan;
    std::vector<uint32_t> cap;
    std::vector<Chain> chains;
    DryRun at;  // measured at exactly the declared arena
};

bool loads(const std::vector<uint8_t> &bytes) {
    std::vector<uint8_t> copy(bytes);
    tigris_plan_t plan;
    return tigris_plan_load(copy.data(), (uint32_t)copy.size(), &plan) == TIGRIS_OK;
}

Outcome schedule(pf::PlanBuilder &b, const Graph &g, const std::vector<Group> &groups, std::vector<Chain> chains,
                 uint32_t room, uint32_t budget, bool line_buffers = true) {
    for (Chain &c : chains) c.line_buffered = line_buffers;
    Outcome out;
    std::vector<uint32_t> cap(groups.size(), room);
    std::vector<bool> chained(groups.size(), false);
    for (const Chain &c : chains)
        for (size_t m = c.head; m < c.head + c.len; ++m) chained[m] = true;
    for (size_t s = 0; s < groups.size(); ++s)
        if (!groups[s].stripe && !chained[s]) cap[s] = std::min(room, g.normal(groups[s].first, groups[s].last).peak);
    if (!chains.empty()) {
        apply(b, g, groups, cap, chains);
        std::vector<uint8_t> bytes = b.build();
        if (!loads(bytes)) {
            out.error = "the loader refuses the chains";
            return out;
        }
        const DryRun pick = dry_run(bytes, room);
        if (!pick.ok) {
            out.error = "the runtime cannot run the schedule: " + pick.error;
            out.failed_stage = pick.failed_stage;
            return out;
        }
        for (Chain &c : chains) {
            const uint32_t rows = last_rows(b, groups, c), n = std::max<uint32_t>(pick.stage_tiles[c.head], 1);
            c.tile_h = (rows + n - 1) / n;  // the same band count, bands no taller than the executor chose
        }
    }
    std::vector<uint32_t> last_good;
    bool settled = false;
    for (int round = 0; round < 6 && !settled; ++round) {
        apply(b, g, groups, cap, chains);
        std::vector<uint8_t> bytes = b.build();
        if (!loads(bytes)) {
            out.error = "the loader refuses the schedule";
            return out;
        }
        const DryRun dr = dry_run(bytes, 0);
        if (!dr.ok) {
            if (last_good.empty()) {
                out.error = "the runtime cannot run the schedule: " + dr.error;
                out.failed_stage = dr.failed_stage;
                return out;
            }
            cap = last_good;  // the previous round ran: keep its caps
            settled = true;
            break;
        }
        last_good = cap;
        bool moved = false;
        for (size_t s = 0; s < groups.size(); ++s) {
            uint32_t want = std::max<uint32_t>(dr.stage_peak[s] - dr.stage_weights[s], 1);
            if (dr.stage_overflow[s] && cap[s] < room && !chained[s]) want = room;
            if (want != cap[s]) moved = true;
            cap[s] = want;
        }
        settled = !moved;
    }
    if (!settled) cap = last_good;  // caps that were run, not ones only predicted
    apply(b, g, groups, cap, chains);
    out.plan = b.build();
    if (!loads(out.plan)) {
        out.error = "the loader refuses the schedule";
        return out;
    }
    // The plan's own figures, measured at exactly its declared arena: the
    // invariant a compiled plan promises.
    out.at = dry_run(out.plan, 0, /*at_declared=*/true);
    if (!out.at.ok) {
        out.error = "the runtime cannot run the schedule at its declared arena: " + out.at.error;
        out.failed_stage = out.at.failed_stage;
        return out;
    }
    if (out.at.fast_required > budget) {
        size_t worst = 0;
        for (size_t s = 0; s < groups.size(); ++s)
            if (cap[s] > cap[worst]) worst = s;
        out.error = "the schedule needs " + std::to_string(out.at.fast_required) + " bytes";
        out.failed_stage = (int)worst;
        return out;
    }
    if (out.at.fast_peak > out.at.fast_required) {
        out.error = "a run reached " + std::to_string(out.at.fast_peak) + " bytes above its declared " +
                    std::to_string(out.at.fast_required);
        return out;
    }
    out.cap = cap;
    out.chains = chains;
    out.ok = true;
    return out;
}

// Control-flow graphs are scheduled by `tigris import` only (one operator
// per control stage, every graph untiled): refused by name here.
void refuse_subgraphs(const pf::PlanBuilder &b) {
    if (!b.subgraphs.empty())
        throw import::ImportError(import::Refusal{
            import::RefusalKind::UnsupportedOperator,
            "the model has IF / WHILE subgraphs, which tigris compile does not tile or chain yet (tigris import "
            "lowers them)"});
}

Result compile_lowered(import::Lowered low, const Options &opt) {
    pf::PlanBuilder &b = low.builder;
    refuse_subgraphs(b);
    const Graph g(b);
    Report r;
    r.model_name = b.model_name;
    r.ops = b.ops.size();
    r.tensors = b.tensors.size();
    r.fast_budget = opt.fast_budget;
    r.slow_budget = opt.slow_budget;
    r.naive_peak = naive_peak_of(b);
    for (size_t t = 0; t < b.tensors.size(); ++t) r.largest_tensor = std::max(r.largest_tensor, b.tensor_bytes(t));
    if (opt.fast_budget == 0) throw BudgetError("the fast budget must be more than 0 bytes", 0, "");

    // With compressed weights every stage's block is decoded into the fast
    // arena beside its activations, and the runtime asks for the largest
    // block on top of the largest stage (docs/runtime-semantics.md R1.12):
    // stages are limited to the largest single operator's block, the rest of
    // the budget is the room for activations.
    uint32_t block = 0;
    if (opt.lz4)
        for (uint16_t o = 0; o < b.ops.size(); ++o) block = std::max(block, align(g.op_weights(o)));

    // The operator that sets the floor, for the refusal.
    uint32_t unit_bytes = 0;
    std::string unit_what;
    for (uint16_t o = 0; o < b.ops.size(); ++o) {
        auto u = g.unit(o);
        u.first += block;
        if (u.first > unit_bytes) {
            unit_bytes = u.first;
            unit_what = u.second + (block ? " (beside a " + std::to_string(block) + "-byte decoded weight block)" : "");
        }
    }
    auto refuse = [&](const std::string &why) -> BudgetError {
        return BudgetError("fast budget " + std::to_string(opt.fast_budget) + " bytes (" + kib(opt.fast_budget) +
                               ") cannot be met: " + why + "; minimum execution unit is " + std::to_string(unit_bytes) +
                               " bytes: " + unit_what,
                           unit_bytes, unit_what);
    };
    if (unit_bytes > opt.fast_budget) throw refuse("an operator cannot run in it");
    std::vector<Group> groups = partition(g, opt.fast_budget - block, block);
    // A one-stage plan reads its inputs in place (docs/runtime-semantics.md
    // R2.12.2): inputs and outputs then sit in fast outside the stage cap,
    // which the measured caps do not describe. Two stages keep every plan
    // under the rules the caps model.
    if (groups.size() == 1 && groups[0].last > groups[0].first) {
        Group tail{groups[0].last, groups[0].last, false, 0};
        groups[0].last--;
        groups.push_back(tail);
    }

    const uint32_t room = opt.fast_budget - block;
    Outcome best = schedule(b, g, groups, {}, room, opt.fast_budget);
    // Chains stream what stripes spill whole; they are kept when they run
    // within the budget and move fewer bytes through slow memory. LZ4 plans
    // are not chained: a chain decodes all its members' blocks at once.
    if (!opt.lz4 && opt.chains) {
        const ChainRules rules(b, g, groups);
        std::vector<Chain> chains = rules.find();
        for (int tries = 0; !chains.empty() && tries < 64; ++tries) {
            Outcome c = schedule(b, g, groups, chains, room, opt.fast_budget, opt.line_buffers);
            if (c.ok) {
                if (!best.ok || c.at.loads_bytes + c.at.spills_bytes < best.at.loads_bytes + best.at.spills_bytes)
                    best = std::move(c);
                break;
            }
            // Cut the chain that failed in two (or give up on chains when
            // no chain is named).
            auto it = std::find_if(chains.begin(), chains.end(), [&](const Chain &ch) {
                return c.failed_stage >= (int)ch.head && c.failed_stage < (int)(ch.head + ch.len);
            });
            if (it == chains.end()) break;
            const std::vector<Chain> halves = rules.split(*it);
            it = chains.erase(it);
            chains.insert(it, halves.begin(), halves.end());
        }
    }
    if (!best.ok) {
        const int fs = best.failed_stage;
        const std::string where = fs >= 0 && (size_t)fs < groups.size()
                                      ? " in stage " + std::to_string(fs) + " (ops " +
                                            std::to_string(groups[(size_t)fs].first) + ".." +
                                            std::to_string(groups[(size_t)fs].last) + ")"
                                      : "";
        throw refuse(best.error + where);
    }
    const DryRun &at = best.at;
    const std::vector<uint32_t> &cap = best.cap;
    Result res;
    res.plan = std::move(best.plan);
    r.fast_required = at.fast_required;
    r.fast_peak = at.fast_peak;
    r.slow_peak = at.slow_peak;
    if (opt.slow_budget && r.slow_peak > opt.slow_budget)
        throw BudgetError("slow budget " + std::to_string(opt.slow_budget) + " bytes cannot be met: the schedule for " +
                              kib(opt.fast_budget) + " fast holds " + std::to_string(r.slow_peak) + " bytes in slow memory",
                          0, "");
    r.loads_bytes = at.loads_bytes;
    r.spills_bytes = at.spills_bytes;
    r.overflows = at.overflows;
    r.stages = (uint32_t)groups.size();
    r.chains = (uint32_t)best.chains.size();
    std::vector<int> chain_of(groups.size(), -1);
    for (size_t c = 0; c < best.chains.size(); ++c)
        for (size_t m = best.chains[c].head; m < best.chains[c].head + best.chains[c].len; ++m) chain_of[m] = (int)c;
    for (size_t s = 0; s < groups.size(); ++s) {
        StageInfo si;
        for (uint16_t o = groups[s].first; o <= groups[s].last; ++o) si.ops.push_back(o);
        si.peak = cap[s];
        si.weights = at.stage_weights[s];
        si.kind = chain_of[s] >= 0                                ? "chain"
                  : at.stage_path[s] == TIGRIS_TRACE_PATH_NORMAL ? "normal"
                                                                  : "stripe";
        si.tiles = at.stage_tiles[s];
        if (chain_of[s] >= 0 && best.chains[(size_t)chain_of[s]].head == s)
            si.tile_h = best.chains[(size_t)chain_of[s]].tile_h;  // the head states the band height
        r.tiled += groups[s].stripe && chain_of[s] < 0;
        r.stage_list.push_back(si);
    }
    r.plan_bytes = res.plan.size();
    res.report = r;
    return res;
}

}  // namespace

Result compile_model(const tflite::Model &m, const Options &opt) {
    return compile_lowered(import::lower_model(m, import_options(opt)), opt);
}

uint32_t smallest_budget(const tflite::Model &m, const Options &opt) {
    const import::Lowered low = import::lower_model(m, import_options(opt));
    refuse_subgraphs(low.builder);
    const Graph g(low.builder);
    uint32_t lo = 0;
    for (uint16_t o = 0; o < low.builder.ops.size(); ++o) lo = std::max(lo, g.unit(o).first);
    uint32_t hi = std::max(naive_peak_of(low.builder), lo) * 2 + 4096;
    auto fits = [&](uint32_t budget) {
        Options o = opt;
        o.fast_budget = budget;
        try {
            compile_lowered(low, o);
            return true;
        } catch (const BudgetError &) {
            return false;
        }
    };
    if (!fits(hi)) return 0;
    // Budgets on the 32-byte granule: finer steps change no allocation.
    lo = std::max<uint32_t>(lo / kAlign, 1);
    hi /= kAlign;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (fits(mid * kAlign)) hi = mid;
        else lo = mid + 1;
    }
    return hi * kAlign;
}

bool parse_size(const std::string &s, uint64_t *out) {
    if (s.empty()) return false;
    size_t used = 0;
    double v = 0;
    try {
        v = std::stod(s, &used);
    } catch (...) {
        return false;
    }
    if (!(v >= 0)) return false;
    std::string unit = s.substr(used);
    double mul = 1;
    if (unit == "K" || unit == "k" || unit == "KiB") mul = 1024.0;
    else if (unit == "M" || unit == "MiB") mul = 1024.0 * 1024.0;
    else if (unit == "G" || unit == "GiB") mul = 1024.0 * 1024.0 * 1024.0;
    else if (!unit.empty()) return false;
    const double bytes = std::round(v * mul);
    if (bytes > 4294967295.0) return false;
    *out = (uint64_t)bytes;
    return true;
}

std::string kib(uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f KiB", (double)bytes / 1024.0);
    return buf;
}

}  // namespace tigris::compile
