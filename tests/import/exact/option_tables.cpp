// option_tables.cpp - see option_tables.h.
#include "option_tables.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace tigris_test {

namespace tfl = tigris::tflite;

namespace {

uint64_t u32(int32_t v) { return (uint32_t)v; }
uint64_t f32(float v) {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    return b;
}
uint64_t u8(int v) { return (uint8_t)v; }

}  // namespace

void set_option_field(tfl::Operator &op, uint16_t id, uint8_t width, uint64_t bits) {
    for (tfl::OptionField &f : op.option_fields)
        if (f.id == id) {
            f.kind = tfl::OptionField::kScalar;
            f.width = width;
            f.bits = bits;
            return;
        }
    tfl::OptionField f;
    f.id = id;
    f.width = width;
    f.bits = bits;
    // Fields in id order, as the reader lists them.
    auto at = op.option_fields.begin();
    while (at != op.option_fields.end() && at->id < id) ++at;
    op.option_fields.insert(at, f);
}

void derive_option_table(tfl::Operator &op, int32_t builtin) {
    const tfl::Options &o = op.options;
    uint8_t union_type = 0;
    op.option_fields.clear();
    auto field = [&](uint16_t id, uint8_t width, uint64_t bits) { set_option_field(op, id, width, bits); };
    switch (builtin) {
    case tfl::kConv2D:
        union_type = 1;  // Conv2DOptions
        field(0, 1, u8(o.padding));
        field(1, 4, u32(o.stride_w));
        field(2, 4, u32(o.stride_h));
        field(3, 1, u8(o.fused_activation));
        field(4, 4, u32(o.dilation_w));
        field(5, 4, u32(o.dilation_h));
        break;
    case tfl::kDepthwiseConv2D:
        union_type = 2;  // DepthwiseConv2DOptions
        field(0, 1, u8(o.padding));
        field(1, 4, u32(o.stride_w));
        field(2, 4, u32(o.stride_h));
        field(3, 4, u32(o.depth_multiplier));
        field(4, 1, u8(o.fused_activation));
        field(5, 4, u32(o.dilation_w));
        field(6, 4, u32(o.dilation_h));
        break;
    case tfl::kAveragePool2D:
    case tfl::kMaxPool2D:
        union_type = 5;  // Pool2DOptions
        field(0, 1, u8(o.padding));
        field(1, 4, u32(o.stride_w));
        field(2, 4, u32(o.stride_h));
        field(3, 4, u32(o.filter_w));
        field(4, 4, u32(o.filter_h));
        field(5, 1, u8(o.fused_activation));
        break;
    case tfl::kFullyConnected:
        union_type = 8;
        field(0, 1, u8(o.fused_activation));
        break;
    case tfl::kSoftmax:
        union_type = 9;
        field(0, 4, f32(o.beta));
        break;
    case tfl::kConcatenation:
        union_type = 10;
        field(0, 4, u32(o.axis));
        field(1, 1, u8(o.fused_activation));
        break;
    case tfl::kAdd: union_type = 11; field(0, 1, u8(o.fused_activation)); break;
    case tfl::kMul: union_type = 21; field(0, 1, u8(o.fused_activation)); break;
    case tfl::kSub: union_type = 28; field(0, 1, u8(o.fused_activation)); break;
    case tfl::kPad: union_type = 22; break;
    case tfl::kPadV2: union_type = 43; break;
    case tfl::kSlice: union_type = 48; break;
    case tfl::kMaximum:
    case tfl::kMinimum: union_type = 39; break;
    case tfl::kLeakyRelu: union_type = 75; field(0, 4, f32(o.alpha)); break;
    case tfl::kAbs: union_type = 78; break;
    case tfl::kQuantize: union_type = 89; break;
    case tfl::kHardSwish: union_type = 91; break;
    case tfl::kRelu:
    case tfl::kRelu6:
    case tfl::kLogistic:
    case tfl::kTanh: break;  // no option table
    default: throw std::invalid_argument("no option table known for builtin " + std::to_string(builtin));
    }
    op.options.union_type = union_type;
    op.has_option_table = union_type != 0;
}

void derive_option_tables(tfl::Model &m) {
    for (tfl::Operator &op : m.subgraphs.at(0).operators)
        if (!op.has_option_table) derive_option_table(op, m.operator_codes.at(op.opcode_index).builtin);
}

}  // namespace tigris_test
