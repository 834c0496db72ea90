#include "raycast_reference.h"

#include "raycast/ray_setup.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace isoscope::test {

namespace {

// GLSL's min and max on a NaN (0 × inf in a slab test) take the other operand on
// the devices we run on; fmin/fmax do so by definition.
glm::vec3 minOf(glm::vec3 a, glm::vec3 b) { return {std::fmin(a.x, b.x), std::fmin(a.y, b.y), std::fmin(a.z, b.z)}; }
glm::vec3 maxOf(glm::vec3 a, glm::vec3 b) { return {std::fmax(a.x, b.x), std::fmax(a.y, b.y), std::fmax(a.z, b.z)}; }

glm::vec3 unpackRgb(std::array<uint8_t, 4> c) { return glm::vec3(c[0], c[1], c[2]) / 255.0f; }

uint8_t toUnorm8(float v) { return uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); }

// shaders/common/headlight_shading.glsl
glm::vec3 shadeHeadlight(glm::vec3 normal, glm::vec3 toEye, glm::vec3 frontColor, glm::vec3 backColor)
{
    float len = glm::length(normal);
    glm::vec3 n = len > 0.0f ? normal / len : toEye;
    bool back = glm::dot(n, toEye) < 0.0f;
    if (back)
        n = -n;
    glm::vec3 base = back ? backColor : frontColor;
    float diffuse = std::max(glm::dot(n, toEye), 0.0f);
    float specular = std::pow(diffuse, 48.0f);
    return base * (0.15f + 0.85f * diffuse) + glm::vec3(0.25f * specular);
}

// The extractors' rule (extract/cpu/marching_cubes.cpp): finite and at or
// above the isovalue; NaN and ±inf are outside.
bool isInside(float v, float iso) { return std::isfinite(v) && v >= iso; }

struct SampleError {
    float value;
    float error; // how far a filter with rounded weights can move it
};

// Whether a filter whose samples are off by up to their errors takes the
// march's decisions, and how far it can move the hit. `samples` are the
// march's (0 … crossing, and the one after when there is one); crossing: the
// sample after the crossing, or −1 for a miss.
//  - No sample may tip before the pair that straddles the crossing: the
//    first sets the ray's side, the others would make an earlier crossing
//    (and on a miss, any sample would make one).
//  - Either sample of the pair may tip: the crossing then moves to the
//    neighbouring pair, next to where it was (within the errors), as long as
//    the sample after the pair is firmly on the far side (else the ray may
//    only graze the surface at the pair's second sample).
void judge(const SampleError* samples, int count, int crossing, float iso, float step, uint8_t& decided,
           float& tolerance)
{
    auto firm = [&](int k) {
        float d = std::fabs(samples[k].value - iso);
        return samples[k].error == 0.0f ? d == d : d > samples[k].error; // NaN: never firm
    };
    tolerance = 0.0f;
    decided = 1;
    if (count == 0)
        return; // the ray misses the box
    int last = crossing > 0 ? crossing - 2 : count - 1; // the samples that must not tip
    decided = firm(0);
    for (int k = 1; k <= last; ++k)
        decided = decided && firm(k);
    if (crossing <= 0 || !decided)
        return;
    // The interpolation f = (iso − a) / (b − a) between samples j and j + 1
    // moves by up to step × (ea + eb) / (|b − a| − ea − eb).
    auto pairTolerance = [&](int j) {
        if (j < 0 || j + 1 >= count)
            return std::numeric_limits<float>::infinity();
        const SampleError &a = samples[j], &b = samples[j + 1];
        float gap = std::fabs(b.value - a.value) - a.error - b.error;
        return gap > 0.0f ? step * (a.error + b.error) / gap : std::numeric_limits<float>::infinity();
    };
    tolerance = pairTolerance(crossing - 1);
    if (!firm(crossing - 1)) // the crossing may move to the pair before
        tolerance += 2.0f * pairTolerance(crossing - 2);
    if (!firm(crossing)) {
        // or to the pair after, if the sample after is firmly past the
        // surface too (otherwise the ray may only graze it there)
        int after = crossing + 1;
        if (after >= count || !firm(after) ||
            isInside(samples[after].value, iso) != isInside(samples[crossing].value, iso)) {
            decided = 0;
            return;
        }
        tolerance += 2.0f * pairTolerance(crossing);
    }
    if (!std::isfinite(tolerance))
        decided = 0;
}

// The packed RGBA8 colour recordRaycast sends for a float colour.
std::array<uint8_t, 4> packedColor(glm::vec4 color)
{
    return {toUnorm8(color.r), toUnorm8(color.g), toUnorm8(color.b), toUnorm8(color.a)};
}

} // namespace

