#pragma once
// Topology and geometry checks of a mesh: what `isoscope meshcheck` prints and
// what tests assert (closed, manifold, Euler characteristic, consistent winding).
#include <cstdint>

#include <nlohmann/json.hpp>

#include "mesh/mesh.h"

namespace isoscope {

struct MeshReport {
    uint64_t vertices = 0;             // positions in the mesh
    uint64_t referencedVertices = 0;   // positions used by at least one face
    uint64_t faces = 0;
    uint32_t faceSize = 3;             // corners a face: 3 triangles, 4 quads (the dual method's)
    uint64_t edges = 0;                // distinct undirected edges (pairs of vertex indices)
    uint64_t boundaryEdges = 0;        // used by one face
    uint64_t nonManifoldEdges = 0;     // used by three faces or more
    uint64_t inconsistentEdges = 0;    // used by two faces that traverse it the same way (flipped winding)
    uint64_t components = 0;           // connected components of faces that share a vertex
    // V - E + F with V the referenced vertices, E the distinct edges, F the
    // faces (a quad counts as one face). Counted on vertex indices, not
    // positions: a vertex that only shares another's position is still its
    // own vertex, as it is for the renderer. For a closed, manifold,
    // connected surface it is 2 - 2 * genus (sphere 2, torus 0); each
    // boundary loop lowers it by one.
    int64_t eulerCharacteristic = 0;
    double surfaceArea = 0.0;          // a quad (a, b, c, d) as triangles (a, b, c) and (a, c, d)
    uint64_t verticesSharingPosition = 0; // vertices whose position equals another vertex's exactly
    uint64_t degenerateFaces = 0;      // a repeated vertex index, or zero area

    bool closed() const { return boundaryEdges == 0 && nonManifoldEdges == 0; }
};

// Checks the mesh. Throws Error when a face refers to a vertex that does not
// exist or faceSize is not 3 or 4. Cost: O(F log F) time, about 24 bytes per
// face index of scratch memory.
MeshReport checkMesh(const Mesh& mesh);

// The report as a JSON object: the field names above in snake_case, as the
// CLI's other JSON (boundary_edges, euler_characteristic, ...), and "closed".
nlohmann::json toJson(const MeshReport& report);

} // namespace isoscope
