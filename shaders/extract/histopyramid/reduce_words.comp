#version 460
// One level of the HistoPyramid above base_runs.comp's (histopyramid_common.glsl),
// for volumes below histoPyramidBaseInColumns: each entry of level `grid.level`
// is the sum of its node's eight children one level down, a word load a child.
// One invocation per entry, zero for a node outside the level (its parent's
// other children still count). reduce.comp is the columns path's.
#extension GL_GOOGLE_include_directive : require

#define VOLUME_BINDING 0
#define LEVELS_BINDING 1
#define PYRAMID_BINDING 2
#define PYRAMID_ACCESS
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
        for (uint o = 0u; o < 8u; ++o)
            sums += entryCounts(l - 1u, first + o);
    }
    uint base = levels[l].w;
    if (l <= 4u) {
        pyramid[base + i] = sums.x | sums.y << 16;
    } else {
        pyramid[base + 2u * i] = sums.x;
        pyramid[base + 2u * i + 1u] = sums.y;
    }
}
