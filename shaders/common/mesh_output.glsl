// The GLSL side of engine/mesh/gpu_mesh.h: an extractor declares the three
// mesh buffers at bindings it chooses by defining MESH_VERTICES_BINDING,
// MESH_INDICES_BINDING and MESH_COUNTERS_BINDING before including this file.
// Vertices and faces are counted even when they do not fit; only those that
// fit are written, so a shader never writes out of bounds.

struct MeshVertex {
    float px, py, pz;
    float nx, ny, nz;
};

// What a pass does with the mesh, so that the render graph sees it from the
// SPIR-V: MESH_OUTPUT_READ_ONLY, a pass of a method whose shared layout holds
// the vertices and indices without writing them; MESH_COUNTERS_READ_ONLY, one
// that only reads the counters (the capacities); MESH_NO_VERTICES and
// MESH_NO_INDICES leave that buffer out (no binding: a pass writing only
// vertices and one writing only indices then run without a barrier between
// them); MESH_COUNTERS_ONLY, both left out.
#ifdef MESH_COUNTERS_ONLY
#define MESH_NO_VERTICES
#define MESH_NO_INDICES
#endif
#ifdef MESH_OUTPUT_READ_ONLY
#define MESH_OUTPUT_ACCESS readonly
#else
#define MESH_OUTPUT_ACCESS writeonly
#endif
#ifdef MESH_COUNTERS_READ_ONLY
#define MESH_COUNTERS_ACCESS readonly
#else
#define MESH_COUNTERS_ACCESS
#endif
#ifndef MESH_NO_VERTICES
layout(set = 0, binding = MESH_VERTICES_BINDING, std430) MESH_OUTPUT_ACCESS buffer MeshVertices { MeshVertex meshVertices[]; };
#endif
#ifndef MESH_NO_INDICES
layout(set = 0, binding = MESH_INDICES_BINDING, std430) MESH_OUTPUT_ACCESS buffer MeshIndices { uint meshIndices[]; };
#endif
layout(set = 0, binding = MESH_COUNTERS_BINDING, std430) MESH_COUNTERS_ACCESS buffer MeshCounters {
    uint drawIndexCount;
    uint drawInstanceCount;
    uint drawFirstIndex;
    int drawVertexOffset;
    uint drawFirstInstance;
    uint meshVertexCount;
    uint meshFaceCount;
    uint meshVertexCapacity;
    uint meshFaceCapacity;
    uint meshOverflow;
    uint meshReserved[2];
};

#if !defined(MESH_OUTPUT_READ_ONLY) && !defined(MESH_NO_VERTICES)
void writeMeshVertex(uint index, vec3 position, vec3 normal)
{
    if (index < meshVertexCapacity)
        meshVertices[index] = MeshVertex(position.x, position.y, position.z, normal.x, normal.y, normal.z);
}

#endif

#if !defined(MESH_OUTPUT_READ_ONLY) && !defined(MESH_NO_INDICES)
void writeMeshTriangle(uint face, uint a, uint b, uint c)
{
    if (face < meshFaceCapacity) {
        meshIndices[3u * face + 0u] = a;
        meshIndices[3u * face + 1u] = b;
        meshIndices[3u * face + 2u] = c;
    }
}
#endif
