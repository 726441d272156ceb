// emit_source.cpp - NAME.c: the arenas, workspace and tensor table as static
// arrays, the start-up checks against the target's runtime, backend
// prepare/deinit, and the run. No heap, no stdio: it builds for devices.
#include <sstream>

#include "codegen_internal.hpp"

namespace tigris::codegen {

namespace {

// A build whose limits are below the plan's is refused at compile time
// rather than by the loader on the device.
void limit_checks(std::ostringstream &o, const PlanFacts &f, const Names &nm) {
    const struct {
        const char *macro;
        uint32_t need;
        const char *what;
    } limits[] = {
        {"TIGRIS_MAX_TENSORS", f.limit_tensors, "tensors"},
        {"TIGRIS_MAX_STAGE_INPUTS", f.limit_stage_inputs, "stage inputs"},
        {"TIGRIS_MAX_STAGE_OUTPUTS", f.limit_stage_outputs, "stage outputs"},
        {"TIGRIS_MAX_CHAIN_STAGES", f.limit_chain, "chained stages"},
        {"TIGRIS_MAX_SPATIAL_OPS_PER_STAGE", f.limit_spatial, "spatial operators in a stage"},
        {"TIGRIS_MAX_SUBGRAPHS", f.limit_subgraphs, "subgraphs"},
        {"TIGRIS_MAX_SUBGRAPH_DEPTH", f.limit_depth, "levels of control-flow nesting"},
    };
    o << "/* The plan's build limits (tigris_plan_load_ex()): a runtime built with less refuses it. */\n";
    for (const auto &l : limits) {
        if (l.need == 0) continue;
        o << "#if " << l.macro << " < " << l.need << "\n#error \"" << nm.n << ": the plan needs " << l.need << " "
          << l.what << "; build the runtime with " << l.macro << " >= " << l.need << "\"\n#endif\n";
    }
    o << "\n";
}

void backend_guard(std::ostringstream &o, const BackendInfo &b, const Names &nm) {
    if (*b.has_macro) {
        o << "#ifndef " << b.has_macro << "\n#error \"" << nm.n << ".c is generated for backend " << b.name
          << ": build it against a runtime with " << b.has_macro << " (docs/codegen.md)\"\n#endif\n";
    }
    o << "#if !TIGRIS_ENABLE_S8\n#error \"" << nm.n
      << ".c needs the int8 reference kernels (TIGRIS_ENABLE_S8), which every backend falls back to\"\n#endif\n\n";
}

void size_tables(std::ostringstream &o, const PlanFacts &f, const Names &nm) {
    o << "/* Boundary bytes per input and output, as " << nm.n << ".h states them. */\n";
    o << "static const uint32_t " << nm.n << "_in_bytes[" << nm.u << "_NUM_INPUTS] = {";
    for (size_t i = 0; i < f.inputs.size(); i++) o << (i ? ", " : "") << nm.u << "_INPUT" << i << "_BYTES";
    o << "};\nstatic const uint32_t " << nm.n << "_out_bytes[" << nm.u << "_NUM_OUTPUTS] = {";
    for (size_t i = 0; i < f.outputs.size(); i++) o << (i ? ", " : "") << nm.u << "_OUTPUT" << i << "_BYTES";
    o << "};\n\n";
}

// The fast-arena check of _init(): the need comes from the target's runtime.
std::string arena_check(const BackendInfo &b, const Names &nm) {
    std::string s = R"~(#ifndef @U@_SKIP_ARENA_CHECK
)~";
    if (!*b.scratch_macro) {
        s += R"~(    need = tigris_fast_arena_required(&@N@_.plan);
    if (need > (uint32_t)@U@_FAST_ARENA_BYTES) {
        @N@_put("fast arena: the plan needs ");
        @N@_put_u(need);
        @N@_put(" bytes; this harness has ");
        @N@_put_u((uint32_t)@U@_FAST_ARENA_BYTES);
        @N@_put("; rebuild with -D@U@_CORE_FAST_BYTES=");
        @N@_put_u(need);
        return @U@_ERR_ARENA;
    }
)~";
    } else {
        s += std::string("    need = ") + b.fast_required + R"~((&@N@_.plan);
    if (need > (uint32_t)@U@_FAST_ARENA_BYTES) {
        /* The reserve above the core's part must grow to cover the rest. */
        const uint32_t core = (uint32_t)@U@_CORE_FAST_BYTES;
        @N@_put("fast arena: the plan needs ");
        @N@_put_u(need);
        @N@_put(" bytes in total with backend @B@ (scratch ");
        @N@_put_u()~" + b.scratch_required + R"~((&@N@_.plan));
        @N@_put(" bytes plus alignment); this harness has ");
        @N@_put_u((uint32_t)@U@_FAST_ARENA_BYTES);
        @N@_put(" = @U@_CORE_FAST_BYTES ");
        @N@_put_u(core);
        @N@_put(" + @S@ ");
        @N@_put_u((uint32_t)@S@);
        @N@_put("; rebuild with -D@S@=");
        @N@_put_u(need > core ? need - core : need);
        return @U@_ERR_ARENA;
    }
)~";
    }
    s += "#endif\n";
    std::string out;
    for (size_t i = 0; i < s.size(); i++) {
        if (s.compare(i, 3, "@B@") == 0) {
            out += b.name;
            i += 2;
        } else if (s.compare(i, 3, "@S@") == 0) {
            out += b.scratch_macro;
            i += 2;
        } else {
            out += s[i];
        }
    }
    return fill(out, nm);
}

