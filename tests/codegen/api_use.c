/*
 * api_use.c - a program written against a generated harness's API (name m)
 * the way an application would: calls out of order are refused with their
 * status, and one _init() serves several inferences, each giving the
 * expected bytes (tests/codegen/harness_test.cmake builds and runs it).
 *
 *   api_use IN1 EXPECTED1 IN2 EXPECTED2
 */
#include <stdio.h>
#include <string.h>

#include "m.h"

static unsigned char in[M_INPUT_BYTES], out[M_OUTPUT_BYTES], want[M_OUTPUT_BYTES];

static int load(const char *path, unsigned char *dst, size_t n) {
    FILE *f = fopen(path, "rb");
    size_t got;
    if (!f) return -1;
    got = fread(dst, 1, n, f);
    fclose(f);
    return got == n ? 0 : -1;
}

#define CHECK(cond, ...)                          \
    do {                                          \
        if (!(cond)) {                            \
            fprintf(stderr, "api_use: " __VA_ARGS__); \
            fprintf(stderr, " (%s)\n", m_last_error()); \
            return 1;                             \
        }                                         \
    } while (0)

int main(int argc, char **argv) {
    int round;
    if (argc != 5) return 2;
    CHECK(m_run() == M_ERR_ORDER, "m_run before m_init was not refused");
    CHECK(m_set_inputs(in, sizeof in) == M_ERR_ORDER, "an input before m_init was not refused");
    CHECK(m_init() == M_OK, "m_init failed");
    CHECK(m_get_outputs(out, sizeof out) == M_ERR_ORDER, "outputs before a run were not refused");
    CHECK(m_run() == M_ERR_INPUT, "a run without inputs was not refused");
    CHECK(m_set_inputs(in, sizeof in - 1) == M_ERR_INPUT, "a short input was not refused");
    for (round = 0; round < 4; round++) {
        const char *ip = argv[1 + 2 * (round % 2)], *ep = argv[2 + 2 * (round % 2)];
        CHECK(load(ip, in, sizeof in) == 0 && load(ep, want, sizeof want) == 0, "cannot read %s or %s", ip, ep);
        CHECK(m_set_input0((const m_input0_elem *)(const void *)in) == M_OK, "m_set_input0 failed");
        CHECK(m_run() == M_OK, "run %d failed", round);
        CHECK(m_get_output0((m_output0_elem *)(void *)out) == M_OK, "m_get_output0 failed");
        CHECK(memcmp(out, want, sizeof out) == 0, "run %d on %s gave other bytes than %s", round, ip, ep);
        CHECK(m_last_error()[0] == '\0', "an error message after success");
        /* Every run needs its inputs again. */
        CHECK(m_run() == M_ERR_INPUT, "a second run without new inputs was not refused");
    }
    m_deinit();
    CHECK(m_run() == M_ERR_ORDER, "m_run after m_deinit was not refused");
    printf("api_use: 4 inferences on one m_init, every out-of-order call refused\n");
    return 0;
}
