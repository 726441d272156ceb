/* limits.c - the build's plan limits, as tigris_plan_load_ex reports needs. */
#include "tigris_loader.h"

void tigris_build_limits(tigris_plan_limits_t *out) {
    if (!out) return;
    out->tensors = TIGRIS_MAX_TENSORS;
    out->stage_inputs = TIGRIS_MAX_STAGE_INPUTS;
    out->stage_outputs = TIGRIS_MAX_STAGE_OUTPUTS;
    out->chain_stages = TIGRIS_MAX_CHAIN_STAGES;
    out->spatial_ops_per_stage = TIGRIS_MAX_SPATIAL_OPS_PER_STAGE;
    out->subgraphs = TIGRIS_MAX_SUBGRAPHS;
    out->subgraph_depth = TIGRIS_MAX_SUBGRAPH_DEPTH;
}
