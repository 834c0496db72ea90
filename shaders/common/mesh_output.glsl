// The GLSL side of engine/mesh/gpu_mesh.h: an extractor declares the three
// mesh buffers at bindings it chooses by defining MESH_VERTICES_BINDING,
// MESH_INDICES_BINDING and MESH_COUNTERS_BINDING before including this file.
// Vertices and faces are counted even when they do not fit; only those that
// fit are written, so a shader never writes out of bounds.

struct MeshVertex {
    float px, py, pz;
    float nx, ny, nz;
};

// A pass of a method whose shared layout holds the mesh buffers without
// writing them defines MESH_OUTPUT_READ_ONLY (and MESH_COUNTERS_READ_ONLY),
// so the render graph sees from the SPIR-V that it only reads them.
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
// MESH_COUNTERS_ONLY: a pass that reads and writes the counters alone.
#ifdef MESH_COUNTERS_ONLY
#define MESH_OUTPUT_READ_ONLY
#else
layout(set = 0, binding = MESH_VERTICES_BINDING, std430) MESH_OUTPUT_ACCESS buffer MeshVertices { MeshVertex meshVertices[]; };
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

#ifndef MESH_OUTPUT_READ_ONLY
void writeMeshVertex(uint index, vec3 position, vec3 normal)
{
    if (index < meshVertexCapacity)
        meshVertices[index] = MeshVertex(position.x, position.y, position.z, normal.x, normal.y, normal.z);
}

void writeMeshTriangle(uint face, uint a, uint b, uint c)
{
    if (face < meshFaceCapacity) {
        meshIndices[3u * face + 0u] = a;
        meshIndices[3u * face + 1u] = b;
        meshIndices[3u * face + 2u] = c;
    }
}
#endif
