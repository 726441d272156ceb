// writer.cpp - builds a TFLite flatbuffer with FlatBufferBuilder's table
// primitives (StartTable / AddElement / AddOffset / EndTable). Field ids are
// those the reader walks (tflm-arena.md section 10); slot = 4 + 2 x id.
#include "tigris_export/writer.hpp"

#include <flatbuffers/flatbuffers.h>

#include <map>
#include <string>
#include <vector>

namespace tigris::exporter {
namespace {

namespace tfl = tigris::tflite;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;
using flatbuffers::uoffset_t;
using flatbuffers::voffset_t;

constexpr voffset_t slot(int id) { return static_cast<voffset_t>(4 + 2 * id); }

// Offsets of children must be created before their parent table starts, so
// each writer function below first creates its vectors and strings, then the
// table.
class Writer {
public:
    explicit Writer(const tfl::Model &m) : m_(m) {}

    std::vector<uint8_t> run() {
        check();
        // Buffers first: FlatBufferBuilder fills back to front, so the big
        // weight blobs end up at the end of the file, after the graph.
        std::vector<Offset<void>> bufs;
        for (const tfl::Buffer &b : m_.buffers) bufs.push_back(buffer(b));
        auto buffers = fbb_.CreateVector(bufs);

        std::vector<Offset<void>> codes;
        for (const tfl::OperatorCode &c : m_.operator_codes) codes.push_back(opcode(c));
        auto codes_v = fbb_.CreateVector(codes);

        std::vector<Offset<void>> sgs;
        for (const tfl::SubGraph &sg : m_.subgraphs) sgs.push_back(subgraph(sg));
        auto sgs_v = fbb_.CreateVector(sgs);

        Offset<flatbuffers::String> desc;
        if (!m_.description.empty()) desc = fbb_.CreateString(m_.description);

        Offset<flatbuffers::Vector<Offset<void>>> meta_v;
        if (!m_.metadata.empty()) {
            std::vector<Offset<void>> md;
            for (const tfl::Metadata &x : m_.metadata) {
                auto name = fbb_.CreateString(x.name);
                uoffset_t t = fbb_.StartTable();
                fbb_.AddOffset(slot(0), name);
                fbb_.AddElement<uint32_t>(slot(1), x.buffer, 0);
                md.push_back(Offset<void>(fbb_.EndTable(t)));
            }
            meta_v = fbb_.CreateVector(md);
        }

        Offset<flatbuffers::Vector<Offset<void>>> sig_v;
        if (!m_.signature_defs.empty()) {
            std::vector<Offset<void>> sd;
            for (const tfl::SignatureDef &s : m_.signature_defs) sd.push_back(signature(s));
            sig_v = fbb_.CreateVector(sd);
        }

        uoffset_t t = fbb_.StartTable();
        fbb_.AddElement<uint32_t>(slot(0), m_.version, 0);
        fbb_.AddOffset(slot(1), codes_v);
        fbb_.AddOffset(slot(2), sgs_v);
        if (!desc.IsNull()) fbb_.AddOffset(slot(3), desc);
        fbb_.AddOffset(slot(4), buffers);
        if (!meta_v.IsNull()) fbb_.AddOffset(slot(6), meta_v);
        if (!sig_v.IsNull()) fbb_.AddOffset(slot(7), sig_v);
        fbb_.Finish(Offset<void>(fbb_.EndTable(t)), "TFL3");
        return std::vector<uint8_t>(fbb_.GetBufferPointer(), fbb_.GetBufferPointer() + fbb_.GetSize());
    }

private:
    [[noreturn]] static void fail(const std::string &what) { throw WriteError(what); }

