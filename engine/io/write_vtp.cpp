// VTK XML PolyData (.vtp), the file ParaView and VTK open as a surface:
// points, point normals and polygons (triangles or quads as they are), the
// arrays raw in one appended block, so nothing is base64-encoded.
#include <bit>
#include <string>
#include <vector>

#include "core/error.h"
#include "io/mesh_file_support.h"
#include "io/mesh_io.h"

namespace isoscope {

static_assert(std::endian::native == std::endian::little, "the VTP writer declares LittleEndian host data");

namespace {

// The appended block: each array is a UInt64 byte count, then its bytes; a
// DataArray's offset is where its count starts, from the byte after '_'.
struct AppendedArrays {
    std::vector<char> bytes;
    std::string declarations;

    template <typename Values> // a std::vector or a mesh's MeshArray
    void add(const std::string& attributes, const Values& values)
    {
        using T = typename Values::value_type;
        declarations = "<DataArray " + attributes + " format=\"appended\" offset=\"" +
                       std::to_string(bytes.size()) + "\"/>\n";
        appendBytes(bytes, uint64_t(values.size() * sizeof(T)));
        const char* raw = reinterpret_cast<const char*>(values.data());
        bytes.insert(bytes.end(), raw, raw + values.size() * sizeof(T));
    }
};

// Connectivity as Int32 where it fits (half the bytes), Int64 otherwise.
template <typename Index>
std::string addPolys(AppendedArrays& arrays, const Mesh& mesh, const char* vtkType)
{
    std::vector<Index> connectivity(mesh.indices.begin(), mesh.indices.end());
    std::vector<Index> offsets(mesh.faceCount());
    for (uint64_t face = 0; face < mesh.faceCount(); ++face)
        offsets[face] = Index((face + 1) * mesh.faceSize);
    std::string xml;
    arrays.add(std::string("type=\"") + vtkType + "\" Name=\"connectivity\"", connectivity);
    xml += arrays.declarations;
    arrays.add(std::string("type=\"") + vtkType + "\" Name=\"offsets\"", offsets);
    xml += arrays.declarations;
    return xml;
}

} // namespace

void writeVtp(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options)
{
    checkMeshForWriting(mesh, path);
    AppendedArrays arrays;
    std::string pointData, points, polys;
    if (!mesh.normals.empty()) {
        arrays.add("type=\"Float32\" Name=\"Normals\" NumberOfComponents=\"3\"", mesh.normals);
        pointData = arrays.declarations;
    }
    arrays.add("type=\"Float32\" Name=\"Points\" NumberOfComponents=\"3\"", mesh.positions);
    points = arrays.declarations;
    polys = mesh.indices.size() <= uint64_t(INT32_MAX) ? addPolys<int32_t>(arrays, mesh, "Int32")
                                                       : addPolys<int64_t>(arrays, mesh, "Int64");

    std::string header = "<?xml version=\"1.0\"?>\n"
                         "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
                         "header_type=\"UInt64\">\n<PolyData>\n<Piece NumberOfPoints=\"" +
                         std::to_string(mesh.positions.size()) +
                         "\" NumberOfVerts=\"0\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"" +
                         std::to_string(mesh.faceCount()) + "\">\n";
    header += mesh.normals.empty() ? "<PointData>\n" : "<PointData Normals=\"Normals\">\n";
    header += pointData + "</PointData>\n<Points>\n" + points + "</Points>\n<Polys>\n" + polys +
              "</Polys>\n</Piece>\n</PolyData>\n<AppendedData encoding=\"raw\">\n_";
    std::string footer = "\n</AppendedData>\n</VTKFile>\n";
    writeFileParts(path, options, {header, arrays.bytes, footer});
}

} // namespace isoscope
