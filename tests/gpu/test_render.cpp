// The raster pass through the render graph: a mesh written on the GPU is
// drawn from its indirect arguments with the expected pixels, a reference
// sphere covers its analytic silhouette, and synchronization validation
// finds nothing to report.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "core/context.h"
#include "core/shader.h"
#include "extract/extract.h"
#include "extract/gpu_extractor.h"
#include "mesh/gpu_mesh.h"
#include "gpu_test_context.h"
#include "render/image_readback.h"
#include "render/camera.h"
#include "scene/render_mesh.h"
#include "volume/synthetic.h"

using namespace isoscope;

namespace {

// Pixels that differ from the clear colour (the corner pixel, which no test draws on).
uint64_t coveredPixels(const RgbaImage& image)
{
    const uint8_t* background = image.at(0, 0);
    uint64_t count = 0;
    for (uint32_t y = 0; y < image.height; ++y)
        for (uint32_t x = 0; x < image.width; ++x)
            if (std::memcmp(image.at(x, y), background, 4) != 0)
                ++count;
    return count;
}

// Signed distance-like edge function of the 2D point p against edge a→b.
double edge(double ax, double ay, double bx, double by, double px, double py)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

} // namespace

TEST_CASE("a triangle written by a compute pass is drawn from its indirect arguments with the expected pixels")
{
    Context& context = test::gpuContext();
    const VkExtent2D extent{64, 64};
    GpuMesh mesh = createGpuMesh(context, 3, 1);
    ComputeProgram writeTriangle(context, loadShader("tests/write_triangle"));
    MeshRenderer renderer(context);
    Image color = createColorTarget(context, extent, "test colour target");
    Buffer readback = createReadbackBuffer(context, extent);

    // Orthographic, looking along +y from -y: screen right is +x, up is +z,
    // and the view is 2 world units high (half-height 1).
    MeshDrawParams params;
    params.camera.orthographic = true;
    params.camera.azimuthDeg = -90.0f;
    params.camera.elevationDeg = 0.0f;
    params.camera.distance = 2.0f;
    params.camera.fovYDeg = float(glm::degrees(2.0 * std::atan(0.5)));
    params.camera.nearPlane = 0.1f;
    params.camera.farPlane = 10.0f;
    params.frontColor = {0.6f, 0.4f, 0.2f};
    params.backColor = {0.2f, 0.4f, 0.6f};

    RenderGraph graph(context);
    MeshBuffers buffers = importMesh(graph, mesh, "triangle");
    graph.addPass("write triangle", PassKind::Compute,
                  {{buffers.vertices, Use::StorageWrite}, {buffers.indices, Use::StorageWrite},
                   {buffers.counters, Use::StorageWrite}},
                  [&](VkCommandBuffer cmd, const RenderGraph& g) {
                      writeTriangle.bind(cmd, {g.buffer(buffers.vertices), g.buffer(buffers.indices),
                                               g.buffer(buffers.counters)});
                      writeTriangle.dispatch(cmd, 1);
                  });
    ResourceId colorId = graph.importImage("color", graphImage(color));
    ResourceId depthId = graph.createImage("depth", extent, MeshRenderer::kDepthFormat);
    addMeshPass(graph, renderer, buffers, {colorId, depthId}, params);
    addReadbackPass(graph, colorId, readback);
    graph.compile();
    REQUIRE(graph.compiled().passes.size() == 3);

    // The pixels whose centres lie inside the triangle, and the ones clearly outside.
    auto expectInside = [&](uint32_t x, uint32_t y, bool mirrored) {
        double wx = (x + 0.5) / 32.0 - 1.0, wz = 1.0 - (y + 0.5) / 32.0;
        if (mirrored)
            wx = -wx;
        double e[3] = {edge(-0.5, -0.5, 0.5, -0.5, wx, wz), edge(0.5, -0.5, 0.0, 0.5, wx, wz),
                       edge(0.0, 0.5, -0.5, -0.5, wx, wz)};
        double margin = 1e-3;
        if (e[0] > margin && e[1] > margin && e[2] > margin)
            return 1;
        if (e[0] < -margin || e[1] < -margin || e[2] < -margin)
            return 0;
        return -1; // on an edge: either is right
    };

    // Frame 1 sees the front; frame 2, the same compiled graph with only the
    // camera changed, sees the back: two-sided lighting in the back colour.
    for (int frame = 0; frame < 2; ++frame) {
        CAPTURE(frame);
        params.camera.azimuthDeg = frame == 0 ? -90.0f : 90.0f;
        graph.execute();
        RgbaImage image = readRgba(readback, extent);
        // Headlight on a face turned straight to the eye: base colour + 0.25 highlight.
        const uint8_t expected[2][3] = {{217, 166, 115}, {115, 166, 217}};
        uint64_t inside = 0;
        for (uint32_t y = 0; y < extent.height; ++y)
            for (uint32_t x = 0; x < extent.width; ++x) {
                int want = expectInside(x, y, frame == 1);
                if (want < 0)
                    continue;
                const uint8_t* pixel = image.at(x, y);
                bool lit = std::memcmp(pixel, image.at(0, 0), 4) != 0;
                INFO("pixel " << x << "," << y);
                REQUIRE(lit == bool(want));
                if (lit) {
                    ++inside;
                    for (int c = 0; c < 3; ++c)
                        REQUIRE(std::abs(int(pixel[c]) - int(expected[frame][c])) <= 1);
                    REQUIRE(pixel[3] == 255);
                }
            }
        CHECK(inside > 450); // the triangle is 512 pixels
        auto timings = graph.passTimings();
        REQUIRE(timings.size() == 3);
        CHECK(timings[0].first == "write triangle");
        CHECK(timings[1].first == "draw mesh");
        CHECK(timings[2].first == "read back color");
        REQUIRE_NO_VALIDATION_MESSAGES();
    }
    GpuMeshCounters counters = readCounters(context, mesh);
    CHECK(counters.draw.indexCount == 3);
    CHECK(counters.draw.instanceCount == 1);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a rendered reference sphere covers its analytic silhouette area within 1%")
{
    Context& context = test::gpuContext();
    const double radius = 0.6; // sphere:N is the distance to the centre: iso = radius
    Volume volume = makeSyntheticVolume("sphere:48");
    ExtractOptions options;
    options.method = "cpu";
    ExtractionReport report = extractIsosurface(context, volume, float(radius), options);
    GpuMesh mesh = uploadMesh(context, report.mesh);

    const VkExtent2D extent{128, 128};
    for (bool orthographic : {false, true}) {
        CAPTURE(orthographic);
        MeshDrawParams params;
        params.camera.azimuthDeg = 30.0f;
        params.camera.elevationDeg = 20.0f;
        params.camera.distance = 3.0f;
        params.camera.fovYDeg = 40.0f;
        params.camera.nearPlane = 1.0f;
        params.camera.farPlane = 6.0f;
        params.camera.orthographic = orthographic;
        RenderedImage rendered = renderMeshImage(context, mesh, params, extent);

        // A centred sphere projects to a disc. Perspective: the cone of
        // half-angle asin(r/d) meets the image plane at tan = r / sqrt(d² - r²).
        const double d = params.camera.distance, halfFov = glm::radians(double(params.camera.fovYDeg)) / 2.0;
        const double halfHeight = orthographic ? d * std::tan(halfFov) : std::tan(halfFov);
        const double discRadius = orthographic ? radius : radius / std::sqrt(d * d - radius * radius);
        const double pixels = discRadius / halfHeight * (extent.height / 2.0);
        const double expectedArea = M_PI * pixels * pixels;
        const double covered = double(coveredPixels(rendered.image));
        INFO("covered " << covered << " pixels, expected " << expectedArea);
        CHECK(std::abs(covered - expectedArea) / expectedArea < 0.01);
        REQUIRE_NO_VALIDATION_MESSAGES();
    }
}

TEST_CASE("a host that owns the device embeds the engine and records the graph into its own command buffer")
{
    Context& owner = test::gpuContext();
    Volume volume = makeSyntheticVolume("sphere:24");
    Mesh sphere = extractIsosurface(owner, volume, 0.6f).mesh;
    GpuMesh ownerMesh = uploadMesh(owner, sphere);
    MeshDrawParams params;
    params.camera = frameBounds(glm::vec3(-1.0f), glm::vec3(1.0f), 1.0f);
    const VkExtent2D extent{64, 64};
    RgbaImage expected = renderMeshImage(owner, ownerMesh, params, extent).image;

    // The "host": its own handles, command pool and fence; isoscope borrows the device.
    HostDevice host{owner.instance(), owner.physicalDevice(), owner.device(), owner.queue(), owner.queueFamily(),
                    owner.info().features};
    Context embedded(host);
    GpuMesh mesh = uploadMesh(embedded, sphere);
    MeshRenderer renderer(embedded);
    Image color = createColorTarget(embedded, extent, "host colour target");
    Buffer readback = createReadbackBuffer(embedded, extent);
    RenderGraph graph(embedded);
    ResourceId colorId = graph.importImage("color", graphImage(color));
    ResourceId depthId = graph.createImage("depth", extent, MeshRenderer::kDepthFormat);
    addMeshPass(graph, renderer, importMesh(graph, mesh), {colorId, depthId}, params);
    addReadbackPass(graph, colorId, readback);
    graph.compile();

    VkDevice device = owner.device();
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.queueFamilyIndex = owner.queueFamily();
    VkCommandPool pool = VK_NULL_HANDLE;
    REQUIRE(vkCreateCommandPool(device, &poolInfo, nullptr, &pool) == VK_SUCCESS);
    VkCommandBufferAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocateInfo.commandPool = pool;
    allocateInfo.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    REQUIRE(vkAllocateCommandBuffers(device, &allocateInfo, &cmd) == VK_SUCCESS);
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    REQUIRE(vkCreateFence(device, &fenceInfo, nullptr, &fence) == VK_SUCCESS);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    REQUIRE(vkBeginCommandBuffer(cmd, &begin) == VK_SUCCESS);
    graph.record(cmd);
    REQUIRE(vkEndCommandBuffer(cmd) == VK_SUCCESS);
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    REQUIRE(vkQueueSubmit(owner.queue(), 1, &submit, fence) == VK_SUCCESS);
    REQUIRE(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS);
    vkDestroyFence(device, fence, nullptr);
    vkDestroyCommandPool(device, pool, nullptr);

    RgbaImage image = readRgba(readback, extent);
    CHECK(coveredPixels(image) > 100);
    CHECK(image.pixels == expected.pixels);
    CHECK(graph.passTimings().size() == 2);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("GPU extractors feed the raster pass in one graph: the silhouette equals the reference mesh's")
{
    // Extract, draw and read back in one submission: the draw takes its
    // count from the counters the extractor wrote, never from the CPU. The
    // first frame overflows the estimated mesh (the gyroid crosses far more
    // cells than a smooth surface), so the frame is also redone larger.
    Context& context = test::gpuContext();
    for (const char* spec : {"torus:40x36x30", "gyroid:30"}) {
        Volume volume = makeSyntheticVolume(spec);
        float iso = std::string(spec).rfind("torus", 0) == 0 ? 0.04f : 0.1f;
        MeshDrawParams params;
        params.camera = frameBounds(glm::vec3(-1.0f), glm::vec3(1.0f), 1.0f, 35.0f, 25.0f, 40.0f, 0.0f);
        const VkExtent2D extent{96, 96};

        ExtractOptions cpu;
        cpu.method = "cpu";
        GpuMesh referenceMesh = uploadMesh(context, extractIsosurface(context, volume, iso, cpu).mesh);
        RenderedImage reference = renderMeshImage(context, referenceMesh, params, extent);

        for (const char* method : {"block", "scan", "histopyramid"}) {
            CAPTURE(spec, method);
            ExtractOptions options;
            options.method = method;
            PreparedExtraction prepared = prepareGpuExtraction(context, volume, options);
            GpuMesh mesh = createGpuMesh(context, 64, 64); // far too small: the frame must be redone
            GpuMeshCounters counters{};
            RenderedImage image = renderExtractionImage(context, *prepared.extractor, iso, mesh, params, extent, counters);
            REQUIRE(counters.overflow == 0);
            REQUIRE(counters.faceCount == referenceMesh.faceCapacity);
            REQUIRE(counters.draw.indexCount == 3 * counters.faceCount);
            // Same triangles: the same pixels are covered (shading may differ
            // in the last bits, the normals being computed differently).
            uint64_t differentCoverage = 0;
            const uint8_t* background = image.image.at(0, 0);
            for (uint32_t y = 0; y < extent.height; ++y)
                for (uint32_t x = 0; x < extent.width; ++x) {
                    bool covered = std::memcmp(image.image.at(x, y), background, 4) != 0;
                    bool coveredByReference = std::memcmp(reference.image.at(x, y), background, 4) != 0;
                    differentCoverage += covered != coveredByReference;
                }
            INFO(differentCoverage << " pixels covered differently, of " << coveredPixels(reference.image));
            REQUIRE(coveredPixels(reference.image) > 500);
            REQUIRE(differentCoverage == 0);
            REQUIRE_NO_VALIDATION_MESSAGES();
        }
    }
}
