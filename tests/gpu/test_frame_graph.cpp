// A host's frame as one render graph: two extractions (block and scan, at
// different isovalues), the raster pass of each mesh and an isosurface
// raycast, compiled once and executed for three isovalues. Each time the
// pictures equal those of the reference meshes (and of the raycaster run on
// its own), and the graph's barriers are what the declarations imply.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>

#include "core/context.h"
#include "extract/extract.h"
#include "extract/extraction_run.h"
#include "extract/gpu_extractor.h"
#include "gpu_test_context.h"
#include "mesh/gpu_mesh.h"
#include "raycast/iso_raycaster.h"
#include "render/image_readback.h"
#include "scene/render_mesh.h"
#include "scene/render_raycast.h"
#include "volume/synthetic.h"

using namespace isoscope;

namespace {

uint64_t differentCoverage(const RgbaImage& a, const RgbaImage& b)
{
    const uint8_t* backgroundA = a.at(0, 0);
    const uint8_t* backgroundB = b.at(0, 0);
    uint64_t different = 0;
    for (uint32_t y = 0; y < a.height; ++y)
        for (uint32_t x = 0; x < a.width; ++x)
            different += (std::memcmp(a.at(x, y), backgroundA, 4) != 0) != (std::memcmp(b.at(x, y), backgroundB, 4) != 0);
    return different;
}

// Pixels that differ from the clear colour (the corner pixel, which no test draws on).
uint64_t coveredPixels(const RgbaImage& image)
{
    uint64_t count = 0;
    for (uint32_t y = 0; y < image.height; ++y)
        for (uint32_t x = 0; x < image.width; ++x)
            count += std::memcmp(image.at(x, y), image.at(0, 0), 4) != 0;
    return count;
}

ResourceId resourceNamed(const GraphDesc& desc, const std::string& name)
{
    for (ResourceId id = 0; id < desc.resources.size(); ++id)
        if (desc.resources[id].name == name)
            return id;
    FAIL("no resource named " << name);
    return kNoResource;
}

bool passWrites(const PassDesc& pass, ResourceId id)
{
    for (const ResourceUse& use : pass.uses)
        if (use.resource == id && isWriteUse(use.use))
            return true;
    return false;
}

bool passUses(const PassDesc& pass, ResourceId id)
{
    for (const ResourceUse& use : pass.uses)
        if (use.resource == id)
            return true;
    return false;
}

} // namespace

