// reader.cpp - a bounds-checked flatbuffer walker for TFLite models. Written
// from the field facts in tflm-arena.md section 10 (no generated code, no
// schema copy): each table is located through its vtable and every read is
// checked against the file size before it happens.
#include "tigris_tflite/model.hpp"

#include <bit>
#include <cstring>
#include <initializer_list>
#include <vector>
#include <limits>

namespace tigris::tflite {
namespace {

// Nesting depth of the schema we walk is fixed (Model > SubGraph > Operator >
// options), so no recursion limit is needed; vectors are bounded because
// every element must fit inside the file.
class Buf {
public:
    explicit Buf(std::span<const uint8_t> b) : b_(b) {}
    size_t size() const { return b_.size(); }
    std::span<const uint8_t> bytes() const { return b_; }

    void need(uint64_t pos, uint64_t n, const char *what) const {
        if (pos > b_.size() || n > b_.size() - pos)
            throw ReadError(std::string("truncated or out-of-range ") + what + " at byte " +
                            std::to_string(pos) + " (file has " + std::to_string(b_.size()) +
                            " bytes)");
    }
    template <class T> T get(uint64_t pos, const char *what) const {
        need(pos, sizeof(T), what);
        T v;
        std::memcpy(&v, b_.data() + pos, sizeof(T));  // little-endian host assumed (static_assert below)
        return v;
    }

private:
    std::span<const uint8_t> b_;
};
static_assert(std::endian::native == std::endian::little, "the reader assumes a little-endian host");

class Table {
public:
    Table(const Buf &b, uint64_t pos, std::string path) : b_(&b), pos_(pos), path_(std::move(path)) {
        int32_t soff = b.get<int32_t>(pos, "table");
        int64_t vt = static_cast<int64_t>(pos) - soff;
        if (vt < 0 || static_cast<uint64_t>(vt) >= b.size())
            throw ReadError(path_ + ": vtable offset points outside the file");
        vt_ = static_cast<uint64_t>(vt);
        vt_size_ = b.get<uint16_t>(vt_, "vtable");
        tbl_size_ = b.get<uint16_t>(vt_ + 2, "vtable");
        if (vt_size_ < 4 || (vt_size_ & 1))
            throw ReadError(path_ + ": malformed vtable size " + std::to_string(vt_size_));
        b.need(vt_, vt_size_, "vtable");
        b.need(pos_, tbl_size_, "table body");
    }
    const std::string &path() const { return path_; }

    // Byte position of field `id` (of `n` bytes), or 0 when absent.
    uint64_t field(int id, uint64_t n) const {
        uint64_t slot = 4 + 2 * static_cast<uint64_t>(id);
        if (slot + 2 > vt_size_) return 0;
        uint16_t off = b_->get<uint16_t>(vt_ + slot, "vtable slot");
        if (off == 0) return 0;
        if (off < 4 || off + n > tbl_size_)
            throw ReadError(path_ + ": field " + std::to_string(id) + " lies outside its table");
        return pos_ + off;
    }
    bool has(int id) const { return field(id, 1) != 0; }

    // Notes every field this table sets whose id is not in `known`: the
    // model struct would not hold it, so a writer would drop it.
    void note_unknown(const std::vector<int> &known, const char *table,
                      std::vector<std::string> &notes) const {
        const int n = (vt_size_ - 4) / 2;
        for (int id = 0; id < n; ++id) {
            if (b_->get<uint16_t>(vt_ + 4 + 2 * static_cast<uint64_t>(id), "vtable slot") == 0) continue;
            bool ok = false;
            for (int k : known) ok = ok || k == id;
            if (!ok)
                notes.push_back(std::string("the ") + table + " table sets field " + std::to_string(id) +
                                ", which is not supported");
        }
    }

