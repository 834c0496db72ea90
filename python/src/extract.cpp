#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "errors.h"
#include "objects.h"

namespace py = pybind11;

namespace isoscope::python {

api::Method parseMethod(const std::string& name)
{
    if (name == "block")
        return api::Method::Block;
    if (name == "scan")
        return api::Method::Scan;
    if (name == "histopyramid")
        return api::Method::HistoPyramid;
    if (name == "dual")
        return api::Method::Dual;
    throw py::value_error("method '" + name +
                          "' is not an isoscope method: choose 'block', 'scan', 'histopyramid' or 'dual'");
}

api::Isosurface& PyVolume::surface(api::Method method)
{
    auto found = surfaces.find(method);
    if (found == surfaces.end()) {
        api::Result<api::Isosurface> made = api::Isosurface::create(*context->context, *volume, {method});
        if (!made)
            throw made.error();
        found = surfaces.emplace(method, std::move(*made)).first;
    }
    return found->second;
}

bool PyVolume::mirrored() const
{
    int inversions = 0;
    for (int a = 0; a < 3; ++a)
        for (int b = a + 1; b < 3; ++b)
            inversions += engineAxis[a] > engineAxis[b];
    return inversions % 2 == 1;
}

namespace {

float isoOrMiddle(const PyVolume& volume, const py::object& iso)
{
    if (iso.is_none()) {
        std::array<double, 2> range = volume.volume->valueRange();
        return float(0.5 * (range[0] + range[1]));
    }
    double value = iso.cast<double>();
    if (!std::isfinite(value))
        throw py::value_error("iso must be a finite number; got " + std::string(py::str(iso)));
    return float(value);
}

// Runs one extraction without the GIL; an engine Error comes back as a Result.
api::Result<api::HostMesh> runExtraction(PyVolume& volume, api::Method method, float iso)
{
    py::gil_scoped_release release;
    std::lock_guard lock(volume.context->gpu);
    try {
        return volume.surface(method).extract(iso);
    } catch (const api::Error& error) {
        return error;
    }
}

// The mesh as NumPy arrays in the volume's axis order, faces (triangles,
// or dual's quads) counter-clockwise around the normals (which point toward
// lower values).
py::tuple toNumpy(const PyVolume& volume, const api::HostMesh& mesh)
{
    const size_t corners = mesh.faceSize;
    const size_t vertices = mesh.positions.size(), faces = mesh.indices.size() / corners;
    if (vertices > size_t(std::numeric_limits<int32_t>::max()))
        throw py::value_error("the mesh has " + std::to_string(vertices) + " vertices, more than int32 faces index");
    py::array_t<float> positions({vertices, size_t(3)}), normals({vertices, size_t(3)});
    py::array_t<int32_t> triangles({faces, corners});
    float* p = positions.mutable_data();
    float* n = normals.mutable_data();
    int32_t* t = triangles.mutable_data();
    std::array<int, 3> axis = volume.engineAxis;
    bool reverse = volume.mirrored();
    {
        py::gil_scoped_release release;
        for (size_t v = 0; v < vertices; ++v)
            for (int c = 0; c < 3; ++c) {
                p[3 * v + c] = mesh.positions[v][axis[c]];
                n[3 * v + c] = mesh.normals[v][axis[c]];
            }
        // Reversed: the first corner kept, the others in the opposite order.
        for (size_t f = 0; f < faces; ++f) {
            const uint32_t* in = &mesh.indices[corners * f];
            int32_t* out = &t[corners * f];
            out[0] = int32_t(in[0]);
            for (size_t c = 1; c < corners; ++c)
                out[c] = int32_t(in[reverse ? corners - c : c]);
        }
    }
    return py::make_tuple(positions, triangles, normals);
}

double sumMs(const std::vector<api::PassTime>& passes)
{
    double total = 0.0;
    for (const api::PassTime& pass : passes)
        total += pass.ms;
    return total;
}

py::tuple extract(PyVolume& volume, const py::object& iso, const std::string& method)
{
    api::Method parsed = parseMethod(method);
    float value = isoOrMiddle(volume, iso);
    api::HostMesh mesh = unwrap(runExtraction(volume, parsed, value));
    return toNumpy(volume, mesh);
}

py::dict lastPassTimes(PyVolume& volume, const std::string& method)
{
    py::dict result;
    auto found = volume.surfaces.find(parseMethod(method));
    if (found != volume.surfaces.end())
        for (const api::PassTime& pass : found->second.lastPassTimes())
            result[py::str(pass.pass)] = result.contains(pass.pass) ? result[py::str(pass.pass)].cast<double>() + pass.ms
                                                                     : pass.ms;
    return result;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

py::dict bench(PyVolume& volume, const py::object& iso, const std::string& method, int repeat, int warmup)
{
    if (repeat < 1)
        throw py::value_error("repeat must be at least 1; got " + std::to_string(repeat));
    if (warmup < 0)
        throw py::value_error("warmup must be 0 or more; got " + std::to_string(warmup));
    api::Method parsed = parseMethod(method);
    float value = isoOrMiddle(volume, iso);
    std::vector<double> wall, gpu;
    std::map<std::string, std::vector<double>> passes;
    size_t vertices = 0, faces = 0;
    for (int run = 0; run < warmup + repeat; ++run) {
        auto start = std::chrono::steady_clock::now();
        api::HostMesh mesh = unwrap(runExtraction(volume, parsed, value));
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (run < warmup)
            continue;
        std::vector<api::PassTime> times = volume.surfaces.at(parsed).lastPassTimes();
        wall.push_back(ms);
        gpu.push_back(sumMs(times));
        std::map<std::string, double> perPass; // passes of one name (one per slab) add up within a run
        for (const api::PassTime& pass : times)
            perPass[pass.pass] += pass.ms;
        for (const auto& [name, passMs] : perPass)
            passes[name].push_back(passMs);
        vertices = mesh.positions.size();
        faces = mesh.indices.size() / mesh.faceSize;
    }
    py::dict result, perPass;
    for (const auto& [name, times] : passes)
        perPass[py::str(name)] = median(times);
    api::DeviceInfo info = volume.context->context->info();
    result["method"] = method;
    result["device"] = info.name;
    result["subgroup_size"] = info.subgroupSize;
    result["iso"] = value;
    result["vertices"] = vertices;
    result["faces"] = faces;
    result["repeat"] = repeat;
    result["warmup"] = warmup;
    result["wall_ms"] = median(wall);       // submit to read-back, per extraction
    result["gpu_ms"] = median(gpu);         // the extraction's passes by timestamps
    result["gpu_ms_per_pass"] = perPass;
    return result;
}

} // namespace

void bindExtract(py::module_& m)
{
    m.def("extract", &extract, py::arg("volume"), py::arg("iso") = py::none(), py::arg("method") = "block",
          R"(Extracts the isosurface `iso` (default: the middle of the value range) on the GPU.

Returns (verts, faces, normals): verts float32 (V, 3) in world units
(origin + index * spacing) in the volume's axis order; faces int32 (F, 3),
one vertex per crossed grid edge, counter-clockwise around the normals;
normals float32 (V, 3), unit length, pointing toward lower values (out of
the region >= iso). method: 'block', 'scan' or 'histopyramid' (one mesh,
three algorithms), or 'dual' (Dual Marching Cubes: faces int32 (F, 4),
quads, one vertex per Marching Cubes polygon of a cell, on the trilinear
surface). The GIL is released while the GPU works.)");
    m.def("last_pass_times", &lastPassTimes, py::arg("volume"), py::arg("method") = "block",
          "GPU milliseconds per pass of the volume's last extraction by `method` ({} before one, or without "
          "timestamps).");
    m.def("bench", &bench, py::arg("volume"), py::arg("iso") = py::none(), py::arg("method") = "block",
          py::arg("repeat") = 5, py::arg("warmup") = 1,
          R"(Times `repeat` extractions after `warmup` untimed ones and returns the stats dict:
method, device, subgroup_size, iso, vertices, faces, repeat, warmup, wall_ms
(median, submission to read-back), gpu_ms (median of the passes' GPU time)
and gpu_ms_per_pass (medians).)");
}

} // namespace isoscope::python