std::string backend_calls(const BackendInfo &b, const Names &nm, bool prepare) {
    if (!*b.prepare) return "";
    if (!prepare)
        return fill(std::string("    if (@N@_.prepared) {\n        ") +
                        (*b.deinit_arg ? "(void)" : "") + b.deinit + "(" + b.deinit_arg + ");\n" +
                        "        @N@_.prepared = 0;\n    }\n",
                    nm);
    return fill(std::string("    rc = ") + b.prepare + R"~((&@N@_.plan, &@N@_.mem);
    if (rc != 0) {
        @N@_put(")~" + b.prepare + R"~(() returned ");
        @N@_put_i(rc);
        return @U@_ERR_BACKEND;
    }
    @N@_.prepared = 1;
)~",
                nm);
}

}  // namespace

std::string emit_source(const PlanFacts &f, const BackendInfo &b, const Names &nm, const Options &opt) {
    std::ostringstream o;
    o << "/*\n * " << nm.n << ".c - the " << nm.n << " harness for backend " << b.name
      << ", generated by `tigris codegen` from\n * "
      << (opt.plan_label.empty() ? std::string("a plan") : opt.plan_label)
      << ". Statically allocated: no heap, no stdio. docs/codegen.md explains it.\n *\n"
      << " * Build switches: -D" << nm.u << "_SKIP_ARENA_CHECK leaves the fast-arena check to the\n"
      << " * executor; " << nm.u << "_FAST_SECTION / " << nm.u
      << "_SLOW_SECTION add attributes (e.g. a linker section)\n * to the arenas, " << nm.u
      << "_PLAN_SECTION to the plan.\n */\n";
    o << "#include <string.h>\n\n#include \"" << nm.n << ".h\"\n"
      << "#include \"tigris.h\"\n#include \"tigris_executor.h\"\n#include \"tigris_iface.h\"\n"
      << "#include \"tigris_loader.h\"\n#include \"tigris_mem.h\"\n#include \"" << b.header << "\"\n\n";
    backend_guard(o, b, nm);
    limit_checks(o, f, nm);
    o << "#include \"" << nm.n << "_plan.h\"\n\n";

    o << fill(R"~(#ifndef @U@_FAST_SECTION
#define @U@_FAST_SECTION
#endif
#ifndef @U@_SLOW_SECTION
#define @U@_SLOW_SECTION
#endif

/* Arena bases aligned to TIGRIS_TENSOR_ALIGN, so no byte is lost to padding. */
static uint8_t @N@_fast[@U@_FAST_ARENA_BYTES] __attribute__((aligned(TIGRIS_TENSOR_ALIGN))) @U@_FAST_SECTION;
static uint8_t @N@_slow[@U@_SLOW_ARENA_BYTES] __attribute__((aligned(TIGRIS_TENSOR_ALIGN))) @U@_SLOW_SECTION;
static uint8_t @N@_workspace[@U@_WORKSPACE_BYTES] __attribute__((aligned(16)));
static void *@N@_tensor_ptrs[@U@_NUM_TENSORS];
)~",
              nm);
    if (f.state) o << fill("static uint8_t @N@_state[@U@_STATE_BYTES] __attribute__((aligned(16)));\n", nm);
    o << "\n";
    size_tables(o, f, nm);

    o << fill(R"~(static struct {
    tigris_plan_t plan;
    tigris_mem_t mem;
    tigris_exec_stats_t stats;
    uint8_t loaded;   /* _init() succeeded */
    uint8_t prepared; /* the backend is prepared on mem */
    uint8_t fresh;    /* mem is set up for the next run: inputs may be written */
    uint8_t ran;      /* the last run succeeded: outputs may be read */
    uint8_t set[@U@_NUM_INPUTS];
    char error[256];
    size_t error_len;
} @N@_;

