// arena.cpp - TFLite Micro's head (greedy planner) and tail (persistent
// allocations) for a model. Every figure and rule comes from
// docs/tflm-arena.md (A2-A6), which was measured against
// TFLM itself; the tests check the recipe against its A8 table.
#include "tigris_export/arena.hpp"

#include <algorithm>
#include <numeric>

namespace tigris::exporter {
namespace {

namespace tfl = tigris::tflite;

constexpr int64_t round_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

// Builtin codes used here beyond the ones the reader names.
enum : int32_t {
    kSum = 74, kReduceProd = 81, kReduceMax = 82, kReduceMin = 89, kReduceAny = 91,
    kUnidirectionalLstm = 44, kTransposeConv = 67, kMirrorPad = 100, kAddN = 106,
};

// Section 5, table A (size, alignment) per ABI, and the option/op-data
// sizes of section 6.
struct Abi {
    int64_t ptr;
    int64_t fixed_sizes[5], fixed_aligns[5];  // items 1-5
    int64_t eval_tensor, eval_tensor_align;
    int64_t node, node_align;
    int64_t tflite_tensor, tflite_tensor_align;
    int64_t affine_quant, affine_quant_align;
    bool short_enums;
};

const Abi &abi(Target t) {
    static const Abi arm{4, {36, 44, 36, 8, 8}, {4, 4, 4, 4, 4}, 12, 4, 32, 4, 32, 4, 12, 4, true};
    static const Abi ilp32{4, {36, 44, 36, 8, 8}, {4, 4, 4, 4, 4}, 12, 4, 32, 4, 40, 4, 12, 4, false};
    static const Abi lp64{8, {72, 72, 72, 16, 16}, {8, 8, 8, 8, 8}, 24, 8, 64, 8, 64, 8, 24, 8, false};
    switch (t) {
    case Target::ArmNoneEabi: return arm;
    case Target::Ilp32: return ilp32;
    case Target::Lp64: return lp64;
    }
    return arm;
}

struct Block {
    int64_t size, align;
};

// One operator's persistent allocations: parse struct, Init op-data,
// Prepare blocks (section 6).
struct OpAllocs {
    std::optional<Block> parse;
    int64_t init = 0;  // 0 = no Init allocation
    std::vector<int64_t> prepare;
};

const tfl::Tensor *input_tensor(const tfl::SubGraph &sg, const tfl::Operator &op, size_t i) {
    if (i >= op.inputs.size() || op.inputs[i] < 0) return nullptr;
    return &sg.tensors[static_cast<size_t>(op.inputs[i])];
}
const tfl::Tensor *output_tensor(const tfl::SubGraph &sg, const tfl::Operator &op, size_t i) {
    if (i >= op.outputs.size()) return nullptr;
    return &sg.tensors[static_cast<size_t>(op.outputs[i])];
}

[[noreturn]] void not_modeled(int32_t code) {
    throw Refusal("TFLite Micro's persistent allocations for " + tfl::builtin_name(code) + " are not modeled");
}

int64_t out_channels(const tfl::SubGraph &sg, const tfl::Operator &op) {
    const tfl::Tensor *o = output_tensor(sg, op, 0);
    return (o && !o->shape.empty()) ? o->shape.back() : 0;
}

OpAllocs op_allocs(const tfl::Model &m, const tfl::SubGraph &sg, const tfl::Operator &op, Target target) {
    const Abi &a = abi(target);
    const bool arm = target == Target::ArmNoneEabi;
    const bool lp64 = target == Target::Lp64;
    const int32_t code = m.operator_codes[op.opcode_index].builtin;
    OpAllocs r;
    switch (code) {
    case tfl::kConv2D:
    case tfl::kDepthwiseConv2D: {
        r.parse = Block{28, 4};
        r.init = lp64 ? 72 : 56;
        const int64_t cout = out_channels(sg, op);
        r.prepare = {4 * cout, 4 * cout};
        break;
    }
    case tfl::kMaxPool2D:
    case tfl::kAveragePool2D: r.parse = Block{40, 4}; r.init = 32; break;
    case tfl::kPad:
    case tfl::kPadV2: r.init = 56; break;
    case tfl::kRelu: r.init = 28; break;
    case tfl::kRelu6: r.init = 8; break;
    case tfl::kLogistic:
    case tfl::kTanh: r.init = 16; break;
    case tfl::kHardSwish: r.init = 20; break;
    case tfl::kLeakyRelu: r.parse = Block{4, 4}; r.init = 24; break;
    case tfl::kQuantize:
    case tfl::kDequantize: r.init = target == Target::Ilp32 ? 24 : 32; break;
    case tfl::kAbs: r.init = 28; break;
    case tfl::kAdd: r.parse = arm ? Block{2, 1} : Block{8, 4}; r.init = 60; break;
    case tfl::kSub: r.parse = arm ? Block{2, 1} : Block{8, 4}; r.init = 52; break;
    case tfl::kMul: r.parse = arm ? Block{1, 1} : Block{4, 4}; r.init = 36; break;
    case tfl::kMaximum:
    case tfl::kMinimum:
    case tfl::kSlice: break;
    case tfl::kConcatenation: r.parse = Block{8, 4}; r.init = lp64 ? 40 : 24; break;
    case tfl::kMean: r.parse = Block{1, 1}; r.init = 44; break;
    case tfl::kReshape: r.parse = Block{36, 4}; break;
    case tfl::kFullyConnected: {
        r.parse = arm ? Block{5, 1} : Block{16, 4};
        r.init = lp64 ? 64 : 48;
        const tfl::Tensor *w = input_tensor(sg, op, 1);
        if (w && w->quant.scale.size() > 1) {
            const int64_t units = w->shape.empty() ? 0 : w->shape[0];
            r.prepare = {4 * units, 4 * units};
        }
        break;
    }
    case tfl::kSoftmax: {
        // Int16 softmax builds lookup tables in Prepare; only int8 -> int8
        // and float are modeled.
        const tfl::Tensor *in = input_tensor(sg, op, 0);
        const tfl::Tensor *out = output_tensor(sg, op, 0);
        const bool i8 = in && out && in->type == tfl::TensorType::Int8 && out->type == tfl::TensorType::Int8;
        const bool f32 = in && out && in->type == tfl::TensorType::Float32 && out->type == tfl::TensorType::Float32;
        if (!i8 && !f32) not_modeled(code);
        r.parse = Block{4, 4};
        r.init = lp64 ? 80 : 56;
        break;
    }
    default: not_modeled(code);
    }
    (void)a;
    return r;
}

// Scratch requests of an operator's Prepare (section 3), in request order.
std::vector<int64_t> scratch_requests(const tfl::Model &m, const tfl::SubGraph &sg, const tfl::Operator &op,
                                      bool skip_unmodeled = false) {
    const int32_t code = m.operator_codes[op.opcode_index].builtin;
    switch (code) {
    case tfl::kCustom:
    case tfl::kSvdf:
    case kUnidirectionalLstm:
    case kTransposeConv:
    case kMirrorPad:
    case kAddN: {
        std::string kind = code == kUnidirectionalLstm ? "UNIDIRECTIONAL_SEQUENCE_LSTM"
                           : code == kTransposeConv    ? "TRANSPOSE_CONV"
                           : code == kMirrorPad        ? "MIRROR_PAD"
                           : code == kAddN             ? "ADD_N"
                                                       : tfl::builtin_name(code);
        if (skip_unmodeled) return {};
        throw Refusal("TFLite Micro's scratch buffers for " + kind + " are not modeled");
    }
    default: break;
    }
    const tfl::Tensor *in = input_tensor(sg, op, 0);
    const tfl::Tensor *axis = input_tensor(sg, op, 1);
    const int64_t rank = in ? static_cast<int64_t>(in->shape.size()) : 0;
    const int64_t axes = axis && element_size(axis->type) ? tensor_bytes(*axis) / element_size(axis->type) : 1;
    if (code == tfl::kMean || code == kSum) {
        std::vector<int64_t> r;
        if (in && (in->type == tfl::TensorType::Int8 || in->type == tfl::TensorType::Int16)) {
            const tfl::Tensor *out = output_tensor(sg, op, 0);
            r.push_back(out ? 4 * (tensor_bytes(*out) / element_size(out->type)) : 0);
        }
        r.push_back(4 * rank);
        r.push_back(4 * axes);
        return r;
    }
    if (code == kReduceMax || code == kReduceMin || code == kReduceAny || code == kReduceProd)
        return {4 * rank, 4 * axes};
    // Int4 filters (conv, depthwise, fully connected) would unpack into
    // scratch; int4 is refused as an unknown type before this point.
    return {};
}

bool needs_allocating(const tfl::Model &m, const tfl::Tensor &t) {
    const tfl::Buffer &b = m.buffers[t.buffer];
    return b.data.empty() && !t.is_variable && tensor_bytes(t) != 0;
}

const tfl::SubGraph &only_subgraph(const tfl::Model &m) {
    if (m.subgraphs.size() != 1) throw Refusal("models with several subgraphs are not exported");
    return m.subgraphs[0];
}

void check_types(const tfl::SubGraph &sg) {
    for (const tfl::Tensor &t : sg.tensors)
        if (element_size(t.type) == 0) throw Refusal("a tensor type TFLite Micro's arena model does not know");
}

}  // namespace

const char *target_name(Target t) {
    switch (t) {
    case Target::ArmNoneEabi: return "arm-none-eabi";
    case Target::Ilp32: return "ilp32";
    case Target::Lp64: return "lp64";
    }
    return "?";
}

std::optional<Target> parse_target(std::string_view name) {
    if (name == "arm-none-eabi") return Target::ArmNoneEabi;
    if (name == "ilp32") return Target::Ilp32;
    if (name == "lp64") return Target::Lp64;
    return std::nullopt;
}

int64_t element_size(tfl::TensorType t) {
    switch (static_cast<int>(t)) {
    case 0: return 4;   // FLOAT32
    case 1: return 2;   // FLOAT16
    case 2: return 4;   // INT32
    case 3: return 1;   // UINT8
    case 4: return 8;   // INT64
    case 6: return 1;   // BOOL
    case 7: return 2;   // INT16
    case 8: return 8;   // COMPLEX64
    case 9: return 1;   // INT8
    case 10: return 8;  // FLOAT64
    case 11: return 16; // COMPLEX128
    case 12: return 8;  // UINT64
    case 15: return 4;  // UINT32
    case 16: return 2;  // UINT16
    default: return 0;  // STRING, RESOURCE, VARIANT, INT4 and newer kinds
    }
}

int64_t tensor_bytes(const tfl::Tensor &t) {
    // Saturates at 2^50 bytes so that hostile shapes cannot overflow the
    // planner's sums (no real arena comes near it).
    constexpr int64_t kCap = int64_t{1} << 50;
    int64_t n = element_size(t.type);
    for (int32_t d : t.shape) {
        if (d == 0) return 0;
        n = (n > kCap / d) ? kCap : n * d;
    }
    return n;
}

std::vector<int64_t> greedy_plan(const std::vector<PlannerBuffer> &buffers, int64_t *head) {
    const size_t n = buffers.size();
    // Reverse planner order, then a stable sort by size, largest first: among
    // equal sizes the buffer later in planner order is placed first.
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i) order[i] = n - 1 - i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return buffers[x].size > buffers[y].size; });
    std::vector<int64_t> offset(n, 0);
    std::vector<size_t> placed;  // by increasing offset; equal offsets in placement order
    int64_t h = 0;
    for (size_t k = 0; k < n; ++k) {
        const size_t b = order[k];
        const PlannerBuffer &B = buffers[b];
        int64_t c = 0;
        if (k > 0) {
            const PlannerBuffer *prev = nullptr;
            size_t prev_i = 0;
            bool fit = false;
            for (size_t p : placed) {
                const PlannerBuffer &P = buffers[p];
                if (P.last < B.first || B.last < P.first) continue;  // no time overlap
                if (prev) c = std::max(c, offset[prev_i] + prev->size);
                if (offset[p] - c >= B.size) { fit = true; break; }
                prev = &P;
                prev_i = p;
            }
            if (!fit && prev) c = std::max(c, offset[prev_i] + prev->size);
        }
        offset[b] = c;
        auto pos = std::upper_bound(placed.begin(), placed.end(), c,
                                    [&](int64_t v, size_t p) { return v < offset[p]; });
        placed.insert(pos, b);
        h = std::max(h, c + B.size);
    }
    if (head) *head = h;
    return offset;
}