    void check() const {
        if (!m_.uncarried.empty())
            fail("the model holds parts the writer does not carry: " + m_.uncarried.front());
        auto in = [](int64_t v, size_t n) { return v >= 0 && static_cast<uint64_t>(v) < n; };
        for (size_t s = 0; s < m_.subgraphs.size(); ++s) {
            const tfl::SubGraph &sg = m_.subgraphs[s];
            const std::string where = "subgraph " + std::to_string(s);
            for (const tfl::Tensor &t : sg.tensors)
                if (!in(t.buffer, m_.buffers.size())) fail(where + ": tensor " + t.name + " names a missing buffer");
            for (int32_t v : sg.inputs) if (!in(v, sg.tensors.size())) fail(where + ": input out of range");
            for (int32_t v : sg.outputs) if (!in(v, sg.tensors.size())) fail(where + ": output out of range");
            for (size_t i = 0; i < sg.operators.size(); ++i) {
                const tfl::Operator &op = sg.operators[i];
                const std::string w = where + " operator " + std::to_string(i);
                if (op.opcode_index >= m_.operator_codes.size()) fail(w + ": opcode index out of range");
                for (int32_t v : op.inputs) if (v != -1 && !in(v, sg.tensors.size())) fail(w + ": input out of range");
                for (int32_t v : op.outputs) if (!in(v, sg.tensors.size())) fail(w + ": output out of range");
                for (int32_t v : op.intermediates) if (!in(v, sg.tensors.size())) fail(w + ": intermediate out of range");
            }
        }
        for (const tfl::Metadata &x : m_.metadata)
            if (x.buffer >= m_.buffers.size()) fail("metadata " + x.name + " names a missing buffer");
        for (const tfl::SignatureDef &s : m_.signature_defs) {
            if (s.subgraph_index >= m_.subgraphs.size()) fail("signature " + s.signature_key + ": subgraph out of range");
            const size_t nt = m_.subgraphs[s.subgraph_index].tensors.size();
            for (const auto *side : {&s.inputs, &s.outputs})
                for (const tfl::TensorMap &x : *side)
                    if (x.tensor_index >= nt) fail("signature " + s.signature_key + ": tensor out of range");
        }
    }

    template <class T> Offset<flatbuffers::Vector<T>> vec(const std::vector<T> &v) {
        return fbb_.CreateVector(v);
    }

    // A FlatBuffer may point at one vector, string or table from many
    // places. The band rewrite adds tensors that repeat the shapes, the
    // quantization and the names of the tensors they split, so those are
    // written once and shared: the file grows by what is new, not by copies.
    Offset<flatbuffers::Vector<int32_t>> shared_ints(const std::vector<int32_t> &v) {
        auto [it, fresh] = ints_.try_emplace(v);
        if (fresh) it->second = fbb_.CreateVector(v);
        return it->second;
    }

    Offset<flatbuffers::String> shared_string(const std::string &s) { return fbb_.CreateSharedString(s); }

    Offset<void> buffer(const tfl::Buffer &b) {
        Offset<flatbuffers::Vector<uint8_t>> data;
        if (!b.data.empty()) {
            // The schema asks for 16-byte aligned buffer data (TFLM reads
            // int32 biases and per-channel arrays in place).
            fbb_.ForceVectorAlignment(b.data.size(), 1, 16);
            data = fbb_.CreateVector(b.data.data(), b.data.size());
        }
        uoffset_t t = fbb_.StartTable();
        if (!data.IsNull()) fbb_.AddOffset(slot(0), data);
        return Offset<void>(fbb_.EndTable(t));
    }

    Offset<void> opcode(const tfl::OperatorCode &c) {
        Offset<flatbuffers::String> custom;
        if (!c.custom_name.empty()) custom = fbb_.CreateString(c.custom_name);
        uoffset_t t = fbb_.StartTable();
        fbb_.AddElement<int8_t>(slot(0), static_cast<int8_t>(c.builtin < 127 ? c.builtin : 127), 0);
        if (!custom.IsNull()) fbb_.AddOffset(slot(1), custom);
        fbb_.AddElement<int32_t>(slot(2), c.version, 1);
        fbb_.AddElement<int32_t>(slot(3), c.builtin, 0);
        return Offset<void>(fbb_.EndTable(t));
    }

