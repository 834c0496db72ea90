#version 460
// Turns the list's length into the indirect dispatch of the vertex and
// triangle passes (one workgroup per listed block, folded into 2D where the
// count passes the 65535-workgroup limit of one dimension), and raises the
// mesh's overflow flag when the list could not hold every active block.
#extension GL_GOOGLE_include_directive : require

#include "block_common.glsl"

layout(local_size_x = 1) in;

const uint kMaxGroupsPerDimension = 65535u;

void main()
{
    uint listed = min(activeCount, params.activeCapacity);
    dispatchX = min(listed, kMaxGroupsPerDimension);
    dispatchY = (listed + kMaxGroupsPerDimension - 1u) / kMaxGroupsPerDimension;
    dispatchZ = 1u;
    if (activeCount > params.activeCapacity)
        meshOverflow = 1u;
}
