/*
 * tigris_posix_example - the canonical POSIX integration of the TiGrIS
 * runtime: one inference of a .tgrs plan, every step checked.
 *
 *   tigris_posix_example model.tgrs [input.bin] [output.bin]
 *
 *   model.tgrs  the plan (int8 plans run on the int8 reference kernels,
 *               float32 plans on the float32 reference kernels)
 *   input.bin   the model inputs as raw bytes, concatenated in model-input
 *               order, in the dtype the model declares at its boundary
 *               (tigris_iface_bytes() each). Without it, or with "-", every
 *               input gets the project's pattern fill: int8 (and other
 *               byte-wise) element j = ((73 j + 17) mod 201) - 100, float32
 *               element j = ((j mod 17) - 8) * 0.25.
 *   output.bin  where to write the model outputs, raw bytes concatenated in
 *               model-output order. Without it the outputs are only printed.
 *
 * It prints a summary of each output on stdout, messages on stderr, and
 * exits with one code per kind of failure (see enum exit_code).
 *
 * Only the public API (core/include) is used. This is an application, so it
 * takes its buffers from malloc; the runtime itself never allocates: every
 * byte it uses (plan, arenas, tensor table, workspace, state) is handed to it
 * here.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_iface.h"
#include "tigris_kernels.h"
#include "tigris_loader.h"
#include "tigris_mem.h"

enum exit_code {
    EXIT_OK = 0,
    EXIT_USAGE = 2,            /* wrong arguments */
    EXIT_PLAN_IO = 3,          /* the plan file cannot be read */
    EXIT_PLAN_INVALID = 4,     /* the loader refused the plan */
    EXIT_INPUT_IO = 5,         /* the input file cannot be read */
    EXIT_INPUT_SIZE = 6,       /* the input file has the wrong size */
    EXIT_UNSUPPORTED = 7,      /* a boundary dtype or kernel family this build lacks */
    EXIT_NO_MEMORY = 8,        /* a buffer could not be allocated or set up */
    EXIT_RUN = 9,              /* the executor failed */
    EXIT_OUTPUT = 10           /* the outputs cannot be read back or written */
};

/* Plans with uncompressed XIP weights need a 16-byte aligned base. */
#define PLAN_ALIGN 16u

static size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

/* aligned_alloc wants a size that is a multiple of the alignment. */
static void *alloc_aligned(size_t align, size_t size) {
    return aligned_alloc(align, round_up(size ? size : 1, align));
}

/* Reads a whole file into an aligned buffer. Returns 0, or -1 with a message
 * printed. */
static int read_file(const char *path, const char *what, uint8_t **out, size_t *out_len) {
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    *out = NULL;
    *out_len = 0;
    if (!f) {
        fprintf(stderr, "error: cannot open %s %s: %s\n", what, path, strerror(errno));
        return -1;
    }
    for (;;) {
        size_t n;
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            uint8_t *nbuf = alloc_aligned(PLAN_ALIGN, ncap);
            if (!nbuf) {
                fprintf(stderr, "error: out of memory reading %s %s\n", what, path);
                free(buf);
                fclose(f);
                return -1;
            }
            if (len) memcpy(nbuf, buf, len);
            free(buf);
            buf = nbuf;
            cap = ncap;
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) break;
    }
    if (ferror(f)) {
        fprintf(stderr, "error: cannot read %s %s: %s\n", what, path, strerror(errno));
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    *out = buf;
    *out_len = len;
    return 0;
}

static const char *dtype_name(uint8_t dtype) {
    const char *name = tigris_dtype_name(dtype);
    return name ? name : "unknown";
}

/* The pattern fill the project's tests and `tigris validate` use. */
static void pattern_fill(uint8_t *dst, uint32_t bytes, uint8_t dtype) {
    uint32_t j;
    if (dtype == TIGRIS_DTYPE_FLOAT32) {
        for (j = 0; j < bytes / 4; j++) {
            float v = (float)((int)(j % 17) - 8) * 0.25f;
            memcpy(dst + 4 * j, &v, 4);
        }
        return;
    }
    for (j = 0; j < bytes; j++) {
        int v = (int)((73ull * j + 17) % 201) - 100;
        dst[j] = dtype == TIGRIS_DTYPE_BOOL ? (uint8_t)(v & 1) : (uint8_t)v;
    }
}