    Offset<void> quantization(const tfl::Quantization &q) {
        // Keyed by the bytes, not by float comparison (NaN, -0.0).
        std::string key;
        auto put = [&key](const void *p, size_t n) { key.append(static_cast<const char *>(p), n); };
        for (const auto *v : {&q.min, &q.max, &q.scale}) {
            const uint64_t n = v->size();
            put(&n, sizeof n);
            put(v->data(), v->size() * sizeof(float));
        }
        put(q.zero_point.data(), q.zero_point.size() * sizeof(int64_t));
        put(&q.quantized_dimension, sizeof q.quantized_dimension);
        if (auto it = quants_.find(key); it != quants_.end()) return it->second;
        auto mn = q.min.empty() ? Offset<flatbuffers::Vector<float>>() : vec(q.min);
        auto mx = q.max.empty() ? Offset<flatbuffers::Vector<float>>() : vec(q.max);
        auto sc = q.scale.empty() ? Offset<flatbuffers::Vector<float>>() : vec(q.scale);
        auto zp = q.zero_point.empty() ? Offset<flatbuffers::Vector<int64_t>>() : vec(q.zero_point);
        uoffset_t t = fbb_.StartTable();
        if (!mn.IsNull()) fbb_.AddOffset(slot(0), mn);
        if (!mx.IsNull()) fbb_.AddOffset(slot(1), mx);
        if (!sc.IsNull()) fbb_.AddOffset(slot(2), sc);
        if (!zp.IsNull()) fbb_.AddOffset(slot(3), zp);
        fbb_.AddElement<int32_t>(slot(6), q.quantized_dimension, 0);
        Offset<void> out(fbb_.EndTable(t));
        quants_.emplace(key, out);
        return out;
    }

    Offset<void> tensor(const tfl::Tensor &x) {
        auto shape = shared_ints(x.shape);
        Offset<flatbuffers::String> name;
        if (!x.name.empty()) name = shared_string(x.name);
        const tfl::Quantization &q = x.quant;
        const bool has_q = !q.min.empty() || !q.max.empty() || !q.scale.empty() || !q.zero_point.empty() ||
                           q.quantized_dimension != 0;
        Offset<void> quant = has_q ? quantization(q) : Offset<void>();
        Offset<flatbuffers::Vector<int32_t>> sig;
        if (x.shape_signature) sig = shared_ints(*x.shape_signature);
        uoffset_t t = fbb_.StartTable();
        fbb_.AddOffset(slot(0), shape);
        fbb_.AddElement<int8_t>(slot(1), static_cast<int8_t>(x.type), 0);
        fbb_.AddElement<uint32_t>(slot(2), x.buffer, 0);
        if (!name.IsNull()) fbb_.AddOffset(slot(3), name);
        if (!quant.IsNull()) fbb_.AddOffset(slot(4), quant);
        fbb_.AddElement<uint8_t>(slot(5), x.is_variable ? 1 : 0, 0);
        if (!sig.IsNull()) fbb_.AddOffset(slot(7), sig);
        fbb_.AddElement<uint8_t>(slot(8), x.has_rank ? 1 : 0, 0);
        return Offset<void>(fbb_.EndTable(t));
    }

    // The option table exactly as the reader stored it: every field it set,
    // including fields equal to their default (hence ForceDefaults).
    Offset<void> options(const tfl::Operator &op) {
        std::vector<std::pair<uint16_t, Offset<flatbuffers::Vector<int32_t>>>> vecs;
        for (const tfl::OptionField &f : op.option_fields)
            if (f.kind == tfl::OptionField::kIntVector) vecs.emplace_back(f.id, vec(f.ints));
        fbb_.ForceDefaults(true);
        uoffset_t t = fbb_.StartTable();
        size_t vi = 0;
        for (const tfl::OptionField &f : op.option_fields) {
            if (f.kind == tfl::OptionField::kIntVector) {
                fbb_.AddOffset(slot(f.id), vecs[vi++].second);
                continue;
            }
            switch (f.width) {
            case 1: fbb_.AddElement<uint8_t>(slot(f.id), static_cast<uint8_t>(f.bits), 0); break;
            case 4: fbb_.AddElement<uint32_t>(slot(f.id), static_cast<uint32_t>(f.bits), 0); break;
            case 8: fbb_.AddElement<uint64_t>(slot(f.id), f.bits, 0); break;
            default: fbb_.ForceDefaults(false); fail("option field with width " + std::to_string(f.width));
            }
        }
        Offset<void> out(fbb_.EndTable(t));
        fbb_.ForceDefaults(false);
        return out;
    }

