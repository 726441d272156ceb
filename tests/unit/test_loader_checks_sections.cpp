// Loader checks of the section directory and pools (docs/format.md P3
// rules 1-10, P3.3, P4.5 model-I/O range; P13.2 steps 2-6).
#include <gtest/gtest.h>

#include "plan_builder.h"

using namespace tigris_test;

namespace {

using Dir = std::vector<tigris_section_entry_t>;

size_t find(const Dir &d, uint32_t id) {
    for (size_t i = 0; i < d.size(); ++i)
        if (d[i].type == id) return i;
    ADD_FAILURE() << "section " << id << " not in directory";
    return 0;
}

std::vector<uint8_t> minimal_with_dir(std::function<void(Dir &, uint32_t)> edit, uint32_t rev = 9) {
    PlanBuilder b = PlanBuilder::minimal_float(rev);
    b.edit_directory = std::move(edit);
    return b.build();
}

}  // namespace

// Rule 1: the directory offset must leave room for one 8-byte entry.
TEST(LoaderSections, Rule1_DirectoryOffsetBeyondFile) {
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    for (uint32_t off : {(uint32_t)bytes.size() - 4, (uint32_t)bytes.size(), (uint32_t)bytes.size() + 8,
                         0xFFFFFFF8u, 0xFFFFFFFFu}) {
        std::vector<uint8_t> b2 = bytes;
        put_u32(b2, 12, off);
        SCOPED_TRACE(off);
        EXPECT_LOAD(b2, TIGRIS_ERR_BAD_SECTION);
    }
}

// Rule 2: a directory that runs off the end of the file without a sentinel.
TEST(LoaderSections, Rule2_DirectoryWithoutSentinel) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    // Re-point the directory at a copy of its entries appended at the very end,
    // with no sentinel after them.
    const Layout &L = b.layout();
    const uint32_t start = (uint32_t)bytes.size();
    for (const auto &e : L.directory) {
        const size_t at = bytes.size();
        bytes.resize(at + 8);
        put_u32(bytes, at, e.type);
        put_u32(bytes, at + 4, e.offset);
    }
    put_u32(bytes, 8, (uint32_t)bytes.size());
    put_u32(bytes, 12, start);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// Rule 3: ids at or above SEC_MAX are refused, never skipped.
TEST(LoaderSections, Rule3_UnknownSectionId) {
    for (uint32_t id : {15u, 16u, 255u, 0x80000000u}) {
        SCOPED_TRACE(id);
        EXPECT_LOAD(minimal_with_dir([id](Dir &d, uint32_t end) { d.push_back({id, end}); }),
                    TIGRIS_ERR_BAD_SECTION);
    }
}

// Rule 4: a type may appear once.
TEST(LoaderSections, Rule4_DuplicateSectionId) {
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t) { d.insert(d.begin() + 1, d[0]); }),
                TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, Rule4_DuplicateSectionIdAtTheEnd) {
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t end) { d.push_back({TIGRIS_SEC_STRINGS, end}); }),
                TIGRIS_ERR_BAD_SECTION);
}

// Rule 5: ids strictly increasing.
TEST(LoaderSections, Rule5_DecreasingIds) {
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t) {
                    size_t i = find(d, TIGRIS_SEC_INDEX_POOL), j = find(d, TIGRIS_SEC_SHAPE_POOL);
                    const uint32_t t = d[i].type;  // offsets stay ascending
                    d[i].type = d[j].type;
                    d[j].type = t;
                }),
                TIGRIS_ERR_BAD_SECTION);
}

// Rule 5: offsets non-decreasing.
TEST(LoaderSections, Rule5_DecreasingOffsets) {
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t) {
                    size_t i = find(d, TIGRIS_SEC_SHAPE_POOL), j = find(d, TIGRIS_SEC_STRINGS);
                    const uint32_t o = d[i].offset;
                    d[i].offset = d[j].offset;
                    d[j].offset = o;
                }),
                TIGRIS_ERR_BAD_SECTION);
}

// Rule 5: each offset <= file length.
TEST(LoaderSections, Rule5_OffsetBeyondFile) {
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t end) { d[find(d, TIGRIS_SEC_STRINGS)].offset = end + 16; }),
                TIGRIS_ERR_BAD_SECTION);
}

// Rule 5: sharing an offset is allowed only when the earlier section is empty.
TEST(LoaderSections, Rule5_NonEmptySectionSharesOffset) {
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t) { d[find(d, TIGRIS_SEC_OPS)].offset = d[0].offset; }),
                TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, Rule5_EmptySectionSharesOffsetWithNext) {
    // minimal_float has no tile plans: section 4 is empty and starts where 5 starts.
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    ASSERT_EQ(b.layout().section.at(TIGRIS_SEC_TILE_PLANS), b.layout().section.at(TIGRIS_SEC_INDEX_POOL));
    EXPECT_LOAD(bytes, TIGRIS_OK);
}

