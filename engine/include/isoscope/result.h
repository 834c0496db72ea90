#pragma once
// How every isoscope API call reports failure: a Result<T> holds the value
// or an Error (a code and a message that says what failed and what to do).
// No API call throws; std::bad_alloc is the one exception that may pass.
//
//   isoscope::api::Result<isoscope::api::Volume> volume = isoscope::api::Volume::load(context, "head.nrrd");
//   if (!volume) { std::fprintf(stderr, "%s\n", volume.error().message.c_str()); return 1; }
//   volume->desc();
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <variant>

namespace isoscope::api {

enum class ErrorCode {
    InvalidArgument,   // a parameter out of range or inconsistent (the message names it)
    InvalidFile,       // a file missing, unreadable or malformed (the message names it)
    DeviceUnsupported, // the Vulkan device lacks something isoscope needs
    OutOfMemory,       // device or host memory ran out
    VulkanError,       // a Vulkan call failed (the message names it and its VkResult)
};

struct Error {
    ErrorCode code = ErrorCode::InvalidArgument;
    std::string message;
};

template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : state_(std::move(value)) {}
    Result(Error error) : state_(std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return std::get<1>(state_); } // only when !ok()

    // Only when ok(): otherwise prints the error and aborts (a bug in the caller).
    T& value() & { check(); return std::get<0>(state_); }
    const T& value() const& { check(); return std::get<0>(state_); }
    T&& value() && { check(); return std::get<0>(std::move(state_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

private:
    void check() const
    {
        if (!ok()) {
            std::fprintf(stderr, "isoscope: value() of a failed Result: %s\n", error().message.c_str());
            std::abort();
        }
    }
    std::variant<T, Error> state_;
};

// A call that returns nothing but may fail.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error) : error_(std::move(error)), failed_(true) {}
    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return error_; } // only when !ok()

private:
    Error error_;
    bool failed_ = false;
};

} // namespace isoscope::api
