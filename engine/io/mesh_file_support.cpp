#include "io/mesh_file_support.h"

#include "core/error.h"
#include "core/text.h"

namespace isoscope {

std::string lowerExtension(const std::filesystem::path& path)
{
    return lowercase(path.extension().string());
}

void checkMeshForWriting(const Mesh& mesh, const std::filesystem::path& path)
{
    if (mesh.faceSize != 3 && mesh.faceSize != 4)
        fail("cannot write " + path.string() + ": faceSize is " + std::to_string(mesh.faceSize) + ", expected 3 or 4");
    if (!mesh.normals.empty() && mesh.normals.size() != mesh.positions.size())
        fail("cannot write " + path.string() + ": " + std::to_string(mesh.normals.size()) + " normals for " +
             std::to_string(mesh.positions.size()) + " vertices");
}

} // namespace isoscope
