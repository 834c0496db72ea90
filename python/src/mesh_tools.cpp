// The parts of scikit-image's marching_cubes output the engine does not make:
// its per-vertex `values` and `normals` and its removal of degenerate triangles, all as
// skimage/measure/_marching_cubes_lewiner_cy.pyx (0.19) computes them.
#include <algorithm>
#include <array>
#include <cmath>
#include <cfloat>
#include <cstring>
#include <vector>

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

// scikit-image's per-cell gradient at the 8 corners, indexed as its
// add_gradient_from_index reads it: by the corner's bit index (dz*4+dy*2+dx)
// into a table it filled in its own corner numbering (v0..v7 going round the
// z=0 face, then the z=1 face). Components (x, y, z) with x the array's last
// axis; each is a sample difference "lower minus higher" (descent).
std::array<double, 3> skimageCornerGradient(int bit, const std::array<double, 8>& s)
{
    // s is indexed by bit index; v[k] is skimage's numbering.
    const double v[8] = {s[0], s[1], s[3], s[2], s[4], s[5], s[7], s[6]};
    switch (bit) {
    case 0: return {v[0] - v[1], v[0] - v[3], v[0] - v[4]};
    case 1: return {v[0] - v[1], v[1] - v[2], v[1] - v[5]};
    case 2: return {v[3] - v[2], v[1] - v[2], v[2] - v[6]};
    case 3: return {v[3] - v[2], v[0] - v[3], v[3] - v[7]};
    case 4: return {v[4] - v[5], v[4] - v[7], v[0] - v[4]};
    case 5: return {v[4] - v[5], v[5] - v[6], v[1] - v[5]};
    case 6: return {v[7] - v[6], v[5] - v[6], v[2] - v[6]};
    default: return {v[7] - v[6], v[4] - v[7], v[3] - v[7]};
    }
}

