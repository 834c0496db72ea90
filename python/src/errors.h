#pragma once
// The engine's errors as Python exceptions carrying its message: the type by
// the error's code (ValueError, OSError, MemoryError, RuntimeError).
#include <utility>

#include <pybind11/pybind11.h>

#include <isoscope/result.h>

namespace isoscope::python {

[[noreturn]] void raise(const api::Error& error);

template <typename T>
T unwrap(api::Result<T>&& result)
{
    if (!result)
        raise(result.error());
    return std::move(result).value();
}

inline void check(const api::Status& status)
{
    if (!status)
        raise(status.error());
}

} // namespace isoscope::python
