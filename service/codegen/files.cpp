// files.cpp - the harness name (it prefixes C symbols, macros and file
// names) and writing the generated files.
#include <fstream>
#include <system_error>

#include "codegen_internal.hpp"

namespace tigris::codegen {

namespace {

// C11 and C23 keywords: a name equal to one cannot prefix nothing, and
// `int8_t` style clashes are caught by the reserved-suffix rule below.
const char *const kKeywords[] = {
    "auto",     "break",    "case",     "char",       "const",         "continue",     "default",
    "do",       "double",   "else",     "enum",       "extern",        "float",        "for",
    "goto",     "if",       "inline",   "int",        "long",          "register",     "restrict",
    "return",   "short",    "signed",   "sizeof",     "static",        "struct",       "switch",
    "typedef",  "union",    "unsigned", "void",       "volatile",      "while",        "_Alignas",
    "_Alignof", "_Atomic",  "_Bool",    "_Complex",   "_Generic",      "_Imaginary",   "_Noreturn",
    "_Static_assert",       "_Thread_local",          "alignas",       "alignof",      "bool",
    "constexpr", "false",   "nullptr",  "static_assert", "thread_local", "true",       "typeof",
    "typeof_unqual",
};

constexpr size_t kMaxName = 40;  // every derived symbol stays within 63 significant characters

}  // namespace

std::optional<std::string> check_name(const std::string &name) {
    const std::string q = "--name \"" + name + "\"";
    if (name.empty()) return q + " is empty; give a C identifier such as model";
    if (name.size() > kMaxName) return q + " is longer than " + std::to_string(kMaxName) + " characters";
    const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    if (!alpha(name[0])) return q + " is not a C identifier: it must start with a letter or '_'";
    for (char c : name)
        if (!alpha(c) && !digit(c))
            return q + " is not a C identifier: only letters, digits and '_' are allowed";
    if (name[0] == '_') return q + " starts with '_'; such names are reserved to the C implementation";
    for (const char *k : kKeywords)
        if (name == k) return q + " is a C keyword";
    std::string lower;
    for (char c : name) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (lower.rfind("tigris", 0) == 0)
        return q + " starts with \"tigris\", the runtime's own prefix; its symbols would clash";
    if (lower.size() >= 2 && lower.compare(lower.size() - 2, 2, "_t") == 0)
        return q + " ends in \"_t\", a suffix POSIX reserves for types";
    return std::nullopt;
}

std::optional<std::string> write_files(const std::filesystem::path &dir, const std::vector<GeneratedFile> &files) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return "cannot create the output directory " + dir.string() + ": " + ec.message();
    if (!std::filesystem::is_directory(dir, ec)) return "the output path " + dir.string() + " is not a directory";
    for (const GeneratedFile &f : files) {
        const std::filesystem::path p = dir / f.name;
        std::ofstream out(p, std::ios::binary | std::ios::trunc);
        if (!out) return "cannot write " + p.string() + ": the directory is not writable";
        out.write(f.text.data(), static_cast<std::streamsize>(f.text.size()));
        out.close();
        if (!out) return "cannot write " + p.string();
    }
    return std::nullopt;
}

}  // namespace tigris::codegen
