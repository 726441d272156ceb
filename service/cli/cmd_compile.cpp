// cmd_compile.cpp - `tigris compile MODEL.tflite -m FAST [-m SLOW] [-f FLASH]
// [-c none|lz4] [--xip] [-o PLAN.tgrs] [--json]`: lower a TFLite model as
// `tigris import` does and schedule it into the fast budget (docs/compile.md).
// Exit codes: 0 written, 1 usage or I/O, 2 the model is refused (by name,
// as import refuses it), 3 the budget cannot be met (the floor is named).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "command.hpp"
#include "files.hpp"
#include "tigris_compile/compile.hpp"
#include "tigris_import/lower.hpp"
#include "tigris_tflite/model.hpp"

namespace tigris::cli {
namespace {

constexpr int kExitBudget = 3;  // the budget is below what any schedule needs

struct Options {
    std::string model, out, compress = "none", flash;
    std::vector<std::string> memory;
    bool xip = false, json = false;
};

int run(const Options &opt) {
    compile::Options co;
    uint64_t fast = 0, slow = 0, flash = 0;
    if (opt.memory.empty() || opt.memory.size() > 2) {
        std::cerr << "error: compile needs -m FAST (and at most one more -m SLOW, or -m FAST+SLOW)\n";
        return kExitUsage;
    }
    if (!compile::parse_budget(opt.memory[0], &fast, &slow) || fast == 0) {
        std::cerr << "error: bad size for -m: " << opt.memory[0] << " (use e.g. 64K, 1.5M, 262144 or 64K+8M)\n";
        return kExitUsage;
    }
    if (opt.memory.size() == 2) {
        if (slow || !compile::parse_size(opt.memory[1], &slow) || slow == 0) {
            std::cerr << "error: bad slow size for -m: " << opt.memory[1] << '\n';
            return kExitUsage;
        }
    }
    if (!opt.flash.empty() && (!compile::parse_size(opt.flash, &flash) || flash == 0)) {
        std::cerr << "error: bad size for -f: " << opt.flash << '\n';
        return kExitUsage;
    }
    co.fast_budget = (uint32_t)fast;
    co.slow_budget = slow;
    co.lz4 = opt.compress == "lz4";
    co.xip = opt.xip;
    co.model_name = std::filesystem::path(opt.model).stem().string();

    std::vector<uint8_t> file;
    if (!read_file(opt.model, file)) {
        std::cerr << "error: cannot read " << opt.model << '\n';
        return kExitUsage;
    }
    compile::Result res;
    try {
        const tflite::Model m = tflite::read_model(file);
        res = compile::compile_model(m, co);
    } catch (const tflite::ReadError &e) {
        std::cerr << "error: not a readable TFLite model: " << e.what() << '\n';
        return kExitRefused;
    } catch (const import::ImportError &e) {
        report_refusal(e, opt.json);
        return kExitRefused;
    } catch (const compile::BudgetError &e) {
        if (opt.json)
            std::cout << nlohmann::json{{"refused", "budget"}, {"reason", e.what()}, {"floor_hint", e.floor_hint}}.dump(2)
                      << '\n';
        std::cerr << "error: budget: " << e.what() << '\n';
        return kExitBudget;
    }
    if (flash && res.plan.size() > flash) {
        std::cerr << "error: budget: the plan is " << res.plan.size() << " bytes, the flash budget " << flash
                  << (co.lz4 ? "" : " (try -c lz4)") << '\n';
        return kExitBudget;
    }
    if (!opt.out.empty()) {
        if (!write_atomically(opt.out, res.plan)) {
            std::cerr << "error: cannot write " << opt.out << '\n';
            return kExitUsage;
        }
    }
    if (opt.json) {
        nlohmann::json j = compile::to_json(res.report);
        if (!opt.out.empty()) j["path"] = opt.out;
        std::cout << j.dump(2) << '\n';
    } else {
        const compile::Report &r = res.report;
        std::cout << compile::verdict_line(r) << '\n';
        std::cout << (opt.out.empty() ? std::string("not written") : "wrote " + opt.out) << " (" << res.plan.size()
                  << " bytes): " << r.ops << " ops, declared fast arena " << r.fast_required << " bytes (budget "
                  << r.fast_budget << "), measured fast peak " << r.fast_peak << ", slow peak " << r.slow_peak
                  << ", slow traffic " << (r.loads_bytes + r.spills_bytes) << " bytes\n";
    }
    return kExitOk;
}

const Registration reg{"compile", "Schedule a TFLite model into a fast-memory budget as a .tgrs plan",
                       [](CLI::App &sub) {
                           auto opt = std::make_shared<Options>();
                           sub.add_option("model", opt->model, "TFLite model (.tflite)")->required();
                           sub.add_option("-m,--memory", opt->memory,
                                          "Fast budget, then optionally the slow one (64K, 1.5M, 262144, 64K+8M)")
                               ->required();
                           sub.add_option("-f,--flash", opt->flash, "Flash budget for the plan file");
                           sub.add_option("-c,--compress", opt->compress, "Weight compression")
                               ->check(CLI::IsMember({"none", "lz4"}));
                           sub.add_flag("--xip", opt->xip, "Weights read in place (execute in place)");
                           sub.add_option("-o,--output", opt->out, "Plan file to write (.tgrs)");
                           sub.add_flag("--json", opt->json, "Print the compile report as JSON");
                           return std::function<int()>([opt] { return run(*opt); });
                       }};

}  // namespace
}  // namespace tigris::cli
