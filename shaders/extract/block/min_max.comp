#version 460
// Pass 1 (paper section 4.1) reading the volume image (or evaluating the
// Cayley field): the value range of each voxel block, as two halves rounded
// outward (4 bytes per block; a conservative test can only keep a block it
// could have skipped) or, with BYTE_RANGES, two bytes. A lane reads one texel
// per row, and range_walk.glsl walks rows and slices so that each texel is
// fetched about once: texel fetches, one sample each, bound this pass.
// min_max_words.comp reads raw words instead where they are on the device.
#extension GL_GOOGLE_include_directive : require

// The bindings this pass writes (block_common.glsl).
#define RANGES_ACCESS
#include "block_common.glsl"
#include "range_walk.glsl"

layout(local_size_x_id = 1) in;

int laneChunks() { return params.dims.x; }

float sampleAt(ivec3 p) { return outsideValue(fieldAt(p)); }

LaneRow laneRow(ivec3 p)
{
    LaneRow row = emptyLaneRow();
    row.segment[0] = vec2(sampleAt(p));
    row.head = row.segment[0];
    return row;
}

void main() { walkBlockRanges(); }
