// The parts of scikit-image's marching_cubes output the engine does not make:
// its per-vertex `values` and its removal of degenerate triangles, both as
// skimage/measure/_marching_cubes_lewiner_cy.pyx (0.19) computes them.
#include <algorithm>
#include <cmath>
#include <cstring>

#include <pybind11/numpy.h>

namespace py = pybind11;

namespace isoscope::python {

namespace {

using Verts = py::array_t<float, py::array::c_style | py::array::forcecast>;
using Faces = py::array_t<int32_t, py::array::c_style | py::array::forcecast>;

// Reads any numeric 3D array at an index through its strides.
struct Sampler {
    const char* data;
    std::array<py::ssize_t, 3> strides, shape;
    char kind;
    size_t size;

    double at(py::ssize_t i, py::ssize_t j, py::ssize_t k) const
    {
        const char* p = data + i * strides[0] + j * strides[1] + k * strides[2];
        switch (kind) {
        case 'f': return size == 4 ? double(*reinterpret_cast<const float*>(p)) : *reinterpret_cast<const double*>(p);
        case 'u':
            return size == 1 ? double(*reinterpret_cast<const uint8_t*>(p)) : double(*reinterpret_cast<const uint16_t*>(p));
        default: return double(*reinterpret_cast<const int16_t*>(p));
        }
    }
};

// Where a vertex coordinate allows the cell's lower corner to be: an edge's
// vertex lies in [c, c + 1] of each cell around that edge.
std::pair<py::ssize_t, py::ssize_t> cellRange(float x)
{
    double r = std::round(double(x));
    if (std::abs(double(x) - r) < 1e-4) // on a grid plane: the cell on either side
        return {py::ssize_t(r) - 1, py::ssize_t(r)};
    py::ssize_t f = py::ssize_t(std::floor(double(x)));
    return {f, f};
}

// skimage's `values`: per vertex, the largest over the triangles that use it
// of their cell's spread around the isovalue (max(0, max v - iso) -
// min(0, min v - iso) over the cell's 8 corners). A triangle's cell is the
// one all three of its vertices bound; in the rare triangle lying in a cell
// face the lower cell is taken.
py::array_t<float> vertexValues(py::array samples, Verts verts, Faces faces, double iso)
{
    if (samples.ndim() != 3 || verts.ndim() != 2 || verts.shape(1) != 3 || faces.ndim() != 2 || faces.shape(1) != 3)
        throw py::value_error("_vertex_values: expects a 3D array, (V, 3) vertices and (F, 3) faces");
    char kind = samples.dtype().kind();
    size_t size = samples.dtype().itemsize();
    bool known = (kind == 'f' && (size == 4 || size == 8)) || (kind == 'u' && size <= 2) || (kind == 'i' && size == 2);
    if (!known)
        throw py::type_error("_vertex_values: samples must be uint8, uint16, int16, float32 or float64");
    Sampler sampler{static_cast<const char*>(samples.data()),
                    {samples.strides(0), samples.strides(1), samples.strides(2)},
                    {samples.shape(0), samples.shape(1), samples.shape(2)}, kind, size};
    const py::ssize_t vertexCount = verts.shape(0), faceCount = faces.shape(0);
    py::array_t<float> values(vertexCount);
    float* out = values.mutable_data();
    const float* v = verts.data();
    const int32_t* f = faces.data();
    {
        py::gil_scoped_release release;
        std::fill(out, out + vertexCount, 0.0f);
        for (py::ssize_t t = 0; t < faceCount; ++t) {
            std::array<py::ssize_t, 3> cell;
            for (int axis = 0; axis < 3; ++axis) {
                py::ssize_t lo = PY_SSIZE_T_MIN, hi = PY_SSIZE_T_MAX;
                for (int corner = 0; corner < 3; ++corner) {
                    int32_t index = f[3 * t + corner];
                    if (index < 0 || index >= vertexCount)
                        continue;
                    auto [a, b] = cellRange(v[3 * index + axis]);
                    lo = std::max(lo, a);
                    hi = std::min(hi, b);
                }
                cell[axis] = std::clamp<py::ssize_t>(lo, 0, sampler.shape[axis] - 2);
            }
            double vmax = 0.0, vmin = 0.0;
            for (int corner = 0; corner < 8; ++corner) {
                double s = sampler.at(cell[0] + (corner & 1), cell[1] + ((corner >> 1) & 1), cell[2] + (corner >> 2)) - iso;
                vmax = std::max(vmax, s);
                vmin = std::min(vmin, s);
            }
            float spread = float(vmax - vmin);
            for (int corner = 0; corner < 3; ++corner) {
                int32_t index = f[3 * t + corner];
                if (index >= 0 && index < vertexCount)
                    out[index] = std::max(out[index], spread);
            }
        }
    }
    return values;
}

// skimage's remove_degenerate_faces, step for step (its single pass of
// vertex merges included), so that allow_degenerate=False gives its arrays.
py::tuple removeDegenerateFaces(Verts verts, Faces faces, py::array normals, py::array values)
{
    const py::ssize_t vertexCount = verts.shape(0), faceCount = faces.shape(0);
    std::vector<int32_t> map1(vertexCount);
    std::vector<char> faceOk(faceCount, 1);
    const float* v = verts.data();
    const int32_t* f = faces.data();
    auto same = [&](int32_t a, int32_t b) { return std::memcmp(v + 3 * a, v + 3 * b, 3 * sizeof(float)) == 0; };
    for (py::ssize_t i = 0; i < vertexCount; ++i)
        map1[i] = int32_t(i);
    for (py::ssize_t j = 0; j < faceCount; ++j) {
        int32_t i1 = f[3 * j], i2 = f[3 * j + 1], i3 = f[3 * j + 2];
        if (same(i1, i2)) {
            map1[i1] = map1[i2] = std::min(map1[i1], map1[i2]);
            faceOk[j] = 0;
        }
        if (same(i1, i3)) {
            map1[i1] = map1[i3] = std::min(map1[i1], map1[i3]);
            faceOk[j] = 0;
        }
        if (same(i2, i3)) {
            map1[i2] = map1[i3] = std::min(map1[i2], map1[i3]);
            faceOk[j] = 0;
        }
    }
    std::vector<int32_t> map2(vertexCount);
    py::list keep;
    int32_t kept = -1;
    py::array_t<bool> vertexOk(vertexCount);
    bool* ok = vertexOk.mutable_data();
    for (py::ssize_t i = 0; i < vertexCount; ++i) {
        ok[i] = map1[i] == i;
        kept += ok[i];
        map2[i] = kept;
    }
    py::ssize_t keptFaces = std::count(faceOk.begin(), faceOk.end(), 1);
    py::array_t<int32_t> faces2({keptFaces, py::ssize_t(3)});
    int32_t* out = faces2.mutable_data();
    for (py::ssize_t j = 0, k = 0; j < faceCount; ++j)
        if (faceOk[j]) {
            for (int c = 0; c < 3; ++c)
                out[3 * k + c] = map2[map1[f[3 * j + c]]];
            ++k;
        }
    return py::make_tuple(verts[vertexOk], faces2, normals[vertexOk], values[vertexOk]);
}

} // namespace

void bindMeshTools(py::module_& m)
{
    m.def("_vertex_values", &vertexValues, py::arg("samples"), py::arg("verts"), py::arg("faces"), py::arg("iso"));
    m.def("_remove_degenerate_faces", &removeDegenerateFaces, py::arg("verts"), py::arg("faces"), py::arg("normals"),
          py::arg("values"));
}

} // namespace isoscope::python
