#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "errors.h"
#include "objects.h"

namespace py = pybind11;

namespace isoscope::python {

namespace {

std::shared_ptr<PyContext> contextOrDefault(std::shared_ptr<PyContext> context)
{
    if (context)
        return context;
    return py::module_::import("isoscope").attr("default_context")().cast<std::shared_ptr<PyContext>>();
}

// The engine type an array's dtype travels as: its own where the engine has
// it, else one that holds every value exactly where possible (int8 as
// int16), else float32, which scikit-image computes in too.
api::ScalarType engineType(const py::dtype& dtype)
{
    char kind = dtype.kind();
    size_t size = dtype.itemsize();
    if (kind == 'b' || (kind == 'u' && size == 1))
        return api::ScalarType::UInt8;
    if (kind == 'u' && size == 2)
        return api::ScalarType::UInt16;
    if (kind == 'i' && size <= 2)
        return api::ScalarType::Int16;
    if (kind == 'f' || kind == 'i' || kind == 'u')
        return api::ScalarType::Float32;
    throw py::type_error("volume: dtype " + std::string(py::str(py::handle(dtype))) +
                         " is not numeric; give an array of integers, floats or booleans");
}

py::dtype numpyType(api::ScalarType type)
{
    switch (type) {
    case api::ScalarType::UInt8: return py::dtype::of<uint8_t>();
    case api::ScalarType::UInt16: return py::dtype::of<uint16_t>();
    case api::ScalarType::Int16: return py::dtype::of<int16_t>();
    case api::ScalarType::Float32: return py::dtype::of<float>();
    }
    return py::dtype::of<float>();
}

std::array<double, 3> triple(const py::object& value, const char* name)
{
    py::sequence sequence = py::reinterpret_borrow<py::sequence>(value);
    if (!py::isinstance<py::sequence>(value) || py::len(sequence) != 3)
        throw py::value_error(std::string(name) + " must be three numbers, one per array axis");
    std::array<double, 3> result;
    for (int i = 0; i < 3; ++i)
        result[i] = sequence[i].cast<double>();
    return result;
}

} // namespace

std::shared_ptr<PyVolume> volumeFromNumpy(py::object object, const py::object& spacing, const py::object& origin,
                                         std::shared_ptr<PyContext> context)
{
    if (!py::isinstance<py::array>(object))
        throw py::type_error("volume must be a NumPy array, not " +
                             std::string(py::str(object.get_type().attr("__name__"))));
    py::array array = py::reinterpret_borrow<py::array>(object);
    if (array.ndim() != 3)
        throw py::value_error("volume must be a 3D array; got " + std::to_string(array.ndim()) + " dimensions");
    for (int axis = 0; axis < 3; ++axis)
        if (array.shape(axis) < 2)
            throw py::value_error("volume must be at least 2x2x2; axis " + std::to_string(axis) + " has " +
                                  std::to_string(array.shape(axis)) + " samples");
    api::ScalarType type = engineType(array.dtype());
    std::array<double, 3> spacings = triple(spacing, "spacing"), origins = triple(origin, "origin");
    for (int axis = 0; axis < 3; ++axis)
        if (!(spacings[axis] > 0.0) || !std::isfinite(spacings[axis]))
            throw py::value_error("spacing[" + std::to_string(axis) + "] must be a positive number");

    // Zero-copy where the array already is one the engine reads: C order (its
    // last axis is the engine's x) or Fortran order (its first), native.
    py::dtype wanted = numpyType(type);
    bool fortran = (array.flags() & py::array::f_style) && !(array.flags() & py::array::c_style);
    bool usable = array.dtype().is(wanted) || array.dtype().equal(wanted);
    usable = usable && (array.flags() & (py::array::c_style | py::array::f_style)) &&
             array.dtype().byteorder() != '>' && (array.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_);
    if (!usable) {
        py::module_ np = py::module_::import("numpy");
        array = np.attr(fortran ? "asfortranarray" : "ascontiguousarray")(array, wanted);
    }

    auto volume = std::make_shared<PyVolume>();
    volume->context = contextOrDefault(std::move(context));
    api::VolumeDesc desc;
    desc.type = type;
    for (int c = 0; c < 3; ++c) {
        int engineAxis = fortran ? c : 2 - c;
        volume->engineAxis[c] = engineAxis;
        desc.dims[engineAxis] = uint32_t(array.shape(c));
        desc.spacing[engineAxis] = spacings[c];
        desc.origin[engineAxis] = origins[c];
    }
    const void* samples = array.data();
    size_t bytes = size_t(array.nbytes());
    api::Result<api::Volume> made = [&] {
        py::gil_scoped_release release;
        std::lock_guard lock(volume->context->gpu);
        return api::Volume::fromMemory(*volume->context->context, desc, samples, bytes);
    }();
    volume->volume.emplace(unwrap(std::move(made)));
    return volume;
}

std::shared_ptr<PyVolume> volumeLoad(const std::string& path, std::shared_ptr<PyContext> context)
{
    auto volume = std::make_shared<PyVolume>();
    volume->context = contextOrDefault(std::move(context));
    api::Result<api::Volume> loaded = [&] {
        py::gil_scoped_release release;
        std::lock_guard lock(volume->context->gpu);
        return api::Volume::load(*volume->context->context, path);
    }();
    volume->volume.emplace(unwrap(std::move(loaded)));
    return volume;
}

void bindVolume(py::module_& m)
{
    py::class_<PyVolume, std::shared_ptr<PyVolume>>(m, "Volume", "A scalar volume on the GPU.")
        .def_static("from_numpy", &volumeFromNumpy, py::arg("array"), py::arg("spacing") = py::make_tuple(1.0, 1.0, 1.0),
                    py::arg("origin") = py::make_tuple(0.0, 0.0, 0.0), py::arg("context") = nullptr,
                    R"(Uploads a 3D NumPy array.

spacing and origin are per array axis (the world position of array[i, j, k]
is origin + (i, j, k) * spacing), and results come back in the array's axis
order. uint8, uint16, int16 and float32 arrays in C or Fortran order upload
without a host copy; bool is read as uint8, int8 as int16, every other
numeric type as float32 (exact for integers up to 2**24), and other layouts
(views with steps, non-native byte order) are copied first.
Raises TypeError (not an array, non-numeric dtype), ValueError (not 3D, an
axis under 2 samples, bad spacing, larger than the device's largest 3D
image) or MemoryError (beyond the device's memory budget).)")
        .def_static("load", &volumeLoad, py::arg("path"), py::arg("context") = nullptr,
                    R"(Loads a file (NRRD, MetaImage, NIfTI, VTK, TIFF, DICOM, raw with its size in the
name), a folder of DICOM or TIFF slices, or a synthetic field such as
"sphere:64". Results come back in x, y, z order. Raises OSError for a file
that is missing or malformed.)")
        .def_property_readonly("shape", [](const PyVolume& v) {
                api::VolumeDesc desc = v.volume->desc();
                return py::make_tuple(desc.dims[v.engineAxis[0]], desc.dims[v.engineAxis[1]], desc.dims[v.engineAxis[2]]);
            }, "Samples per axis, in the array's axis order (x, y, z for a file).")
        .def_property_readonly("dtype", [](const PyVolume& v) { return numpyType(v.volume->desc().type); },
                               "The type the samples are stored as on the GPU.")
        .def_property_readonly("spacing", [](const PyVolume& v) {
                api::VolumeDesc desc = v.volume->desc();
                return py::make_tuple(desc.spacing[v.engineAxis[0]], desc.spacing[v.engineAxis[1]], desc.spacing[v.engineAxis[2]]);
            }, "World units between samples, per axis.")
        .def_property_readonly("origin", [](const PyVolume& v) {
                api::VolumeDesc desc = v.volume->desc();
                return py::make_tuple(desc.origin[v.engineAxis[0]], desc.origin[v.engineAxis[1]], desc.origin[v.engineAxis[2]]);
            }, "The world position of the first sample, per axis.")
        .def_property_readonly("value_range", [](const PyVolume& v) {
                std::array<double, 2> range = v.volume->valueRange();
                return py::make_tuple(range[0], range[1]);
            }, "(min, max) of the finite samples.")
        .def_property_readonly("context", [](const PyVolume& v) { return v.context; }, "The Context it lives on.")
        .def("__repr__", [](const PyVolume& v) {
                api::VolumeDesc desc = v.volume->desc();
                return "<isoscope.Volume " + std::to_string(desc.dims[v.engineAxis[0]]) + "x" +
                       std::to_string(desc.dims[v.engineAxis[1]]) + "x" + std::to_string(desc.dims[v.engineAxis[2]]) +
                       " " + std::string(py::str(py::handle(numpyType(desc.type)))) + ">";
            });
}

} // namespace isoscope::python