// skimage's `values` and `normals`, per vertex, from the cells of the
// triangles that use it (a triangle's cell is the one all three of its
// vertices bound; in the rare triangle lying in a cell face the lower cell):
// - values: the largest of those cells' spread around the isovalue
//   (max(0, max v - iso) - min(0, min v - iso) over the cell's 8 corners);
// - normals: over those cells, the cell's corner gradients at the two ends of
//   the vertex's edge weighted by 1 / |v - iso|, added once for each of the
//   cell's triangles that use the vertex, normalized. This is skimage's
//   estimator (one-sided differences inside the cell), not the engine's
//   central differences: on noisy scans the two differ at a third of the
//   vertices. `edgeUses` (256 x 24, from skimage's own case table when it is
//   installed) gives skimage's triangle count per cell case and edge, since
//   its table splits some polygons along other diagonals than the engine's
//   (VTK's); where it is empty, the engine's triangles are counted.
py::tuple skimageVertexAttributes(py::array samples, Verts verts, Faces faces, double iso, py::object edgeUsesObject)
{
    if (samples.ndim() != 3 || verts.ndim() != 2 || verts.shape(1) != 3 || faces.ndim() != 2 || faces.shape(1) != 3)
        throw py::value_error("_vertex_attributes: expects a 3D array, (V, 3) vertices and (F, 3) faces");
    char kind = samples.dtype().kind();
    size_t size = samples.dtype().itemsize();
    bool known = (kind == 'f' && (size == 4 || size == 8)) || (kind == 'u' && size <= 2) || (kind == 'i' && size == 2);
    if (!known)
        throw py::type_error("_vertex_attributes: samples must be uint8, uint16, int16, float32 or float64");
    // (A default array_t is an empty array, not a null one: `given` says whether there is a table.)
    py::array_t<int32_t, py::array::c_style | py::array::forcecast> edgeUses;
    const bool given = !edgeUsesObject.is_none();
    if (given) {
        edgeUses = edgeUsesObject.cast<decltype(edgeUses)>();
        if (edgeUses.ndim() != 2 || edgeUses.shape(0) != 256 || edgeUses.shape(1) != 24)
            throw py::value_error("_vertex_attributes: edge_uses must be a (256, 24) array");
    }
    Sampler sampler{static_cast<const char*>(samples.data()),
                    {samples.strides(0), samples.strides(1), samples.strides(2)},
                    {samples.shape(0), samples.shape(1), samples.shape(2)}, kind, size};
    const py::ssize_t vertexCount = verts.shape(0), faceCount = faces.shape(0);
    py::array_t<float> values(vertexCount), normals({vertexCount, py::ssize_t(3)});
    float* out = values.mutable_data();
    float* normalOut = normals.mutable_data();
    const float* v = verts.data();
    const int32_t* f = faces.data();
    const int32_t* uses = given ? edgeUses.data() : nullptr;
    {
        py::gil_scoped_release release;
        auto valid = [&](int32_t index) { return index >= 0 && index < vertexCount; };
        // Each triangle's cell, as a linear index; triangles then visited cell by cell.
        std::vector<std::pair<int64_t, py::ssize_t>> byCell(faceCount);
        for (py::ssize_t t = 0; t < faceCount; ++t) {
            int64_t key = 0;
            for (int axis = 0; axis < 3; ++axis) {
                py::ssize_t lo = PY_SSIZE_T_MIN, hi = PY_SSIZE_T_MAX;
                for (int corner = 0; corner < 3; ++corner) {
                    int32_t index = f[3 * t + corner];
                    if (!valid(index))
                        continue;
                    auto [a, b] = cellRange(v[3 * index + axis]);
                    lo = std::max(lo, a);
                    hi = std::min(hi, b);
                }
                key = key * sampler.shape[axis] + std::clamp<py::ssize_t>(lo, 0, sampler.shape[axis] - 2);
            }
            byCell[t] = {key, t};
        }
        std::sort(byCell.begin(), byCell.end());

        std::fill(out, out + vertexCount, 0.0f);
        std::vector<double> sum(3 * size_t(vertexCount), 0.0);
        for (size_t first = 0; first < byCell.size();) {
            size_t last = first;
            while (last < byCell.size() && byCell[last].first == byCell[first].first)
                ++last;
            int64_t key = byCell[first].first;
            std::array<py::ssize_t, 3> cell;
            for (int axis = 2; axis >= 0; --axis) {
                cell[axis] = py::ssize_t(key % sampler.shape[axis]);
                key /= sampler.shape[axis];
            }
            // Corner values minus iso, by bit index dx + 2 dy + 4 dz with x the last axis,
            // in float32 first, as skimage reads every volume.
            std::array<double, 8> s;
            double vmax = 0.0, vmin = 0.0;
            for (int bit = 0; bit < 8; ++bit) {
                s[bit] = double(float(sampler.at(cell[0] + (bit >> 2), cell[1] + ((bit >> 1) & 1), cell[2] + (bit & 1)))) - iso;
                vmax = std::max(vmax, s[bit]);
                vmin = std::min(vmin, s[bit]);
            }
            const float spread = float(vmax - vmin);
            // skimage's case index: bit k for its corner v_k above the isovalue.
            static constexpr int skimageCorner[8] = {0, 1, 3, 2, 4, 5, 7, 6};
            int skimageCase = 0;
            for (int k = 0; k < 8; ++k)
                skimageCase |= (s[skimageCorner[k]] > 0.0 ? 1 : 0) << k;

            // The cell's vertices with their edge (lower corner's bit * 3 + axis)
            // and how many of the engine's triangles use each. A vertex on a
            // sample (level equal to it) has no one edge: such share a code.
            struct CellVertex {
                int32_t index;
                int edge, engineUses;
            };
            std::array<CellVertex, 16> cellVertices;
            int vertexTotal = 0;
            std::array<int, 24> onEdge{};
            for (size_t i = first; i < last; ++i)
                for (int corner = 0; corner < 3; ++corner) {
                    int32_t index = f[3 * byCell[i].second + corner];
                    if (!valid(index))
                        continue;
                    out[index] = std::max(out[index], spread);
                    auto known = std::find_if(cellVertices.begin(), cellVertices.begin() + vertexTotal,
                                              [&](const CellVertex& c) { return c.index == index; });
                    if (known != cellVertices.begin() + vertexTotal) {
                        ++known->engineUses;
                        continue;
                    }
                    std::array<double, 3> local; // (x, y, z) offsets in the cell
                    for (int axis = 0; axis < 3; ++axis)
                        local[2 - axis] = std::clamp(double(v[3 * index + axis]) - double(cell[axis]), 0.0, 1.0);
                    int along = 0; // the edge's axis: where the vertex lies furthest inside the cell
                    for (int a = 1; a < 3; ++a)
                        if (std::abs(local[a] - 0.5) < std::abs(local[along] - 0.5))
                            along = a;
                    int base = 0;
                    for (int a = 0; a < 3; ++a)
                        if (a != along && local[a] > 0.5)
                            base |= 1 << a;
                    if (vertexTotal == int(cellVertices.size()))
                        continue; // more than a cell's 12 edges: not an MC cell, left unweighted
                    cellVertices[vertexTotal++] = {index, base * 3 + along, 1};
                    ++onEdge[base * 3 + along];
                }
            for (int i = 0; i < vertexTotal; ++i) {
                const CellVertex& c = cellVertices[i];
                int times = uses && onEdge[c.edge] == 1 ? uses[skimageCase * 24 + c.edge] : 0;
                if (times == 0)
                    times = c.engineUses;
                int base = c.edge / 3, along = c.edge % 3;
                for (int bit : {base, base | (1 << along)}) {
                    double weight = times / (double(FLT_EPSILON) + std::abs(s[bit]));
                    auto g = skimageCornerGradient(bit, s);
                    for (int k = 0; k < 3; ++k) // back to the array's axis order (z, y, x)
                        sum[3 * size_t(c.index) + k] += g[2 - k] * weight;
                }
            }
            first = last;
        }
        for (py::ssize_t i = 0; i < vertexCount; ++i) {
            const double* n = &sum[3 * size_t(i)];
            double length = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            double scale = length > 0.0 ? 1.0 / length : 0.0;
            for (int c = 0; c < 3; ++c)
                normalOut[3 * i + c] = float(n[c] * scale);
        }
    }
    return py::make_tuple(values, normals);
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
    m.def("_vertex_attributes", &skimageVertexAttributes, py::arg("samples"), py::arg("verts"), py::arg("faces"),
          py::arg("iso"), py::arg("edge_uses") = py::none());
    m.def("_remove_degenerate_faces", &removeDegenerateFaces, py::arg("verts"), py::arg("faces"), py::arg("normals"),
          py::arg("values"));
}

} // namespace isoscope::python
