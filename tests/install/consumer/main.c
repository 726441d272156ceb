/*
 * tigris_consumer - built against the installed tigris_runtime package only.
 *
 *   tigris_consumer [model.tgrs]
 *
 * Checks that the exported target carries the runtime's compile definitions
 * and the headers match the library, then (given a plan) loads it, runs it
 * once with zero inputs and prints the output byte count. Exit 0 when every
 * check holds.
 */

/* The exported target must define these on the command line, before any
 * header: tigris_config.h would otherwise supply defaults silently. */
#if !defined(TIGRIS_ENABLE_F32) || !defined(TIGRIS_ENABLE_S8)
#error "tigris::runtime did not carry TIGRIS_ENABLE_F32 / TIGRIS_ENABLE_S8"
#endif
#if defined(CONSUMER_EXPECT_TRACE) && CONSUMER_EXPECT_TRACE && !defined(TIGRIS_TRACE)
#error "the runtime was built with TIGRIS_TRACE but tigris::runtime did not carry it"
#endif
#if defined(CONSUMER_EXPECT_TRACE) && !CONSUMER_EXPECT_TRACE && defined(TIGRIS_TRACE)
#error "TIGRIS_TRACE is defined but the runtime was built without it"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_iface.h"
#include "tigris_kernels.h"
#include "tigris_loader.h"
#include "tigris_mem.h"

#if TIGRIS_RUNTIME_VERSION_MAJOR == 0 && TIGRIS_RUNTIME_VERSION_MINOR < 6
#error "this consumer needs runtime 0.6 or later"
#endif

static int fail(const char *what) {
    fprintf(stderr, "consumer: %s\n", what);
    return 1;
}

static int run_plan(const char *path) {
    FILE *f = fopen(path, "rb");
    uint8_t *bytes = NULL, *fast = NULL, *slow = NULL, *ws = NULL, *io = NULL;
    void **ptrs = NULL;
    long len;
    int rc = 1;
    tigris_plan_t plan;
    tigris_mem_t mem;
    tigris_error_t err;
    tigris_exec_error_t xerr;
    uint32_t fast_size, slow_size = 4096, out_bytes = 0;
    size_t ws_size;
    uint16_t t;
    uint8_t i;

    if (!f) return fail("cannot open the plan");
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return fail("cannot size the plan");
    }
    bytes = aligned_alloc(16, ((size_t)len + 15) / 16 * 16);
    if (!bytes || fread(bytes, 1, (size_t)len, f) != (size_t)len) {
        fclose(f);
        free(bytes);
        return fail("cannot read the plan");
    }
    fclose(f);
    err = tigris_plan_load(bytes, (uint32_t)len, &plan);
    if (err != TIGRIS_OK) {
        fprintf(stderr, "consumer: plan refused: %s\n", tigris_error_str(err));
        goto out;
    }
    fast_size = tigris_fast_arena_required(&plan);
    for (t = 0; t < plan.header->num_tensors; t++) slow_size += 2 * (plan.tensors[t].size_bytes + 64);
    fast = aligned_alloc(TIGRIS_TENSOR_ALIGN, (fast_size + TIGRIS_TENSOR_ALIGN - 1) / TIGRIS_TENSOR_ALIGN * TIGRIS_TENSOR_ALIGN);
    slow = aligned_alloc(TIGRIS_TENSOR_ALIGN, (slow_size + TIGRIS_TENSOR_ALIGN - 1) / TIGRIS_TENSOR_ALIGN * TIGRIS_TENSOR_ALIGN);
    ptrs = calloc(plan.header->num_tensors + 1u, sizeof(void *));
    ws_size = tigris_executor_workspace_required(&plan);
    ws = malloc(ws_size ? ws_size : 1);
    io = calloc(1, 1u << 20);
    if (!fast || !slow || !ptrs || !ws || !io || ws_size == 0) {
        fail("cannot set up buffers");
        goto out;
    }
    if (tigris_mem_init(&mem, ptrs, plan.header->num_tensors, fast, fast_size, slow, slow_size) != TIGRIS_MEM_OK) {
        fail("tigris_mem_init failed");
        goto out;
    }
    for (i = 0; i < plan.header->num_model_inputs; i++) {
        uint32_t n = tigris_iface_bytes(&plan, plan.model_inputs[i]);
        if (n == 0 || n > (1u << 20) || tigris_input_write(&plan, &mem, plan.model_inputs[i], io, n) != TIGRIS_OK) {
            fail("cannot write an input");
            goto out;
        }
    }
    xerr = tigris_run_with_workspace_buffer(&plan, &mem,
                                            tigris_plan_data_dtype(&plan) == TIGRIS_DTYPE_INT8
                                                ? tigris_dispatch_kernel_s8
                                                : tigris_dispatch_kernel,
                                            NULL, NULL, ws, ws_size);
    if (xerr != TIGRIS_EXEC_OK) {
        fprintf(stderr, "consumer: run failed: %s\n", tigris_exec_error_str(xerr));
        goto out;
    }
    for (i = 0; i < plan.header->num_model_outputs; i++) {
        uint32_t n = tigris_iface_bytes(&plan, plan.model_outputs[i]);
        if (n == 0 || n > (1u << 20) || tigris_output_read(&plan, &mem, plan.model_outputs[i], io, n) != TIGRIS_OK) {
            fail("cannot read an output");
            goto out;
        }
        out_bytes += n;
    }
    printf("consumer: ran %s, %lu output bytes\n", path, (unsigned long)out_bytes);
    rc = 0;
out:
    free(bytes);
    free(fast);
    free(slow);
    free(ptrs);
    free(ws);
    free(io);
    return rc;
}

int main(int argc, char **argv) {
    const char *s = tigris_error_str(TIGRIS_ERR_BAD_VERSION);
    printf("consumer: runtime headers %d.%d.%d, schemas %d..%d\n", TIGRIS_RUNTIME_VERSION_MAJOR,
           TIGRIS_RUNTIME_VERSION_MINOR, TIGRIS_RUNTIME_VERSION_PATCH, TIGRIS_SCHEMA_VERSION_MIN,
           TIGRIS_SCHEMA_VERSION);
    if (!s || !*s) return fail("tigris_error_str returned nothing");
    /* The headers and the library must agree on the configured limits. */
    if (tigris_executor_workspace_size() != sizeof(tigris_executor_workspace_t))
        return fail("the library's executor workspace differs from the headers'");
    /* A plan that is not one is refused, with the right code. */
    {
        static const uint8_t junk[64] = {1, 2, 3};
        tigris_plan_t p;
        if (tigris_plan_load(junk, sizeof junk, &p) == TIGRIS_OK) return fail("junk loaded as a plan");
    }
    if (argc > 1) return run_plan(argv[1]);
    printf("consumer: ok\n");
    return 0;
}
