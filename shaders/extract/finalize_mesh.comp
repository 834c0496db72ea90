#version 460
// Turns an extractor's counts into draw arguments on the GPU: the draw covers
// the faces that were written, and `overflow` tells the host to redo the
// extraction with larger buffers. The counters were reset before the passes.
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 1) in;

#define MESH_COUNTERS_ONLY
#define MESH_COUNTERS_BINDING 0
#include "mesh_output.glsl"

layout(push_constant) uniform Push { uint faceSize; };

void main()
{
    bool overflow = meshVertexCount > meshVertexCapacity || meshFaceCount > meshFaceCapacity;
    drawIndexCount = faceSize * min(meshFaceCount, meshFaceCapacity);
    drawInstanceCount = 1u;
    drawFirstIndex = 0u;
    drawVertexOffset = 0;
    drawFirstInstance = 0u;
    // A pass may have raised the flag already (a full work list, say).
    if (overflow)
        meshOverflow = 1u;
}