    Offset<void> op(const tfl::Operator &x) {
        auto ins = vec(x.inputs);
        auto outs = vec(x.outputs);
        Offset<flatbuffers::Vector<int32_t>> inter;
        if (!x.intermediates.empty()) inter = vec(x.intermediates);
        Offset<void> opts = x.has_option_table ? options(x) : Offset<void>();
        Offset<flatbuffers::Vector<uint8_t>> custom;
        if (x.has_custom_options) custom = fbb_.CreateVector(x.custom_options.data(), x.custom_options.size());
        uoffset_t t = fbb_.StartTable();
        fbb_.AddElement<uint32_t>(slot(0), x.opcode_index, 0);
        fbb_.AddOffset(slot(1), ins);
        fbb_.AddOffset(slot(2), outs);
        fbb_.AddElement<uint8_t>(slot(3), x.options.union_type, 0);
        if (!opts.IsNull()) fbb_.AddOffset(slot(4), opts);
        if (!custom.IsNull()) fbb_.AddOffset(slot(5), custom);
        fbb_.AddElement<int8_t>(slot(6), x.custom_options_format, 0);
        if (!inter.IsNull()) fbb_.AddOffset(slot(8), inter);
        return Offset<void>(fbb_.EndTable(t));
    }

    Offset<void> subgraph(const tfl::SubGraph &sg) {
        std::vector<Offset<void>> ts, os;
        for (const tfl::Tensor &x : sg.tensors) ts.push_back(tensor(x));
        auto ts_v = fbb_.CreateVector(ts);
        auto in_v = vec(sg.inputs);
        auto out_v = vec(sg.outputs);
        for (const tfl::Operator &x : sg.operators) os.push_back(op(x));
        auto os_v = fbb_.CreateVector(os);
        Offset<flatbuffers::String> name;
        if (!sg.name.empty()) name = fbb_.CreateString(sg.name);
        uoffset_t t = fbb_.StartTable();
        fbb_.AddOffset(slot(0), ts_v);
        fbb_.AddOffset(slot(1), in_v);
        fbb_.AddOffset(slot(2), out_v);
        fbb_.AddOffset(slot(3), os_v);
        if (!name.IsNull()) fbb_.AddOffset(slot(4), name);
        return Offset<void>(fbb_.EndTable(t));
    }

    Offset<void> tensor_maps(const std::vector<tfl::TensorMap> &v) {
        std::vector<Offset<void>> out;
        for (const tfl::TensorMap &x : v) {
            auto name = fbb_.CreateString(x.name);
            uoffset_t t = fbb_.StartTable();
            fbb_.AddOffset(slot(0), name);
            fbb_.AddElement<uint32_t>(slot(1), x.tensor_index, 0);
            out.push_back(Offset<void>(fbb_.EndTable(t)));
        }
        return Offset<void>(fbb_.CreateVector(out).o);
    }

    Offset<void> signature(const tfl::SignatureDef &s) {
        auto ins = tensor_maps(s.inputs);
        auto outs = tensor_maps(s.outputs);
        auto key = fbb_.CreateString(s.signature_key);
        uoffset_t t = fbb_.StartTable();
        fbb_.AddOffset(slot(0), ins);
        fbb_.AddOffset(slot(1), outs);
        fbb_.AddOffset(slot(2), key);
        fbb_.AddElement<uint32_t>(slot(4), s.subgraph_index, 0);
        return Offset<void>(fbb_.EndTable(t));
    }

    const tfl::Model &m_;
    FlatBufferBuilder fbb_{1 << 16};
    std::map<std::vector<int32_t>, Offset<flatbuffers::Vector<int32_t>>> ints_;
    std::map<std::string, Offset<void>> quants_;
};

}  // namespace

std::vector<uint8_t> write_model(const tflite::Model &m) { return Writer(m).run(); }

}  // namespace tigris::exporter