/* Messages without stdio: strings and decimal numbers appended. */
static void @N@_put(const char *s) {
    while (*s && @N@_.error_len + 1 < sizeof @N@_.error) @N@_.error[@N@_.error_len++] = *s++;
    @N@_.error[@N@_.error_len] = '\0';
}

static void @N@_put_u(uint32_t v) {
    char d[11];
    char one[2] = {0, 0};
    int n = 0;
    do {
        d[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n) {
        one[0] = d[--n];
        @N@_put(one);
    }
}

@PUTI@static void @N@_clear(void) {
    @N@_.error_len = 0;
    @N@_.error[0] = '\0';
}

const char *@N@_last_error(void) { return @N@_.error; }

/* A fresh memory manager for the next inference, and the backend prepared
 * on it (preparation follows tigris_mem_init(), as the API requires). */
static @N@_status @N@_begin(void) {
    tigris_mem_error_t merr;
    int rc = 0;
)~",
              nm);
    o << backend_calls(b, nm, false);
    o << fill(R"~(    @N@_.fresh = 0;
    @N@_.ran = 0;
    memset(@N@_.set, 0, sizeof @N@_.set);
    merr = tigris_mem_init(&@N@_.mem, @N@_tensor_ptrs, (uint16_t)@U@_NUM_TENSORS, @N@_fast,
                           (uint32_t)@U@_FAST_ARENA_BYTES, @N@_slow, (uint32_t)@U@_SLOW_ARENA_BYTES);
    if (merr != TIGRIS_MEM_OK) {
        @N@_put("cannot set up the arenas: ");
        @N@_put(tigris_mem_error_str(merr));
        return @U@_ERR_ARENA;
    }
)~",
              nm);
    o << backend_calls(b, nm, true);
    o << fill(R"~(    (void)rc;
    @N@_.fresh = 1;
    return @U@_OK;
}

void @N@_deinit(void) {
)~",
              nm);
    o << backend_calls(b, nm, false);
    o << fill(R"~(    memset(&@N@_.plan, 0, sizeof @N@_.plan);
    @N@_.loaded = 0;
    @N@_.fresh = 0;
    @N@_.ran = 0;
}

