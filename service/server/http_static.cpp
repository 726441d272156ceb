// http_static.cpp - the viewer's static files over HTTP (cpp-httplib), on a
// thread of its own so `tigris serve` can run it beside the gRPC server.
#include <httplib.h>

#include <filesystem>
#include <stdexcept>
#include <thread>

#include "tigris_server/server.hpp"

namespace tigris::server {

struct HttpServer::Impl {
    httplib::Server http;
    std::thread thread;
    int port = 0;
};

HttpServer::HttpServer(const std::string &root, const std::string &host, int port, LogFn log)
    : impl_(std::make_unique<Impl>()) {
    if (!std::filesystem::is_directory(root))
        throw std::runtime_error("the viewer directory " + root + " does not exist (build the wasm preset first)");
    if (!impl_->http.set_mount_point("/", root)) throw std::runtime_error("cannot serve " + root);
    if (log)
        impl_->http.set_logger([log](const httplib::Request &req, const httplib::Response &res) {
            log("http " + req.method + " " + req.path + " status=" + std::to_string(res.status));
        });
    impl_->port = port == 0 ? impl_->http.bind_to_any_port(host) : (impl_->http.bind_to_port(host, port) ? port : -1);
    if (impl_->port <= 0) throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(port));
    impl_->thread = std::thread([this] { impl_->http.listen_after_bind(); });
}

HttpServer::~HttpServer() { stop(); }

int HttpServer::port() const { return impl_->port; }

void HttpServer::stop() {
    if (!impl_) return;
    impl_->http.stop();
    if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace tigris::server
