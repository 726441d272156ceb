// plan_loading.cpp - the tests' loading helpers (plan_builder.h).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "plan_builder.h"

namespace tigris_test {

bool plan_is_zeroed(const tigris_plan_t &p) {
    return !p.header && !p.tensors && !p.ops && !p.stages && !p.tile_plans && !p.index_pool && !p.shape_pool &&
           !p.strings && !p.weight_entries && !p.weight_blob && !p.weight_blocks && !p.weight_blocks_data &&
           !p.num_weight_blocks && !p.weight_compression && !p.op_attributes && !p.op_attribute_data &&
           !p.num_op_attributes && !p.quant_params && !p.quant_data && !p.num_quant_params && !p.state_entries &&
           !p.state_section && !p.num_state && !p.state_bytes && !p.subgraphs && !p.num_subgraphs &&
           !p.subgraph_depth && !p.tile_plans_v10 && !p.model_inputs && !p.model_outputs && !p.scheduled_peak &&
           !p.tile_plans_v11;
}

tigris_error_t load_plan(const std::vector<uint8_t> &bytes, tigris_plan_limits_t *required) {
    // A private copy of exactly bytes.size() bytes, so that under ASan any read
    // past the end of the plan hits a redzone. malloc is 16-aligned on the
    // hosts we test; otherwise fall back to an aligned copy with slack.
    const size_t n = bytes.size();
    std::unique_ptr<uint8_t[]> exact(new uint8_t[n ? n : 1]);
    uint8_t *base = exact.get();
    std::vector<uint8_t> store;
    if ((uintptr_t)base % 16u != 0) {
        store.resize(n + 16);
        base = store.data() + (16u - (uintptr_t)store.data() % 16u) % 16u;
    }
    if (n) std::memcpy(base, bytes.data(), n);

    tigris_plan_t plan;
    std::memset(&plan, 0xA5, sizeof plan);  // garbage the loader must clear on failure
    tigris_error_t e1 = tigris_plan_load(base, (uint32_t)bytes.size(), &plan);
    if (e1 != TIGRIS_OK) {
        EXPECT_TRUE(plan_is_zeroed(plan)) << "tigris_plan_load failed with " << (int)e1 << " but left the handle set";
    }
    tigris_plan_limits_t req;
    std::memset(&req, 0, sizeof req);
    std::memset(&plan, 0xA5, sizeof plan);
    tigris_error_t e2 = tigris_plan_load_ex(base, (uint32_t)bytes.size(), &plan, &req);
    EXPECT_EQ((int)e1, (int)e2) << "tigris_plan_load and tigris_plan_load_ex disagree";
    if (e2 != TIGRIS_OK) {
        EXPECT_TRUE(plan_is_zeroed(plan)) << "tigris_plan_load_ex failed with " << (int)e2
                                          << " but left the handle set";
    }
    if (required) *required = req;
    return e1;
}

std::string err_name(int code) {
    static const char *const names[] = {"OK",          "NULL",        "TOO_SMALL",      "BAD_MAGIC",
                                        "BAD_VERSION", "BAD_SIZE",    "BAD_SECTION",    "MISSING_SEC",
                                        "ENDIAN",      "PLAN_LIMITS", "BAD_TENSOR",     "BAD_OPERATOR",
                                        "BAD_INTERFACE", "KERNEL_DISABLED", "MEM",      "TENSOR_SLOTS",
                                        "TILE_FACTS",  "CHAIN_BAND",  "TILE_BAND"};
    const int i = -code;
    return std::to_string(code) + " " + (i >= 0 && i < (int)(sizeof names / sizeof names[0]) ? names[i] : "?");
}

}  // namespace tigris_test
