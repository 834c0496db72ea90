#pragma once
// Errors of the engine's public API.
//
// Every engine function that can fail throws isoscope::Error (and nothing
// else, apart from std::bad_alloc). The message says what failed, with the
// numbers, and what to do about it; it is written for the user, so the CLI
// prints it as it is.
#include <stdexcept>
#include <string>

namespace isoscope {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[noreturn]] inline void fail(const std::string& message) { throw Error(message); }

} // namespace isoscope
