// log_writer.cpp - see tigris_server/log_writer.hpp.
#include "tigris_server/log_writer.hpp"

#include <unistd.h>

#include <cerrno>

namespace tigris::server {

LogWriter::LogWriter(int fd, std::chrono::milliseconds every, size_t flush_bytes)
    : fd_(fd), every_(every), flush_bytes_(flush_bytes), thread_([this] { run(); }) {}

LogWriter::~LogWriter() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
    flush();
}

void LogWriter::line(const std::string &text) {
    bool full;
    {
        std::lock_guard<std::mutex> lock(mu_);
        buffer_ += text;
        buffer_ += '\n';
        full = buffer_.size() >= flush_bytes_;
    }
    if (full) wake_.notify_one();
}

void LogWriter::flush() {
    // write_mu_ first: a batch the thread has taken but not yet written goes
    // out before this one.
    std::lock_guard<std::mutex> order(write_mu_);
    std::string batch;
    {
        std::lock_guard<std::mutex> lock(mu_);
        batch.swap(buffer_);
    }
    write_out(batch);
}

void LogWriter::write_out(std::string &batch) {
    size_t at = 0;
    while (at < batch.size()) {
        const ssize_t n = ::write(fd_, batch.data() + at, batch.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // nowhere to log to: drop the batch rather than stall calls
        at += (size_t)n;
    }
    batch.clear();
}

void LogWriter::run() {
    std::string batch;  // swapped with buffer_, so both keep their capacity
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mu_);
            wake_.wait_for(lock, every_, [this] { return stopping_ || buffer_.size() >= flush_bytes_; });
            if (stopping_) return;  // the destructor flushes
            if (buffer_.empty()) continue;
        }
        std::lock_guard<std::mutex> order(write_mu_);
        {
            std::lock_guard<std::mutex> lock(mu_);
            batch.swap(buffer_);
        }
        write_out(batch);
    }
}

}  // namespace tigris::server
