// cmd_import.cpp - `tigris import MODEL.tflite -o PLAN.tgrs [--schema N]
// [--fast-budget BYTES] [--compress lz4] [--xip] [--json]`: lower a TFLite
// model to a plan. A refused model prints the refusal's name and reason,
// writes no file and exits 2.
//
// `tigris import --list-builtins [--markdown]` prints how every TFLite
// builtin is treated: the plan operator it lowers to, or why it is refused
// (docs/import.md holds the Markdown form; a test keeps them equal).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "command.hpp"
#include "files.hpp"
#include "tigris_import/lower.hpp"
#include "tigris_host/names.hpp"
#include "tigris_import/report_json.hpp"
#include "tigris_import/support.hpp"
#include "tigris_tflite/model.hpp"

namespace tigris::cli {
namespace {

struct Options {
    std::string model, out, compress = "none";
    uint32_t schema = 11, fast_budget = 0;
    bool xip = false, json = false, list_builtins = false, markdown = false;
};

int list_builtins(bool markdown) {
    if (markdown) std::cout << "| code | TFLite builtin | plan operator | notes |\n|---:|---|---|---|\n";
    for (const import::BuiltinSupport &b : import::builtin_support()) {
        std::string op = b.opcode ? host::op_type_name(b.opcode) : (b.refused ? "refused" : "(interface)");
        std::string note = b.note;
        if (b.runtime_opcode) note += " (runtime operator " + host::op_type_name(b.runtime_opcode) + ")";
        if (markdown)
            std::cout << "| " << b.code << " | " << b.name << " | " << op << " | " << note << " |\n";
        else
            std::cout << b.code << '\t' << b.name << '\t' << op << '\t' << note << '\n';
    }
    return kExitOk;
}

int run(const Options &opt) {
    if (opt.list_builtins) return list_builtins(opt.markdown);
    if (opt.model.empty() || opt.out.empty()) {
        std::cerr << "error: import needs MODEL and -o PLAN (or --list-builtins)\n";
        return kExitUsage;
    }
    std::vector<uint8_t> file;
    if (!read_file(opt.model, file)) {
        std::cerr << "error: cannot read " << opt.model << '\n';
        return kExitUsage;
    }
    import::Options io;
    io.schema = opt.schema;
    io.fast_budget = opt.fast_budget;
    io.lz4 = opt.compress == "lz4";
    io.xip = opt.xip;
    io.model_name = std::filesystem::path(opt.model).stem().string();
    import::Result res;
    try {
        const tflite::Model m = tflite::read_model(file);
        res = import::import_model(m, io);
    } catch (const tflite::ReadError &e) {
        std::cerr << "error: not a readable TFLite model: " << e.what() << '\n';
        return kExitRefused;
    } catch (const import::ImportError &e) {
        report_refusal(e, opt.json);
        return kExitRefused;
    }
    if (!write_atomically(opt.out, res.plan)) {
        std::cerr << "error: cannot write " << opt.out << '\n';
        return kExitUsage;
    }
    if (opt.json) {
        nlohmann::json j = import::to_json(res.report);
        j["path"] = opt.out;
        j["bytes"] = res.plan.size();
        std::cout << j.dump(2) << '\n';
    } else {
        const import::Report &r = res.report;
        std::cout << "wrote " << opt.out << " (" << res.plan.size() << " bytes, schema " << r.schema << "): " << r.ops
                  << " ops in " << r.stages.size() << " stages, scheduled fast peak " << r.scheduled_peak << " bytes";
        if (r.fast_budget) std::cout << (r.budget_met ? " (within the budget)" : " (over the budget)");
        std::cout << '\n';
    }
    return kExitOk;
}

const Registration reg{"import", "Lower a TFLite model to a .tgrs plan", [](CLI::App &sub) {
                           auto opt = std::make_shared<Options>();
                           sub.add_option("model", opt->model, "TFLite model (.tflite)");
                           sub.add_option("-o,--output", opt->out, "Plan file to write (.tgrs)");
                           sub.add_flag("--list-builtins", opt->list_builtins,
                                        "Print how each TFLite builtin is lowered or why it is refused");
                           sub.add_flag("--markdown", opt->markdown, "With --list-builtins: a Markdown table");
                           sub.add_option("--schema", opt->schema, "Plan schema revision")
                               ->check(CLI::Range(4, 11))
                               ->default_val(11);
                           sub.add_option("--fast-budget", opt->fast_budget,
                                          "Fast-arena bytes a stage may hold (0: one operator per stage)");
                           sub.add_option("--compress", opt->compress, "Weight compression")
                               ->check(CLI::IsMember({"none", "lz4"}));
                           sub.add_flag("--xip", opt->xip, "Mark weights as read in place (execute in place)");
                           sub.add_flag("--json", opt->json, "Print the import report as JSON");
                           return std::function<int()>([opt] { return run(*opt); });
                       }};

}  // namespace
}  // namespace tigris::cli
