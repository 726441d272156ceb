// files.hpp - reading inputs and writing outputs the same way in every
// subcommand: a whole file into memory, an output written next to its target
// and renamed (so a failed write never leaves a partial file under the real
// name), and the one report of an importer refusal that import, compile and
// analyze print.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tigris_import/lower.hpp"

namespace tigris::cli {

// The whole file at `path` into `out`; false when it cannot be opened.
bool read_file(const std::string &path, std::vector<uint8_t> &out);

// Writes `bytes` to `path` via `path + ".partial"` and a rename; false (and
// nothing left behind) when either step fails.
bool write_atomically(const std::string &path, const std::vector<uint8_t> &bytes);

// Prints an importer refusal: the {"refused", "reason"} object on stdout when
// `json`, and "error: <kind>: <message>" on stderr always.
void report_refusal(const import::ImportError &e, bool json);

}  // namespace tigris::cli
