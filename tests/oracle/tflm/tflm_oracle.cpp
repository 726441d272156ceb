// tflm_oracle.cpp - tflm_oracle.h over TensorFlow Lite Micro's interpreter.
// Built in TFLite Micro's own dialect (C++17, no RTTI or exceptions) with
// hidden visibility; tflm_oracle_run is the one exported symbol.
#include "tflm_oracle.h"

#include <cstdio>
#include <cstring>
#include <memory>

#include "tensorflow/lite/micro/memory_helpers.h"
#include "tensorflow/lite/micro/micro_interpreter.h"
#include "tensorflow/lite/micro/micro_mutable_op_resolver.h"
#include "tensorflow/lite/schema/schema_generated.h"

namespace {

// Every builtin TFLite Micro's reference kernels implement. The custom
// signal-processing operators are left out: no model the project imports
// uses them and they live outside the micro/kernels tree.
using Resolver = tflite::MicroMutableOpResolver<120>;

bool add_all_builtins(Resolver &r) {
    const TfLiteStatus all[] = {
        r.AddAbs(), r.AddAdd(), r.AddAddN(), r.AddArgMax(), r.AddArgMin(), r.AddAssignVariable(),
        r.AddAveragePool2D(), r.AddBatchMatMul(), r.AddBatchToSpaceNd(), r.AddBroadcastArgs(),
        r.AddBroadcastTo(), r.AddCallOnce(), r.AddCast(), r.AddCeil(), r.AddConcatenation(),
        r.AddConv2D(), r.AddCos(), r.AddCumSum(), r.AddDepthToSpace(), r.AddDepthwiseConv2D(),
        r.AddDequantize(), r.AddDetectionPostprocess(), r.AddDiv(), r.AddDynamicUpdateSlice(),
        r.AddEmbeddingLookup(), r.AddElu(), r.AddEqual(), r.AddExp(), r.AddExpandDims(), r.AddFill(),
        r.AddFloor(), r.AddFloorDiv(), r.AddFloorMod(), r.AddFullyConnected(), r.AddGather(),
        r.AddGatherNd(), r.AddGreater(), r.AddGreaterEqual(), r.AddHardSwish(), r.AddIf(),
        r.AddL2Normalization(), r.AddL2Pool2D(), r.AddLeakyRelu(), r.AddLess(), r.AddLessEqual(),
        r.AddLog(), r.AddLogicalAnd(), r.AddLogicalNot(), r.AddLogicalOr(), r.AddLogistic(),
        r.AddLogSoftmax(), r.AddMaximum(), r.AddMaxPool2D(), r.AddMirrorPad(), r.AddMean(),
        r.AddMinimum(), r.AddMul(), r.AddNeg(), r.AddNotEqual(), r.AddPack(), r.AddPad(), r.AddPadV2(),
        r.AddPrelu(), r.AddQuantize(), r.AddReadVariable(), r.AddReduceAll(), r.AddReduceMax(),
        r.AddReduceMin(), r.AddRelu(), r.AddRelu6(), r.AddReshape(), r.AddResizeBilinear(),
        r.AddResizeNearestNeighbor(), r.AddReverseV2(), r.AddRound(), r.AddRsqrt(), r.AddSelectV2(),
        r.AddShape(), r.AddSin(), r.AddSlice(), r.AddSoftmax(), r.AddSpaceToBatchNd(),
        r.AddSpaceToDepth(), r.AddSplit(), r.AddSplitV(), r.AddSqueeze(), r.AddSqrt(), r.AddSquare(),
        r.AddSquaredDifference(), r.AddStridedSlice(), r.AddSub(), r.AddSum(), r.AddSvdf(), r.AddTanh(),
        r.AddTransposeConv(), r.AddTranspose(), r.AddUnpack(), r.AddUnidirectionalSequenceLSTM(),
        r.AddVarHandle(), r.AddWhile(), r.AddZerosLike(),
    };
    for (TfLiteStatus s : all)
        if (s != kTfLiteOk) return false;
    return true;
}

// One resolver for every call (the oracle is used from one thread at a time).
const Resolver *shared_resolver() {
    static Resolver resolver;
    static const bool ready = add_all_builtins(resolver);
    return ready ? &resolver : nullptr;
}

int fail(tflm_oracle_result *r, int status, const char *what) {
    r->status = status;
    std::snprintf(r->message, sizeof r->message, "%s", what);
    return status;
}

void describe(const TfLiteTensor *t, int32_t index, tflm_oracle_tensor *out) {
    std::memset(out, 0, sizeof *out);
    out->tensor = index;
    out->type = static_cast<int32_t>(t->type);
    out->rank = t->dims ? t->dims->size : 0;
    for (int d = 0; d < out->rank && d < TFLM_ORACLE_MAX_RANK; ++d) out->dims[d] = t->dims->data[d];
    out->bytes = t->bytes;
    out->scale = t->params.scale;
    out->zero_point = t->params.zero_point;
}

// The interpreter wants 16-byte aligned model and arena memory. One arena
// per process, grown when a call asks for more; the oracle is used from one
// thread at a time (the library is built with -fno-threadsafe-statics).
struct Buffers {
    std::unique_ptr<uint8_t[]> arena, model;
    size_t arena_cap = 0, model_cap = 0;
};

uint8_t *aligned(std::unique_ptr<uint8_t[]> &store, size_t &cap, size_t need) {
    if (cap < need) {
        store.reset(new uint8_t[need + 16]);
        cap = need;
    }
    uint8_t *p = store.get();
    return p + (16 - reinterpret_cast<uintptr_t>(p) % 16) % 16;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int tflm_oracle_run(
    const uint8_t *model_bytes, size_t model_size, const uint8_t *input, size_t input_size, uint8_t *output,
    size_t output_capacity, size_t arena_bytes, tflm_oracle_dump_fn dump, void *dump_ctx,
    tflm_oracle_result *r) {
    std::memset(r, 0, sizeof *r);
    static Buffers buffers;
    const Resolver *resolver = shared_resolver();
    if (!resolver) return fail(r, TFLM_ORACLE_ALLOCATE, "op resolver too small");
    flatbuffers::Verifier verifier(model_bytes, model_size);
    if (!tflite::VerifyModelBuffer(verifier)) return fail(r, TFLM_ORACLE_BAD_MODEL, "not a valid TFLite model");
    uint8_t *model_copy = aligned(buffers.model, buffers.model_cap, model_size);
    std::memcpy(model_copy, model_bytes, model_size);
    uint8_t *arena = aligned(buffers.arena, buffers.arena_cap, arena_bytes);

    const tflite::Model *model = tflite::GetModel(model_copy);
    tflite::MicroInterpreter interpreter(model, *resolver, arena, arena_bytes, nullptr, nullptr, dump != nullptr);
    if (interpreter.AllocateTensors() != kTfLiteOk)
        return fail(r, TFLM_ORACLE_ALLOCATE, "AllocateTensors failed (an operator TFLite Micro refuses, or the arena is too small)");
    r->arena_used_bytes = interpreter.arena_used_bytes();
    if (interpreter.inputs_size() > TFLM_ORACLE_MAX_IO || interpreter.outputs_size() > TFLM_ORACLE_MAX_IO)
        return fail(r, TFLM_ORACLE_TOO_MANY, "more inputs or outputs than TFLM_ORACLE_MAX_IO");
    r->n_inputs = static_cast<int32_t>(interpreter.inputs_size());
    r->n_outputs = static_cast<int32_t>(interpreter.outputs_size());
    size_t want = 0;
    for (int32_t i = 0; i < r->n_inputs; ++i) {
        describe(interpreter.input(i), interpreter.inputs()[i], &r->inputs[i]);
        want += interpreter.input(i)->bytes;
    }
    size_t have = 0;
    for (int32_t i = 0; i < r->n_outputs; ++i) {
        describe(interpreter.output(i), interpreter.outputs()[i], &r->outputs[i]);
        have += interpreter.output(i)->bytes;
    }
    if (input_size != want) {
        fail(r, TFLM_ORACLE_INPUT, "");
        std::snprintf(r->message, sizeof r->message, "the input holds %zu bytes, the model's inputs take %zu",
                      input_size, want);
        return r->status;
    }
    size_t at = 0;
    for (int32_t i = 0; i < r->n_inputs; ++i) {
        TfLiteTensor *t = interpreter.input(i);
        std::memcpy(t->data.raw, input + at, t->bytes);
        at += t->bytes;
    }
    if (interpreter.Invoke() != kTfLiteOk) return fail(r, TFLM_ORACLE_INVOKE, "Invoke failed");
    r->output_bytes = have;
    if (have > output_capacity) return fail(r, TFLM_ORACLE_OUTPUT, "output buffer too small");
    at = 0;
    for (int32_t i = 0; i < r->n_outputs; ++i) {
        const TfLiteTensor *t = interpreter.output(i);
        std::memcpy(output + at, t->data.raw, t->bytes);
        at += t->bytes;
    }
    if (dump) {
        const auto *tensors = model->subgraphs()->Get(0)->tensors();
        for (int32_t i = 0; tensors && i < static_cast<int32_t>(tensors->size()); ++i) {
            const TfLiteEvalTensor *t = interpreter.GetTensor(i);
            size_t bytes = 0;
            if (!t || !t->data.data || !t->dims || tflite::TfLiteEvalTensorByteLength(t, &bytes) != kTfLiteOk) continue;
            dump(dump_ctx, i, t->data.data, bytes);
        }
    }
    return TFLM_ORACLE_OK;
}

struct tflm_oracle_session {
    std::unique_ptr<uint8_t[]> model_store, arena_store;
    std::unique_ptr<tflite::MicroInterpreter> interpreter;
    size_t in_bytes = 0, out_bytes = 0;
};

extern "C" __attribute__((visibility("default"))) tflm_oracle_session *tflm_oracle_open(
    const uint8_t *model_bytes, size_t model_size, size_t arena_bytes, tflm_oracle_result *r) {
    std::memset(r, 0, sizeof *r);
    const Resolver *resolver = shared_resolver();
    if (!resolver) {
        fail(r, TFLM_ORACLE_ALLOCATE, "op resolver too small");
        return nullptr;
    }
    flatbuffers::Verifier verifier(model_bytes, model_size);
    if (!tflite::VerifyModelBuffer(verifier)) {
        fail(r, TFLM_ORACLE_BAD_MODEL, "not a valid TFLite model");
        return nullptr;
    }
    std::unique_ptr<tflm_oracle_session> s(new tflm_oracle_session);
    size_t cap = 0;
    uint8_t *m = aligned(s->model_store, cap, model_size);
    std::memcpy(m, model_bytes, model_size);
    cap = 0;
    uint8_t *arena = aligned(s->arena_store, cap, arena_bytes);
    s->interpreter.reset(new tflite::MicroInterpreter(tflite::GetModel(m), *resolver, arena, arena_bytes));
    if (s->interpreter->AllocateTensors() != kTfLiteOk) {
        fail(r, TFLM_ORACLE_ALLOCATE, "AllocateTensors failed");
        return nullptr;
    }
    r->arena_used_bytes = s->interpreter->arena_used_bytes();
    for (size_t i = 0; i < s->interpreter->inputs_size(); ++i) s->in_bytes += s->interpreter->input(i)->bytes;
    for (size_t i = 0; i < s->interpreter->outputs_size(); ++i) s->out_bytes += s->interpreter->output(i)->bytes;
    r->output_bytes = s->out_bytes;
    return s.release();
}

extern "C" __attribute__((visibility("default"))) int tflm_oracle_invoke(tflm_oracle_session *s, const uint8_t *input,
                                                                        size_t input_bytes, uint8_t *output,
                                                                        size_t output_capacity) {
    if (input_bytes != s->in_bytes) return TFLM_ORACLE_INPUT;
    if (output_capacity < s->out_bytes) return TFLM_ORACLE_OUTPUT;
    tflite::MicroInterpreter &it = *s->interpreter;
    size_t at = 0;
    for (size_t i = 0; i < it.inputs_size(); ++i) {
        std::memcpy(it.input(i)->data.raw, input + at, it.input(i)->bytes);
        at += it.input(i)->bytes;
    }
    if (it.Invoke() != kTfLiteOk) return TFLM_ORACLE_INVOKE;
    at = 0;
    for (size_t i = 0; i < it.outputs_size(); ++i) {
        std::memcpy(output + at, it.output(i)->data.raw, it.output(i)->bytes);
        at += it.output(i)->bytes;
    }
    return TFLM_ORACLE_OK;
}

extern "C" __attribute__((visibility("default"))) void tflm_oracle_close(tflm_oracle_session *s) { delete s; }
