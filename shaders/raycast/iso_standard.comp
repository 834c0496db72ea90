#version 460
// Isosurface raycasting, the Standard mapping (Wang, Yang, Cao, section 3):
// one invocation per ray, a workgroup per TILE_X × TILE_Y tile of pixels.
// Neighbouring rays sample neighbouring points of one plane at a time, which
// the texture cache serves well when that plane lies in the image's xy
// slices (facing XY) and poorly when it cuts across them (facing ZY).
//
// The tail. A frame lasts as long as its slowest subgroup: on the H100 a
// few rays that graze the surface march densely for hundreds of voxels one
// batch at a time, and at 45° to Cayley's arms they alone set the frame
// (shader clocks: 1.45M cycles for the slowest subgroup against 56K for
// the mean pixel). So a ray that has marched TAIL_BUDGET strides densely
// without a hit stops, and appends its pixel and its next sample to
// TailRays; iso_warp.comp (TAIL_RAYS) finishes those rays a subgroup each,
// 31 samples a round trip instead of 4. The samples and the crossing rule
// are the same, so the hits are too.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require

#include "raycast_common.glsl"

layout(local_size_x_id = 1, local_size_y_id = 2) in;
// Dense strides a ray marches before it is handed on; 0: never.
layout(constant_id = 6) const uint TAIL_BUDGET = 0;
// With a TAIL_BUDGET, brick lookups a ray takes before it is handed on; 0:
// no limit. A ray that skips alongside the surface without reaching it
// takes a lookup a stride, all dependent, for hundreds of voxels; at some
// views such rays set the frame as the grazing ones did (RaycastOptions::
// tailLookups). Handing on at a lookup keeps the tail's rule: every sample
// before `next` is tested or vouched for.
layout(constant_id = 12) const uint TAIL_LOOKUPS = 0;
// The tail pass's workgroups hold TAIL_RAYS_PER_GROUP rays, and at most
// TAIL_MAX_GROUPS of them are dispatched (each then takes several rays).
layout(constant_id = 7) const uint TAIL_RAYS_PER_GROUP = 4;
layout(constant_id = 8) const uint TAIL_MAX_GROUPS = 65535;

// VkDispatchIndirectCommand of the tail pass: x grows with TailRays' count.
layout(set = 0, binding = 7, std430) buffer TailDispatch { uint tailGroups; uint tailY; uint tailZ; };

// Skipping over macro cells MACRO_BRICKS bricks a side, classified as the
// bricks are (one byte a cell, four to a word); 0: bricks only. Each lookup
// reads both levels at once, one round trip, and a ray in a macro cell it
// can skip jumps MACRO_BRICKS × BRICK − 2 voxels instead of BRICK − 2: the
// empty march from the box's face to the surface (up to 1,448 voxels at
// 1024³) takes a few dependent lookups instead of a couple of hundred.
layout(constant_id = 10) const uint MACRO_BRICKS = 0;
layout(set = 0, binding = 8, std430) readonly buffer MacroClasses { uint macroClassWords[]; };

bool canSkipMacro(vec3 p, bool inside)
{
    int edge = int(MACRO_BRICKS * BRICK);
    ivec3 counts = (params.dims + edge - 1) / edge;
    ivec3 cell = clamp(ivec3(floor(p)), ivec3(0), params.dims - 1) / edge;
    uint index = uint(cell.x + counts.x * (cell.y + counts.y * cell.z));
    uint cellClass = bitfieldExtract(macroClassWords[index >> 2], int(index & 3u) * 8, 8);
    return cellClass == (inside ? kMayBeInside : kMayBeOutside);
}

// Samples loaded together; past the stride's end they are not loaded. 4
// takes most of the latency away and wastes at most 3 loads a stride.
const int kBatch = 4;

const float kHandedOn = -2.0;

