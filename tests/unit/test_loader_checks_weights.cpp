// Loader checks of weights, weight blocks and quantization parameters
// (docs/format.md P8.1 structure, P8.3, P9 structure; P13.2 steps 13-15, 18).
// Expected weight sizes (P8.1) and channel fit (P9) are operator semantics and
// live with the operator tests.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "plan_builder.h"

using namespace tigris_test;

// ---- docs/format.md P8.1 uncompressed weights ----
// float_conv: weight 216 bytes at blob offset 0, bias 12 bytes at 224; blob 236 bytes.

TEST(LoaderWeights, EntryOffsetOutsideBlob) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().weight_entry(1) + 4, 240);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderWeights, EntryEndOneBytePastBlob) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().weight_entry(1) + 4, 225);  // 225 + 12 = 237 > 236
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderWeights, EntrySizeOutsideBlob) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().weight_entry(0) + 8, 0x10000);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderWeights, EntryOffsetPlusSizeWrapsAround) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().weight_entry(1) + 4, 0xFFFFFFF8u);
    put_u32(bytes, b.layout().weight_entry(1) + 8, 0x10);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderWeights, EntryNameOutsideStrings) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().weight_entry(0), 0xFFFFFF);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// ---- docs/format.md P8.3 weight blocks ----

namespace {
PlanBuilder lz4_conv() { return PlanBuilder::compressed_conv(9, Compression::Lz4Blocks); }
PlanBuilder lz4_chain() {
    PlanBuilder b = PlanBuilder::conv_chain(9);
    b.compression = Compression::Lz4Blocks;
    return b;
}
}  // namespace

TEST(LoaderBlocks, BaselinesLoad) {
    EXPECT_LOAD(lz4_conv().build(), TIGRIS_OK);
    EXPECT_LOAD(lz4_chain().build(), TIGRIS_OK);
    for (uint32_t rev : {4u, 10u, 11u}) {
        PlanBuilder b = PlanBuilder::conv_chain(rev);
        b.compression = Compression::StoredBlocks;
        SCOPED_TRACE(rev);
        EXPECT_LOAD(b.build(), TIGRIS_OK);
    }
}

TEST(LoaderBlocks, UnknownCompression) {
    PlanBuilder b = lz4_conv();
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().blocks_header + 2, 2);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, ZeroBlocks) {
    PlanBuilder b = lz4_conv();
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().blocks_header, 0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, MoreBlocksThanStages) {
    PlanBuilder b = lz4_conv();
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().blocks_header, 2);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, BlockRecordsBeyondSection) {
    PlanBuilder b = lz4_conv();
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().blocks_header, 0xFFFF);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, BlocksWithoutWeights) {
    PlanBuilder b = lz4_conv();
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, 40, 0);  // header num_weights
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, StageIndexOutOfRange) {
    PlanBuilder b = lz4_conv();
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().block_record(0), 1);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, StageIndicesNotIncreasing) {
    PlanBuilder b = lz4_chain();
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().block_record(1), 0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, WeightRangeOutsideTable) {
    PlanBuilder b = lz4_conv();
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().block_record(0) + 2, 1);  // [1, 3) of 2 weights
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, BlockWithNoWeights) {
    PlanBuilder b = lz4_conv();
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().block_record(0) + 4, 0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, CompressedBytesOutsideDataArea) {
    PlanBuilder b = lz4_conv();
    std::vector<uint8_t> bytes = b.build();
    // The block section is last and its data area is exactly this one block.
    put_u32(bytes, b.layout().block_record(0) + 8, 1);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, CompressedSizeZero) {
    PlanBuilder b = lz4_conv();
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().block_record(0) + 12, 0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, UncompressedSizeZero) {
    PlanBuilder b = lz4_conv();
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().block_record(0) + 16, 0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, StoredBlockSizesDiffer) {
    PlanBuilder b = PlanBuilder::compressed_conv(9, Compression::StoredBlocks);
    std::vector<uint8_t> bytes = b.build();
    put_u32(bytes, b.layout().block_record(0) + 16, get_u32(bytes, b.layout().block_record(0) + 16) + 16);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, WeightPastItsBlock) {
    PlanBuilder b = lz4_conv();
    std::vector<uint8_t> bytes = b.build();
    // Bias (12 bytes) moved to 240 of a 236-byte block.
    put_u32(bytes, b.layout().weight_entry(1) + 4, 240);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, OpUsesWeightOfAnotherStagesBlock) {
    PlanBuilder b = lz4_chain();
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().op(1) + 30, 0);  // conv1 (stage 1) takes conv0's weight (block 0)
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderBlocks, StageWithWeightsButNoBlock) {
    PlanBuilder b = lz4_chain();
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().blocks_header, 1);  // drop stage 1's block
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// ---- docs/format.md P9 quant params (int8_conv: records x (1 channel), y (3 channels), 8 data words) ----

TEST(LoaderQuant, SectionCountDiffersFromHeader) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().quant_header, 1);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
    put_u16(bytes, b.layout().quant_header, 3);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderQuant, HeaderCountBeyondSection) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, 42, 0x4000);
    put_u16(bytes, b.layout().quant_header, 0x4000);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderQuant, PageCountZero) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().quant_header + 2, 0);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderQuant, PageCountAboveDataPages) {
    for (uint16_t pages : {2, 3, 0xFFFF}) {
        PlanBuilder b = PlanBuilder::int8_conv(9);
        b.quant_page_count_override = pages;  // data fills one page
        SCOPED_TRACE(pages);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderQuant, DataNotWholeInt32) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    std::vector<uint8_t> bytes = b.build();
    ASSERT_EQ(b.layout().directory.back().type, (uint32_t)TIGRIS_SEC_QUANT_PARAMS);
    bytes.resize(bytes.size() + 2, 0);  // quant is the last section: its extent grows by 2
    put_u32(bytes, 8, (uint32_t)bytes.size());
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderQuant, RecordPageBeyondPageCount) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().quant_record(1) + 14, 1);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderQuant, MultiplierArrayCrossesPageEnd) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().quant_record(1) + 10, 65534);  // 65534 + 3 > 65536
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderQuant, ShiftArrayOutsideData) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().quant_record(1) + 12, 6);  // [6, 9) of 8 words
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderQuant, UnreferencedRecordWithBadScale) {
    for (float s : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
        PlanBuilder b = PlanBuilder::int8_conv(9);
        b.add_quant(s, 0, {0}, {0});
        SCOPED_TRACE(s);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_TENSOR);
    }
}

namespace {
// int8_conv plus two unreferenced 30000-channel records: the second cannot
// share page 0, so the data spans two pages.
PlanBuilder two_page_quant() {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    std::vector<int32_t> m(30000, 1 << 30), s(30000, -1);
    b.add_quant(0.5f, 0, m, s);
    b.add_quant(0.5f, 0, m, s);
    return b;
}
}  // namespace

TEST(LoaderQuant, TwoPagesLoad) {
    PlanBuilder b = two_page_quant();
    std::vector<uint8_t> bytes = b.build();
    ASSERT_EQ(get_u16(bytes, b.layout().quant_header + 2), 2);
    ASSERT_EQ(get_u16(bytes, b.layout().quant_record(3) + 14), 1);
    EXPECT_LOAD(bytes, TIGRIS_OK);
}

TEST(LoaderQuant, PagedRecordWithTooFewPagesDeclared) {
    // One page fewer than the data holds is tolerated for padding, but then the
    // record on page 1 is beyond the declared count.
    PlanBuilder b = two_page_quant();
    b.quant_page_count_override = 1;
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}
