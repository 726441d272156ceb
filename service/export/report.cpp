// report.cpp - the text and JSON layouts of `tigris export` and of analyze's
// two TFLite Micro rows (../shared/seeds/export.txt).
#include <cstdio>
#include <sstream>

#include "tigris_export/export.hpp"

namespace tigris::exporter {

std::string kib(int64_t bytes, bool signed_value) {
    char buf[64];
    const double v = static_cast<double>(bytes < 0 ? -bytes : bytes) / 1024.0;
    const char *sign = !signed_value ? (bytes < 0 ? "-" : "") : (bytes < 0 ? "-" : "+");
    std::snprintf(buf, sizeof buf, "%s%.2f KiB", sign, v);
    return buf;
}

namespace {

std::string pad_right(std::string s, size_t w) {
    if (s.size() < w) s.append(w - s.size(), ' ');
    return s;
}
std::string pad_left(std::string s, size_t w) {
    if (s.size() < w) s.insert(0, w - s.size(), ' ');
    return s;
}
std::string percent(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.2f%%", p);
    return buf;
}
std::string kernels_line(Target t) { return std::string("reference kernels on ") + target_name(t); }

}  // namespace

std::string model_line(const std::string &model_name, const ExportResult &r) {
    return model_name + "   " + std::to_string(r.operators) + " operators\n";
}

std::string export_text(const ExportResult &r, const std::string &output_name) {
    std::ostringstream o;
    if (!r.written) return {};
    o << "operators " << r.run_first << '-' << r.run_last << " computed in " << r.bands << " row bands, "
      << percent(r.mac_increase_percent()) << " MACs";
    if (r.folds) o << ", " << r.folds << (r.folds == 1 ? " PAD" : " PADs") << " folded";
    o << "; " << r.operators_after << " operators after export\n\n";
    o << "TFLite Micro arena, " << kernels_line(r.target) << '\n';
    o << "  " << pad_right("head", 15) << pad_left(kib(r.after.head), 10) << "   " << kib(r.before.head) << " before\n";
    o << "  " << pad_right("persistent", 15) << pad_left(kib(r.persistent_growth(), true), 10) << '\n';
    o << "  " << pad_right("total change", 15) << pad_left(kib(r.total_change(), true), 10) << "\n\n";
    o << "wrote " << output_name << "   " << kib(static_cast<int64_t>(r.bytes.size())) << '\n';
    return o.str();
}

nlohmann::json export_json(const ExportResult &r) {
    nlohmann::json j;
    j["target"] = target_name(r.target);
    j["kernels"] = "reference";
    j["written"] = r.written;
    if (r.model_read) j["operators"] = r.operators;
    if (!r.written) j["reason"] = r.reason;
    if (r.have_before) {
        j["before"] = {{"head_bytes", r.before.head}, {"persistent_bytes", r.before.tail},
                       {"total_bytes", r.before.total()}};
    }
    if (r.written) {
        j["after"] = {{"head_bytes", r.after.head}, {"persistent_bytes", r.after.tail},
                      {"total_bytes", r.after.total()}};
        j["head_change_bytes"] = r.head_change();
        j["persistent_growth_bytes"] = r.persistent_growth();
        j["total_change_bytes"] = r.total_change();
        j["run"] = {{"first_operator", r.run_first}, {"last_operator", r.run_last}};
        j["bands"] = r.bands;
        j["pads_folded"] = r.folds;
        j["operators_after"] = r.operators_after;
        j["macs_before"] = r.macs_before;
        j["macs_after"] = r.macs_after;
        j["mac_increase_percent"] = r.mac_increase_percent();
        j["model_bytes"] = r.bytes.size();
    }
    return j;
}

std::string analyze_text(const AnalyzeRows &a) {
    if (!a.present) return {};
    std::ostringstream o;
    o << "  " << pad_right("TFLite Micro arena", 22) << pad_left(kib(a.arena_head), 10)
      << "   its planner and reduction scratch; persistent allocations and other kernel scratch excluded\n";
    const ExportResult &r = a.exported;
    o << "  " << pad_right("TFLite Micro export", 22);
    if (r.written) {
        o << pad_left(kib(r.total_change(), true), 10) << "   head " << kib(r.before.head) << " -> "
          << kib(r.after.head) << ", persistent " << kib(r.persistent_growth(), true) << ", "
          << percent(r.mac_increase_percent()) << " MACs, " << kernels_line(r.target) << '\n';
    } else {
        o << pad_left("none", 10) << "   " << r.reason;
        if (r.reason_is_no_rewrite) o << ", " << kernels_line(r.target);
        o << '\n';
    }
    return o.str();
}

nlohmann::json analyze_json(const AnalyzeRows &a) {
    nlohmann::json j = nlohmann::json::object();
    if (!a.present) return j;
    j["arena"] = {{"head_bytes", a.arena_head}, {"kernels", "reference"},
                  {"note", "its planner and reduction scratch; persistent allocations and other kernel scratch excluded"}};
    j["export"] = export_json(a.exported);
    j["export"].erase("model_bytes");
    return j;
}

}  // namespace tigris::exporter
