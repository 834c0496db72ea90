#version 460
// Direct volume rendering, one invocation per ray, a workgroup per
// TILE_X × TILE_Y tile of pixels: the plain mapping (8 × 8) and the shaped
// one (Sugimoto et al., in the rotation paper's section 3): the tile's long
// side along the screen direction in which the image's x axis, its smallest
// stride, runs, so that a subgroup's lanes read neighbouring texels
// (dvr_view.h picks the shape; each is a pipeline built up front).
#extension GL_GOOGLE_include_directive : require

#include "dvr_common.glsl"

layout(local_size_x_id = 1, local_size_y_id = 2) in;

// Samples loaded together before any is composited: a ray waits for memory
// once per batch, not once per sample.
const int kBatch = 4;

Composite march(DvrRay r)
{
    Composite c = Composite(vec3(0.0), 0.0, -1.0);
    int samples = r.ray.samples;
    float terminate = terminationOpacity(), depthAt = depthOpacity();
    int stride = skipStride();
    int k = 0;
    while (k < samples) {
        int end = samples;
        if (skipping()) {
            end = min(samples, k + stride);
            if (!brickVisible(indexPoint(r, k))) {
                k = end;
                continue;
            }
        }
        for (; k < end; k += kBatch) {
            float values[kBatch];
            for (int j = 0; j < kBatch; ++j)
                values[j] = k + j < end ? sampleAt(r, k + j) : 0.0;
            for (int j = 0; j < kBatch && k + j < end; ++j) {
                vec4 s = classifySample(values[j], indexPoint(r, k + j));
                c.color += (1.0 - c.alpha) * s.a * s.rgb;
                c.alpha += (1.0 - c.alpha) * s.a;
                if (c.depthS < 0.0 && c.alpha >= depthAt)
                    c.depthS = rayDistance(r.ray, k + j);
            }
            if (c.alpha >= terminate)
                return c;
        }
        k = end;
    }
    return c;
}

void main()
{
    loadTable();
    uvec2 pixel = gl_GlobalInvocationID.xy;
    if (any(greaterThanEqual(pixel, params.extent)))
        return;
    DvrRay r = dvrRay(pixel);
    writePixel(pixel, r, march(r));
}
