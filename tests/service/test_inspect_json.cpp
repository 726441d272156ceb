// The JSON form of the inspect report: every key is present in every object
// (null when it does not apply), and the values are the report's.
#include <gtest/gtest.h>

#include <set>

#include "plan_builder.h"
#include "tigris_host/inspect.hpp"

namespace {

using nlohmann::json;
using tigris_test::PlanBuilder;

std::set<std::string> keys(const json &j) {
    std::set<std::string> k;
    for (auto it = j.begin(); it != j.end(); ++it) k.insert(it.key());
    return k;
}

const std::set<std::string> kTop = {"status", "file_bytes", "header", "limits", "plan"};
const std::set<std::string> kStatus = {"ok", "kind", "code", "name", "message"};
const std::set<std::string> kHeader = {"magic_ok", "version", "file_size"};
const std::set<std::string> kLimits = {"tensors",           "stage_inputs", "stage_outputs", "chain_stages",
                                       "spatial_ops_per_stage", "subgraphs", "subgraph_depth"};
const std::set<std::string> kPlan = {"schema", "model_name", "data_dtype", "counts", "flags",
                                     "inputs", "outputs",    "tensors",    "ops",   "stages", "memory"};
const std::set<std::string> kCounts = {"tensors",      "ops",        "stages",        "tile_plans",    "weights",
                                       "quant_params", "attributes", "weight_blocks", "state_entries", "subgraphs"};
const std::set<std::string> kFlags = {"raw", "xip", "tile_v10", "compression"};
const std::set<std::string> kIo = {"index",        "name",           "stored_dtype", "declared_dtype", "shape",
                                   "stored_bytes", "declared_bytes", "linear",       "flags", "quant"};
const std::set<std::string> kQuant = {"scale", "zero_point", "channels", "multipliers", "shifts"};
const std::set<std::string> kOpDetail = {"index",  "name", "type",      "type_name", "inputs", "outputs",
                                         "weight", "bias", "fused_act", "act_min",   "act_max"};
const std::set<std::string> kStage = {"index", "kind", "peak_bytes", "ops",  "inputs",       "outputs",
                                      "subgraph", "chain", "band",   "tile", "stated_facts", "derived_facts"};
const std::set<std::string> kOp = {"index", "name", "type", "type_name"};
const std::set<std::string> kChain = {"head", "length", "tile_h", "line_buffered"};
const std::set<std::string> kBand = {"kind", "extent", "axis", "mode"};
const std::set<std::string> kTile = {"index",     "layout",          "tileable", "axis",
                                     "flags",     "tile_height",     "num_tiles", "original_height",
                                     "halo",      "receptive_field", "tile_width", "tiled_peak_bytes",
                                     "overhead_bytes"};
const std::set<std::string> kFacts = {"tile_extent", "num_tiles", "original_extent", "halo",
                                      "band_axis",   "band_kind", "band_mode"};
const std::set<std::string> kMemory = {"budget",
                                       "header_peak",
                                       "scheduled_peak",
                                       "fast_arena_required",
                                       "decompression_overhead",
                                       "executor_workspace_bytes",
                                       "state_bytes",
                                       "weight_bytes"};

// Checks one loaded plan's JSON shape; counts which optional objects were seen
// non-null so the test can insist every kind of object was exercised.
void check_plan_json(const json &j, std::map<std::string, int> &seen) {
    ASSERT_EQ(keys(j), kTop);
    EXPECT_EQ(keys(j["status"]), kStatus);
    EXPECT_EQ(keys(j["header"]), kHeader);
    EXPECT_EQ(keys(j["limits"]), (std::set<std::string>{"required", "build", "fits"}));
    EXPECT_EQ(keys(j["limits"]["required"]), kLimits);
    EXPECT_EQ(keys(j["limits"]["build"]), kLimits);
    const json &p = j["plan"];
    ASSERT_TRUE(p.is_object());
    EXPECT_EQ(keys(p), kPlan);
    EXPECT_EQ(keys(p["counts"]), kCounts);
    EXPECT_EQ(keys(p["flags"]), kFlags);
    EXPECT_EQ(keys(p["memory"]), kMemory);
    for (const char *dir : {"inputs", "outputs", "tensors"})
        for (const json &io : p[dir]) {
            EXPECT_EQ(keys(io), kIo);
            if (!io["quant"].is_null()) {
                EXPECT_EQ(keys(io["quant"]), kQuant);
                EXPECT_EQ(io["quant"]["multipliers"].size(), io["quant"]["channels"].get<size_t>());
                ++seen["quant"];
            }
        }
    EXPECT_EQ(p["tensors"].size(), p["counts"]["tensors"].get<size_t>());
    EXPECT_EQ(p["ops"].size(), p["counts"]["ops"].get<size_t>());
    for (const json &op : p["ops"]) EXPECT_EQ(keys(op), kOpDetail);
    for (const json &s : p["stages"]) {
        EXPECT_EQ(keys(s), kStage);
        for (const json &op : s["ops"]) EXPECT_EQ(keys(op), kOp);
        const std::pair<const char *, const std::set<std::string> *> parts[] = {
            {"chain", &kChain}, {"band", &kBand}, {"tile", &kTile}, {"stated_facts", &kFacts}, {"derived_facts", &kFacts}};
        for (const auto &[name, want] : parts)
            if (!s[name].is_null()) {
                EXPECT_EQ(keys(s[name]), *want) << name;
                ++seen[name];
            }
    }
    if (!p["memory"]["scheduled_peak"].is_null()) ++seen["scheduled_peak"];
}

TEST(InspectJson, EveryFieldOfEveryObject) {
    std::map<std::string, int> seen;
    std::vector<PlanBuilder> plans = {PlanBuilder::conv_chain(9), PlanBuilder::tiled_stripe(11),
                                      PlanBuilder::int8_conv(9), PlanBuilder::if_subgraphs(10)};
    for (PlanBuilder &b : plans) {
        const auto r = tigris::host::inspect(b.build());
        ASSERT_TRUE(r.status.ok()) << b.model_name << ": " << r.status.name;
        SCOPED_TRACE(b.model_name);
        check_plan_json(tigris::host::to_json(r), seen);
    }
    for (const char *what : {"quant", "chain", "band", "tile", "stated_facts", "derived_facts", "scheduled_peak"})
        EXPECT_GT(seen[what], 0) << what << " never appeared";
}

TEST(InspectJson, ValuesMatchTheReport) {
    PlanBuilder b = PlanBuilder::tiled_stripe(11);
    const auto r = tigris::host::inspect(b.build());
    ASSERT_TRUE(r.status.ok()) << r.status.name;
    const json j = tigris::host::to_json(r);
    EXPECT_EQ(j["status"]["ok"], true);
    EXPECT_EQ(j["status"]["name"], "TIGRIS_OK");
    EXPECT_EQ(j["file_bytes"], r.file_bytes);
    EXPECT_EQ(j["plan"]["schema"], 11);
    EXPECT_EQ(j["plan"]["model_name"], "tiled_stripe");
    EXPECT_EQ(j["plan"]["inputs"][0]["shape"], json::array({1, 8, 8, 2}));
    EXPECT_EQ(j["plan"]["outputs"][0]["stored_bytes"], 8 * 8 * 3 * 4);
    EXPECT_EQ(j["plan"]["stages"][0]["kind"], "tiled");
    EXPECT_EQ(j["plan"]["stages"][0]["ops"][0]["type_name"], "CONV");
    EXPECT_EQ(j["plan"]["stages"][0]["ops"][0]["type"], TIGRIS_OP_CONV);
    EXPECT_EQ(j["plan"]["stages"][0]["tile"]["layout"], "48-byte");
    EXPECT_EQ(j["plan"]["stages"][0]["stated_facts"]["band_kind"], "STRIPE");
    EXPECT_EQ(j["plan"]["memory"]["fast_arena_required"], r.plan->memory.fast_arena_required);
    EXPECT_EQ(j["limits"]["fits"], true);
    // Round trip through text keeps it parseable.
    EXPECT_EQ(json::parse(j.dump()), j);
}

TEST(InspectJson, RefusedPlanHasStatusAndNoPlan) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    tigris_test::put_u32(bytes, 4, 1);
    const json j = tigris::host::to_json(tigris::host::inspect(bytes));
    EXPECT_EQ(keys(j), kTop);
    EXPECT_EQ(j["status"]["ok"], false);
    EXPECT_EQ(j["status"]["kind"], "refused");
    EXPECT_EQ(j["status"]["code"], -4);
    EXPECT_EQ(j["status"]["name"], "TIGRIS_ERR_BAD_VERSION");
    EXPECT_TRUE(j["plan"].is_null());
    EXPECT_EQ(j["header"]["version"], 1);
}

TEST(InspectJson, MissingFileIsAnIoStatus) {
    const auto r = tigris::host::inspect_file("/nonexistent/dir/plan.tgrs");
    EXPECT_EQ(r.status.kind, tigris::host::Status::Kind::Io);
    const json j = tigris::host::to_json(r);
    EXPECT_EQ(j["status"]["kind"], "io");
    EXPECT_NE(j["status"]["message"].get<std::string>().find("plan.tgrs"), std::string::npos);
}

}  // namespace
