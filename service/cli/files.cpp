// files.cpp - see files.hpp.
#include "files.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "tigris_import/support.hpp"

namespace tigris::cli {

bool read_file(const std::string &path, std::vector<uint8_t> &out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    return true;
}

bool write_atomically(const std::string &path, const std::vector<uint8_t> &bytes) {
    const std::string tmp = path + ".partial";
    std::error_code ec;
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        if (!f.good()) {
            std::filesystem::remove(tmp, ec);
            return false;
        }
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) std::filesystem::remove(tmp, ec);
    return !ec;
}

void report_refusal(const import::ImportError &e, bool json) {
    const char *kind = import::refusal_name(e.refusal.kind);
    if (json) std::cout << nlohmann::json{{"refused", kind}, {"reason", e.refusal.message}}.dump(2) << '\n';
    std::cerr << "error: " << kind << ": " << e.refusal.message << '\n';
}

}  // namespace tigris::cli