// Rule 6: no section may start inside the header or the directory.
TEST(LoaderSections, Rule6_SectionInsideDirectory) {
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t) { d[0].offset = 48 + 8; }), TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, Rule6_SectionOverlapsSentinel) {
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t) { d[0].offset = 48 + 8 * (uint32_t)d.size(); }),
                TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, Rule6_SectionInsideHeader) {
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t) { d[0].offset = 16; }), TIGRIS_ERR_BAD_SECTION);
}

// Rule 7: offset 0 means absent; absent required sections -> MISSING_SEC.
TEST(LoaderSections, Rule7_ZeroOffsetMeansAbsent_Tensors) {
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t) { d[find(d, TIGRIS_SEC_TENSORS)].offset = 0; }),
                TIGRIS_ERR_MISSING_SEC);
}

TEST(LoaderSections, Rule7_ZeroOffsetMeansAbsent_Stages) {
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t) { d[find(d, TIGRIS_SEC_STAGES)].offset = 0; }),
                TIGRIS_ERR_MISSING_SEC);
}

TEST(LoaderSections, Rule7_ZeroOffsetOptionalSectionLoads) {
    // No tile plans in the plan: an absent (offset 0) tile-plan section is fine.
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t) { d[find(d, TIGRIS_SEC_TILE_PLANS)].offset = 0; }),
                TIGRIS_OK);
}

// Rule 8: required sections.
TEST(LoaderSections, Rule8_MissingAlwaysRequiredSections) {
    for (uint32_t id : {TIGRIS_SEC_TENSORS, TIGRIS_SEC_OPS, TIGRIS_SEC_INDEX_POOL, TIGRIS_SEC_SHAPE_POOL,
                        TIGRIS_SEC_STRINGS}) {
        PlanBuilder b = PlanBuilder::minimal_float(9);
        b.drop_sections.insert(id);
        SCOPED_TRACE(id);
        EXPECT_LOAD(b.build(), TIGRIS_ERR_MISSING_SEC);
    }
}

TEST(LoaderSections, Rule8_MissingStagesWhenStagesCounted) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.drop_sections.insert(TIGRIS_SEC_STAGES);
    EXPECT_LOAD(b.build(), TIGRIS_ERR_MISSING_SEC);
}

TEST(LoaderSections, Rule8_MissingTilePlansWhenCounted) {
    PlanBuilder b = PlanBuilder::tiled_stripe(9);
    b.drop_sections.insert(TIGRIS_SEC_TILE_PLANS);
    EXPECT_LOAD(b.build(), TIGRIS_ERR_MISSING_SEC);
}

TEST(LoaderSections, Rule8_MissingWeightsWhenCounted) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    b.drop_sections.insert(TIGRIS_SEC_WEIGHTS);
    EXPECT_LOAD(b.build(), TIGRIS_ERR_MISSING_SEC);
}

TEST(LoaderSections, Rule8_MissingQuantWhenCounted) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    b.drop_sections.insert(TIGRIS_SEC_QUANT_PARAMS);
    EXPECT_LOAD(b.build(), TIGRIS_ERR_MISSING_SEC);
}

