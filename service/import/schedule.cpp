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

std::vector<StageReport> schedule_stages(pf::PlanBuilder &b, uint32_t budget) {
    std::vector<std::vector<uint16_t>> groups;
    for (uint16_t o = 0; o < b.ops.size(); ++o) {
        if (!groups.empty() && budget > 0) {
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
                const bool model_out = b.tensors[t].flags & TIGRIS_TENSOR_MODEL_OUTPUT;
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