/* One output: its shape, the first values and a checksum of its bytes. */
static void print_output(const tigris_plan_t *plan, uint8_t i, uint16_t t, const uint8_t *data, uint32_t bytes) {
    const tigris_tensor_t *tensor = &plan->tensors[t];
    const int32_t *shape = tigris_tensor_shape(plan, tensor);
    const uint8_t dtype = tigris_tensor_declared_dtype(tensor);
    const uint32_t esize = tigris_dtype_size(dtype) ? tigris_dtype_size(dtype) : 1;
    const uint32_t count = bytes / esize, shown = count < 16 ? count : 16;
    uint32_t hash = 2166136261u, k;
    for (k = 0; k < bytes; k++) hash = (hash ^ data[k]) * 16777619u;
    printf("output %u \"%s\" %s [", (unsigned)i, tigris_tensor_name(plan, tensor), dtype_name(dtype));
    for (k = 0; shape && k < tensor->ndim; k++) printf("%s%ld", k ? "," : "", (long)shape[k]);
    printf("] %lu bytes fnv1a 0x%08lx:", (unsigned long)bytes, (unsigned long)hash);
    for (k = 0; k < shown; k++) {
        const uint8_t *p = data + (size_t)k * esize;
        switch (dtype) {
        case TIGRIS_DTYPE_FLOAT32: { float v; memcpy(&v, p, 4); printf(" %g", (double)v); break; }
        case TIGRIS_DTYPE_INT8: printf(" %d", (int)(int8_t)*p); break;
        case TIGRIS_DTYPE_INT16: { int16_t v; memcpy(&v, p, 2); printf(" %d", (int)v); break; }
        case TIGRIS_DTYPE_INT32: { int32_t v; memcpy(&v, p, 4); printf(" %ld", (long)v); break; }
        case TIGRIS_DTYPE_INT64: { int64_t v; memcpy(&v, p, 8); printf(" %lld", (long long)v); break; }
        default: printf(" %u", (unsigned)*p); break;
        }
    }
    printf("%s\n", shown < count ? " ..." : "");
}

struct app {
    uint8_t *plan_bytes, *input, *outputs, *fast, *slow, *workspace, *state;
    void **tensor_ptrs;
};

static void app_free(struct app *a) {
    free(a->plan_bytes);
    free(a->input);
    free(a->outputs);
    free(a->fast);
    free(a->slow);
    free(a->workspace);
    free(a->state);
    free(a->tensor_ptrs);
}