// The distance of the first crossing, -1 for none, or kHandedOn with the
// first sample not yet tested in `next`.
float march(Ray ray, out int next)
{
    next = 0;
    if (ray.samples == 0)
        return -1.0;
    float first = sampleAt(ray, 0);
    // A first sample equal to the isovalue is inside, as in the extractors,
    // not a hit by itself: a volume flat at the isovalue has no surface
    // (no triangles from any extractor), so no ray may hit its bounding box.
    // Where the field leaves the inside after it, the crossing is
    // interpolated at it (f = 0) like any other.
    bool inside = isInside(first);
    float previous = first;
    bool previousKnown = true; // false after a skip: the sample before k was not taken
    // One lookup vouches for the samples within skipReach() of its point
    // (raycast_common.glsl): a fixed stride of them, the same for every ray. Stepping brick by brick instead (the lookups at each ray's own
    // brick faces), 1024³ Cayley took 3-4x longer at 45° than facing an axis
    // on the H100 although a ray's count of lookups and samples hardly
    // changes with the direction (a CPU count): neighbouring rays of an
    // oblique view cross brick faces at different samples, and the
    // subgroup's lanes fall out of step. The fixed stride took the 45° peak
    // from 0.95 to 0.53 ms and the median from 0.34 to 0.23 ms.
    int stride = int(floor(max(skipReach(), 0.0) / params.step)) + 1;
    // Whole brick strides, within the macro cell's reach, so every ray's lookups stay on one grid.
    int macroSamples = int(floor(float(max(MACRO_BRICKS, 1u) * BRICK - 2u) / params.step)) + 1;
    int macroStride = stride * max(1, macroSamples / stride);
    int k = 1;
    uint denseStrides = 0u;
    uint lookups = 0u;
    while (k < ray.samples) {
        int end = ray.samples;
        if (SKIP_EMPTY) {
            if (TAIL_BUDGET != 0u && TAIL_LOOKUPS != 0u && ++lookups > TAIL_LOOKUPS) {
                next = k;
                return kHandedOn;
            }
            vec3 p = rayPoint(ray, rayDistance(ray, k));
            bool macroSkip = MACRO_BRICKS != 0u && canSkipMacro(p, inside);
            bool brickSkip = canSkipBrick(brickOf(p), inside);
            if (macroSkip) {
                k = min(ray.samples, k + macroStride);
                previousKnown = false;
                continue;
            }
            end = min(ray.samples, k + stride);
            if (brickSkip) {
                k = end;
                previousKnown = false;
                continue;
            }
        }
        if (TAIL_BUDGET != 0u && ++denseStrides > TAIL_BUDGET) {
            next = k;
            return kHandedOn;
        }
        // Samples in batches whose loads are all issued before the first is
        // tested: a ray marching through a brick that holds surface waits
        // for memory once per batch, not once per sample.
        for (; k < end; k += kBatch) {
            float values[kBatch];
            for (int j = 0; j < kBatch; ++j)
                values[j] = k + j < end ? sampleAt(ray, k + j) : 0.0;
            for (int j = 0; j < kBatch && k + j < end; ++j) {
                if (isInside(values[j]) != inside) {
                    float before = j > 0 ? values[j - 1] : previousKnown ? previous : sampleAt(ray, k - 1);
                    return crossingDistance(ray, k + j, before, values[j]);
                }
            }
            previous = values[min(kBatch, end - k) - 1];
            previousKnown = true;
        }
        k = end; // the last batch may reach past the stride's end, whose samples it did not test
    }
    return -1.0;
}

void main()
{
    uvec2 pixel = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(pixel, params.extent)))
        return;
    Ray ray = cameraRay(pixel);
    int next;
    float s = march(ray, next);
    bool handOn = s == kHandedOn;
    if (TAIL_BUDGET == 0u || !subgroupAny(handOn)) {
        writePixel(pixel, ray, s);
        return;
    }
    // One atomic per subgroup for the list, one for the dispatch size.
    uvec4 ballot = subgroupBallot(handOn);
    uint count = subgroupBallotBitCount(ballot);
    uint first = 0u;
    if (subgroupElect()) {
        first = atomicAdd(tailCount, count);
        uint groups = (first + count + TAIL_RAYS_PER_GROUP - 1u) / TAIL_RAYS_PER_GROUP;
        atomicMax(tailGroups, min(groups, TAIL_MAX_GROUPS));
    }
    first = subgroupBroadcastFirst(first);
    if (handOn)
        tailRays[first + subgroupBallotExclusiveBitCount(ballot)] = uvec2(pixel.x | (pixel.y << 16), uint(next));
    else
        writePixel(pixel, ray, s);
}