RayFrame rayFrame(const OrbitCamera& camera, const Volume& volume, uint32_t width, uint32_t height)
{
    // The camera constants both raycasters push (raycast/ray_setup.h).
    RayCamera rays = rayCamera(camera, {width, height});
    RayFrame frame;
    frame.eye = rays.eye;
    frame.forward = rays.forward;
    frame.right = rays.right;
    frame.down = rays.down;
    frame.orthographic = rays.orthographic;
    frame.nearPlane = rays.nearPlane;
    frame.farPlane = rays.farPlane;
    for (int i = 0; i < 3; ++i) {
        frame.origin[i] = float(volume.origin[i]);
        frame.inverseSpacing[i] = 1.0f / float(volume.spacing[i]);
        frame.dims[i] = int(volume.dims[i]);
    }
    frame.width = width;
    frame.height = height;
    return frame;
}

ReferenceRay referenceRay(const RayFrame& frame, uint32_t x, uint32_t y, float step)
{
    // cameraRay() in raycast_common.glsl
    glm::vec2 ndc = (glm::vec2(float(x), float(y)) + 0.5f) / glm::vec2(float(frame.width), float(frame.height)) * 2.0f -
                    1.0f;
    glm::vec3 offset = frame.right * ndc.x + frame.down * ndc.y;
    glm::vec3 origin = frame.orthographic ? frame.eye + offset : frame.eye;
    glm::vec3 direction = frame.orthographic ? frame.forward : frame.forward + offset;
    ReferenceRay ray;
    ray.start = (origin - frame.origin) * frame.inverseSpacing;
    glm::vec3 d = direction * frame.inverseSpacing;
    ray.scale = glm::length(d);
    ray.unit = d / ray.scale;

    glm::vec3 inverse = 1.0f / ray.unit;
    glm::vec3 a = (glm::vec3(0.0f) - ray.start) * inverse;
    glm::vec3 b = (glm::vec3(frame.dims - 1) - ray.start) * inverse;
    glm::vec3 lo = minOf(a, b), hi = maxOf(a, b);
    float enter = std::fmax(std::fmax(lo.x, lo.y), std::fmax(lo.z, frame.nearPlane * ray.scale));
    float leave = std::fmin(std::fmin(hi.x, hi.y), std::fmin(hi.z, frame.farPlane * ray.scale));
    ray.s0 = enter;
    ray.samples = leave >= enter ? int(std::floor((leave - enter) / step)) + 1 : 0;
    return ray;
}

std::vector<ReferenceRay> referenceRays(const RayFrame& frame, float step)
{
    std::vector<ReferenceRay> rays;
    rays.reserve(size_t(frame.width) * frame.height);
    for (uint32_t y = 0; y < frame.height; ++y)
        for (uint32_t x = 0; x < frame.width; ++x)
            rays.push_back(referenceRay(frame, x, y, step));
    return rays;
}

float depthOf(const RayFrame& frame, float viewDepth)
{
    float n = frame.nearPlane, f = frame.farPlane;
    return frame.orthographic ? (viewDepth - n) / (f - n) : f * (viewDepth - n) / (viewDepth * (f - n));
}

float viewDepthOf(const RayFrame& frame, float depth)
{
    float n = frame.nearPlane, f = frame.farPlane;
    return frame.orthographic ? n + depth * (f - n) : f * n / (f - depth * (f - n));
}

ReferenceField::ReferenceField(const Volume& volume)
    : dims_(int(volume.dims[0]), int(volume.dims[1]), int(volume.dims[2])), values_(volume.sampleCount())
{
    for (uint64_t i = 0; i < volume.sampleCount(); ++i)
        values_[i] = volume.valueAt(i);
}

float ReferenceField::at(int x, int y, int z) const
{
    x = std::clamp(x, 0, dims_.x - 1);
    y = std::clamp(y, 0, dims_.y - 1);
    z = std::clamp(z, 0, dims_.z - 1);
    return values_[(size_t(z) * size_t(dims_.y) + size_t(y)) * size_t(dims_.x) + size_t(x)];
}

float ReferenceField::trilinear(glm::vec3 p) const
{
    float unused;
    return trilinear(p, unused);
}

float ReferenceField::trilinear(glm::vec3 p, float& sensitivity) const
{
    glm::vec3 cell = glm::floor(p);
    glm::vec3 f = p - cell;
    int x = int(cell.x), y = int(cell.y), z = int(cell.z);
    auto lerp = [](float a, float b, float t) { return a + t * (b - a); };
    float c[2][2][2];
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 2; ++i)
                c[k][j][i] = at(x + i, y + j, z + k);
    float dx = 0.0f, dy = 0.0f, dz = 0.0f;
    for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b) {
            dx = std::max(dx, std::fabs(c[a][b][1] - c[a][b][0]));
            dy = std::max(dy, std::fabs(c[a][1][b] - c[a][0][b]));
            dz = std::max(dz, std::fabs(c[1][a][b] - c[0][a][b]));
        }
    sensitivity = dx + dy + dz;
    if (!std::isfinite(sensitivity))
        sensitivity = std::numeric_limits<float>::infinity();
    float c00 = lerp(c[0][0][0], c[0][0][1], f.x);
    float c10 = lerp(c[0][1][0], c[0][1][1], f.x);
    float c01 = lerp(c[1][0][0], c[1][0][1], f.x);
    float c11 = lerp(c[1][1][0], c[1][1][1], f.x);
    return lerp(lerp(c00, c10, f.y), lerp(c01, c11, f.y), f.z);
}

