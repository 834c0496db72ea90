// The isosurface raycasters (engine/raycast, issue 6) as specifications: the
// two mappings find the same surface, both match a CPU reference raycaster
// with the same sampling rule (raycast_reference.h), brick skipping changes
// no hit, the silhouette and depth are the rasterized mesh's, the awkward
// crossings of the sampling rule (thinner than a step, at the first sample,
// between two warp-marching cycles) are found, a raycast composites with a
// raster mesh by depth, the adaptive mode runs the mapping its cost model
// chooses, and non-finite samples are outside. At whatever subgroup size the
// device runs (lavapipe 4 and 8 under ctest, 32 on the H100), validation on.
// ISOSCOPE_TEST_REPORT=1 prints the measured numbers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "extract/extract.h"
#include "extract/gpu_extractor.h"
#include "mesh/gpu_mesh.h"
#include "extract_test_support.h"
#include "gpu_test_context.h"
#include "raycast/iso_raycaster.h"
#include "raycast/raycast_cost_model.h"
#include "scene/render_raycast.h"
#include "raycast_reference.h"
#include "render/image_readback.h"
#include "render/mesh_pass.h"
#include "volume/gpu_volume.h"
#include "volume/synthetic.h"

using namespace isoscope;
using namespace isoscope::test;

namespace {

constexpr VkExtent2D kExtent{128, 128};

// Measured numbers, printed when ISOSCOPE_TEST_REPORT is set (for the
// benchmark notes); the assertions never depend on it.
void report(const char* format, ...)
{
    if (!std::getenv("ISOSCOPE_TEST_REPORT"))
        return;
    std::va_list args;
    va_start(args, format);
    std::printf("[raycast] ");
    std::vprintf(format, args);
    std::printf("\n");
    va_end(args);
}

struct Field {
    const char* spec;
    float iso;
};

// Every synthetic field at a useful isovalue (synthetic.h); the torus grid is
// anisotropic so the index-space scale of a ray differs from its world length.
const Field kFields[] = {{"sphere:40", 0.6f},
                         {"torus:44x40x32", 0.04f},
                         {"cayley:40", -0.012f},
                         {"marschner-lobb:40", 0.5f},
                         {"gyroid:40", 0.0f}};

struct View {
    const char* name;
    int axis; // 0, 1, 2: looking along +x, +y, +z; -1: oblique
    bool orthographic;
};

const View kViews[] = {{"oblique", -1, false}, {"along x", 0, false}, {"along y", 1, false}, {"along z", 2, false},
                       {"oblique", -1, true},  {"along x", 0, true},  {"along y", 1, true},  {"along z", 2, true}};

glm::vec3 worldLow(const Volume& volume)
{
    return {float(volume.origin[0]), float(volume.origin[1]), float(volume.origin[2])};
}

glm::vec3 worldHigh(const Volume& volume)
{
    glm::vec3 high;
    for (int i = 0; i < 3; ++i)
        high[i] = float(volume.origin[i] + (volume.dims[i] - 1) * volume.spacing[i]);
    return high;
}

OrbitCamera viewCamera(const Volume& volume, const View& view, float azimuthDeg = 35.0f, float elevationDeg = 25.0f)
{
    OrbitCamera camera = frameBounds(worldLow(volume), worldHigh(volume), 1.0f, azimuthDeg, elevationDeg);
    if (view.axis >= 0)
        camera = cameraAlongAxis(camera, view.axis);
    camera.orthographic = view.orthographic;
    return camera;
}

RaycastParams rayParams(const OrbitCamera& camera, float iso, float step = 0.5f)
{
    RaycastParams params;
    params.camera = camera;
    params.iso = iso;
    params.stepVoxels = step;
    return params;
}

RaycastImage raycast(Context& context, IsoRaycaster& raycaster, RaycastParams params, RaycastMode mode,
                     VkExtent2D extent = kExtent)
{
    params.mode = mode;
    RaycastImage image = renderRaycastImage(context, raycaster, params, extent);
    REQUIRE(image.mode == mode);
    REQUIRE(image.image.pixels.size() == size_t(extent.width) * extent.height * 4);
    REQUIRE(image.depth.size() == size_t(extent.width) * extent.height);
    return image;
}

// The volume on the GPU and a raycaster over it.
struct RaycastSetup {
    RaycastSetup(Context& context, Volume v, const RaycastOptions& options = {})
        : volume(std::move(v)), gpuVolume(context, volume), raycaster(context, {&volume, &gpuVolume}, options)
    {
    }
    Volume volume;
    GpuVolume gpuVolume;
    IsoRaycaster raycaster;
};

// Peak signal-to-noise ratio of the RGB channels, in dB (infinite for equal images).
double psnr(const RgbaImage& a, const RgbaImage& b)
{
    REQUIRE(a.width == b.width);
    REQUIRE(a.height == b.height);
    double sum = 0.0;
    for (size_t i = 0; i < a.pixels.size(); ++i) {
        if (i % 4 == 3)
            continue;
        double d = double(a.pixels[i]) - double(b.pixels[i]);
        sum += d * d;
    }
    double mse = sum / (double(a.width) * a.height * 3.0);
    return mse == 0.0 ? std::numeric_limits<double>::infinity() : 10.0 * std::log10(255.0 * 255.0 / mse);
}

// The hit distance along each pixel's ray in voxels, from a 0..1 depth
// (viewDepthOf, times the ray's index-space scale); −1 where depth is 1.
std::vector<float> hitDistances(const RayFrame& frame, const std::vector<ReferenceRay>& rays,
                                const std::vector<float>& depth)
{
    REQUIRE(rays.size() == depth.size());
    std::vector<float> distances(depth.size(), -1.0f);
    for (size_t i = 0; i < depth.size(); ++i)
        if (depth[i] < 1.0f)
            distances[i] = distanceOfDepth(frame, rays[i], depth[i]);
    return distances;
}

std::vector<float> hitDistances(const ReferenceImage& reference, const std::vector<float>& depth)
{
    return hitDistances(reference.frame, reference.rays, depth);
}

struct HitComparison {
    uint64_t hitsA = 0, hitsB = 0;
    uint64_t maskDifferences = 0; // pixels one hits and the other does not
    uint64_t bothHit = 0;
    double maxDifference = 0.0;   // voxels along the ray, over pixels both hit (and `counted`)
    uint64_t beyond = 0;          // pixels both hit (and `counted`) further apart than `tolerance`
};

template <typename Counted>
HitComparison compareHits(const std::vector<float>& a, const std::vector<float>& b, double tolerance,
                          Counted counted)
{
    HitComparison c;
    for (size_t i = 0; i < a.size(); ++i) {
        bool hitA = a[i] >= 0.0f, hitB = b[i] >= 0.0f;
        c.hitsA += hitA;
        c.hitsB += hitB;
        c.maskDifferences += hitA != hitB;
        if (hitA && hitB && counted(i)) {
            ++c.bothHit;
            double d = std::fabs(double(a[i]) - double(b[i]));
            c.maxDifference = std::max(c.maxDifference, d);
            c.beyond += d > tolerance;
        }
    }
    return c;
}

HitComparison compareHits(const std::vector<float>& a, const std::vector<float>& b, double tolerance)
{
    return compareHits(a, b, tolerance, [](size_t) { return true; });
}

// A raster image with its D32 depth read back.
struct RasterImage {
    RgbaImage image;
    std::vector<float> depth;
};

RasterImage rasterImage(Context& context, const GpuMesh& mesh, const MeshDrawParams& params, VkExtent2D extent)
{
    MeshRenderer renderer(context);
    Image color = createColorTarget(context, extent, "test colour target");
    Buffer colorReadback = createReadbackBuffer(context, extent);
    Buffer depthReadback = createReadbackBuffer(context, extent);
    RenderGraph graph(context);
    ResourceId colorId = graph.importImage("color", graphImage(color));
    ResourceId depthId = graph.createImage("depth", extent, MeshRenderer::kDepthFormat);
    addMeshPass(graph, renderer, importMesh(graph, mesh), {colorId, depthId}, params);
    addReadbackPass(graph, colorId, colorReadback);
    addReadbackPass(graph, depthId, depthReadback);
    graph.compile();
    graph.execute();
    return {readRgba(colorReadback, extent), readFloats(depthReadback, extent)};
}

GpuMesh referenceMesh(Context& context, const Volume& volume, float iso)
{
    ExtractOptions options;
    options.method = "cpu";
    return uploadMesh(context, extractIsosurface(context, volume, iso, options).mesh);
}

// How far the device's texture filter may put a weight: 2^−subTexelPrecisionBits.
float filterWeightError(Context& context)
{
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(context.physicalDevice(), &properties);
    return std::ldexp(1.0f, -int(properties.limits.subTexelPrecisionBits));
}

// Pixels with a hit (depth below 1).
uint64_t hitPixels(const std::vector<float>& depth)
{
    return uint64_t(std::count_if(depth.begin(), depth.end(), [](float d) { return d < 1.0f; }));
}

} // namespace

