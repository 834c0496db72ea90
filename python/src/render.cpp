#include <cstring>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "errors.h"
#include "objects.h"

namespace py = pybind11;

namespace isoscope::python {

namespace {

std::array<float, 3> vec3(const py::object& value, const char* name)
{
    py::sequence s = py::reinterpret_borrow<py::sequence>(value);
    if (!py::isinstance<py::sequence>(value) || py::len(s) != 3)
        throw py::value_error(std::string("camera['") + name + "'] must be three numbers (x, y, z)");
    return {s[0].cast<float>(), s[1].cast<float>(), s[2].cast<float>()};
}

// None: the whole volume from azimuth 30°, elevation 20°; (azimuth,
// elevation) in degrees; or a dict with eye, target and optionally fov_y and
// orthographic (world units, x y z).
api::Camera camera(const PyVolume& volume, const py::object& given, float aspect)
{
    if (given.is_none())
        return api::frameVolume(*volume.volume, aspect);
    if (py::isinstance<py::dict>(given)) {
        py::dict d = given;
        if (!d.contains("eye") || !d.contains("target"))
            throw py::value_error("camera as a dict needs 'eye' and 'target' (x, y, z world positions)");
        api::Camera result;
        result.eye = vec3(d["eye"], "eye");
        result.target = vec3(d["target"], "target");
        if (d.contains("fov_y"))
            result.fovYDeg = d["fov_y"].cast<float>();
        if (d.contains("orthographic"))
            result.orthographic = d["orthographic"].cast<bool>();
        api::Camera framed = api::frameVolume(*volume.volume, aspect);
        result.nearPlane = framed.nearPlane;
        result.farPlane = framed.farPlane;
        return result;
    }
    if (py::isinstance<py::sequence>(given) && py::len(given) == 2) {
        py::sequence s = given;
        return api::frameVolume(*volume.volume, aspect, s[0].cast<float>(), s[1].cast<float>());
    }
    throw py::value_error("camera must be None, (azimuth, elevation) in degrees, or a dict with 'eye' and 'target'");
}

py::array_t<uint8_t> render(PyVolume& volume, const py::object& iso, const std::string& mode, const py::object& cameraArg,
                            std::pair<uint32_t, uint32_t> size, const std::string& method,
                            const std::string& transferFunction)
{
    auto [width, height] = size;
    if (width == 0 || height == 0 || width > 16384 || height > 16384)
        throw py::value_error("size must be (width, height), each 1 to 16384; got (" + std::to_string(width) + ", " +
                              std::to_string(height) + ")");
    if (mode != "mesh" && mode != "raycast" && mode != "dvr")
        throw py::value_error("mode '" + mode + "' is not a render mode: choose 'mesh', 'raycast' or 'dvr'");
    api::Method parsed = parseMethod(method);
    std::array<double, 2> range = volume.volume->valueRange();
    float value = iso.is_none() ? float(0.5 * (range[0] + range[1])) : iso.cast<float>();
    api::Camera view = camera(volume, cameraArg, float(width) / float(height));

    api::Result<api::Image> image = [&]() -> api::Result<api::Image> {
        py::gil_scoped_release release;
        std::lock_guard lock(volume.context->gpu);
        api::Context& context = *volume.context->context;
        api::Result<api::Renderer> renderer = api::Renderer::create(context, {.extent = {width, height}, .clear = true});
        if (!renderer)
            return renderer.error();
        std::optional<api::IsoRaycast> ray;
        std::optional<api::VolumeRendering> dvr;
        if (mode == "mesh") {
            try {
                api::Isosurface& surface = volume.surface(parsed);
                if (api::Status set = surface.setIsovalue(value); !set)
                    return set.error();
                if (api::Status added = renderer->addSurface(surface); !added)
                    return added.error();
            } catch (const api::Error& error) {
                return error;
            }
        } else if (mode == "raycast") {
            api::Result<api::IsoRaycast> made = api::IsoRaycast::create(context, *volume.volume);
            if (!made)
                return made.error();
            ray.emplace(std::move(*made));
            if (api::Status set = ray->setIsovalue(value); !set)
                return set.error();
            if (api::Status added = renderer->addRaycast(*ray); !added)
                return added.error();
        } else {
            api::Result<api::VolumeRendering> made = api::VolumeRendering::create(context, *volume.volume);
            if (!made)
                return made.error();
            dvr.emplace(std::move(*made));
            if (api::Status set = dvr->setTransferFunction(transferFunction); !set)
                return set.error();
            if (api::Status added = renderer->addVolumeRendering(*dvr); !added)
                return added.error();
        }
        if (api::Status set = renderer->setCamera(view); !set)
            return set.error();
        return renderer->renderImage({width, height});
    }();
    api::Image pixels = unwrap(std::move(image));
    py::array_t<uint8_t> result({size_t(pixels.height), size_t(pixels.width), size_t(4)});
    std::memcpy(result.mutable_data(), pixels.rgba.data(), pixels.rgba.size());
    return result;
}

} // namespace

void bindRender(py::module_& m)
{
    m.def("render", &render, py::arg("volume"), py::arg("iso") = py::none(), py::arg("mode") = "mesh",
          py::arg("camera") = py::none(), py::arg("size") = std::pair<uint32_t, uint32_t>{512, 512},
          py::arg("method") = "block", py::arg("transfer_function") = "grayscale",
          R"(Renders the volume headless and returns an RGBA uint8 array (height, width, 4), row 0 at the top.

mode: 'mesh' (the isosurface extracted by `method` and rasterized),
'raycast' (the isosurface raycast) or 'dvr' (direct volume rendering through
`transfer_function`: a preset name, a ParaView .json or a text file).
iso: default the middle of the value range (not used by 'dvr').
camera: None (the whole volume), (azimuth, elevation) in degrees, or a dict
with 'eye' and 'target' (world x, y, z) and optionally 'fov_y' (degrees) and
'orthographic'. World z is up. size: (width, height).)");
}

} // namespace isoscope::python