ReferenceImage referenceRaycast(const Volume& volume, const RaycastParams& params, uint32_t width, uint32_t height,
                                float weightError)
{
    const ReferenceField field(volume);
    const float iso = params.iso, step = params.stepVoxels;
    ReferenceImage out;
    out.frame = rayFrame(params.camera, volume, width, height);
    const RayFrame& frame = out.frame;
    out.image.width = width;
    out.image.height = height;
    out.image.pixels.resize(size_t(width) * height * 4);
    size_t count = size_t(width) * height;
    out.depth.assign(count, 1.0f);
    out.distance.assign(count, -1.0f);
    out.decided.assign(count, 1);
    out.tolerance.assign(count, 0.0f);
    out.incidence.assign(count, 0.0f);
    out.rays.resize(count);

    // The colours go through the packed RGBA8 the push constants carry.
    const std::array<uint8_t, 4> clear = packedColor(params.clearColor);
    const glm::vec3 front = unpackRgb(packedColor(glm::vec4(params.frontColor, 1.0f)));
    const glm::vec3 back = unpackRgb(packedColor(glm::vec4(params.backColor, 1.0f)));

    std::vector<SampleError> scratch;
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            size_t i = out.pixel(x, y);
            ReferenceRay ray = referenceRay(frame, x, y, step);
            out.rays[i] = ray;
            auto pointAt = [&](float s) { return ray.start + s * ray.unit; };
            auto distanceOf = [&](int k) { return ray.s0 + float(k) * step; };
            // The samples taken, with how far a filter with weightError can move each.
            std::vector<SampleError>& samples = scratch;
            samples.clear();
            auto sample = [&](int k) {
                float sensitivity;
                float v = field.trilinear(pointAt(distanceOf(k)), sensitivity);
                samples.push_back({v, weightError * sensitivity});
                return v;
            };

            // march() in iso_standard.comp, without skipping
            float hit = -1.0f;
            int crossing = -1; // the sample after the crossing
            if (ray.samples > 0) {
                float first = sample(0);
                bool inside = isInside(first, iso); // equal to iso: inside, no hit by itself
                float previous = first;
                for (int k = 1; k < ray.samples; ++k) {
                    float value = sample(k);
                    if (isInside(value, iso) != inside) {
                        float f = (iso - previous) / (value - previous);
                        f = (f >= 0.0f && f <= 1.0f) ? f : 1.0f; // a NaN sample: the surface is at it
                        hit = distanceOf(k - 1) + f * step;
                        crossing = k;
                        break;
                    }
                    previous = value;
                }
            }
            if (crossing > 0 && crossing + 1 < ray.samples)
                sample(crossing + 1); // for the tolerance below
            judge(samples.data(), int(samples.size()), crossing, iso, step, out.decided[i], out.tolerance[i]);

            uint8_t* pixel = &out.image.pixels[i * 4];
            if (hit < 0.0f) {
                std::copy(clear.begin(), clear.end(), pixel);
                continue;
            }
            // shadeHit() and writePixel()
            glm::vec3 p = pointAt(hit);
            glm::vec3 gradient(field.trilinear(p + glm::vec3(1, 0, 0)) - field.trilinear(p - glm::vec3(1, 0, 0)),
                               field.trilinear(p + glm::vec3(0, 1, 0)) - field.trilinear(p - glm::vec3(0, 1, 0)),
                               field.trilinear(p + glm::vec3(0, 0, 1)) - field.trilinear(p - glm::vec3(0, 0, 1)));
            glm::vec3 normal = -gradient * frame.inverseSpacing;
            glm::vec3 world = frame.origin + p / frame.inverseSpacing;
            glm::vec3 toEye = frame.orthographic ? -frame.forward : glm::normalize(frame.eye - world);
            glm::vec3 color = shadeHeadlight(normal, toEye, front, back);
            pixel[0] = toUnorm8(color.r);
            pixel[1] = toUnorm8(color.g);
            pixel[2] = toUnorm8(color.b);
            pixel[3] = 255;
            out.distance[i] = hit;
            out.depth[i] = depthOf(frame, hit / ray.scale);
            float g = glm::length(gradient);
            out.incidence[i] = g > 0.0f ? std::fabs(glm::dot(gradient, ray.unit)) / g : 0.0f;
        }
    return out;
}

} // namespace isoscope::test
