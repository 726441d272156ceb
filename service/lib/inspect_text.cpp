// inspect_text.cpp - the inspect report as short, column-aligned text.
#include <algorithm>
#include <sstream>

#include "tigris_host/inspect.hpp"

namespace tigris::host {
namespace {

// Columns padded to their widest cell; numeric columns align right so that
// magnitudes can be compared at a glance.
class Table {
public:
    explicit Table(std::vector<std::string> header, std::string right_cols = "")
        : right_(std::move(right_cols)) {
        rows_.push_back(std::move(header));
    }
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    void render(std::ostream &out, const std::string &indent) const {
        std::vector<size_t> w;
        for (const auto &row : rows_) {
            if (w.size() < row.size()) w.resize(row.size(), 0);
            for (size_t i = 0; i < row.size(); ++i) w[i] = std::max(w[i], row[i].size());
        }
        for (const auto &row : rows_) {
            std::string line = indent;
            for (size_t i = 0; i < row.size(); ++i) {
                const bool right = i < right_.size() && right_[i] == 'r';
                const std::string pad(w[i] - row[i].size(), ' ');
                const bool last = i + 1 == row.size();
                line += right ? pad + row[i] : (last ? row[i] : row[i] + pad);
                if (!last) line += "  ";
            }
            out << line << '\n';
        }
    }

private:
    std::vector<std::vector<std::string>> rows_;
    std::string right_;  // 'r' at a column's position: right-aligned
};

std::string shape_text(const std::vector<int32_t> &shape) {
    std::string s = "[";
    // Appended piece by piece: `"," + std::to_string(x)` makes GCC 12 at -O3
    // report a false -Wrestrict inside std::char_traits (GCC bug 105329).
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ',';
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

std::string limits_text(const Limits &l) {
    std::ostringstream o;
    o << "tensors " << l.tensors << "  stage inputs " << l.stage_inputs << "  stage outputs " << l.stage_outputs
      << "  chain " << l.chain_stages << "  spatial ops " << l.spatial_ops_per_stage << "  subgraphs "
      << l.subgraphs << "  depth " << l.subgraph_depth;
    return o.str();
}

void io_rows(Table &t, const std::vector<IoTensor> &list, const char *dir) {
    for (const IoTensor &io : list) {
        std::string dtype = io.stored_dtype;
        if (io.declared_dtype != io.stored_dtype) dtype += " as " + io.declared_dtype;
        std::string quant = "-";
        if (io.quant) {
            std::ostringstream q;
            q << "scale " << io.quant->scale << " zp " << io.quant->zero_point;
            quant = q.str();
        }
        t.add({dir, std::to_string(io.index), io.name, dtype, shape_text(io.shape), std::to_string(io.stored_bytes),
               std::to_string(io.declared_bytes), quant});
    }
}

std::string stage_detail(const StageInfo &s) {
    std::ostringstream o;
    if (s.chain_head && s.kind == StageKind::ChainHead)
        o << "chain of " << s.chain_len << ", tile h " << s.chain_tile_h << (s.line_buffered ? ", line-buffered" : "");
    else if (s.chain_head)
        o << "in chain " << *s.chain_head;
    if (s.band && s.band->kind != "NONE") o << "band " << s.band->kind << " over " << s.band->extent;
    if (s.tile) {
        if (o.tellp() > 0) o << "; ";
        o << "tile #" << s.tile->index << (s.tile->tileable ? "" : " (untileable)") << " h " << s.tile->tile_height
          << " x" << s.tile->num_tiles << " of " << s.tile->original_height;
        if (s.tile->tile_width) o << " w " << s.tile->tile_width;
        if (s.tile->halo) o << " halo " << s.tile->halo;
    }
    if (s.subgraph) {
        if (o.tellp() > 0) o << "; ";
        o << "graph " << s.subgraph;
    }
    return o.str().empty() ? "-" : o.str();
}

std::string ops_text(const StageInfo &s) {
    std::string out;
    for (const OpRef &op : s.ops) out += (out.empty() ? "" : ", ") + op.type_name;
    return out;
}

}  // namespace

std::string to_text(const InspectReport &r) {
    std::ostringstream o;
    if (!r.status.ok()) {
        o << "status    " << r.status.name << ": " << r.status.message << '\n';
        if (r.header)
            o << "header    magic " << (r.header->magic_ok ? "TGRS" : "bad") << "  version " << r.header->version
              << "  file_size " << r.header->file_size << " (file " << r.file_bytes << " bytes)\n";
        return o.str();
    }
    const PlanInfo &p = *r.plan;
    const Counts &c = p.counts;
    const Memory &m = p.memory;
    o << "model     " << p.model_name << "  schema " << p.schema << "  " << p.data_dtype << "  " << r.file_bytes
      << " bytes\n";
    o << "counts    tensors " << c.tensors << "  ops " << c.ops << "  stages " << c.stages << "  tile plans "
      << c.tile_plans << "  weights " << c.weights << "  quant " << c.quant_params << "  attributes "
      << c.attributes << "  blocks " << c.weight_blocks << "  state " << c.state_entries << "  subgraphs "
      << c.subgraphs << '\n';
    o << "flags     xip " << (p.flags.xip ? "yes" : "no") << "  compression " << p.flags.compression
      << (p.flags.tile_v10 ? "  32-byte tile records" : "") << '\n';
    o << "memory    budget " << m.budget << "  header peak " << m.header_peak << "  scheduled peak "
      << (m.scheduled_peak ? std::to_string(*m.scheduled_peak) : std::string("-")) << '\n';
    o << "          fast arena " << m.fast_arena_required << "  decompression " << m.decompression_overhead
      << "  workspace " << m.executor_workspace_bytes << "  state " << m.state_bytes << "  weights "
      << m.weight_bytes << '\n';
    o << "limits    plan  " << limits_text(r.required) << '\n';
    o << "          build " << limits_text(r.build) << (r.fits_build ? "" : "  (plan exceeds build)") << '\n';

    o << '\n';
    Table io({"", "#", "name", "dtype", "shape", "bytes", "declared", "quant"}, "_r___rr");
    io_rows(io, p.inputs, "in");
    io_rows(io, p.outputs, "out");
    io.render(o, "");

    o << '\n';
    Table st({"stage", "kind", "peak", "ops", "detail"}, "r_r");
    for (const StageInfo &s : p.stages)
        st.add({std::to_string(s.index), stage_kind_name(s.kind), std::to_string(s.peak_bytes), ops_text(s),
                stage_detail(s)});
    st.render(o, "");
    return o.str();
}

}  // namespace tigris::host