namespace {

// planner_buffers, and when `owners` is set who each buffer belongs to:
// {tensor index, -1} for a tensor, {-1, operator index} for a scratch request.
std::vector<PlannerBuffer> planner_buffers_owned(const tfl::Model &m, bool skip_unmodeled_scratch,
                                                 std::vector<std::pair<int, int>> *owners) {
    const tfl::SubGraph &sg = only_subgraph(m);
    check_types(sg);
    const size_t nt = sg.tensors.size();
    std::vector<int> first(nt, -1), last(nt, -1);
    for (int32_t t : sg.inputs) first[static_cast<size_t>(t)] = 0, last[static_cast<size_t>(t)] = 0;
    const int nops = static_cast<int>(sg.operators.size());
    for (int i = 0; i < nops; ++i) {
        const tfl::Operator &op = sg.operators[static_cast<size_t>(i)];
        const int scope = i + 1;
        for (int32_t t : op.inputs)
            if (t >= 0) last[static_cast<size_t>(t)] = scope;
        for (int32_t t : op.outputs) {
            const size_t u = static_cast<size_t>(t);
            if (first[u] == -1) first[u] = scope;
            last[u] = std::max(last[u], scope);
        }
        for (int32_t t : op.intermediates)
            if (tensor_bytes(sg.tensors[static_cast<size_t>(t)]) != 0)
                throw Refusal("TFLite Micro's persistent allocations for " +
                              tfl::builtin_name(m.operator_codes[op.opcode_index].builtin) + " are not modeled");
    }
    for (int32_t t : sg.outputs) {
        const size_t u = static_cast<size_t>(t);
        last[u] = nops;
        if (first[u] == -1) first[u] = nops;
    }
    std::vector<PlannerBuffer> out;
    for (size_t t = 0; t < nt; ++t)
        if (needs_allocating(m, sg.tensors[t])) {
            out.push_back({round_up(tensor_bytes(sg.tensors[t]), 16), first[t], last[t]});
            if (owners) owners->push_back({static_cast<int>(t), -1});
        }
    for (int i = 0; i < nops; ++i)
        for (int64_t s : scratch_requests(m, sg, sg.operators[static_cast<size_t>(i)], skip_unmodeled_scratch)) {
            out.push_back({round_up(s, 16), i + 1, i + 1});
            if (owners) owners->push_back({-1, i});
        }
    return out;
}

}  // namespace