    template <class T> T scalar(int id, T def) const {
        uint64_t p = field(id, sizeof(T));
        return p ? b_->get<T>(p, "scalar field") : def;
    }
    // Target position of an offset field, or 0 when absent.
    uint64_t ref(int id) const {
        uint64_t p = field(id, 4);
        if (!p) return 0;
        uint32_t rel = b_->get<uint32_t>(p, "offset field");
        if (rel == 0) throw ReadError(path_ + ": field " + std::to_string(id) + " has a zero offset");
        uint64_t t = p + rel;
        b_->need(t, 4, "referenced object");
        return t;
    }
    Table sub(int id, const std::string &name) const {
        uint64_t t = ref(id);
        if (!t) throw ReadError(path_ + ": missing " + name);
        return Table(*b_, t, path_ + "." + name);
    }
    // Vector of `elem`-byte elements: returns (first element position, count).
    std::pair<uint64_t, uint32_t> vec(int id, uint64_t elem, const char *name) const {
        uint64_t t = ref(id);
        if (!t) return {0, 0};
        uint32_t n = b_->get<uint32_t>(t, "vector length");
        if (elem && static_cast<uint64_t>(n) * elem > b_->size())
            throw ReadError(path_ + "." + name + ": vector length " + std::to_string(n) + " exceeds the file");
        b_->need(t + 4, static_cast<uint64_t>(n) * elem, name);
        return {t + 4, n};
    }
    template <class T> std::vector<T> scalars(int id, const char *name) const {
        auto [p, n] = vec(id, sizeof(T), name);
        std::vector<T> out(n);
        if (n) std::memcpy(out.data(), b_->bytes().data() + p, n * sizeof(T));
        return out;
    }
    std::span<const uint8_t> bytes(int id, const char *name) const {
        auto [p, n] = vec(id, 1, name);
        if (!n) return {};
        return b_->bytes().subspan(p, n);
    }
    std::string str(int id, const char *name) const {
        auto s = bytes(id, name);
        return std::string(s.begin(), s.end());
    }
    // Tables of a vector of tables.
    std::vector<Table> tables(int id, const std::string &name) const {
        auto [p, n] = vec(id, 4, name.c_str());
        std::vector<Table> out;
        out.reserve(n);
        for (uint32_t i = 0; i < n; ++i) {
            uint64_t e = p + 4ull * i;
            uint32_t rel = b_->get<uint32_t>(e, "vector element");
            if (rel == 0) throw ReadError(path_ + "." + name + "[" + std::to_string(i) + "]: zero offset");
            out.emplace_back(*b_, e + rel, path_ + "." + name + "[" + std::to_string(i) + "]");
        }
        return out;
    }

private:
    const Buf *b_;
    uint64_t pos_, vt_ = 0;
    uint16_t vt_size_ = 0, tbl_size_ = 0;
    std::string path_;
};

// Union member indices of BuiltinOptions that carry fields we read.
enum : uint8_t {
    kOptConv2D = 1, kOptDepthwise = 2, kOptPool2D = 5, kOptSvdf = 6, kOptFullyConnected = 8,
    kOptSoftmax = 9, kOptConcatenation = 10, kOptAdd = 11, kOptReshape = 17, kOptMul = 21,
    kOptReducer = 27, kOptSub = 28, kOptLeakyRelu = 75, kOptL2Norm = 12, kOptDiv = 29,
    kOptIf = 92, kOptWhile = 93,
};

// The option tables export carries, field by field: (id, width in bytes,
// or 0 for an [int] vector). Written from tflm-arena.md section 10 and the
// option field lists of the operators in the reference models. A table of a
// union type not listed here is noted as uncarried.
struct FieldSpec {
    uint16_t id;
    uint8_t width;  // 0 = [int]
};
struct OptionSpec {
    uint8_t union_type;
    const char *name;
    std::initializer_list<FieldSpec> fields;
};
const OptionSpec kOptionSpecs[] = {
    {1, "Conv2DOptions", {{0, 1}, {1, 4}, {2, 4}, {3, 1}, {4, 4}, {5, 4}, {6, 1}}},
    {2, "DepthwiseConv2DOptions", {{0, 1}, {1, 4}, {2, 4}, {3, 4}, {4, 1}, {5, 4}, {6, 4}}},
    {5, "Pool2DOptions", {{0, 1}, {1, 4}, {2, 4}, {3, 4}, {4, 4}, {5, 1}}},
    {6, "SVDFOptions", {{0, 4}, {1, 1}, {2, 1}}},
    {8, "FullyConnectedOptions", {{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}}},
    {9, "SoftmaxOptions", {{0, 4}}},
    {10, "ConcatenationOptions", {{0, 4}, {1, 1}}},
    {11, "AddOptions", {{0, 1}, {1, 1}}},
    {12, "L2NormOptions", {{0, 1}}},
    {17, "ReshapeOptions", {{0, 0}}},
    {21, "MulOptions", {{0, 1}}},
    {22, "PadOptions", {}},
    {27, "ReducerOptions", {{0, 1}}},
    {28, "SubOptions", {{0, 1}, {1, 1}}},
    {29, "DivOptions", {{0, 1}}},
    {30, "SqueezeOptions", {{0, 0}}},
    {33, "ExpOptions", {}},
    {36, "LogSoftmaxOptions", {}},
    {38, "DequantizeOptions", {}},
    {39, "MaximumMinimumOptions", {}},
    {42, "NegOptions", {}},
    {43, "PadV2Options", {}},
    {48, "SliceOptions", {}},
    {52, "ExpandDimsOptions", {}},
    {65, "FloorDivOptions", {}},
    {66, "SquareOptions", {}},
    {72, "FloorModOptions", {}},
    {75, "LeakyReluOptions", {{0, 4}}},
    {76, "SquaredDifferenceOptions", {}},
    {78, "AbsOptions", {}},
    {84, "CosOptions", {}},
    {89, "QuantizeOptions", {}},
    {91, "HardSwishOptions", {}},
    // Movement, resize and transposed-convolution options (ids from TFLite's schema).
    {15, "ResizeBilinearOptions", {{2, 1}, {3, 1}}},
    {19, "SpaceToDepthOptions", {{0, 4}}},
    {23, "GatherOptions", {{0, 4}, {1, 4}}},
    {26, "TransposeOptions", {}},
    {32, "StridedSliceOptions", {{0, 4}, {1, 4}, {2, 4}, {3, 4}, {4, 4}, {5, 1}}},
    {35, "SplitOptions", {{0, 4}}},
    {49, "TransposeConvOptions", {{0, 1}, {1, 4}, {2, 4}, {3, 1}, {4, 1}}},
    {59, "PackOptions", {{0, 4}, {1, 4}}},
    {64, "UnpackOptions", {{0, 4}, {1, 4}}},
    {74, "ResizeNearestNeighborOptions", {{0, 1}, {1, 1}}},
    {79, "SplitVOptions", {{0, 4}}},
    {94, "DepthToSpaceOptions", {{0, 4}}},
    {98, "SelectV2Options", {}},
    // Comparisons (empty tables) and control flow.
    {41, "LessOptions", {}},
    {44, "GreaterOptions", {}},
    {45, "GreaterEqualOptions", {}},
    {46, "LessEqualOptions", {}},
    {53, "EqualOptions", {}},
    {54, "NotEqualOptions", {}},
    {92, "IfOptions", {{0, 4}, {1, 4}}},
    {93, "WhileOptions", {{0, 4}, {1, 4}}},
};

const OptionSpec *option_spec(uint8_t union_type) {
    for (const OptionSpec &s : kOptionSpecs)
        if (s.union_type == union_type) return &s;
    return nullptr;
}

// Copies every field the option table sets, as stored.
void read_option_fields(const Table &x, uint8_t union_type, Operator &op, std::vector<std::string> &notes) {
    const OptionSpec *spec = option_spec(union_type);
    if (!spec) {
        notes.push_back("builtin options of union type " + std::to_string(union_type) + " are not supported");
        return;
    }
    std::vector<int> known;
    for (const FieldSpec &f : spec->fields) {
        known.push_back(f.id);
        if (!x.has(f.id)) continue;
        OptionField of;
        of.id = f.id;
        if (f.width == 0) {
            of.kind = OptionField::kIntVector;
            of.ints = x.scalars<int32_t>(f.id, "option vector");
        } else {
            of.width = f.width;
            switch (f.width) {
            case 1: of.bits = x.scalar<uint8_t>(f.id, 0); break;
            case 4: of.bits = x.scalar<uint32_t>(f.id, 0); break;
            default: of.bits = x.scalar<uint64_t>(f.id, 0); break;
            }
        }
        op.option_fields.push_back(std::move(of));
    }
    x.note_unknown(known, spec->name, notes);
}

Options read_options(const Table &op, Operator &out, std::vector<std::string> &notes) {
    Options o;
    o.union_type = op.scalar<uint8_t>(3, 0);
    uint64_t t = op.ref(4);
    if (!t) {
        // A union type without its table: TFLM uses zero values (RESHAPE
        // without options is common). The writer puts back the type alone.
        if (o.union_type != 0 && o.union_type != kOptReshape)
            throw ReadError(op.path() + ": builtin_options_type " + std::to_string(o.union_type) +
                            " without its option table");
        return o;
    }
    if (o.union_type == 0) throw ReadError(op.path() + ": option table without builtin_options_type");
    Table x = op.sub(4, "builtin_options");
    out.has_option_table = true;
    read_option_fields(x, o.union_type, out, notes);
    switch (o.union_type) {
    case kOptConv2D:
        o.padding = x.scalar<int8_t>(0, 0);
        o.stride_w = x.scalar<int32_t>(1, 0);
        o.stride_h = x.scalar<int32_t>(2, 0);
        o.fused_activation = x.scalar<int8_t>(3, 0);
        o.dilation_w = x.scalar<int32_t>(4, 1);
        o.dilation_h = x.scalar<int32_t>(5, 1);
        break;
    case kOptDepthwise:
        o.padding = x.scalar<int8_t>(0, 0);
        o.stride_w = x.scalar<int32_t>(1, 0);
        o.stride_h = x.scalar<int32_t>(2, 0);
        o.depth_multiplier = x.scalar<int32_t>(3, 0);
        o.fused_activation = x.scalar<int8_t>(4, 0);
        o.dilation_w = x.scalar<int32_t>(5, 1);
        o.dilation_h = x.scalar<int32_t>(6, 1);
        break;
    case kOptPool2D:
        o.padding = x.scalar<int8_t>(0, 0);
        o.stride_w = x.scalar<int32_t>(1, 0);
        o.stride_h = x.scalar<int32_t>(2, 0);
        o.filter_w = x.scalar<int32_t>(3, 0);
        o.filter_h = x.scalar<int32_t>(4, 0);
        o.fused_activation = x.scalar<int8_t>(5, 0);
        break;
    case kOptSvdf:
        o.rank = x.scalar<int32_t>(0, 0);
        o.fused_activation = x.scalar<int8_t>(1, 0);
        break;
    case kOptFullyConnected:
        o.fused_activation = x.scalar<int8_t>(0, 0);
        o.weights_format = x.scalar<int8_t>(1, 0);
        o.keep_num_dims = x.scalar<uint8_t>(2, 0) != 0;
        break;
    case kOptSoftmax: o.beta = x.scalar<float>(0, 0.0f); break;
    case kOptConcatenation:
        o.axis = x.scalar<int32_t>(0, 0);
        o.fused_activation = x.scalar<int8_t>(1, 0);
        break;
    case kOptAdd:
    case kOptMul:
    case kOptSub:
    case kOptDiv:
    case kOptL2Norm: o.fused_activation = x.scalar<int8_t>(0, 0); break;
    case kOptReshape:
        if (x.has(0)) o.new_shape = x.scalars<int32_t>(0, "new_shape");
        break;
    case kOptReducer: o.keep_dims = x.scalar<uint8_t>(0, 0) != 0; break;
    case kOptLeakyRelu: o.alpha = x.scalar<float>(0, 0.0f); break;
    case kOptIf:
    case kOptWhile:
        o.subgraph_a = x.scalar<int32_t>(0, 0);
        o.subgraph_b = x.scalar<int32_t>(1, 0);
        break;
    default: break;  // tables we do not interpret were still located and bounds-checked
    }
    return o;
}

// "OWNER: ITEM index I is out of range for N ITEMs" (the export seed's wording).
[[noreturn]] void out_of_range(const std::string &owner, const char *item, int64_t v, size_t n) {
    throw ReadError(owner + ": " + item + " index " + std::to_string(v) + " is out of range for " +
                    std::to_string(n) + " " + item + "s");
}

void check_index(int32_t v, size_t n, bool allow_omitted, const std::string &owner) {
    if (v == -1 && allow_omitted) return;
    if (v < 0 || static_cast<size_t>(v) >= n) out_of_range(owner, "tensor", v, n);
}

}  // namespace

Model read_model(std::span<const uint8_t> file) {
    if (file.size() < 8) throw ReadError("file too short to be a TFLite flatbuffer (" + std::to_string(file.size()) + " bytes)");
    if (std::memcmp(file.data() + 4, "TFL3", 4) != 0)
        throw ReadError("not a TFLite model: file identifier is not \"TFL3\"");
    Buf b(file);
    uint32_t root = b.get<uint32_t>(0, "root offset");
    Table m(b, root, "Model");

    Model model;
    std::vector<std::string> &notes = model.uncarried;
    m.note_unknown({0, 1, 2, 3, 4, 6, 7}, "Model", notes);
    model.version = m.scalar<uint32_t>(0, 0);
    model.description = m.str(3, "description");
    model.has_external_buffer_tables = m.has(8) || m.has(9);

    auto codes = m.tables(1, "operator_codes");
    for (const Table &c : codes) {
        c.note_unknown({0, 1, 2, 3}, "OperatorCode", notes);
        OperatorCode oc;
        int32_t dep = c.scalar<int8_t>(0, 0);
        int32_t now = c.scalar<int32_t>(3, 0);
        oc.builtin = dep > now ? dep : now;  // the larger of the two, as TFLite's own readers do
        oc.custom_name = c.str(1, "custom_code");
        oc.version = c.scalar<int32_t>(2, 1);
        if (oc.builtin < 0) throw ReadError(c.path() + ": negative builtin code");
        model.operator_codes.push_back(std::move(oc));
    }

    for (const Table &bt : m.tables(4, "buffers")) {
        bt.note_unknown({0, 1, 2}, "Buffer", notes);
        Buffer buf;
        buf.data = bt.bytes(0, "data");
        buf.offset = bt.scalar<uint64_t>(1, 0);
        buf.size = bt.scalar<uint64_t>(2, 0);
        if (buf.external())
            notes.push_back(bt.path() + ": buffers stored outside the FlatBuffer are not supported");
        model.buffers.push_back(buf);
    }

    for (const Table &st : m.tables(2, "subgraphs")) {
        st.note_unknown({0, 1, 2, 3, 4}, "SubGraph", notes);
        SubGraph sg;
        sg.name = st.str(4, "name");
        for (const Table &tt : st.tables(0, "tensors")) {
            tt.note_unknown({0, 1, 2, 3, 4, 5, 7, 8}, "Tensor", notes);
            Tensor t;
            t.shape = tt.scalars<int32_t>(0, "shape");
            t.type = static_cast<TensorType>(tt.scalar<int8_t>(1, 0));
            t.buffer = tt.scalar<uint32_t>(2, 0);
            t.name = tt.str(3, "name");
            if (tt.ref(4)) {
                Table q = tt.sub(4, "quantization");
                q.note_unknown({0, 1, 2, 3, 4, 5, 6}, "QuantizationParameters", notes);  // 4, 5: noted below
                t.quant.min = q.scalars<float>(0, "min");
                t.quant.max = q.scalars<float>(1, "max");
                t.quant.scale = q.scalars<float>(2, "scale");
                t.quant.zero_point = q.scalars<int64_t>(3, "zero_point");
                t.quant.quantized_dimension = q.scalar<int32_t>(6, 0);
                if (q.has(4) || q.has(5))
                    notes.push_back(q.path() + ": quantization details are not supported");
            }
            t.is_variable = tt.scalar<uint8_t>(5, 0) != 0;
            if (tt.has(7)) t.shape_signature = tt.scalars<int32_t>(7, "shape_signature");
            t.has_rank = tt.scalar<uint8_t>(8, 0) != 0;
            t.has_sparsity = tt.has(6);
            t.has_external_buffer = tt.scalar<uint32_t>(10, 0) != 0;
            for (int32_t d : t.shape)
                if (d < 0) throw ReadError(tt.path() + " (" + t.name + "): negative dimension " + std::to_string(d));
            if (t.buffer >= model.buffers.size()) out_of_range(tt.path(), "buffer", t.buffer, model.buffers.size());
            sg.tensors.push_back(std::move(t));
        }
        const size_t nt = sg.tensors.size();
        sg.inputs = st.scalars<int32_t>(1, "inputs");
        sg.outputs = st.scalars<int32_t>(2, "outputs");
        for (int32_t v : sg.inputs) check_index(v, nt, false, st.path() + ".inputs");
        for (int32_t v : sg.outputs) check_index(v, nt, false, st.path() + ".outputs");
        for (const Table &ot : st.tables(3, "operators")) {
            ot.note_unknown({0, 1, 2, 3, 4, 5, 6, 8}, "Operator", notes);
            Operator op;
            op.opcode_index = ot.scalar<uint32_t>(0, 0);
            if (op.opcode_index >= model.operator_codes.size())
                out_of_range(ot.path(), "operator code", op.opcode_index, model.operator_codes.size());
            op.inputs = ot.scalars<int32_t>(1, "inputs");
            op.outputs = ot.scalars<int32_t>(2, "outputs");
            op.intermediates = ot.scalars<int32_t>(8, "intermediates");
            for (int32_t v : op.inputs) check_index(v, nt, true, ot.path() + ".inputs");
            for (int32_t v : op.outputs) check_index(v, nt, false, ot.path() + ".outputs");
            for (int32_t v : op.intermediates) check_index(v, nt, false, ot.path() + ".intermediates");
            op.options = read_options(ot, op, notes);
            op.has_custom_options = ot.has(5);
            op.custom_options = ot.bytes(5, "custom_options");
            op.custom_options_format = ot.scalar<int8_t>(6, 0);
            sg.operators.push_back(std::move(op));
        }
        model.subgraphs.push_back(std::move(sg));
    }

    for (const Table &mt : m.tables(6, "metadata")) {
        mt.note_unknown({0, 1}, "Metadata", notes);
        Metadata md;
        md.name = mt.str(0, "name");
        md.buffer = mt.scalar<uint32_t>(1, 0);
        if (md.buffer >= model.buffers.size()) out_of_range(mt.path(), "buffer", md.buffer, model.buffers.size());
        model.metadata.push_back(std::move(md));
    }

    for (const Table &gt : m.tables(7, "signature_defs")) {
        gt.note_unknown({0, 1, 2, 4}, "SignatureDef", notes);
        SignatureDef sd;
        sd.signature_key = gt.str(2, "signature_key");
        sd.subgraph_index = gt.scalar<uint32_t>(4, 0);
        if (sd.subgraph_index >= model.subgraphs.size())
            out_of_range(gt.path(), "subgraph", sd.subgraph_index, model.subgraphs.size());
        const size_t nt = model.subgraphs[sd.subgraph_index].tensors.size();
        for (int side = 0; side < 2; ++side) {
            for (const Table &tm : gt.tables(side, side == 0 ? "inputs" : "outputs")) {
                tm.note_unknown({0, 1}, "TensorMap", notes);
                TensorMap x;
                x.name = tm.str(0, "name");
                x.tensor_index = tm.scalar<uint32_t>(1, 0);
                if (x.tensor_index >= nt) out_of_range(tm.path(), "tensor", x.tensor_index, nt);
                (side == 0 ? sd.inputs : sd.outputs).push_back(std::move(x));
            }
        }
        model.signature_defs.push_back(std::move(sd));
    }
    return model;
}


const char *tensor_type_name(TensorType t) {
    switch (t) {
    case TensorType::Float32: return "FLOAT32";
    case TensorType::Float16: return "FLOAT16";
    case TensorType::Int32: return "INT32";
    case TensorType::UInt8: return "UINT8";
    case TensorType::Int64: return "INT64";
    case TensorType::String: return "STRING";
    case TensorType::Bool: return "BOOL";
    case TensorType::Int16: return "INT16";
    case TensorType::Complex64: return "COMPLEX64";
    case TensorType::Int8: return "INT8";
    case TensorType::Int4: return "INT4";
    }
    return "UNKNOWN";
}

}  // namespace tigris::tflite