TEST_CASE("the two mappings find the same surface: same hits, depths within 1e-3 voxel, PSNR >= 50 dB", "[raycast]")
{
    Context& context = gpuContext();
    double worstPsnr = std::numeric_limits<double>::infinity(), worstDistance = 0.0;
    for (const Field& field : kFields) {
        RaycastSetup setup(context, makeSyntheticVolume(field.spec));
        for (const View& view : kViews) {
            INFO(field.spec << " at iso " << field.iso << ", " << view.name
                            << (view.orthographic ? ", orthographic" : ", perspective"));
            RaycastParams params = rayParams(viewCamera(setup.volume, view), field.iso);
            RaycastImage standard = raycast(context, setup.raycaster, params, RaycastMode::Standard);
            RaycastImage warp = raycast(context, setup.raycaster, params, RaycastMode::Warp);
            RayFrame frame = rayFrame(params.camera, setup.volume, kExtent.width, kExtent.height);
            std::vector<ReferenceRay> rays = referenceRays(frame, params.stepVoxels);
            HitComparison hits = compareHits(hitDistances(frame, rays, standard.depth),
                                             hitDistances(frame, rays, warp.depth), 1e-3);
            double p = psnr(standard.image, warp.image);
            INFO("hits " << hits.hitsA << " / " << hits.hitsB << ", mask differences " << hits.maskDifferences
                         << ", largest distance difference " << hits.maxDifference << " voxels, PSNR " << p);
            CHECK(hits.hitsA > 500);
            CHECK(hits.hitsA < uint64_t(kExtent.width) * kExtent.height - 500); // a silhouette, not a full frame
            CHECK(hits.maskDifferences == 0);
            CHECK(hits.beyond == 0);
            CHECK(p >= 50.0);
            worstPsnr = std::min(worstPsnr, p);
            worstDistance = std::max(worstDistance, hits.maxDifference);
        }
    }
    report("standard vs warp: worst PSNR %.2f dB, largest hit distance difference %.3g voxels", worstPsnr,
           worstDistance);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("both mappings match the CPU reference raycaster: PSNR >= 45 dB, hits within the filter's precision",
          "[raycast]")
{
    // The reference takes the GPU's samples at the GPU's points; only the
    // texture filter differs. lavapipe filters float32 in float; a real GPU
    // rounds its weights to subTexelPrecisionBits (8 on the H100), which
    // moves a sample's value by up to 2^−bits × the cell's edge differences.
    // A ray none of whose samples lies that close to the isovalue is decided:
    // every such filter takes its decisions, so the GPU must hit where the
    // reference does and miss where it misses, and place the hit within the
    // distance those value errors allow through the interpolation (plus 1e-3
    // voxel for float rounding of rays and depths). Over decided pixels the
    // images agree with PSNR >= 45 dB. Undecided rays (silhouettes grazed
    // within a filter error) are few: at most 10% as many as the hits.
    Context& context = gpuContext();
    const float weightError = filterWeightError(context);
    double worstPsnr[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    double worstFullPsnr[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    double worstDistance[2] = {0.0, 0.0};
    double worstUndecided = 0.0;
    for (const Field& field : kFields) {
        RaycastSetup setup(context, makeSyntheticVolume(field.spec));
        for (const View& view : kViews) {
            RaycastParams params = rayParams(viewCamera(setup.volume, view), field.iso);
            ReferenceImage reference =
                referenceRaycast(setup.volume, params, kExtent.width, kExtent.height, weightError);
            uint64_t referenceHits = hitPixels(reference.depth), undecided = 0;
            for (uint8_t d : reference.decided)
                undecided += !d;
            INFO(field.spec << " at iso " << field.iso << ", " << view.name
                            << (view.orthographic ? ", orthographic, " : ", perspective, ") << referenceHits
                            << " pixels hit by the reference, " << undecided << " undecided");
            CHECK(referenceHits > 500);
            CHECK(double(undecided) <= 0.1 * double(referenceHits));
            worstUndecided = std::max(worstUndecided, double(undecided) / double(referenceHits));
            for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp}) {
                INFO(raycastModeName(mode));
                RaycastImage gpu = raycast(context, setup.raycaster, params, mode);
                std::vector<float> distances = hitDistances(reference, gpu.depth);
                uint64_t maskDifferences = 0, beyond = 0;
                double largest = 0.0;
                RgbaImage decidedOnly = gpu.image; // undecided pixels replaced by the reference's
                for (size_t i = 0; i < distances.size(); ++i) {
                    if (!reference.decided[i]) {
                        std::memcpy(&decidedOnly.pixels[i * 4], &reference.image.pixels[i * 4], 4);
                        continue;
                    }
                    bool hit = distances[i] >= 0.0f, referenceHit = reference.distance[i] >= 0.0f;
                    maskDifferences += hit != referenceHit;
                    if (hit && referenceHit) {
                        double d = std::fabs(double(distances[i]) - double(reference.distance[i]));
                        beyond += d > double(reference.tolerance[i]) + 1e-3;
                        largest = std::max(largest, d);
                    }
                }
                double p = psnr(decidedOnly, reference.image), full = psnr(gpu.image, reference.image);
                INFO(maskDifferences << " decided pixels hit differently, " << beyond
                                     << " hits beyond their tolerance, largest difference " << largest
                                     << " voxel; PSNR " << p << " dB over decided pixels, " << full << " over all");
                CHECK(maskDifferences == 0);
                CHECK(beyond == 0);
                CHECK(p >= 45.0);
                int m = mode == RaycastMode::Warp;
                worstPsnr[m] = std::min(worstPsnr[m], p);
                worstFullPsnr[m] = std::min(worstFullPsnr[m], full);
                worstDistance[m] = std::max(worstDistance[m], largest);
            }
        }
    }
    report("filter weight error %g; at most %.2f%% of the hits undecided", weightError, 100.0 * worstUndecided);
    for (int m = 0; m < 2; ++m)
        report("%s vs CPU reference: worst PSNR %.2f dB over decided pixels (%.2f dB over all), largest hit "
               "distance difference %.3g voxels on decided pixels",
               m ? "warp" : "standard", worstPsnr[m], worstFullPsnr[m], worstDistance[m]);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("empty-space skipping changes no hit: the same image and depths with and without it, at several brick sizes",
          "[raycast]")
{
    Context& context = gpuContext();
    for (const Field& field : kFields) {
        Volume volume = makeSyntheticVolume(field.spec);
        RaycastSetup skipping(context, volume);
        RaycastSetup marching(context, volume, RaycastOptions{.skipEmpty = false});
        // The field's own isovalue from every view; a quarter, half and three
        // quarters of its range (other brick classes) from two.
        struct Case {
            float iso;
            const View& view;
        };
        std::vector<Case> cases;
        for (const View& view : kViews)
            cases.push_back({field.iso, view});
        for (float iso : spreadIsovalues(volume))
            for (const View* view : {&kViews[0], &kViews[5]})
                cases.push_back({iso, *view});
        for (const Case& c : cases) {
            RaycastParams params = rayParams(viewCamera(volume, c.view), c.iso);
            for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp}) {
                INFO(field.spec << " at iso " << c.iso << ", " << c.view.name
                                << (c.view.orthographic ? ", orthographic, " : ", perspective, ")
                                << raycastModeName(mode));
                RaycastImage skipped = raycast(context, skipping.raycaster, params, mode);
                RaycastImage marched = raycast(context, marching.raycaster, params, mode);
                uint64_t differentColor = 0, differentDepth = 0;
                float largestDepthDifference = 0.0f;
                for (size_t i = 0; i < skipped.depth.size(); ++i) {
                    differentColor += std::memcmp(&skipped.image.pixels[i * 4], &marched.image.pixels[i * 4], 4) != 0;
                    differentDepth += skipped.depth[i] != marched.depth[i];
                    largestDepthDifference =
                        std::max(largestDepthDifference, std::fabs(skipped.depth[i] - marched.depth[i]));
                }
                INFO(hitPixels(skipped.depth) << " pixels hit with skipping, " << hitPixels(marched.depth)
                                              << " without; depths differ by up to " << largestDepthDifference);
                CHECK(hitPixels(marched.depth) > 100);
                CHECK(differentColor == 0);
                CHECK(differentDepth == 0);
            }
        }
        // Other brick sizes (bench-raycast --brick): the smallest allowed, one
        // that is not a power of two, a large one; the field's own isovalue.
        // And macro cells (the Standard mapping's second level) small enough
        // that these volumes hold several: 24 voxels (3-voxel bricks, 8 a
        // side), 8 and 9 voxels; and none.
        struct Levels {
            uint32_t brick, macroBricks;
        };
        for (Levels levels : {Levels{3, 8}, Levels{5, 8}, Levels{16, 8}, Levels{4, 2}, Levels{3, 3}, Levels{8, 0}}) {
            const uint32_t brick = levels.brick;
            RaycastSetup bricks(context, volume, RaycastOptions{.brick = brick, .macroBricks = levels.macroBricks});
            for (const View* view : {&kViews[0], &kViews[5]}) {
                RaycastParams params = rayParams(viewCamera(volume, *view), field.iso);
                for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp}) {
                    INFO(field.spec << ", " << brick << "-voxel bricks, macro cells of " << levels.macroBricks
                                    << ", " << view->name << ", " << raycastModeName(mode));
                    RaycastImage skipped = raycast(context, bricks.raycaster, params, mode);
                    RaycastImage marched = raycast(context, marching.raycaster, params, mode);
                    CHECK(hitPixels(marched.depth) > 100);
                    CHECK(skipped.depth == marched.depth);
                    CHECK(skipped.image.pixels == marched.image.pixels);
                }
            }
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("macro cells skip wide empty space and change no hit: a small sphere in a large volume", "[raycast]")
{
    // Most macro cells hold only outside samples, so rays take long macro
    // jumps and land near the sphere: a jump past a cell's reach would step
    // over part of it and change hits or depths.
    Context& context = gpuContext();
    Volume volume = makeSyntheticVolume("sphere:64");
    const float iso = 0.25f; // a radius of about 8 voxels
    RaycastSetup marching(context, volume, RaycastOptions{.skipEmpty = false});
    struct Levels {
        uint32_t brick, macroBricks;
    };
    for (Levels levels : {Levels{4, 2}, Levels{3, 3}, Levels{8, 2}, Levels{3, 8}}) {
        RaycastSetup macro(context, volume, RaycastOptions{.brick = levels.brick, .macroBricks = levels.macroBricks});
        for (const View& view : kViews) {
            INFO(levels.brick << "-voxel bricks, macro cells of " << levels.macroBricks << ", " << view.name
                              << (view.orthographic ? ", orthographic" : ", perspective"));
            RaycastParams params = rayParams(viewCamera(volume, view), iso);
            RaycastImage skipped = raycast(context, macro.raycaster, params, RaycastMode::Standard);
            RaycastImage marched = raycast(context, marching.raycaster, params, RaycastMode::Standard);
            CHECK(hitPixels(marched.depth) > 100);
            CHECK(skipped.depth == marched.depth);
            CHECK(skipped.image.pixels == marched.image.pixels);
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("rays the Standard mapping hands to warp marching keep their hits: the tail at several budgets",
          "[raycast]")
{
    // Budget 0 never hands a ray on; 1 hands on every ray that needs a second
    // dense stride, so most hits are found by the tail pass; 3 fewer. The
    // tail pass loads 4, 1 or 3 warp-marching cycles at a time. With a
    // lookup limit of 1 or 3 (and room for 8 dense strides) rays are handed
    // on between two skipping lookups instead, mostly before any dense
    // stride. The
    // same samples and crossing rule either way: the mask is the same, the
    // hits within 1e-3 voxel and the images within PSNR 50 dB (the two
    // shaders may round their arithmetic differently on some devices).
    Context& context = gpuContext();
    uint64_t handedOn = 0;
    for (const Field& field : kFields) {
        Volume volume = makeSyntheticVolume(field.spec);
        RaycastSetup whole(context, volume, RaycastOptions{.tailBudget = 0});
        struct Tail {
            uint32_t budget, cyclesPerLoad, lookups;
        };
        for (Tail t : {Tail{1, 4, 0}, Tail{3, 1, 0}, Tail{1, 3, 0}, Tail{8, 2, 1}, Tail{8, 2, 3}}) {
            const uint32_t budget = t.budget;
            RaycastSetup tail(context, volume,
                              RaycastOptions{.tailBudget = budget,
                                             .tailLookups = t.lookups,
                                             .tailCyclesPerLoad = t.cyclesPerLoad});
            for (const View& view : kViews) {
                INFO(field.spec << " at iso " << field.iso << ", " << view.name
                                << (view.orthographic ? ", orthographic" : ", perspective") << ", budget " << budget
                                << ", lookups " << t.lookups << ", " << t.cyclesPerLoad << " cycles a load");
                RaycastParams params = rayParams(viewCamera(volume, view), field.iso);
                RaycastImage reference = raycast(context, whole.raycaster, params, RaycastMode::Standard);
                RaycastImage handed = raycast(context, tail.raycaster, params, RaycastMode::Standard);
                CHECK(reference.handedOnRays == 0);
                RayFrame frame = rayFrame(params.camera, volume, kExtent.width, kExtent.height);
                std::vector<ReferenceRay> rays = referenceRays(frame, params.stepVoxels);
                HitComparison hits = compareHits(hitDistances(frame, rays, reference.depth),
                                                 hitDistances(frame, rays, handed.depth), 1e-3);
                double p = psnr(reference.image, handed.image);
                INFO(handed.handedOnRays << " rays handed on; hits " << hits.hitsA << " / " << hits.hitsB
                                         << ", mask differences " << hits.maskDifferences << ", PSNR " << p);
                CHECK(hits.hitsA > 500);
                CHECK(hits.maskDifferences == 0);
                CHECK(hits.beyond == 0);
                CHECK(p >= 50.0);
                if (budget == 1 || t.lookups == 1)
                    CHECK(handed.handedOnRays > 100);
                handedOn += handed.handedOnRays;
            }
        }
    }
    report("tail: %llu rays handed on to warp marching over all cases", (unsigned long long)handedOn);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the raycast silhouette matches the rasterized mesh (IoU >= 0.99), and so does its depth", "[raycast]")
{
    // The mesh is the CPU reference's marching cubes at the same isovalue,
    // drawn by the raster pass with the same camera; its D32 depth is read
    // back. The two surfaces are not the same one: marching cubes puts
    // vertices on cell edges by linear interpolation and joins them by flat
    // triangles, the raycaster finds the trilinear field's isosurface between
    // samples half a voxel apart. Each departs from the smooth surface by
    // about h²κ/8 (h one voxel, κ the curvature, here at most 1/6 voxel⁻¹ on
    // the torus's tube): a few hundredths of a voxel across the surface,
    // which along a ray meeting it at cos θ is that divided by cos θ. So
    // where cos θ >= 0.5 the median depth difference must be under 0.02
    // voxel, and 99.75% of them under 0.1 voxel: the rest are pixels where
    // the two surfaces differ in shape, not in depth (a triangle across a
    // dip of the trilinear field that stays within 0.01 of the isovalue
    // without crossing it, seen on the gyroid: the raycast looks past it, as
    // does the reference raycaster at a step of 0.002 voxel).
    //
    // Smooth surfaces only: the Cayley cubic's four cone tips narrow below
    // any step, and there marching cubes and the trilinear field disagree in
    // topology (measured at 48³: IoU 0.988 at step 0.5, 0.995 at step 0.1).
    Context& context = gpuContext();
    const Field fields[] = {{"sphere:48", 0.6f}, {"torus:48", 0.04f}, {"gyroid:48", 0.0f}};
    double worstIou = 1.0, worstMedian = 0.0, worstShare = 0.0;
    for (const Field& field : fields) {
        RaycastSetup setup(context, makeSyntheticVolume(field.spec));
        GpuMesh mesh = referenceMesh(context, setup.volume, field.iso);
        for (const View& view : {kViews[0], kViews[4], kViews[2], kViews[7]}) {
            RaycastParams params = rayParams(viewCamera(setup.volume, view, 50.0f, 30.0f), field.iso);
            MeshDrawParams meshParams;
            meshParams.camera = params.camera;
            RasterImage raster = rasterImage(context, mesh, meshParams, kExtent);
            ReferenceImage reference = referenceRaycast(setup.volume, params, kExtent.width, kExtent.height);
            std::vector<float> meshDistances = hitDistances(reference, raster.depth);
            for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp}) {
                INFO(field.spec << " at iso " << field.iso << ", " << view.name
                                << (view.orthographic ? ", orthographic, " : ", perspective, ")
                                << raycastModeName(mode));
                RaycastImage ray = raycast(context, setup.raycaster, params, mode);
                std::vector<float> rayDistances = hitDistances(reference, ray.depth);
                uint64_t both = 0, either = 0, covered = 0;
                std::vector<double> differences; // where both hit and cos θ >= 0.5
                for (size_t i = 0; i < rayDistances.size(); ++i) {
                    bool byRay = rayDistances[i] >= 0.0f, byMesh = meshDistances[i] >= 0.0f;
                    both += byRay && byMesh;
                    either += byRay || byMesh;
                    covered += byMesh;
                    if (byRay && byMesh && reference.incidence[i] >= 0.5f)
                        differences.push_back(std::fabs(double(rayDistances[i]) - double(meshDistances[i])));
                }
                REQUIRE(differences.size() > covered / 5);
                std::sort(differences.begin(), differences.end());
                double iou = double(both) / double(either);
                double median = differences[differences.size() / 2];
                auto firstBeyond = std::upper_bound(differences.begin(), differences.end(), 0.1);
                double beyond = double(differences.end() - firstBeyond);
                double share = beyond / double(differences.size());
                INFO("covered by the raycast " << either - covered + both << ", by the mesh " << covered << ", IoU "
                                               << iou << "; depth differences where cos >= 0.5: median " << median
                                               << " voxel, " << beyond << " of " << differences.size()
                                               << " beyond 0.1 voxel, largest " << differences.back());
                CHECK(covered > 500);
                CHECK(iou >= 0.99);
                CHECK(median <= 0.02);
                CHECK(share <= 0.0025);
                worstIou = std::min(worstIou, iou);
                worstMedian = std::max(worstMedian, median);
                worstShare = std::max(worstShare, share);
            }
        }
    }
    report("raycast vs raster mesh: worst IoU %.4f; depth where cos >= 0.5: worst median %.4f voxel, at most %.3f%% "
           "of pixels beyond 0.1 voxel",
           worstIou, worstMedian, 100.0 * worstShare);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a surface thinner than one step: the reference's hits, and every ray through it with a small step",
          "[raycast]")
{
    // A plane of 1s at x = 16 in zeros: the trilinear field is 1 − |x − 16|,
    // so at iso 0.85 the inside is a slab 0.3 voxel thick. A ray crossing it
    // at cos θ to its normal meets 0.3 / cos θ voxels of it: less than the
    // 0.5-voxel step when cos θ > 0.6, and it hits or misses depending on
    // where its samples fall. Looking obliquely along +x, both happen.
    Context& context = gpuContext();
    const float plane = 16.0f, iso = 0.85f, face = plane - (1.0f - iso);
    Volume volume = functionVolume({32, 32, 32}, [&](uint32_t x, uint32_t, uint32_t) { return x == 16 ? 1.0f : 0.0f; },
                                   "plane x=16");
    RaycastSetup setup(context, volume);
    View view{"oblique along x", -1, false};
    OrbitCamera camera = viewCamera(volume, view, 180.0f + 20.0f, 12.0f);

    // At the default step: exactly the reference's hits on every decided ray
    // (no sample within the filter's weight error of the isovalue, here
    // 2^−subTexelPrecisionBits voxel of the slab's faces: there a filter
    // whose weights are rounded may put it on the other side).
    const float weightError = filterWeightError(context);
    RaycastParams params = rayParams(camera, iso, 0.5f);
    ReferenceImage reference = referenceRaycast(volume, params, kExtent.width, kExtent.height, weightError);
    uint64_t undecided = 0, referenceHits = 0, referenceMisses = 0;
    for (size_t i = 0; i < reference.distance.size(); ++i) {
        if (!reference.decided[i])
            ++undecided;
        else if (reference.rays[i].samples > 0)
            (reference.distance[i] >= 0.0f ? referenceHits : referenceMisses) += 1;
    }
    INFO("reference: " << referenceHits << " rays hit, " << referenceMisses << " miss, " << undecided
                       << " undecided");
    // Both outcomes occur among rays that cross the plane.
    REQUIRE(referenceHits > 1000);
    uint64_t crossingMisses = 0;
    for (size_t i = 0; i < reference.rays.size(); ++i) {
        const ReferenceRay& ray = reference.rays[i];
        float t = (plane - ray.start.x) / ray.unit.x;
        glm::vec3 q = ray.start + t * ray.unit;
        bool throughPlane = ray.samples > 0 && q.y > 0.5f && q.y < 30.5f && q.z > 0.5f && q.z < 30.5f;
        crossingMisses += throughPlane && reference.distance[i] < 0.0f && reference.decided[i];
    }
    REQUIRE(crossingMisses > 1000);
    REQUIRE(undecided < reference.rays.size() / 20);
    for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp}) {
        INFO(raycastModeName(mode));
        RaycastImage gpu = raycast(context, setup.raycaster, params, mode);
        std::vector<float> distances = hitDistances(reference, gpu.depth);
        uint64_t different = 0, differentUndecided = 0;
        for (size_t i = 0; i < distances.size(); ++i) {
            bool differs = (distances[i] >= 0.0f) != (reference.distance[i] >= 0.0f);
            (reference.decided[i] ? different : differentUndecided) += differs;
        }
        INFO(different << " decided rays hit differently from the reference, " << differentUndecided
                       << " undecided ones");
        CHECK(different == 0);
        report("thin plane, step 0.5, %s: %llu of %llu decided rays differ from the reference, %llu of %llu undecided",
               std::string(raycastModeName(mode)).c_str(), (unsigned long long)different,
               (unsigned long long)(distances.size() - undecided), (unsigned long long)differentUndecided,
               (unsigned long long)undecided);
    }

    // At a step of 0.1 voxel (less than the slab's 0.3) every ray through the
    // plane inside the box hits, at its front face x = 15.85 (the field is
    // linear between the two samples that straddle it: exactly there with
    // float weights, within the reference's tolerance for rounded ones), and
    // no other ray hits.
    params.stepVoxels = 0.1f;
    reference = referenceRaycast(volume, params, kExtent.width, kExtent.height, weightError);
    for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp}) {
        INFO(raycastModeName(mode) << " at step 0.1");
        RaycastImage gpu = raycast(context, setup.raycaster, params, mode);
        std::vector<float> distances = hitDistances(reference, gpu.depth);
        uint64_t through = 0, missed = 0, strays = 0;
        double worstFace = 0.0;
        for (size_t i = 0; i < distances.size(); ++i) {
            const ReferenceRay& ray = reference.rays[i];
            float t = (plane - ray.start.x) / ray.unit.x;
            glm::vec3 q = ray.start + t * ray.unit;
            bool inside = q.y > 0.5f && q.y < 30.5f && q.z > 0.5f && q.z < 30.5f;
            bool outside = q.y < -0.5f || q.y > 31.5f || q.z < -0.5f || q.z > 31.5f;
            if (ray.samples > 0 && inside) {
                ++through;
                missed += distances[i] < 0.0f;
                if (distances[i] >= 0.0f) {
                    double offFace = std::fabs(double(ray.start.x + distances[i] * ray.unit.x) - double(face));
                    double allowed = double(reference.tolerance[i]) * std::fabs(ray.unit.x) + 1e-3;
                    worstFace = std::max(worstFace, offFace / allowed);
                }
            } else if (ray.samples == 0 || outside) {
                strays += distances[i] >= 0.0f;
            }
        }
        INFO(through << " rays through the plane, " << missed << " missed it; " << strays
                     << " hits off it; hits at most " << worstFace << " of their tolerance from x = " << face);
        CHECK(through > 2000);
        CHECK(missed == 0);
        CHECK(strays == 0);
        CHECK(worstFace <= 1.0);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a volume flat at the isovalue has no surface: no extractor triangle, no raycast hit", "[raycast]")
{
    // Every sample equal to the isovalue: all inside (v >= iso), so the
    // extractors find no cell with corners on both sides. The raycasters once
    // took a first sample equal to the isovalue for a hit and drew the
    // volume's bounding box (issue 21); they must agree with the extractors.
    Context& context = gpuContext();
    for (float value : {0.5f, 0.0f, -0.012f}) {
        Volume volume = functionVolume({20, 18, 16}, [&](uint32_t, uint32_t, uint32_t) { return value; }, "flat");
        for (const std::string& method : extractionMethods()) {
            ExtractOptions options;
            options.method = method;
            INFO("value " << value << ", " << method);
            CHECK(extractIsosurface(context, volume, value, options).faceCount == 0);
        }
        for (bool skip : {true, false}) {
            RaycastOptions options;
            options.skipEmpty = skip;
            RaycastSetup setup(context, volume, options);
            for (const View& view : {kViews[0], kViews[1], kViews[4], kViews[7]}) {
                RaycastParams params = rayParams(viewCamera(volume, view), value);
                CHECK(hitPixels(referenceRaycast(volume, params, kExtent.width, kExtent.height).depth) == 0);
                for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp}) {
                    INFO("value " << value << ", " << view.name << (view.orthographic ? " ortho, " : " persp, ")
                                  << raycastModeName(mode) << (skip ? ", skipping" : ", marching every sample"));
                    CHECK(hitPixels(raycast(context, setup.raycaster, params, mode).depth) == 0);
                }
            }
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a surface through the first sample is hit where the field leaves the inside, as the extractors place it",
          "[raycast]")
{
    // v = max(x − 1, 0) and its negative, iso 0: the first voxel layers equal
    // the isovalue, so a ray entering the box at x <= 1 has a first sample
    // exactly at it (whatever the rounding of its entry point). Such a
    // sample is inside, as in the extractors. The first field never leaves
    // the inside: no triangle, no hit. The second leaves it past x = 1: the
    // extractors' surface is at x = 1, and a ray entering at x <= 1 hits it
    // within one step before x = 1 (the field bends there, so the linear
    // interpolation between the straddling samples puts the crossing at the
    // last sample equal to the isovalue). A ray entering past x = 1 starts
    // outside and stays there: no hit.
    Context& context = gpuContext();
    for (float sign : {1.0f, -1.0f}) {
        Volume volume = functionVolume(
            {24, 24, 24}, [&](uint32_t x, uint32_t, uint32_t) { return sign * std::max(float(x) - 1.0f, 0.0f); },
            sign > 0 ? "max(x - 1, 0)" : "-max(x - 1, 0)");
        ExtractOptions cpu;
        cpu.method = "cpu";
        uint64_t faces = extractIsosurface(context, volume, 0.0f, cpu).faceCount;
        CHECK((faces > 0) == (sign < 0));
        RaycastSetup setup(context, volume);
        for (bool orthographic : {false, true}) {
            // Orthographic along +x: every ray enters through the face x = 0.
            // Perspective, from the side of −x and −y: some enter through the
            // face y = 0, past x = 1.
            OrbitCamera camera = orthographic ? viewCamera(volume, View{"along x", 0, true})
                                              : viewCamera(volume, View{"oblique", -1, false}, 200.0f, 15.0f);
            RaycastParams params = rayParams(camera, 0.0f);
            ReferenceImage reference = referenceRaycast(volume, params, kExtent.width, kExtent.height);
            // A filter whose weights are rounded to subTexelPrecisionBits reads
            // a sample within that much of x = 1 as the flat layer's exact
            // value, so the edge of the layer is that wide (1/256 voxel on the H100).
            const float edge = filterWeightError(context) + 1e-3f;
            for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp}) {
                INFO(volume.source << (orthographic ? ", orthographic, " : ", perspective, ") << raycastModeName(mode));
                RaycastImage gpu = raycast(context, setup.raycaster, params, mode);
                std::vector<float> distances = hitDistances(reference, gpu.depth);
                uint64_t atSurface = 0, wrong = 0, pastOne = 0;
                double worst = 0.0;
                for (size_t i = 0; i < distances.size(); ++i) {
                    const ReferenceRay& ray = reference.rays[i];
                    if (ray.samples == 0) {
                        wrong += distances[i] >= 0.0f;
                        continue;
                    }
                    float entryX = ray.start.x + ray.s0 * ray.unit.x;
                    float lastX = ray.start.x + (ray.s0 + float(ray.samples - 1) * params.stepVoxels) * ray.unit.x;
                    if (std::fabs(entryX - 1.0f) < edge || std::fabs(lastX - 1.0f) < edge)
                        continue; // at the edge of the flat layer: either is right
                    // Hit where a ray from the flat layer samples past x = 1 (one leaving the box first does not).
                    bool expected = sign < 0 && entryX < 1.0f && lastX > 1.0f;
                    pastOne += entryX > 1.0f;
                    if (expected != (distances[i] >= 0.0f)) {
                        ++wrong;
                        continue;
                    }
                    if (expected) {
                        ++atSurface;
                        // Within one step before x = 1, along the ray.
                        float hitX = ray.start.x + distances[i] * ray.unit.x;
                        float stepX = params.stepVoxels * std::fabs(ray.unit.x) + 1e-3f;
                        worst = std::max(worst, double(std::max(hitX - 1.0f, 1.0f - stepX - hitX)));
                    }
                }
                INFO(atSurface << " rays hit the surface at x = 1, " << wrong << " wrong; " << pastOne
                               << " rays enter past x = 1; the worst hit is " << worst << " voxel outside its step");
                CHECK(wrong == 0);
                CHECK(worst <= edge);
                if (sign < 0)
                    CHECK(atSurface > 2000);
                if (!orthographic)
                    CHECK(pastOne > 100);
            }
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a crossing in the gap between two warp-marching cycles is found by both mappings", "[raycast]")
{
    // Warp marching takes one sample a lane; each cycle starts at the last
    // sample of the one before, so with W lanes cycle j takes samples
    // j(W − 1) … j(W − 1) + W − 1 (iso_warp.comp). A crossing between sample
    // m(W − 1) and the next lies between two cycles: it is seen only because
    // of that step back. v = x − c, looking along +x (orthographic, so every
    // ray enters at x = 0 and sample k lies at x = k / 2), crosses at x = c.
    // Marching every sample keeps the cycles where they are; with brick
    // skipping they start where a skip lands, which must find c as well.
    Context& context = gpuContext();
    const uint32_t W = context.info().subgroupSize;
    const float step = 0.5f;
    std::vector<float> crossings;
    for (uint32_t m = 1; m <= 3; ++m) {
        float boundary = float(m * (W - 1)) * step; // sample m(W − 1), the last of cycle m − 1
        for (float f : {0.0f, 0.25f, 0.5f, 0.999f, 1.0f})
            crossings.push_back(boundary + f * step);
    }
    const uint32_t length = uint32_t(crossings.back()) + 12;
    INFO("subgroup size " << W << ", volume " << length << " voxels along x");
    for (float c : crossings) {
        Volume volume = functionVolume({length, 12, 12}, [&](uint32_t x, uint32_t, uint32_t) { return float(x) - c; },
                                       "x - c");
        OrbitCamera camera;
        camera.target = {0.5f * float(length - 1), 5.5f, 5.5f};
        camera.azimuthDeg = 180.0f; // looking along +x
        camera.elevationDeg = 0.0f;
        camera.orthographic = true;
        camera.distance = float(length);
        camera.fovYDeg = glm::degrees(2.0f * std::atan(4.0f / camera.distance)); // the view: 8 voxels high
        camera.nearPlane = 1.0f;
        camera.farPlane = 3.0f * float(length);
        RaycastParams params = rayParams(camera, 0.0f, step);
        const VkExtent2D extent{8, 8};
        ReferenceImage reference = referenceRaycast(volume, params, extent.width, extent.height);
        for (bool skip : {false, true}) {
            RaycastSetup setup(context, volume, RaycastOptions{.skipEmpty = skip});
            for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp}) {
                INFO("crossing at x = " << c << ", " << raycastModeName(mode)
                                        << (skip ? ", skipping empty space" : ", every sample"));
                RaycastImage gpu = raycast(context, setup.raycaster, params, mode, extent);
                std::vector<float> distances = hitDistances(reference, gpu.depth);
                double worst = 0.0;
                uint64_t misses = 0;
                for (size_t i = 0; i < distances.size(); ++i) {
                    const ReferenceRay& ray = reference.rays[i];
                    REQUIRE(std::fabs(ray.start.x + ray.s0 * ray.unit.x) < 1e-3f); // enters at x = 0
                    if (distances[i] < 0.0f) {
                        ++misses;
                        continue;
                    }
                    worst = std::max(worst, std::fabs(double(ray.start.x + distances[i] * ray.unit.x) - double(c)));
                }
                INFO(misses << " of " << distances.size() << " rays missed; hits at most " << worst
                            << " voxel from x = c");
                CHECK(misses == 0);
                CHECK(worst <= 1e-3);
            }
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a raycast composites with a raster mesh by depth: each pixel shows the nearer surface", "[raycast]")
{
    // The mesh: the sphere of radius 0.6 (marching cubes); the raycast: the
    // torus of tube radius 0.2 around a ring of 0.55, which pokes out of the
    // sphere. One frame draws the mesh and then raycasts with the rays
    // stopping at the mesh's depth; each pixel must show what the separate
    // images say is nearer. The rays stop at the mesh, so a crossing less
    // than one step in front of it may be cut off: pixels where the two
    // surfaces are within a step of each other are not judged.
    Context& context = gpuContext();
    RaycastSetup setup(context, makeSyntheticVolume("torus:40"));
    GpuMesh sphere = referenceMesh(context, makeSyntheticVolume("sphere:40"), 0.6f);
    for (const View& view : {kViews[0], kViews[4]}) {
        // Framed on the middle of the volume, where both surfaces are.
        OrbitCamera camera = frameBounds(glm::vec3(-0.5f), glm::vec3(0.5f), 1.0f, 35.0f, 25.0f);
        camera.orthographic = view.orthographic;
        RaycastParams params = rayParams(camera, 0.04f);
        MeshDrawParams meshParams;
        meshParams.camera = params.camera;
        meshParams.frontColor = {0.30f, 0.80f, 0.35f};
        meshParams.backColor = {0.80f, 0.30f, 0.35f};
        RasterImage raster = rasterImage(context, sphere, meshParams, kExtent);
        RayFrame frame = rayFrame(params.camera, setup.volume, kExtent.width, kExtent.height);
        std::vector<ReferenceRay> rays = referenceRays(frame, params.stepVoxels);
        std::vector<float> meshDistances = hitDistances(frame, rays, raster.depth);
        for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp}) {
            INFO(view.name << (view.orthographic ? ", orthographic, " : ", perspective, ") << raycastModeName(mode));
            RaycastImage alone = raycast(context, setup.raycaster, params, mode);
            params.mode = mode;
            RaycastImage composite =
                renderRaycastImage(context, setup.raycaster, params, kExtent, &sphere, &meshParams);
            std::vector<float> rayDistances = hitDistances(frame, rays, alone.depth);
            uint64_t rayNearer = 0, meshNearer = 0, neither = 0, close = 0, wrong = 0;
            for (size_t i = 0; i < rays.size(); ++i) {
                const uint8_t* shown = &composite.image.pixels[i * 4];
                float r = rayDistances[i], m = meshDistances[i];
                bool sameAsRay = std::memcmp(shown, &alone.image.pixels[i * 4], 4) == 0 &&
                                 composite.depth[i] == alone.depth[i];
                bool sameAsMesh = std::memcmp(shown, &raster.image.pixels[i * 4], 4) == 0 &&
                                  composite.depth[i] == raster.depth[i];
                if (r < 0.0f && m < 0.0f) {
                    ++neither; // the mesh pass's clear colour, depth 1
                    wrong += !(sameAsMesh && composite.depth[i] == 1.0f);
                } else if (r >= 0.0f && (m < 0.0f || r < m - params.stepVoxels - 1e-3f)) {
                    ++rayNearer;
                    wrong += !sameAsRay;
                } else if (m >= 0.0f && (r < 0.0f || m < r - 1e-3f)) {
                    ++meshNearer;
                    wrong += !sameAsMesh;
                } else {
                    ++close;
                }
            }
            INFO(rayNearer << " pixels show the raycast, " << meshNearer << " the mesh, " << neither << " neither, "
                           << close << " not judged; " << wrong << " wrong");
            CHECK(rayNearer > 1000);
            CHECK(meshNearer > 1000);
            CHECK(close < rayNearer / 10);
            CHECK(wrong == 0);
            report("compositing, %s%s, %s: %llu raycast, %llu mesh, %llu neither, %llu within a step, %llu wrong",
                   view.name, view.orthographic ? " orthographic" : " perspective",
                   std::string(raycastModeName(mode)).c_str(), (unsigned long long)rayNearer,
                   (unsigned long long)meshNearer, (unsigned long long)neither, (unsigned long long)close,
                   (unsigned long long)wrong);
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the adaptive mode's cost model interpolates its measured directions and chooses the lower prediction",
          "[raycast]")
{
    std::array<glm::vec3, kCalibrationDirections> directions = calibrationDirections();
    RaycastCostModel model;
    // Standard: its time grows with the angle from z (fast facing XY);
    // warp: 3 ms everywhere.
    for (int j = 0; j < kCalibrationDirections; ++j) {
        // 1 along z, about 7.3 along x, 8.9 along y
        model.standardMs[j] = 1.0 + 4.0 * std::acos(double(directions[j].z)) +
                              std::atan2(double(directions[j].y), double(directions[j].x));
        model.warpMs[j] = 3.0;
    }
    CHECK_THROWS_AS(model.choose({1.0f, 0.0f, 0.0f}), Error); // not calibrated yet
    model.calibrated = true;

    // The grid: unit directions of the positive octant, z first, x at polar 90° azimuth 0°.
    CHECK(directions[0] == glm::vec3(0.0f, 0.0f, 1.0f));
    for (int j = 0; j < kCalibrationDirections; ++j) {
        INFO("direction " << j);
        CHECK(glm::length(directions[j]) == Approx(1.0));
        CHECK(glm::all(glm::greaterThanEqual(directions[j], glm::vec3(-1e-6f))));
        // At a measured direction, its measurement, whatever the length and signs.
        CHECK(model.predictMs(RaycastMode::Standard, directions[j]) == Approx(model.standardMs[j]));
        CHECK(model.predictMs(RaycastMode::Standard, -3.0f * directions[j]) == Approx(model.standardMs[j]));
        CHECK(model.predictMs(RaycastMode::Warp, directions[j]) == Approx(3.0));
    }
    // Halfway between x (polar 90°, azimuth 0°: direction 16) and its neighbour
    // at azimuth 22.5° (17): the mean of the two.
    CHECK(directions[16].x == Approx(1.0));
    float half = glm::radians(11.25f);
    double between = model.predictMs(RaycastMode::Standard, {std::cos(half), std::sin(half), 0.0f});
    CHECK(between == Approx(0.5 * (model.standardMs[16] + model.standardMs[17])));
    // Halfway in polar angle between z (0) and its neighbour towards y (polar
    // 22.5°, azimuth 90°: 5): the mean, though the azimuth columns meet at z.
    CHECK(directions[5].x == Approx(0.0).margin(1e-6));
    float polarHalf = glm::radians(11.25f);
    CHECK(model.predictMs(RaycastMode::Standard, {0.0f, std::sin(polarHalf), std::cos(polarHalf)}) ==
          Approx(0.5 * (model.standardMs[0] + model.standardMs[5])));
    // Continuous across a grid line: just either side of polar 45° at azimuth 30°.
    auto polarAt = [](float polarDeg, float azimuthDeg) {
        float p = glm::radians(polarDeg), a = glm::radians(azimuthDeg);
        return glm::vec3(std::sin(p) * std::cos(a), std::sin(p) * std::sin(a), std::cos(p));
    };
    CHECK(model.predictMs(RaycastMode::Standard, polarAt(44.99f, 30.0f)) ==
          Approx(model.predictMs(RaycastMode::Standard, polarAt(45.01f, 30.0f))).epsilon(1e-3));

    CHECK(model.choose({0.0f, 0.0f, 1.0f}) == RaycastMode::Standard); // 1 against 3
    CHECK(model.choose({1.0f, 0.0f, 0.0f}) == RaycastMode::Warp);     // 7.3 against 3
    CHECK(model.choose({0.0f, -1.0f, 0.2f}) == RaycastMode::Warp);
    CHECK(model.predictMs(RaycastMode::Auto, {1.0f, 0.0f, 0.0f}) == Approx(3.0));
    // Standard is below 3 ms up to 0.5 rad (28.6°) from z.
    CHECK(model.choose({std::sin(0.3f), 0.0f, std::cos(0.3f)}) == RaycastMode::Standard);
    CHECK(model.choose({std::sin(0.8f), 0.0f, std::cos(0.8f)}) == RaycastMode::Warp);
    // A tie goes to Standard.
    model.warpMs = model.standardMs;
    CHECK(model.choose({0.3f, 0.5f, 0.7f}) == RaycastMode::Standard);
}

TEST_CASE("calibration measures both mappings along each model direction, and iso-auto renders the mapping it reports",
          "[raycast]")
{
    Context& context = gpuContext();
    RaycastSetup setup(context, makeSyntheticVolume("torus:36x32x28"));
    RaycastParams params = rayParams(viewCamera(setup.volume, kViews[0]), 0.04f);
    params.mode = RaycastMode::Auto;
    CHECK_THROWS_AS(renderRaycastImage(context, setup.raycaster, params, kExtent), Error); // not calibrated yet

    calibrateRaycastCostModel(context, setup.raycaster, {64, 64}, params, 1, 3);
    const RaycastCostModel& model = setup.raycaster.costModel();
    REQUIRE(model.calibrated);
    for (int j = 0; j < kCalibrationDirections; ++j) {
        INFO("direction " << j);
        CHECK(model.standardMs[j] > 0.0);
        CHECK(model.warpMs[j] > 0.0);
    }
    report("calibrated (ms along x, y, z at 64x64): standard %.3f %.3f %.3f, warp %.3f %.3f %.3f",
           model.standardMs[0], model.standardMs[1], model.standardMs[2], model.warpMs[0], model.warpMs[1],
           model.warpMs[2]);

    for (const View& view : kViews) {
        params.camera = viewCamera(setup.volume, view);
        INFO(view.name << (view.orthographic ? ", orthographic" : ", perspective"));
        RaycastMode chosen = model.choose(setup.raycaster.indexDirection(params.camera));
        CHECK(setup.raycaster.resolveMode(params) == chosen);
        RaycastImage automatic = renderRaycastImage(context, setup.raycaster, params, kExtent);
        CHECK(automatic.mode == chosen);
        CHECK(setup.raycaster.lastMode() == chosen);
        RaycastImage explicitly = raycast(context, setup.raycaster, params, chosen);
        CHECK(hitPixels(automatic.depth) > 500);
        CHECK(automatic.image.pixels == explicitly.image.pixels);
        CHECK(automatic.depth == explicitly.depth);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

namespace {

// Non-finite samples. Which texels a filtered sample touches the reference
// knows; what a device's filter makes of a non-finite texel at a small weight
// Vulkan leaves to it (lavapipe: NaN, IEEE 0 × NaN; the H100 sees the region
// one sample later), so against the reference the hits may move by one step.
// Within the device, brick skipping and the mapping must change nothing.
void requireNonFiniteOutside(Context& context, const Volume& volume, float iso, std::initializer_list<View> views)
{
    RaycastSetup skipping(context, volume);
    RaycastSetup marching(context, volume, RaycastOptions{.skipEmpty = false});
    for (const View& view : views) {
        RaycastParams params = rayParams(viewCamera(volume, view, 35.0f, 40.0f), iso);
        ReferenceImage reference = referenceRaycast(volume, params, kExtent.width, kExtent.height);
        uint64_t referenceHits = hitPixels(reference.depth);
        RaycastImage marched = raycast(context, marching.raycaster, params, RaycastMode::Standard);
        for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp})
            for (RaycastSetup* setup : {&skipping, &marching}) {
                INFO(volume.source << ", " << view.name << (view.orthographic ? ", orthographic, " : ", perspective, ")
                                   << raycastModeName(mode)
                                   << (setup == &skipping ? ", skipping empty space" : ", every sample"));
                RaycastImage gpu = raycast(context, setup->raycaster, params, mode);
                CHECK(gpu.image.pixels == marched.image.pixels);
                CHECK(gpu.depth == marched.depth);
            }
        INFO(volume.source << ", " << view.name << (view.orthographic ? ", orthographic" : ", perspective"));
        HitComparison hits =
            compareHits(hitDistances(reference, marched.depth), reference.distance, params.stepVoxels + 1e-3);
        INFO("hits " << hits.hitsA << " (reference " << hits.hitsB << "), mask differences " << hits.maskDifferences
                     << ", " << hits.beyond << " more than a step away, largest " << hits.maxDifference);
        CHECK(hits.maskDifferences <= referenceHits / 200);
        CHECK(hits.beyond == 0);
        report("%s, %s%s: %llu hits (reference %llu), %llu differ, largest distance difference %.3g voxels",
               volume.source.c_str(), view.name, view.orthographic ? " orthographic" : " perspective",
               (unsigned long long)hits.hitsA, (unsigned long long)hits.hitsB,
               (unsigned long long)hits.maskDifferences, hits.maxDifference);
    }
}

} // namespace

TEST_CASE("non-finite samples are outside, as in the extractors, with and without brick skipping", "[raycast]")
{
    // The sphere's distance field at iso 0.6 is inside (>= iso) outside the
    // ball. A slab of NaN (and a few ±inf) samples in that inside region is
    // outside: rays that start inside hit it where they first sample it.
    Context& context = gpuContext();
    Volume volume = makeSyntheticVolume("sphere:40");
    volume.source = "sphere:40 with a slab of NaN";
    float* samples = reinterpret_cast<float*>(volume.data.data());
    for (uint32_t z = 30; z < 34; ++z)
        for (uint32_t y = 2; y < 38; ++y)
            for (uint32_t x = 2; x < 38; ++x)
                samples[volume.index(x, y, z)] = (x + y) % 17 == 0   ? std::numeric_limits<float>::infinity()
                                                 : (x + y) % 17 == 1 ? -std::numeric_limits<float>::infinity()
                                                                     : std::numeric_limits<float>::quiet_NaN();
    computeStats(volume);
    REQUIRE(volume.stats.nonFinite > 0);
    requireNonFiniteOutside(context, volume, 0.6f, {kViews[0], kViews[3], kViews[4]});
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("infinite samples are outside too, as in the extractors, and skipping bricks of them changes no hit",
          "[raycast]")
{
    // A cube of +inf samples in a field of 0s, then in a field of 1s, at
    // iso 0.5. The extractors count ±inf as outside (not finite), and so do
    // the raycaster's brick classes: in 0s the cube is no surface at all
    // (the CPU marching cubes finds no face, no ray may hit), in 1s its
    // boundary is one.
    Context& context = gpuContext();
    for (float background : {0.0f, 1.0f}) {
        Volume volume = functionVolume(
            {40, 40, 40},
            [&](uint32_t x, uint32_t y, uint32_t z) {
                bool cube = x >= 12 && x < 30 && y >= 10 && y < 30 && z >= 12 && z < 32;
                return cube ? std::numeric_limits<float>::infinity() : background;
            },
            background == 0.0f ? "+inf cube in 0s" : "+inf cube in 1s");
        const float iso = 0.5f;
        ExtractOptions cpu;
        cpu.method = "cpu";
        uint64_t faces = extractIsosurface(context, volume, iso, cpu).faceCount;
        CHECK((faces > 0) == (background == 1.0f));
        for (const View& view : {kViews[0], kViews[5]}) {
            RaycastParams params = rayParams(viewCamera(volume, view, 35.0f, 40.0f), iso);
            uint64_t referenceHits = hitPixels(referenceRaycast(volume, params, kExtent.width, kExtent.height).depth);
            CHECK((referenceHits > 1000) == (background == 1.0f));
        }
        requireNonFiniteOutside(context, volume, iso, {kViews[0], kViews[5]});
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}
