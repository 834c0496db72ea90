#version 460
// One level of the HistoPyramid above base.comp's levels 0 to 2
// (histopyramid_common.glsl): each entry of level `grid.level` is the sum of
// its node's eight children one level down, read as two or four 16-byte
// vectors (groupCounts). One invocation per entry, zero for a node outside
// the level (its parent's other children still count). After base_runs.comp,
// reduce_words.comp, a pipeline of its own, reads a word a child.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#define VOLUME_BINDING 0
#define LEVELS_BINDING 1
#define PYRAMID_BINDING 2
#define PYRAMID_ACCESS
#define PYRAMID_VECTORS_BINDING 3
#include "histopyramid_common.glsl"

layout(local_size_x = 64) in;

void main()
{
    uint l = grid.level;
    uint i = flatWorkgroupIndex() * 64u + gl_LocalInvocationIndex;
    uvec3 dl = levels[l].xyz, up = levels[l + 1u].xyz;
    if (i >= 8u * up.x * up.y * up.z)
        return;
    uvec3 q = nodeOfEntry(i, up);
    uvec2 sums = uvec2(0u);
    if (all(lessThan(q, dl))) {
        uint first = childrenEntry(l - 1u, q);
        uint vertices[8], triangles[8];
        groupCounts(l - 1u, first, vertices, triangles);
        [[unroll]] for (uint o = 0u; o < 8u; ++o)
            sums += uvec2(vertices[o], triangles[o]);
    }
    uint base = levels[l].w;
    if (l <= 4u) {
        pyramid[base + i] = sums.x | sums.y << 16;
    } else {
        pyramid[base + 2u * i] = sums.x;
        pyramid[base + 2u * i + 1u] = sums.y;
    }
}