@N@_status @N@_init(void) {
    tigris_error_t err;
    uint32_t need, i;
    size_t ws;
    @N@_deinit();
    @N@_clear();
    err = tigris_plan_load(@N@_plan, (uint32_t)sizeof @N@_plan, &@N@_.plan);
    if (err != TIGRIS_OK) {
        @N@_put("the runtime refuses the embedded plan: ");
        @N@_put(tigris_error_str(err));
        return @U@_ERR_PLAN;
    }
    if (@N@_.plan.header->num_tensors != @U@_NUM_TENSORS || @N@_.plan.header->num_model_inputs != @U@_NUM_INPUTS ||
        @N@_.plan.header->num_model_outputs != @U@_NUM_OUTPUTS) {
        @N@_put("the embedded plan does not match @N@.h: regenerate the harness");
        return @U@_ERR_PLAN;
    }
    for (i = 0; i < @U@_NUM_INPUTS; i++)
        if (tigris_iface_bytes(&@N@_.plan, @N@_.plan.model_inputs[i]) != @N@_in_bytes[i]) {
            @N@_put("the embedded plan's inputs do not match @N@.h: regenerate the harness");
            return @U@_ERR_PLAN;
        }
    for (i = 0; i < @U@_NUM_OUTPUTS; i++)
        if (tigris_iface_bytes(&@N@_.plan, @N@_.plan.model_outputs[i]) != @N@_out_bytes[i]) {
            @N@_put("the embedded plan's outputs do not match @N@.h: regenerate the harness");
            return @U@_ERR_PLAN;
        }
)~",
              nm);
    o << arena_check(b, nm);
    o << fill(R"~(    (void)need;
    ws = tigris_executor_workspace_required(&@N@_.plan);
    if (ws == 0 || ws > (size_t)@U@_WORKSPACE_BYTES) {
        @N@_put("executor workspace: the plan needs ");
        @N@_put_u((uint32_t)ws);
        @N@_put(" bytes; this harness has ");
        @N@_put_u((uint32_t)@U@_WORKSPACE_BYTES);
        @N@_put(" (rebuild with -D@U@_WORKSPACE_BYTES=");
        @N@_put_u((uint32_t)ws);
        @N@_put(")");
        return @U@_ERR_WORKSPACE;
    }
    if (tigris_state_required(&@N@_.plan) != (size_t)@U@_STATE_BYTES) {
        @N@_put("the plan's state size does not match @N@.h: regenerate the harness");
        return @U@_ERR_STATE;
    }
)~",
              nm);
    if (f.state)
        o << fill(R"~(    {
        /* State carries over between inferences; _init() starts it afresh. */
        const tigris_exec_error_t xe = tigris_state_init(&@N@_.plan, @N@_state, sizeof @N@_state);
        if (xe != TIGRIS_EXEC_OK) {
            @N@_put("cannot set up the plan's state: ");
            @N@_put(tigris_exec_error_str(xe));
            return @U@_ERR_STATE;
        }
    }
)~",
                  nm);
    o << fill(R"~(    @N@_.loaded = 1;
    {
        const @N@_status st = @N@_begin();
        if (st != @U@_OK) @N@_deinit(); /* a failed _init() leaves nothing half set up */
        return st;
    }
}

/* Input i from caller bytes in its declared dtype. */
static @N@_status @N@_place(unsigned i, const void *data) {
    tigris_error_t err;
    @N@_status st;
    if (!@N@_.loaded) {
        @N@_clear();
        @N@_put("call @N@_init() first");
        return @U@_ERR_ORDER;
    }
    if (!@N@_.fresh) {
        @N@_clear();
        st = @N@_begin();
        if (st != @U@_OK) return st;
    }
    err = tigris_input_write(&@N@_.plan, &@N@_.mem, @N@_.plan.model_inputs[i], data, @N@_in_bytes[i]);
    if (err != TIGRIS_OK) {
        @N@_clear();
        @N@_put("cannot place model input ");
        @N@_put_u(i);
        @N@_put(": ");
        @N@_put(tigris_error_str(err));
        return @U@_ERR_INPUT;
    }
    @N@_.set[i] = 1;
    return @U@_OK;
}

static @N@_status @N@_fetch(unsigned i, void *data) {
    tigris_error_t err;
    if (!@N@_.ran) {
        @N@_clear();
        @N@_put("no outputs: call @N@_run() first");
        return @U@_ERR_ORDER;
    }
    err = tigris_output_read(&@N@_.plan, &@N@_.mem, @N@_.plan.model_outputs[i], data, @N@_out_bytes[i]);
    if (err != TIGRIS_OK) {
        @N@_clear();
        @N@_put("cannot read model output ");
        @N@_put_u(i);
        @N@_put(": ");
        @N@_put(tigris_error_str(err));
        return @U@_ERR_OUTPUT;
    }
    return @U@_OK;
}

@N@_status @N@_set_inputs(const void *bytes, size_t size) {
    const uint8_t *p = (const uint8_t *)bytes;
    unsigned i;
    @N@_clear();
    if (!bytes || size != (size_t)@U@_INPUT_BYTES) {
        @N@_clear();
        @N@_put("the inputs take ");
        @N@_put_u((uint32_t)@U@_INPUT_BYTES);
        @N@_put(" bytes");
        return @U@_ERR_INPUT;
    }
    for (i = 0; i < @U@_NUM_INPUTS; i++) {
        const @N@_status st = @N@_place(i, p);
        if (st != @U@_OK) return st;
        p += @N@_in_bytes[i];
    }
    return @U@_OK;
}

