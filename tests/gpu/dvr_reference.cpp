#include "dvr_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "raycast_reference.h"

namespace isoscope::test {

namespace {

constexpr float kShadeOpacity = 0.1f; // dvr_common.glsl

uint8_t toUnorm8(float v) { return uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); }

glm::vec3 gradientAt(const ReferenceField& field, glm::vec3 p, glm::vec3 hi)
{
    glm::vec3 g;
    for (int axis = 0; axis < 3; ++axis) {
        glm::vec3 e(0.0f);
        e[axis] = 1.0f;
        g[axis] = field.trilinear(glm::clamp(p + e, glm::vec3(0.0f), hi)) -
                  field.trilinear(glm::clamp(p - e, glm::vec3(0.0f), hi));
    }
    return g;
}

} // namespace

DvrReferenceImage referenceDvr(const Volume& volume, const TransferTable& table, const DvrParams& params,
                               uint32_t width, uint32_t height)
{
    ReferenceField field(volume);
    RayFrame frame = rayFrame(params.camera, volume, width, height);
    const glm::vec3 hi = glm::vec3(frame.dims - 1);
    const glm::vec3 background(params.clearColor);
    DvrReferenceImage result;
    result.image.width = width;
    result.image.height = height;
    result.image.pixels.resize(size_t(width) * height * 4);
    result.depth.assign(size_t(width) * height, 1.0f);
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            ReferenceRay ray = referenceRay(frame, x, y, params.stepVoxels);
            glm::vec3 color(0.0f);
            float alpha = 0.0f, depthS = -1.0f;
            for (int k = 0; k < ray.samples && alpha < params.terminationOpacity; ++k) {
                float s = ray.s0 + float(k) * params.stepVoxels;
                glm::vec3 p = ray.start + s * ray.unit;
                float value = field.trilinear(p);
                if (std::isnan(value))
                    continue;
                glm::vec4 c = table.lookup(value);
                float a = 1.0f - std::pow(1.0f - c.a, params.stepVoxels);
                if (!(a > 0.0f))
                    continue;
                glm::vec3 rgb(c);
                if (params.shading && c.a >= kShadeOpacity) {
                    glm::vec3 normal = -gradientAt(field, p, hi) * frame.inverseSpacing;
                    float len = glm::length(normal);
                    if (len > 0.0f) {
                        glm::vec3 world = frame.origin + p / frame.inverseSpacing;
                        glm::vec3 toEye = frame.orthographic ? -frame.forward : glm::normalize(frame.eye - world);
                        float diffuse = std::fabs(glm::dot(normal / len, toEye));
                        rgb = rgb * (0.3f + 0.7f * diffuse) + glm::vec3(0.2f * std::pow(diffuse, 32.0f));
                    }
                }
                color += (1.0f - alpha) * a * rgb;
                alpha += (1.0f - alpha) * a;
                if (depthS < 0.0f && alpha >= params.depthOpacity)
                    depthS = s;
            }
            glm::vec3 out = color + (1.0f - alpha) * background;
            size_t i = size_t(y) * width + x;
            for (int ch = 0; ch < 3; ++ch)
                result.image.pixels[i * 4 + ch] = toUnorm8(out[ch]);
            result.image.pixels[i * 4 + 3] = 255;
            if (depthS >= 0.0f)
                result.depth[i] = depthOf(frame, depthS / ray.scale);
        }
    return result;
}

double psnr(const RgbaImage& a, const RgbaImage& b)
{
    double sum = 0.0;
    size_t count = 0;
    for (size_t i = 0; i < a.pixels.size() && i < b.pixels.size(); ++i) {
        if (i % 4 == 3)
            continue;
        double d = double(a.pixels[i]) - double(b.pixels[i]);
        sum += d * d;
        ++count;
    }
    if (sum == 0.0)
        return std::numeric_limits<double>::infinity();
    return 10.0 * std::log10(255.0 * 255.0 / (sum / double(count)));
}

} // namespace isoscope::test
