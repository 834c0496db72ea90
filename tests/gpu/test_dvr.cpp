// Direct volume rendering (engine/dvr, issue 20) as specifications: every
// mapping matches a CPU reference DVR with the same sampling, table and
// compositing (dvr_reference.h) at PSNR ≥ 40 dB and the others at ≥ 50 dB,
// a rotated volume renders the picture an unrotated one does, four quarter
// turns restore the image bit for bit without volume-sized memory, early
// termination and transfer-function skipping change no pixel beyond the
// threshold, and DVR composites with a raster mesh by depth. At whatever
// subgroup size the device runs, validation on.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "core/context.h"
#include "dvr/dvr_cost_cache.h"
#include "dvr/dvr_raycaster.h"
#include "dvr/rotate_volume.h"
#include "dvr_reference.h"
#include "raycast_reference.h"
#include "gpu_test_context.h"
#include "raycast/iso_raycaster.h"
#include "scene/render_dvr.h"
#include "volume/gpu_volume.h"
#include "volume/synthetic.h"

using namespace isoscope;
using namespace isoscope::test;

namespace {

constexpr VkExtent2D kExtent{96, 96};

// A bump of opacity around `centre` (zero elsewhere, so bricks get skipped)
// on a colour ramp over [lo, hi].
TransferFunction bumpFunction(float lo, float hi, float centre, float width, float peak)
{
    TransferFunction tf;
    tf.name = "test bump";
    tf.color = {{lo, {0.1f, 0.2f, 0.9f}}, {centre, {0.9f, 0.8f, 0.3f}}, {hi, {1.0f, 0.2f, 0.1f}}};
    tf.opacity = {{lo, 0.0f}, {centre - width, 0.0f}, {centre, peak}, {centre + width, 0.0f}, {hi, 0.0f}};
    return tf;
}

OrbitCamera framed(const Volume& volume, float azimuth, float elevation)
{
    glm::vec3 lo(volume.origin[0], volume.origin[1], volume.origin[2]), hi = lo;
    for (int axis = 0; axis < 3; ++axis)
        hi[axis] += float((volume.dims[axis] - 1) * volume.spacing[axis]);
    return frameBounds(lo, hi, 1.0f, azimuth, elevation, 40.0f, 0.0f);
}

struct View {
    const char* name;
    float azimuth, elevation;
};
// Oblique (mostly along x), facing x (the rotated mapping turns the volume for both), facing y, and facing z from above.
const View kViews[] = {{"oblique", 30.0f, 20.0f}, {"along x", 180.0f, 0.0f}, {"along y", 270.0f, 5.0f},
                       {"along z", 10.0f, 80.0f}};

const DvrMapping kMappings[] = {DvrMapping::Standard, DvrMapping::Shaped, DvrMapping::Rotated, DvrMapping::Warp};

GpuVolumeUsage rotatable()
{
    GpuVolumeUsage usage;
    usage.squareXZMultiple = kRotationPadding;
    return usage;
}

// A synthetic volume on the GPU with a raycaster and a transfer function.
struct DvrScene {
    DvrScene(const char* spec, const TransferFunction& tf, GpuVolumeUsage usage)
        : volume(makeSyntheticVolume(spec)), gpuVolume(gpuContext(), volume, usage), dvr(gpuContext(), {&volume, &gpuVolume})
    {
        dvr.setTransferFunction(tf);
    }
    Volume volume;
    GpuVolume gpuVolume;
    DvrRaycaster dvr;
};

// The 3D image's texels as bytes (a transfer pass in a graph).
std::vector<std::byte> readImage(Context& context, const GpuVolume& volume)
{
    const Image& image = volume.image();
    VkExtent3D e = image.extent;
    size_t texel = volume.type() == ScalarType::UInt8 ? 1 : volume.type() == ScalarType::Float32 ? 4 : 2;
    VkDeviceSize bytes = VkDeviceSize(e.width) * e.height * e.depth * texel;
    Buffer readback = context.allocator().createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback,
                                                       "test volume read-back");
    runGraph(context, [&](RenderGraph& graph) {
        ResourceId source = importVolumeImage(graph, volume);
        ResourceId target = graph.importBuffer("read-back", readback.buffer, {},
                                               ResourceState{VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT});
        graph.addPass("read back volume", PassKind::Transfer, {{source, Use::TransferSrc}, {target, Use::TransferDst}},
                      [&, source, target](VkCommandBuffer cmd, const RenderGraph& g) {
                          VkBufferImageCopy region{};
                          region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
                          region.imageExtent = e;
                          vkCmdCopyImageToBuffer(cmd, g.image(source).image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                                 g.buffer(target), 1, &region);
                      });
        // Back to GENERAL, the layout every user of the volume expects.
        graph.addPass("volume back to general", PassKind::Compute, {{source, Use::StorageImageRead}},
                      [](VkCommandBuffer, const RenderGraph&) {}, true);
    });
    std::vector<std::byte> result(bytes);
    std::memcpy(result.data(), readback.mapped, bytes);
    return result;
}

} // namespace

