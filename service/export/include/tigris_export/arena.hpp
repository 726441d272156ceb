// arena.hpp - TFLite Micro's arena for a model, as docs/tflm-arena.md
// describes it: the non-persistent head (the greedy memory planner over
// tensor lifetimes plus the reduction kernels' scratch buffers) and the
// persistent tail (allocator objects, per-tensor and per-operator records,
// option structs, kernel op-data, per-channel arrays, I/O tensor structs)
// for one of three C ABIs. Reference kernels, no USE_TFLM_COMPRESSION.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tigris_tflite/model.hpp"

namespace tigris::exporter {

// A model export cannot account for or carry. The message is one of the
// export seed's reasons, word for word (docs/export.md lists them).
class Refusal : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The C ABI TFLite Micro was built for: pointer size and enum size.
enum class Target { ArmNoneEabi, Ilp32, Lp64 };
const char *target_name(Target t);                          // "arm-none-eabi", "ilp32", "lp64"
std::optional<Target> parse_target(std::string_view name);  // nullopt for anything else

// One buffer the planner places: byte size (already rounded to 16) and its
// inclusive lifetime in scopes (graph inputs 0, operator i at i + 1).
struct PlannerBuffer {
    int64_t size = 0;
    int first = -1, last = -1;
};

// TFLM's greedy planner (section 4): returns each buffer's offset, in the
// order given (planner order: tensors by index, then scratch requests), and
// the head length through `head`.
std::vector<int64_t> greedy_plan(const std::vector<PlannerBuffer> &buffers, int64_t *head);

// The planner input TFLM builds for subgraph 0 of `m` (sections 2 and 3).
// Throws Refusal for tensor types without a known size and, unless
// `skip_unmodeled_scratch` (analyze's arena row: "other kernel scratch
// excluded"), for kernels whose scratch requests are not modeled.
std::vector<PlannerBuffer> planner_buffers(const tflite::Model &m, bool skip_unmodeled_scratch = false);

// One buffer of the head where the planner puts it: the tensor it holds
// (subgraph-0 index), or -1 for a scratch request of operator `op`; offset,
// size (rounded to 16) and inclusive lifetime in scopes as PlannerBuffer.
struct ArenaPlacement {
    int tensor = -1, op = -1;
    int64_t offset = 0, size = 0;
    int first = -1, last = -1;
};
// planner_buffers + greedy_plan with each buffer's owner: what the viewer
// draws as the TFLite Micro lane. `head` receives the head length.
std::vector<ArenaPlacement> arena_layout(const tflite::Model &m, bool skip_unmodeled_scratch, int64_t *head);

struct ArenaFigure {
    int64_t head = 0;  // the planner's head length (same on every target)
    int64_t tail = 0;  // the persistent allocations on the target
    int64_t total() const { return head + tail; }
};

// head = greedy_plan(planner_buffers(m)); tail by the recipe of section 5
// with the per-operator allocation lists of section 6. Throws Refusal for
// several subgraphs, unknown tensor types and operators it does not model.
ArenaFigure arena(const tflite::Model &m, Target target);
int64_t arena_head(const tflite::Model &m, bool skip_unmodeled_scratch = false);
int64_t arena_tail(const tflite::Model &m, Target target);

// Checks everything arena() would refuse, without computing it.
void check_modeled(const tflite::Model &m);

// Bytes of one element, or 0 for types TFLM's arena model does not size.
int64_t element_size(tflite::TensorType t);
// Element count x element size (0 for an unknown type).
int64_t tensor_bytes(const tflite::Tensor &t);

}  // namespace tigris::exporter
