#pragma once
// An indexed surface mesh on the CPU: the one output contract of every
// extractor once read back. Positions are in world units.
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

namespace isoscope {

struct Mesh {
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;  // one per position, unit length, or empty
    std::vector<uint32_t> indices;   // faceSize indices per face
    uint32_t faceSize = 3;           // 3 (triangles) or 4 (quads, from dual methods)

    uint64_t faceCount() const { return faceSize ? indices.size() / faceSize : 0; }
};

} // namespace isoscope
