// report_json.cpp - Report -> JSON; field names are the report's own.
#include "tigris_import/report_json.hpp"

namespace tigris::import {

nlohmann::json to_json(const Report &r) {
    nlohmann::json stages = nlohmann::json::array();
    for (const StageReport &s : r.stages) stages.push_back({{"ops", s.ops}, {"peak", s.peak}});
    return {{"model_name", r.model_name},
            {"schema", r.schema},
            {"tensors", r.tensors},
            {"ops", r.ops},
            {"weights", r.weights},
            {"quant_params", r.quant_params},
            {"fast_budget", r.fast_budget},
            {"scheduled_peak", r.scheduled_peak},
            {"budget_met", r.budget_met},
            {"stages", stages},
            {"folded", r.folded},
            {"not_done", r.not_done}};
}

}  // namespace tigris::import
