// log_writer.hpp - the request log of `tigris serve`: one line per request,
// written to a file descriptor in batches.
//
// Writing each line as it comes costs every call a write(2) and, under load,
// a wait for the lock that keeps lines whole: on a two-core virtual machine
// that was about 3 % of a 1 ms Run call's server CPU (docs/service.md). So
// lines go into a buffer, and a thread of its own writes the buffer out
// every `every` (or as soon as it passes `flush_bytes`), and at flush() and
// destruction: a line appears within `every` of its call, whole and in order.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace tigris::server {

class LogWriter {
public:
    explicit LogWriter(int fd, std::chrono::milliseconds every = std::chrono::milliseconds(50),
                       size_t flush_bytes = 64 * 1024);
    ~LogWriter();  // writes out what is buffered
    LogWriter(const LogWriter &) = delete;
    LogWriter &operator=(const LogWriter &) = delete;

    void line(const std::string &text);  // appends text and a newline
    void flush();                        // writes out now, before returning

private:
    void write_out(std::string &batch);
    void run();

    const int fd_;
    const std::chrono::milliseconds every_;
    const size_t flush_bytes_;
    std::mutex mu_;        // buffer_, stopping_
    std::mutex write_mu_;  // one batch at a time on the fd, in order
    std::condition_variable wake_;
    std::string buffer_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace tigris::server