std::vector<PlannerBuffer> planner_buffers(const tfl::Model &m, bool skip_unmodeled_scratch) {
    return planner_buffers_owned(m, skip_unmodeled_scratch, nullptr);
}

std::vector<ArenaPlacement> arena_layout(const tfl::Model &m, bool skip_unmodeled_scratch, int64_t *head) {
    std::vector<std::pair<int, int>> owners;
    const std::vector<PlannerBuffer> buffers = planner_buffers_owned(m, skip_unmodeled_scratch, &owners);
    const std::vector<int64_t> offsets = greedy_plan(buffers, head);
    std::vector<ArenaPlacement> out(buffers.size());
    for (size_t b = 0; b < buffers.size(); ++b) {
        ArenaPlacement &p = out[b];
        p.tensor = owners[b].first;
        p.op = owners[b].second;
        p.offset = offsets[b];
        p.size = buffers[b].size;
        p.first = buffers[b].first;
        p.last = buffers[b].last;
    }
    return out;
}

int64_t arena_head(const tfl::Model &m, bool skip_unmodeled_scratch) {
    int64_t head = 0;
    greedy_plan(planner_buffers(m, skip_unmodeled_scratch), &head);
    return head;
}

void check_modeled(const tfl::Model &m) {
    const tfl::SubGraph &sg = only_subgraph(m);
    check_types(sg);
    for (const tfl::Operator &op : sg.operators) {
        scratch_requests(m, sg, op);
        op_allocs(m, sg, op, Target::ArmNoneEabi);
    }
}