static int run(int argc, char **argv, struct app *a) {
    const char *plan_path, *input_path, *output_path;
    size_t plan_len = 0, input_len = 0, in_total = 0, out_total = 0, ws_size, state_size, off;
    uint64_t slow_size;
    uint32_t fast_size;
    uint16_t nt, t;
    uint8_t i, data_dtype;
    tigris_plan_t plan;
    tigris_plan_limits_t need;
    tigris_mem_t mem;
    tigris_exec_stats_t stats;
    tigris_kernel_fn kernel = NULL;
    tigris_error_t err;
    tigris_mem_error_t merr;
    tigris_exec_error_t xerr;

    if (argc < 2 || argc > 4 || !argv[1][0]) {
        fprintf(stderr,
                "usage: %s model.tgrs [input.bin|-] [output.bin]\n"
                "  input.bin: model inputs, raw bytes in model-input order (default: pattern fill)\n"
                "  output.bin: model outputs, raw bytes in model-output order\n"
                "exit codes: 0 ok, 2 usage, 3 plan file, 4 plan refused, 5 input file,\n"
                "  6 input size, 7 unsupported, 8 memory, 9 run, 10 output\n",
                argc > 0 ? argv[0] : "tigris_posix_example");
        return EXIT_USAGE;
    }
    plan_path = argv[1];
    input_path = argc > 2 && strcmp(argv[2], "-") != 0 ? argv[2] : NULL;
    output_path = argc > 3 ? argv[3] : NULL;

    /* 1. The plan: read, then load. The loader copies nothing, so plan_bytes
     *    stays alive (and unchanged) until the last use of plan. */
    if (read_file(plan_path, "plan", &a->plan_bytes, &plan_len) != 0) return EXIT_PLAN_IO;
    if (plan_len > UINT32_MAX) {
        fprintf(stderr, "error: plan %s: %lu bytes is larger than a plan can be\n", plan_path,
                (unsigned long)plan_len);
        return EXIT_PLAN_INVALID;
    }
    err = tigris_plan_load_ex(a->plan_bytes, (uint32_t)plan_len, &plan, &need);
    if (err != TIGRIS_OK) {
        fprintf(stderr, "error: plan %s refused: %s (%d)\n", plan_path, tigris_error_str(err), (int)err);
        if (err == TIGRIS_ERR_PLAN_LIMITS) {
            tigris_plan_limits_t have;
            tigris_build_limits(&have);
            fprintf(stderr, "  the plan needs %lu tensors (this build allows %lu)\n", (unsigned long)need.tensors,
                    (unsigned long)have.tensors);
        }
        return err == TIGRIS_ERR_KERNEL_DISABLED ? EXIT_UNSUPPORTED : EXIT_PLAN_INVALID;
    }
    nt = plan.header->num_tensors;
    data_dtype = tigris_plan_data_dtype(&plan);
    printf("plan %s: schema %u, %u tensors, %u ops, %u stages, %s\n", plan_path, (unsigned)plan.header->version,
           (unsigned)nt, (unsigned)plan.header->num_ops, (unsigned)plan.header->num_stages, dtype_name(data_dtype));

    /* 2. The kernels: int8 plans on the int8 reference (which also runs their
     *    float32 sections), float32 plans on the float32 reference. */
#if TIGRIS_ENABLE_S8
    if (data_dtype == TIGRIS_DTYPE_INT8) kernel = tigris_dispatch_kernel_s8;
#endif
#if TIGRIS_ENABLE_F32
    if (data_dtype != TIGRIS_DTYPE_INT8) kernel = tigris_dispatch_kernel;
#endif
    if (!kernel) {
        fprintf(stderr, "error: this build has no %s kernels\n", dtype_name(data_dtype));
        return EXIT_UNSUPPORTED;
    }

    /* 3. The boundary: what the caller hands over and gets back. */
    for (i = 0; i < plan.header->num_model_inputs; i++) {
        uint32_t n = tigris_iface_bytes(&plan, plan.model_inputs[i]);
        if (n == 0) {
            fprintf(stderr, "error: model input %u has a boundary dtype this runtime cannot convert\n", (unsigned)i);
            return EXIT_UNSUPPORTED;
        }
        in_total += n;
    }
    for (i = 0; i < plan.header->num_model_outputs; i++) {
        uint32_t n = tigris_iface_bytes(&plan, plan.model_outputs[i]);
        if (n == 0) {
            fprintf(stderr, "error: model output %u has a boundary dtype this runtime cannot convert\n", (unsigned)i);
            return EXIT_UNSUPPORTED;
        }
        out_total += n;
    }

    /* 4. The input bytes: from the file, whose size must match exactly, or
     *    the pattern fill. */
    if (input_path) {
        if (read_file(input_path, "input", &a->input, &input_len) != 0) return EXIT_INPUT_IO;
        if (input_len != in_total) {
            fprintf(stderr, "error: input %s has %lu bytes; the plan's %u model input(s) take %lu bytes\n",
                    input_path, (unsigned long)input_len, (unsigned)plan.header->num_model_inputs,
                    (unsigned long)in_total);
            return EXIT_INPUT_SIZE;
        }
    } else {
        a->input = malloc(in_total ? in_total : 1);
        if (!a->input) {
            fprintf(stderr, "error: out of memory for %lu input bytes\n", (unsigned long)in_total);
            return EXIT_NO_MEMORY;
        }
        for (i = 0, off = 0; i < plan.header->num_model_inputs; i++) {
            t = plan.model_inputs[i];
            pattern_fill(a->input + off, tigris_iface_bytes(&plan, t), tigris_tensor_declared_dtype(&plan.tensors[t]));
            off += tigris_iface_bytes(&plan, t);
        }
    }

    /* 5. The arenas. The fast arena is what the plan asks for, on a base
     *    aligned to TIGRIS_TENSOR_ALIGN (so no alignment padding is lost).
     *    The plan states no slow figure; room for every tensor twice, plus
     *    alignment, is ample for the executor's spills and model outputs. */
    fast_size = tigris_fast_arena_required(&plan);
    if (fast_size == UINT32_MAX) {
        fprintf(stderr, "error: the plan's fast arena requirement cannot be represented\n");
        return EXIT_PLAN_INVALID;
    }
    slow_size = 4096;
    for (t = 0; t < nt; t++) slow_size += 2ull * (plan.tensors[t].size_bytes + TIGRIS_TENSOR_ALIGN);
    if (slow_size > UINT32_MAX) slow_size = UINT32_MAX;
    a->fast = alloc_aligned(TIGRIS_TENSOR_ALIGN, fast_size);
    a->slow = alloc_aligned(TIGRIS_TENSOR_ALIGN, (size_t)slow_size);
    a->tensor_ptrs = calloc(nt ? nt : 1, sizeof(void *));
    if (!a->fast || !a->slow || !a->tensor_ptrs) {
        fprintf(stderr, "error: out of memory for the arenas (fast %lu, slow %lu bytes)\n", (unsigned long)fast_size,
                (unsigned long)slow_size);
        return EXIT_NO_MEMORY;
    }
    merr = tigris_mem_init(&mem, a->tensor_ptrs, nt, a->fast, fast_size, a->slow, (uint32_t)slow_size);
    if (merr != TIGRIS_MEM_OK) {
        fprintf(stderr, "error: cannot set up the arenas: %s\n", tigris_mem_error_str(merr));
        return EXIT_NO_MEMORY;
    }

    /* 6. The executor's workspace and, for plans that keep variables, their
     *    state, both sized by the plan. */
    ws_size = tigris_executor_workspace_required(&plan);
    if (ws_size == 0) {
        fprintf(stderr, "error: the plan's metadata does not size an executor workspace\n");
        return EXIT_PLAN_INVALID;
    }
    a->workspace = malloc(ws_size);
    state_size = tigris_state_required(&plan);
    if (state_size) a->state = malloc(state_size);
    if (!a->workspace || (state_size && !a->state)) {
        fprintf(stderr, "error: out of memory for the workspace (%lu bytes) or state (%lu bytes)\n",
                (unsigned long)ws_size, (unsigned long)state_size);
        return EXIT_NO_MEMORY;
    }
    if (state_size) {
        xerr = tigris_state_init(&plan, a->state, state_size);
        if (xerr != TIGRIS_EXEC_OK) {
            fprintf(stderr, "error: cannot set up the plan's state: %s\n", tigris_exec_error_str(xerr));
            return EXIT_NO_MEMORY;
        }
    }

    /* 7. Inputs in, run, outputs out. */
    for (i = 0, off = 0; i < plan.header->num_model_inputs; i++) {
        const uint32_t n = tigris_iface_bytes(&plan, plan.model_inputs[i]);
        err = tigris_input_write(&plan, &mem, plan.model_inputs[i], a->input + off, n);
        if (err != TIGRIS_OK) {
            fprintf(stderr, "error: cannot place model input %u: %s\n", (unsigned)i, tigris_error_str(err));
            return err == TIGRIS_ERR_BAD_INTERFACE ? EXIT_UNSUPPORTED : EXIT_NO_MEMORY;
        }
        off += n;
    }
    memset(&stats, 0, sizeof stats);
    xerr = tigris_run_with_state(&plan, &mem, kernel, NULL, &stats, a->workspace, ws_size, a->state, state_size);
    if (xerr != TIGRIS_EXEC_OK) {
        fprintf(stderr, "error: the run failed: %s (%d); fast arena %lu bytes, slow %lu bytes\n",
                tigris_exec_error_str(xerr), (int)xerr, (unsigned long)fast_size, (unsigned long)slow_size);
        return EXIT_RUN;
    }
    printf("run: fast arena %lu bytes (peak %lu), slow %lu bytes (peak %lu), %u tiles\n", (unsigned long)fast_size,
           (unsigned long)mem.fast_peak, (unsigned long)slow_size, (unsigned long)mem.slow_peak,
           (unsigned)stats.total_tiles);

    a->outputs = malloc(out_total ? out_total : 1);
    if (!a->outputs) {
        fprintf(stderr, "error: out of memory for %lu output bytes\n", (unsigned long)out_total);
        return EXIT_NO_MEMORY;
    }
    for (i = 0, off = 0; i < plan.header->num_model_outputs; i++) {
        const uint16_t o = plan.model_outputs[i];
        const uint32_t n = tigris_iface_bytes(&plan, o);
        err = tigris_output_read(&plan, &mem, o, a->outputs + off, n);
        if (err != TIGRIS_OK) {
            fprintf(stderr, "error: cannot read model output %u: %s\n", (unsigned)i, tigris_error_str(err));
            return EXIT_OUTPUT;
        }
        print_output(&plan, i, o, a->outputs + off, n);
        off += n;
    }

    if (output_path) {
        FILE *f = fopen(output_path, "wb");
        if (!f) {
            fprintf(stderr, "error: cannot open output %s: %s\n", output_path, strerror(errno));
            return EXIT_OUTPUT;
        }
        if (fwrite(a->outputs, 1, out_total, f) != out_total) {
            fprintf(stderr, "error: cannot write output %s: %s\n", output_path, strerror(errno));
            fclose(f);
            return EXIT_OUTPUT;
        }
        if (fclose(f) != 0) {
            fprintf(stderr, "error: cannot write output %s: %s\n", output_path, strerror(errno));
            return EXIT_OUTPUT;
        }
        printf("wrote %lu output bytes to %s\n", (unsigned long)out_total, output_path);
    }
    return EXIT_OK;
}

int main(int argc, char **argv) {
    struct app a;
    int rc;
    memset(&a, 0, sizeof a);
    rc = run(argc, argv, &a);
    app_free(&a);
    if (fflush(stdout) != 0 && rc == EXIT_OK) {
        fprintf(stderr, "error: cannot write to stdout: %s\n", strerror(errno));
        rc = EXIT_OUTPUT;
    }
    return rc;
}
