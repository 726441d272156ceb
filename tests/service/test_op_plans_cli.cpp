// Every opcode with a kernel runs through `tigris run` as a one-operator (or
// few-operator) plan made by the plan builder: the output bytes must equal
// the independently derived expectation of its case (op_cases_*.cpp), and
// every route the runtime claims in docs/kernels.md has at least one case.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

#include "cli_process.h"
#include "op_cases.h"
#include "tigris.h"

namespace {

namespace fs = std::filesystem;
using tigris_test::OpCase;

void write_bytes(const fs::path &p, const std::vector<uint8_t> &b) {
    std::ofstream f(p, std::ios::binary);
    f.write(reinterpret_cast<const char *>(b.data()), (std::streamsize)b.size());
}

std::vector<OpCase> all_cases() {
    std::vector<OpCase> v;
    for (auto fn : tigris_test::op_cases()) v.push_back(fn());
    return v;
}

// The routes each opcode must have (docs/runtime-semantics.md R4.9; docs/kernels.md).
// Opcodes absent here have no kernel: the loader refuses them (11, 22, 23,
// 27, 28).
std::map<int, std::set<std::string>> required_routes() {
    std::map<int, std::set<std::string>> r;
    const std::set<int> no_kernel = {TIGRIS_OP_CLIP, TIGRIS_OP_BATCH_NORM, TIGRIS_OP_INST_NORM, TIGRIS_OP_SQUEEZE,
                                     TIGRIS_OP_UNSQUEEZE};
    // Float-only operators: no int8 route.
    std::set<int> f32_only = {TIGRIS_OP_L2_POOL, TIGRIS_OP_FLOOR_DIV, TIGRIS_OP_FLOOR_MOD, TIGRIS_OP_IF,
                              TIGRIS_OP_WHILE};
    for (int op = TIGRIS_OP_NEG; op <= TIGRIS_OP_COS; op++) f32_only.insert(op);
    for (int op = 1; op <= TIGRIS_OP_DETECTION_POSTPROCESS; op++) {
        if (no_kernel.count(op)) continue;
        r[op].insert("f32");
        if (!f32_only.count(op)) r[op].insert("s8");
    }
    return r;
}

TEST(OpPlansCli, EveryCaseGivesItsExpectedBytes) {
    const std::vector<OpCase> cases = all_cases();
    ASSERT_FALSE(cases.empty());
    std::set<std::string> names;
    for (const OpCase &c : cases) {
        SCOPED_TRACE(c.name);
        ASSERT_TRUE(names.insert(c.name).second) << "duplicate case name";
        ASSERT_TRUE(c.route == "f32" || c.route == "s8");
        ASSERT_FALSE(c.expected.empty());
        const fs::path dir = tigris_test::cli_scratch();
        const fs::path plan = dir / (c.name + ".tgrs"), in = dir / (c.name + ".in"), out = dir / (c.name + ".out");
        write_bytes(plan, c.plan);
        write_bytes(in, c.input);
        fs::remove(out);
        const auto r = tigris_test::run_cli(
            {"run", plan.string(), "--input", in.string(), "--output", out.string(), "--backend", c.route});
        ASSERT_EQ(r.code, 0) << r.err;
        const std::string got = tigris_test::slurp(out);
        ASSERT_EQ(got.size(), c.expected.size());
        for (size_t i = 0; i < got.size(); i++)
            ASSERT_EQ((uint8_t)got[i], c.expected[i]) << "first differing output byte at " << i;
    }
}

// Routes the runtime does not have yet ("op/route" -> reason, also in
// docs/kernels.md). Empty since the int8 LSTM (86/s8) landed. An entry here
// must really be missing: the test fails once a case exists, so the list
// cannot outlive the gap.
const std::map<std::string, std::string> kNotYet = {};

TEST(OpPlansCli, EveryKernelRouteHasACase) {
    std::map<int, std::set<std::string>> have;
    for (const OpCase &c : all_cases()) have[c.opcode].insert(c.route);
    std::string missing, stale;
    for (const auto &[op, routes] : required_routes())
        for (const std::string &route : routes) {
            const std::string key = std::to_string(op) + "/" + route;
            const bool known_gap = kNotYet.count(key) > 0;
            if (!have[op].count(route) && !known_gap) missing += " " + key;
            if (have[op].count(route) && known_gap) stale += " " + key;
        }
    EXPECT_TRUE(missing.empty()) << "opcode/route without a tigris-run case:" << missing;
    EXPECT_TRUE(stale.empty()) << "listed as not implemented but a case exists (remove from kNotYet):" << stale;
}

}  // namespace
