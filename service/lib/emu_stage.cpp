// emu_stage.cpp - a job written into a directory for another machine to run
// (`tigris emu-job DIR` on a Slurm node), and its result as JSON.
//
//   DIR/job.json      target, backend, sizes, debug, flags, timeout, the
//                     firmware directory and plugin the node uses
//   DIR/plan.tgrs     the plan
//   DIR/input.bin     the model inputs
//   DIR/result-N.json the result of attempt N (written by the node)
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "tigris_host/emu.hpp"

namespace tigris::host::emu {
namespace fs = std::filesystem;

namespace {

bool write_bytes(const fs::path &p, const void *data, size_t n) {
    std::ofstream f(p, std::ios::binary);
    f.write(static_cast<const char *>(data), static_cast<std::streamsize>(n));
    f.close();
    return static_cast<bool>(f);
}

bool read_bytes(const fs::path &p, std::vector<uint8_t> &out) {
    std::ifstream f(p, std::ios::binary);
    if (!f) return false;
    out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    return true;
}

std::string to_hex(const std::vector<uint8_t> &v) {
    static const char *d = "0123456789abcdef";
    std::string s;
    s.reserve(v.size() * 2);
    for (uint8_t b : v) {
        s.push_back(d[b >> 4]);
        s.push_back(d[b & 15]);
    }
    return s;
}

bool from_hex(const std::string &s, std::vector<uint8_t> &out) {
    if (s.size() % 2) return false;
    auto nib = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        return -1;
    };
    out.clear();
    out.reserve(s.size() / 2);
    for (size_t i = 0; i < s.size(); i += 2) {
        const int h = nib(s[i]), l = nib(s[i + 1]);
        if (h < 0 || l < 0) return false;
        out.push_back(static_cast<uint8_t>(h * 16 + l));
    }
    return true;
}

constexpr JobResult::Status kStatuses[] = {
    JobResult::Status::Ok,        JobResult::Status::Refused,     JobResult::Status::Fault,
    JobResult::Status::Timeout,   JobResult::Status::Cancelled,   JobResult::Status::Failed,
    JobResult::Status::Unavailable, JobResult::Status::Busy,
};

// The console report is for diagnosis; its tail is enough across machines
// (the outputs travel in "outputs").
constexpr size_t kReportTail = 8192;

}  // namespace

bool stage_job(const JobSpec &spec, const Paths &paths, std::chrono::milliseconds timeout, const std::string &dir,
               std::string &error) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        error = "cannot create the staging directory " + dir + ": " + ec.message();
        return false;
    }
    nlohmann::json j;
    j["version"] = 1;
    j["target"] = spec.target;
    j["backend"] = backend_name(spec.backend);
    j["fast_size"] = spec.fast_size;
    j["slow_size"] = spec.slow_size;
    j["debug"] = spec.debug;
    j["op_counts"] = spec.op_counts;
    j["timeout_ms"] = (spec.timeout.count() > 0 ? spec.timeout : timeout).count();
    j["firmware_dir"] = paths.firmware_dir;
    j["plugin"] = paths.plugin;
    j["timer_fallback"] = paths.timer_fallback;
    const std::string text = j.dump(1);
    const fs::path d(dir);
    if (!write_bytes(d / "plan.tgrs", spec.plan.data(), spec.plan.size()) ||
        !write_bytes(d / "input.bin", spec.input.data(), spec.input.size()) ||
        !write_bytes(d / "job.json", text.data(), text.size())) {
        error = "cannot write the job's files into " + dir;
        return false;
    }
    return true;
}

bool load_staged_job(const std::string &dir, JobSpec &spec, Paths &paths, std::chrono::milliseconds &timeout,
                     std::string &error) {
    const fs::path d(dir);
    std::vector<uint8_t> text;
    if (!read_bytes(d / "job.json", text)) {
        error = "no job.json in " + dir;
        return false;
    }
    try {
        const auto j = nlohmann::json::parse(text.begin(), text.end());
        if (j.at("version").get<int>() != 1) {
            error = "job.json in " + dir + " has an unknown version";
            return false;
        }
        spec.target = j.at("target").get<std::string>();
        const std::string be = j.at("backend").get<std::string>();
        if (be != "ref" && be != "accel" && be != "vendor") {
            error = "job.json: unknown backend '" + be + "'";
            return false;
        }
        spec.backend = be == "accel" ? Backend::Accel : be == "vendor" ? Backend::Vendor : Backend::Ref;
        spec.fast_size = j.at("fast_size").get<uint32_t>();
        spec.slow_size = j.at("slow_size").get<uint32_t>();
        spec.debug = j.at("debug").get<uint32_t>();
        spec.op_counts = j.at("op_counts").get<bool>();
        timeout = std::chrono::milliseconds(j.at("timeout_ms").get<int64_t>());
        spec.timeout = timeout;
        paths.firmware_dir = j.at("firmware_dir").get<std::string>();
        paths.plugin = j.at("plugin").get<std::string>();
        paths.timer_fallback = j.at("timer_fallback").get<bool>();
    } catch (const std::exception &e) {
        error = "job.json in " + dir + " is malformed: " + e.what();
        return false;
    }
    if (!read_bytes(d / "plan.tgrs", spec.plan) || !read_bytes(d / "input.bin", spec.input)) {
        error = "the plan or the inputs are missing from " + dir;
        return false;
    }
    return true;
}

