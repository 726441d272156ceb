// tflm_run: run a .tflite model with TensorFlow Lite Micro (tflm_oracle.h).
//
//   tflm_run MODEL.tflite IN.bin OUT.bin [--arena N] [--json] [--dump DIR]
//
// IN.bin holds the model's inputs and OUT.bin receives its outputs, each the
// tensors' raw bytes back to back in model input/output order. --json prints
// arena_used_bytes() and every input and output (dtype, shape, quantisation)
// on stdout. --dump DIR writes every tensor after the run as DIR/t<index>.bin;
// the interpreter then keeps every tensor, so the arena figure of a --dump
// run is not TFLite Micro's real one ("arena_is_real": false).
//
// Exit codes: 0 ran; 2 usage; 3 model unreadable or not a TFLite model;
// 4 AllocateTensors failed (an operator TFLite Micro refuses, or the arena is
// too small); 5 IN.bin has the wrong size; 6 Invoke failed; 7 an output or a
// dump could not be written.
//
// TFLite Micro sometimes crashes instead of failing when an arena is too
// small for its temporaries, so the interpreter runs in a child process and
// a crash is reported as exit 4, naming the signal.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tflm_oracle.h"

namespace {

enum Exit { kOk = 0, kUsage = 2, kModel = 3, kAllocate = 4, kInput = 5, kWrite = 7 };

bool read_file(const char *path, std::vector<uint8_t> &out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    return !f.bad();
}

bool write_file(const std::string &path, const void *data, size_t size) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(static_cast<const char *>(data), static_cast<std::streamsize>(size));
    return static_cast<bool>(f.flush());
}

const char *type_name(int32_t t) {
    switch (t) {
    case 1: return "float32";
    case 2: return "int32";
    case 3: return "uint8";
    case 4: return "int64";
    case 6: return "bool";
    case 7: return "int16";
    case 9: return "int8";
    default: return "other";
    }
}

void print_tensors(const char *key, const tflm_oracle_tensor *t, int32_t n, bool last) {
    std::printf("  \"%s\": [", key);
    for (int32_t i = 0; i < n; ++i) {
        std::printf("%s\n    {\"tensor\": %d, \"dtype\": \"%s\", \"bytes\": %zu, \"shape\": [", i ? "," : "",
                    t[i].tensor, type_name(t[i].type), t[i].bytes);
        for (int32_t d = 0; d < t[i].rank; ++d) std::printf("%s%d", d ? ", " : "", t[i].dims[d]);
        std::printf("], \"scale\": %.9g, \"zero_point\": %d}", static_cast<double>(t[i].scale), t[i].zero_point);
    }
    std::printf("\n  ]%s\n", last ? "" : ",");
}

struct Dump {
    std::string dir;
    bool failed = false;
};

void dump_tensor(void *ctx, int32_t tensor, const void *data, size_t bytes) {
    auto *d = static_cast<Dump *>(ctx);
    std::string path = d->dir + "/t" + std::to_string(tensor) + ".bin";
    if (!write_file(path, data, bytes)) {
        if (!d->failed) std::fprintf(stderr, "tflm_run: cannot write %s\n", path.c_str());
        d->failed = true;
    }
}

// The child's part: run the interpreter, write the outputs, print the JSON.
int run(const std::vector<uint8_t> &model, const std::vector<uint8_t> &input, const char *model_path,
        const char *out_path, size_t arena, bool json, Dump *dump) {
    tflm_oracle_result r;
    std::vector<uint8_t> output(1 << 20);
    int rc = tflm_oracle_run(model.data(), model.size(), input.data(), input.size(), output.data(), output.size(),
                             arena, dump ? dump_tensor : nullptr, dump, &r);
    if (rc == TFLM_ORACLE_OUTPUT) {
        output.resize(r.output_bytes);
        rc = tflm_oracle_run(model.data(), model.size(), input.data(), input.size(), output.data(), output.size(),
                             arena, dump ? dump_tensor : nullptr, dump, &r);
    }
    if (rc != TFLM_ORACLE_OK) {
        std::fprintf(stderr, "tflm_run: %s: %s\n", model_path, r.message);
        return rc == TFLM_ORACLE_TOO_MANY ? kModel : rc;
    }
    if (!write_file(out_path, output.data(), r.output_bytes)) {
        std::fprintf(stderr, "tflm_run: cannot write %s\n", out_path);
        return kWrite;
    }
    if (dump && dump->failed) return kWrite;
    if (json) {
        std::printf("{\n  \"arena_used_bytes\": %zu,\n  \"arena_is_real\": %s,\n", r.arena_used_bytes,
                    dump ? "false" : "true");
        print_tensors("inputs", r.inputs, r.n_inputs, false);
        print_tensors("outputs", r.outputs, r.n_outputs, true);
        std::printf("}\n");
    }
    std::fflush(stdout);
    return kOk;
}

int usage() {
    std::fprintf(stderr, "usage: tflm_run MODEL.tflite IN.bin OUT.bin [--arena N] [--json] [--dump DIR]\n");
    return kUsage;
}

}  // namespace

int main(int argc, char **argv) {
    const char *paths[3] = {nullptr, nullptr, nullptr};
    int n_paths = 0;
    size_t arena = size_t{8} << 20;  // generous: TFLite Micro crashes on some too-small arenas
    bool json = false;
    Dump dump;
    bool dumping = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--arena" && i + 1 < argc) {
            char *end = nullptr;
            errno = 0;
            unsigned long long v = std::strtoull(argv[++i], &end, 0);
            if (errno || !end || *end || v == 0 || v > (1ull << 31)) return usage();
            arena = static_cast<size_t>(v);
        } else if (a == "--json") {
            json = true;
        } else if (a == "--dump" && i + 1 < argc) {
            dump.dir = argv[++i];
            dumping = true;
        } else if ((!a.empty() && a[0] == '-') || n_paths == 3) {
            return usage();
        } else {
            paths[n_paths++] = argv[i];
        }
    }
    if (n_paths != 3) return usage();

    std::vector<uint8_t> model, input;
    if (!read_file(paths[0], model)) {
        std::fprintf(stderr, "tflm_run: cannot read %s: %s\n", paths[0], std::strerror(errno));
        return kModel;
    }
    if (!read_file(paths[1], input)) {
        std::fprintf(stderr, "tflm_run: cannot read %s: %s\n", paths[1], std::strerror(errno));
        return kInput;
    }
    std::fflush(stdout);
    const pid_t child = fork();
    if (child < 0) {
        std::fprintf(stderr, "tflm_run: fork: %s\n", std::strerror(errno));
        return kAllocate;
    }
    if (child == 0) std::_Exit(run(model, input, paths[0], paths[2], arena, json, dumping ? &dump : nullptr));
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    std::fprintf(stderr,
                 "tflm_run: %s: TFLite Micro crashed (signal %d) with a %zu-byte arena; it does this when the "
                 "arena is too small, try a larger --arena\n",
                 paths[0], WTERMSIG(status), arena);
    return kAllocate;
}
