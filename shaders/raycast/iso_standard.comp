#version 460
// Isosurface raycasting, the Standard mapping (Wang, Yang, Cao, section 3):
// one invocation per ray, a workgroup per TILE_X × TILE_Y tile of pixels.
// Neighbouring rays sample neighbouring points of one plane at a time, which
// the texture cache serves well when that plane lies in the image's xy
// slices (facing XY) and poorly when it cuts across them (facing ZY).
#extension GL_GOOGLE_include_directive : require

#include "raycast_common.glsl"

layout(local_size_x_id = 1, local_size_y_id = 2) in;

// Samples loaded together; past the stride's end they are not loaded. 4
// takes most of the latency away and wastes at most 3 loads a stride.
const int kBatch = 4;

// The distance of the first crossing, or -1.
float march(Ray ray)
{
    if (ray.samples == 0)
        return -1.0;
    float first = sampleAt(ray, 0);
    if (first == params.iso)
        return ray.s0;
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
    int k = 1;
    while (k < ray.samples) {
        int end = ray.samples;
        if (SKIP_EMPTY) {
            ivec3 brick = brickOf(rayPoint(ray, rayDistance(ray, k)));
            end = min(ray.samples, k + stride);
            if (canSkipBrick(brick, inside)) {
                k = end;
                previousKnown = false;
                continue;
            }
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
    writePixel(pixel, ray, march(ray));
}