TEST(LoaderSections, Rule8_MissingIsCheckedAfterDirectoryWalk) {
    // A directory error and a missing section: the walk (step 2) reports first.
    PlanBuilder b = PlanBuilder::minimal_float(9);
    b.drop_sections.insert(TIGRIS_SEC_STRINGS);
    b.edit_directory = [](Dir &d, uint32_t) { d.insert(d.begin() + 1, d[0]); };
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// Rule 9: typed pool alignment ("misaligned pools").
TEST(LoaderSections, Rule9_IndexPoolOddOffset) {
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t) { d[find(d, TIGRIS_SEC_INDEX_POOL)].offset += 1; }),
                TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, Rule9_ShapePoolOffsetNotMultipleOf4) {
    for (uint32_t delta : {1u, 2u, 3u}) {
        SCOPED_TRACE(delta);
        EXPECT_LOAD(
            minimal_with_dir([delta](Dir &d, uint32_t) { d[find(d, TIGRIS_SEC_SHAPE_POOL)].offset += delta; }),
            TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderSections, Rule9_QuantOffsetNotMultipleOf4) {
    PlanBuilder b = PlanBuilder::int8_conv(9);
    b.edit_directory = [](Dir &d, uint32_t) { d[find(d, TIGRIS_SEC_QUANT_PARAMS)].offset += 2; };
    EXPECT_LOAD(b.build(), TIGRIS_ERR_BAD_SECTION);
}

// Rule 10: every table must fit its section's extent.
TEST(LoaderSections, Rule10_TensorTableBeyondExtent) {
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    put_u16(bytes, 16, 3);  // 48 bytes of tensors in a 32-byte extent
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, Rule10_OpTableBeyondExtent) {
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    put_u16(bytes, 18, 2);  // 76 bytes in a 48-byte extent
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, Rule10_StageTableBeyondExtent) {
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    put_u16(bytes, 20, 2);  // 56 bytes in a 32-byte extent
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, Rule10_TilePlanTableBeyondExtent) {
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    put_u16(bytes, 22, 1);  // one record in an empty section
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, Rule10_OversizedCounts) {
    // Counts far beyond any extent (the table check precedes the tensor limit).
    for (size_t field : {16u, 18u, 20u, 22u, 40u}) {
        PlanBuilder b = PlanBuilder::float_conv(9);
        std::vector<uint8_t> bytes = b.build();
        put_u16(bytes, field, 0xFFFF);
        SCOPED_TRACE(field);
        EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderSections, Rule10_WeightEntriesBeyondExtent) {
    PlanBuilder b = PlanBuilder::float_conv(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, 40, 0x1000);  // 48 KiB of entries in a few hundred bytes
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P3.3 pools.
TEST(LoaderSections, Pools_ShapePoolRaggedExtent) {
    // Strings moved 2 bytes later: the shape pool's extent is no longer a whole
    // number of i32.
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t) { d[find(d, TIGRIS_SEC_STRINGS)].offset += 2; }),
                TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, Pools_EmptyStringSection) {
    // Strings is the last section of minimal_float: starting it at the end of
    // the file leaves it zero bytes long.
    EXPECT_LOAD(minimal_with_dir([](Dir &d, uint32_t end) { d[find(d, TIGRIS_SEC_STRINGS)].offset = end; }),
                TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, Pools_ModelNameOutsideStrings) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    const uint32_t len = (uint32_t)bytes.size() - b.layout().string_pool;
    for (uint32_t off : {len, len + 100, 0xFFFFFFFFu}) {
        std::vector<uint8_t> b2 = bytes;
        put_u32(b2, 32, off);
        SCOPED_TRACE(off);
        EXPECT_LOAD(b2, TIGRIS_ERR_BAD_SECTION);
    }
}

TEST(LoaderSections, Pools_ModelNameWithoutNul) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    // The last string ("relu") loses its terminator; point the model name at it.
    bytes.back() = 'x';
    put_u32(bytes, 32, b.layout().strings.at("relu"));
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

// Strings must be well-formed UTF-8: names reach JSON, gRPC and the viewer.
TEST(LoaderSections, Pools_StringsMustBeUtf8) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    const std::vector<uint8_t> bytes = b.build();
    const uint32_t at = b.layout().string_pool + b.layout().strings.at("relu");
    auto with = [&](std::vector<uint8_t> four) {
        std::vector<uint8_t> b2 = bytes;
        std::copy(four.begin(), four.end(), b2.begin() + at);
        return b2;
    };
    // Well-formed multi-byte names load: U+00E9, U+20AC, U+1F600.
    EXPECT_LOAD(with({0xC3, 0xA9, 'a', 'b'}), TIGRIS_OK);
    EXPECT_LOAD(with({0xE2, 0x82, 0xAC, 'a'}), TIGRIS_OK);
    EXPECT_LOAD(with({0xF0, 0x9F, 0x98, 0x80}), TIGRIS_OK);
    const std::vector<std::vector<uint8_t>> bad = {
        {0xFF, 'e', 'l', 'u'},        // never a UTF-8 byte
        {0x80, 'e', 'l', 'u'},        // lone continuation byte
        {0xC0, 0x80, 'l', 'u'},       // overlong NUL
        {0xE0, 0x80, 0x80, 'u'},      // overlong three-byte form
        {0xED, 0xA0, 0x80, 'u'},      // UTF-16 surrogate U+D800
        {0xF4, 0x90, 0x80, 0x80},     // above U+10FFFF
        {0xE2, 0x82, 'l', 'u'},       // truncated sequence
    };
    for (const auto &seq : bad) {
        SCOPED_TRACE(testing::PrintToString(seq));
        EXPECT_LOAD(with(seq), TIGRIS_ERR_BAD_SECTION);
    }
    // A sequence cut by the end of the section.
    std::vector<uint8_t> cut = bytes;
    cut[cut.size() - 2] = 0xE2;  // "rel\xE2" + NUL: the NUL is no continuation byte
    EXPECT_LOAD(cut, TIGRIS_ERR_BAD_SECTION);
}

// docs/format.md P4.5: model I/O lists inside the index pool, entries < num_tensors.
TEST(LoaderSections, ModelIo_ListOutsideIndexPool) {
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    put_u16(bytes, 36, 7);  // pool holds 7 elements; lists need 2 from 7
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
    put_u16(bytes, 36, 0xFFFF);
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, ModelIo_TooManyEntries) {
    std::vector<uint8_t> bytes = PlanBuilder::minimal_float(9).build();
    bytes[38] = 200;
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}

TEST(LoaderSections, ModelIo_TensorIndexOutOfRange) {
    PlanBuilder b = PlanBuilder::minimal_float(9);
    std::vector<uint8_t> bytes = b.build();
    put_u16(bytes, b.layout().index_elem(b.layout().model_io_off), 2);  // == num_tensors
    EXPECT_LOAD(bytes, TIGRIS_ERR_BAD_SECTION);
}
