/* tflm_oracle.h - TensorFlow Lite Micro behind a C interface, the oracle the
 * project's bit-exactness claims are checked against.
 *
 * The library (libtigris_tflm_oracle.so) holds TFLite Micro's interpreter and
 * reference kernels built with hidden visibility; only the functions below are
 * exported. TFLite Micro pins its own FlatBuffers version, and the project's
 * TFLite writer uses Debian's: keeping them in different shared objects is
 * what lets one test process build a model with one and run it with the other
 * without the two versions' inline functions colliding. */
#ifndef TIGRIS_TFLM_ORACLE_H
#define TIGRIS_TFLM_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    TFLM_ORACLE_OK = 0,
    TFLM_ORACLE_BAD_MODEL = 3,  /* not a valid TFLite flatbuffer */
    TFLM_ORACLE_ALLOCATE = 4,   /* AllocateTensors failed: an operator TFLite Micro refuses, or arena too small */
    TFLM_ORACLE_INPUT = 5,      /* input bytes do not match the model's inputs */
    TFLM_ORACLE_INVOKE = 6,     /* Invoke failed */
    TFLM_ORACLE_OUTPUT = 7,     /* the caller's output buffer is too small */
    TFLM_ORACLE_TOO_MANY = 8    /* more inputs or outputs than TFLM_ORACLE_MAX_IO */
};

#define TFLM_ORACLE_MAX_IO 16
#define TFLM_ORACLE_MAX_RANK 8

typedef struct {
    int32_t tensor;  /* index in subgraph 0 */
    int32_t type;    /* TfLiteType: 1 float32, 2 int32, 3 uint8, 4 int64, 6 bool, 7 int16, 9 int8 */
    int32_t rank;
    int32_t dims[TFLM_ORACLE_MAX_RANK];
    size_t bytes;
    float scale;     /* 0 when not quantized */
    int32_t zero_point;
} tflm_oracle_tensor;

typedef struct {
    int status;                 /* TFLM_ORACLE_* */
    char message[256];          /* what failed, for a person */
    size_t arena_used_bytes;    /* MicroInterpreter::arena_used_bytes() after AllocateTensors */
    size_t output_bytes;        /* bytes written to (or, on TFLM_ORACLE_OUTPUT, needed in) output */
    int32_t n_inputs, n_outputs;
    tflm_oracle_tensor inputs[TFLM_ORACLE_MAX_IO], outputs[TFLM_ORACLE_MAX_IO];
} tflm_oracle_result;

/* Called once per tensor after the run when dumping (see keep_all). */
typedef void (*tflm_oracle_dump_fn)(void *ctx, int32_t tensor, const void *data, size_t bytes);

/* Runs `model` once on `input` (the inputs' raw bytes back to back, in model
 * input order) in an arena of arena_bytes, writing the outputs back to back
 * into `output`. With dump != NULL the interpreter keeps every tensor (its
 * preserve_all_tensors mode) and dump is called for each after the run; the
 * arena figure is then not TFLite Micro's real one. Returns result->status. */
int tflm_oracle_run(const uint8_t *model, size_t model_bytes, const uint8_t *input, size_t input_bytes,
                    uint8_t *output, size_t output_capacity, size_t arena_bytes, tflm_oracle_dump_fn dump,
                    void *dump_ctx, tflm_oracle_result *result);

/* A prepared interpreter kept between runs, for timing Invoke() alone
 * (benchmarks). tflm_oracle_open copies the model, allocates an arena of
 * arena_bytes and calls AllocateTensors; NULL with result->status set on
 * failure. tflm_oracle_invoke copies `input` into the input tensors, runs
 * Invoke() and copies the outputs out, returning a TFLM_ORACLE_* status. */
typedef struct tflm_oracle_session tflm_oracle_session;
tflm_oracle_session *tflm_oracle_open(const uint8_t *model, size_t model_bytes, size_t arena_bytes,
                                      tflm_oracle_result *result);
int tflm_oracle_invoke(tflm_oracle_session *s, const uint8_t *input, size_t input_bytes, uint8_t *output,
                       size_t output_capacity);
void tflm_oracle_close(tflm_oracle_session *s);

#ifdef __cplusplus
}
#endif

#endif
