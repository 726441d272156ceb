// The operator table (core/src/ops.def) walked row by row: it agrees with the
// TIGRIS_OP_* enum as written in tigris.h (read as text, so an opcode added
// to the header without a row fails here), and its rows keep the rules the
// generated code relies on.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "../../core/src/loader/op_checks.h"
#include "../../core/src/ops.h"
}

namespace {

struct Row {
    std::string name;
    int value;
    uint32_t classes;
    bool has_signature;
    std::string check;
    const char *ref;
    const char *s8;
    uint32_t attrs;
    uint32_t needs;
};

std::vector<Row> table_rows() {
    return {
#define KERNEL(fn) #fn
#define NO_KERNEL nullptr
#define ATTR(kind) (1u << TIGRIS_ATTR_##kind)
#define TIGRIS_OP_ROW(name, value, classes, in0, in1, in2, out, check, ref, s8, attrs, needs) \
    Row{#name, value, (uint32_t)(classes), std::string(#out) != "NONE", #check, ref, s8, \
        (uint32_t)(attrs), (uint32_t)(needs)},
#include "../../core/src/ops.def"
#undef KERNEL
#undef NO_KERNEL
#undef ATTR
    };
}

std::map<int, std::string> header_opcodes() {
    const auto path = std::filesystem::path(TIGRIS_SOURCE_DIR) / "core" / "include" / "tigris.h";
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::map<int, std::string> out;
    const std::regex re("\\bTIGRIS_OP_([A-Z0-9_]+) = ([0-9]+)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
        out[std::stoi((*it)[2])] = (*it)[1];
    return out;
}

TEST(OpTable, HasARowForEveryOpcodeOfTheHeader) {
    std::map<int, std::string> header = header_opcodes();
    ASSERT_EQ(header.count(TIGRIS_OP_UNKNOWN), 1u);
    header.erase(TIGRIS_OP_UNKNOWN);  // a marker, not an operator
    std::map<int, std::string> rows;
    for (const Row &r : table_rows()) EXPECT_TRUE(rows.emplace(r.value, r.name).second) << r.name;
    EXPECT_EQ(rows, header);
    EXPECT_EQ(rows.size(), (size_t)TIGRIS_OP_MAX_KNOWN);
}

TEST(OpTable, NamesComeFromTheRows) {
    for (const Row &r : table_rows()) {
        const char *name = tigris_op_type_name((uint32_t)r.value);
        ASSERT_NE(name, nullptr) << r.value;
        EXPECT_EQ(std::string(name), r.name);
    }
    EXPECT_EQ(tigris_op_type_name(0), nullptr);
    EXPECT_EQ(tigris_op_type_name(TIGRIS_OP_MAX_KNOWN + 1), nullptr);
    EXPECT_STREQ(tigris_op_type_name(TIGRIS_OP_UNKNOWN), "UNKNOWN");
    EXPECT_EQ(tigris_op_type_name(256), nullptr);
}

TEST(OpTable, DtypeNames) {
    const std::map<uint32_t, std::string> want = {
        {TIGRIS_DTYPE_FLOAT32, "float32"}, {TIGRIS_DTYPE_UINT8, "uint8"}, {TIGRIS_DTYPE_INT8, "int8"},
        {TIGRIS_DTYPE_INT16, "int16"},     {TIGRIS_DTYPE_INT32, "int32"}, {TIGRIS_DTYPE_INT64, "int64"},
        {TIGRIS_DTYPE_BOOL, "bool"}};
    for (uint32_t d = 0; d < 300; d++) {
        const char *n = tigris_dtype_name(d);
        if (want.count(d)) {
            ASSERT_NE(n, nullptr) << d;
            EXPECT_EQ(std::string(n), want.at(d));
            EXPECT_NE(tigris_dtype_size((uint8_t)d), 0u) << "a named dtype has a size";
        } else {
            EXPECT_EQ(n, nullptr) << d;
        }
    }
}

// The loader admits an opcode exactly when its row has a signature, and an
// admitted opcode has somewhere to run: a float route, or the executor's
// control flow. An int8 route always has its float twin (float sections).
TEST(OpTable, EveryAdmittedOpcodeRuns) {
    for (const Row &r : table_rows()) {
        SCOPED_TRACE(r.name);
        tg_signature_t sig;
        EXPECT_EQ(tg_signature((uint8_t)r.value, &sig) == 1, r.has_signature);
        if (!r.has_signature) {
            EXPECT_EQ(r.check, "refused");
            EXPECT_EQ(r.ref, nullptr);
            EXPECT_EQ(r.s8, nullptr);
            EXPECT_EQ(r.classes & ~(uint32_t)OC_NOFAM, 0u) << "a refused op takes part in no stage rule";
            continue;
        }
        EXPECT_NE(r.check, "refused");
        if (r.check == "control") {
            EXPECT_EQ(r.ref, nullptr);
            EXPECT_EQ(r.s8, nullptr);
        } else {
            EXPECT_NE(r.ref, nullptr);
        }
        if (r.s8) {
            EXPECT_NE(r.ref, nullptr);
            // A byte-level kernel serves both routes.
            if (std::strncmp(r.s8, "any_", 4) == 0) EXPECT_STREQ(r.s8, r.ref);
        }
    }
    tg_signature_t sig;
    EXPECT_EQ(tg_signature(0, &sig), 0);
    EXPECT_EQ(tg_signature(TIGRIS_OP_MAX_KNOWN + 1, &sig), 0);
}

// Class bits that the band rules combine must not contradict the family
// that checks the operator.
TEST(OpTable, ClassesFitTheFamilies) {
    for (const Row &r : table_rows()) {
        SCOPED_TRACE(r.name);
        EXPECT_EQ(tigris__op_class((uint8_t)r.value), r.classes);
        const int kinds = !!(r.classes & OC_UNARY) + !!(r.classes & OC_BINARY) + !!(r.classes & OC_SPATIAL);
        EXPECT_LE(kinds, 1) << "unary, binary and spatial exclude each other";
        if (r.classes & OC_UNARY) EXPECT_TRUE(r.check == "unary" || r.check == "nary");
        if (r.classes & OC_BINARY) EXPECT_TRUE(r.check == "binary" || r.check == "nary");
        if (r.classes & (OC_SPATIAL | OC_STRIPE)) EXPECT_TRUE(r.check == "conv" || r.check == "shape");
    }
    EXPECT_EQ(tigris__op_class(0), 0u);
    EXPECT_EQ(tigris__op_class(TIGRIS_OP_UNKNOWN), 0u);
}

// An operator can only need an attribute kind it may carry, and the kinds
// are those tigris.h assigns.
TEST(OpTable, NeededAttributesAreAllowed) {
    const uint32_t known = ((1u << (TIGRIS_ATTR_MAX_KNOWN + 1)) - 1u) & ~1u;
    for (const Row &r : table_rows()) {
        SCOPED_TRACE(r.name);
        EXPECT_EQ(r.needs & ~r.attrs, 0u);
        EXPECT_EQ(r.attrs & ~known, 0u);
    }
}

}  // namespace
