// The request log's batching writer: lines arrive whole, in order, within
// the batch interval, at once on flush(), and none is lost at the end.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <cstdio>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tigris_server/log_writer.hpp"

namespace {

using namespace std::chrono_literals;
using tigris::server::LogWriter;

// What can be read from fd now (non-blocking).
std::string drain(int fd) {
    std::string out;
    char buf[4096];
    for (;;) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0) return out;
        out.append(buf, (size_t)n);
    }
}

struct Pipe {
    int fd[2] = {-1, -1};
    Pipe() {
        EXPECT_EQ(pipe2(fd, O_NONBLOCK), 0);
        fcntl(fd[0], F_SETPIPE_SZ, 1 << 20);  // room for every line of the test
    }
    ~Pipe() {
        close(fd[0]);
        close(fd[1]);
    }
};

TEST(LogWriter, LinesAppearInOrderWithinTheIntervalAndAtOnceOnFlush) {
    Pipe p;
    LogWriter w(p.fd[1], 20ms);
    w.line("one");
    w.line("two");
    EXPECT_EQ(drain(p.fd[0]), "");  // batched, not written per line
    std::string got;
    for (int i = 0; i < 200 && got.size() < 8; ++i) {
        std::this_thread::sleep_for(5ms);
        got += drain(p.fd[0]);
    }
    EXPECT_EQ(got, "one\ntwo\n");
    w.line("three");
    w.flush();
    EXPECT_EQ(drain(p.fd[0]), "three\n");
}

TEST(LogWriter, LinesFromManyThreadsStayWholeAndNoneIsLostAtTheEnd) {
    Pipe p;
    {
        LogWriter w(p.fd[1], 1000ms, 256);  // small batches: written while lines still come
        std::vector<std::thread> ts;
        for (int t = 0; t < 4; ++t)
            ts.emplace_back([&w, t] {
                for (int i = 0; i < 500; ++i) w.line("thread " + std::to_string(t) + " line " + std::to_string(i));
            });
        for (auto &t : ts) t.join();
    }  // the destructor writes what is left
    const std::string all = drain(p.fd[0]);
    std::vector<int> next(4, 0);
    size_t at = 0, lines = 0;
    while (at < all.size()) {
        const size_t eol = all.find('\n', at);
        ASSERT_NE(eol, std::string::npos);
        int t = -1, i = -1;
        ASSERT_EQ(std::sscanf(all.substr(at, eol - at).c_str(), "thread %d line %d", &t, &i), 2);
        ASSERT_TRUE(t >= 0 && t < 4);
        EXPECT_EQ(i, next[t]++);  // each thread's lines in its order
        at = eol + 1;
        ++lines;
    }
    EXPECT_EQ(lines, 2000u);
}

}  // namespace
