// schedule.hpp - the first import scheduler (docs/import.md): operators in
// TFLite's order, grouped into consecutive stages whose working set fits the
// fast budget when it can.
#pragma once

#include <cstdint>
#include <vector>

#include "tigris_import/lower.hpp"
#include "tigris_planfile/plan_builder.hpp"

namespace tigris::import {

// Bytes a stage holds in the fast arena at most: every stage input and every
// tensor its operators write, each rounded to the 32-byte allocation granule
// compiled plans assume (the largest TIGRIS_TENSOR_ALIGN).
uint32_t working_set(const tigris::planfile::PlanBuilder &b, const std::vector<uint16_t> &ops);

// Replaces b.stages with the greedy grouping: a stage grows by the next
// operator while its working set stays within budget (budget 0: every
// operator is its own stage). An operator that alone exceeds the budget gets
// a stage of its own. Stage inputs are the tensors read but not written in
// the stage; outputs are those written and read later or model outputs.
std::vector<StageReport> schedule_stages(tigris::planfile::PlanBuilder &b, uint32_t budget);

// Replaces b.stages with one stage per group (groups in operator order,
// together every operator once), with the stage inputs and outputs described
// above; peaks, tile records and chains are left at their defaults. Shared by
// both schedulers so a stage's interface is derived one way.
void set_stages(tigris::planfile::PlanBuilder &b, const std::vector<std::vector<uint16_t>> &groups);

}  // namespace tigris::import