int64_t arena_tail(const tfl::Model &m, Target target) {
    const tfl::SubGraph &sg = only_subgraph(m);
    check_types(sg);
    const Abi &a = abi(target);
    int64_t t = 0;
    auto alloc = [&t](int64_t size, int64_t align) { t = round_up(t + size, align); };
    for (int i = 0; i < 5; ++i) alloc(a.fixed_sizes[i], a.fixed_aligns[i]);
    alloc(a.eval_tensor * static_cast<int64_t>(sg.tensors.size()), a.eval_tensor_align);
    alloc(a.node * static_cast<int64_t>(sg.operators.size()), a.node_align);
    std::vector<OpAllocs> ops;
    int64_t scratch = 0;
    for (const tfl::Operator &op : sg.operators) {
        scratch += static_cast<int64_t>(scratch_requests(m, sg, op).size());
        ops.push_back(op_allocs(m, sg, op, target));
    }
    for (const OpAllocs &o : ops)
        if (o.parse) alloc(o.parse->size, o.parse->align);
    for (const OpAllocs &o : ops)
        if (o.init) alloc(o.init, 16);
    for (const OpAllocs &o : ops)
        for (int64_t s : o.prepare) alloc(s, 16);
    if (scratch) alloc(a.ptr * scratch, a.ptr);
    for (const tfl::Tensor &x : sg.tensors)
        if (x.is_variable) alloc(tensor_bytes(x), 16);
    for (const std::vector<int32_t> *io : {&sg.inputs, &sg.outputs}) {
        alloc(a.ptr * static_cast<int64_t>(io->size()), 16);
        for (int32_t i : *io) {
            const tfl::Tensor &x = sg.tensors[static_cast<size_t>(i)];
            alloc(a.tflite_tensor, a.tflite_tensor_align);
            if (x.quant.present()) {
                alloc(a.affine_quant, a.affine_quant_align);
                alloc(4 + 4 * static_cast<int64_t>(x.quant.scale.size()), 4);
            }
        }
    }
    return t;
}

ArenaFigure arena(const tfl::Model &m, Target target) {
    ArenaFigure f;
    f.head = arena_head(m);
    f.tail = arena_tail(m, target);
    return f;
}

}  // namespace tigris::exporter
