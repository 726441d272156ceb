// The viewer's static HTTP server: files from its root, 404 for the rest, a
// missing root refused up front.
#include <gtest/gtest.h>
#include <httplib.h>

#include <filesystem>
#include <fstream>

#include "tigris_server/server.hpp"

namespace {

namespace fs = std::filesystem;

TEST(HttpStatic, ServesTheRootsFilesAndNothingElse) {
    const fs::path root = fs::temp_directory_path() / ("tigris_http_" + std::to_string(::getpid()));
    fs::create_directories(root / "assets");
    std::ofstream(root / "index.html") << "<!doctype html><title>TiGrIS viewer</title>";
    std::ofstream(root / "assets" / "app.js") << "console.log('tigris');";
    std::vector<std::string> log;
    {
        tigris::server::HttpServer http(root.string(), "127.0.0.1", 0, [&log](const std::string &l) { log.push_back(l); });
        ASSERT_GT(http.port(), 0);
        httplib::Client cli("127.0.0.1", http.port());
        auto r = cli.Get("/");
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 200);
        EXPECT_NE(r->body.find("TiGrIS viewer"), std::string::npos);
        r = cli.Get("/assets/app.js");
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 200);
        EXPECT_EQ(r->body, "console.log('tigris');");
        r = cli.Get("/../etc/passwd");
        ASSERT_TRUE(r);
        EXPECT_NE(r->status, 200);
        r = cli.Get("/missing.html");
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 404);
        http.stop();
    }
    EXPECT_FALSE(log.empty());  // one line per request
    fs::remove_all(root);
    EXPECT_THROW(tigris::server::HttpServer(root.string(), "127.0.0.1", 0, nullptr), std::runtime_error);
}

}  // namespace
