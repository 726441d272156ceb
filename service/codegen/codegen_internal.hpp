// codegen_internal.hpp - what the emitters share: the backend table and the
// facts read from the plan once.
#pragma once

#include <string>
#include <vector>

#include "tigris_codegen/codegen.hpp"

extern "C" {
#include "tigris.h"
}

namespace tigris::codegen {

// How a harness drives one backend: the C names it calls. Empty strings mean
// "not needed" (s8 has no preparation; the ESP-NN adapter takes its workspace
// from the platform allocator, not from the arena).
struct BackendInfo {
    Backend backend;
    const char *name;           // as on the command line
    const char *header;         // the runtime header that declares it
    const char *has_macro;      // defined by a runtime built with it; "" = always there
    const char *dispatch;       // tigris_kernel_fn
    const char *prepare;        // int f(const tigris_plan_t *, tigris_mem_t *)
    const char *deinit;         // call with `deinit_arg`
    const char *deinit_arg;     // "&mem" or ""
    const char *scratch_macro;  // the build-time reserve above the core's fast arena
    const char *fast_required;  // uint32_t f(const tigris_plan_t *): the whole fast arena
    const char *scratch_required;
    bool int8_only;             // refuses float32 plans
    const char *what;           // one line for the generated comments
};

const BackendInfo &backend_info(Backend b);

// The reserve a harness makes for backend scratch unless its build overrides
// the backend's scratch macro (the runtime README's 4 KiB for CMSIS-NN).
constexpr uint32_t kDefaultScratchReserve = 4096;

struct Boundary {
    std::string name;
    uint8_t dtype = 0;  // declared
    std::vector<int32_t> shape;
    uint32_t bytes = 0;
    uint32_t elements = 0;
    const char *c_type = "";
};

// Everything the emitters print, computed on the host from the loaded plan.
struct PlanFacts {
    std::string model_name;
    uint32_t schema = 0, plan_bytes = 0;
    uint8_t data_dtype = 0;
    uint32_t num_tensors = 0;
    uint32_t core_fast = 0;  // tigris_fast_arena_required()
    uint32_t slow = 0;       // the host library's slow figure (tigris_host::default_slow_bytes)
    uint64_t workspace = 0;  // tigris_executor_workspace_required()
    uint64_t state = 0;      // tigris_state_required()
    uint32_t limit_tensors = 0, limit_stage_inputs = 0, limit_stage_outputs = 0, limit_chain = 0,
             limit_spatial = 0, limit_subgraphs = 0, limit_depth = 0;
    std::vector<Boundary> inputs, outputs;
};

struct Names {
    std::string n;  // as given: model
    std::string u;  // upper case: MODEL
};

// Replaces @N@ and @U@ in a template with the harness name.
std::string fill(std::string_view tmpl, const Names &names);

std::string emit_header(const PlanFacts &f, const BackendInfo &b, const Names &names, const Options &opt);
std::string emit_source(const PlanFacts &f, const BackendInfo &b, const Names &names, const Options &opt);
std::string emit_plan_array(std::span<const uint8_t> plan, const Names &names, const Options &opt);
std::string emit_main(const PlanFacts &f, const Names &names, const Options &opt);
std::string emit_cmake(const BackendInfo &b, const Names &names, const Options &opt);

}  // namespace tigris::codegen
