// Trace exporters: hand-made events give hand-written text/JSONL lines, and
// the Chrome JSON of real corpus runs parses with balanced B/E slices.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "shared_data.h"
#include "tigris_host/run.hpp"

namespace {

using tigris::host::RunResult;

tigris_trace_event_t ev(uint8_t kind, uint16_t stage, uint16_t tensor, uint16_t op) {
    tigris_trace_event_t e{};
    e.kind = kind;
    e.pool = TIGRIS_TRACE_POOL_NONE;
    e.path = TIGRIS_TRACE_PATH_NORMAL;
    e.stage = stage;
    e.tensor = tensor;
    e.op = op;
    e.row0 = e.row1 = e.col0 = e.col1 = -1;
    return e;
}

RunResult synthetic() {
    RunResult r;
    r.tensor_names = {"in", "out"};
    r.op_names = {"RELU"};
    auto a = ev(TIGRIS_TRACE_ALLOC, 0, 1, TIGRIS_TRACE_NONE16);
    a.pool = TIGRIS_TRACE_POOL_FAST;
    a.bytes = 32;
    a.fast_used = 32;
    r.trace = {ev(TIGRIS_TRACE_STAGE_BEGIN, 0, TIGRIS_TRACE_NONE16, TIGRIS_TRACE_NONE16), a,
               ev(TIGRIS_TRACE_OP, 0, TIGRIS_TRACE_NONE16, 0),
               ev(TIGRIS_TRACE_STAGE_END, 0, TIGRIS_TRACE_NONE16, TIGRIS_TRACE_NONE16)};
    return r;
}

TEST(TraceExport, TextLinesByHand) {
    const std::string t = tigris::host::trace_to_text(synthetic());
    EXPECT_EQ(t,
              "STAGE_BEGIN stage=0 path=normal offset=0 src=0 bytes=0 fast_used=0 slow_used=0\n"
              "ALLOC stage=0 path=normal pool=fast tensor=1(out) offset=0 src=0 bytes=32 fast_used=32 slow_used=0\n"
              "OP stage=0 path=normal op=0(RELU) offset=0 src=0 bytes=0 fast_used=0 slow_used=0\n"
              "STAGE_END stage=0 path=normal offset=0 src=0 bytes=0 fast_used=0 slow_used=0\n");
}

TEST(TraceExport, JsonlOneObjectPerEvent) {
    std::istringstream in(tigris::host::trace_to_jsonl(synthetic()));
    std::vector<nlohmann::json> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(nlohmann::json::parse(l));
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[1]["kind"], "ALLOC");
    EXPECT_EQ(lines[1]["pool"], "fast");
    EXPECT_EQ(lines[1]["tensor"], 1);
    EXPECT_EQ(lines[1]["bytes"], 32);
    EXPECT_TRUE(lines[0]["tensor"].is_null());
    EXPECT_EQ(lines[2]["op"], 0);
}

// Checks B/E nesting per (pid, tid) and that every X has a duration.
void expect_balanced(const nlohmann::json &doc, const std::string &what) {
    ASSERT_TRUE(doc.contains("traceEvents")) << what;
    std::map<std::pair<int, int>, std::vector<std::string>> open;
    size_t slices = 0, counters = 0;
    for (const auto &e : doc["traceEvents"]) {
        const std::string ph = e["ph"];
        auto key = std::make_pair(e["pid"].get<int>(), e.value("tid", 0));
        if (ph == "B") {
            open[key].push_back(e["name"]);
            slices++;
        } else if (ph == "E") {
            ASSERT_FALSE(open[key].empty()) << what << ": E without B";
            EXPECT_EQ(open[key].back(), e["name"]) << what;
            open[key].pop_back();
        } else if (ph == "X") {
            EXPECT_TRUE(e.contains("dur")) << what;
            slices++;
        } else if (ph == "C") {
            counters++;
            EXPECT_TRUE(e["args"].contains("fast")) << what;
            EXPECT_TRUE(e["args"].contains("slow")) << what;
        }
    }
    for (auto &[k, v] : open) EXPECT_TRUE(v.empty()) << what << ": unclosed " << v.size();
    EXPECT_GT(slices, 0u) << what;
    EXPECT_GT(counters, 0u) << what;
}

TEST(TraceExport, ChromeSyntheticBalanced) {
    const nlohmann::json doc = nlohmann::json::parse(tigris::host::trace_to_chrome(synthetic()));
    expect_balanced(doc, "synthetic");
    // stage B, stage E, one X for the op.
    size_t b = 0, x = 0;
    for (const auto &e : doc["traceEvents"]) {
        b += e["ph"] == "B";
        x += e["ph"] == "X" && e["name"] == "RELU";
    }
    EXPECT_EQ(b, 1u);
    EXPECT_EQ(x, 1u);
}

TEST(TraceExport, ChromeOfEveryCorpusPlanParsesBalanced) {
    TIGRIS_REQUIRE_SHARED();
    for (const char *p : {"pool_chain_v5", "linebuf_conv_chain_v5", "linebuf_conv_sig_chain_v5",
                          "linebuf_s8_conv_sig_chain_v5"}) {
        const auto dir = tigris_test::shared_dir() / "corpus";
        tigris::host::RunOptions o;
        o.collect_trace = true;
        const RunResult r = tigris::host::run_plan(tigris_test::read_file(dir / (std::string(p) + ".pattern.tgrs")),
                                                   tigris_test::read_file(dir / (std::string(p) + ".pattern.input.bin")), o);
        ASSERT_TRUE(r.ok()) << r.error;
        const nlohmann::json doc = nlohmann::json::parse(tigris::host::trace_to_chrome(r));
        expect_balanced(doc, p);
        size_t tiles = 0, ops = 0;
        for (const auto &e : doc["traceEvents"]) {
            tiles += e["ph"] == "B" && e["name"] == "tile";
            ops += e["ph"] == "X";
        }
        EXPECT_EQ(tiles, r.stats.total_tiles) << p;
        size_t op_events = 0;
        for (const auto &e : r.trace) op_events += e.kind == TIGRIS_TRACE_OP;
        EXPECT_EQ(ops, op_events) << p;
    }
}

}  // namespace
