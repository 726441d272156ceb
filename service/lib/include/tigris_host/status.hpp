// status.hpp - the outcome of a host-library call, in terms a user can act on.
#pragma once

#include <string>

namespace tigris::host {

struct Status {
    enum class Kind {
        Ok,
        Refused,  // the core refused the plan: code/name say why
        Io,       // the file could not be read
    };
    Kind kind = Kind::Ok;
    int code = 0;          // tigris_error_t for Refused, errno for Io
    std::string name;      // e.g. "TIGRIS_ERR_BAD_VERSION"
    std::string message;   // tigris_error_str() text, or what failed on disk

    bool ok() const { return kind == Kind::Ok; }
    static Status success() { return Status{Kind::Ok, 0, "TIGRIS_OK", "ok"}; }
};

}  // namespace tigris::host
