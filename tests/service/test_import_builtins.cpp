// `tigris import --list-builtins`: every TFLite builtin once, in code order,
// and docs/import.md carries exactly the table the tool prints.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

#include "cli_process.h"

namespace {
using tigris_test::CliResult;
using tigris_test::run_cli;

std::string between(const std::string &text, const std::string &from, const std::string &to) {
    const size_t a = text.find(from);
    if (a == std::string::npos) return "";
    const size_t b = text.find(to, a);
    if (b == std::string::npos) return "";
    return text.substr(a + from.size() + 1, b - a - from.size() - 1);  // +1: the newline after the marker
}

TEST(ImportBuiltins, EveryBuiltinOnceLoweredOrRefusedWithAReason) {
    const CliResult r = run_cli({"import", "--list-builtins"});
    ASSERT_EQ(r.code, 0) << r.err;
    std::istringstream in(r.out);
    std::string line;
    std::set<int> codes;
    int last = -1, lowered = 0, refused = 0;
    while (std::getline(in, line)) {
        std::istringstream f(line);
        std::string code, name, op, note;
        std::getline(f, code, '\t');
        std::getline(f, name, '\t');
        std::getline(f, op, '\t');
        std::getline(f, note);
        const int c = std::stoi(code);
        EXPECT_GT(c, last) << line;
        last = c;
        EXPECT_TRUE(codes.insert(c).second) << line;
        EXPECT_FALSE(name.empty()) << line;
        if (op == "refused") {
            ++refused;
            EXPECT_NE(note.find("refused:"), std::string::npos) << "a refusal without its reason: " << line;
        } else {
            ++lowered;
        }
    }
    EXPECT_GE(codes.size(), 200u);
    EXPECT_GE(lowered, 50);
    EXPECT_GT(refused, 0);
    // Spot checks of the mapping.
    EXPECT_NE(r.out.find("3\tCONV_2D\tCONV\t"), std::string::npos);
    EXPECT_NE(r.out.find("40\tMEAN\tREDUCE_MEAN\t"), std::string::npos);
    EXPECT_NE(r.out.find("39\tTRANSPOSE\tTRANSPOSE\t"), std::string::npos);
    EXPECT_NE(r.out.find("67\tTRANSPOSE_CONV\tCONV_TRANSPOSE\t"), std::string::npos);
    EXPECT_NE(r.out.find("81\tREDUCE_PROD\trefused\t"), std::string::npos);
}

TEST(ImportBuiltins, DocsTableIsTheToolsTable) {
    const CliResult r = run_cli({"import", "--list-builtins", "--markdown"});
    ASSERT_EQ(r.code, 0) << r.err;
    std::ifstream f(std::string(TIGRIS_SOURCE_DIR) + "/docs/import.md");
    ASSERT_TRUE(f) << "docs/import.md not found";
    const std::string doc{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    const std::string table = between(doc, "<!-- builtin table: tigris import --list-builtins --markdown -->",
                                      "<!-- end of builtin table -->");
    EXPECT_EQ(table, r.out) << "docs/import.md is out of date: replace its table with the output of "
                               "`tigris import --list-builtins --markdown`";
}

TEST(ImportBuiltins, ImportWithoutAModelIsAUsageError) {
    const CliResult r = run_cli({"import"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("needs MODEL and -o PLAN"), std::string::npos) << r.err;
    EXPECT_EQ(run_cli({"import", "x.tflite"}).code, 1);
}

}  // namespace
