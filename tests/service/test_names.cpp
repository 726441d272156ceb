// Names the host library gives core enum values, checked against the enums
// as written in core/include/tigris.h (read as text, so a renamed or added
// opcode or error makes this fail instead of silently drifting).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "tigris.h"
#include "tigris_host/names.hpp"

namespace {

std::string tigris_h_text() {
    const auto path = std::filesystem::path(TIGRIS_SOURCE_DIR) / "core" / "include" / "tigris.h";
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// "TIGRIS_<prefix><NAME> = <value>," entries of an enum in the header.
std::map<int, std::string> enum_entries(const std::string &text, const std::string &prefix) {
    std::map<int, std::string> out;
    const std::regex re("\\b" + prefix + "([A-Z0-9_]+) = (-?[0-9]+)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
        out[std::stoi((*it)[2])] = (*it)[1];
    return out;
}

TEST(HostNames, EveryOpcodeNamedAsInTheHeader) {
    const auto ops = enum_entries(tigris_h_text(), "TIGRIS_OP_");
    int named = 0;
    for (const auto &[value, name] : ops) {
        if (value < 1 || value > 255) continue;  // MAX_KNOWN is a #define, not an entry
        EXPECT_EQ(tigris::host::op_type_name(static_cast<uint8_t>(value)), name) << "opcode " << value;
        EXPECT_EQ(tigris::host::op_type_from_name(name), std::optional<uint8_t>(static_cast<uint8_t>(value)));
        ++named;
    }
    EXPECT_EQ(named, TIGRIS_OP_MAX_KNOWN + 1);  // 1..89 and UNKNOWN
}

TEST(HostNames, SpotChecksAndUnassignedOpcodes) {
    EXPECT_EQ(tigris::host::op_type_name(1), "CONV");
    EXPECT_EQ(tigris::host::op_type_name(2), "DEPTHWISE");
    EXPECT_EQ(tigris::host::op_type_name(89), "DETECTION_POSTPROCESS");
    EXPECT_EQ(tigris::host::op_type_name(0), "OP(0)");
    EXPECT_EQ(tigris::host::op_type_name(90), "OP(90)");
    EXPECT_EQ(tigris::host::op_type_name(255), "UNKNOWN");
    EXPECT_FALSE(tigris::host::op_type_from_name("conv").has_value());
}

TEST(HostNames, EveryErrorNamedAsInTheHeader) {
    const auto errs = enum_entries(tigris_h_text(), "TIGRIS_ERR_");
    ASSERT_EQ(errs.size(), 18u);
    for (const auto &[value, name] : errs) EXPECT_EQ(tigris::host::error_name(value), "TIGRIS_ERR_" + name);
    EXPECT_EQ(tigris::host::error_name(0), "TIGRIS_OK");
    EXPECT_EQ(tigris::host::error_name(-19), "TIGRIS_ERR(-19)");
}

TEST(HostNames, DtypesAndBandKinds) {
    EXPECT_EQ(tigris::host::dtype_name(1), "float32");
    EXPECT_EQ(tigris::host::dtype_name(2), "uint8");
    EXPECT_EQ(tigris::host::dtype_name(3), "int8");
    EXPECT_EQ(tigris::host::dtype_name(5), "int16");
    EXPECT_EQ(tigris::host::dtype_name(6), "int32");
    EXPECT_EQ(tigris::host::dtype_name(7), "int64");
    EXPECT_EQ(tigris::host::dtype_name(9), "bool");
    EXPECT_EQ(tigris::host::dtype_name(4), "dtype(4)");
    const auto kinds = enum_entries(tigris_h_text(), "TIGRIS_BAND_KIND_");
    ASSERT_EQ(kinds.size(), 8u);
    for (const auto &[value, name] : kinds) EXPECT_EQ(tigris::host::band_kind_name(static_cast<uint8_t>(value)), name);
    EXPECT_EQ(tigris::host::band_kind_name(9), "BAND(9)");
}

}  // namespace
