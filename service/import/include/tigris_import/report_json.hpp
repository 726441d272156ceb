// report_json.hpp - the import report as JSON (`tigris import --json`, the
// gRPC Import reply).
#pragma once

#include <nlohmann/json.hpp>

#include "tigris_import/lower.hpp"

namespace tigris::import {

nlohmann::json to_json(const Report &r);

}  // namespace tigris::import
