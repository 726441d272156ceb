// emu_report.cpp - read the harness's console report and the count plugin's
// file into a JobResult (formats in docs/emu.md).
#include <map>
#include <sstream>

#include "tigris_host/emu.hpp"

namespace tigris::host::emu {
namespace {

bool parse_u64(const std::string &s, uint64_t &v) {
    if (s.empty()) return false;
    try {
        size_t used = 0;
        v = std::stoull(s, &used, 0);
        return used == s.size();
    } catch (...) {
        return false;
    }
}

int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The value after `key` in "@fault pc 0x... lr 0x...".
std::optional<uint32_t> field(const std::string &line, const std::string &key) {
    std::istringstream in(line);
    std::string w;
    while (in >> w)
        if (w == key && in >> w) {
            uint64_t v;
            if (parse_u64(w, v) && v <= 0xFFFFFFFFu) return static_cast<uint32_t>(v);
        }
    return std::nullopt;
}

}  // namespace

void parse_report(const std::string &text, JobResult &r, std::vector<uint16_t> *log, std::vector<uint32_t> *ticks,
                  std::optional<uint64_t> *run_ticks) {
    std::istringstream in(text);
    std::string line;
    uint32_t want = 0;  // bytes still expected for the current @output
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        if (line[0] != '@') {
            // hex continuation of an @output
            for (size_t i = 0; want && i + 1 < line.size(); i += 2) {
                int hi = hexval(line[i]), lo = hexval(line[i + 1]);
                if (hi < 0 || lo < 0) break;
                r.outputs.push_back(static_cast<uint8_t>(hi << 4 | lo));
                want--;
            }
            continue;
        }
        std::istringstream ls(line.substr(1));
        std::string key, a, b;
        ls >> key;
        uint64_t v = 0;
        if (key == "output") {
            ls >> a >> b;
            if (parse_u64(b, v) && v <= 0xFFFFFFFFu) {
                want = static_cast<uint32_t>(v);
                r.output_sizes.push_back(want);
            }
        } else if (key == "backend") {
            ls >> a >> r.kernel;
        } else if (key == "error") {
            std::string code;
            ls >> r.error_kind >> code;
            try {
                r.error_code = std::stoi(code);
            } catch (...) {
                r.error_code = 0;
            }
            std::getline(ls, r.error);
            if (!r.error.empty() && r.error[0] == ' ') r.error.erase(0, 1);
        } else if (key == "fault") {
            r.fault_pc = field(line, "pc");
        } else if (key == "debug") {
            r.fault_site = field(line, "fault_site");
        } else if (key == "log" && log) {
            while (ls >> a)
                if (parse_u64(a, v) && v <= 0xFFFF) log->push_back(static_cast<uint16_t>(v));
        } else if (key == "ticks" && ticks) {
            while (ls >> a)
                if (parse_u64(a, v) && v <= 0xFFFFFFFFu) ticks->push_back(static_cast<uint32_t>(v));
        } else {
            ls >> a;
            if (!parse_u64(a, v)) continue;
            const uint32_t u = static_cast<uint32_t>(v);
            if (key == "fast_required") r.fast_required = u;
            else if (key == "fast_size") r.fast_size = u;
            else if (key == "fast_peak") r.fast_peak = u;
            else if (key == "slow_size") r.slow_size = u;
            else if (key == "slow_peak") r.slow_peak = u;
            else if (key == "calls") r.kernel_calls = u;
            else if (key == "ticks_run" && run_ticks) *run_ticks = v;
        }
    }
}

bool apply_counts(const std::string &text, const std::vector<uint16_t> &log, JobResult &r) {
    std::istringstream in(text);
    std::string w;
    uint64_t insns = 0, n = 0;
    if (!(in >> w) || w != "insns" || !(in >> insns)) return false;
    if (!(in >> w) || w != "marks" || !(in >> n)) return false;
    std::vector<uint64_t> marks;
    marks.reserve(static_cast<size_t>(n < (1u << 24) ? n : (1u << 24)));
    for (uint64_t i = 0; i < n; i++) {
        uint64_t m;
        if (!(in >> m)) return false;
        marks.push_back(m);
    }
    if (in >> w && w == "overflow") return false;
    r.total_instructions = insns;
    r.count_method = "plugin";
    if (marks.size() < 2) return true;
    r.run_instructions = marks.back() - marks.front();
    // Marks: run start, then a pair around every logged kernel call, then run end.
    if (marks.size() != 2 + 2 * log.size()) return true;
    std::map<uint16_t, OpCount> per;
    for (size_t i = 0; i < log.size(); i++) {
        OpCount &c = per[log[i]];
        c.op = log[i];
        c.calls++;
        c.instructions += marks[2 + 2 * i] - marks[1 + 2 * i];
    }
    r.ops.clear();
    for (auto &[op, c] : per) r.ops.push_back(c);
    return true;
}

void apply_ticks(const Board &b, const std::vector<uint16_t> &log, const std::vector<uint32_t> &call_ticks,
                 std::optional<uint64_t> run_ticks, JobResult &r) {
    if (!run_ticks || b.ns_per_tick <= 0) return;
    auto insns = [&](uint64_t t) { return static_cast<uint64_t>(static_cast<double>(t) * b.ns_per_tick + 0.5); };
    r.run_instructions = insns(*run_ticks);
    r.count_method = "timer";
    if (call_ticks.size() != log.size()) return;
    std::map<uint16_t, OpCount> per;
    for (size_t i = 0; i < log.size(); i++) {
        OpCount &c = per[log[i]];
        c.op = log[i];
        c.calls++;
        c.instructions += insns(call_ticks[i]);
    }
    r.ops.clear();
    for (auto &[op, c] : per) r.ops.push_back(c);
}

}  // namespace tigris::host::emu