@N@_status @N@_get_outputs(void *bytes, size_t size) {
    uint8_t *p = (uint8_t *)bytes;
    unsigned i;
    @N@_clear();
    if (!bytes || size != (size_t)@U@_OUTPUT_BYTES) {
        @N@_clear();
        @N@_put("the outputs take ");
        @N@_put_u((uint32_t)@U@_OUTPUT_BYTES);
        @N@_put(" bytes");
        return @U@_ERR_OUTPUT;
    }
    for (i = 0; i < @U@_NUM_OUTPUTS; i++) {
        const @N@_status st = @N@_fetch(i, p);
        if (st != @U@_OK) return st;
        p += @N@_out_bytes[i];
    }
    return @U@_OK;
}

@N@_status @N@_run(void) {
    tigris_exec_error_t xe;
    unsigned i;
    @N@_clear();
    if (!@N@_.loaded) {
        @N@_put("call @N@_init() first");
        return @U@_ERR_ORDER;
    }
    for (i = 0; i < @U@_NUM_INPUTS; i++)
        if (!@N@_.fresh || !@N@_.set[i]) {
            @N@_put("model input ");
            @N@_put_u(i);
            @N@_put(" is not set for this run");
            return @U@_ERR_INPUT;
        }
    @N@_.fresh = 0;
    xe = tigris_run_with_state(&@N@_.plan, &@N@_.mem, @D@, NULL, &@N@_.stats, @N@_workspace,
                               sizeof @N@_workspace, @ST@);
    if (xe != TIGRIS_EXEC_OK) {
        @N@_put("the run failed: ");
        @N@_put(tigris_exec_error_str(xe));
        @N@_put(" (fast arena ");
        @N@_put_u((uint32_t)@U@_FAST_ARENA_BYTES);
        @N@_put(" bytes, slow ");
        @N@_put_u((uint32_t)@U@_SLOW_ARENA_BYTES);
        @N@_put(")");
        return @U@_ERR_RUN;
    }
    @N@_.ran = 1;
    return @U@_OK;
}

uint32_t @N@_fast_peak(void) { return @N@_.mem.fast_peak; }
uint32_t @N@_slow_peak(void) { return @N@_.mem.slow_peak; }

)~",
              nm);
    for (unsigned i = 0; i < f.inputs.size(); i++)
        o << nm.n << "_status " << nm.n << "_set_input" << i << "(const " << nm.n << "_input" << i << "_elem data["
          << nm.u << "_INPUT" << i << "_ELEMENTS]) {\n    " << nm.n << "_clear();\n    return " << nm.n
          << "_place(" << i << "u, data);\n}\n\n";
    for (unsigned i = 0; i < f.outputs.size(); i++)
        o << nm.n << "_status " << nm.n << "_get_output" << i << "(" << nm.n << "_output" << i << "_elem data["
          << nm.u << "_OUTPUT" << i << "_ELEMENTS]) {\n    " << nm.n << "_clear();\n    return " << nm.n
          << "_fetch(" << i << "u, data);\n}\n\n";

    std::string text = o.str();
    // Only a backend with a preparation call prints its (signed) result.
    const std::string put_i = *b.prepare ? fill(R"~(static void @N@_put_i(int v) {
    if (v < 0) {
        @N@_put("-");
        @N@_put_u((uint32_t)0 - (uint32_t)v);
    } else {
        @N@_put_u((uint32_t)v);
    }
}

)~",
                                                 nm)
                                       : std::string();
    text.replace(text.find("@PUTI@"), 6, put_i);
    const std::string state_args = f.state ? nm.n + "_state, sizeof " + nm.n + "_state" : "NULL, 0";
    for (size_t at; (at = text.find("@D@")) != std::string::npos;) text.replace(at, 3, b.dispatch);
    for (size_t at; (at = text.find("@ST@")) != std::string::npos;) text.replace(at, 4, state_args);
    return text;
}

}  // namespace tigris::codegen