TEST_CASE("one graph extracts with two methods, draws both meshes and raycasts; compiled once, run at three "
          "isovalues, each time the reference pictures and no redundant barrier",
          "[gpu][graph][frame]")
{
    Context& context = test::gpuContext();
    Volume volume = makeSyntheticVolume("torus:40x36x30");
    const VkExtent2D extent{64, 64};
    MeshDrawParams drawParams;
    drawParams.camera = frameBounds(glm::vec3(-1.0f), glm::vec3(1.0f), 1.0f, 35.0f, 25.0f, 40.0f, 0.0f);

    ExtractOptions blockOptions, scanOptions, cpu;
    blockOptions.method = "block";
    scanOptions.method = "scan";
    cpu.method = "cpu";
    PreparedExtraction block = prepareGpuExtraction(context, volume, blockOptions);
    PreparedExtraction scan = prepareGpuExtraction(context, volume, scanOptions);
    IsoRaycaster raycaster(context, FieldSource{&volume, block.volume.get()});

    const float isovalues[3][2] = {{0.04f, 0.07f}, {0.06f, 0.09f}, {0.08f, 0.12f}};
    // The methods' work lists sized for every isovalue below by a run of
    // each on a graph of its own (it grows them on overflow), and meshes
    // large enough: the shared graph below is compiled once and never rebuilt.
    for (const auto& isos : isovalues) {
        GraphExtraction(context, *block.extractor, isos[0]).run(isos[0]);
        GraphExtraction(context, *scan.extractor, isos[1]).run(isos[1]);
    }
    GpuMesh blockMesh = createGpuMesh(context, 200000, 400000);
    GpuMesh scanMesh = createGpuMesh(context, 200000, 400000);
    Buffer blockReadback = createReadbackBuffer(context, extent), scanReadback = createReadbackBuffer(context, extent),
           rayReadback = createReadbackBuffer(context, extent);
    MeshRenderer renderer(context);

    float blockIso = 0.0f, scanIso = 0.0f;
    RaycastParams rayParams;
    rayParams.camera = drawParams.camera;
    rayParams.mode = RaycastMode::Standard;

    RenderGraph graph(context);
    MeshBuffers blockBuffers = importMesh(graph, blockMesh, "block mesh");
    MeshBuffers scanBuffers = importMesh(graph, scanMesh, "scan mesh");
    block.extractor->addToGraph(graph, blockBuffers, blockIso, "block/");
    scan.extractor->addToGraph(graph, scanBuffers, scanIso, "scan/");
    ResourceId blockColor = graph.createImage("block color", extent, MeshRenderer::kColorFormat);
    ResourceId blockDepth = graph.createImage("block depth", extent, MeshRenderer::kDepthFormat);
    ResourceId scanColor = graph.createImage("scan color", extent, MeshRenderer::kColorFormat);
    ResourceId scanDepth = graph.createImage("scan depth", extent, MeshRenderer::kDepthFormat);
    addMeshPass(graph, renderer, blockBuffers, {blockColor, blockDepth}, drawParams, "draw block mesh");
    addMeshPass(graph, renderer, scanBuffers, {scanColor, scanDepth}, drawParams, "draw scan mesh");
    RaycastTargets rayTargets;
    rayTargets.color = graph.createImage("ray color", extent, kRayColorFormat);
    rayTargets.depth = graph.createImage("ray depth", extent, kRayDepthFormat);
    addIsoRaycastPass(graph, raycaster, rayTargets, rayParams);
    addReadbackPass(graph, blockColor, blockReadback);
    addReadbackPass(graph, scanColor, scanReadback);
    addReadbackPass(graph, rayTargets.color, rayReadback);
    graph.compile();

    // The barriers, checked once: nothing between two reads of a resource
    // (a read-only import, such as the volume or the case table, gets none
    // at all), and each mesh's buffers get exactly one barrier, before its draw.
    const GraphDesc& desc = graph.desc();
    const CompiledGraph& compiled = graph.compiled();
    std::map<ResourceId, int> lastUser; // position in compiled.passes
    for (size_t position = 0; position < compiled.passes.size(); ++position) {
        const PassDesc& pass = desc.passes[compiled.passes[position].pass];
        for (const Barrier& barrier : compiled.passes[position].barriers) {
            INFO("pass '" << pass.name << "', resource '" << desc.resources[barrier.resource].name << "'");
            auto previous = lastUser.find(barrier.resource);
            bool layoutChange = barrier.image && barrier.oldLayout != barrier.newLayout;
            if (previous != lastUser.end() && !layoutChange) {
                const PassDesc& before = desc.passes[compiled.passes[previous->second].pass];
                REQUIRE((passWrites(before, barrier.resource) || passWrites(pass, barrier.resource)));
            }
        }
        for (ResourceId id = 0; id < desc.resources.size(); ++id)
            if (passUses(pass, id))
                lastUser[id] = int(position);
    }
    for (const char* readOnly : {"block/volume", "block/case table", "scan/volume samples", "scan/case table"}) {
        ResourceId id = resourceNamed(desc, readOnly);
        for (const CompiledPass& pass : compiled.passes)
            for (const Barrier& barrier : pass.barriers)
                REQUIRE(barrier.resource != id);
    }
    for (const char* prefix : {"block mesh", "scan mesh"}) {
        for (const char* part : {" vertices", " indices"}) {
            ResourceId id = resourceNamed(desc, std::string(prefix) + part);
            int barriersAtDraw = 0;
            for (const CompiledPass& pass : compiled.passes)
                for (const Barrier& barrier : pass.barriers)
                    if (barrier.resource == id && desc.passes[pass.pass].kind == PassKind::Raster)
                        ++barriersAtDraw;
            INFO(prefix << part);
            REQUIRE(barriersAtDraw == 1);
        }
    }

    for (const auto& isos : isovalues) {
        blockIso = isos[0];
        scanIso = isos[1];
        rayParams.iso = isos[0];
        CAPTURE(blockIso, scanIso);
        graph.execute();
        REQUIRE(readCounters(context, blockMesh).overflow == 0);
        REQUIRE(readCounters(context, scanMesh).overflow == 0);

        for (auto [iso, readback] : {std::pair{blockIso, &blockReadback}, std::pair{scanIso, &scanReadback}}) {
            GpuMesh reference = uploadMesh(context, extractIsosurface(context, volume, iso, cpu).mesh);
            RgbaImage expected = renderMeshImage(context, reference, drawParams, extent).image;
            RgbaImage got = readRgba(*readback, extent);
            INFO("iso " << iso);
            REQUIRE(coveredPixels(expected) > 200);
            REQUIRE(differentCoverage(got, expected) == 0);
        }
        // The raycast in the shared frame equals the raycaster's own frame.
        RgbaImage ray = readRgba(rayReadback, extent);
        RgbaImage alone = renderRaycastImage(context, raycaster, rayParams, extent).image;
        REQUIRE(coveredPixels(alone) > 200);
        REQUIRE(ray.pixels == alone.pixels);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}
