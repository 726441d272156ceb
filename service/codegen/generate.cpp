// generate.cpp - load and check the plan, read what the harness needs from
// it with the runtime's own functions, and assemble the files.
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "codegen_internal.hpp"
#include "tigris_host/run.hpp"

extern "C" {
#include "tigris_executor.h"
#include "tigris_iface.h"
#include "tigris_loader.h"
}

namespace tigris::codegen {

namespace {

const char *c_type(uint8_t dtype) {
    switch (dtype) {
    case TIGRIS_DTYPE_FLOAT32: return "float";
    case TIGRIS_DTYPE_UINT8: return "uint8_t";
    case TIGRIS_DTYPE_INT8: return "int8_t";
    case TIGRIS_DTYPE_INT16: return "int16_t";
    case TIGRIS_DTYPE_INT32: return "int32_t";
    case TIGRIS_DTYPE_INT64: return "int64_t";
    case TIGRIS_DTYPE_BOOL: return "uint8_t";
    default: return nullptr;
    }
}

Result fail(ErrorKind k, std::string msg) {
    Result r;
    r.error = k;
    r.message = std::move(msg);
    return r;
}

// The loader wants the plan on an aligned base (XIP weights are read in place).
struct AlignedCopy {
    std::unique_ptr<uint8_t, decltype(&std::free)> p{nullptr, &std::free};
    explicit AlignedCopy(std::span<const uint8_t> b) {
        p.reset(static_cast<uint8_t *>(std::aligned_alloc(64, (b.size() + 63) / 64 * 64 + 64)));
        if (p && !b.empty()) std::memcpy(p.get(), b.data(), b.size());
    }
};

std::optional<std::string> boundary(const tigris_plan_t &plan, uint16_t t, const char *role, unsigned i,
                                    Boundary &out) {
    const tigris_tensor_t &tt = plan.tensors[t];
    out.name = tigris_tensor_name(&plan, &tt);
    out.dtype = tigris_tensor_declared_dtype(&tt);
    const int32_t *shape = tigris_tensor_shape(&plan, &tt);
    for (uint8_t d = 0; shape && d < tt.ndim; d++) out.shape.push_back(shape[d]);
    out.bytes = tigris_iface_bytes(&plan, t);
    const uint32_t esize = tigris_dtype_size(out.dtype);
    out.c_type = c_type(out.dtype);
    if (out.bytes == 0 || esize == 0 || !out.c_type || out.bytes % esize != 0)
        return std::string("model ") + role + " " + std::to_string(i) + " (\"" + out.name +
               "\") has a boundary dtype the runtime cannot convert";
    out.elements = out.bytes / esize;
    return std::nullopt;
}

}  // namespace

std::string fill(std::string_view tmpl, const Names &names) {
    std::string s;
    s.reserve(tmpl.size() + 256);
    for (size_t i = 0; i < tmpl.size(); i++) {
        if (tmpl[i] == '@' && i + 2 < tmpl.size() && tmpl[i + 2] == '@' && (tmpl[i + 1] == 'N' || tmpl[i + 1] == 'U')) {
            s += tmpl[i + 1] == 'N' ? names.n : names.u;
            i += 2;
        } else {
            s += tmpl[i];
        }
    }
    return s;
}

Result generate(std::span<const uint8_t> bytes, const Options &opt) {
    const auto backend = parse_backend(opt.backend);
    if (!backend)
        return fail(ErrorKind::BadBackend,
                    "unknown backend \"" + opt.backend + "\"; choose one of " + backend_list());
    if (auto why = check_name(opt.name)) return fail(ErrorKind::BadName, *why);
    const BackendInfo &b = backend_info(*backend);

    if (bytes.size() > UINT32_MAX) return fail(ErrorKind::BadPlan, "the plan is larger than a plan can be");
    AlignedCopy copy(bytes);
    if (!copy.p) return fail(ErrorKind::BadPlan, "out of memory for the plan");
    tigris_plan_t plan;
    tigris_plan_limits_t need{};
    const tigris_error_t le = tigris_plan_load_ex(copy.p.get(), static_cast<uint32_t>(bytes.size()), &plan, &need);
    if (le != TIGRIS_OK)
        return fail(ErrorKind::BadPlan, std::string("the runtime refuses this plan: ") + tigris_error_str(le) +
                                            " (run `tigris inspect` on it for details)");

    PlanFacts f;
    f.model_name = tigris_model_name(&plan);
    f.schema = plan.header->version;
    f.plan_bytes = static_cast<uint32_t>(bytes.size());
    f.data_dtype = tigris_plan_data_dtype(&plan);
    f.num_tensors = plan.header->num_tensors;
    // The same functions the runtime applies to this plan, so the arrays the
    // harness declares are what a loaded plan asks for (docs/codegen.md).
    f.core_fast = tigris_fast_arena_required(&plan);
    f.slow = host::default_slow_bytes(plan);
    f.workspace = tigris_executor_workspace_required(&plan);
    f.state = tigris_state_required(&plan);
    if (f.core_fast == UINT32_MAX) return fail(ErrorKind::BadPlan, "the plan's fast arena cannot be represented");
    if (f.workspace == 0) return fail(ErrorKind::BadPlan, "the plan's metadata does not size an executor workspace");
    f.limit_tensors = need.tensors;
    f.limit_stage_inputs = need.stage_inputs;
    f.limit_stage_outputs = need.stage_outputs;
    f.limit_chain = need.chain_stages;
    f.limit_spatial = need.spatial_ops_per_stage;
    f.limit_subgraphs = need.subgraphs;
    f.limit_depth = need.subgraph_depth;
    if (plan.header->num_model_inputs == 0 || plan.header->num_model_outputs == 0)
        return fail(ErrorKind::BadPlan, "the plan has no model inputs or no model outputs");
    for (unsigned i = 0; i < plan.header->num_model_inputs; i++) {
        Boundary io;
        if (auto why = boundary(plan, plan.model_inputs[i], "input", i, io)) return fail(ErrorKind::BadPlan, *why);
        f.inputs.push_back(std::move(io));
    }
    for (unsigned i = 0; i < plan.header->num_model_outputs; i++) {
        Boundary io;
        if (auto why = boundary(plan, plan.model_outputs[i], "output", i, io)) return fail(ErrorKind::BadPlan, *why);
        f.outputs.push_back(std::move(io));
    }
    if (b.int8_only && f.data_dtype != TIGRIS_DTYPE_INT8)
        return fail(ErrorKind::PlanNotForBackend, std::string("backend ") + b.name +
                                                      " runs int8 plans; this plan's activations are float32 "
                                                      "(use --backend s8)");

    const Names names{opt.name, [&] {
                          std::string u = opt.name;
                          for (char &c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
                          return u;
                      }()};
    Result r;
    r.files.push_back({opt.name + ".h", emit_header(f, b, names, opt)});
    r.files.push_back({opt.name + ".c", emit_source(f, b, names, opt)});
    r.files.push_back({opt.name + "_plan.h", emit_plan_array(bytes, names, opt)});
    r.files.push_back({opt.name + "_main.c", emit_main(f, names, opt)});
    r.files.push_back({"CMakeLists.txt", emit_cmake(b, names, opt)});
    return r;
}

}  // namespace tigris::codegen