TEST_CASE("every DVR mapping matches the CPU reference and the others", "[dvr]")
{
    Context& context = gpuContext();
    // Non-cubic, so that the rotated mapping's padding is exercised.
    DvrScene scene("marschner-lobb:41x33x27", bumpFunction(0.0f, 1.0f, 0.5f, 0.2f, 0.35f), rotatable());
    Volume& volume = scene.volume;
    DvrRaycaster& dvr = scene.dvr;
    REQUIRE(dvr.canRotate());
    for (const View& view : kViews) {
        DvrParams params;
        params.camera = framed(volume, view.azimuth, view.elevation);
        DvrReferenceImage reference = referenceDvr(volume, dvr.table(), params, kExtent.width, kExtent.height);
        RgbaImage standard;
        for (DvrMapping mapping : kMappings) {
            params.mapping = mapping;
            DvrImage image = renderDvrImage(context, dvr, params, kExtent);
            double toReference = psnr(image.image, reference.image);
            INFO(view.name << ", " << dvrMappingName(mapping) << " (" << tileShapeName(image.plan.shape) << ", "
                           << image.plan.turns << " turns): " << toReference << " dB against the reference");
            CHECK(toReference >= 40.0);
            if (mapping == DvrMapping::Standard)
                standard = image.image;
            else
                CHECK(psnr(image.image, standard) >= 50.0);
            if (mapping == DvrMapping::Rotated)
                CHECK(image.plan.turns == (facingAxis(dvr.indexDirection(params.camera)) == 0 ? 1 : 0));
        }
        // Something was drawn: the bump is visible against the background.
        size_t differing = 0;
        for (size_t i = 0; i < standard.pixels.size(); i += 4)
            differing += standard.pixels[i] != reference.image.pixels[0] || standard.pixels[i + 2] != reference.image.pixels[2];
        CHECK(differing > standard.pixels.size() / 4 / 10);
    }
    dvr.restoreVolume();
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("four quarter turns restore the volume bit for bit, in place", "[dvr][rotation]")
{
    Context& context = gpuContext();
    // int16 with its extremes (−32768 would not survive a trip through snorm floats).
    Volume volume;
    volume.dims = {37, 6, 21};
    volume.type = ScalarType::Int16;
    volume.data.resize(volume.byteSize());
    std::vector<int16_t> values(volume.sampleCount());
    for (size_t i = 0; i < values.size(); ++i)
        values[i] = int16_t(i * 7919u % 65536u - 32768);
    values[0] = -32768;
    values[1] = 32767;
    std::memcpy(volume.data.data(), values.data(), volume.byteSize());
    GpuVolume gpuVolume(context, volume, rotatable());
    REQUIRE(gpuVolume.imageDims()[0] == gpuVolume.imageDims()[2]);
    REQUIRE(gpuVolume.imageDims()[0] % kRotationPadding == 0);
    VolumeRotation rotation(context, gpuVolume);
    std::vector<std::byte> before = readImage(context, gpuVolume);
    // One pass a turn: consecutive turns depend on each other, and the graph
    // places the barrier between them.
    auto turn = [&](int count, bool forward) {
        runGraph(context, [&](RenderGraph& graph) {
            ResourceId image = importVolumeImage(graph, gpuVolume);
            for (int i = 0; i < count; ++i)
                graph.addComputePass("rotate volume", rotation.program(), {{image, Use::StorageImageWrite, 0}},
                                     [&, forward](VkCommandBuffer cmd, const RenderGraph&) {
                                         rotation.record(cmd, forward);
                                     });
            graph.addPass("keep", PassKind::Compute, {{image, Use::StorageImageRead}},
                          [](VkCommandBuffer, const RenderGraph&) {}, true);
        });
    };
    context.allocator().resetPeak();
    uint64_t peakBefore = context.allocator().peakDeviceBytes();
    turn(1, true);
    uint64_t peakAfter = context.allocator().peakDeviceBytes();
    // No copy of the volume: what a turn allocates is far below the image's size.
    CHECK(peakAfter - peakBefore < gpuVolume.image().allocated / 2);

    // One turn moves (x, y, z) to (n − 1 − z, y, x).
    std::vector<std::byte> once = readImage(context, gpuVolume);
    const uint32_t n = gpuVolume.imageDims()[0], h = gpuVolume.imageDims()[1];
    auto texel = [&](const std::vector<std::byte>& image, uint32_t x, uint32_t y, uint32_t z) {
        int16_t v;
        std::memcpy(&v, image.data() + ((size_t(z) * h + y) * n + x) * 2, 2);
        return v;
    };
    size_t moved = 0;
    for (uint32_t z = 0; z < n; ++z)
        for (uint32_t y = 0; y < h; ++y)
            for (uint32_t x = 0; x < n; ++x)
                moved += texel(once, n - 1 - z, y, x) == texel(before, x, y, z);
    CHECK(moved == size_t(n) * h * n);

    turn(3, true);
    CHECK(readImage(context, gpuVolume) == before);
    turn(1, true);
    turn(1, false);
    CHECK(readImage(context, gpuVolume) == before);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("early termination and transfer-function skipping change no pixel beyond the threshold", "[dvr]")
{
    Context& context = gpuContext();
    // Opaque near the surface, so rays terminate; transparent far from it, so bricks are skipped.
    DvrScene scene("cayley:40", bumpFunction(-1.0f, 1.0f, -0.01f, 0.05f, 0.9f), rotatable());
    Volume& volume = scene.volume;
    DvrRaycaster& dvr = scene.dvr;
    for (DvrMapping mapping : kMappings) {
        DvrParams fast;
        fast.camera = framed(volume, 30.0f, 20.0f);
        fast.mapping = mapping;
        DvrParams bare = fast;
        bare.terminationOpacity = 1.0f;
        bare.skipTransparent = false;
        DvrImage a = renderDvrImage(context, dvr, fast, kExtent);
        DvrImage b = renderDvrImage(context, dvr, bare, kExtent);
        // What termination leaves out weighs at most 1 − 0.99 of the pixel, plus rounding.
        int allowed = int(std::ceil((1.0f - fast.terminationOpacity) * 255.0f)) + 1;
        int worst = 0;
        for (size_t i = 0; i < a.image.pixels.size(); ++i)
            worst = std::max(worst, std::abs(int(a.image.pixels[i]) - int(b.image.pixels[i])));
        INFO(dvrMappingName(mapping) << ": largest difference " << worst << " of " << allowed << " allowed");
        CHECK(worst <= allowed);
        // Skipping alone changes nothing at all.
        DvrParams skipOnly = bare;
        skipOnly.skipTransparent = true;
        DvrImage c = renderDvrImage(context, dvr, skipOnly, kExtent);
        CHECK(c.image.pixels == b.image.pixels);
    }
    dvr.restoreVolume();
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("DVR writes depth where a ray first becomes opaque enough", "[dvr]")
{
    Context& context = gpuContext();
    DvrScene scene("sphere:40", bumpFunction(0.0f, 1.0f, 0.6f, 0.1f, 0.8f), GpuVolumeUsage{});
    Volume& volume = scene.volume;
    DvrRaycaster& dvr = scene.dvr;
    CHECK_FALSE(dvr.canRotate()); // not padded
    DvrParams params;
    params.camera = framed(volume, 30.0f, 20.0f);
    DvrReferenceImage reference = referenceDvr(volume, dvr.table(), params, kExtent.width, kExtent.height);
    DvrImage image = renderDvrImage(context, dvr, params, kExtent);
    // The GPU's filter rounds its weights (8 bits on most hardware), so a ray
    // may reach the threshold one sample earlier or later: within one step.
    RayFrame frame = rayFrame(params.camera, volume, kExtent.width, kExtent.height);
    size_t both = 0, mismatched = 0;
    for (uint32_t y = 0; y < kExtent.height; ++y)
        for (uint32_t x = 0; x < kExtent.width; ++x) {
            size_t i = size_t(y) * kExtent.width + x;
            bool gpu = image.depth[i] < 1.0f, cpu = reference.depth[i] < 1.0f;
            both += gpu && cpu;
            mismatched += gpu != cpu;
            if (gpu && cpu) {
                ReferenceRay ray = referenceRay(frame, x, y, params.stepVoxels);
                float apart = std::fabs(distanceOfDepth(frame, ray, image.depth[i]) -
                                        distanceOfDepth(frame, ray, reference.depth[i]));
                CHECK(apart <= params.stepVoxels * 1.01f + 1e-3f);
            }
        }
    CHECK(both > image.depth.size() / 20);
    CHECK(mismatched <= image.depth.size() / 200); // rays that reach the threshold at a rounding's distance
    params.mapping = DvrMapping::Rotated;
    CHECK_THROWS_WITH(renderDvrImage(context, dvr, params, kExtent), Catch::Contains("squareXZMultiple"));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the auto DVR mapping runs what its calibrated cost table chooses", "[dvr]")
{
    Context& context = gpuContext();
    DvrScene scene("marschner-lobb:24", bumpFunction(0.0f, 1.0f, 0.5f, 0.2f, 0.35f), rotatable());
    Volume& volume = scene.volume;
    DvrRaycaster& dvr = scene.dvr;
    DvrParams params;
    params.camera = framed(volume, 30.0f, 20.0f);
    params.mapping = DvrMapping::Auto;
    const VkExtent2D small{32, 32};
    CHECK_THROWS_WITH(renderDvrImage(context, dvr, params, small), Catch::Contains("calibrat"));
    calibrateDvrCostModel(context, dvr, small, params, 0, 1);
    REQUIRE(dvr.costModel().calibrated);
    for (const auto& table : dvr.costModel().ms)
        for (double ms : table)
            CHECK(ms > 0.0);
    for (const View& view : kViews) {
        params.camera = framed(volume, view.azimuth, view.elevation);
        params.mapping = DvrMapping::Auto;
        DvrImage chosen = renderDvrImage(context, dvr, params, small);
        CHECK(chosen.plan.mapping == dvr.costModel().choose(dvr.indexDirection(params.camera)));
        params.mapping = DvrMapping::Standard;
        CHECK(psnr(chosen.image, renderDvrImage(context, dvr, params, small).image) >= 50.0);
    }
    dvr.restoreVolume();
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the DVR calibration is kept on disk per device and scene, and a bad file is not trusted", "[dvr]")
{
    Context& context = gpuContext();
    DvrScene scene("sphere:20", bumpFunction(0.0f, 1.0f, 0.5f, 0.2f, 0.35f), rotatable());
    DvrParams params;
    params.camera = framed(scene.volume, 30.0f, 20.0f);
    const VkExtent2D small{16, 16};
    const char* root = std::getenv("ISOSCOPE_TEST_TMP");
    std::filesystem::path folder = std::filesystem::path(root ? root : "/tmp") / "dvr-calibration-cache";
    std::filesystem::remove_all(folder);
    CHECK_FALSE(calibrateDvrCostModelCached(context, scene.dvr, scene.volume, small, params, folder));
    DvrCostModel first = scene.dvr.costModel();
    scene.dvr.costModel() = {};
    CHECK(calibrateDvrCostModelCached(context, scene.dvr, scene.volume, small, params, folder));
    CHECK(scene.dvr.costModel().ms == first.ms);
    // Another image size is another key: timed afresh.
    CHECK_FALSE(calibrateDvrCostModelCached(context, scene.dvr, scene.volume, {24, 16}, params, folder));
    // A damaged file is ignored, and replaced.
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        std::ofstream(entry.path()) << "{\"key\": 1, \"ms\": [[-1]]";
    CHECK_FALSE(calibrateDvrCostModelCached(context, scene.dvr, scene.volume, small, params, folder));
    CHECK(calibrateDvrCostModelCached(context, scene.dvr, scene.volume, small, params, folder));
    std::filesystem::remove_all(folder);
    scene.dvr.restoreVolume();
    REQUIRE_NO_VALIDATION_MESSAGES();
}
