// schedule.cpp - greedy stage grouping for `tigris import`.
#include "tigris_import/schedule.hpp"

#include <algorithm>
#include <set>

namespace tigris::import {

namespace pf = tigris::planfile;

static uint32_t round32(uint32_t v) { return (v + 31u) & ~31u; }

uint32_t working_set(const pf::PlanBuilder &b, const std::vector<uint16_t> &ops) {
    std::set<uint16_t> touched;
    for (uint16_t o : ops) {
        for (uint16_t t : b.ops[o].inputs) touched.insert(t);
        for (uint16_t t : b.ops[o].outputs) touched.insert(t);
    }
    uint64_t sum = 0;
    for (uint16_t t : touched) sum += round32(b.tensor_bytes(t));
    return sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
}

static bool is_control(const pf::Op &o) { return o.type == TIGRIS_OP_IF || o.type == TIGRIS_OP_WHILE; }

std::vector<StageReport> schedule_stages(pf::PlanBuilder &b, uint32_t budget) {
    // With control flow, b.subgraphs holds each graph's operator range
    // (first_stage = first operator, num_stages = operator count, as
    // lower_model leaves them): no stage spans two graphs, and an IF or
    // WHILE is alone in its stage (docs/format.md P12).
    std::vector<bool> graph_start(b.ops.size(), false);
    for (const pf::Subgraph &g : b.subgraphs)
        if (g.first_stage < b.ops.size()) graph_start[g.first_stage] = true;
    std::vector<std::vector<uint16_t>> groups;
    for (uint16_t o = 0; o < b.ops.size(); ++o) {
        const bool alone = is_control(b.ops[o]) || graph_start[o] ||
                           (!groups.empty() && is_control(b.ops[groups.back().back()]));
        if (!groups.empty() && budget > 0 && !alone) {
            std::vector<uint16_t> grown = groups.back();
            grown.push_back(o);
            if (working_set(b, grown) <= budget) {
                groups.back() = std::move(grown);
                continue;
            }
        }
        groups.push_back({o});
    }
    set_stages(b, groups);
    for (pf::Subgraph &g : b.subgraphs) {  // operator ranges -> stage ranges
        const uint16_t first_op = g.first_stage, end_op = (uint16_t)(g.first_stage + g.num_stages);
        uint16_t first = 0, count = 0;
        bool seen = false;
        for (size_t s = 0; s < groups.size(); ++s)
            if (groups[s].front() >= first_op && groups[s].front() < end_op) {
                if (!seen) first = (uint16_t)s;
                seen = true;
                ++count;
            }
        g.first_stage = seen ? first : (uint16_t)groups.size();
        g.num_stages = count;
    }
    std::vector<StageReport> out;
    for (pf::Stage &st : b.stages) {
        st.peak = working_set(b, st.ops);
        out.push_back(StageReport{st.ops, st.peak});
    }
    return out;
}

void set_stages(pf::PlanBuilder &b, const std::vector<std::vector<uint16_t>> &groups) {
    // Last reader of every tensor, by stage, to find stage outputs.
    std::vector<int> last_read(b.tensors.size(), -1);
    for (size_t s = 0; s < groups.size(); ++s)
        for (uint16_t o : groups[s])
            for (uint16_t t : b.ops[o].inputs) last_read[t] = std::max(last_read[t], (int)s);
    // A control-flow graph's results are read by the operator that runs it.
    std::vector<bool> graph_out(b.tensors.size(), false);
    for (const pf::Subgraph &g : b.subgraphs)
        for (uint16_t t : g.outputs)
            if (t < graph_out.size()) graph_out[t] = true;

    b.stages.clear();
    for (size_t s = 0; s < groups.size(); ++s) {
        std::set<uint16_t> written;
        for (uint16_t o : groups[s])
            for (uint16_t t : b.ops[o].outputs) written.insert(t);
        std::vector<uint16_t> ins, outs;
        for (uint16_t o : groups[s])
            for (uint16_t t : b.ops[o].inputs)
                if (!written.count(t) && std::find(ins.begin(), ins.end(), t) == ins.end()) ins.push_back(t);
        for (uint16_t o : groups[s])
            for (uint16_t t : b.ops[o].outputs) {
                // A state's next value is read by the runtime after the last stage (R2.11).
                const bool model_out = (b.tensors[t].flags & (TIGRIS_TENSOR_MODEL_OUTPUT | TIGRIS_TENSOR_STATE)) ||
                                       graph_out[t];
                if ((model_out || last_read[t] > (int)s) && std::find(outs.begin(), outs.end(), t) == outs.end())
                    outs.push_back(t);
            }
        pf::Stage st;
        st.ops = groups[s];
        st.inputs = ins;
        st.outputs = outs;
        b.stages.push_back(st);
    }
}

}  // namespace tigris::import
