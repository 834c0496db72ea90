#include "errors.h"

namespace isoscope::python {

void raise(const api::Error& error)
{
    PyObject* type = PyExc_RuntimeError; // DeviceUnsupported, VulkanError
    switch (error.code) {
    case api::ErrorCode::InvalidArgument: type = PyExc_ValueError; break;
    case api::ErrorCode::InvalidFile: type = PyExc_OSError; break;
    case api::ErrorCode::OutOfMemory: type = PyExc_MemoryError; break;
    default: break;
    }
    PyErr_SetString(type, error.message.c_str());
    throw pybind11::error_already_set();
}

} // namespace isoscope::python
