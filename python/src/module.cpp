// The `isoscope._isoscope` extension: the public API of libisoscope for
// Python. isoscope/__init__.py builds the user-facing package on it.
#include <pybind11/pybind11.h>

namespace isoscope::python {
void bindContext(pybind11::module_& m);
void bindVolume(pybind11::module_& m);
void bindExtract(pybind11::module_& m);
void bindRender(pybind11::module_& m);
void bindMeshTools(pybind11::module_& m);
} // namespace isoscope::python

PYBIND11_MODULE(_isoscope, m)
{
    m.doc() = "isoscope's engine (libisoscope) for Python; use the isoscope package.";
    isoscope::python::bindContext(m);
    isoscope::python::bindVolume(m);
    isoscope::python::bindExtract(m);
    isoscope::python::bindRender(m);
    isoscope::python::bindMeshTools(m);
}
