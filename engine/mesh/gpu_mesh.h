#pragma once
// The output contract of every GPU extractor: an indexed mesh that stays in
// device buffers, plus a small counters block the GPU fills in. The counters
// block starts with a VkDrawIndexedIndirectCommand, so the raster pass draws
// the mesh with vkCmdDrawIndexedIndirect straight from it, and nothing in a
// frame waits for the CPU to read a count.
//
// Extractors count every vertex and triangle they want to write, even past
// the buffers' capacity, and write only those that fit; finalize_mesh then
// clamps the draw to what was written and raises `overflow`. Outside a frame,
// the driver (extract/extraction_run.h) reads the counters, and on overflow it redoes the
// extraction with buffers of exactly the counted size: never a silent
// truncation. shaders/common/mesh_output.glsl is the GLSL side of this file.
#include <cstdint>

#include <volk.h>

#include "core/memory.h"
#include "mesh/mesh.h"

namespace isoscope {

class Context;

struct GpuMeshVertex {
    float position[3]; // world units: origin + index * spacing, as the CPU reference
    float normal[3];   // unit length, pointing out of the inside region (value >= iso)
};
static_assert(sizeof(GpuMeshVertex) == 24);

struct GpuMeshCounters {
    VkDrawIndexedIndirectCommand draw; // written by finalize_mesh: indexCount = faceSize * written faces
    uint32_t vertexCount;      // vertices the extractor produced (may exceed vertexCapacity)
    uint32_t faceCount;        // faces (triangles or quads) produced (may exceed faceCapacity)
    uint32_t vertexCapacity;
    uint32_t faceCapacity;
    uint32_t overflow;         // 1 when either count exceeds its capacity
    uint32_t reserved[2];
};
static_assert(sizeof(GpuMeshCounters) == 48);

struct GpuMesh {
    Buffer vertices;  // GpuMeshVertex[vertexCapacity]; vertex buffer and storage buffer
    Buffer indices;   // uint32_t[faceSize * faceCapacity]; index buffer and storage buffer
    Buffer counters;  // one GpuMeshCounters; indirect buffer, storage buffer, transfer src/dst
    uint32_t vertexCapacity = 0;
    uint32_t faceCapacity = 0;
    uint32_t faceSize = 3;

    uint64_t deviceBytes() const { return vertices.allocated + indices.allocated + counters.allocated; }
};

// Device-local buffers for up to the given counts (at least one of each, so
// every buffer is valid to bind). The counters hold the capacities and zero
// counts. Throws Error, with the numbers, where the device cannot hold them.
GpuMesh createGpuMesh(Context& context, uint64_t vertexCapacity, uint64_t faceCapacity, uint32_t faceSize = 3);

// Reads the counters back (submits and waits: outside frames only).
GpuMeshCounters readCounters(Context& context, const GpuMesh& mesh);

// Reads the whole mesh back. Throws Error if the counters report an overflow.
Mesh downloadMesh(Context& context, const GpuMesh& mesh);

// A CPU mesh in device buffers with its counters and draw arguments set, so
// the CPU reference's output is drawn exactly like an extractor's.
GpuMesh uploadMesh(Context& context, const Mesh& mesh);

} // namespace isoscope