std::string result_to_json(const JobResult &r) {
    nlohmann::json j;
    j["status"] = status_name(r.status);
    j["error"] = r.error;
    j["error_kind"] = r.error_kind;
    j["error_code"] = r.error_code;
    j["exit_code"] = r.exit_code;
    j["kernel"] = r.kernel;
    j["outputs"] = to_hex(r.outputs);
    j["output_sizes"] = r.output_sizes;
    j["fast_required"] = r.fast_required;
    j["fast_size"] = r.fast_size;
    j["fast_peak"] = r.fast_peak;
    j["slow_size"] = r.slow_size;
    j["slow_peak"] = r.slow_peak;
    j["kernel_calls"] = r.kernel_calls;
    j["run_instructions"] = r.run_instructions ? nlohmann::json(*r.run_instructions) : nlohmann::json(nullptr);
    j["total_instructions"] = r.total_instructions ? nlohmann::json(*r.total_instructions) : nlohmann::json(nullptr);
    j["count_method"] = r.count_method;
    nlohmann::json ops = nlohmann::json::array();
    for (const OpCount &o : r.ops) ops.push_back({o.op, o.calls, o.instructions});
    j["ops"] = ops;
    j["fault_pc"] = r.fault_pc ? nlohmann::json(*r.fault_pc) : nlohmann::json(nullptr);
    j["fault_site"] = r.fault_site ? nlohmann::json(*r.fault_site) : nlohmann::json(nullptr);
    j["wall_ms"] = r.wall_ms;
    j["report"] = r.report.size() > kReportTail ? r.report.substr(r.report.size() - kReportTail) : r.report;
    // Reports are text, but a runaway guest may write anything.
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool result_from_json(const std::string &text, JobResult &r, std::string &error) {
    try {
        const auto j = nlohmann::json::parse(text);
        const std::string st = j.at("status").get<std::string>();
        bool known = false;
        for (JobResult::Status s : kStatuses)
            if (st == status_name(s)) {
                r.status = s;
                known = true;
            }
        if (!known) {
            error = "unknown status '" + st + "'";
            return false;
        }
        r.error = j.at("error").get<std::string>();
        r.error_kind = j.at("error_kind").get<std::string>();
        r.error_code = j.at("error_code").get<int>();
        r.exit_code = j.at("exit_code").get<int>();
        r.kernel = j.at("kernel").get<std::string>();
        if (!from_hex(j.at("outputs").get<std::string>(), r.outputs)) {
            error = "the outputs are not hex";
            return false;
        }
        r.output_sizes = j.at("output_sizes").get<std::vector<uint32_t>>();
        r.fast_required = j.at("fast_required").get<uint32_t>();
        r.fast_size = j.at("fast_size").get<uint32_t>();
        r.fast_peak = j.at("fast_peak").get<uint32_t>();
        r.slow_size = j.at("slow_size").get<uint32_t>();
        r.slow_peak = j.at("slow_peak").get<uint32_t>();
        r.kernel_calls = j.at("kernel_calls").get<uint32_t>();
        if (!j.at("run_instructions").is_null()) r.run_instructions = j["run_instructions"].get<uint64_t>();
        if (!j.at("total_instructions").is_null()) r.total_instructions = j["total_instructions"].get<uint64_t>();
        r.count_method = j.at("count_method").get<std::string>();
        r.ops.clear();
        for (const auto &o : j.at("ops"))
            r.ops.push_back(OpCount{o.at(0).get<uint16_t>(), o.at(1).get<uint32_t>(), o.at(2).get<uint64_t>()});
        if (!j.at("fault_pc").is_null()) r.fault_pc = j["fault_pc"].get<uint32_t>();
        if (!j.at("fault_site").is_null()) r.fault_site = j["fault_site"].get<uint32_t>();
        r.wall_ms = j.at("wall_ms").get<double>();
        r.report = j.at("report").get<std::string>();
    } catch (const std::exception &e) {
        error = std::string("malformed result: ") + e.what();
        return false;
    }
    return true;
}

}  // namespace tigris::host::emu
