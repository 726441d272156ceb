// The fleet's child-process runner (service/lib/emu_process.cpp): "started"
// and its callback mean the program is executing, so a test or a progress
// stream that sees it can count on the process being there; a program that
// cannot be executed is reported as such, not as an exit code.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "emu_process.hpp"

namespace {

namespace fs = std::filesystem;
using tigris::host::emu::run_process;

struct TempDir {
    fs::path path;
    TempDir() {
        char tmpl[] = "/tmp/tigris-emu-process-XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~TempDir() { fs::remove_all(path); }
};

auto later() { return std::chrono::steady_clock::now() + std::chrono::seconds(10); }

TEST(EmuProcess, StartedIsCalledOnceTheProgramRuns) {
    TempDir d;
    int calls = 0;
    auto r = run_process({"/bin/sh", "-c", "echo ready"}, d.path.string(), (d.path / "out").string(),
                         (d.path / "err").string(), later(), nullptr, 1 << 20, [&] { ++calls; });
    EXPECT_TRUE(r.started);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.out, "ready\n");
    EXPECT_TRUE(r.error.empty()) << r.error;
}

TEST(EmuProcess, AProgramThatCannotBeExecutedIsReportedNotStarted) {
    TempDir d;
    const fs::path bogus = d.path / "not-a-program";
    std::ofstream(bogus) << "\x7f" << "ELF garbage";  // executable bit, no valid format
    chmod(bogus.c_str(), 0700);
    int calls = 0;
    auto r = run_process({bogus.string()}, d.path.string(), (d.path / "out").string(), (d.path / "err").string(),
                         later(), nullptr, 1 << 20, [&] { ++calls; });
    EXPECT_FALSE(r.started);
    EXPECT_EQ(calls, 0);
    EXPECT_NE(r.error.find("could not execute " + bogus.string()), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("format"), std::string::npos) << r.error;  // ENOEXEC: "Exec format error"
}

TEST(EmuProcess, AMissingWorkingDirectoryIsReportedNotStarted) {
    TempDir d;
    auto r = run_process({"/bin/true"}, (d.path / "gone").string(), (d.path / "out").string(),
                         (d.path / "err").string(), later(), nullptr, 1 << 20);
    EXPECT_FALSE(r.started);
    EXPECT_NE(r.error.find("cannot enter " + (d.path / "gone").string() + ": No such file"), std::string::npos)
        << r.error;
}

}  // namespace
